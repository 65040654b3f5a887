// Scene transitions' completion rules (MotionTransitioning's): several participants, a second
// transitionDidEnd, a participant that never ends, deferred blocks in order, fallback and
// feasibility, composition, the presentation participant, and the navigation stack; all in
// scene time, driven by Scene.advance.

import XCTest

@testable import LayerKit

final class SceneTransitionTests: XCTestCase {
  private func setup() -> (Scene, Layer, Layer, Layer) {
    let container = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 60))
    let scene = Scene(root: container)
    let back = Layer(frame: container.bounds)
    back.name = "back"
    let fore = Layer(frame: container.bounds)
    fore.name = "fore"
    return (scene, container, back, fore)
  }

  /// Records what happens to it; ends at once, or never, or when told.
  private final class Probe: SceneTransition {
    enum Ending { case atOnce, never, manual }
    let ending: Ending
    var contexts: [SceneTransitionContext] = []
    var log: (String) -> Void
    let label: String
    init(_ label: String, _ ending: Ending = .atOnce, log: @escaping (String) -> Void = { _ in }) {
      self.label = label
      self.ending = ending
      self.log = log
    }
    func start(_ context: SceneTransitionContext) {
      log("start \(label)")
      contexts.append(context)
      if ending == .atOnce { context.transitionDidEnd() }
    }
  }

  func testTheWholeEndsWhenEveryParticipantHasAndDeferredBlocksRunInOrder() throws {
    let (_, container, back, fore) = setup()
    var log: [String] = []
    final class Parent: SceneTransition {
      let children: [SceneTransition]
      let log: (String) -> Void
      init(_ children: [SceneTransition], log: @escaping (String) -> Void) {
        self.children = children
        self.log = log
      }
      func start(_ context: SceneTransitionContext) {
        context.deferToCompletion { self.log("deferred 1") }
        for (i, c) in children.enumerated() { context.compose(with: c, name: "child \(i)") }
        context.deferToCompletion {
          self.log("deferred 2")
          context.deferToCompletion { self.log("deferred 3 (from a deferred block)") }
        }
        context.transitionDidEnd()
        context.transitionDidEnd()  // a second call is harmless
      }
    }
    let a = Probe("a", .manual)
    let b = Probe("b", .manual)
    let run = SceneTransitionRun(
      Parent([a, b], log: { log.append($0) }), direction: .forward, back: back, fore: fore, container: container,
      completion: { log.append("completion") })
    XCTAssertFalse(run.isFinished)
    XCTAssertEqual(run.unfinishedParticipants, ["child 0", "child 1"])
    a.contexts[0].transitionDidEnd()
    a.contexts[0].transitionDidEnd()
    XCTAssertFalse(run.isFinished)
    XCTAssertEqual(log, [])
    b.contexts[0].transitionDidEnd()
    XCTAssertTrue(run.isFinished)
    XCTAssertEqual(log, ["deferred 1", "deferred 2", "deferred 3 (from a deferred block)", "completion"])
    // Forward without a presentation: the back scene leaves the container.
    XCTAssertEqual(container.sublayers!.map(\.name), ["fore"])
    XCTAssertEqual(a.contexts[0].direction, .forward)
    XCTAssertTrue(a.contexts[0].back === back && a.contexts[0].fore === fore)
  }

  func testAParticipantThatNeverEndsIsReportedByName() {
    let (_, container, back, fore) = setup()
    final class Stuck: SceneTransition {
      func start(_ context: SceneTransitionContext) {
        context.compose(with: SceneTransitionTests.Probe("ok"), name: "quick")
        context.compose(with: SceneTransitionTests.Probe("stuck", .never), name: "stuck")
        context.transitionDidEnd()
      }
    }
    let nav = SceneNavigator(container: container, root: back)
    let run = nav.push(fore, transition: Stuck())
    XCTAssertFalse(run.isFinished)
    XCTAssertEqual(run.unfinishedParticipants, ["stuck"])
    XCTAssertEqual(nav.unfinishedParticipants, ["transition 1: stuck"])
    // Unfinished, the container still holds both scenes.
    XCTAssertEqual(container.sublayers!.map(\.name), ["back", "fore"])
  }

  func testFeasibilityAndFallback() {
    let (_, container, back, fore) = setup()
    final class Declines: SceneTransitionWithFeasibility {
      func start(_ context: SceneTransitionContext) { XCTFail("a declining transition does not start") }
      func canPerform(_ context: SceneTransitionContext) -> Bool { context.direction == .forward }
    }
    final class Hands: SceneTransitionWithFeasibility, SceneTransitionWithFallback {
      let to: SceneTransition
      init(_ to: SceneTransition) { self.to = to }
      func start(_ context: SceneTransitionContext) { XCTFail("replaced by its fallback") }
      func canPerform(_ context: SceneTransitionContext) -> Bool { false }
      func fallback(_ context: SceneTransitionContext) -> SceneTransition { to }
    }
    final class Loop: SceneTransitionWithFallback {
      var other: Loop?
      func start(_ context: SceneTransitionContext) { XCTFail("a fallback loop never starts") }
      func fallback(_ context: SceneTransitionContext) -> SceneTransition { other ?? self }
    }
    // Declining without a fallback: the scenes swap at once.
    let declined = SceneTransitionRun(Declines(), direction: .backward, back: back, fore: fore, container: container)
    XCTAssertNil(declined.transition)
    XCTAssertTrue(declined.isFinished)
    XCTAssertEqual(container.sublayers!.map(\.name), ["back"])
    // Declining with a fallback: the fallback runs.
    let probe = Probe("fallback")
    let handed = SceneTransitionRun(Hands(probe), direction: .forward, back: back, fore: fore, container: container)
    XCTAssertTrue(handed.transition === probe)
    XCTAssertEqual(probe.contexts.count, 1)
    XCTAssertEqual(container.sublayers!.map(\.name), ["fore"])
    // Two transitions naming each other: no hang, a cut.
    let (x, y) = (Loop(), Loop())
    x.other = y
    y.other = x
    let looped = SceneTransitionRun(x, direction: .backward, back: back, fore: fore, container: container)
    XCTAssertNil(looped.transition)
    XCTAssertTrue(looped.isFinished)
  }

  func testCompositionGivesEachChildItsOwnContextAndDuration() {
    let (_, container, back, fore) = setup()
    final class Timed: SceneTransitionWithDuration {
      let d: Double
      var seen: SceneTransitionContext?
      init(_ d: Double) { self.d = d }
      func transitionDuration(_ context: SceneTransitionContext) -> Double { d }
      func start(_ context: SceneTransitionContext) {
        seen = context
        context.transitionDidEnd()
      }
    }
    let timedChild = Timed(2)
    let plainChild = Probe("plain")
    final class Parent: SceneTransitionWithDuration {
      let kids: [SceneTransition]
      init(_ kids: [SceneTransition]) { self.kids = kids }
      func transitionDuration(_ context: SceneTransitionContext) -> Double { 0.8 }
      func start(_ context: SceneTransitionContext) {
        for k in kids { context.compose(with: k) }
        context.transitionDidEnd()
      }
    }
    let run = SceneTransitionRun(
      Parent([timedChild, plainChild]), direction: .backward, back: back, fore: fore, container: container)
    XCTAssertTrue(run.isFinished)
    XCTAssertEqual(run.participants.map(\.duration), [0.8, 2, 0.8])
    XCTAssertEqual(run.participants.map(\.name), ["main", "main.1", "main.2"])
    XCTAssertTrue(timedChild.seen !== plainChild.contexts[0])
    XCTAssertEqual(plainChild.contexts[0].direction, .backward)
    XCTAssertEqual(
      SceneTransitionRun(Probe("d"), direction: .forward, back: back, fore: fore, container: container)
        .participants[0].duration, SceneTransitionContext.defaultDuration)
  }

  func testThePresentationStartsFirstMustEndAndStaysOverTheBackScene() {
    let (scene, container, back, fore) = setup()
    let nav = SceneNavigator(container: container, root: back)
    _ = scene.presentation()
    let sheet = SheetSceneTransition(duration: 0.5)
    let run = nav.push(fore, transition: sheet)
    XCTAssertEqual(run.participants.map(\.name), ["presentation", "main"])
    XCTAssertEqual(container.sublayers!.map(\.name), ["back", DimmingPresentation.layerName, "fore"])
    scene.advance(to: 0.25)
    XCTAssertFalse(run.isFinished)
    scene.advance(to: 0.6)
    XCTAssertTrue(run.isFinished)
    // The sheet stays up over the dimmed back scene.
    XCTAssertEqual(container.sublayers!.map(\.name), ["back", DimmingPresentation.layerName, "fore"])
    XCTAssertEqual(container.sublayers![1].opacity, 0.4)
    // Popping: the sheet goes down, the dimming fades out and leaves with it.
    let pop = nav.pop()!
    XCTAssertEqual(pop.direction, .backward)
    scene.advance(to: 0.9)
    XCTAssertFalse(pop.isFinished)
    scene.advance(to: 1.2)
    XCTAssertTrue(pop.isFinished)
    XCTAssertEqual(container.sublayers!.map(\.name), ["back"])
    XCTAssertNil(nav.pop())
  }

  func testANavigationStackUsesEachScenesOwnTransition() {
    let (scene, container, a, b) = setup()
    let c = Layer(frame: container.bounds)
    c.name = "c"
    let nav = SceneNavigator(container: container, root: a)
    let slide = SlideSceneTransition(duration: 0.3)
    let fade = FadeSceneTransition(duration: 0.2)
    nav.push(b, transition: slide)
    scene.advance(to: 0.31)
    XCTAssertEqual(container.sublayers!.map(\.name), ["fore"])
    nav.push(c, transition: fade)
    scene.advance(to: 0.52)
    XCTAssertEqual(container.sublayers!.map(\.name), ["c"])
    let popC = nav.pop()!
    XCTAssertTrue(popC.transition === fade)
    scene.advance(to: 0.73)
    XCTAssertTrue(popC.isFinished)
    XCTAssertEqual(container.sublayers!.map(\.name), ["fore"])
    let popB = nav.pop()!
    XCTAssertTrue(popB.transition === slide)
    scene.advance(to: 1.04)
    XCTAssertEqual(container.sublayers!.map(\.name), ["back"])
    // The back scene slid back home, the fore scene out to the right.
    XCTAssertEqual(a.position, Point(x: 50, y: 30))
    XCTAssertEqual(b.position, Point(x: 150, y: 30))
    XCTAssertEqual(nav.unfinishedParticipants, [])
  }
}
