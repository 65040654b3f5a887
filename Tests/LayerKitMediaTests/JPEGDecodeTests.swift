import Foundation
import LayerKit
import XCTest

@testable import LayerKitMedia

final class JPEGDecodeTests: XCTestCase {
  /// Every pixel within ±2 of `color` (JPEG is lossy; a flat block survives almost exactly).
  private func assertFlat(
    _ image: Image, _ color: SIMD4<Int>, file: StaticString = #filePath, line: UInt = #line
  ) {
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = SIMD4<Int>(truncatingIfNeeded: image.pixel(x: x, y: y))
        let d = p &- color
        let worst = max(max(abs(d.x), abs(d.y)), max(abs(d.z), abs(d.w)))
        if worst > 2 {
          XCTFail("pixel (\(x), \(y)) is \(p), expected \(color) ± 2", file: file, line: line)
          return
        }
      }
    }
  }

  func testBaselineFlatColour() throws {
    let image = try ImageFile.read(Fixture.url("flat-baseline.jpg"))
    XCTAssertEqual(image.width, 16)
    XCTAssertEqual(image.height, 16)
    assertFlat(image, SIMD4(200, 100, 50, 255))
  }

  func testProgressiveFlatColour() throws {
    let image = try ImageFile.read(Fixture.url("flat-progressive.jpg"))
    XCTAssertEqual(image.width, 16)
    assertFlat(image, SIMD4(200, 100, 50, 255))
  }

  func testGreyscaleIsCopiedToRGB() throws {
    let image = try ImageFile.read(Fixture.url("flat-grey.jpg"))
    assertFlat(image, SIMD4(77, 77, 77, 255))
    XCTAssertEqual(image.pixel(x: 5, y: 5).x, image.pixel(x: 5, y: 5).y)
  }

  func testBaselineAndProgressiveGradientsAgree() throws {
    let baseline = try ImageFile.read(Fixture.url("gradient-baseline.jpg"))
    let progressive = try ImageFile.read(Fixture.url("gradient-progressive.jpg"))
    XCTAssertEqual(baseline.width, 32)
    XCTAssertEqual(progressive.height, 32)
    // Same source, same quality: lossy in the same way, give or take IDCT rounding.
    let comparison = try ImageComparison(expected: baseline, actual: progressive)
    XCTAssertTrue(
      comparison.passes(Tolerance(maxChannelDelta: 8, maxDifferingFraction: 0, minPSNR: 35)),
      comparison.summary(.parity))
  }

  func testCMYKIsUnsupported() {
    let url = Fixture.url("flat-cmyk.jpg")
    do {
      _ = try ImageFile.read(url)
      XCTFail("CMYK decoded")
    } catch {
      guard case .unsupportedFormat(let path, let reason) = error else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(path, url.path)
      XCTAssertTrue(reason.contains("CMYK"), reason)
    }
  }

  func testSignatureNotExtensionDecides() throws {
    // A JPEG named .png and a PNG named .jpg decode as what they are.
    let jpeg = try Fixture.data("flat-baseline.jpg")
    let png = try Fixture.data("rgb8.png")
    XCTAssertEqual(try ImageFile.decode(jpeg, name: "photo.png").width, 16)
    XCTAssertEqual(try ImageFile.decode(png, name: "photo.jpg").width, Fixture.width)
  }
}
