import LayerKit
import XCTest

final class LayerTests: XCTestCase {
  func testFrameIsDerivedFromPositionAnchorAndBounds() {
    // CALayer: frame.origin = position − anchorPoint × bounds.size (identity transform).
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 100, height: 40)
    layer.position = Point(x: 50, y: 50)
    XCTAssertEqual(layer.frame, Rect(x: 0, y: 30, width: 100, height: 40))
    layer.anchorPoint = Point(x: 0, y: 0)
    XCTAssertEqual(layer.frame, Rect(x: 50, y: 50, width: 100, height: 40))
  }

  func testSettingFrameSetsPositionAndBoundsSize() {
    let layer = Layer()
    layer.anchorPoint = Point(x: 0.25, y: 1)
    layer.frame = Rect(x: 10, y: 20, width: 40, height: 8)
    XCTAssertEqual(layer.bounds.size, Size(width: 40, height: 8))
    XCTAssertEqual(layer.position, Point(x: 20, y: 28))
    XCTAssertEqual(layer.frame, Rect(x: 10, y: 20, width: 40, height: 8))
  }

  func testFrameOfTransformedLayerIsTheBoundingBox() {
    // A 100×40 layer at (50, 50) scaled by 2: its frame doubles about the anchor point.
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: 100, height: 40)
    layer.position = Point(x: 50, y: 50)
    layer.transform = Transform3D(scaleX: 2, y: 2)
    XCTAssertEqual(layer.frame, Rect(x: -50, y: 10, width: 200, height: 80))
    layer.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
    let f = layer.frame
    XCTAssertEqual(f.origin.x, 30, accuracy: 1e-9)
    XCTAssertEqual(f.origin.y, 0, accuracy: 1e-9)
    XCTAssertEqual(f.size.width, 40, accuracy: 1e-9)
    XCTAssertEqual(f.size.height, 100, accuracy: 1e-9)
  }

  func testSublayerInsertionAndRemoval() {
    let root = Layer()
    let (a, b, c, d) = (Layer(), Layer(), Layer(), Layer())
    root.addSublayer(a)
    root.addSublayer(b)
    root.insertSublayer(c, at: 0)
    XCTAssertTrue(root.sublayers!.elementsEqual([c, a, b], by: ===))
    root.insertSublayer(d, above: a)
    XCTAssertTrue(root.sublayers!.elementsEqual([c, a, d, b], by: ===))
    root.insertSublayer(b, below: c)
    XCTAssertTrue(root.sublayers!.elementsEqual([b, c, a, d], by: ===))
    root.insertSublayer(b, above: d)  // moving within the same parent
    XCTAssertTrue(root.sublayers!.elementsEqual([c, a, d, b], by: ===))
    a.removeFromSuperlayer()
    XCTAssertNil(a.superlayer)
    XCTAssertTrue(root.sublayers!.elementsEqual([c, d, b], by: ===))
    root.replaceSublayer(d, with: a)
    XCTAssertTrue(root.sublayers!.elementsEqual([c, a, b], by: ===))
    XCTAssertNil(d.superlayer)
    XCTAssertTrue(a.superlayer === root)
  }

  func testAddingMovesALayerBetweenParents() {
    let p1 = Layer()
    let p2 = Layer()
    let child = Layer()
    p1.addSublayer(child)
    p2.addSublayer(child)
    XCTAssertNil(p1.sublayers, "none: nil, as CALayer's")
    XCTAssertTrue(child.superlayer === p2)
  }

  func testCyclesAreRefused() {
    let root = Layer()
    let child = Layer()
    root.addSublayer(child)
    XCTAssertFalse(child.addSublayer(root))
    XCTAssertFalse(root.addSublayer(root))
    XCTAssertNil(root.superlayer)
    XCTAssertTrue(root.sublayers!.elementsEqual([child], by: ===))
  }
}

final class TransformTests: XCTestCase {
  func apply(_ t: Transform3D, _ x: Double, _ y: Double) -> (Double, Double) {
    let w = x * t.m14 + y * t.m24 + t.m44
    return ((x * t.m11 + y * t.m21 + t.m41) / w, (x * t.m12 + y * t.m22 + t.m42) / w)
  }

