// LayerKitTesting: helpers LayerKit's own test targets share (package access: not part of the
// library's API). One copy each, so a test that depends on generated values sees the same values
// whichever target it is in.
import LayerKitGL
import XCTest

/// SplitMix64: a small seeded generator, so random sweeps and fuzz inputs are the same on every run.
/// The sequence for a seed must never change: tests hold values computed from it.
package struct SeededRandom: RandomNumberGenerator {
  package var state: UInt64

  package init(seed: UInt64) { state = seed }

  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A double in `range`, from the top 53 bits of one `next()`.
  package mutating func double(in range: ClosedRange<Double>) -> Double {
    range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
  }

  /// `next() % n`, in 0..<n.
  package mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }

  /// The low bit of one `next()`.
  package mutating func bool() -> Bool { next() & 1 == 1 }
}

/// A `GLRenderer`, or nil after recording the start-up error as a failure at the caller's line.
/// GPU tests never skip: without a GPU, Mesa's llvmpipe still gives a display, and a renderer that
/// cannot start is a failure with GLError's one-line reason.
package func makeRenderer(file: StaticString = #filePath, line: UInt = #line) -> GLRenderer? {
  do {
    return try GLRenderer()
  } catch {
    XCTFail("GLRenderer() failed: \(error)", file: file, line: line)
    return nil
  }
}
