import Foundation
import LayerKit
import XCTest

@testable import LayerKitMedia

/// The fixture files (see Fixtures/README.md) and the pixel values they were generated from.
enum Fixture {
  static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!

  static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }

  static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }

  // The 7×5 patterns of the PNG fixtures, exactly as Fixtures/README.md states them.
  static let width = 7
  static let height = 5

  static func rgb8(_ x: Int, _ y: Int) -> (Int, Int, Int) {
    ((x * 40 + y * 7) % 256, (y * 50 + x * 3) % 256, (x * y * 11 + 5) % 256)
  }
  static func a8(_ x: Int, _ y: Int) -> Int {
    if (x, y) == (0, 0) { return 0 }
    if (x, y) == (1, 0) { return 255 }
    return (x * 60 + y * 90 + 17) % 256
  }
  static func rgb16(_ x: Int, _ y: Int) -> (Int, Int, Int) {
    (
      (x * 12345 + y * 23456 + 129) % 65536, (x * 777 + y * 31337 + 65000) % 65536,
      (x * x * 999 + y * 4321 + 1) % 65536
    )
  }
  static func a16(_ x: Int, _ y: Int) -> Int {
    if (x, y) == (0, 0) { return 0 }
    if (x, y) == (1, 0) { return 65535 }
    return (x * 9000 + y * 13000 + 300) % 65536
  }
  static func greyN(_ n: Int, _ x: Int, _ y: Int) -> Int { (x + 3 * y) % (1 << n) }
  static func grey16(_ x: Int, _ y: Int) -> Int { (x * 8191 + y * 12007 + 5) % 65536 }
  static func palette(_ i: Int) -> (Int, Int, Int) {
    ((i * 37 + 11) % 256, (i * 91 + 7) % 256, (i * 53 + 200) % 256)
  }
  static func paletteAlpha(_ i: Int) -> Int { i == 0 ? 0 : i == 1 ? 255 : (i * 67 + 13) % 256 }
  static func paletteIndex(_ count: Int, _ x: Int, _ y: Int) -> Int { (x + y * width) % count }

  /// 16 → 8 bits with no gamma change.
  static func to8(_ v: Int) -> Int { (v + 128) / 257 }  // == round(v / 257): 257 is odd, no ties
  /// round(c · a / 255).
  static func premultiply(_ c: Int, _ a: Int) -> Int { (c * a + 127) / 255 }

  /// A 7×5 image from straight 8-bit RGBA values.
  static func image(_ straight: (Int, Int) -> (Int, Int, Int, Int)) -> Image {
    var px: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let (r, g, b, a) = straight(x, y)
        px += [r, g, b].map { UInt8(premultiply($0, a)) } + [UInt8(a)]
      }
    }
    return try! Image(width: width, height: height, pixels: px)
  }
}

/// Asserts that `body` throws exactly `expected`.
func assertThrows<T>(
  _ expected: MediaError, file: StaticString = #filePath, line: UInt = #line,
  _ body: () throws(MediaError) -> T
) {
  do {
    _ = try body()
    XCTFail("expected \(expected), got a result", file: file, line: line)
  } catch {
    XCTAssertEqual(error, expected, file: file, line: line)
  }
}
