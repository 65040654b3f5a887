import Foundation
import LayerKit
import LayerKitTesting
import XCTest

@testable import LayerKitMedia

final class ImageComparisonTests: XCTestCase {
  private func gradient(width: Int, height: Int) -> [UInt8] {
    var px = [UInt8](repeating: 255, count: width * height * 4)
    for i in 0..<(width * height) {
      px[i * 4] = UInt8(i % 251)
      px[i * 4 + 1] = UInt8((i / 7) % 256)
      px[i * 4 + 2] = UInt8((i * 3) % 256)
    }
    return px
  }

  func testIdenticalImages() throws {
    let a = try Image(width: 10, height: 10, pixels: gradient(width: 10, height: 10))
    let b = try Image(width: 10, height: 10, pixels: gradient(width: 10, height: 10))
    let c = try ImageComparison(expected: a, actual: b)
    XCTAssertEqual(c.maxChannelDelta, 0)
    XCTAssertEqual(c.differingFraction(over: 0), 0)
    XCTAssertEqual(c.psnr, .infinity)
    XCTAssertTrue(c.passes(.parity))
    XCTAssertTrue(c.passes(.exact))
    XCTAssertEqual(
      c.summary(.parity), "max channel delta 0, 0.000% of pixels differ by more than 2, PSNR infinite (identical)")
    // The diff is all dim grey.
    let diff = c.diffImage()
    for y in 0..<10 {
      for x in 0..<10 {
        let p = diff.pixel(x: x, y: y)
        XCTAssertTrue(p.x == p.y && p.y == p.z && p.x >= 48 && p.x <= 111 && p.w == 255, "\(p)")
      }
    }
  }

  /// 100 pixels; 3 of them changed: one by 1 in R, one by 3 in G, one by 10 in B and 4 in A.
  /// SSE = 1 + 9 + 100 + 16 = 126 over 400 channels: MSE = 0.315, PSNR = 10·log10(65025 / 0.315).
  func testKnownDeltaPattern() throws {
    let base = gradient(width: 10, height: 10)
    var changed = base
    changed[(0 * 10 + 1) * 4 + 0] &+= 1  // (1, 0): R + 1
    changed[(4 * 10 + 5) * 4 + 1] &-= 3  // (5, 4): G − 3
    changed[(9 * 10 + 9) * 4 + 2] &+= 10  // (9, 9): B + 10
    changed[(9 * 10 + 9) * 4 + 3] &-= 4  // (9, 9): A − 4
    let expected = try Image(width: 10, height: 10, pixels: base)
    let actual = try Image(width: 10, height: 10, pixels: changed)
    let c = try ImageComparison(expected: expected, actual: actual)

    XCTAssertEqual(c.maxChannelDelta, 10)
    XCTAssertEqual(c.differingFraction(over: 0), 0.03)
    XCTAssertEqual(c.differingFraction(over: 1), 0.02)
    XCTAssertEqual(c.differingFraction(over: 2), 0.02)
    XCTAssertEqual(c.differingFraction(over: 3), 0.01)
    XCTAssertEqual(c.differingFraction(over: 9), 0.01)
    XCTAssertEqual(c.differingFraction(over: 10), 0)
    XCTAssertEqual(c.differingFraction(over: 255), 0)
    XCTAssertEqual(c.differingFraction(over: -1), 1)
    XCTAssertEqual(c.sumOfSquaredErrors, 126)
    let psnr = 10 * log10(255.0 * 255.0 / (126.0 / 400.0))  // 53.146… dB
    XCTAssertEqual(c.psnr, psnr, accuracy: 1e-9)
    XCTAssertEqual(c.summary(.parity), "max channel delta 10, 2.000% of pixels differ by more than 2, PSNR 53.15 dB")

    XCTAssertFalse(c.passes(.parity))  // 2 % of pixels > 2, allowed 0.1 %
    XCTAssertTrue(c.passes(Tolerance(maxChannelDelta: 10, maxDifferingFraction: 0, minPSNR: 53)))
    XCTAssertFalse(c.passes(Tolerance(maxChannelDelta: 10, maxDifferingFraction: 0, minPSNR: 53.2)))
    XCTAssertTrue(c.passes(Tolerance(maxChannelDelta: 2, maxDifferingFraction: 0.02, minPSNR: 45)))

    // diffImage marks exactly the three changed pixels, the brightest the largest delta.
    let diff = c.diffImage()
    XCTAssertEqual(diff.width, 10)
    XCTAssertEqual(diff.height, 10)
    var marked: [Int] = []
    for y in 0..<10 {
      for x in 0..<10 {
        let p = diff.pixel(x: x, y: y)
        if p.y == 0 && p.z == 0 && p.x >= 160 {
          marked.append(y * 10 + x)
        } else {
          XCTAssertTrue(p.x == p.y && p.y == p.z, "(\(x), \(y)) \(p)")
        }
      }
    }
    XCTAssertEqual(marked, [1, 45, 99])
    XCTAssertLessThan(diff.pixel(x: 1, y: 0).x, diff.pixel(x: 9, y: 9).x)
  }

  func testSizeMismatchThrows() throws {
    let a = try Image(width: 4, height: 3, pixels: [UInt8](repeating: 0, count: 48))
    let b = try Image(width: 3, height: 4, pixels: [UInt8](repeating: 0, count: 48))
    assertThrows(.sizeMismatch(expectedWidth: 4, expectedHeight: 3, actualWidth: 3, actualHeight: 4)) {
      () throws(MediaError) in try ImageComparison(expected: a, actual: b)
    }
  }

  func testParityTolerance() {
    XCTAssertEqual(Tolerance.parity, Tolerance(maxChannelDelta: 2, maxDifferingFraction: 0.001, minPSNR: 45))
    XCTAssertEqual(Tolerance(), .parity)
  }

  func testFullHDComparisonIsFast() throws {
    let w = 1920
    let h = 1080
    var random = SeededRandom(seed: 42)
    var a = [UInt8](repeating: 0, count: w * h * 4)
    for i in 0..<a.count { a[i] = UInt8(truncatingIfNeeded: random.next()) }
    var b = a
    for i in stride(from: 0, to: b.count, by: 997) { b[i] = b[i] < 128 ? b[i] + 2 : b[i] - 2 }
    let ea = try Image(width: w, height: h, pixels: a)
    let eb = try Image(width: w, height: h, pixels: b)
    let start = Date()
    let c = try ImageComparison(expected: ea, actual: eb)
    _ = c.diffImage()
    let elapsed = Date().timeIntervalSince(start)
    XCTAssertEqual(c.maxChannelDelta, 2)
    // Debug builds are far slower than release (where this takes a few milliseconds); the
    // bound only catches accidental per-pixel allocation.
    XCTAssertLessThan(elapsed, 5, "compare + diff of 1920×1080 took \(elapsed) s")
    print("1920×1080 compare + diff: \(String(format: "%.3f", elapsed)) s")
  }
}
