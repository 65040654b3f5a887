import Foundation
import LayerKit
import LayerKitReference
import XCTest

/// Core Animation code written in Core Graphics' own types — `CGRect`, `CGPoint`, `CGSize`,
/// `CGFloat`, `CGAffineTransform` — as porters write it everywhere, and a `TextLayer` drawn with
/// no set-up call, as a CATextLayer is. This target links LayerKitText (as the LayerKit product
/// does) but never imports it.
final class PortedCoreGraphicsTests: XCTestCase {
  /// A layer's geometry set and read in CG types, with CGFloat arithmetic on the way.
  func testGeometryInCoreGraphicsTypes() {
    let layer = Layer()
    layer.frame = CGRect(x: 20, y: 30, width: 100, height: 50)
    XCTAssertEqual(layer.position, CGPoint(x: 70, y: 55), "CALayer: the frame's centre, with the default anchor")
    XCTAssertEqual(layer.bounds, CGRect(x: 0, y: 0, width: 100, height: 50))

    layer.bounds.size = CGSize(width: 200, height: 100)
    XCTAssertEqual(layer.frame, CGRect(x: -30, y: 5, width: 200, height: 100), "the size grows about the anchor")

    let radius: CGFloat = min(layer.bounds.width, layer.bounds.height) / 2
    layer.cornerRadius = radius
    layer.shadowOffset = CGSize(width: 0, height: 3)
    layer.anchorPoint = CGPoint(x: 0, y: 0)
    layer.position = CGPoint(x: layer.position.x + 10, y: 0)
    let center = CGPoint(x: layer.bounds.midX, y: layer.bounds.midY)
    XCTAssertEqual(layer.cornerRadius, 50)
    XCTAssertEqual(layer.shadowOffset.height, 3)
    XCTAssertEqual(layer.frame.origin, CGPoint(x: 80, y: 0))
    XCTAssertEqual(center, CGPoint(x: 100, y: 50))

    let contentsRect = CGRect(x: 0, y: 0, width: 0.5, height: 1)
    layer.contentsRect = contentsRect
    XCTAssertEqual(layer.contentsRect.width, 0.5)
  }

  /// `convert(_:to:)` and `hitTest(_:)` take and give CGPoints.
  func testConversionAndHitTestingInCGPoints() throws {
    let root = Layer()
    root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
    let child = Layer()
    child.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
    root.addSublayer(child)
    let p = child.convert(CGPoint(x: 10, y: 10), to: root)
    XCTAssertEqual(p, CGPoint(x: 60, y: 60))
    XCTAssertTrue(root.hitTest(CGPoint(x: 60, y: 60)) === child)
  }

  /// CGAffineTransform as written: made, composed, applied to points, sizes and rects, and set
  /// on a layer with `setAffineTransform(_:)` (CATransform3DMakeAffineTransform).
  func testCGAffineTransformAsWritten() {
    let rotate = CGAffineTransform(rotationAngle: .pi / 2)
    let scaledThenRotated = rotate.scaledBy(x: 2, y: 2)
    // Core Graphics: scaledBy prepends the scale, so (1, 0) is scaled to (2, 0), then turned.
    let p = CGPoint(x: 1, y: 0).applying(scaledThenRotated)
    XCTAssertEqual(p.x, 0, accuracy: 1e-12)
    XCTAssertEqual(p.y, 2, accuracy: 1e-12)
    let moved = CGAffineTransform.identity.translatedBy(x: 10, y: 20)
    XCTAssertEqual(moved.tx, 10)
    XCTAssertEqual(moved.ty, 20)
    XCTAssertEqual(CGSize(width: 3, height: 4).applying(moved), CGSize(width: 3, height: 4), "sizes ignore translation")
    XCTAssertEqual(CGRect(x: 0, y: 0, width: 10, height: 20).applying(rotate).width, 20, accuracy: 1e-12)
    XCTAssertTrue(CGAffineTransform.identity.isIdentity)
    XCTAssertEqual(CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6).c, 3)

