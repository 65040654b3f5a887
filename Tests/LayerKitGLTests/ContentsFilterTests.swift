import Foundation
import LayerKit
import LayerKitReference
import LayerKitTesting
import XCTest

/// Layer.magnificationFilter / minificationFilter: `nearest` takes the texel the pixel's centre
/// falls in (checked against that closed form on the CPU), on both backends alike (parity).
final class ContentsFilterTests: ParityTestCase {
  private func picture(_ w: Int, _ h: Int) throws -> Image {
    var rng = SeededRandom(seed: 17)
    var pixels = [UInt8](repeating: 255, count: w * h * 4)
    for i in pixels.indices where i % 4 != 3 { pixels[i] = UInt8(truncatingIfNeeded: rng.next()) }
    return try Image(width: w, height: h, pixels: pixels)
  }

  func testNearestMagnificationTakesTheTexelEachPixelFallsIn() throws {
    let image = try picture(4, 3)
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 32, height: 24))
    layer.contents = image
    layer.magnificationFilter = .nearest
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: 32, height: 24))
    for y in 0..<24 {
      for x in 0..<32 {
        let (i, j) = (((y / 8) * 4 + x / 8) * 4, (y * 32 + x) * 4)
        XCTAssertEqual(Array(out.pixels[j..<j + 4]), Array(image.pixels[i..<i + 4]), "(\(x), \(y))")
      }
    }
    // The minification filter does not apply to a magnified picture; linear blends the texels.
    layer.magnificationFilter = .linear
    layer.minificationFilter = .nearest
    let linear = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: 32, height: 24))
    XCTAssertNotEqual(linear.pixels, out.pixels)
  }

  func testNearestFiltersMatchOnBothBackends() throws {
    let layer = Layer(frame: Rect(x: 3.3, y: 2.7, width: 37, height: 29))
    layer.contents = try picture(5, 4)
    layer.magnificationFilter = .nearest
    let root = Layer(frame: Rect(x: 0, y: 0, width: 48, height: 40))
    _ = root.addSublayer(layer)
    XCTAssertParity(checker, root, width: 48, height: 40, name: "contents-nearest-magnified")
    // Minified: a 64×48 picture in 20×15 points.
    let small = Layer(frame: Rect(x: 1.5, y: 2, width: 20, height: 15))
    small.contents = try picture(64, 48)
    small.minificationFilter = .nearest
    let root2 = Layer(frame: Rect(x: 0, y: 0, width: 24, height: 20))
    _ = root2.addSublayer(small)
    XCTAssertParity(checker, root2, width: 24, height: 20, name: "contents-nearest-minified")
  }
}

/// Layer.maskedCorners (CACornerMask): only the named corners are rounded — background, border
/// and the masksToBounds clip alike — on both backends.
final class MaskedCornersTests: ParityTestCase {
  private func card() throws -> Layer {
    let card = Layer(frame: Rect(x: 4.5, y: 3, width: 40, height: 30))
    card.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.1)
    card.cornerRadius = 12
    card.borderWidth = 3
    card.borderColor = Color(red: 0.1, green: 0.3, blue: 0.9)
    card.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
    return card
  }

  func testOnlyTheMaskedCornersAreRounded() throws {
    let card = try card()
    card.position = Point(x: 20, y: 15)
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: card, width: 40, height: 30))
    func alpha(_ x: Int, _ y: Int) -> UInt8 { out.pixels[(y * 40 + x) * 4 + 3] }
    XCTAssertEqual(alpha(0, 0), 0, "top left: rounded")
    XCTAssertEqual(alpha(39, 29), 0, "bottom right: rounded")
    XCTAssertEqual(alpha(39, 0), 255, "top right: square")
    XCTAssertEqual(alpha(0, 29), 255, "bottom left: square")
  }

  func testMaskedCornersMatchOnBothBackends() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 56, height: 40))
    let card = try card()
    let photo = Layer(frame: Rect(x: -5, y: -5, width: 50, height: 40))
    photo.backgroundColor = Color(red: 0.2, green: 0.8, blue: 0.4, alpha: 0.8)
    card.masksToBounds = true
    _ = card.addSublayer(photo)
    _ = root.addSublayer(card)
    XCTAssertParity(checker, root, width: 56, height: 40, name: "masked-corners")
  }
}

