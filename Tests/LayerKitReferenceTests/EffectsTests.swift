import LayerKit
import LayerKitReference
import XCTest

/// The effects on the CPU reference, on scenes small enough to reason about by hand.
final class EffectsTests: XCTestCase {
  let cpu = ReferenceRenderer(threadCount: 2)

  func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ c: Color?) -> Layer {
    let l = Layer(frame: Rect(x: x, y: y, width: w, height: h))
    l.backgroundColor = c
    return l
  }

  func testInvertFilterOnOpaqueColour() throws {
    let root = box(0, 0, 4, 4, nil)
    let l = box(0, 0, 4, 4, Color(red: 0.2, green: 0.4, blue: 0.6))
    l.filters = [.invert]
    root.addSublayer(l)
    // 0.2 → 51 stored; 1 − 51/255 = 0.8 → 204; likewise 102 → 153 and 153 → 102.
    XCTAssertEqual(try cpu.render(root, width: 4, height: 4).pixel(x: 1, y: 1), [204, 153, 102, 255])
  }

  func testSaturationZeroGivesRec709Grey() throws {
    let l = box(0, 0, 2, 2, Color(red: 1, green: 0, blue: 0))
    l.filters = [.colorControls(saturation: 0)]
    // Rec. 709 luma of pure red: 0.2125 → 54.19 → 54.
    XCTAssertEqual(try cpu.render(l, width: 2, height: 2).pixel(x: 0, y: 0), [54, 54, 54, 255])
  }

  func testConsecutiveColourFiltersComposeUnclamped() throws {
    // Brightness +1 then −1: Core Image's working space keeps 1.2 − 1 = 0.2, not clamp(1.2) − 1 = 0.
    let l = box(0, 0, 2, 2, Color(red: 0.2, green: 0.2, blue: 0.2))
    l.filters = [.colorControls(brightness: 1), .colorControls(brightness: -1)]
    XCTAssertEqual(try cpu.render(l, width: 2, height: 2).pixel(x: 0, y: 0), [51, 51, 51, 255])
  }

  func testBlurSpreadsAndKeepsTotalAlpha() throws {
    let root = box(0, 0, 40, 40, nil)
    let dot = box(18, 18, 4, 4, .white)
    dot.filters = [.gaussianBlur(radius: 2)]
    root.addSublayer(dot)
    let image = try cpu.render(root, width: 40, height: 40)
    let total = (0..<40).flatMap { y in (0..<40).map { x in Int(image.pixel(x: x, y: y).w) } }.reduce(0, +)
    // 16 opaque pixels of alpha 255, spread: the sum stays within rounding of 16 × 255.
    XCTAssertEqual(Double(total), 16 * 255, accuracy: 16 * 255 * 0.03)
    XCTAssertLessThan(image.pixel(x: 19, y: 19).w, 255)
    XCTAssertGreaterThan(image.pixel(x: 15, y: 20).w, 0)
    XCTAssertEqual(image.pixel(x: 19, y: 19), image.pixel(x: 20, y: 20))  // symmetric
    XCTAssertEqual(image.pixel(x: 2, y: 2).w, 0)
  }

  func testShadowFallsAtItsOffsetUnderTheLayer() throws {
    let root = box(0, 0, 30, 30, nil)
    let l = box(5, 5, 10, 10, .red)
    l.shadowOpacity = 1
    l.shadowRadius = 0
    l.shadowOffset = Size(width: 5, height: 5)
    root.addSublayer(l)
    let image = try cpu.render(root, width: 30, height: 30)
    XCTAssertEqual(image.pixel(x: 7, y: 7), [255, 0, 0, 255])  // the layer
    XCTAssertEqual(image.pixel(x: 17, y: 17), [0, 0, 0, 255])  // only the shadow
    XCTAssertEqual(image.pixel(x: 12, y: 12), [255, 0, 0, 255])  // the layer over its shadow
    XCTAssertEqual(image.pixel(x: 3, y: 3), [0, 0, 0, 0])
  }

  func testMasksToBoundsClipsTheShadow() throws {
    // Core Animation: a layer that masks to its bounds shows no shadow outside them.
    let root = box(0, 0, 30, 30, nil)
    let l = box(5, 5, 10, 10, .red)
    l.shadowOpacity = 1
    l.shadowRadius = 0
    l.shadowOffset = Size(width: 5, height: 5)
    l.masksToBounds = true
    root.addSublayer(l)
    let image = try cpu.render(root, width: 30, height: 30)
    XCTAssertEqual(image.pixel(x: 17, y: 17), [0, 0, 0, 0])
    XCTAssertEqual(image.pixel(x: 7, y: 7), [255, 0, 0, 255])
  }

  func testDefaultShadowOffsetIsThreePointsUp() throws {
    // CALayer's default shadowOffset is (0, −3): with y down, the shadow shows above the layer.
    let root = box(0, 0, 20, 20, nil)
    let l = box(5, 8, 10, 8, .white)
    l.shadowOpacity = 1
    l.shadowRadius = 0
    root.addSublayer(l)
    let image = try cpu.render(root, width: 20, height: 20)
    XCTAssertEqual(image.pixel(x: 8, y: 6), [0, 0, 0, 255])
    XCTAssertEqual(image.pixel(x: 8, y: 17), [0, 0, 0, 0])
  }

  func testShadowPathGivesTheShadowItsShape() throws {
    let root = box(0, 0, 40, 40, nil)
    let l = box(0, 0, 40, 40, nil)  // no content at all: only the path's shadow
    l.shadowOpacity = 0.5
    l.shadowRadius = 0
    l.shadowOffset = .zero
    l.shadowPathValue = Path(ellipseIn: Rect(x: 10, y: 10, width: 20, height: 20))
    root.addSublayer(l)
    let image = try cpu.render(root, width: 40, height: 40)
    XCTAssertEqual(image.pixel(x: 20, y: 20), [0, 0, 0, 128])
    XCTAssertEqual(image.pixel(x: 11, y: 11), [0, 0, 0, 0])  // outside the circle's arc
    XCTAssertEqual(image.pixel(x: 5, y: 20), [0, 0, 0, 0])
  }

  func testMaskKeepsWhereTheMaskIsOpaque() throws {
    let root = box(0, 0, 8, 4, nil)
    let l = box(0, 0, 8, 4, .blue)
    l.mask = box(0, 0, 4, 4, .white)
    root.addSublayer(l)
    let image = try cpu.render(root, width: 8, height: 4)
    XCTAssertEqual(image.pixel(x: 1, y: 1), [0, 0, 255, 255])
    XCTAssertEqual(image.pixel(x: 6, y: 1), [0, 0, 0, 0])
  }

  func testMaskAlphaScalesTheLayer() throws {
    let l = box(0, 0, 4, 4, .white)
    l.mask = box(0, 0, 4, 4, Color(white: 1, alpha: 0.5))
    XCTAssertEqual(try cpu.render(l, width: 4, height: 4).pixel(x: 2, y: 2), [128, 128, 128, 128])
  }

  func testMultiplyCompositingFilter() throws {
    let root = box(0, 0, 4, 4, Color(white: 0.5))
    let l = box(0, 0, 4, 4, Color(red: 1, green: 0.5, blue: 0))
    l.compositingFilter = .multiply
    root.addSublayer(l)
    // Backdrop 128/255 (0.502) × (1, 0.5, 0): 128, 64.25 → 64, 0.
    XCTAssertEqual(try cpu.render(root, width: 4, height: 4).pixel(x: 1, y: 1), [128, 64, 0, 255])
  }

  func testBackgroundFilterInvertsWhatIsBehind() throws {
    let root = box(0, 0, 8, 4, .white)
    root.addSublayer(box(0, 0, 4, 4, .black))
    let glass = box(2, 0, 4, 4, nil)
    glass.backgroundFilters = [.invert]
    root.addSublayer(glass)
    let image = try cpu.render(root, width: 8, height: 4)
    XCTAssertEqual(image.pixel(x: 0, y: 0), [0, 0, 0, 255])  // outside: black stays
    XCTAssertEqual(image.pixel(x: 2, y: 0), [255, 255, 255, 255])  // inside: black inverted
    XCTAssertEqual(image.pixel(x: 5, y: 0), [0, 0, 0, 255])  // inside: white inverted
    XCTAssertEqual(image.pixel(x: 7, y: 0), [255, 255, 255, 255])
  }

  func testLargeBlurSurfacesStayInsideTheTarget() throws {
    // A 100-point blur on a layer far larger than the target: every surface is bounded by the
    // target, whatever the layer's size.
    let root = box(0, 0, 64, 64, nil)
    let big = box(-2000, -2000, 4096, 4096, .green)
    big.filters = [.gaussianBlur(radius: 100)]
    root.addSublayer(big)
    let list = try RenderList(layer: root, width: 64, height: 64)
    XCTAssertNoThrow(try list.validate())
    for op in list.ops {
      switch op {
      case .pushGroup(_, let b), .copyBackdrop(_, let b):
        XCTAssertLessThanOrEqual(b.width * b.height, 64 * 64)
      case .filter(let pass):
        XCTAssertLessThanOrEqual(pass.bounds.width * pass.bounds.height, 64 * 64)
      case .draw, .popGroup, .transition: break
      }
    }
    // σ = 100 > 85 splits into two passes per axis.
    XCTAssertEqual(list.ops.filter { if case .filter = $0 { true } else { false } }.count, 4)
  }

  func testBadEffectInputIsATypedError() {
    let root = box(0, 0, 4, 4, nil)
    let l = box(0, 0, 4, 4, .red)
    l.name = "l"
    root.addSublayer(l)
    l.mask = l
    XCTAssertThrowsError(try RenderList(layer: root, width: 4, height: 4)) {
      guard case .invalidMask(let name, _) = $0 as? RenderError else { return XCTFail("\($0)") }
      XCTAssertEqual(name, "l")
    }
    let sibling = box(0, 0, 1, 1, nil)
    root.addSublayer(sibling)
    l.mask = sibling
    XCTAssertThrowsError(try RenderList(layer: root, width: 4, height: 4)) {
      guard case .invalidMask = $0 as? RenderError else { return XCTFail("\($0)") }
    }
    l.mask = nil
    l.shadowOpacity = 1
    l.shadowRadius = -2
    XCTAssertThrowsError(try RenderList(layer: root, width: 4, height: 4)) {
      XCTAssertEqual($0 as? RenderError, .negativeValue(layer: "l", property: "shadowRadius", value: -2))
    }
    l.shadowRadius = 2
    l.filters = [.gaussianBlur(radius: .nan)]
    XCTAssertThrowsError(try RenderList(layer: root, width: 4, height: 4)) {
      guard case .invalidFilter = $0 as? RenderError else { return XCTFail("\($0)") }
    }
    l.filters = []
    l.shadowPathValue = Path(rect: Rect(x: 0, y: 0, width: Double.infinity, height: 1))
    XCTAssertThrowsError(try RenderList(layer: root, width: 4, height: 4)) {
      XCTAssertEqual($0 as? RenderError, .invalidPath(layer: "l", property: "shadowPath"))
    }
  }

  func testFilterParametersByName() throws {
    var blur = Filter.gaussianBlur()
    XCTAssertEqual(blur.parameters, ["inputRadius": 10])  // Core Image's default
    try blur.setValue(4, forKey: "inputRadius")
    XCTAssertEqual(blur.effect, .gaussianBlur(radius: 4))
    XCTAssertThrowsError(try blur.setValue(1, forKey: "inputAngle")) {
      XCTAssertEqual(
        $0 as? FilterError, .unknownParameter(filter: "gaussianBlur", parameter: "inputAngle", known: ["inputRadius"]))
    }
    XCTAssertThrowsError(try blur.setValue(-1, forKey: "inputRadius"))
    XCTAssertEqual(Filter.sepia().parameters, ["inputIntensity": 1])
    XCTAssertEqual(Filter.colorControls().parameters, ["inputSaturation": 1, "inputBrightness": 0, "inputContrast": 1])
  }
}