    let layer = Layer()
    layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    layer.setAffineTransform(CGAffineTransform(scaleX: 2, y: 3))
    XCTAssertEqual(layer.transform.m11, 2)
    XCTAssertEqual(layer.transform.m22, 3)
    XCTAssertTrue(Transform3DIsAffine(layer.transform))
    XCTAssertEqual(layer.affineTransform(), CGAffineTransform(scaleX: 2, y: 3))
    XCTAssertEqual(layer.frame, CGRect(x: -50, y: -100, width: 200, height: 300), "the frame follows the transform")
  }

  /// Animations from and to CG values, read back in them.
  func testAnimationsBetweenCoreGraphicsValues() {
    let layer = Layer()
    layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    let move = BasicAnimation(keyPath: "position")
    move.fromValue = layer.position
    move.toValue = CGPoint(x: layer.position.x + 100, y: layer.position.y)
    move.duration = 1
    layer.add(move, forKey: "move")
    let grow = BasicAnimation(keyPath: "bounds")
    grow.toValue = CGRect(x: 0, y: 0, width: 200, height: 100)
    grow.duration = 1
    layer.add(grow, forKey: "grow")
    let halfway = layer.presentation(at: 0.5)
    XCTAssertEqual(halfway.position, CGPoint(x: 100, y: 50))
    XCTAssertEqual(halfway.bounds.size, CGSize(width: 150, height: 100))
  }

  /// Paths from CG rects and points: CGPath's initializers, UIBezierPath's, CGFloat angles.
  func testPathsFromCoreGraphicsValues() {
    let bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
    let circle = UIBezierPath(
      arcCenter: CGPoint(x: bounds.midX, y: bounds.midY), radius: bounds.width / 2 - 10,
      startAngle: -CGFloat.pi / 2, endAngle: 3 * CGFloat.pi / 2, clockwise: true)
    let rounded = CGPath(roundedRect: bounds.insetBy(dx: 10, dy: 10), cornerWidth: 8, cornerHeight: 8, transform: nil)
    let shape = ShapeLayer()
    shape.frame = bounds
    shape.path = circle.cgPath
    XCTAssertEqual(shape.path?.boundingBox.width ?? 0, 80, accuracy: 1e-6)
    XCTAssertEqual(rounded.boundingBox, CGRect(x: 10, y: 10, width: 80, height: 80))
  }

  /// A CGMutablePath built as Core Graphics code builds it, with `let` (a reference type): the
  /// layer keeps a copy of the path it was given, as Core Animation does. `boundingBox` holds the
  /// control points, `boundingBoxOfPath` only the curve, as CGPath's do.
  func testCGMutablePathAsWritten() {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 0, y: 0))
    path.addLine(to: CGPoint(x: 100, y: 0))
    path.addCurve(to: CGPoint(x: 100, y: 100), control1: CGPoint(x: 150, y: 0), control2: CGPoint(x: 150, y: 100))
    path.closeSubpath()
    XCTAssertEqual(path.boundingBox.maxX, 150)
    XCTAssertEqual(path.boundingBoxOfPath.maxX, 137.5, accuracy: 0.01, "the curve's own extreme, at t = 0.5")
    XCTAssertFalse(path.isEmpty)
    XCTAssertTrue(CGMutablePath().isEmpty)
    XCTAssertTrue(CGMutablePath().boundingBoxOfPath.isNull)

    let shape = ShapeLayer()
    shape.path = path
    path.addLine(to: CGPoint(x: 500, y: 500))
    XCTAssertEqual(shape.path?.value.elements.count, 4, "the layer keeps the path it was given")
    XCTAssertEqual(path.copy(), path)
    XCTAssertFalse(shape.path === path, "a copy, not the mutable path itself")
  }

  /// An emitter set up in CG types, as the snow and confetti recipes write it.
  func testEmitterInCoreGraphicsTypes() {
    let viewBounds = CGRect(x: 0, y: 0, width: 320, height: 480)
    let emitter = EmitterLayer()
    emitter.emitterPosition = CGPoint(x: viewBounds.midX, y: -10)
    emitter.emitterSize = CGSize(width: viewBounds.width, height: 1)
    emitter.emitterShape = .line
    let cell = EmitterCell()
    cell.birthRate = 10
    cell.lifetime = 5
    cell.velocity = CGFloat(100)
    cell.emissionLongitude = CGFloat.pi
    cell.scale = 0.1
    emitter.emitterCells = [cell]
    XCTAssertEqual(emitter.emitterPosition.x, 160)
    XCTAssertEqual(emitter.emitterSize.width, 320)
    XCTAssertEqual(cell.emissionLongitude, .pi)
  }

  /// A TextLayer draws its string with no set-up call (CATextLayer needs none): the font stack
  /// comes from LayerKitText, registered as the program loaded.
  func testTextLayerDrawsWithNoSetUpCall() throws {
    TextLayer.layoutEngine = nil  // whatever an earlier test installed: this one starts bare
    let root = Layer()
    root.frame = CGRect(x: 0, y: 0, width: 200, height: 60)
    root.backgroundColor = .white
    let text = TextLayer()
    text.frame = CGRect(x: 10, y: 10, width: 180, height: 40)
    text.string = "Hello"
    text.fontSize = 28
    text.foregroundColor = .black
    root.addSublayer(text)
    let image = try ReferenceRenderer().render(try RenderList(layer: root, width: 200, height: 60))
    let dark = stride(from: 0, to: image.pixels.count, by: 4).filter { image.pixels[$0] < 128 }.count
    XCTAssertGreaterThan(dark, 100, "the glyphs are drawn")
    XCTAssertNotNil(TextLayer.layoutEngine)
  }

  /// CATextLayer's `font` takes a PostScript name as Core Animation code writes it: the weight
  /// after the dash is kept ("Helvetica-Bold" draws bold, where fontconfig alone drops it).
  func testFontTakesAPostScriptName() throws {
    func inkedPixels(_ font: String) throws -> Int {
      let text = TextLayer()
      text.frame = CGRect(x: 0, y: 0, width: 300, height: 60)
      text.backgroundColor = .white
      text.string = "Bold or not"
      text.font = font
      text.fontSize = 32
      text.foregroundColor = .black
      let image = try ReferenceRenderer().render(try RenderList(layer: text, width: 300, height: 60))
      return stride(from: 0, to: image.pixels.count, by: 4).filter { image.pixels[$0] < 128 }.count
    }
    let regular = try inkedPixels("Helvetica")
    let bold = try inkedPixels("Helvetica-Bold")
    XCTAssertGreaterThan(Double(bold), Double(regular) * 1.15, "bold strokes cover more")
    XCTAssertEqual(try inkedPixels("Helvetica:bold"), bold, "the same face fontconfig's own pattern names")
  }
}
