import Foundation

// The timing half of a keyframe animation (CAKeyframeAnimation without the prefix): which pair of
// keyframes a progress falls between and how far, from keyTimes and the calculation mode; and the
// Kochanek–Bartels spline that cubic modes interpolate with. Values are the caller's: it maps
// (index, fraction) onto its typed values and applies the per-segment timing functions.
//
// The keyTimes rules, from Apple's CAKeyframeAnimation.keyTimes and CAAnimationCalculationMode
// documentation:
// - each key time is a fraction of the duration in [0, 1]; each is ≥ the one before it;
// - linear and cubic: as many key times as values, the first 0 and the last 1;
// - discrete: one more key time than values (each value holds from its key time until the next);
//   we also accept as many as values (the last value then holds to the end), as ported code often
//   passes; the first must be 0;
// - paced and cubicPaced: keyTimes are ignored and key times are generated for constant speed.
// Without keyTimes, key times are evenly spaced.

/// How a keyframe animation computes values between keyframes (`calculationMode`).
public enum KeyframeCalculationMode: String, Sendable, CaseIterable {
  /// Straight-line interpolation between consecutive values (the default).
  case linear
  /// Each value in turn, no interpolation.
  case discrete
  /// Linear interpolation with key times generated for constant speed; keyTimes and timing
  /// functions are ignored.
  case paced
  /// A Kochanek–Bartels (by default Catmull–Rom) spline through the values.
  case cubic
  /// The cubic spline traversed at constant speed along its arc length; keyTimes and timing
  /// functions are ignored.
  case cubicPaced
}

/// Where a progress falls among a keyframe animation's key times.
public struct KeyframeTiming: Hashable, Sendable {
  /// The number of keyframe values.
  public let count: Int
  /// The calculation mode the key times were made for.
  public let calculationMode: KeyframeCalculationMode
  /// The effective key times: `count` entries, or for discrete mode `count + 1` (the last marks
  /// the end of the last value) — either the caller's, evenly spaced ones, or paced ones.
  public let keyTimes: [Double]

  /// Validates and resolves a keyframe animation's key times.
  ///
  /// - Parameters:
  ///   - count: the number of keyframe values (or path keyframes); at least 1.
  ///   - keyTimes: the animation's `keyTimes`, or nil for evenly spaced keyframes. Ignored for
  ///     `.paced` and `.cubicPaced`.
  ///   - calculationMode: the animation's `calculationMode`.
  ///   - segmentLengths: for `.paced` and `.cubicPaced` (required there when count > 1): the
  ///     `count − 1` non-negative lengths of the segments between consecutive values, in whatever
  ///     metric the value type has — the chords for `.paced`, the spline's arc lengths for
  ///     `.cubicPaced`. Key times are spaced in proportion, so motion runs at constant speed;
  ///     if every length is 0 they are evenly spaced. Ignored by the other modes.
  /// - Throws: `KeyframeError`, naming the field and the index that broke a rule.
  public init(
    count: Int, keyTimes: [Double]? = nil, calculationMode: KeyframeCalculationMode = .linear,
    segmentLengths: [Double]? = nil
  ) throws(KeyframeError) {
    guard count >= 1 else { throw .emptyValues }
    self.count = count
    self.calculationMode = calculationMode
    switch calculationMode {
    case .paced, .cubicPaced:
      if count == 1 {
        self.keyTimes = [0]
      } else {
        guard let lengths = segmentLengths else { throw .missing(field: "segmentLengths") }
        self.keyTimes = try Self.pacedKeyTimes(segmentLengths: lengths, count: count)
      }
    case .linear, .cubic, .discrete:
      if let keyTimes {
        try Self.validate(keyTimes: keyTimes, count: count, mode: calculationMode)
        self.keyTimes = keyTimes
      } else {
        let n = calculationMode == .discrete ? count : count - 1
        self.keyTimes = n == 0 ? [0] : (0...n).map { Double($0) / Double(n) }
      }
    }
  }

