import Foundation
import LayerKit
import LayerKitTesting
import XCTest

@testable import LayerKitMedia

/// The conversion as real numbers, written out independently of the fixed-point code: composite
/// premultiplied RGBA over the background, then BT.709 limited range.
enum YUVReference {
  /// Composited R, G, B (0…255, real).
  static func composite(_ p: [Int], _ bg: (Int, Int, Int)) -> (Double, Double, Double) {
    let t = Double(255 - p[3]) / 255
    return (Double(p[0]) + Double(bg.0) * t, Double(p[1]) + Double(bg.1) * t, Double(p[2]) + Double(bg.2) * t)
  }

  /// Unrounded Y', Cb, Cr of a composited colour.
  static func ycbcr(_ rgb: (Double, Double, Double)) -> (Double, Double, Double) {
    let (r, g, b) = rgb
    let ey = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return (16 + 219 * ey / 255, 128 + 224 * (b - ey) / (1.8556 * 255), 128 + 224 * (r - ey) / (1.5748 * 255))
  }

  /// Round half up, clamp.
  static func level(_ v: Double, max: Int) -> Int { Swift.min(Swift.max(Int((v + 0.5).rounded(.down)), 16), max) }

  /// The whole frame, Y' then Cb then Cr, from the real formula.
  static func frame(_ image: Image, bg: (Int, Int, Int), chroma: ChromaSubsampling) -> [Int] {
    let (w, h) = (image.width, image.height)
    func px(_ x: Int, _ y: Int) -> [Int] {
      let p = image.pixel(x: x, y: y); return [Int(p.x), Int(p.y), Int(p.z), Int(p.w)]
    }
    var yPlane: [Int] = []
    var cb: [Int] = []
    var cr: [Int] = []
    for y in 0..<h {
      for x in 0..<w {
        let v = ycbcr(composite(px(x, y), bg))
        yPlane.append(level(v.0, max: 235))
        if chroma == .yuv444 {
          cb.append(level(v.1, max: 240))
          cr.append(level(v.2, max: 240))
        }
      }
    }
    if chroma == .yuv420 {
      for by in 0..<h / 2 {
        for bx in 0..<w / 2 {
          var sum = (0.0, 0.0, 0.0)
          for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let c = composite(px(2 * bx + dx, 2 * by + dy), bg)
            sum = (sum.0 + c.0, sum.1 + c.1, sum.2 + c.2)
          }
          let v = ycbcr((sum.0 / 4, sum.1 / 4, sum.2 / 4))
          cb.append(level(v.1, max: 240))
          cr.append(level(v.2, max: 240))
        }
      }
    }
    return yPlane + cb + cr
  }
}

/// Asserts that `body` throws exactly `expected`, for closures that go through Array's
/// `withUnsafeMutableBytes` (which rethrows untyped errors).
func assertThrowsAny(
  _ expected: MediaError, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> Void
) {
  do {
    try body()
    XCTFail("expected \(expected), got a result", file: file, line: line)
  } catch {
    XCTAssertEqual(error as? MediaError, expected, file: file, line: line)
  }
}

final class YUVConversionTests: XCTestCase {
  private func solid(_ w: Int, _ h: Int, _ p: [UInt8]) -> Image {
    try! Image(width: w, height: h, pixels: Array((0..<(w * h)).map { _ in p }.joined()))
  }

  /// Random valid premultiplied pixels (colour ≤ alpha), a third of them opaque, some fully
  /// transparent.
  private func randomImage(_ w: Int, _ h: Int, seed: UInt64) -> Image {
    var rng = SeededRandom(seed: seed)
    var px: [UInt8] = []
    px.reserveCapacity(w * h * 4)
    for _ in 0..<(w * h) {
      let kind = Int.random(in: 0..<6, using: &rng)
      let a = kind < 2 ? 255 : kind == 2 ? 0 : Int.random(in: 0...255, using: &rng)
      for _ in 0..<3 { px.append(UInt8(Int.random(in: 0...a, using: &rng))) }
      px.append(UInt8(a))
    }
    return try! Image(width: w, height: h, pixels: px)
  }

