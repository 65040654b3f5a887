import Foundation
import LayerKit
import LayerKitTesting
import XCTest

@testable import LayerKitMedia

/// Every PNG colour type and bit depth, plain and Adam7, against the values the fixtures were
/// generated from (Fixtures/README.md).
final class PNGDecodeTests: XCTestCase {
  private func check(
    _ name: String, file: StaticString = #filePath, line: UInt = #line,
    _ straight: (Int, Int) -> (Int, Int, Int, Int)
  ) throws {
    let expected = Fixture.image(straight)
    for variant in [name, name + "-interlaced"] {
      let image = try ImageFile.read(Fixture.url(variant + ".png"))
      XCTAssertEqual(image.width, Fixture.width, variant, file: file, line: line)
      XCTAssertEqual(image.height, Fixture.height, variant, file: file, line: line)
      XCTAssertIdentical(image, expected, variant, file: file, line: line)
    }
  }

  func testGreyLowBitDepthsExpandExactly() throws {
    for n in [1, 2, 4, 8] {
      // Low bit depths expand by bit replication: v · 255 / (2ⁿ − 1), exact for n | 8.
      try check("grey\(n)") { x, y in
        let v = Fixture.greyN(n, x, y) * 255 / ((1 << n) - 1)
        return (v, v, v, 255)
      }
    }
  }

  func testGrey16IsRoundedDivisionBy257() throws {
    try check("grey16") { x, y in
      let v = Fixture.to8(Fixture.grey16(x, y))
      return (v, v, v, 255)
    }
  }

  func testGreyAlpha8() throws {
    try check("greyalpha8") { x, y in
      let g = Fixture.rgb8(x, y).0
      return (g, g, g, Fixture.a8(x, y))
    }
  }

  func testGreyAlpha16() throws {
    try check("greyalpha16") { x, y in
      let g = Fixture.to8(Fixture.rgb16(x, y).0)
      return (g, g, g, Fixture.to8(Fixture.a16(x, y)))
    }
  }

  func testRGB8() throws {
    try check("rgb8") { x, y in
      let (r, g, b) = Fixture.rgb8(x, y)
      return (r, g, b, 255)
    }
  }

  func testRGB16IsRoundedDivisionBy257WithNoGammaChange() throws {
    try check("rgb16") { x, y in
      let (r, g, b) = Fixture.rgb16(x, y)
      return (Fixture.to8(r), Fixture.to8(g), Fixture.to8(b), 255)
    }
  }

  func testRGBA8IsPremultipliedOnLoad() throws {
    try check("rgba8") { x, y in
      let (r, g, b) = Fixture.rgb8(x, y)
      return (r, g, b, Fixture.a8(x, y))
    }
    // Spot-check one pixel by hand: (2, 1) is (87, 56, 27) at alpha 227.
    let image = try ImageFile.read(Fixture.url("rgba8.png"))
    XCTAssertEqual(image.pixel(x: 2, y: 1), SIMD4(77, 50, 24, 227))
    XCTAssertEqual(image.pixel(x: 0, y: 0), SIMD4(0, 0, 0, 0))
  }

  func testRGBA16() throws {
    try check("rgba16") { x, y in
      let (r, g, b) = Fixture.rgb16(x, y)
      return (Fixture.to8(r), Fixture.to8(g), Fixture.to8(b), Fixture.to8(Fixture.a16(x, y)))
    }
  }

  func testPaletteWithoutTransparency() throws {
    for (n, count) in [(1, 2), (2, 4), (4, 16), (8, 20)] {
      try check("palette\(n)") { x, y in
        let (r, g, b) = Fixture.palette(Fixture.paletteIndex(count, x, y))
        return (r, g, b, 255)
      }
    }
  }

  func testPaletteWithTRNS() throws {
    for (n, count) in [(1, 2), (2, 4), (4, 16), (8, 20)] {
      // The 8-bit file's tRNS covers only entries 0…4; the rest are opaque.
      let covered = n == 8 ? 5 : count
      try check("palette\(n)-trns") { x, y in
        let i = Fixture.paletteIndex(count, x, y)
        let (r, g, b) = Fixture.palette(i)
        return (r, g, b, i < covered ? Fixture.paletteAlpha(i) : 255)
      }
    }
  }

  func testDecodeFromDataMatchesRead() throws {
    let data = try Fixture.data("rgba8.png")
    XCTAssertEqual(try ImageFile.decode(data, name: "x"), try ImageFile.read(Fixture.url("rgba8.png")))
    // A Data slice whose indices do not start at 0.
    let padded = Data([1, 2, 3]) + data
    XCTAssertEqual(
      try ImageFile.decode(padded[3...], name: "x"), try ImageFile.read(Fixture.url("rgba8.png")))
  }
}
