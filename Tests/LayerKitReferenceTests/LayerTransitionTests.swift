import LayerKit
import LayerKitReference
import XCTest

/// Transition animations on layers (CATransition): before / after subtrees mixed over the layer.
final class LayerTransitionTests: XCTestCase {
  let cpu = ReferenceRenderer(threadCount: 2)

  func layer(_ color: Color) -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 10))
    l.contents = try? Image(width: 20, height: 10, color: color)
    return l
  }

  func render(_ l: Layer, _ t: Double) throws -> Image {
    try cpu.render(RenderList(layer: l.presentation(at: t), width: 20, height: 10))
  }

  func testPushFromLeftAnimatesAChangeMadeAfterAdding() throws {
    let l = layer(.red)
    let t = Transition(type: .push, subtype: .fromLeft)
    t.duration = 1
    t.beginTime = 1
    try l.addChecked(t, forKey: "anything")
    l.contents = try Image(width: 20, height: 10, color: .blue)
    XCTAssertEqual((l.animationKeys() ?? []), ["transition"])  // stored under "transition", whatever the key
    let mid = try render(l, 1.5)
    XCTAssertEqual(mid.pixel(x: 2, y: 5), [0, 0, 255, 255])  // the new content comes in from the left
    XCTAssertEqual(mid.pixel(x: 17, y: 5), [255, 0, 0, 255])
    XCTAssertEqual(try render(l, 1).pixel(x: 17, y: 5), [255, 0, 0, 255])  // progress 0: before
    XCTAssertEqual(try render(l, 2.5).pixel(x: 2, y: 5), [0, 0, 255, 255])  // after: the new subtree
  }

  func testInASceneTheChangeMayComeFirst() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 10))
    let l = layer(.red)
    root.addSublayer(l)
    let scene = Scene(root: root)
    _ = scene.presentation()  // shows red
    Transaction.perform {
      Transaction.setDisableActions(true)
      l.contents = try? Image(width: 20, height: 10, color: .blue)
    }
    let t = Transition(type: .fade)
    t.duration = 1
    try l.addChecked(t, forKey: nil)
    let mid = try cpu.render(RenderList(layer: scene.presentation(at: 0.5), width: 20, height: 10))
    XCTAssertEqual(mid.pixel(x: 5, y: 5), [128, 0, 128, 255])
  }

  func testStartAndEndProgress() throws {
    let l = layer(.red)
    let t = Transition(type: .fade)
    t.duration = 1
    t.beginTime = 1
    t.startProgress = 0.5
    t.endProgress = 0.75
    try l.addChecked(t, forKey: nil)
    l.contents = try Image(width: 20, height: 10, color: .blue)
    XCTAssertEqual(try render(l, 1).pixel(x: 5, y: 5), [128, 0, 128, 255])
    XCTAssertEqual(try render(l, 1.999).pixel(x: 5, y: 5), [64, 0, 191, 255])
    let bad = Transition()
    bad.startProgress = 0.8
    bad.endProgress = 0.2
    XCTAssertThrowsError(try l.addChecked(bad, forKey: nil))
  }
}

final class FilterActionTests: XCTestCase {
  func testChangingFiltersFadesByDefault() throws {
    // The filter-type properties' default action is a fade transition.
    let root = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
    let l = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
    l.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.6)
    root.addSublayer(l)
    let scene = Scene(root: root)
    _ = scene.presentation()
    l.filters = [.invert]
    XCTAssertEqual((l.animationKeys() ?? []), ["transition"])
    let cpu = ReferenceRenderer(threadCount: 1)
    // Halfway through 0.25 s (linear): the mix of (51, 102, 153) and its inverse (204, 153, 102).
    let mid = try cpu.render(RenderList(layer: scene.presentation(at: 0.125), width: 8, height: 8))
    XCTAssertEqual(mid.pixel(x: 4, y: 4), [128, 128, 128, 255])
  }
}

final class TransitionFilterTests: XCTestCase {
  let cpu = ReferenceRenderer(threadCount: 1)

  func testAFilterTransitionTakesTwoImagesAndATime() throws {
    // Like Core Image's transition filters: input image, target image, time → output image.
    let red = try Image(width: 8, height: 4, color: .red)
    let blue = try Image(width: 8, height: 4, color: .blue)
    let out = try EffectTransitionFilter("dissolve").apply(input: red, target: blue, time: 0.5, renderer: cpu)
    XCTAssertEqual(out.pixel(x: 2, y: 2), [128, 0, 128, 255])
    XCTAssertEqual(try EffectTransitionFilter("dissolve").apply(input: red, target: blue, time: 0, renderer: cpu), red)
  }

  func testAFilterOnATransitionReplacesTypeAndSubtype() throws {
    let l = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 10))
    l.contents = try Image(width: 20, height: 10, color: .red)
    let t = Transition(type: .push, subtype: .fromLeft)
    t.filter = EffectTransitionFilter("dissolve")
    t.duration = 1
    t.beginTime = 1
    try l.addChecked(t, forKey: nil)
    l.contents = try Image(width: 20, height: 10, color: .blue)
    let mid = try cpu.render(RenderList(layer: l.presentation(at: 1.5), width: 20, height: 10))
    // A push would show blue on the left and red on the right; the dissolve mixes everywhere.
    XCTAssertEqual(mid.pixel(x: 2, y: 5), [128, 0, 128, 255])
    XCTAssertEqual(mid.pixel(x: 17, y: 5), [128, 0, 128, 255])
  }

  func testAShaderFilterIsGPUOnlyOnTheCPU() throws {
    let red = try Image(width: 4, height: 4, color: .red)
    XCTAssertThrowsError(
      try EffectTransitionFilter("my-shader").apply(input: red, target: red, time: 0.5, renderer: cpu)
    ) {
      XCTAssertEqual($0 as? RenderError, .gpuOnlyEffect("my-shader"))
    }
  }
}
