import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitSamples
import LayerKitTesting
import XCTest

/// GPU ≡ CPU: every scene is rendered by the GL backend and by the CPU reference and compared
/// under the tolerance of docs/ARCHITECTURE.md (|Δ| ≤ 2 on ≥ 99.9 % of pixels, PSNR ≥ 45 dB). A failure writes
/// expected / actual / diff PNGs to artifacts/parity (or $LAYERKIT_ARTIFACTS) and names them.
/// GPU tests are never skipped: without an EGL display they fail with the backend's one-line error.
final class ParityTests: ParityTestCase {

  /// Checks one scene and prints its figures (the closing notes quote them).
  func check(
    _ name: String, _ layer: Layer, _ w: Int, _ h: Int, scale: Double = 1,
    background: Color = .clear, file: StaticString = #filePath, line: UInt = #line
  ) {
    guard
      let report = XCTAssertParity(
        checker, layer, width: w, height: h, scale: scale,
        background: background, name: name, file: file, line: line)
    else { return }
    print(report.message)
    // A blank render on both sides would pass trivially: every scene must draw something.
    XCTAssertTrue(report.expected.pixels.contains { $0 != 0 }, "\(name): CPU image is empty", file: file, line: line)
  }

  static func root(_ w: Double, _ h: Double, _ color: Color? = nil) -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    l.backgroundColor = color
    return l
  }

  static func box(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ c: Color) -> Layer {
    let l = Layer(frame: Rect(x: x, y: y, width: w, height: h))
    l.backgroundColor = c
    return l
  }

  static let orange = Color(red: 0.95, green: 0.55, blue: 0.15)
  static let teal = Color(red: 0.1, green: 0.65, blue: 0.7)
  static let plum = Color(red: 0.55, green: 0.2, blue: 0.6, alpha: 0.8)

  func image(_ w: Int, _ h: Int, hue: Double = 0) throws -> Image {
    try SampleScene.testImage(width: w, height: h, hue: hue)
  }

  // MARK: Geometry

  func testSolidRectangle() {
    let r = Self.root(64, 48)
    r.addSublayer(Self.box(8, 6, 40, 30, Self.orange))
    check("solid-rectangle", r, 64, 48)
  }

  func testFractionalFrame() {
    let r = Self.root(64, 48)
    r.addSublayer(Self.box(7.3, 5.6, 31.45, 20.2, Self.teal))
    r.addSublayer(Self.box(20.5, 30.25, 0.6, 10, .white))  // thinner than a pixel
    check("fractional-frame", r, 64, 48)
  }

  func testRotatedAboutZ() {
    let r = Self.root(96, 96)
    let b = Self.box(18, 28, 60, 40, Self.orange)
    b.transform = Transform3D(rotationAngle: 0.52, x: 0, y: 0, z: 1)
    r.addSublayer(b)
    check("rotated-z", r, 96, 96)
  }

  func testAnchorPointPivot() {
    let r = Self.root(96, 96)
    let b = Self.box(30, 30, 50, 20, Self.teal)
    b.anchorPoint = Point(x: 0, y: 0)
    b.position = Point(x: 30, y: 30)
    b.transform = Transform3D(rotationAngle: 0.9, x: 0, y: 0, z: 1)
    r.addSublayer(b)
    check("anchor-point-pivot", r, 96, 96)
  }

  func testPerspectiveRotationAboutY() throws {
    let r = Self.root(128, 96)
    r.sublayerTransform = .perspective(eyeDistance: 150)
    let b = Self.box(24, 18, 80, 60, Self.teal)
    b.transform = Transform3D(rotationAngle: 50 * .pi / 180, x: 0, y: 1, z: 0)
    b.contents = try image(40, 30)
    r.addSublayer(b)
    check("perspective-rotate-y", r, 128, 96)
  }

  func testPerspectiveRotationAboutX() {
    let r = Self.root(128, 96)
    r.sublayerTransform = .perspective(eyeDistance: 120)
    let b = Self.box(24, 18, 80, 60, Self.orange)
    b.cornerRadius = 10
    b.transform = Transform3D(rotationAngle: -40 * .pi / 180, x: 1, y: 0, z: 0)
    r.addSublayer(b)
    check("perspective-rotate-x", r, 128, 96)
  }

  func testNestedTransforms() {
    let r = Self.root(128, 128)
    let parent = Self.box(24, 24, 80, 80, Color(white: 0.3))
    parent.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1).concatenating(Transform3D(scaleX: 0.9, y: 1.1))
    let child = Self.box(10, 10, 40, 30, Self.orange)
    child.transform = Transform3D(scaleX: 1.3, y: 0.7).rotated(by: -0.8, x: 0, y: 0, z: 1)
    parent.addSublayer(child)
    r.addSublayer(parent)
    check("nested-transforms", r, 128, 128)
  }

  func testSublayerTransformAboutAnchor() {
    let r = Self.root(128, 96)
    let stage = Layer(frame: Rect(x: 0, y: 0, width: 128, height: 96))
    stage.sublayerTransform = Transform3D.perspective(eyeDistance: 200).rotated(by: 0.4, x: 0, y: 1, z: 0)
    for i in 0..<3 {
      let card = Self.box(12 + Double(i) * 36, 28, 30, 40, [Self.orange, Self.teal, Self.plum][i])
      card.zPosition = Double(i) * 20
      stage.addSublayer(card)
    }
    r.addSublayer(stage)
    check("sublayer-transform", r, 128, 96)
  }

  func testPlanePassingBehindTheEye() {
    let r = Self.root(96, 96)
    r.sublayerTransform = .perspective(eyeDistance: 40)
    let b = Self.box(-150, 20, 400, 56, Self.teal)
    b.transform = Transform3D(rotationAngle: 75 * .pi / 180, x: 0, y: 1, z: 0)
    r.addSublayer(b)
    check("behind-the-eye", r, 96, 96)
  }

  func testRenderScale() {
    let r = Self.root(48, 32)
    let b = Self.box(6, 4, 30, 20, Self.plum)
    b.cornerRadius = 6
    b.borderWidth = 1.5
    b.borderColor = .white
    r.addSublayer(b)
    check("scale-2", r, 96, 64, scale: 2)
  }

  // MARK: Appearance

  func testNestedOpacityGroups() {
    let r = Self.root(96, 64, .white)
    let outer = Self.box(8, 8, 80, 48, Self.teal)
    outer.opacity = 0.7
    let inner = Self.box(20, 8, 50, 32, Self.orange)
    inner.opacity = 0.5
    inner.addSublayer(Self.box(10, 10, 50, 30, .blue))
    outer.addSublayer(inner)
    outer.addSublayer(Self.box(-4, 30, 30, 30, Self.plum))
    r.addSublayer(outer)
    check("nested-opacity-groups", r, 96, 64)
  }

  func testTranslucentColours() {
    let r = Self.root(64, 48)
    r.addSublayer(Self.box(4, 4, 40, 30, Color(red: 1, green: 0.2, blue: 0.1, alpha: 0.35)))
    r.addSublayer(Self.box(20, 14, 40, 30, Color(red: 0.1, green: 0.3, blue: 1, alpha: 0.6)))
    check("translucent-colours", r, 64, 48, background: Color(white: 0.5, alpha: 0.5))
  }

  func testRoundedCorners() {
    let r = Self.root(96, 64)
    let b = Self.box(8, 8, 80, 48, Self.orange)
    b.cornerRadius = 17.5
    r.addSublayer(b)
    let pill = Self.box(20, 20, 60, 12, .white)
    pill.cornerRadius = 100  // clamps to half the height
    r.addSublayer(pill)
    check("rounded-corners", r, 96, 64)
  }

  func testRoundedBorder() {
    let r = Self.root(96, 64)
    let b = Self.box(8, 8, 80, 48, Self.teal)
    b.cornerRadius = 14
    b.borderWidth = 5
    b.borderColor = Color(red: 1, green: 1, blue: 1, alpha: 0.8)
    r.addSublayer(b)
    check("rounded-border", r, 96, 64)
  }

  func testThickBorderWithoutBackground() {
    let r = Self.root(64, 64)
    let b = Layer(frame: Rect(x: 6, y: 6, width: 52, height: 40))
    b.borderWidth = 30  // wider than half the height: the whole rectangle
    b.borderColor = Self.plum
    r.addSublayer(b)
    let c = Layer(frame: Rect(x: 10, y: 50, width: 44, height: 12))
    c.borderWidth = 2.5
    c.cornerRadius = 4
    c.borderColor = .white
    r.addSublayer(c)
    check("thick-border", r, 64, 64)
  }

  func testRoundedClipOfRotatedSublayer() {
    let r = Self.root(96, 96)
    let clip = Self.box(12, 12, 72, 72, Color(white: 0.2))
    clip.cornerRadius = 20
    clip.masksToBounds = true
    let child = Self.box(-10, 20, 100, 30, Self.orange)
    child.transform = Transform3D(rotationAngle: 0.6, x: 0, y: 0, z: 1)
    clip.addSublayer(child)
    r.addSublayer(clip)
    check("rounded-clip", r, 96, 96)
  }

  func testDeeplyNestedClips() {
    let r = Self.root(96, 96)
    var parent = r
    for i in 0..<6 {
      let l = Self.box(3, 3, 90 - Double(i) * 8, 90 - Double(i) * 8, Color(white: 0.15 * Double(i), alpha: 0.5))
      l.cornerRadius = 8
      l.masksToBounds = true
      l.transform = Transform3D(rotationAngle: 0.05, x: 0, y: 0, z: 1)
      parent.addSublayer(l)
      parent = l
    }
    parent.addSublayer(Self.box(-20, -20, 200, 200, Self.teal))
    check("nested-clips-6", r, 96, 96)
  }

  func testClipUnderPerspective() throws {
    let r = Self.root(128, 96)
    r.sublayerTransform = .perspective(eyeDistance: 180)
    let card = Self.box(24, 16, 80, 64, Color(white: 0.9))
    card.cornerRadius = 12
    card.masksToBounds = true
    card.transform = Transform3D(rotationAngle: 0.7, x: 1, y: 1, z: 0)
    let pic = Layer(frame: Rect(x: -10, y: -10, width: 100, height: 84))
    pic.contents = try image(50, 42, hue: 0.3)
    card.addSublayer(pic)
    r.addSublayer(card)
    check("clip-perspective", r, 128, 96)
  }

  // MARK: Contents

  func testContentsResize() throws {
    let r = Self.root(96, 64)
    let b = Layer(frame: Rect(x: 5.5, y: 4, width: 83, height: 55))
    b.contents = try image(40, 30)
    r.addSublayer(b)
    check("contents-resize", r, 96, 64)
  }

  func testContentsEveryGravity() throws {
    let r = Self.root(192, 144, Color(white: 0.1))
    let pic = try image(24, 16, hue: 0.6)
    for (i, g) in ContentsGravity.allCases.enumerated() {
      let cell = Layer(frame: Rect(x: Double(i % 4) * 48 + 2, y: Double(i / 4) * 48 + 2, width: 44, height: 30))
      cell.backgroundColor = Color(white: 0.3)
      cell.contents = pic
      cell.contentsGravity = g
      r.addSublayer(cell)
    }
    check("contents-every-gravity", r, 192, 144)
  }

  func testContentsRectAndScale() throws {
    let r = Self.root(96, 64)
    let b = Layer(frame: Rect(x: 4, y: 4, width: 40, height: 40))
    b.contents = try image(64, 64)
    b.contentsRect = Rect(x: 0.25, y: 0.1, width: 0.5, height: 0.6)
    r.addSublayer(b)
    let c = Layer(frame: Rect(x: 50, y: 4, width: 40, height: 40))
    c.contents = try image(32, 32, hue: 0.2)
    c.contentsScale = 2
    c.contentsGravity = .center
    c.backgroundColor = Color(white: 0.4)
    r.addSublayer(c)
    check("contents-rect-scale", r, 96, 64)
  }

  func testContentsMinified() throws {
    let r = Self.root(64, 64)
    let b = Layer(frame: Rect(x: 4, y: 4, width: 37, height: 29))
    b.contents = try image(160, 120)
    r.addSublayer(b)
    check("contents-minified", r, 64, 64)
  }

  func testContentsUnderPerspective() throws {
    let r = Self.root(128, 96)
    r.sublayerTransform = .perspective(eyeDistance: 140)
    let b = Layer(frame: Rect(x: 20, y: 16, width: 88, height: 64))
    b.contents = try image(44, 32, hue: 0.1)
    b.contentsGravity = .resizeAspect
    b.transform = Transform3D(rotationAngle: -0.8, x: 0, y: 1, z: 0)
    b.borderWidth = 2
    b.borderColor = .white
    r.addSublayer(b)
    check("contents-perspective", r, 128, 96)
  }

  // MARK: Visibility and order

  func testDoubleSidedCulling() throws {
    let r = Self.root(128, 64)
    r.sublayerTransform = .perspective(eyeDistance: 300)
    let front = Self.box(8, 8, 50, 48, Self.orange)
    front.contents = try image(25, 24)
    front.transform = Transform3D(rotationAngle: 2.6, x: 0, y: 1, z: 0)  // facing away, drawn mirrored
    let back = Self.box(70, 8, 50, 48, Self.teal)
    back.transform = Transform3D(rotationAngle: 2.6, x: 0, y: 1, z: 0)
    back.isDoubleSided = false  // facing away: not drawn
    r.addSublayer(front)
    r.addSublayer(back)
    check("double-sided", r, 128, 64)
  }

  func testZPositionOrderAndHiddenLayers() {
    let r = Self.root(96, 64)
    let a = Self.box(10, 10, 50, 40, Self.orange)
    a.zPosition = 5
    let b = Self.box(30, 16, 50, 40, Self.teal)
    let hidden = Self.box(0, 0, 96, 64, .red)
    hidden.isHidden = true
    let clear = Self.box(0, 0, 96, 64, .red)
    clear.opacity = 0
    r.addSublayer(a)
    r.addSublayer(b)
    r.addSublayer(hidden)
    r.addSublayer(clear)
    check("z-order-hidden", r, 96, 64)
  }

  func testSampleScene() throws {
    check("sample-scene", try SampleScene.cards(width: 480, height: 270), 480, 270)
  }
}