  func testLayoutSizes() {
    let hd = YUVFrameLayout(width: 1920, height: 1080, chroma: .yuv420)
    XCTAssertEqual(hd.byteCount, 1920 * 1080 * 3 / 2)
    XCTAssertEqual(hd.planeOffsets.cb, 1920 * 1080)
    XCTAssertEqual(hd.planeOffsets.cr, 1920 * 1080 + 960 * 540)
    XCTAssertEqual(YUVFrameLayout(width: 1920, height: 1080, chroma: .yuv444).byteCount, 1920 * 1080 * 3)
    // Odd sizes round the chroma planes up (as Y4M and ffmpeg do).
    let odd = YUVFrameLayout(width: 5, height: 3, chroma: .yuv420)
    XCTAssertEqual(odd.chromaWidth, 3)
    XCTAssertEqual(odd.chromaHeight, 2)
    XCTAssertEqual(odd.byteCount, 15 + 6 + 6)
  }

  /// The BT.709 limited-range values every table lists.
  func testPrimariesBlackAndWhite() throws {
    let cases: [([UInt8], [UInt8])] = [
      ([0, 0, 0, 255], [16, 128, 128]),
      ([255, 255, 255, 255], [235, 128, 128]),
      ([255, 0, 0, 255], [63, 102, 240]),
      ([0, 255, 0, 255], [173, 42, 26]),
      ([0, 0, 255, 255], [32, 240, 118]),
      ([128, 128, 128, 255], [126, 128, 128]),  // 16 + 219 · 128/255 = 125.93
    ]
    for (rgba, expected) in cases {
      for chroma in [ChromaSubsampling.yuv444, .yuv420] {
        let out = try YUVConversion.convert(solid(2, 2, rgba), chroma: chroma)
        let layout = YUVFrameLayout(width: 2, height: 2, chroma: chroma)
        XCTAssertEqual(
          [out[0], out[layout.planeOffsets.cb], out[layout.planeOffsets.cr]], expected, "\(rgba) \(chroma)")
        XCTAssertEqual(Set(out[0..<4]), [expected[0]], "every Y' sample of a flat image")
      }
    }
  }

  func testTransparentPixelsShowTheBackground() throws {
    // Fully transparent over red is red; half-transparent premultiplied blue over white is
    // (127, 127, 255) after compositing: 0 + 255 · 127/255 and 128 + 255 · 127/255.
    let clear = try YUVConversion.convert(solid(2, 2, [0, 0, 0, 0]), background: (255, 0, 0), chroma: .yuv444)
    XCTAssertEqual([clear[0], clear[4], clear[8]], [63, 102, 240])
    let half = try YUVConversion.convert(solid(2, 2, [0, 0, 128, 128]), background: (255, 255, 255), chroma: .yuv444)
    let expected = YUVReference.ycbcr((127, 127, 255))
    XCTAssertEqual(Int(half[0]), YUVReference.level(expected.0, max: 235))
    XCTAssertEqual(Int(half[4]), YUVReference.level(expected.1, max: 240))
    XCTAssertEqual(Int(half[8]), YUVReference.level(expected.2, max: 240))
    // The background matters only where alpha < 255.
    let opaque = solid(2, 2, [10, 200, 30, 255])
    XCTAssertEqual(
      try YUVConversion.convert(opaque, background: (0, 0, 0), chroma: .yuv420),
      try YUVConversion.convert(opaque, background: (255, 90, 3), chroma: .yuv420))
  }