  func testRotationAboutZMatchesCoreAnimation() {
    // CATransform3DMakeRotation(a, 0, 0, 1) = [cos sin 0 0; −sin cos 0 0; 0 0 1 0; 0 0 0 1].
    let t = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
    XCTAssertEqual(t.m11, cos(0.3), accuracy: 1e-15)
    XCTAssertEqual(t.m12, sin(0.3), accuracy: 1e-15)
    XCTAssertEqual(t.m21, -sin(0.3), accuracy: 1e-15)
    XCTAssertEqual(t.m22, cos(0.3), accuracy: 1e-15)
    // y grows down, so +90° takes the x axis onto the y axis: clockwise on screen.
    let (x, y) = apply(Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1), 1, 0)
    XCTAssertEqual(x, 0, accuracy: 1e-12)
    XCTAssertEqual(y, 1, accuracy: 1e-12)
  }

  func testConcatenationAppliesTheFirstTransformFirst() {
    // CATransform3DConcat(a, b) = a then b.
    let scale = Transform3D(scaleX: 2, y: 3)
    let move = Transform3D(translationX: 10, y: 20)
    let (x, y) = apply(scale.concatenating(move), 1, 1)
    XCTAssertEqual(x, 12)
    XCTAssertEqual(y, 23)
    // CATransform3DTranslate(t, …) translates before t.
    let (x2, y2) = apply(scale.translatedBy(x: 1, y: 1), 1, 1)
    XCTAssertEqual(x2, 4)
    XCTAssertEqual(y2, 6)
  }

  func testPerspectiveTermDividesByW() {
    // m34 = −1/d: a point at z = d/2 towards the viewer is magnified by 2.
    var t = Transform3D.perspective(eyeDistance: 100)
    t = Transform3D(translationX: 0, y: 0, z: 50).concatenating(t)
    // The origin (0, 0, 0, 1) lands at z = 50: w = 50 · m34 + 1 = 0.5.
    XCTAssertEqual(t.m44, 0.5, accuracy: 1e-12)
    XCTAssertEqual(t.m43, 50, accuracy: 1e-12)
  }

  func testRotationAboutArbitraryAxisIsOrthonormal() {
    let t = Transform3D(rotationAngle: 1.1, x: 1, y: 2, z: 3)
    let r = t.rows
    for i in 0..<3 {
      for j in 0..<3 {
        let dot = (0..<3).reduce(0.0) { $0 + r[i][$1] * r[j][$1] }
        XCTAssertEqual(dot, i == j ? 1 : 0, accuracy: 1e-12)
      }
    }
    XCTAssertEqual(Transform3D(rotationAngle: 1, x: 0, y: 0, z: 0), .identity)
  }
}