  /// Which segment a progress falls in, and how far into it.
  ///
  /// For the interpolating modes, segment `index` runs from value `index` to value `index + 1`
  /// (0 ≤ index ≤ count − 2) and `fraction` is the position in it, in [0, 1], before the
  /// segment's timing function (which the caller applies). A segment whose two key times are
  /// equal is a jump: the fraction is 1. For `.discrete`, `index` is the value to show
  /// (0 ≤ index ≤ count − 1) and `fraction` is 0. With a single value, (0, 0).
  ///
  /// - Parameter progress: the animation's progress in [0, 1]; values outside are clamped and NaN
  ///   reads as 0.
  public func segment(at progress: Double) -> (index: Int, fraction: Double) {
    let p = progress.isNaN ? 0 : min(max(progress, 0), 1)
    if calculationMode == .discrete {
      // The last key time at or before p: each value holds from its key time to the next.
      return (min(lastIndex(atOrBefore: p, in: 0..<keyTimes.count), count - 1), 0)
    }
    guard count > 1 else { return (0, 0) }
    let i = lastIndex(atOrBefore: p, in: 0..<(count - 1))
    let (t0, t1) = (keyTimes[i], keyTimes[i + 1])
    let fraction = t1 > t0 ? min(max((p - t0) / (t1 - t0), 0), 1) : 1
    return (i, fraction)
  }

