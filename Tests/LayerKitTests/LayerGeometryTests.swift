import LayerKit
import XCTest

/// CALayer's convert(_:from:) / convert(_:to:), contains(_:) and hitTest(_:), in the geometry
/// the layers are drawn with.
final class LayerGeometryTests: XCTestCase {
  private func tree() -> (root: Layer, card: Layer, badge: Layer) {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 400, height: 300))
    let card = Layer(frame: Rect(x: 100, y: 50, width: 200, height: 100))
    let badge = Layer(frame: Rect(x: 150, y: -10, width: 40, height: 40))
    _ = root.addSublayer(card)
    _ = card.addSublayer(badge)
    return (root, card, badge)
  }

  func testConvertingPointsThroughPositionsAndTransforms() throws {
    let (root, card, badge) = tree()
    XCTAssertEqual(card.convert(Point(x: 0, y: 0), to: root), Point(x: 100, y: 50))
    XCTAssertEqual(badge.convert(Point(x: 0, y: 0), to: nil), Point(x: 250, y: 40))
    XCTAssertEqual(badge.convert(Point(x: 250, y: 40), from: nil), Point(x: 0, y: 0))
    // A card turned a quarter about its centre: its top-left corner lands top-right of the centre.
    card.transform = Transform3DMakeRotation(.pi / 2, 0, 0, 1)
    let corner = card.convert(Point(x: 0, y: 0), to: root)
    XCTAssertEqual(corner.x, 250, accuracy: 1e-9)
    XCTAssertEqual(corner.y, 0, accuracy: 1e-9)
    let back = card.convert(corner, from: root)
    XCTAssertEqual(back.x, 0, accuracy: 1e-9)
    XCTAssertEqual(back.y, 0, accuracy: 1e-9)
    let box = card.convert(card.bounds, to: root)
    XCTAssertEqual(box.width, 100, accuracy: 1e-9)
    XCTAssertEqual(box.height, 200, accuracy: 1e-9)
  }

  func testPerspectiveRoundTrip() throws {
    let (root, card, _) = tree()
    root.sublayerTransform.m34 = -1 / 500
    card.transform = Transform3DMakeRotation(.pi / 5, 0, 1, 0)
    let p = Point(x: 30, y: 70)
    let there = card.convert(p, to: root)
    let back = card.convert(there, from: root)
    XCTAssertEqual(back.x, p.x, accuracy: 1e-9)
    XCTAssertEqual(back.y, p.y, accuracy: 1e-9)
  }

  func testHitTestFindsTheFrontmostLayer() throws {
    let (root, card, badge) = tree()
    XCTAssertTrue(card.contains(Point(x: 199, y: 99)))
    XCTAssertFalse(card.contains(Point(x: 200, y: 50)))
    // hitTest takes a point in the receiver's superlayer's space (the target, for the root).
    XCTAssertTrue(root.hitTest(Point(x: 260, y: 60)) === badge)
    XCTAssertTrue(root.hitTest(Point(x: 120, y: 60)) === card)
    XCTAssertTrue(root.hitTest(Point(x: 10, y: 10)) === root)
    XCTAssertNil(root.hitTest(Point(x: 500, y: 10)))
    // The badge's part outside the card is outside the card's bounds: not hit through it.
    XCTAssertTrue(root.hitTest(Point(x: 260, y: 45)) === root)
    badge.isHidden = true
    XCTAssertTrue(root.hitTest(Point(x: 260, y: 60)) === card)
    // Siblings: the higher zPosition is in front.
    let other = Layer(frame: Rect(x: 110, y: 60, width: 20, height: 20))
    _ = root.addSublayer(other)
    XCTAssertTrue(root.hitTest(Point(x: 115, y: 65)) === other)
    card.zPosition = 1
    XCTAssertTrue(root.hitTest(Point(x: 115, y: 65)) === card)
  }

  /// anchorPointZ moves the layer's plane −anchorPointZ from its anchor, in depth: under a
  /// perspective of 500 points, a plane 100 points further away looks 500 / 600 the size; turned a
  /// quarter about y around an anchor 50 behind it, a face stands at the cube's side.
  func testAnchorPointZPlacesThePlaneInDepth() throws {
    let (root, card, _) = tree()
    root.sublayerTransform.m34 = -1 / 500
    card.frame = Rect(x: 150, y: 100, width: 100, height: 100)
    card.anchorPointZ = 100
    let box = card.convert(card.bounds, to: root)
    XCTAssertEqual(box.width, 100 * 500 / 600, accuracy: 1e-9)
    XCTAssertEqual(box.midX, 200, accuracy: 1e-9)
    // The cube's right face: anchored at the cube's centre (50 behind the face), a quarter turn
    // about y puts the face's plane at x = +50 from the centre, spanning depths −50 … 50: in
    // perspective it is seen from the side, from x = 200 + 50 · 500/550 to 200 + 50 · 500/450.
    let face = Layer(frame: Rect(x: 150, y: 100, width: 100, height: 100))
    face.anchorPointZ = -50
    face.transform = Transform3DMakeRotation(.pi / 2, 0, 1, 0)
    _ = root.addSublayer(face)
    let nowhere = face.convert(Point(x: 10, y: 10), from: root)
    XCTAssertTrue(nowhere.x.isNaN && nowhere.y.isNaN, "an edge-on plane has no points: (nan, nan)")
    XCTAssertTrue(face.convert(Rect(x: 0, y: 0, width: 5, height: 5), from: root).isNull, "nor rects: CGRect.null")
    let side = face.convert(face.bounds, to: root)
    XCTAssertEqual(side.minX, 200 + 50.0 * 500 / 550, accuracy: 1e-9)
    XCTAssertEqual(side.maxX, 200 + 50.0 * 500 / 450, accuracy: 1e-9)
  }
}
