// FrameMemory: frame-sized arrays hold what their initializer wrote, whatever the kernel does
// with the huge-page hint; zeros are zeros.

import LayerKit
import XCTest

final class FrameMemoryTests: XCTestCase {
  func testArraysHoldWhatWasWrittenAboveAndBelowTheThreshold() {
    for count in [0, 1, 4095, FrameMemory.hugePageThreshold - 1, FrameMemory.hugePageThreshold, 1920 * 1080 * 4 + 3] {
      let bytes = FrameMemory.bytes(count: count) { buffer in
        for i in buffer.indices { buffer[i] = UInt8(truncatingIfNeeded: i &* 7 &+ 1) }
      }
      XCTAssertEqual(bytes.count, count)
      XCTAssertTrue(bytes.indices.allSatisfy { bytes[$0] == UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }, "\(count)")
      let zeros = FrameMemory.zeros(count: count)
      XCTAssertEqual(zeros.count, count)
      XCTAssertTrue(zeros.allSatisfy { $0 == 0 })
    }
  }
}
