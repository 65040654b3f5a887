import Foundation
import LayerKit
import LayerKitTesting
import XCTest

@testable import LayerKitMedia

final class PNGEncodeTests: XCTestCase {
  private var temp: URL!

  override func setUpWithError() throws {
    temp = FileManager.default.temporaryDirectory
      .appendingPathComponent("LayerKitMediaTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: temp)
  }

  private func image(width: Int, height: Int, _ pixel: (Int, Int) -> [UInt8]) -> Image {
    var px: [UInt8] = []
    px.reserveCapacity(width * height * 4)
    for y in 0..<height { for x in 0..<width { px += pixel(x, y) } }
    return try! Image(width: width, height: height, pixels: px)
  }

  func testOpaqueRoundTrip() throws {
    let original = image(width: 37, height: 23) { x, y in
      [UInt8((x * 7 + y) % 256), UInt8((y * 11) % 256), UInt8((x * y) % 256), 255]
    }
    let data = try ImageFile.encodePNG(original)
    XCTAssertTrue(data.starts(with: Signature.png))
    XCTAssertEqual(try ImageFile.decode(data, name: "x"), original)
  }

  /// Every valid premultiplied (c, a) pair, c ≤ a, survives un-premultiply → PNG → premultiply.
  func testEveryValidPremultipliedPairRoundTrips() throws {
    let original = image(width: 256, height: 256) { c, a in
      let v = UInt8(min(c, a))
      return [v, UInt8(a - Int(v)), UInt8(Int(v) / 2), UInt8(a)]
    }
    let decoded = try ImageFile.decode(try ImageFile.encodePNG(original), name: "x")
    XCTAssertIdentical(decoded, original)
  }

  func testStoredValuesAreStraightAlpha() throws {
    // Premultiplied (64, 32, 0, 128) is straight round(64·255/128) = 128 (127.5 rounds up),
    // round(32·255/128) = 64 (63.75), 0, alpha 128; fully transparent stores zeros.
    let premultiplied = try Image(width: 2, height: 1, pixels: [64, 32, 0, 128, 0, 0, 0, 0])
    let straight = Premultiply.straightened(premultiplied.pixels)
    XCTAssertEqual(straight, [128, 64, 0, 128, 0, 0, 0, 0])
    XCTAssertEqual(try ImageFile.decode(try ImageFile.encodePNG(premultiplied), name: "x"), premultiplied)
    // Colour above alpha (not a valid premultiplied value) is clamped, not wrapped.
    XCTAssertEqual(Premultiply.straightened([200, 0, 0, 100]), [255, 0, 0, 100])
  }

  func testWritePNGWritesAWholeFileAndNoTemporaries() throws {
    let original = image(width: 9, height: 4) { x, y in [UInt8(x * 20), UInt8(y * 50), 7, 255] }
    let url = temp.appendingPathComponent("out.png")
    try ImageFile.writePNG(original, to: url)
    XCTAssertEqual(try ImageFile.read(url), original)
    // Overwrites atomically, too.
    let second = image(width: 3, height: 3) { _, _ in [1, 2, 3, 255] }
    try ImageFile.writePNG(second, to: url)
    XCTAssertEqual(try ImageFile.read(url), second)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.path), ["out.png"])
  }

  func testWritePNGIntoMissingFolderFailsAndLeavesNothing() {
    let url = temp.appendingPathComponent("missing/out.png")
    do {
      try ImageFile.writePNG(image(width: 1, height: 1) { _, _ in [0, 0, 0, 255] }, to: url)
      XCTFail("wrote into a missing folder")
    } catch {
      guard case .writeFailed(let path, _) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(path, url.path)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: url.path))
  }

  func testWritePNGOverADirectoryFailsAndLeavesNoTemporaries() throws {
    let target = temp.appendingPathComponent("taken.png")
    try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
    do {
      try ImageFile.writePNG(image(width: 1, height: 1) { _, _ in [0, 0, 0, 255] }, to: target)
      XCTFail("replaced a directory")
    } catch {
      guard case .writeFailed = error else { return XCTFail("\(error)") }
    }
    var isDirectory: ObjCBool = false
    XCTAssertTrue(FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory))
    XCTAssertTrue(isDirectory.boolValue)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.path), ["taken.png"])
  }

  func testWritePNGUnderARegularFileFails() throws {
    // A parent that is a file cannot hold anything, whoever runs the test (root included).
    let file = temp.appendingPathComponent("plain")
    try Data("x".utf8).write(to: file)
    let url = file.appendingPathComponent("out.png")
    XCTAssertThrowsError(try ImageFile.writePNG(image(width: 1, height: 1) { _, _ in [0, 0, 0, 255] }, to: url)) {
      guard case .writeFailed(let path, _) = $0 as? MediaError else { return XCTFail("\($0)") }
      XCTAssertTrue(path.hasSuffix("out.png"), path)
    }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: temp.path), ["plain"])
  }

  func testLargeImageEncodes() throws {
    // Incompressible noise exercises the worst-case output buffer.
    var random = SeededRandom(seed: 7)
    let noise = image(width: 300, height: 200) { _, _ in
      let v = random.next()
      return [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v >> 16), 255]
    }
    XCTAssertEqual(try ImageFile.decode(try ImageFile.encodePNG(noise), name: "x"), noise)
  }
}
