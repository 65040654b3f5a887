import Foundation
import LayerKit

/// The differences between two images of the same size, measured once in a single pass.
///
/// It keeps a 256-bin histogram of each pixel's largest channel delta and the sum of squared
/// channel errors, so `differingFraction(over:)`, `passes(_:)` and `psnr` cost O(1) afterwards.
/// Channels are compared as stored (premultiplied RGBA8).
public struct ImageComparison: Sendable {
  /// The reference image.
  public let expected: Image
  /// The image under test.
  public let actual: Image
  /// `histogram[d]` counts the pixels whose largest channel delta is exactly `d`.
  public let histogram: [Int]
  /// Sum over all pixels and all four channels of (expected − actual)².
  public let sumOfSquaredErrors: UInt64

  /// Compares two images channel by channel.
  /// - Parameters:
  ///   - expected: the reference (for example the CPU render or a committed golden).
  ///   - actual: the image under test.
  /// - Throws: `MediaError.sizeMismatch` when the sizes differ.
  public init(expected: Image, actual: Image) throws(MediaError) {
    guard expected.width == actual.width, expected.height == actual.height else {
      throw .sizeMismatch(
        expectedWidth: expected.width, expectedHeight: expected.height,
        actualWidth: actual.width, actualHeight: actual.height)
    }
    self.expected = expected
    self.actual = actual
    var histogram = [Int](repeating: 0, count: 256)
    var sse: UInt64 = 0
    histogram.withUnsafeMutableBufferPointer { bins in
      expected.pixels.withUnsafeBufferPointer { e in
        actual.pixels.withUnsafeBufferPointer { a in
          var i = 0
          // Squared errors of one pixel fit in 4 · 255², so sums of many pixels are kept in a
          // 32-bit accumulator per row chunk and folded into 64 bits to keep the loop cheap.
          var chunk: UInt32 = 0
          var inChunk = 0
          while i < e.count {
            let dr = abs(Int32(e[i]) - Int32(a[i]))
            let dg = abs(Int32(e[i + 1]) - Int32(a[i + 1]))
            let db = abs(Int32(e[i + 2]) - Int32(a[i + 2]))
            let da = abs(Int32(e[i + 3]) - Int32(a[i + 3]))
            bins[Int(max(max(dr, dg), max(db, da)))] += 1
            chunk &+= UInt32(dr * dr + dg * dg + db * db + da * da)
            inChunk += 1
            if inChunk == 16_000 {  // 16 000 · 260 100 < 2³²
              sse += UInt64(chunk)
              chunk = 0
              inChunk = 0
            }
            i += 4
          }
          sse += UInt64(chunk)
        }
      }
    }
    self.histogram = histogram
    self.sumOfSquaredErrors = sse
  }

  /// The number of pixels compared.
  public var pixelCount: Int { expected.width * expected.height }

  /// The largest difference of any channel of any pixel (0…255).
  public var maxChannelDelta: Int { histogram.lastIndex { $0 != 0 } ?? 0 }

  /// The number of pixels with some channel differing by more than `delta`.
  public func differingPixels(over delta: Int) -> Int {
    if delta < 0 { return pixelCount }
    if delta >= 255 { return 0 }
    return pixelCount - histogram[0...delta].reduce(0, +)
  }

  /// The fraction (0…1) of pixels with some channel differing by more than `delta`.
  /// - Parameters:
  ///   - delta: the largest channel difference that still counts as equal.
  public func differingFraction(over delta: Int) -> Double {
    Double(differingPixels(over: delta)) / Double(pixelCount)
  }

  /// The mean of the squared channel errors over all pixels and all four RGBA channels.
  public var meanSquaredError: Double { Double(sumOfSquaredErrors) / Double(pixelCount * 4) }

  /// Peak signal-to-noise ratio over all RGBA channels, `10 · log10(255² / MSE)`, in dB;
  /// `+infinity` when the images are identical.
  public var psnr: Double {
    sumOfSquaredErrors == 0 ? .infinity : 10 * log10(255.0 * 255.0 / meanSquaredError)
  }

  /// Whether the differences are within `t` (see `Tolerance`).
  /// - Parameters:
  ///   - t: the tolerance.
  public func passes(_ t: Tolerance) -> Bool {
    differingFraction(over: t.maxChannelDelta) <= t.maxDifferingFraction && psnr >= t.minPSNR
  }

  /// An image for a person to look at: the expected image as a dim, low-contrast grey, with every
  /// pixel that differs at all drawn in red, brighter the larger its largest channel delta.
  /// Identical images give just the dim grey. Opaque, same size as the inputs.
  ///
  /// Grey pixels have `r == g == b` in 48…111; red pixels are `(160 + 95 · delta / 255, 0, 0)`,
  /// so the two never collide.
  public func diffImage() -> Image {
    var out = [UInt8](repeating: 255, count: expected.pixels.count)
    out.withUnsafeMutableBufferPointer { o in
      expected.pixels.withUnsafeBufferPointer { e in
        actual.pixels.withUnsafeBufferPointer { a in
          var i = 0
          while i < e.count {
            let d = max(
              max(abs(Int(e[i]) - Int(a[i])), abs(Int(e[i + 1]) - Int(a[i + 1]))),
              max(abs(Int(e[i + 2]) - Int(a[i + 2])), abs(Int(e[i + 3]) - Int(a[i + 3]))))
            if d > 0 {
              o[i] = UInt8(160 + 95 * d / 255)
              o[i + 1] = 0
              o[i + 2] = 0
            } else {
              // Rec. 601 luma of the premultiplied colour (as seen over black), squeezed into
              // 48…111 so red marks stand out against it.
              let luma = (299 * Int(e[i]) + 587 * Int(e[i + 1]) + 114 * Int(e[i + 2])) / 1000
              let g = UInt8(48 + luma / 4)
              o[i] = g
              o[i + 1] = g
              o[i + 2] = g
            }
            i += 4
          }
        }
      }
    }
    // Same size as `expected`, which was valid, so this cannot fail.
    return (try? Image(width: expected.width, height: expected.height, pixels: out))
      ?? expected
  }

  /// One line for a test failure or a log, e.g.
  /// `max channel delta 3, 0.012% of pixels differ by more than 2, PSNR 51.20 dB`.
  /// - Parameters:
  ///   - t: the tolerance whose `maxChannelDelta` defines "differ".
  public func summary(_ t: Tolerance) -> String {
    let percent = String(format: "%.3f", differingFraction(over: t.maxChannelDelta) * 100)
    let psnrText = psnr.isInfinite ? "PSNR infinite (identical)" : String(format: "PSNR %.2f dB", psnr)
    return "max channel delta \(maxChannelDelta), \(percent)% of pixels differ by more than "
      + "\(t.maxChannelDelta), \(psnrText)"
  }
}