  /// The largest index in `range` whose key time is ≤ p (the range's first index when none is).
  private func lastIndex(atOrBefore p: Double, in range: Range<Int>) -> Int {
    var (lo, hi) = (range.lowerBound, range.upperBound)  // answer in [lo, hi)
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if keyTimes[mid] <= p { lo = mid } else { hi = mid }
    }
    return lo
  }

  /// Key times in proportion to cumulative segment length: 0 at the first value, 1 at the last.
  ///
  /// - Parameters:
  ///   - segmentLengths: `count − 1` finite, non-negative distances.
  ///   - count: the number of values.
  /// - Throws: `KeyframeError` naming `segmentLengths` (wrong count, or the index of a bad length).
  public static func pacedKeyTimes(segmentLengths: [Double], count: Int) throws(KeyframeError) -> [Double] {
    guard count >= 1 else { throw .emptyValues }
    guard segmentLengths.count == count - 1 else {
      throw .countMismatch(field: "segmentLengths", expected: count - 1, actual: segmentLengths.count)
    }
    for (i, d) in segmentLengths.enumerated() {
      guard d.isFinite else { throw .nonFinite(field: "segmentLengths", index: i) }
      guard d >= 0 else { throw .negative(field: "segmentLengths", index: i, value: d) }
    }
    guard count > 1 else { return [0] }
    // Scale by the largest length first so that a sum of huge lengths cannot overflow.
    let largest = segmentLengths.max() ?? 0
    guard largest > 0 else { return (0..<count).map { Double($0) / Double(count - 1) } }
    let scaled = segmentLengths.map { $0 / largest }
    let total = scaled.reduce(0, +)
    var times = [0.0]
    var sum = 0.0
    for d in scaled.dropLast() {
      sum += d
      times.append(min(sum / total, 1))
    }
    times.append(1)
    return times
  }

  private static func validate(
    keyTimes: [Double], count: Int, mode: KeyframeCalculationMode
  ) throws(KeyframeError) {
    let field = "keyTimes"
    if mode == .discrete {
      guard keyTimes.count == count + 1 || keyTimes.count == count else {
        throw .countMismatch(field: field, expected: count + 1, actual: keyTimes.count)
      }
    } else {
      guard keyTimes.count == count else {
        throw .countMismatch(field: field, expected: count, actual: keyTimes.count)
      }
    }
    for (i, t) in keyTimes.enumerated() {
      guard t.isFinite else { throw .nonFinite(field: field, index: i) }
      guard t >= 0, t <= 1 else { throw .outOfRange(field: field, index: i, value: t) }
      if i > 0, t < keyTimes[i - 1] { throw .notMonotonic(field: field, index: i) }
    }
    guard keyTimes[0] == 0 else { throw .firstNotZero(field: field, value: keyTimes[0]) }
    // Discrete key times say when each value starts; the end need not be marked. One value
    // has one key time, which cannot be both 0 and 1.
    if mode != .discrete, count > 1, keyTimes[count - 1] != 1 {
      throw .lastNotOne(field: field, index: count - 1, value: keyTimes[count - 1])
    }
  }

  // MARK: - Cubic (Kochanek–Bartels) interpolation

  /// One keyframe's Kochanek–Bartels parameters: Core Animation's `tensionValues`,
  /// `continuityValues` and `biasValues` at that keyframe. All 0 (the default) is Catmull–Rom.
  public struct CubicParameters: Hashable, Sendable {
    /// Tightness: 1 gives zero tangents (a sharp stop at the keyframe), −1 rounder curves.
    public var tension: Double
    /// Corner sharpness: 0 keeps the curve C1 at the keyframe; ±1 gives corners.
    public var continuity: Double
    /// Direction: positive overshoots towards the next keyframe, negative towards the previous.
    public var bias: Double

    public init(tension: Double = 0, continuity: Double = 0, bias: Double = 0) {
      self.tension = tension
      self.continuity = continuity
      self.bias = bias
    }

    /// Catmull–Rom: tension, continuity and bias all 0.
    public static let catmullRom = CubicParameters()
  }

  /// The keyframe indices of segment `segment`'s four control values (previous, start, end, next),
  /// with the end points duplicated: the first segment's previous value is its start and the last
  /// segment's next value is its end.
  ///
  /// - Parameters:
  ///   - segment: the segment index, 0 ≤ segment ≤ count − 2 (clamped).
  ///   - count: the number of values, at least 1.
  public static func cubicNeighbors(ofSegment segment: Int, count: Int) -> (Int, Int, Int, Int) {
    let last = max(count - 1, 0)
    let i = min(max(segment, 0), max(last - 1, 0))
    let j = min(i + 1, last)
    return (max(i - 1, 0), i, j, min(j + 1, last))
  }

  /// One component of the Kochanek–Bartels spline between `p1` and `p2`, with the same
  /// tension, continuity and bias at both ends.
  ///
  /// - Parameters:
  ///   - p0: the value before `p1` (`p1` itself at the first keyframe).
  ///   - p1: the segment's start value.
  ///   - p2: the segment's end value.
  ///   - p3: the value after `p2` (`p2` itself at the last keyframe).
  ///   - fraction: the position in the segment, 0 at `p1` and 1 at `p2`.
  ///   - tension: Kochanek–Bartels tension (0 = Catmull–Rom).
  ///   - continuity: Kochanek–Bartels continuity.
  ///   - bias: Kochanek–Bartels bias.
  public static func hermite(
    p0: Double, p1: Double, p2: Double, p3: Double, fraction: Double,
    tension: Double = 0, continuity: Double = 0, bias: Double = 0
  ) -> Double {
    let parameters = CubicParameters(tension: tension, continuity: continuity, bias: bias)
    return hermite(p0: p0, p1: p1, p2: p2, p3: p3, fraction: fraction, start: parameters, end: parameters)
  }

  /// One component of the Kochanek–Bartels spline between `p1` and `p2`, with the start
  /// keyframe's parameters shaping the tangent leaving `p1` and the end keyframe's the tangent
  /// arriving at `p2` (Core Animation gives tension, continuity and bias per keyframe).
  ///
  /// The tangents, with (t, c, b) the keyframe's tension, continuity and bias:
  ///   leaving p1:  (1−t)(1+b)(1+c)/2 · (p1 − p0) + (1−t)(1−b)(1−c)/2 · (p2 − p1)
  ///   arriving p2: (1−t)(1+b)(1−c)/2 · (p2 − p1) + (1−t)(1−b)(1+c)/2 · (p3 − p2)
  /// then the cubic Hermite basis in `fraction`.
  ///
  /// - Parameters:
  ///   - p0: the value before `p1` (`p1` itself at the first keyframe).
  ///   - p1: the segment's start value.
  ///   - p2: the segment's end value.
  ///   - p3: the value after `p2` (`p2` itself at the last keyframe).
  ///   - fraction: the position in the segment, 0 at `p1` and 1 at `p2`.
  ///   - start: the parameters of keyframe `p1`.
  ///   - end: the parameters of keyframe `p2`.
  public static func hermite<V: Animatable>(
    p0: V, p1: V, p2: V, p3: V, fraction s: Double, start: CubicParameters, end: CubicParameters
  ) -> V {
    let (t1, c1, b1) = (start.tension, start.continuity, start.bias)
    let (t2, c2, b2) = (end.tension, end.continuity, end.bias)
    // Built from Animatable's add and scale, so any animatable value follows the same spline.
    let w1a: Double = (1 - t1) * (1 + b1) * (1 + c1) / 2
    let w1b: Double = (1 - t1) * (1 - b1) * (1 - c1) / 2
    let w2a: Double = (1 - t2) * (1 + b2) * (1 - c2) / 2
    let w2b: Double = (1 - t2) * (1 - b2) * (1 + c2) / 2
    let leaving: V = V.add(V.scale(difference(p1, p0), by: w1a), V.scale(difference(p2, p1), by: w1b))
    let arriving: V = V.add(V.scale(difference(p2, p1), by: w2a), V.scale(difference(p3, p2), by: w2b))
    let s2 = s * s
    let s3 = s2 * s
    let h00 = 2 * s3 - 3 * s2 + 1
    let h10 = s3 - 2 * s2 + s
    let h01 = -2 * s3 + 3 * s2
    let h11 = s3 - s2
    let left: V = V.add(V.scale(p1, by: h00), V.scale(leaving, by: h10))
    let right: V = V.add(V.scale(p2, by: h01), V.scale(arriving, by: h11))
    return V.add(left, right)
  }

  /// Checks a per-keyframe parameter array (`tensionValues`, `continuityValues`, `biasValues`):
  /// nil is allowed (all 0); otherwise one finite number per keyframe.
  ///
  /// - Parameters:
  ///   - values: the array, or nil.
  ///   - field: its name, for the error.
  ///   - count: the number of keyframe values.
  /// - Throws: `KeyframeError.countMismatch` or `.nonFinite`, naming `field`.
  public static func validateCubicParameters(_ values: [Double]?, field: String, count: Int) throws(KeyframeError) {
    guard let values else { return }
    guard values.count == count else { throw .countMismatch(field: field, expected: count, actual: values.count) }
    for (i, v) in values.enumerated() where !v.isFinite { throw .nonFinite(field: field, index: i) }
  }
}