final class BlendMathTests: XCTestCase {
  func composite(_ mode: BlendMode, _ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
    RenderMath.composite(mode, s, d)
  }

  func assertClose(_ a: SIMD4<Float>, _ b: SIMD4<Float>, file: StaticString = #filePath, line: UInt = #line) {
    for i in 0..<4 { XCTAssertEqual(a[i], b[i], accuracy: 1e-6, "\(a) vs \(b)", file: file, line: line) }
  }

  func testSeparableModesOnOpaqueColours() {
    // Opaque over opaque: the result is B(cb, cs) (W3C Compositing, §10).
    let s: SIMD4<Float> = [0.8, 0.4, 0.2, 1]
    let d: SIMD4<Float> = [0.5, 0.5, 0.25, 1]
    assertClose(composite(.multiply, s, d), [0.4, 0.2, 0.05, 1])
    assertClose(composite(.screen, s, d), [0.9, 0.7, 0.4, 1])
    assertClose(composite(.darken, s, d), [0.5, 0.4, 0.2, 1])
    assertClose(composite(.lighten, s, d), [0.8, 0.5, 0.25, 1])
    assertClose(composite(.difference, s, d), [0.3, 0.1, 0.05, 1])
    let e = composite(.exclusion, s, d)
    XCTAssertEqual(e.x, 0.5, accuracy: 1e-6)  // 0.5 + 0.8 − 2·0.4
    let o = composite(.overlay, s, d)  // cb = 0.5 ≤ 0.5: multiply(cs, 2cb) = 0.8
    XCTAssertEqual(o.x, 0.8, accuracy: 1e-6)
    let h = composite(.hardLight, s, d)  // cs = 0.8 > 0.5: screen(cb, 0.6) = 0.5 + 0.6 − 0.3
    XCTAssertEqual(h.x, 0.8, accuracy: 1e-6)
  }

