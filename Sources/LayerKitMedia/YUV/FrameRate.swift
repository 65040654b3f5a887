/// A frame rate as an exact fraction of frames per second, the way video containers store it
/// (Y4M's `F30000:1001`, ffmpeg's `-r 30000/1001`): `29.97` written as a decimal is not the NTSC
/// rate, and summing 1/29.97 s per frame drifts from it by 3.6 s an hour.
public struct FrameRate: Sendable, Hashable, CustomStringConvertible {
  /// Frames, per `denominator` seconds. Positive, at most `Int32.max`, and coprime with
  /// `denominator`.
  public let numerator: Int
  /// Seconds, positive, at most `Int32.max`.
  public let denominator: Int

  /// `numerator / denominator` frames per second, reduced to lowest terms.
  /// - Throws: `.invalidFrameRate` unless both are positive and, once reduced, at most
  ///   `Int32.max` (the largest a Y4M reader is sure to parse).
  public init(numerator: Int, denominator: Int) throws(MediaError) {
    guard numerator > 0, denominator > 0 else {
      throw .invalidFrameRate(value: "\(numerator)/\(denominator)")
    }
    let d = FrameRate.gcd(numerator, denominator)
    guard numerator / d <= Int(Int32.max), denominator / d <= Int(Int32.max) else {
      throw .invalidFrameRate(value: "\(numerator)/\(denominator)")
    }
    self.numerator = numerator / d
    self.denominator = denominator / d
  }

  /// The fraction meant by a decimal frame rate, in this order:
  /// 1. A whole number (within 10⁻⁶) is itself: `30` → 30/1.
  /// 2. A rate within 0.005 of an NTSC rate `n · 1000 / 1001` is that rate: `29.97` → 30000/1001,
  ///    `23.976` and `23.98` → 24000/1001, `59.94` → 60000/1001, `119.88` → 120000/1001.
  /// 3. Otherwise the closest fraction with a denominator of at most 1001 (the best rational
  ///    approximation, found by continued fractions): `12.5` → 25/2, `7.2` → 36/5.
  /// - Throws: `.invalidFrameRate` for a rate that is not finite, not positive, above 1 000 000,
  ///   or too small to have a fraction with denominator ≤ 1001 (below 1/2002 frame per second).
  public init(_ framesPerSecond: Double) throws(MediaError) {
    let fps = framesPerSecond
    guard fps.isFinite, fps > 0, fps <= 1_000_000 else { throw .invalidFrameRate(value: "\(fps)") }
    let whole = fps.rounded()
    if whole >= 1, abs(fps - whole) <= 1e-6 {
      try self.init(numerator: Int(whole), denominator: 1)
      return
    }
    let ntsc = (fps * 1.001).rounded()
    if ntsc >= 1, abs(fps - ntsc * 1000 / 1001) < 0.005 {
      try self.init(numerator: Int(ntsc) * 1000, denominator: 1001)
      return
    }
    let (p, q) = FrameRate.closestFraction(to: fps, maxDenominator: 1001)
    guard p > 0 else { throw .invalidFrameRate(value: "\(fps)") }
    try self.init(numerator: p, denominator: q)
  }

  /// Frames per second as a Double.
  public var framesPerSecond: Double { Double(numerator) / Double(denominator) }

  /// `"30000/1001"`, `"30/1"`.
  public var description: String { "\(numerator)/\(denominator)" }

  static func gcd(_ a: Int, _ b: Int) -> Int {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a
  }

  /// The fraction p/q, q ≤ maxDenominator, closest to x > 0: the last convergent of x's continued
  /// fraction within the bound, or the best semiconvergent after it (as Python's
  /// `Fraction.limit_denominator`).
  static func closestFraction(to x: Double, maxDenominator: Int) -> (Int, Int) {
    // Convergents p/q: (p0/q0) the one before (p1/q1); 1/0 and 0/1 seed the recurrence.
    var (p0, q0, p1, q1) = (0, 1, 1, 0)
    var rest = x
    for _ in 0..<64 {
      let a = rest.rounded(.down)
      guard a < Double(Int32.max) else { break }
      let ai = Int(a)
      let q2 = q0 + ai * q1
      if q2 > maxDenominator { break }
      (p0, q0, p1, q1) = (p1, q1, p0 + ai * p1, q2)
      let fraction = rest - a
      // Float noise, not a real remainder: x is this convergent.
      if fraction < 1e-9 { return (p1, q1) }
      rest = 1 / fraction
    }
    guard q1 > 0 else { return (0, 1) }
    // The largest semiconvergent that still fits, against the last convergent.
    let k = (maxDenominator - q0) / q1
    let (ps, qs) = (p0 + k * p1, q0 + k * q1)
    let semi = abs(Double(ps) / Double(qs) - x)
    let last = abs(Double(p1) / Double(q1) - x)
    return semi < last ? (ps, qs) : (p1, q1)
  }
}
