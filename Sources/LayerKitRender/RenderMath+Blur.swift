// The Gaussian blur of the parity contract: the weights of one separable pass, and how a large
// blur splits into passes that fit RenderList.maxBlurTaps. Both backends run the weights given.

import Foundation

extension RenderMath {
  /// The weights of one blur pass of standard deviation `sigma` pixels: exp(−i²/2σ²) for
  /// i = 0 … ⌈3σ⌉, normalized so the whole kernel (both sides) sums to 1. Computed in Double.
  public static func gaussianWeights(sigma: Double) -> [Float] {
    let r = max(1, Int((3 * sigma).rounded(.up)))
    let raw = (0...r).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
    let total = raw[0] + 2 * raw.dropFirst().reduce(0, +)
    return raw.map { Float($0 / total) }
  }

  /// The standard deviations of the passes that make one Gaussian of `sigma` pixels, each small
  /// enough for `RenderList.maxBlurTaps` (Gaussians compose: σ² adds up).
  public static func blurPasses(sigma: Double) -> [Double] {
    let maxSigma = Double(RenderList.maxBlurTaps - 1) / 3
    guard sigma > maxSigma else { return [sigma] }
    let k = Int(((sigma / maxSigma) * (sigma / maxSigma)).rounded(.up))
    return Array(repeating: sigma / Double(k).squareRoot(), count: k)
  }
}