final class RenderListTests: XCTestCase {
  func testInvalidTargetsAreTypedErrors() {
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 1, height: 1))
    XCTAssertThrowsError(try RenderList(layer: layer, width: 0, height: 10)) {
      XCTAssertEqual($0 as? RenderError, .invalidTargetSize(width: 0, height: 10))
    }
    XCTAssertThrowsError(try RenderList(layer: layer, width: 20_000, height: 10)) {
      XCTAssertEqual($0 as? RenderError, .targetTooLarge(width: 20_000, height: 10, limit: 16_384))
    }
    XCTAssertThrowsError(try RenderList(layer: layer, width: 10, height: 10, scale: .nan)) {
      guard case .invalidScale = $0 as? RenderError else { return XCTFail("\($0)") }
    }
  }

  func testNonFiniteAndNegativeGeometryNameTheLayerAndProperty() {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    let child = Layer()
    child.name = "card"
    root.addSublayer(child)
    child.position = Point(x: Double.nan, y: 0)
    XCTAssertThrowsError(try RenderList(layer: root, width: 10, height: 10)) {
      XCTAssertEqual($0 as? RenderError, .nonFiniteValue(layer: "card", property: "position"))
    }
    child.position = .zero
    child.bounds = Rect(x: 0, y: 0, width: -5, height: 5)
    XCTAssertThrowsError(try RenderList(layer: root, width: 10, height: 10)) {
      XCTAssertEqual($0 as? RenderError, .negativeValue(layer: "card", property: "bounds.size.width", value: -5))
    }
    child.bounds = Rect(x: 0, y: 0, width: 5, height: 5)
    child.transform.m34 = .infinity
    XCTAssertThrowsError(try RenderList(layer: root, width: 10, height: 10)) {
      XCTAssertEqual($0 as? RenderError, .nonFiniteValue(layer: "card", property: "transform"))
    }
    child.transform = .identity
    child.cornerRadius = -1
    XCTAssertThrowsError(try RenderList(layer: root, width: 10, height: 10)) {
      XCTAssertEqual($0 as? RenderError, .negativeValue(layer: "card", property: "cornerRadius", value: -1))
    }
  }

  func testOpacityOfASingleDrawFoldsIntoTheDraw() throws {
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 4, height: 4))
    layer.backgroundColor = .red
    layer.opacity = 0.5
    let list = try RenderList(layer: layer, width: 4, height: 4)
    XCTAssertEqual(list.ops.count, 1)
    guard case .draw(let d) = list.ops[0] else { return XCTFail() }
    XCTAssertEqual(d.opacity, 0.5)
    XCTAssertEqual(d.pixelBounds, PixelRect(x: 0, y: 0, width: 4, height: 4))
  }

  func testOpacityOfSeveralDrawsMakesAGroup() throws {
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 4, height: 4))
    layer.backgroundColor = .red
    layer.borderWidth = 1
    layer.opacity = 0.5
    let list = try RenderList(layer: layer, width: 8, height: 8)
    XCTAssertEqual(list.ops.count, 5)
    // The group covers only what it draws (4×4 plus the one-pixel ramp margin), not the target.
    let bounds = PixelRect(x: 0, y: 0, width: 5, height: 5)
    XCTAssertEqual(list.ops[0], .pushGroup(0, bounds: bounds))
    XCTAssertEqual(list.ops[3], .popGroup(0))
    guard case .draw(let composite) = list.ops[4] else { return XCTFail() }
    XCTAssertEqual(composite.opacity, 0.5)
    XCTAssertEqual(composite.paint, .texture(.surface(0), TextureTransform(scale: [1 / 5, 1 / 5], offset: .zero)))
    XCTAssertEqual(composite.pixelBounds, bounds)
    XCTAssertNoThrow(try list.validate())
  }

  func testDeepClippingNestsThroughGroups() throws {
    // Six nested clipping layers: at most RenderList.maxClips clips on any draw.
    let root = Layer(frame: Rect(x: 0, y: 0, width: 64, height: 64))
    var parent = root
    for i in 0..<6 {
      let l = Layer(frame: Rect(x: 1, y: 1, width: 60 - Double(i) * 4, height: 60 - Double(i) * 4))
      l.masksToBounds = true
      l.cornerRadius = 3
      parent.addSublayer(l)
      parent = l
    }
    let leaf = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    leaf.backgroundColor = .blue
    parent.addSublayer(leaf)
    let list = try RenderList(layer: root, width: 64, height: 64)
    XCTAssertNoThrow(try list.validate())
    var draws = 0
    for case .draw(let d) in list.ops {
      draws += 1
      XCTAssertLessThanOrEqual(d.clips.count, RenderList.maxClips)
    }
    XCTAssertGreaterThan(draws, 1)
    XCTAssertTrue(list.ops.contains { if case .pushGroup = $0 { true } else { false } })
  }

  func testSharedContentsImageIsListedOnce() throws {
    let image = try Image(width: 2, height: 2, color: .green)
    let root = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    for i in 0..<3 {
      let l = Layer(frame: Rect(x: Double(i * 3), y: 0, width: 2, height: 2))
      l.contents = image
      root.addSublayer(l)
    }
    let list = try RenderList(layer: root, width: 10, height: 10)
    XCTAssertEqual(list.images.count, 1)
    XCTAssertEqual(list.drawCount, 3)
  }

  func testLayersOutsideTheTargetProduceNoDraws() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    let far = Layer(frame: Rect(x: 100, y: 100, width: 10, height: 10))
    far.backgroundColor = .red
    root.addSublayer(far)
    XCTAssertEqual(try RenderList(layer: root, width: 10, height: 10).ops, [])
  }

  func testAPlanePassingBehindTheEyeGetsFiniteBounds() throws {
    // Turned 80° about y under a strong perspective, part of the layer is behind the eye.
    let root = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    root.sublayerTransform = .perspective(eyeDistance: 30)
    let card = Layer(frame: Rect(x: -400, y: 0, width: 900, height: 100))
    card.backgroundColor = .white
    card.transform = Transform3D(rotationAngle: 80 * .pi / 180, x: 0, y: 1, z: 0)
    root.addSublayer(card)
    let list = try RenderList(layer: root, width: 100, height: 100)
    XCTAssertNoThrow(try list.validate())
  }

  func testContentsGravityRects() {
    let bounds = Rect(x: 0, y: 0, width: 100, height: 50)
    let image = Size(width: 20, height: 10)
    XCTAssertEqual(ContentsGravity.resize.rect(in: bounds, imageSize: image), bounds)
    XCTAssertEqual(
      ContentsGravity.resizeAspect.rect(in: bounds, imageSize: Size(width: 10, height: 10)),
      Rect(x: 25, y: 0, width: 50, height: 50))
    XCTAssertEqual(
      ContentsGravity.resizeAspectFill.rect(in: bounds, imageSize: Size(width: 10, height: 10)),
      Rect(x: 0, y: -25, width: 100, height: 100))
    XCTAssertEqual(ContentsGravity.center.rect(in: bounds, imageSize: image), Rect(x: 40, y: 20, width: 20, height: 10))
    XCTAssertEqual(ContentsGravity.top.rect(in: bounds, imageSize: image), Rect(x: 40, y: 0, width: 20, height: 10))
    XCTAssertEqual(ContentsGravity.bottom.rect(in: bounds, imageSize: image), Rect(x: 40, y: 40, width: 20, height: 10))
    XCTAssertEqual(ContentsGravity.left.rect(in: bounds, imageSize: image), Rect(x: 0, y: 20, width: 20, height: 10))
    XCTAssertEqual(ContentsGravity.right.rect(in: bounds, imageSize: image), Rect(x: 80, y: 20, width: 20, height: 10))
    XCTAssertEqual(ContentsGravity.topLeft.rect(in: bounds, imageSize: image), Rect(x: 0, y: 0, width: 20, height: 10))
    XCTAssertEqual(
      ContentsGravity.topRight.rect(in: bounds, imageSize: image), Rect(x: 80, y: 0, width: 20, height: 10))
    XCTAssertEqual(
      ContentsGravity.bottomLeft.rect(in: bounds, imageSize: image), Rect(x: 0, y: 40, width: 20, height: 10))
    XCTAssertEqual(
      ContentsGravity.bottomRight.rect(in: bounds, imageSize: image), Rect(x: 80, y: 40, width: 20, height: 10))
  }
}

