import LayerKit
import LayerKitReference
import LayerKitSamples
import LayerKitTesting
import XCTest

/// Exact tests of the CPU backend on scenes small enough to compute by hand. Each pixel value is
/// derived in the comment from the parity contract: coverage = clamp(0.5 − d, 0, 1) with d the
/// signed distance in pixels from the pixel centre, bilinear sampling at texel centres
/// (i + 0.5) / size, source-over on premultiplied values, round to nearest.
final class ReferenceRendererTests: XCTestCase {
  let cpu = ReferenceRenderer(threadCount: 2)

  func render(_ layer: Layer, _ w: Int, _ h: Int, background: Color = .clear) throws -> Image {
    try cpu.render(layer, width: w, height: h, background: background)
  }

  /// A root layer that spans the target with nothing drawn, to hang sublayers on.
  func canvas(_ w: Double, _ h: Double) -> Layer {
    Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
  }

  func testAxisAlignedRectangleCoversExactlyItsPixels() throws {
    let layer = Layer(frame: Rect(x: 2, y: 1, width: 4, height: 3))
    layer.backgroundColor = .red
    let image = try render(layer, 8, 6)
    for y in 0..<6 {
      for x in 0..<8 {
        let inside = (2..<6).contains(x) && (1..<4).contains(y)
        XCTAssertEqual(image.pixel(x: x, y: y), inside ? [255, 0, 0, 255] : [0, 0, 0, 0], "(\(x), \(y))")
      }
    }
  }

  func testEdgeThroughPixelCentreCoversHalf() throws {
    // Left edge at x = 2.5 passes through the centre of column 2: d = 0, coverage 0.5, and
    // 0.5 × 255 = 127.5 rounds to 128.
    let layer = Layer(frame: Rect(x: 2.5, y: 0, width: 3, height: 2))
    layer.backgroundColor = .white
    let image = try render(layer, 8, 2)
    XCTAssertEqual(image.pixel(x: 1, y: 0), [0, 0, 0, 0])
    XCTAssertEqual(image.pixel(x: 2, y: 0), [128, 128, 128, 128])
    XCTAssertEqual(image.pixel(x: 3, y: 0), [255, 255, 255, 255])
    XCTAssertEqual(image.pixel(x: 5, y: 1), [128, 128, 128, 128])  // right edge at 5.5
    XCTAssertEqual(image.pixel(x: 6, y: 1), [0, 0, 0, 0])
  }