  func testNonSeparableModesKeepLuminosityRules() {
    let s: SIMD4<Float> = [1, 0, 0, 1]
    let d: SIMD4<Float> = [0.5, 0.5, 0.5, 1]
    // luminosity: the backdrop's hue and saturation (grey) with the source's luminosity 0.3.
    let l = composite(.luminosity, s, d)
    XCTAssertEqual(l.x, 0.3, accuracy: 1e-6)
    XCTAssertEqual(l.y, 0.3, accuracy: 1e-6)
    // color: the source's hue and saturation at the backdrop's luminosity 0.5 keep Lum = 0.5.
    let c = composite(.color, s, d)
    XCTAssertEqual(0.3 * c.x + 0.59 * c.y + 0.11 * c.z, 0.5, accuracy: 1e-5)
    XCTAssertGreaterThan(c.x, c.y)
  }

  func testTransparentSourceLeavesTheBackdrop() {
    let d: SIMD4<Float> = [0.2, 0.3, 0.4, 0.9]
    for mode in BlendMode.allCases {
      XCTAssertEqual(composite(mode, .zero, d), d, "\(mode)")
    }
  }
}

final class PathTests: XCTestCase {
  func testRectangleFlattensToItsFourEdges() {
    let contours = Path(rect: Rect(x: 1, y: 2, width: 3, height: 4)).flattened()
    XCTAssertEqual(contours.count, 1)
    XCTAssertEqual(contours[0], [Point(x: 1, y: 2), Point(x: 4, y: 2), Point(x: 4, y: 6), Point(x: 1, y: 6)])
  }

