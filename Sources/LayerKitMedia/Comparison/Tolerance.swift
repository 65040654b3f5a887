/// How far two images may differ and still count as the same.
///
/// A comparison passes when at most `maxDifferingFraction` of the pixels have some channel that
/// differs by more than `maxChannelDelta`, and the PSNR over all RGBA channels is at least
/// `minPSNR`.
public struct Tolerance: Sendable, Equatable {
  /// A pixel "differs" when any of its four channels differs by more than this.
  public var maxChannelDelta: Int
  /// The largest fraction of pixels (0…1) allowed to differ.
  public var maxDifferingFraction: Double
  /// The smallest PSNR allowed, in dB. Identical images have an infinite PSNR.
  public var minPSNR: Double

  /// - Parameters:
  ///   - maxChannelDelta: a pixel differs when any channel differs by more than this.
  ///   - maxDifferingFraction: the largest fraction (0…1) of pixels allowed to differ.
  ///   - minPSNR: the smallest PSNR allowed, in dB.
  public init(maxChannelDelta: Int = 2, maxDifferingFraction: Double = 0.001, minPSNR: Double = 45) {
    self.maxChannelDelta = maxChannelDelta
    self.maxDifferingFraction = maxDifferingFraction
    self.minPSNR = minPSNR
  }

  /// The GPU ≡ CPU tolerance of docs/ARCHITECTURE.md: per channel |GPU − CPU| ≤ 2 on at least 99.9 % of pixels,
  /// and PSNR ≥ 45 dB.
  public static let parity = Tolerance(maxChannelDelta: 2, maxDifferingFraction: 0.001, minPSNR: 45)

  /// Pixel for pixel the same.
  public static let exact = Tolerance(maxChannelDelta: 0, maxDifferingFraction: 0, minPSNR: .infinity)
}
