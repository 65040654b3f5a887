// The executor's shortcuts, each held byte for byte to the long way on both backends:
// - static content is drawn once: a group whose ops and images an earlier render drew is reused
//   (RetainedGroups in LayerKitRender), and only where that is sound (a group that reads a
//   surface made outside it is drawn anew);
// - a transition covering the untouched target writes into it, without a surface and a copy.

import LayerKit
import LayerKitGL
import LayerKitReference
import LayerKitSamples
import LayerKitTesting
import XCTest

final class RetainedGroupsTests: XCTestCase {
  private func picture(_ hue: Double, _ w: Int = 96, _ h: Int = 64) throws -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
    l.contents = try SampleScene.testImage(width: w, height: h, hue: hue)
    let badge = Layer(frame: Rect(x: 10, y: 8, width: 30, height: 20))
    badge.backgroundColor = Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.7)
    badge.cornerRadius = 6
    l.addSublayer(badge)
    return l
  }

  private func frame(_ from: Layer, _ to: Layer, _ p: Double, effect: String = "push") throws -> RenderList {
    try RenderList(
      transitionFrom: from, to: to, width: 96, height: 64, effect: effect,
      parameters: effect == "fade" ? [:] : ["direction": .vec2([1, 0])], progress: p)
  }

  /// Renders with a fresh renderer per frame (nothing retained) and with one renderer for all.
  private func check(_ lists: [RenderList], fresh: () throws -> Renderer, shared: Renderer) throws {
    for (i, list) in lists.enumerated() {
      let alone = try fresh().render(list)
      let reused = try shared.render(list)
      XCTAssertIdentical(reused, alone, "frame \(i) on \(shared.name)")
    }
  }

  func testTheTwoPicturesOfATransitionAreDrawnOnce() throws {
    let a = try picture(0.1)
    let b = try picture(0.6)
    let frames = try (0...6).map { try frame(a, b, Double($0) / 6) }
    let cpu = ReferenceRenderer(threadCount: 2)
    try check(frames, fresh: { ReferenceRenderer(threadCount: 2) }, shared: cpu)
    XCTAssertEqual(cpu.retainedGroupCount, 2, "the from and to groups, kept")
    let gpu = try GLRenderer()
    try check(frames, fresh: { try GLRenderer() }, shared: gpu)
    XCTAssertEqual(gpu.retainedGroupCount, 2)
  }

  func testAChangedImageOrLayerIsDrawnAnew() throws {
    let a = try picture(0.1)
    let b = try picture(0.6)
    var lists = [try frame(a, b, 0.5)]
    // The same tree with another image (another Image.id): not the kept pixels.
    a.contents = try SampleScene.testImage(width: 96, height: 64, hue: 0.3)
    lists.append(try frame(a, b, 0.5))
    // A sublayer moved.
    a.sublayers![0].position.x += 7
    lists.append(try frame(a, b, 0.5))
    try check(lists, fresh: { ReferenceRenderer(threadCount: 2) }, shared: ReferenceRenderer(threadCount: 2))
    try check(lists, fresh: { try GLRenderer() }, shared: try GLRenderer())
  }

  func testAGroupThatReadsASurfaceFromOutsideIsNotKept() throws {
    // A group drawing a backdrop copied before it: its pixels depend on what lay behind.
    let box = PixelRect(x: 0, y: 0, width: 8, height: 8)
    let rect = RoundedRect(bounds: [0, 0, 8, 8])
    func list(_ color: SIMD4<Float>) -> RenderList {
      RenderList(
        width: 8, height: 8,
        ops: [
          .draw(Draw(pixelBounds: box, mapping: .identity, shape: Shape(rect: rect), paint: .color(color))),
          .copyBackdrop(0, bounds: box),
          .pushGroup(1, bounds: box),
          .draw(
            Draw(
              pixelBounds: box, mapping: .identity, shape: Shape(rect: rect),
              paint: .texture(.surface(0), TextureTransform(scale: [0.125, 0.125], offset: .zero)), opacity: 0.5)),
          .popGroup(1),
          .draw(
            Draw(
              pixelBounds: box, mapping: .identity, shape: Shape(rect: rect),
              paint: .texture(.surface(1), TextureTransform(scale: [0.125, 0.125], offset: .zero)))),
        ])
    }
    let lists = [list([1, 0, 0, 1]), list([0, 0, 1, 1])]
    let cpu = ReferenceRenderer(threadCount: 1)
    try check(lists, fresh: { ReferenceRenderer(threadCount: 1) }, shared: cpu)
    XCTAssertEqual(cpu.retainedGroupCount, 0)
    try check(lists, fresh: { try GLRenderer() }, shared: try GLRenderer())
  }

  func testKeptGroupsAreBounded() throws {
    // Forty different pictures in a row: entries unused by the last renders are let go.
    let cpu = ReferenceRenderer(threadCount: 2)
    let gpu = try GLRenderer()
    for i in 0..<40 {
      let list = try frame(try picture(Double(i) / 40), try picture(Double(i) / 40 + 0.5), 0.5, effect: "fade")
      _ = try cpu.render(list)
      _ = try gpu.render(list)
      XCTAssertLessThanOrEqual(cpu.retainedGroupCount, 4)
      XCTAssertLessThanOrEqual(gpu.retainedGroupCount, 4)
    }
    XCTAssertLessThanOrEqual(gpu.pooledTargetCount, 8)
  }

  func testATransitionWritesIntoTheTargetAsTheLongWayDoes() throws {
    let a = try picture(0.1)
    let b = try picture(0.6)
    let cpu = ReferenceRenderer(threadCount: 2)
    let gpu = try GLRenderer()
    for effect in TransitionEffects.all.keys.sorted() {
      let direct = try RenderList(transitionFrom: a, to: b, width: 96, height: 64, effect: effect, progress: 0.37)
      // A transparent draw first touches the target: the pass then goes through a surface and
      // the copy, the long way, onto the same transparent pixels.
      var long = direct
      let all = long.targetRect
      long.ops.insert(
        .draw(
          Draw(
            pixelBounds: all, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: [0, 0, 96, 64])),
            paint: .color(.zero))), at: 0)
      for renderer in [cpu, gpu] as [Renderer] {
        XCTAssertIdentical(
          try renderer.render(direct), try renderer.render(long), "\(effect) on \(renderer.name)")
      }
    }
  }
}