/// Layer.contentsCenter (nine-slice): the parts outside the centre keep their natural size at
/// the edges, the centre stretches; on both backends alike.
final class ContentsCenterTests: ParityTestCase {
  /// A 3 × 3 image whose nine texels all differ.
  private func nineTexels() throws -> Image {
    var pixels = [UInt8](repeating: 255, count: 3 * 3 * 4)
    for i in 0..<9 { (pixels[i * 4], pixels[i * 4 + 1], pixels[i * 4 + 2]) = (UInt8(i * 25), UInt8(200 - i * 20), 7) }
    return try Image(width: 3, height: 3, pixels: pixels)
  }

  /// A 3 × 3 image, one colour a texel, shown 10 points a texel (contentsScale 0.1) in 60 × 45
  /// points with the middle texel as the centre: corners 10 × 10, edges stretched along one axis.
  /// With the nearest filter each pixel is the texel of its piece, exactly.
  func testNineSlicePiecesLandWhereTheyBelong() throws {
    let image = try nineTexels()
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 60, height: 45))
    layer.contents = image
    layer.contentsScale = 0.1
    layer.contentsCenter = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
    layer.magnificationFilter = .nearest
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: 60, height: 45))
    func texel(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * 3 + x) * 4; return Array(image.pixels[i..<i + 4]) }
    func pixel(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * 60 + x) * 4; return Array(out.pixels[i..<i + 4]) }
    let expectations: [((Int, Int), (Int, Int))] = [
      ((5, 5), (0, 0)), ((9, 9), (0, 0)), ((10, 5), (1, 0)), ((49, 5), (1, 0)), ((50, 5), (2, 0)), ((59, 0), (2, 0)),
      ((5, 10), (0, 1)), ((30, 22), (1, 1)), ((5, 34), (0, 1)), ((5, 35), (0, 2)), ((55, 44), (2, 2)),
    ]
    for ((x, y), (u, v)) in expectations { XCTAssertEqual(pixel(x, y), texel(u, v), "(\(x), \(y))") }
  }

  func testNineSliceMatchesOnBothBackends() throws {
    var rng = SeededRandom(seed: 23)
    var pixels = [UInt8](repeating: 255, count: 12 * 9 * 4)
    for i in pixels.indices where i % 4 != 3 { pixels[i] = UInt8(truncatingIfNeeded: rng.next()) }
    let root = Layer(frame: Rect(x: 0, y: 0, width: 80, height: 50))
    let layer = Layer(frame: Rect(x: 3.5, y: 2.25, width: 70, height: 41))
    layer.contents = try Image(width: 12, height: 9, pixels: pixels)
    layer.contentsScale = 0.5
    layer.contentsCenter = Rect(x: 0.25, y: 0.3, width: 0.4, height: 0.35)
    _ = root.addSublayer(layer)
    XCTAssertParity(checker, root, width: 80, height: 50, name: "contents-center")
  }

  /// With `.resizeAspect` the pieces fill the aspect-fitted square (45 × 45 centred in 60 × 45):
  /// corners of natural size (3 points: 0.1 scale), the centre stretched; outside the square,
  /// nothing. `.center` shows the image at its natural size, pieces and all, as it is.
  func testNineSliceFollowsTheGravity() throws {
    let image = try nineTexels()
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 60, height: 45))
    layer.contents = image
    layer.contentsScale = 0.1
    layer.contentsGravity = .resizeAspect
    layer.contentsCenter = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
    layer.magnificationFilter = .nearest
    var out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: 60, height: 45))
    func texel(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * 3 + x) * 4; return Array(image.pixels[i..<i + 4]) }
    func pixel(_ x: Int, _ y: Int) -> [UInt8] { let i = (y * 60 + x) * 4; return Array(out.pixels[i..<i + 4]) }
    // The square runs from x = 7.5 to 52.5: corners 10 points (natural 30 texels × 0.1 … / 3).
    for ((x, y), (u, v)) in [
      ((10, 5), (0, 0)), ((16, 5), (0, 0)), ((18, 5), (1, 0)), ((41, 5), (1, 0)), ((43, 5), (2, 0)), ((30, 22), (1, 1)),
      ((50, 40), (2, 2)),
    ] as [((Int, Int), (Int, Int))] {
      XCTAssertEqual(pixel(x, y), texel(u, v), "(\(x), \(y))")
    }
    XCTAssertEqual(pixel(3, 22), [0, 0, 0, 0], "outside the fitted square")
    XCTAssertEqual(pixel(56, 22), [0, 0, 0, 0])
    layer.contentsGravity = .center
    out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: 60, height: 45))
    // Natural size 30 × 30 centred: each texel a 10-point square from (15, 7.5).
    XCTAssertEqual(pixel(20, 12), texel(0, 0))
    XCTAssertEqual(pixel(30, 22), texel(1, 1))
    XCTAssertEqual(pixel(40, 32), texel(2, 2))
  }
}