  /// Fixed point against the real formula over ~200 000 random pixels (more than one worker
  /// chunk): never more than 1 off, and exact for all but a sliver (values within 2e-4 of a
  /// half; 7 of the 1.8 million samples here when this was written).
  func testMatchesTheRealFormulaWithinOne() throws {
    for (chroma, bg, seed) in [
      (ChromaSubsampling.yuv444, (0, 0, 0), UInt64(1)), (.yuv420, (255, 255, 255), 2), (.yuv420, (37, 201, 90), 3),
      (.yuv444, (250, 5, 128), 4),
    ] {
      let image = randomImage(512, 400, seed: seed)
      let got = try YUVConversion.convert(
        image, background: (UInt8(bg.0), UInt8(bg.1), UInt8(bg.2)), chroma: chroma)
      let want = YUVReference.frame(image, bg: bg, chroma: chroma)
      XCTAssertEqual(got.count, want.count)
      var worst = 0
      var inexact = 0
      for i in 0..<got.count {
        let d = abs(Int(got[i]) - want[i])
        worst = max(worst, d)
        if d != 0 { inexact += 1 }
      }
      XCTAssertLessThanOrEqual(worst, 1, "\(chroma) bg \(bg)")
      XCTAssertLessThan(Double(inexact) / Double(got.count), 0.0001, "\(chroma) bg \(bg): \(inexact) samples differ")
    }
  }

  /// 4:2:0 chroma is the conversion of the block's mean colour, not a single pixel's: a block of
  /// two black and two white pixels has the chroma of mid grey (128, 128), and a block half red,
  /// half blue that of their mean (127.5, 0, 127.5).
  func testChromaIsTheBlockMean() throws {
    let bw = try Image(
      width: 2, height: 2, pixels: [0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255, 0, 0, 0, 255])
    let out = try YUVConversion.convert(bw, chroma: .yuv420)
    XCTAssertEqual(Array(out[0..<4]), [16, 235, 235, 16])
    XCTAssertEqual(Array(out[4...]), [128, 128])
    let rb = try Image(width: 2, height: 2, pixels: [255, 0, 0, 255, 0, 0, 255, 255, 255, 0, 0, 255, 0, 0, 255, 255])
    let mix = try YUVConversion.convert(rb, chroma: .yuv420)
    let mean = YUVReference.ycbcr((127.5, 0, 127.5))
    XCTAssertEqual(Int(mix[4]), YUVReference.level(mean.1, max: 240))
    XCTAssertEqual(Int(mix[5]), YUVReference.level(mean.2, max: 240))
    // Planes are in Y', Cb, Cr order and each chroma sample belongs to its own block.
    let two = try Image(
      width: 4, height: 2,
      pixels: [
        255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255,
        255, 0, 0, 255, 255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255,
      ])
    let planes = try YUVConversion.convert(two, chroma: .yuv420)
    XCTAssertEqual(Array(planes[0..<8]), [63, 63, 32, 32, 63, 63, 32, 32])
    XCTAssertEqual(Array(planes[8..<10]), [102, 240], "Cb of the red block, then the blue one")
    XCTAssertEqual(Array(planes[10..<12]), [240, 118], "Cr of the red block, then the blue one")
  }

  func testInvalidPremultipliedPixelsAreClamped() throws {
    // Colour above alpha composites above 255; the result is clamped to the legal range.
    let bad = solid(2, 2, [255, 255, 255, 0])
    let out = try YUVConversion.convert(bad, background: (255, 255, 255), chroma: .yuv444)
    XCTAssertEqual(Array(out[0..<4]), [235, 235, 235, 235])
    XCTAssertEqual(Array(out[4...]), Array(repeating: 128, count: 8))
  }

  func testOddSizesAreRefusedFor420Only() throws {
    let odd = solid(3, 2, [1, 2, 3, 255])
    assertThrows(.oddSizeForChromaSubsampling(width: 3, height: 2)) { () throws(MediaError) in
      try YUVConversion.convert(odd, chroma: .yuv420)
    }
    assertThrows(.oddSizeForChromaSubsampling(width: 2, height: 5)) { () throws(MediaError) in
      try YUVConversion.convert(self.solid(2, 5, [0, 0, 0, 255]), chroma: .yuv420)
    }
    XCTAssertEqual(try YUVConversion.convert(odd, chroma: .yuv444).count, 18)
  }

  func testBufferMustBeTheFrameSize() throws {
    let image = solid(4, 4, [9, 9, 9, 255])
    var small = [UInt8](repeating: 7, count: 23)
    assertThrowsAny(.bufferSizeMismatch(expected: 24, actual: 23)) {
      try small.withUnsafeMutableBytes { b in
        try YUVConversion.convert(image, chroma: .yuv420, into: b)
      }
    }
    XCTAssertEqual(Set(small), [7], "nothing written on failure")
    var exact = [UInt8](repeating: 7, count: 24)
    try exact.withUnsafeMutableBytes { b in try YUVConversion.convert(image, chroma: .yuv420, into: b) }
    XCTAssertEqual(exact, try YUVConversion.convert(image, chroma: .yuv420))
  }