  func testBackgroundColourOfTargetIsBlendedUnder() throws {
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 1, height: 1))
    layer.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
    // (0.5, 0, 0, 0.5) over opaque blue, in the target's 8 bits as a GL blend unit does it:
    // the source is (128, 0, 0, 128), and blue keeps 255 × (255 − 128) / 255 = 127.
    let image = try render(layer, 2, 1, background: .blue)
    XCTAssertEqual(image.pixel(x: 0, y: 0), [128, 0, 127, 255])
    XCTAssertEqual(image.pixel(x: 1, y: 0), [0, 0, 255, 255])
  }

  func testGroupOpacityCompositesSubtreeOnce() throws {
    // Two opaque overlapping children in a parent of opacity 0.5. As a group, the overlap shows
    // only the top child at half strength: (0, 0, 0.5, 0.5) → (0, 0, 128, 128). Blending each
    // child at 0.5 would give red showing through.
    let parent = canvas(4, 1)
    parent.opacity = 0.5
    let red = Layer(frame: Rect(x: 0, y: 0, width: 3, height: 1))
    red.backgroundColor = .red
    let blue = Layer(frame: Rect(x: 1, y: 0, width: 3, height: 1))
    blue.backgroundColor = .blue
    parent.addSublayer(red)
    parent.addSublayer(blue)
    let image = try render(parent, 4, 1)
    XCTAssertEqual(image.pixel(x: 0, y: 0), [128, 0, 0, 128])
    XCTAssertEqual(image.pixel(x: 1, y: 0), [0, 0, 128, 128])
    XCTAssertEqual(image.pixel(x: 3, y: 0), [0, 0, 128, 128])
  }

  func testBorderIsInsetAndDrawnAboveSublayers() throws {
    let layer = canvas(6, 6)
    layer.backgroundColor = .white
    layer.borderWidth = 1
    layer.borderColor = .black
    let child = Layer(frame: Rect(x: 0, y: 0, width: 6, height: 6))
    child.backgroundColor = .green
    layer.addSublayer(child)
    let image = try render(layer, 6, 6)
    XCTAssertEqual(image.pixel(x: 0, y: 0), [0, 0, 0, 255])  // border over the child
    XCTAssertEqual(image.pixel(x: 5, y: 3), [0, 0, 0, 255])
    XCTAssertEqual(image.pixel(x: 1, y: 1), [0, 255, 0, 255])  // child inside the border
  }

  func testContentsDrawnOneToOneReproduceTheImage() throws {
    var bytes: [UInt8] = []
    for i in 0..<16 { bytes += [UInt8(i * 16), UInt8(255 - i * 16), UInt8(i * 7), 255] }
    let image = try Image(width: 4, height: 4, pixels: bytes)
    let layer = Layer(frame: Rect(x: 1, y: 2, width: 4, height: 4))
    layer.contents = image
    let out = try render(layer, 6, 7)
    for y in 0..<4 {
      for x in 0..<4 {
        XCTAssertEqual(out.pixel(x: x + 1, y: y + 2), image.pixel(x: x, y: y))
      }
    }
    XCTAssertEqual(out.pixel(x: 0, y: 0), [0, 0, 0, 0])
  }

  func testBilinearMagnificationSamplesBetweenTexelCentres() throws {
    // A 2×1 image [black, white] stretched to 4×1: texel positions t = (i + 0.5)/2 − 0.5 are
    // −0.25, 0.25, 0.75, 1.25 → clamped weights 0, 0.25, 0.75, 1 → 0, 64 (63.75), 191 (191.25), 255.
    let image = try Image(width: 2, height: 1, pixels: [0, 0, 0, 255, 255, 255, 255, 255])
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 4, height: 1))
    layer.contents = image
    let out = try render(layer, 4, 1)
    XCTAssertEqual((0..<4).map { out.pixel(x: $0, y: 0).x }, [0, 64, 191, 255])
  }

  func testContentsGravityTopLeftKeepsNaturalSize() throws {
    let image = try Image(width: 2, height: 2, color: .red)
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 4, height: 4))
    layer.contents = image
    layer.contentsGravity = .bottomRight
    let out = try render(layer, 4, 4)
    XCTAssertEqual(out.pixel(x: 3, y: 3), [255, 0, 0, 255])
    XCTAssertEqual(out.pixel(x: 2, y: 2), [255, 0, 0, 255])
    XCTAssertEqual(out.pixel(x: 1, y: 3), [0, 0, 0, 0])
    XCTAssertEqual(out.pixel(x: 3, y: 1), [0, 0, 0, 0])
  }

  func testMasksToBoundsClipsSublayers() throws {
    let parent = Layer(frame: Rect(x: 1, y: 1, width: 2, height: 2))
    parent.masksToBounds = true
    let child = Layer(frame: Rect(x: -1, y: -1, width: 10, height: 10))
    child.backgroundColor = .blue
    parent.addSublayer(child)
    let out = try render(parent, 4, 4)
    for y in 0..<4 {
      for x in 0..<4 {
        let inside = (1..<3).contains(x) && (1..<3).contains(y)
        XCTAssertEqual(out.pixel(x: x, y: y), inside ? [0, 0, 255, 255] : [0, 0, 0, 0], "(\(x), \(y))")
      }
    }
  }

  func testZPositionOrdersSiblings() throws {
    let root = canvas(2, 1)
    let a = Layer(frame: Rect(x: 0, y: 0, width: 2, height: 1))
    a.backgroundColor = .red
    a.zPosition = 1
    let b = Layer(frame: Rect(x: 0, y: 0, width: 2, height: 1))
    b.backgroundColor = .green
    root.addSublayer(a)
    root.addSublayer(b)
    XCTAssertEqual(try render(root, 2, 1).pixel(x: 0, y: 0), [255, 0, 0, 255])  // a is in front
    a.zPosition = 0
    XCTAssertEqual(try render(root, 2, 1).pixel(x: 0, y: 0), [0, 255, 0, 255])  // insertion order
  }

  func testHiddenAndTransparentLayersDrawNothing() throws {
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 2, height: 2))
    layer.backgroundColor = .red
    layer.isHidden = true
    XCTAssertEqual(try render(layer, 2, 2).pixels, [UInt8](repeating: 0, count: 16))
    layer.isHidden = false
    layer.opacity = 0
    XCTAssertEqual(try render(layer, 2, 2).pixels, [UInt8](repeating: 0, count: 16))
  }

  func testRotationAboutYShowsTheBackMirroredUnlessSingleSided() throws {
    // [red, green] turned π about the vertical axis through its centre: the back face shows
    // [green, red]. With isDoubleSided false the back face is not drawn.
    let image = try Image(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 255, 0, 255])
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 2, height: 1))
    layer.contents = image
    layer.transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
    let out = try render(layer, 2, 1)
    XCTAssertEqual(out.pixel(x: 0, y: 0), [0, 255, 0, 255])
    XCTAssertEqual(out.pixel(x: 1, y: 0), [255, 0, 0, 255])
    layer.isDoubleSided = false
    XCTAssertEqual(try render(layer, 2, 1).pixels, [UInt8](repeating: 0, count: 8))
  }

  func testQuarterTurnPermutesPixels() throws {
    // 2×1 [red, green] turned +90° about z (clockwise on screen, y down) about its centre (1, 0.5)
    // becomes a 1×2 column with red on top.
    let image = try Image(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 255, 0, 255])
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 2, height: 1)
    layer.position = Point(x: 1.5, y: 1)
    layer.contents = image
    layer.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
    let out = try render(layer, 3, 2)
    XCTAssertEqual(out.pixel(x: 1, y: 0), [255, 0, 0, 255])
    XCTAssertEqual(out.pixel(x: 1, y: 1), [0, 255, 0, 255])
    XCTAssertEqual(out.pixel(x: 0, y: 0), [0, 0, 0, 0])
    XCTAssertEqual(out.pixel(x: 2, y: 1), [0, 0, 0, 0])
  }

  func testPerspectiveMakesTheFarEdgeShorter() throws {
    // A square turned 40° about y under m34 = −1/200: the right half recedes, so the right column
    // of the drawn shape is shorter than the left one.
    let root = canvas(100, 100)
    root.sublayerTransform = .perspective(eyeDistance: 200)
    let card = Layer(frame: Rect(x: 20, y: 20, width: 60, height: 60))
    card.backgroundColor = .white
    card.transform = Transform3D(rotationAngle: 40 * .pi / 180, x: 0, y: 1, z: 0)
    root.addSublayer(card)
    let out = try render(root, 100, 100)
    func columnHeight(_ x: Int) -> Int { (0..<100).filter { out.pixel(x: x, y: $0).w > 128 }.count }
    let columns = (0..<100).filter { columnHeight($0) > 0 }
    let left = try XCTUnwrap(columns.first)
    let right = try XCTUnwrap(columns.last)
    XCTAssertGreaterThan(columnHeight(left + 1), columnHeight(right - 1) + 5)
  }

  func testRoundedCornersLeaveTheCornerEmpty() throws {
    // Radius 5 on a 20×20 square: the top-left arc is centred at (5, 5).
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 20))
    layer.backgroundColor = .white
    layer.cornerRadius = 5
    let out = try render(layer, 20, 20)
    // (0.5, 0.5) is 4.5·√2 − 5 ≈ 1.36 px outside the arc: empty.
    XCTAssertEqual(out.pixel(x: 0, y: 0), [0, 0, 0, 0])
    // (1.5, 1.5) is 3.5·√2 − 5 ≈ −0.050 px: coverage 0.550, 0.550 × 255 ≈ 140.3 → 140.
    XCTAssertEqual(out.pixel(x: 1, y: 1), [140, 140, 140, 140])
    // (2.5, 2.5) is 2.5·√2 − 5 ≈ −1.46 px inside: full.
    XCTAssertEqual(out.pixel(x: 2, y: 2), [255, 255, 255, 255])
    // The middle of the top edge is a straight edge, 0.5 px inside: full.
    XCTAssertEqual(out.pixel(x: 10, y: 0), [255, 255, 255, 255])
  }

  func testOutputDoesNotDependOnThreadCount() throws {
    let root = canvas(64, 64)
    root.sublayerTransform = .perspective(eyeDistance: 150)
    let card = Layer(frame: Rect(x: 8, y: 8, width: 48, height: 48))
    card.backgroundColor = Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.8)
    card.cornerRadius = 9
    card.transform = Transform3D(rotationAngle: 0.6, x: 1, y: 1, z: 0)
    root.addSublayer(card)
    let one = try ReferenceRenderer(threadCount: 1).render(root, width: 64, height: 64)
    let many = try ReferenceRenderer(threadCount: 4).render(root, width: 64, height: 64)
    XCTAssertIdentical(one, many)
  }

  func testMalformedListIsRejected() {
    var list = RenderList(width: 4, height: 4)
    list.ops = [.popGroup(0)]
    XCTAssertThrowsError(try cpu.render(list)) { error in
      guard case RenderError.malformedList = error else { return XCTFail("\(error)") }
    }
  }
}

