import Foundation
import LayerKit
import LayerKitTesting
import XCTest

@testable import LayerKitMedia

/// Bad input of every kind gives a `MediaError` that names the file: never a crash, a hang or a
/// huge allocation.
final class MalformedInputTests: XCTestCase {
  private var temp: URL!

  override func setUpWithError() throws {
    temp = FileManager.default.temporaryDirectory
      .appendingPathComponent("LayerKitMediaTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: temp)
  }

  func testMissingFile() {
    let url = temp.appendingPathComponent("nope.png")
    assertThrows(.fileNotFound(path: url.path)) { () throws(MediaError) in try ImageFile.read(url) }
    let inMissingFolder = temp.appendingPathComponent("no/such/folder.png")
    assertThrows(.fileNotFound(path: inMissingFolder.path)) { () throws(MediaError) in
      try ImageFile.read(inMissingFolder)
    }
  }

  func testDirectory() {
    do {
      _ = try ImageFile.read(temp)
      XCTFail("a directory decoded")
    } catch {
      guard case .unreadable(let path, let reason) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(path, temp.path)
      XCTAssertTrue(error.description.contains(temp.path), error.description)
      XCTAssertTrue(reason.contains("directory"), reason)
    }
  }

  func testFIFODoesNotBlock() throws {
    let url = temp.appendingPathComponent("pipe.png")
    guard mkfifo(url.path, 0o600) == 0 else { throw XCTSkip("mkfifo failed") }
    do {
      _ = try ImageFile.read(url)
      XCTFail("a FIFO decoded")
    } catch {
      guard case .unreadable = error else { return XCTFail("\(error)") }
    }
  }

  func testEmptyFile() throws {
    let url = temp.appendingPathComponent("empty.png")
    try Data().write(to: url)
    do {
      _ = try ImageFile.read(url)
      XCTFail("an empty file decoded")
    } catch {
      guard case .corrupt(let path, _) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(path, url.path)
      XCTAssertTrue(error.description.hasPrefix(url.path + ": "), error.description)
    }
  }

  func testUnknownSignature() {
    for (bytes, word) in [
      (Array("GIF89a....".utf8), "GIF"), (Array("hello, world".utf8), "unknown signature"),
      ([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08], "unknown signature"),
    ] {
      do {
        _ = try ImageFile.decode(Data(bytes), name: "thing.png")
        XCTFail("decoded \(bytes)")
      } catch {
        guard case .unsupportedFormat(let path, let reason) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(path, "thing.png")
        XCTAssertTrue(reason.contains(word), reason)
      }
    }
  }

  func testPartialSignatureIsTruncated() {
    assertThrows(.truncated(path: "a")) { () throws(MediaError) in
      try ImageFile.decode(Data([0x89, 0x50, 0x4E]), name: "a")
    }
    assertThrows(.truncated(path: "b")) { () throws(MediaError) in
      try ImageFile.decode(Data([0xFF, 0xD8]), name: "b")
    }
  }

  func testHugeIHDRIsRefusedBeforeAllocating() {
    let url = Fixture.url("huge-ihdr.png")
    assertThrows(.tooLarge(path: url.path, width: 100_000, height: 100_000)) {
      () throws(MediaError) in try ImageFile.read(url)
    }
  }

  func testHugeJPEGHeaderIsRefusedBeforeAllocating() throws {
    // Patch the SOF0 frame size of a valid JPEG to 60000×60000.
    var bytes = [UInt8](try Fixture.data("flat-baseline.jpg"))
    let sof = try XCTUnwrap((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
    bytes[sof + 5] = 0xEA
    bytes[sof + 6] = 0x60
    bytes[sof + 7] = 0xEA
    bytes[sof + 8] = 0x60
    assertThrows(.tooLarge(path: "big.jpg", width: 60_000, height: 60_000)) { () throws(MediaError) in
      try ImageFile.decode(Data(bytes), name: "big.jpg")
    }
  }

  func testPNGWithBadCRCIsCorrupt() throws {
    var bytes = [UInt8](try Fixture.data("rgb8.png"))
    bytes[29] ^= 0xFF  // the IHDR CRC
    do {
      _ = try ImageFile.decode(Data(bytes), name: "bad.png")
      XCTFail("decoded a PNG with a bad IHDR CRC")
    } catch {
      guard case .corrupt(let path, _) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(path, "bad.png")
    }
  }

  func testTruncatedInsideImageData() throws {
    for name in ["rgba8.png", "rgb16-interlaced.png", "gradient-rgba8.png"] {
      let data = try Fixture.data(name)
      assertThrows(.truncated(path: name)) { () throws(MediaError) in
        try ImageFile.decode(data.prefix(data.count * 2 / 3), name: name)
      }
    }
    for name in ["flat-baseline.jpg", "gradient-progressive.jpg"] {
      let data = try Fixture.data(name)
      assertThrows(.truncated(path: name)) { () throws(MediaError) in
        try ImageFile.decode(data.prefix(data.count - 40), name: name)
      }
    }
  }

  /// Cuts every fixture at every length and flips bytes at seeded random places: each attempt
  /// must decode or throw a `MediaError` naming the file; a crash or hang fails the run.
  func testFuzzTruncationAndCorruption() throws {
    let names = [
      "gradient-rgba8.png", "rgba16-interlaced.png", "palette4-trns-interlaced.png", "grey1.png",
      "gradient-baseline.jpg", "gradient-progressive.jpg", "flat-grey.jpg",
    ]
    var random = SeededRandom(seed: 0x4C61_7965_724B_6974)
    var outcomes: [String: Int] = [:]
    func attempt(_ bytes: [UInt8], _ name: String) {
      do {
        let image = try ImageFile.decode(Data(bytes), name: name)
        XCTAssertEqual(image.pixels.count, image.width * image.height * 4)
        outcomes["decoded", default: 0] += 1
      } catch {
        XCTAssertTrue(error.description.hasPrefix(name + ": "), error.description)
        outcomes[caseName(error), default: 0] += 1
      }
    }
    for name in names {
      let original = [UInt8](try Fixture.data(name))
      for cut in 0..<original.count { attempt(Array(original.prefix(cut)), name) }
      for _ in 0..<300 {
        var bytes = original
        for _ in 0..<Int.random(in: 1...4, using: &random) {
          let i = Int.random(in: 0..<bytes.count, using: &random)
          bytes[i] = random.next() % 3 == 0 ? bytes[i] ^ 0xFF : UInt8.random(in: 0...255, using: &random)
        }
        attempt(bytes, name)
      }
    }
    // Whole files of random bytes, some behind a valid signature.
    for n in 0..<200 {
      var bytes = (0..<Int.random(in: 0...600, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
      if n % 3 == 0 { bytes = Signature.png + bytes }
      if n % 3 == 1 { bytes = Signature.jpeg + bytes }
      attempt(bytes, "random")
    }
    XCTAssertGreaterThan(outcomes["truncated", default: 0], 0)
    XCTAssertGreaterThan(outcomes["corrupt", default: 0], 0)
    print("fuzz outcomes: \(outcomes.sorted { $0.key < $1.key })")
  }

  /// Every cut of a valid file, from just after its signature to just before its last byte, is
  /// reported as `.truncated`, whether it falls in a header, in image data or in the trailer.
  func testEveryCutIsTruncated() throws {
    for name in [
      "gradient-rgba8.png", "rgb16-interlaced.png", "palette2-trns.png", "gradient-baseline.jpg",
      "gradient-progressive.jpg", "flat-grey.jpg",
    ] {
      let data = [UInt8](try Fixture.data(name))
      for cut in 1..<data.count {
        assertThrows(.truncated(path: name)) { () throws(MediaError) in
          try ImageFile.decode(Data(data.prefix(cut)), name: name)
        }
      }
    }
  }

  private func caseName(_ error: MediaError) -> String {
    switch error {
    case .fileNotFound: "fileNotFound"
    case .unreadable: "unreadable"
    case .unsupportedFormat: "unsupportedFormat"
    case .corrupt: "corrupt"
    case .truncated: "truncated"
    case .tooLarge: "tooLarge"
    case .writeFailed: "writeFailed"
    case .sizeMismatch: "sizeMismatch"
    case .oddSizeForChromaSubsampling: "oddSizeForChromaSubsampling"
    case .bufferSizeMismatch: "bufferSizeMismatch"
    case .invalidFrameRate: "invalidFrameRate"
    }
  }
}
