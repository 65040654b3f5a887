// Scene files presented over one another, navigation-style (`layerkit present`): each scene file
// is a screen, a layer filling the output that shows the scene's own frame at the scene's own
// time; a SceneNavigator pushes screens (forward) and pops them (backward) with scene transitions.
// One clock drives everything: at the output's time t the steps due by then are taken at their
// own times, every visible scene is presented at its local time (t minus the time it was first
// shown), and the navigator's scene is presented at t.

import Foundation
import LayerKit

/// Scene files presented one over another with scene transitions, as one video.
public final class ScenePresentation {
  /// One navigation step.
  public enum Step: String, Sendable, CaseIterable {
    /// Present the next scene file over the top one (forward).
    case push
    /// Dismiss the top one with the transition it came with (backward).
    case pop
  }

  /// Output size and rate: the first scene's.
  public let settings: SceneSettings
  /// When each step starts (scene seconds), in step order.
  public let stepTimes: [Double]
  /// The video's length: the holds and every step's transition.
  public let duration: Double

  private let scenes: [LoadedScene]
  private let steps: [Step]
  private let transitions: [SceneTransition]
  private let hold: Double
  private let container: Layer
  private let clock: Scene
  private var navigator: SceneNavigator
  /// Each scene's screen layer, and the time it was first shown (nil: not yet).
  private var screens: [Layer]
  private var shownSince: [Double?]
  private var nextPush: Int
  private var taken = 0

  /// - Parameters:
  ///   - scenes: the scene files, in the order pushes take them.
  ///   - initialDepth: how many of them are stacked, at once, before the first step (1: just the
  ///     first; `scenes.count` for a video that dismisses).
  ///   - steps: pushes take the next scene file, pops dismiss the top one.
  ///   - transition: the scene transition of the scene file pushed (by index; a pop uses the one
  ///     its scene was pushed with, backward). Called once per scene.
  ///   - hold: seconds before the first step, between steps and after the last one.
  ///   - stepsName: what errors call the steps ("sequence"; the command line's "--sequence").
  /// - Throws: `SceneFileError.invalidValue` when the steps do not fit the scenes (a push with no
  ///   scene left, a pop of the first scene), naming the step as `stepsName[i]`.
  public init(
    scenes: [LoadedScene], initialDepth: Int = 1, steps: [Step], transition: (Int) -> SceneTransition,
    hold: Double = 1, stepsName: String = "sequence"
  ) throws(SceneFileError) {
    guard let first = scenes.first else {
      throw .invalidValue(path: "scenes", found: "no scene file", expected: "at least one scene file")
    }
    guard (1...scenes.count).contains(initialDepth) else {
      throw .invalidValue(
        path: "scenes", found: "a stack of \(initialDepth)",
        expected: "1 to \(scenes.count) scenes stacked at the start")
    }
    guard hold.isFinite, hold >= 0 else {
      throw .invalidValue(path: "hold", found: "\(hold)", expected: "a number of seconds ≥ 0")
    }
    settings = first.settings
    self.scenes = scenes
    self.steps = steps
    self.hold = hold
    transitions = scenes.indices.map(transition)
    container = Layer(
      frame: Rect(x: 0, y: 0, width: Double(first.settings.width), height: Double(first.settings.height)))
    clock = Scene(root: container)
    screens = []
    shownSince = Array(repeating: nil, count: scenes.count)
    // Check the steps against the stack, and time them.
    var pushes = initialDepth
    var times: [Double] = []
    var t = hold
    var stack = Array(0..<initialDepth)
    for (i, step) in steps.enumerated() {
      // The scene file that moves: the one pushed, or the one popped.
      let moving: Int
      switch step {
      case .push:
        guard pushes < scenes.count else {
          throw .invalidValue(
            path: "\(stepsName)[\(i)]", found: "a push with no scene file left",
            expected: "at most \(scenes.count - initialDepth) pushes for \(scenes.count) scene files")
        }
        moving = pushes
        stack.append(pushes)
        pushes += 1
      case .pop:
        guard stack.count > 1 else {
          throw .invalidValue(
            path: "\(stepsName)[\(i)]", found: "a pop of the first scene",
            expected: "a pop only while a scene is over it")
        }
        moving = stack.removeLast()
      }
      times.append(t)
      t +=
        SceneTransitionRun.plannedDuration(
          of: transitions[moving], direction: step == .push ? .forward : .backward) + hold
    }
    stepTimes = times
    duration = max(t, hold)
    nextPush = initialDepth
    for (i, scene) in scenes.enumerated() {
      let screen = Layer(frame: container.bounds)
      screen.name = "scene \(i + 1)"
      screen.backgroundColor = scene.settings.background
      screen.masksToBounds = true
      // A scene of another size is fitted into the output, keeping its aspect.
      let s = min(
        container.bounds.width / Double(scene.settings.width), container.bounds.height / Double(scene.settings.height))
      if s != 1 { screen.sublayerTransform = Transform3D(scaleX: s, y: s, z: 1) }
      screens.append(screen)
    }
    navigator = SceneNavigator(container: container, root: screens[0])
    shownSince[0] = 0
    for i in 1..<initialDepth {
      navigator.push(screens[i], transition: transitions[i], animated: false)
      shownSince[i] = 0
    }
  }

  /// Participants of the transitions so far that have not ended, by name.
  public var unfinishedParticipants: [String] { navigator.unfinishedParticipants }

  /// The frame at output time `time` (never earlier than the last one asked for).
  /// - Throws: `SceneFileError` from a scene's timeline or for a time earlier than the last one,
  ///   `RenderError` from building the list.
  public func renderList(at time: Double) throws -> RenderList {
    // One clock drives the stack and the scenes' local times: it only moves forward.
    guard time.isFinite, time >= clock.time else {
      throw SceneFileError.invalidValue(
        path: "time", found: "\(time) s after \(clock.time) s", expected: "times in increasing order")
    }
    // Steps due by `time`, each at its own time, after the frame just before it was presented
    // (a transition's "before" image is what the container showed then).
    while taken < steps.count, stepTimes[taken] <= time {
      let at = stepTimes[taken]
      try present(at: at)
      switch steps[taken] {
      case .push:
        let i = nextPush
        nextPush += 1
        shownSince[i] = at
        try updateScreen(i, at: at)
        navigator.push(screens[i], transition: transitions[i])
      case .pop:
        navigator.pop()
      }
      taken += 1
    }
    // Each screen draws its scene's background (opaque under a sliding scene), the list none.
    return try RenderList(layer: present(at: time), width: settings.width, height: settings.height)
  }

  /// Moves the clock to `time`, shows every visible scene's frame there, and presents the stack
  /// (which a transition starting then takes as its "before" image).
  @discardableResult
  private func present(at time: Double) throws -> Layer {
    clock.advance(to: time)
    for (i, screen) in screens.enumerated() where screen.superlayer === container {
      try updateScreen(i, at: time)
    }
    return clock.presentation()
  }

  private func updateScreen(_ i: Int, at time: Double) throws {
    let local = max(0, time - (shownSince[i] ?? time))
    let tree = try scenes[i].presentation(at: local)
    Transaction.begin()
    Transaction.setDisableActions(true)
    screens[i].sublayers = [tree]
    Transaction.commit()
  }
}