/// The transition pass's precomputed bilinear taps give RenderMath.sampleBilinear's result bit for
/// bit: the fast path and the general path are one function of the same operations.
final class BilinearTapTests: XCTestCase {
  func testTapsSampleExactlyAsTheGeneralPath() {
    var state: UInt64 = 7
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    for (w, h) in [(1, 1), (3, 2), (17, 9), (640, 360), (1920, 1080)] {
      let texels = (0..<w * h * 4).map { _ in UInt8(truncatingIfNeeded: next()) }
      texels.withUnsafeBufferPointer { t in
        // Pixel-centre coordinates as the pass makes them, then random ones, including beyond [0, 1].
        var uvs: [SIMD2<Float>] = (0..<min(w, 64)).map { x in
          SIMD2((Float(x) + 0.5) / Float(w), 1 - (1 - (Float(x % h) + 0.5) / Float(h)))
        }
        uvs += (0..<500).map { _ in SIMD2(Float(next() % 3000) / 1000 - 1, Float(next() % 3000) / 1000 - 1) }
        for uv in uvs {
          let general = RenderMath.sampleBilinear(t, width: w, height: h, uv: uv)
          let fast = RenderMath.sampleBilinear(
            t, width: w, x: RenderMath.BilinearTap(uv.x, size: w), y: RenderMath.BilinearTap(uv.y, size: h))
          XCTAssertEqual(
            [general.x, general.y, general.z, general.w].map(\.bitPattern),
            [fast.x, fast.y, fast.z, fast.w].map(\.bitPattern), "\(w)×\(h) at \(uv)")
        }
      }
    }
  }
}

