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
