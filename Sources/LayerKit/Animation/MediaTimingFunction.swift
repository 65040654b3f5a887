// Core Animation's timing functions: a cubic Bézier curve from (0, 0) to (1, 1) that maps the
// fraction of a simple duration that has elapsed (x) to the fraction of the change applied (y).

/// The pacing of an animation: a cubic Bézier from (0, 0) to (1, 1) with two control points, like
/// `CAMediaTimingFunction`.
///
/// The control points' x coordinates lie in [0, 1], which makes x(s) non-decreasing in the curve
/// parameter s, so every input x has one output y. The y coordinates may leave [0, 1] (overshoot).
public struct MediaTimingFunction: Hashable, Sendable {
  /// The x coordinate of the first control point, in [0, 1].
  public let c1x: Double
  /// The y coordinate of the first control point.
  public let c1y: Double
  /// The x coordinate of the second control point, in [0, 1].
  public let c2x: Double
  /// The y coordinate of the second control point.
  public let c2y: Double

  /// Core Animation's named timing functions (`CAMediaTimingFunctionName`): a string, as Core
  /// Animation's, so `MediaTimingFunctionName(rawValue: "easeOut")` is written without `!`.
  public struct Name: RawRepresentable, Hashable, Sendable, CaseIterable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let linear = Name("linear")
    public static let easeIn = Name("easeIn")
    public static let easeOut = Name("easeOut")
    public static let easeInEaseOut = Name("easeInEaseOut")
    public static let `default` = Name("default")
    /// The five names Core Animation has.
    public static let allCases: [Name] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]
  }

  /// Linear pacing, control points (0, 0) and (1, 1): `value(at: x)` is x.
  public static let linear = MediaTimingFunction(unchecked: 0, 0, 1, 1)
  /// Starts slowly: (0.42, 0) and (1, 1).
  public static let easeIn = MediaTimingFunction(unchecked: 0.42, 0, 1, 1)
  /// Ends slowly: (0, 0) and (0.58, 1).
  public static let easeOut = MediaTimingFunction(unchecked: 0, 0, 0.58, 1)
  /// Starts and ends slowly: (0.42, 0) and (0.58, 1).
  public static let easeInEaseOut = MediaTimingFunction(unchecked: 0.42, 0, 0.58, 1)
  /// Core Animation's default for implicit animations: (0.25, 0.1) and (0.25, 1).
  public static let `default` = MediaTimingFunction(unchecked: 0.25, 0.1, 0.25, 1)

  /// A custom curve through (0, 0), (c1x, c1y), (c2x, c2y), (1, 1), as Core Animation code
  /// writes `CAMediaTimingFunction(controlPoints:_:_:_:)`: without `try`. Core Animation takes
  /// any numbers; LayerKit keeps the curve a function of time, so a value `init(checkedControlPoints:)`
  /// refuses is mended — an x outside [0, 1] clamped into it, a value that is not finite taken
  /// from the linear curve — and `Layer.animationFailureReporter` is told why
  /// (`AnimationError.invalidTiming`, no key).
  public init(controlPoints c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
    do throws(TimingError) {
      self = try MediaTimingFunction(checkedControlPoints: c1x, c1y, c2x, c2y)
    } catch {
      Layer.animationFailureReporter(.invalidTiming(error), nil)
      func mended(_ v: Double, linear: Double, clamp: Bool) -> Double {
        guard v.isFinite else { return linear }
        return clamp ? min(max(v, 0), 1) : v
      }
      self = MediaTimingFunction(
        unchecked: mended(c1x, linear: 0, clamp: true), mended(c1y, linear: 0, clamp: false),
        mended(c2x, linear: 1, clamp: true), mended(c2y, linear: 1, clamp: false))
    }
  }

  /// A custom curve through (0, 0), (c1x, c1y), (c2x, c2y), (1, 1), checked.
  /// - Parameters:
  ///   - c1x: first control point x, in [0, 1].
  ///   - c1y: first control point y, any finite value.
  ///   - c2x: second control point x, in [0, 1].
  ///   - c2y: second control point y, any finite value.
  /// - Throws: `TimingError.nonFinite` for NaN or infinity, `TimingError.outOfRange` for an x
  ///   outside [0, 1], naming the field (`c1x`, `c1y`, `c2x`, `c2y`).
  public init(checkedControlPoints c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) throws(TimingError) {
    let owner = "MediaTimingFunction"
    for (field, value) in [("c1x", c1x), ("c1y", c1y), ("c2x", c2x), ("c2y", c2y)] where !value.isFinite {
      throw .nonFinite(owner: owner, field: field)
    }
    for (field, value) in [("c1x", c1x), ("c2x", c2x)] where !(0...1).contains(value) {
      throw .outOfRange(owner: owner, field: field, value: value, range: 0...1)
    }
    self.init(unchecked: c1x, c1y, c2x, c2y)
  }

  /// One of Core Animation's named functions. A name Core Animation does not have gives the
  /// default function, and `Layer.animationFailureReporter` is told (`AnimationError.invalidTiming`).
  /// - Parameter name: the name.
  public init(name: Name) {
    switch name {
    case .linear: self = .linear
    case .easeIn: self = .easeIn
    case .easeOut: self = .easeOut
    case .easeInEaseOut: self = .easeInEaseOut
    case .default: self = .default
    default:
      Layer.animationFailureReporter(.invalidTiming(.unknownName(name.rawValue)), nil)
      self = .default
    }
  }

  /// One of Core Animation's named functions by its string, as older Core Animation code passes
  /// the `kCAMediaTimingFunction…` constants (`MediaTimingFunction(name: kMediaTimingFunctionEaseOut)`).
  public init(name: String) { self.init(name: Name(rawValue: name)) }

  private init(unchecked c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
    self.c1x = c1x
    self.c1y = c1y
    self.c2x = c2x
    self.c2y = c2y
  }

  /// The curve's control point at `index`, as `CAMediaTimingFunction.getControlPoint(at:values:)`:
  /// 0 is (0, 0), 1 and 2 are the two control points, 3 is (1, 1).
  /// - Parameter index: 0 to 3; anything else is a programming error.
  public func controlPoint(at index: Int) -> Point {
    switch index {
    case 0: return Point(x: 0, y: 0)
    case 1: return Point(x: c1x, y: c1y)
    case 2: return Point(x: c2x, y: c2y)
    case 3: return Point(x: 1, y: 1)
    default: preconditionFailure("MediaTimingFunction has control points 0 to 3, not \(index)")
    }
  }

  /// The fraction of the change applied when the fraction `x` of the simple duration has passed.
  ///
  /// Solves x(s) = x for the curve parameter s and returns y(s). Newton's method from s = x does
  /// the work in a few steps; where the slope nearly vanishes or a step leaves [0, 1], bisection
  /// (sound because x(s) is non-decreasing) finishes it. Both stop on the error in s (1e-15), not
  /// in x: where x(s) is flat (a control point x of 0 makes x(s) ≈ k·s² or s³ near s = 0) a small
  /// error in x is a large one in s, and so in y. The result is far inside the 1e-6.
  /// - Parameter x: elapsed fraction; values outside [0, 1] are clamped, so the ends are exactly
  ///   0 and 1. NaN gives NaN.
  /// - Returns: y(s), exactly 0 at x ≤ 0, 1 at x ≥ 1, and x itself for `.linear`.
  public func value(at x: Double) -> Double {
    if x.isNaN { return x }
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    // A curve whose control points lie on the diagonal is the identity (the cubic in s is not,
    // but y(s) = x(s) for every s), so return x exactly rather than a solved approximation.
    if c1x == c1y, c2x == c2y { return x }
    return sampleY(solve(x))
  }

  // MARK: - The curve, in power form: B(s) = ((a·s + b)·s + c)·s for each axis.

  private var cx: Double { 3 * c1x }
  private var bx: Double { 3 * (c2x - c1x) - cx }
  private var ax: Double { 1 - cx - bx }
  private var cy: Double { 3 * c1y }
  private var by: Double { 3 * (c2y - c1y) - cy }
  private var ay: Double { 1 - cy - by }

  private func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
  private func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
  private func slopeX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

  /// The s in [0, 1] with x(s) = x, for x in (0, 1), to within about 1e-15 in s.
  private func solve(_ x: Double) -> Double {
    var s = x
    for _ in 0..<16 {
      let error = sampleX(s) - x
      if error == 0 { return s }
      let slope = slopeX(s)
      if abs(slope) < 1e-9 { break }
      let next = s - error / slope
      if !(0...1).contains(next) { break }
      if abs(next - s) <= 1e-15 { return next }
      s = next
    }
    var lo = 0.0
    var hi = 1.0
    while hi - lo > 1e-15 {
      s = (lo + hi) / 2
      let value = sampleX(s)
      if value == x { return s }
      if value < x { lo = s } else { hi = s }
    }
    return (lo + hi) / 2
  }
}