  /// A large frame (many worker chunks) equals the same rows converted as separate small
  /// images (one chunk each): chunking never shifts or drops a row.
  func testChunkedConversionEqualsRowByRow() throws {
    let (w, h) = (640, 360)
    let image = randomImage(w, h, seed: 9)
    for chroma in [ChromaSubsampling.yuv420, .yuv444] {
      let whole = try YUVConversion.convert(image, background: (10, 20, 30), chroma: chroma)
      let layout = YUVFrameLayout(width: w, height: h, chroma: chroma)
      for band in stride(from: 0, to: h, by: 2) {
        let strip = try Image(width: w, height: 2, pixels: Array(image.pixels[(band * w * 4)..<((band + 2) * w * 4)]))
        let part = try YUVConversion.convert(strip, background: (10, 20, 30), chroma: chroma)
        let sub = YUVFrameLayout(width: w, height: 2, chroma: chroma)
        XCTAssertEqual(Array(part[0..<(2 * w)]), Array(whole[(band * w)..<((band + 2) * w)]), "Y' rows \(band)")
        let cw = layout.chromaWidth
        let rows = chroma == .yuv420 ? 1 : 2
        let cRow = chroma == .yuv420 ? band / 2 : band
        XCTAssertEqual(
          Array(part[sub.planeOffsets.cb..<(sub.planeOffsets.cb + rows * cw)]),
          Array(whole[(layout.planeOffsets.cb + cRow * cw)..<(layout.planeOffsets.cb + (cRow + rows) * cw)]),
          "Cb row \(cRow)")
        XCTAssertEqual(
          Array(part[sub.planeOffsets.cr..<(sub.planeOffsets.cr + rows * cw)]),
          Array(whole[(layout.planeOffsets.cr + cRow * cw)..<(layout.planeOffsets.cr + (cRow + rows) * cw)]),
          "Cr row \(cRow)")
      }
    }
  }

  func testInverseRoundTripsOpaqueImages() throws {
    var rng = SeededRandom(seed: 5)
    let px = (0..<(64 * 48)).flatMap { _ in
      [
        UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng),
        UInt8.random(in: 0...255, using: &rng), 255,
      ]
    }
    let image = try Image(width: 64, height: 48, pixels: px)
    let layout = YUVFrameLayout(width: 64, height: 48, chroma: .yuv444)
    let back = try YUVConversion.image(fromPlanes: try YUVConversion.convert(image, chroma: .yuv444), layout: layout)
    let comparison = try ImageComparison(expected: image, actual: back)
    // Y'CbCr's 8-bit grid is coarser than RGB's (219 luma levels), so a few levels move.
    XCTAssertLessThanOrEqual(comparison.maxChannelDelta, 3, comparison.summary(.parity))
    // 4:2:0 of a flat-per-block image comes back the same way.
    let blocky = try Image(
      width: 4, height: 2,
      pixels: [
        200, 30, 90, 255, 200, 30, 90, 255, 12, 240, 77, 255, 12, 240, 77, 255,
        200, 30, 90, 255, 200, 30, 90, 255, 12, 240, 77, 255, 12, 240, 77, 255,
      ])
    let back420 = try YUVConversion.image(
      fromPlanes: try YUVConversion.convert(blocky, chroma: .yuv420),
      layout: YUVFrameLayout(width: 4, height: 2, chroma: .yuv420))
    XCTAssertLessThanOrEqual(try ImageComparison(expected: blocky, actual: back420).maxChannelDelta, 3)
    assertThrows(.bufferSizeMismatch(expected: 12, actual: 11)) { () throws(MediaError) in
      try YUVConversion.image(
        fromPlanes: [UInt8](repeating: 0, count: 11), layout: YUVFrameLayout(width: 4, height: 2, chroma: .yuv420))
    }
  }
}
