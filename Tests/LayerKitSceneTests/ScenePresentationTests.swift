// Scene files presented over one another (ScenePresentation, `layerkit present`): the steps'
// timing, a scene shown alone renders as it does by itself (its own transitions included), a
// push and a pop arrive where they should, and steps that do not fit the scenes are errors.

import Foundation
import LayerKit
import LayerKitReference
import LayerKitScene
import LayerKitTesting
import XCTest

final class ScenePresentationTests: XCTestCase {
  private let renderer = ReferenceRenderer(threadCount: 2)

  /// A 64×40 scene of one colour with a square that moves, and at 0.4 s an implicit colour
  /// change and a push transition.
  private func screen(_ colour: String, _ other: String) throws -> LoadedScene {
    try scene(
      """
      {"width": 64, "height": 40, "fps": 10, "duration": 2, "background": "\(colour)",
       "layers": [{"name": "box", "frame": [4, 4, 12, 12], "backgroundColor": "\(other)",
                   "animations": [{"kind": "basic", "keyPath": "position.x", "from": 10, "to": 50,
                                   "duration": 2}]}],
       "timeline": [{"time": 0.4, "changes": [{"layer": "box", "set": {"backgroundColor": "#00FF00"}},
                                             {"layer": "box", "addAnimation": {"kind": "transition",
                                              "type": "push", "subtype": "fromRight", "duration": 0.4}}],
                     "duration": 0.3}]}
      """)
  }

  private func image(_ list: RenderList) throws -> Image { try renderer.render(list) }

  func testAStepsTimingAndASceneAloneRendersAsItDoesByItself() throws {
    let a = try screen("#203040", "#FF8000")
    let alone = try screen("#203040", "#FF8000")
    let b = try screen("#F0F0F0", "#0000FF")
    let p = try ScenePresentation(
      scenes: [a, b], steps: [.push, .pop], transition: { _ in SheetSceneTransition(duration: 0.5) }, hold: 0.6)
    XCTAssertEqual(p.stepTimes.count, 2)
    XCTAssertEqual(p.stepTimes[0], 0.6, accuracy: 1e-12)
    XCTAssertEqual(p.stepTimes[1], 1.7, accuracy: 1e-12)
    XCTAssertEqual(p.duration, 2.8, accuracy: 1e-12)
    // Before the first step: scene A as it renders by itself, its implicit animation and its
    // transition (at 0.5) included.
    for t in [0.0, 0.3, 0.5] {
      XCTAssertIdentical(try image(p.renderList(at: t)), try image(alone.renderList(at: t)), "t = \(t)")
    }
    // Mid-push the two differ from both scenes alone; once pushed, scene B is on top, under it
    // nothing of A shows but dimmed; after the pop, A again (at its own time).
    let mid = try image(p.renderList(at: 0.85))
    XCTAssertTrue(try mid.pixels != image(alone.renderList(at: 0.85)).pixels)
    let pushed = try image(p.renderList(at: 1.3))
    let bAlone = try screen("#F0F0F0", "#0000FF")
    XCTAssertIdentical(pushed, try image(bAlone.renderList(at: 1.3 - 0.6)))
    let end = try image(p.renderList(at: 2.5))
    XCTAssertIdentical(end, try image(alone.renderList(at: 2.5)))
    XCTAssertEqual(p.unfinishedParticipants, [])
    // The clock only moves forward: an earlier time is an error, not a wrong frame.
    XCTAssertNotNil(sceneError { try p.renderList(at: 1.0) })
  }

  func testStartingStackedAndDismissing() throws {
    let a = try screen("#203040", "#FF8000")
    let b = try screen("#F0F0F0", "#0000FF")
    let p = try ScenePresentation(
      scenes: [a, b], initialDepth: 2, steps: [.pop],
      transition: { _ in EffectSceneTransition(type: .push, subtype: .fromRight, duration: 0.4, timing: nil) },
      hold: 0.2)
    XCTAssertEqual(p.duration, 0.8, accuracy: 1e-12)
    let bAlone = try screen("#F0F0F0", "#0000FF")
    XCTAssertIdentical(try image(p.renderList(at: 0.1)), try image(bAlone.renderList(at: 0.1)))
    let aAlone = try screen("#203040", "#FF8000")
    XCTAssertIdentical(try image(p.renderList(at: 0.7)), try image(aAlone.renderList(at: 0.7)))
  }

  func testStepsThatDoNotFitTheScenesAreErrors() throws {
    let a = try screen("#203040", "#FF8000")
    for (steps, depth, path) in [([ScenePresentation.Step.push], 1, "sequence[0]"), ([.pop], 1, "sequence[0]")] {
      guard
        let error = sceneError({
          try ScenePresentation(
            scenes: [a], initialDepth: depth, steps: steps, transition: { _ in FadeSceneTransition() })
        })
      else { continue }
      XCTAssertTrue(error.description.contains(path), error.description)
    }
    XCTAssertNotNil(
      sceneError { try ScenePresentation(scenes: [], steps: [], transition: { _ in FadeSceneTransition() }) })
  }
}