  func testEllipseFlattensCloseToTheCircle() {
    let contour = Path(ellipseIn: Rect(x: -10, y: -10, width: 20, height: 20)).flattened(tolerance: 0.05)[0]
    for p in contour {
      XCTAssertEqual((p.x * p.x + p.y * p.y).squareRoot(), 10, accuracy: 0.05)
    }
    XCTAssertGreaterThan(contour.count, 16)
  }

  func testBoundingBoxAndFiniteness() {
    var p = Path()
    p.move(to: Point(x: 0, y: 0))
    p.addQuadCurve(to: Point(x: 10, y: 0), control: Point(x: 5, y: 8))
    XCTAssertEqual(p.boundingBox, Rect(x: 0, y: 0, width: 10, height: 8))
    XCTAssertTrue(p.isFinite)
    p.addLine(to: Point(x: Double.nan, y: 0))
    XCTAssertFalse(p.isFinite)
  }

  func testPathCoverageFillRules() {
    // A square inside a square, both clockwise: non-zero fills the hole, even-odd leaves it.
    let outer = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
    let inner = Path(rect: Rect(x: 3, y: 3, width: 4, height: 4))
    let both = Path(elements: outer.elements + inner.elements)
    let lp = RenderMath.LocalPoint(q: [5, 5], dqdx: [1, 0], dqdy: [0, 1])
    let edge = RenderMath.LocalPoint(q: [1.5, 5], dqdx: [1, 0], dqdy: [0, 1])
    let nonZero = PathGeometry(segments: segments(both))
    let evenOdd = PathGeometry(segments: segments(both), evenOdd: true)
    XCTAssertEqual(RenderMath.coverage(lp, nonZero), 1)
    XCTAssertEqual(RenderMath.coverage(lp, evenOdd), 0)
    XCTAssertEqual(RenderMath.coverage(edge, evenOdd), 1)
    let onEdge = RenderMath.LocalPoint(q: [0, 5], dqdx: [1, 0], dqdy: [0, 1])
    XCTAssertEqual(RenderMath.coverage(onEdge, nonZero), 0.5)
  }

  func segments(_ path: Path) -> [SIMD4<Float>] {
    path.flattened().flatMap { c in
      c.indices.map { i in
        let a = c[i]
        let b = c[(i + 1) % c.count]
        return SIMD4(Float(a.x), Float(a.y), Float(b.x), Float(b.y))
      }
    }
  }
}

final class BlendEdgeCaseTests: XCTestCase {
  /// Luminosity of opaque black over every grey: SetLum's clip divides by l − n, which is 0 for a
  /// grey; the result must be a colour (here black's luminosity, 0), never NaN or a trap.
  func testLuminosityOverGreyIsDefined() {
    for g in 0...255 {
      let dst = SIMD4<Float>(repeating: Float(g) / 255)
      let out = RenderMath.composite(.luminosity, [0, 0, 0, 1], SIMD4(dst.x, dst.y, dst.z, 1))
      XCTAssertFalse(out.x.isNaN || out.y.isNaN || out.z.isNaN, "grey \(g)")
      XCTAssertEqual(RenderMath.unorm8(out), [0, 0, 0, 255], "grey \(g)")
    }
    XCTAssertEqual(RenderMath.unorm8([.nan, 0.5, 1, .nan]), [0, 128, 255, 0])
  }
}