/// The CPU's interior fill (a plain rectangle's pixels that it covers wholly) against the general
/// path, byte for byte: fractional edges, translations, opacities, over content that blends.
final class InteriorFillTests: XCTestCase {
  /// Pictures at a translation (whole and fractional offsets, negative ones, opacity, clipped by
  /// masksToBounds, translucent texels, scaled 1:1 and 2:1) and rounded rectangles (radii from a
  /// fraction of a pixel to half the side): the interior's copies, taps and row fills against the
  /// general path, byte for byte.
  func testTexturedAndRoundedInteriorsMatchTheGeneralPathByteForByte() throws {
    let fast = ReferenceRenderer(threadCount: 2)
    let general = ReferenceRenderer(threadCount: 2)
    general.fastPaths = false
    var rng = SeededRandom(seed: 11)
    func picture(_ w: Int, _ h: Int, translucent: Bool) throws -> Image {
      var pixels = [UInt8](repeating: 0, count: w * h * 4)
      for i in stride(from: 0, to: pixels.count, by: 4) {
        // A band of translucent texels across the middle rows, opaque elsewhere.
        let a: UInt8 = translucent && (i / 4 / w) % 7 == 3 ? UInt8(truncatingIfNeeded: rng.int(255)) : 255
        for c in 0..<3 { pixels[i + c] = UInt8(Int(a) * rng.int(256) / 255) }
        pixels[i + 3] = a
      }
      return try Image(width: w, height: h, pixels: pixels)
    }
    let opaque = try picture(40, 30, translucent: false)
    let translucent = try picture(40, 30, translucent: true)
    let positions: [(Double, Double)] = [(5, 7), (5.5, 7.25), (-3, -2), (60, 40), (0.999, 3)]
    for image in [opaque, translucent] {
      for (x, y) in positions {
        for (opacity, clipped, scale) in [(1.0, false, 1.0), (1, true, 1), (0.6, false, 1), (1, true, 2)] {
          let root = Layer(frame: Rect(x: 0, y: 0, width: 96, height: 64))
          root.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.9, alpha: 0.7)
          let layer = Layer(frame: Rect(x: x, y: y, width: 40 * scale, height: 30 * scale))
          layer.contents = image
          layer.opacity = opacity
          layer.masksToBounds = clipped
          _ = root.addSublayer(layer)
          let list = try RenderList(layer: root, width: 96, height: 64)
          XCTAssertIdentical(
            try fast.render(list), try general.render(list),
            "picture at (\(x), \(y)), opacity \(opacity), scale \(scale)")
        }
      }
    }
    // Scaled along the axes by a transform (a Ken Burns frame), mirrored, and clipped.
    for image in [opaque, translucent] {
      for (sx, sy) in [(1.137, 1.137), (0.73, 1.41), (-1.0, 1.0), (2.5, 2.5)] {
        for (x, y) in positions {
          let root = Layer(frame: Rect(x: 0, y: 0, width: 96, height: 64))
          root.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.9, alpha: 0.7)
          let frame = Layer(frame: Rect(x: 4, y: 3, width: 80, height: 55))
          frame.masksToBounds = true
          let layer = Layer(frame: Rect(x: x, y: y, width: 40, height: 30))
          layer.contents = image
          layer.transform = Transform3D(scaleX: sx, y: sy)
          _ = frame.addSublayer(layer)
          _ = root.addSublayer(frame)
          let list = try RenderList(layer: root, width: 96, height: 64)
          XCTAssertIdentical(
            try fast.render(list), try general.render(list), "picture scaled (\(sx), \(sy)) at (\(x), \(y))")
        }
      }
    }
    for radius in [0.4, 3.5, 12, 15, 40] {
      for (x, y) in positions {
        let root = Layer(frame: Rect(x: 0, y: 0, width: 96, height: 64))
        root.backgroundColor = Color(red: 0.9, green: 0.8, blue: 0.1, alpha: 0.5)
        let layer = Layer(frame: Rect(x: x, y: y, width: 50.5, height: 30))
        layer.backgroundColor = Color(red: 0.1, green: 0.6, blue: 0.3, alpha: radius > 10 ? 1 : 0.8)
        layer.cornerRadius = radius
        _ = root.addSublayer(layer)
        let list = try RenderList(layer: root, width: 96, height: 64)
        XCTAssertIdentical(try fast.render(list), try general.render(list), "radius \(radius) at (\(x), \(y))")
      }
    }
  }

  func testInteriorFillMatchesTheGeneralPathByteForByte() throws {
    let fast = ReferenceRenderer(threadCount: 2)
    let general = ReferenceRenderer(threadCount: 2)
    general.fastPaths = false
    func translation(_ tx: Float, _ ty: Float) -> PlaneMapping {
      PlaneMapping(
        toTarget: Matrix3(row0: [1, 0, tx], row1: [0, 1, ty], row2: [0, 0, 1]),
        fromTarget: Matrix3(row0: [1, 0, -tx], row1: [0, 1, -ty], row2: [0, 0, 1]))
    }
    let target = PixelRect(x: 0, y: 0, width: 61, height: 37)
    var ops: [RenderOp] = [
      .draw(
        Draw(
          pixelBounds: target, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: [0, 0, 61, 37])),
          paint: .color([0.2, 0.3, 0.1, 0.6])))
    ]
    let rects: [(SIMD4<Float>, SIMD2<Float>, Float, SIMD4<Float>)] = [
      ([0.3, 0.7, 20.2, 15.9], [3.25, 1.5], 1, [0.9, 0.1, 0.2, 1]),
      ([-4, -3, 70, 50], [0, 0], 1, [0.1, 0.5, 0.9, 1]),
      ([5, 5, 30.5, 33.1], [10.75, -2.4], 0.47, [0.4, 0.4, 0.1, 0.8]),
      ([0, 0, 2.9, 40], [30.1, 0], 0.9, [1, 1, 1, 1]),
      ([1.5, 1.5, 59.5, 35.5], [0.5, 0.5], 0.25, [0.3, 0.6, 0.2, 0.9]),
      // Too thin for an interior (2.6 pixels wide): the general path alone.
      ([8.2, 4, 10.8, 30], [0, 0], 1, [0.2, 0.9, 0.4, 1]),
    ]
    for (bounds, t, opacity, color) in rects {
      let lo = SIMD2(bounds.x, bounds.y) + t
      let hi = SIMD2(bounds.z, bounds.w) + t
      let pixels = PixelRect(
        x: max(0, Int(lo.x.rounded(.down))), y: max(0, Int(lo.y.rounded(.down))),
        width: min(61, Int(hi.x.rounded(.up))) - max(0, Int(lo.x.rounded(.down))),
        height: min(37, Int(hi.y.rounded(.up))) - max(0, Int(lo.y.rounded(.down))))
      ops.append(
        .draw(
          Draw(
            pixelBounds: pixels, mapping: translation(t.x, t.y), shape: Shape(rect: RoundedRect(bounds: bounds)),
            paint: .color(color * color.w), opacity: opacity)))
      let list = RenderList(width: 61, height: 37, clearColor: [0, 0, 0.1, 0.2], ops: ops)
      XCTAssertIdentical(try fast.render(list), try general.render(list), "after \(bounds) at \(t)")
    }
    // And whole layer trees (the sample scenes draw full-target backgrounds and panels).
    for root in [try SampleScene.cards(width: 320, height: 180), try SampleScene.effects(width: 320, height: 180)] {
      let list = try RenderList(layer: root, width: 320, height: 180)
      XCTAssertIdentical(try fast.render(list), try general.render(list))
    }
  }
}