final class ImageTests: XCTestCase {
  func testImageValidation() {
    XCTAssertThrowsError(try Image(width: 0, height: 1, pixels: [])) {
      XCTAssertEqual($0 as? ImageError, .invalidSize(width: 0, height: 1))
    }
    XCTAssertThrowsError(try Image(width: 2, height: 1, pixels: [0, 0, 0, 0])) {
      XCTAssertEqual($0 as? ImageError, .pixelCountMismatch(expected: 8, actual: 4))
    }
    XCTAssertThrowsError(try Image(width: 20_000, height: 1, color: .red)) {
      guard case .tooLarge = $0 as? ImageError else { return XCTFail("\($0)") }
    }
  }

  func testSolidImageIsPremultiplied() throws {
    let image = try Image(width: 1, height: 1, color: Color(red: 1, green: 0.5, blue: 0, alpha: 0.5))
    XCTAssertEqual(image.pixels, [128, 64, 0, 128])
  }
}

/// Values beyond LayerKit's documented limits are typed errors naming the layer, the property
/// and the bound, before anything is drawn (a shadow radius of 1e7 once tried to allocate 110 GB).
final class LimitsTests: XCTestCase {
  func testValuesBeyondTheLimitsAreRefused() {
    func error(_ configure: (Layer) -> Void) -> RenderError? {
      let layer = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
      layer.name = "card"
      configure(layer)
      do {
        _ = try RenderList(layer: layer, width: 10, height: 10)
        return nil
      } catch { return error }
    }
    XCTAssertEqual(
      error { $0.shadowOpacity = 1; $0.shadowRadius = 1e7 },
      .outOfRange(layer: "card", property: "shadowRadius", value: 1e7, limit: Limits.maxBlurRadius))
    XCTAssertEqual(
      error { $0.shadowOpacity = 1; $0.shadowOffset = Size(width: 1e300, height: 0) },
      .outOfRange(layer: "card", property: "shadowOffset", value: 1e300, limit: Limits.maxCoordinate))
    XCTAssertEqual(
      error { $0.filters = [.gaussianBlur(radius: 1e30)] },
      .outOfRange(layer: "card", property: "filters.gaussianBlur.inputRadius", value: 1e30, limit: Limits.maxBlurRadius))
    XCTAssertEqual(
      error { $0.position = Point(x: 1e300, y: 0) },
      .outOfRange(layer: "card", property: "position", value: 1e300, limit: Limits.maxCoordinate))
    XCTAssertNil(error { $0.shadowRadius = Limits.maxBlurRadius }, "the bound itself is allowed")
    XCTAssertTrue(
      "\(RenderError.outOfRange(layer: "card", property: "shadowRadius", value: 1e7, limit: 250))".contains(
        "layer card: shadowRadius is 10000000.0, beyond the limit of ±250.0"))
  }

  /// In code the same endless repeat of a tiny duration does not trap: repeats are counted in
  /// Double and bounded before they become an Int.
  func testAnEndlessRepeatOfATinyDurationDoesNotTrap() throws {
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    let pulse = BasicAnimation(keyPath: "opacity")
    pulse.fromValue = 0
    pulse.toValue = 1
    pulse.duration = 1e-300
    pulse.repeatCount = .infinity
    pulse.isCumulative = true
    try layer.addChecked(pulse, forKey: "pulse")
    let opacity = layer.presentation(at: 0.5).opacity
    XCTAssertTrue(opacity.isFinite, "a finite value, not a trap: \(opacity)")
  }
}
