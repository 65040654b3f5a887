import Foundation
import LayerKit
import LayerKitMedia
import XCTest

/// The matrix of an untagged video by its size, and the re-expression of BT.709 planes in
/// BT.601 (an SD Y4M's planes), held to the standards' own conversions.
final class YCbCrMatrixTests: XCTestCase {
  func testUntaggedMatrixGoesBySize() {
    XCTAssertEqual(YCbCrMatrix.untagged(width: 640, height: 360), .bt601)
    XCTAssertEqual(YCbCrMatrix.untagged(width: 1024, height: 576), .bt601)
    XCTAssertEqual(YCbCrMatrix.untagged(width: 1280, height: 720), .bt709)
    XCTAssertEqual(YCbCrMatrix.untagged(width: 720, height: 1280), .bt709, "a portrait HD video")
    XCTAssertEqual(YCbCrMatrix(tag: "BT601"), .bt601)
    XCTAssertNil(YCbCrMatrix(tag: "BT2020"))
  }

  /// Each colour converted to BT.709 planes then re-expressed in BT.601 lands within a level of
  /// converting it to BT.601 directly (R'G'B' → Y'CbCr with Kr 0.299, Kb 0.114); greys do not
  /// move; and back again is within a level of where it started.
  func testBT709PlanesReexpressedInBT601() throws {
    let colours: [(UInt8, UInt8, UInt8)] = [
      (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255), (0, 0, 0), (128, 128, 128), (200, 120, 40),
      (30, 200, 180), (250, 250, 10),
    ]
    for (r, g, b) in colours {
      let image = try Image(width: 2, height: 2, pixels: Array(repeating: [r, g, b, 255], count: 4).flatMap { $0 })
      let layout = YUVFrameLayout(width: 2, height: 2, chroma: .yuv420)
      var planes = try YUVConversion.convert(image, chroma: .yuv420)
      let original = planes
      planes.withUnsafeMutableBytes { YCbCrRematrix.bt709To601.apply($0, layout: layout) }
      // BT.601 directly, limited range.
      let (kr, kb) = (0.299, 0.114)
      let (rf, gf, bf) = (Double(r) / 255, Double(g) / 255, Double(b) / 255)
      let y = kr * rf + (1 - kr - kb) * gf + kb * bf
      let expected = [
        16 + 219 * y, 128 + 224 * (bf - y) / (2 * (1 - kb)), 128 + 224 * (rf - y) / (2 * (1 - kr)),
      ]
      let got = [Double(planes[0]), Double(planes[4]), Double(planes[5])]
      for (e, v) in zip(expected, got) {
        XCTAssertEqual(v, e, accuracy: 1.01, "(\(r), \(g), \(b)): \(got) against \(expected)")
      }
      if r == g && g == b { XCTAssertEqual(planes, original, "a grey is the same in both") }
      planes.withUnsafeMutableBytes { YCbCrRematrix.bt601To709.apply($0, layout: layout) }
      XCTAssertLessThanOrEqual(zip(planes, original).map { abs(Int($0) - Int($1)) }.max() ?? 0, 1)
    }
  }

  /// LayerKit's Y4M says its matrix, and the reader takes it (or the size's when there is none).
  func testY4MHeaderSaysTheMatrixOfItsSize() throws {
    let sd = Y4MWriter.header(width: 640, height: 360, frameRate: try FrameRate(25), chroma: .yuv420, matrix: .bt601)
    XCTAssertTrue(String(decoding: sd, as: UTF8.self).contains("XLAYERKIT_MATRIX=BT601"))
    let hd = Y4MWriter.header(width: 1920, height: 1080, frameRate: try FrameRate(25), chroma: .yuv420)
    XCTAssertTrue(String(decoding: hd, as: UTF8.self).contains("XLAYERKIT_MATRIX=BT709"))
    let reader = try Y4MReader(data: sd + Data("FRAME\n".utf8) + Data(count: 640 * 360 * 3 / 2), name: "sd")
    XCTAssertEqual(reader.header.matrix, .bt601)
    let untagged = Data("YUV4MPEG2 W1280 H720 F25:1 C420jpeg\nFRAME\n".utf8) + Data(count: 1280 * 720 * 3 / 2)
    XCTAssertEqual(try Y4MReader(data: untagged, name: "hd").header.matrix, .bt709)
  }
}
