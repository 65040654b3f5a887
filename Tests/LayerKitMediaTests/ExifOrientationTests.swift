import Foundation
import LayerKit
import LayerKitTesting
import XCTest

@testable import LayerKitMedia

/// `quadrants.jpg` (32×16: red, green / blue, white quadrants, see Fixtures/README.md) with EXIF
/// APP1 segments spliced in here.
final class ExifOrientationTests: XCTestCase {
  enum Q: String { case red, green, blue, white }

  /// A TIFF structure whose IFD0 has an ImageWidth entry and then `orientation` (tag 0x0112)
  /// of `type` (3 = SHORT), in either byte order.
  private func tiff(orientation: Int, bigEndian: Bool, type: Int = 3, count: Int = 1) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] {
      bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]
    }
    func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
    var t: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
    t += u16(42) + u32(8)
    t += u16(2)  // entries
    t += u16(0x0100) + u16(4) + u32(1) + u32(32)  // ImageWidth LONG 32
    // SHORT values are left-justified in the 4-byte field; a LONG fills it.
    let value = type == 4 ? u32(orientation) : u16(orientation) + [0, 0]
    t += u16(0x0112) + u16(type) + u32(count) + value
    t += u32(0)  // no next IFD
    return t
  }

  private func app1(_ payload: [UInt8]) -> [UInt8] {
    let length = payload.count + 2
    return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
  }

  private func exif(_ tiff: [UInt8]) -> [UInt8] { app1(Array("Exif".utf8) + [0, 0] + tiff) }

  /// The fixture with `segments` inserted right after SOI.
  private func jpeg(_ segments: [UInt8]...) throws -> Data {
    let base = [UInt8](try Fixture.data("quadrants.jpg"))
    return Data(Array(base[0..<2]) + segments.flatMap { $0 } + Array(base[2...]))
  }

  /// Which quadrant colour a pixel is nearest to.
  private func colour(_ p: SIMD4<UInt8>) -> Q? {
    let table: [(Q, (Int, Int, Int))] = [
      (.red, (255, 0, 0)), (.green, (0, 255, 0)), (.blue, (0, 0, 255)), (.white, (255, 255, 255)),
    ]
    for (q, c) in table where abs(Int(p.x) - c.0) <= 12 && abs(Int(p.y) - c.1) <= 12 && abs(Int(p.z) - c.2) <= 12 {
      return q
    }
    return nil
  }

  /// The colours at the centres of the image's quadrants: top-left, top-right, bottom-left,
  /// bottom-right.
  private func quadrants(_ image: Image) -> [Q?] {
    let (w, h) = (image.width, image.height)
    return [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)].map {
      colour(image.pixel(x: $0.0, y: $0.1))
    }
  }

  /// What each orientation shows (TIFF 6.0's table; see ExifOrientation), worked out by hand
  /// from the stored red, green / blue, white.
  private let expected: [Int: (Int, Int, [Q])] = [
    1: (32, 16, [.red, .green, .blue, .white]),
    2: (32, 16, [.green, .red, .white, .blue]),  // mirrored left–right
    3: (32, 16, [.white, .blue, .green, .red]),  // 180°
    4: (32, 16, [.blue, .white, .red, .green]),  // mirrored top–bottom
    5: (16, 32, [.red, .blue, .green, .white]),  // transposed
    6: (16, 32, [.blue, .red, .white, .green]),  // 90° clockwise
    7: (16, 32, [.white, .green, .blue, .red]),  // transverse
    8: (16, 32, [.green, .white, .red, .blue]),  // 90° counter-clockwise
  ]

  func testFixtureAsStored() throws {
    let image = try ImageFile.decode(try jpeg(), name: "q.jpg")
    XCTAssertEqual([image.width, image.height], [32, 16])
    XCTAssertEqual(quadrants(image), [.red, .green, .blue, .white])
  }

  func testEveryOrientationBothByteOrders() throws {
    for bigEndian in [false, true] {
      for orientation in 1...8 {
        let image = try ImageFile.decode(
          try jpeg(exif(tiff(orientation: orientation, bigEndian: bigEndian))), name: "q.jpg")
        let (w, h, q) = expected[orientation]!
        XCTAssertEqual([image.width, image.height], [w, h], "orientation \(orientation) \(bigEndian ? "MM" : "II")")
        XCTAssertEqual(quadrants(image), q, "orientation \(orientation) \(bigEndian ? "MM" : "II")")
      }
    }
  }

  /// Rotation moves whole pixels: orientation 6 is the stored image turned exactly 90°
  /// clockwise, 3 exactly 180° (compared with the decoded stored pixels, not colours).
  func testPixelsMoveExactly() throws {
    let stored = try ImageFile.decode(try jpeg(), name: "q.jpg")
    let six = try ImageFile.decode(try jpeg(exif(tiff(orientation: 6, bigEndian: true))), name: "q.jpg")
    let three = try ImageFile.decode(try jpeg(exif(tiff(orientation: 3, bigEndian: false))), name: "q.jpg")
    var misplaced: [String] = []
    for y in 0..<16 {
      for x in 0..<32 {
        // Stored (x, y) shows at (15 − y, x) after 90° clockwise, at (31 − x, 15 − y) after 180°.
        if six.pixel(x: 15 - y, y: x) != stored.pixel(x: x, y: y) { misplaced.append("6: (\(x), \(y))") }
        if three.pixel(x: 31 - x, y: 15 - y) != stored.pixel(x: x, y: y) { misplaced.append("3: (\(x), \(y))") }
      }
    }
    XCTAssertEqual(misplaced, [], "stored pixels not where they belong")
  }

  func testExifAfterOtherSegmentsAndLongType() throws {
    // After a JFIF APP0 and an XMP APP1 (which shares the marker), still found.
    let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
    let xmp = app1(Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array("<x:xmpmeta/>".utf8))
    let image = try ImageFile.decode(try jpeg(app0, xmp, exif(tiff(orientation: 8, bigEndian: false))), name: "q.jpg")
    XCTAssertEqual(quadrants(image), expected[8]!.2)
    // LONG instead of SHORT (some writers), still honoured.
    let long = try ImageFile.decode(try jpeg(exif(tiff(orientation: 3, bigEndian: true, type: 4))), name: "q.jpg")
    XCTAssertEqual(quadrants(long), expected[3]!.2)
  }

  /// Broken EXIF never fails the decode and never turns the image: it reads as orientation 1.
  func testMalformedExifIsIgnored() throws {
    let good = tiff(orientation: 6, bigEndian: false)
    var badIFD = good
    badIFD[4...7] = [0xF0, 0xFF, 0xFF, 0xFF]  // IFD0 offset far past the end
    var hugeCount = good
    hugeCount[8...9] = [0xFF, 0xFF]  // 65535 entries in a few bytes
    var badMagic = good
    badMagic[2] = 43
    let cases: [(String, [UInt8])] = [
      ("no TIFF", exif([])),
      ("short TIFF", exif(Array(good.prefix(7)))),
      ("byte order XX", exif([0x58, 0x58] + good.dropFirst(2))),
      ("magic 43", exif(badMagic)),
      ("IFD offset past the end", exif(badIFD)),
      ("entry count past the end", exif(hugeCount)),
      ("cut inside the orientation entry", exif(Array(good.prefix(30)))),
      ("orientation 0", exif(tiff(orientation: 0, bigEndian: true))),
      ("orientation 9", exif(tiff(orientation: 9, bigEndian: false))),
      ("orientation 65535", exif(tiff(orientation: 65535, bigEndian: true))),
      ("ASCII type", exif(tiff(orientation: 6, bigEndian: false, type: 2))),
      ("count 0", exif(tiff(orientation: 6, bigEndian: true, count: 0))),
      ("Exif without its zero bytes", app1(Array("Exif".utf8) + good)),
    ]
    for (name, segment) in cases {
      let image = try ImageFile.decode(try jpeg(segment), name: "q.jpg")
      XCTAssertEqual([image.width, image.height], [32, 16], name)
      XCTAssertEqual(quadrants(image), [.red, .green, .blue, .white], name)
    }
    // The first EXIF segment decides, even when broken: a valid one after it is not used.
    let image = try ImageFile.decode(try jpeg(exif(badIFD), exif(good)), name: "q.jpg")
    XCTAssertEqual(quadrants(image), [.red, .green, .blue, .white])
  }

  /// The parser alone: every prefix of a valid TIFF, and random bytes, give 1…8 and never trap.
  func testParserOnCutAndRandomInput() {
    let good = tiff(orientation: 7, bigEndian: true)
    for n in 0...good.count {
      let value = Array(good.prefix(n)).withUnsafeBytes { ExifOrientation.orientation(tiff: $0) }
      // The entry ends 4 bytes before the end (the next-IFD offset follows it).
      XCTAssertEqual(value, n >= good.count - 4 ? 7 : 1, "prefix \(n)")
    }
    var rng = SeededRandom(seed: 21)
    for _ in 0..<2000 {
      var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1]
      let count = Int.random(in: 0..<64, using: &rng)
      bytes += (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
      if Bool.random(using: &rng) && bytes.count > 12 {
        bytes.replaceSubrange(6..<12, with: Array("Exif".utf8) + [0, 0])
      }
      let value = bytes.withUnsafeBytes { ExifOrientation.find(in: $0) }
      XCTAssertTrue((1...8).contains(value))
    }
    XCTAssertEqual([UInt8]([0xFF, 0xD8]).withUnsafeBytes { ExifOrientation.find(in: $0) }, 1)
  }

  func testApplyMapsEveryPixel() {
    // A 3×2 image of distinct pixels: each orientation is a permutation with the documented
    // corner mapping.
    let pixels: [UInt8] = (0..<6).flatMap { i in [UInt8(i), 0, 0, 255] }
    // Stored:  0 1 2
    //          3 4 5
    let shown: [Int: [Int]] = [
      2: [2, 1, 0, 5, 4, 3],
      3: [5, 4, 3, 2, 1, 0],
      4: [3, 4, 5, 0, 1, 2],
      5: [0, 3, 1, 4, 2, 5],
      6: [3, 0, 4, 1, 5, 2],
      7: [5, 2, 4, 1, 3, 0],
      8: [2, 5, 1, 4, 0, 3],
    ]
    for (orientation, order) in shown {
      let result = ExifOrientation.apply(orientation, to: pixels, width: 3, height: 2)
      XCTAssertEqual([result.width, result.height], orientation >= 5 ? [2, 3] : [3, 2], "\(orientation)")
      XCTAssertEqual(
        stride(from: 0, to: result.pixels.count, by: 4).map { Int(result.pixels[$0]) }, order, "\(orientation)")
    }
    XCTAssertEqual(ExifOrientation.apply(1, to: pixels, width: 3, height: 2).pixels, pixels)
  }
}