/// Why keyframe timing or a keyframe path was refused. Each case names the field (and the
/// index, where one element is at fault).
public enum KeyframeError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No keyframe values.
  case emptyValues
  /// A path with no points to move along.
  case emptyPath
  /// A required field is nil (segmentLengths for paced modes).
  case missing(field: String)
  /// An array with the wrong number of entries.
  case countMismatch(field: String, expected: Int, actual: Int)
  /// An entry that is NaN or infinite (for a path: the index of the element).
  case nonFinite(field: String, index: Int)
  /// A key time outside [0, 1].
  case outOfRange(field: String, index: Int, value: Double)
  /// An entry smaller than the one before it.
  case notMonotonic(field: String, index: Int)
  /// The first key time is not 0.
  case firstNotZero(field: String, value: Double)
  /// The last key time is not 1.
  case lastNotOne(field: String, index: Int, value: Double)
  /// A negative distance.
  case negative(field: String, index: Int, value: Double)

  public var description: String {
    switch self {
    case .emptyValues: "keyframe animation has no values"
    case .emptyPath: "keyframe path has no points"
    case .missing(let f): "\(f) is required for a paced calculation mode"
    case .countMismatch(let f, let e, let a): "\(f) has \(a) entries; expected \(e)"
    case .nonFinite(let f, let i): "\(f)[\(i)] is not a finite number"
    case .outOfRange(let f, let i, let v): "\(f)[\(i)] = \(v) is outside [0, 1]"
    case .notMonotonic(let f, let i): "\(f)[\(i)] is smaller than \(f)[\(i - 1)]"
    case .firstNotZero(let f, let v): "\(f)[0] must be 0 (is \(v))"
    case .lastNotOne(let f, let i, let v): "\(f)[\(i)] must be 1 (is \(v))"
    case .negative(let f, let i, let v): "\(f)[\(i)] = \(v) is negative"
    }
  }
}
