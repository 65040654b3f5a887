import Foundation
import LayerKit
import LayerKitReference
import LayerKitTesting
import XCTest

/// CALayer.isGeometryFlipped: the layer's bounds space runs bottom up — sublayers, paths and
/// hit-testing with it — while contents images stay upright; flips nest.
final class GeometryFlippedTests: ParityTestCase {
  private func render(_ layer: Layer, _ w: Int, _ h: Int) throws -> Image {
    try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: w, height: h))
  }

  private func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
    let i = (y * image.width + x) * 4
    return Array(image.pixels[i..<i + 4])
  }

  /// A red and blue two-row image: top row red.
  private func twoRows() throws -> Image {
    try Image(width: 1, height: 2, pixels: [255, 0, 0, 255, 0, 0, 255, 255])
  }

  func testSublayersSitFromTheBottom() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    root.isGeometryFlipped = true
    let child = Layer(frame: Rect(x: 10, y: 0, width: 20, height: 10))
    child.backgroundColor = .red
    _ = root.addSublayer(child)
    let out = try render(root, 100, 100)
    XCTAssertEqual(pixel(out, 15, 95), [255, 0, 0, 255], "y = 0 is the bottom")
    XCTAssertEqual(pixel(out, 15, 5), [0, 0, 0, 0])
    // Hit-testing and conversion see the layer where it is drawn.
    XCTAssertTrue(root.hitTest(Point(x: 15, y: 95)) === child)
    XCTAssertEqual(child.convert(Point(x: 0, y: 0), to: nil), Point(x: 10, y: 100))
    // Unflipped, the usual top-down placement.
    root.isGeometryFlipped = false
    XCTAssertEqual(pixel(try render(root, 100, 100), 15, 5), [255, 0, 0, 255])
  }

  /// Contents keep their orientation in a flipped layer, and in a sublayer of one; a shape's
  /// path, which is geometry, is mirrored.
  func testContentsStayUprightAndPathsFlip() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
    root.isGeometryFlipped = true
    root.contents = try twoRows()
    root.magnificationFilter = .nearest
    var out = try render(root, 40, 40)
    XCTAssertEqual(pixel(out, 20, 5), [255, 0, 0, 255], "the image's top row on top")
    XCTAssertEqual(pixel(out, 20, 35), [0, 0, 255, 255])
    let child = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 20))
    child.contents = try twoRows()
    child.magnificationFilter = .nearest
    _ = root.addSublayer(child)
    out = try render(root, 40, 40)
    XCTAssertEqual(pixel(out, 20, 22), [255, 0, 0, 255], "the child, at the bottom, upright")
    XCTAssertEqual(pixel(out, 20, 37), [0, 0, 255, 255])
    // A flipped layer inside a flipped layer reads top down again: its image still upright.
    child.isGeometryFlipped = true
    out = try render(root, 40, 40)
    XCTAssertEqual(pixel(out, 20, 22), [255, 0, 0, 255])
    XCTAssertEqual(pixel(out, 20, 37), [0, 0, 255, 255])
    let shape = ShapeLayer()
    shape.frame = Rect(x: 0, y: 0, width: 40, height: 40)
    shape.isGeometryFlipped = true
    shape.pathValue = Path(rect: Rect(x: 0, y: 0, width: 40, height: 10))
    out = try render(shape, 40, 40)
    XCTAssertEqual(pixel(out, 20, 35), [0, 0, 0, 255], "the path's y = 0 is at the bottom")
    XCTAssertEqual(pixel(out, 20, 5), [0, 0, 0, 0])
  }

  func testFlippedTreesMatchOnBothBackends() throws {
    var rng = SeededRandom(seed: 5)
    var pixels = [UInt8](repeating: 255, count: 9 * 7 * 4)
    for i in pixels.indices where i % 4 != 3 { pixels[i] = UInt8(truncatingIfNeeded: rng.next()) }
    let root = Layer(frame: Rect(x: 0, y: 0, width: 90, height: 70))
    root.isGeometryFlipped = true
    root.backgroundColor = Color(red: 0.1, green: 0.1, blue: 0.15)
    let card = Layer(frame: Rect(x: 5.5, y: 4, width: 50, height: 40))
    card.contents = try Image(width: 9, height: 7, pixels: pixels)
    card.contentsCenter = Rect(x: 0.3, y: 0.3, width: 0.4, height: 0.4)
    card.cornerRadius = 8
    card.maskedCorners = [.layerMinXMinYCorner]
    card.masksToBounds = true
    card.transform = Transform3DMakeRotation(0.2, 0, 0, 1)
    _ = root.addSublayer(card)
    let shape = ShapeLayer()
    shape.frame = Rect(x: 50, y: 20, width: 36, height: 40)
    shape.isGeometryFlipped = true
    var tick = Path()
    tick.move(to: Point(x: 4, y: 20))
    tick.addLine(to: Point(x: 14, y: 32))
    tick.addLine(to: Point(x: 32, y: 6))
    shape.pathValue = tick
    shape.fillColor = nil
    shape.strokeColor = .yellow
    shape.lineWidth = 4
    _ = root.addSublayer(shape)
    XCTAssertParity(checker, root, width: 90, height: 70, name: "geometry-flipped")
  }
}
