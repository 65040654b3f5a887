import Foundation
import LayerKit
import LayerKitTesting
import XCTest

@testable import LayerKitMedia

final class PNGCompressionTests: XCTestCase {
  private var temp: URL!

  override func setUpWithError() throws {
    temp = FileManager.default.temporaryDirectory.appendingPathComponent("LayerKitMediaTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: temp)
  }

  /// Every valid premultiplied (c, a) pair, as in PNGEncodeTests.
  private let everyPair: Image = {
    var px: [UInt8] = []
    for a in 0..<256 {
      for c in 0..<256 {
        let v = UInt8(min(c, a))
        px += [v, UInt8(a - Int(v)), UInt8(Int(v) / 2), UInt8(a)]
      }
    }
    return try! Image(width: 256, height: 256, pixels: px)
  }()

  /// The chunks of a PNG: type and data.
  private func chunks(_ data: Data) -> [(String, Data)] {
    let bytes = [UInt8](data)
    var out: [(String, Data)] = []
    var offset = 8
    while offset + 12 <= bytes.count {
      let length =
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
      let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
      out.append((type, Data(bytes[(offset + 8)..<(offset + 8 + length)])))
      offset += 12 + length
    }
    return out
  }

  func testEveryLevelDecodesToTheSamePixels() throws {
    for compression in [PNGCompression.fast, .default, .level(0), .level(1), .level(9), .level(42)] {
      let data = try ImageFile.encodePNG(everyPair, compression: compression)
      XCTAssertIdentical(try ImageFile.decode(data, name: "x"), everyPair, "\(compression)")
    }
    // Odd sizes and a single pixel.
    var rng = SeededRandom(seed: 3)
    let odd = try Image(
      width: 37, height: 1,
      pixels: (0..<37).flatMap { _ -> [UInt8] in
        let a = UInt8.random(in: 0...255, using: &rng)
        return [UInt8.random(in: 0...a, using: &rng), UInt8.random(in: 0...a, using: &rng), 0, a]
      })
    XCTAssertEqual(try ImageFile.decode(try ImageFile.encodePNG(odd, compression: .fast), name: "x"), odd)
    let one = try Image(width: 1, height: 1, pixels: [10, 20, 30, 40])
    XCTAssertEqual(try ImageFile.decode(try ImageFile.encodePNG(one, compression: .fast), name: "x"), one)
  }

  /// The tuned writer makes the same kind of file as the simplified API: IHDR (8-bit RGBA, not
  /// interlaced), sRGB (perceptual), IDAT, IEND. The zlib header's level bits show level 1 for
  /// `.fast`, the default level for `.default`, 9 for `.level(9)`.
  func testFileStructureAndLevel() throws {
    var rng = SeededRandom(seed: 8)
    let noisy = try Image(
      width: 200, height: 100,
      pixels: (0..<(200 * 100)).flatMap { _ in
        [UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng), 50, 255]
      })
    var flevels: [String: UInt8] = [:]
    for (name, compression) in [("fast", PNGCompression.fast), ("default", .default), ("9", .level(9))] {
      let data = try ImageFile.encodePNG(noisy, compression: compression)
      XCTAssertTrue(data.starts(with: Signature.png))
      let list = chunks(data)
      let types = list.map(\.0)
      XCTAssertEqual(types.first, "IHDR", name)
      XCTAssertEqual(types.last, "IEND", name)
      XCTAssertEqual(Set(types), ["IHDR", "sRGB", "IDAT", "IEND"], name)
      XCTAssertLessThan(types.firstIndex(of: "sRGB")!, types.firstIndex(of: "IDAT")!, name)
      let ihdr = [UInt8](list[0].1)
      XCTAssertEqual(Array(ihdr[8..<13]), [8, 6, 0, 0, 0], "\(name): depth 8, RGBA, deflate, filter 0, no interlace")
      XCTAssertEqual([UInt8](list.first { $0.0 == "sRGB" }!.1), [0], "\(name): perceptual intent")
      let zlib = [UInt8](list.first { $0.0 == "IDAT" }!.1.prefix(2))
      XCTAssertEqual(zlib[0] & 0x0F, 8, "deflate")
      flevels[name] = zlib[1] >> 6
    }
    // FLEVEL: 0 fastest (level 1), 2 default (6), 3 maximum (9).
    XCTAssertEqual(flevels, ["fast": 0, "default": 2, "9": 3])
  }

  func testWritePNGWithCompression() throws {
    let url = temp.appendingPathComponent("frame-0001.png")
    try ImageFile.writePNG(everyPair, to: url, compression: .fast)
    XCTAssertIdentical(try ImageFile.read(url), everyPair)
    let fast = try Data(contentsOf: url)
    // The default is still what writePNG(_:to:) always wrote.
    try ImageFile.writePNG(everyPair, to: url)
    XCTAssertEqual(try Data(contentsOf: url), try ImageFile.encodePNG(everyPair))
    XCTAssertNotEqual(try Data(contentsOf: url), fast)
    let names = try FileManager.default.contentsOfDirectory(atPath: temp.path)
    XCTAssertEqual(names, ["frame-0001.png"], "no temporaries left")
    // Errors name the file, as for the default.
    let bad = temp.appendingPathComponent("missing-folder/x.png")
    do {
      try ImageFile.writePNG(everyPair, to: bad, compression: .fast)
      XCTFail("wrote into a missing folder")
    } catch {
      guard case .writeFailed(let path, _) = error else { return XCTFail("\(error)") }
      XCTAssertEqual(path, bad.path)
    }
  }

  func testDescription() {
    XCTAssertEqual(PNGCompression.fast.description, "fast")
    XCTAssertEqual(PNGCompression.default.description, "default")
    XCTAssertEqual(PNGCompression.level(3).description, "level 3")
    XCTAssertEqual(PNGCompression.level(-4), .level(0))
  }
}