/// CALayer.cornerCurve: continuous corners start bending farther from the corner than circular
/// ones and meet them at the 45° point; background, border and clip alike, on both backends.
final class CornerCurveTests: ParityTestCase {
  private func alpha(_ layer: Layer, _ x: Int, _ y: Int) throws -> Int {
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: 100, height: 100))
    return Int(out.pixels[(y * 100 + x) * 4 + 3])
  }

  func testContinuousCornersBendEarlierAndMeetAt45Degrees() throws {
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    layer.backgroundColor = .white
    layer.cornerRadius = 20
    let circular = (edge: try alpha(layer, 0, 15), diagonal: try alpha(layer, 5, 5), straight: try alpha(layer, 0, 35))
    layer.cornerCurve = .continuous
    let continuous = (edge: try alpha(layer, 0, 15), diagonal: try alpha(layer, 5, 5), straight: try alpha(layer, 0, 35))
    // 15.5 points down the left edge: the circle's arc ends at 20 (about half covered there);
    // the continuous curve, 30.6 long, has bent away (the superellipse: about 0.05).
    XCTAssertEqual(circular.edge, 125, accuracy: 8)
    XCTAssertEqual(continuous.edge, 13, accuracy: 8)
    // At the 45° point (5.9 points in from the corner on each axis) the two curves agree.
    XCTAssertEqual(continuous.diagonal, circular.diagonal, accuracy: 12)
    // Past 1.528 radii both are the straight edge.
    XCTAssertEqual(circular.straight, 255)
    XCTAssertEqual(continuous.straight, 255)
  }

  func testContinuousCornersMatchOnBothBackends() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 120, height: 90))
    let card = Layer(frame: Rect(x: 8.5, y: 6, width: 70, height: 60))
    card.backgroundColor = Color(red: 0.2, green: 0.5, blue: 0.9)
    card.cornerRadius = 14
    card.cornerCurve = .continuous
    card.borderWidth = 3
    card.borderColor = .white
    card.masksToBounds = true
    var t = Transform3D.identity
    t.m34 = -1 / 300
    card.transform = t.rotated(by: 0.4, x: 0, y: 1, z: 0)
    let inner = Layer(frame: Rect(x: -10, y: 30, width: 90, height: 40))
    inner.backgroundColor = .orange
    _ = card.addSublayer(inner)
    _ = root.addSublayer(card)
    let pill = Layer(frame: Rect(x: 84, y: 10, width: 30, height: 70))
    pill.backgroundColor = .green
    pill.cornerRadius = 15
    pill.cornerCurve = .continuous
    pill.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
    _ = root.addSublayer(pill)
    XCTAssertParity(checker, root, width: 120, height: 90, name: "corner-curve")
  }
}
