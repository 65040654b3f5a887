// The built-in scene transitions, rendered on the CPU: forward and backward differ, and each is
// the other played backwards (the frame forward at progress p is the frame backward at 1 − p),
// because each is written once in terms of the direction.

import LayerKit
import LayerKitReference
import LayerKitSamples
import XCTest

final class SceneTransitionRenderTests: XCTestCase {
  private let (width, height) = (64, 40)
  private let renderer = ReferenceRenderer()

  private func screen(_ hue: Double, _ name: String) throws -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
    l.name = name
    l.contents = try SampleScene.testImage(width: width, height: height, hue: hue)
    return l
  }

  /// Frames of `make()`'s transition at `times` (fractions of its duration), forward (pushing
  /// the fore scene over the back one) or backward (popping it, after a cut push).
  private func frames(
    _ make: () -> SceneTransition, direction: TransitionDirection, duration: Double, at fractions: [Double]
  ) throws -> [[UInt8]] {
    let container = Layer(frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
    container.backgroundColor = Color(white: 0.5)
    let scene = Scene(root: container)
    let (back, fore) = (try screen(0.1, "back"), try screen(0.6, "fore"))
    let nav = SceneNavigator(container: container, root: back)
    var start = 0.0
    if direction == .backward {
      // Arrive at the fore scene the same way first, then dismiss it.
      nav.push(fore, transition: make())
      scene.advance(to: duration + 0.5)
      start = scene.time
    }
    _ = try renderer.render(scene.renderList(width: width, height: height))
    let run = direction == .forward ? nav.push(fore, transition: make()) : nav.pop()!
    var out: [[UInt8]] = []
    for f in fractions {
      scene.advance(to: start + f * duration)
      out.append(try renderer.render(scene.renderList(width: width, height: height)).pixels)
    }
    scene.advance(to: start + duration + 0.01)
    XCTAssertTrue(run.isFinished)
    XCTAssertEqual(run.unfinishedParticipants, [])
    return out
  }

  private func maxDelta(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 0
  }

  func testEachBuiltInBackwardIsItsForwardPlayedBackwards() throws {
    let d = 1.0
    let cases: [(String, () -> SceneTransition)] = [
      ("fade", { FadeSceneTransition(duration: d, timing: nil) }),
      ("slide", { SlideSceneTransition(duration: d, timing: nil) }),
      ("sheet", { SheetSceneTransition(duration: d, timing: nil) }),
      ("push fromRight", { EffectSceneTransition(type: .push, subtype: .fromRight, duration: d, timing: nil) }),
      ("moveIn fromBottom", { EffectSceneTransition(type: .moveIn, subtype: .fromBottom, duration: d, timing: nil) }),
      (
        "pageCurl",
        { EffectSceneTransition(filter: EffectTransitionFilter("pageCurl"), duration: d, timing: nil) }
      ),
    ]
    let ps = [0.25, 0.5, 0.75]
    for (name, make) in cases {
      let forward = try frames(make, direction: .forward, duration: d, at: ps)
      // The clock only moves forward: rendered at 1 − p in time order, then listed by p.
      let backward = Array(
        try frames(make, direction: .backward, duration: d, at: ps.map { 1 - $0 }.reversed()).reversed())
      for (i, p) in ps.enumerated() {
        // Progress p forward and 1 − p backward: the same picture (within a step, where an
        // opacity lands on a rounding half one way and not the other).
        XCTAssertLessThanOrEqual(
          maxDelta(forward[i], backward[i]), 1, "\(name): forward at \(p) ≠ backward at \(1 - p)")
      }
      // At the same moment forward and backward differ (away from the middle).
      let backwardSameTimes = try frames(make, direction: .backward, duration: d, at: ps)
      XCTAssertGreaterThan(maxDelta(forward[0], backwardSameTimes[0]), 16, "\(name): forward = backward at 0.25")
      // And something moves.
      XCTAssertGreaterThan(maxDelta(forward[0], forward[2]), 16, "\(name): frames at 0.25 and 0.75 equal")
    }
  }
}
