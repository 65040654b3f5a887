import Foundation

// The damped harmonic oscillator behind SpringAnimation (CASpringAnimation without the prefix),
// solved in closed form so that progress is a pure function of time: the same spring at the same t
// gives the same value on every run, whatever frame rate a video is rendered at.
//
// Conventions, in units of the animation's from→to distance ("progress"):
// - The mass starts at 0 and is pulled towards 1: m·x'' + c·x' + k·(x − 1) = 0, x(0) = 0.
// - `initialVelocity` is x'(0) in progress per second, as Core Animation reads it: 1 means "moving
//   towards the target at one from→to distance per second"; negative values move away from it.
// - `settlingDuration` is the last time |1 − x(t)| reaches `settlingThreshold` = 0.001 of the
//   distance. Core Animation does not document its epsilon; 0.001 is the common reading (it is
//   also the epsilon SwiftUI's `Spring.settlingDuration` documents for its default).

/// The motion of a spring animation: a mass on a damped spring, released at 0 with an initial
/// velocity and pulled towards 1.
///
/// `progress(at:)` is the exact solution for the under-damped (oscillating), critically damped
/// and over-damped cases; the caller maps progress 0…1 onto the animated values (from → to).
public struct SpringSolver: Hashable, Sendable {
  /// The mass of the object attached to the spring. Greater than 0; Core Animation's default is 1.
  public let mass: Double
  /// The spring stiffness coefficient k. Greater than 0; the default is 100.
  public let stiffness: Double
  /// The damping coefficient c. At least 0 (0 never settles); the default is 10.
  public let damping: Double
  /// x'(0), in from→to distances per second; positive moves towards the target. The default is 0.
  public let initialVelocity: Double

  /// |1 − x(t)|, in from→to distances, below which `settlingDuration` considers the spring at rest.
  public static let settlingThreshold = 0.001

  /// The most `settlingDuration` returns: one hour. An undamped spring (damping 0, or bounce 1)
  /// oscillates forever, and an extremely over-damped one creeps for longer than any video; this
  /// bound keeps every valid spring's duration finite.
  public static let maximumSettlingDuration = 3600.0

  /// Core Animation's default spring: mass 1, stiffness 100, damping 10, initial velocity 0.
  public init() {
    mass = 1
    stiffness = 100
    damping = 10
    initialVelocity = 0
  }

  /// A spring with Core Animation's physical parameters.
  ///
  /// - Parameters:
  ///   - mass: the mass; finite and greater than 0.
  ///   - stiffness: the spring constant k; finite and greater than 0.
  ///   - damping: the damping coefficient c; finite and at least 0.
  ///   - initialVelocity: x'(0) in from→to distances per second; finite.
  /// - Throws: `SpringError`, naming the first field that is out of range.
  public init(
    mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0
  ) throws(SpringError) {
    try Self.requireFinite(mass, "mass")
    try Self.requireFinite(stiffness, "stiffness")
    try Self.requireFinite(damping, "damping")
    try Self.requireFinite(initialVelocity, "initialVelocity")
    guard mass > 0 else { throw .notPositive(field: "mass", value: mass) }
    guard stiffness > 0 else { throw .notPositive(field: "stiffness", value: stiffness) }
    guard damping >= 0 else { throw .negative(field: "damping", value: damping) }
    // Ratios of extreme (but finite) inputs can overflow or underflow; the solution needs a
    // finite positive natural frequency and a finite damping ratio.
    let omega = (stiffness / mass).squareRoot()
    let zeta = damping / (2 * (stiffness * mass).squareRoot())
    guard omega.isFinite, omega > 0, zeta.isFinite else {
      throw .unrepresentable(field: "stiffness / mass", value: stiffness / mass)
    }
    self.mass = mass
    self.stiffness = stiffness
    self.damping = damping
    self.initialVelocity = initialVelocity
  }

  /// A spring described by its perceptual duration and bounce (iOS 17's
  /// `CASpringAnimation(perceptualDuration:bounce:)`, SwiftUI's `Spring(duration:bounce:)`).
  ///
  /// Mass 1, stiffness (2π / duration)², and a damping ratio ζ of 1 − bounce for bounce ≥ 0 or
  /// 1 / (1 + bounce) for bounce < 0, so damping = 2ζ·√stiffness:
  /// 4π(1 − bounce) / duration, or 4π / (duration · (1 + bounce)).
  ///
  /// Sources. Apple's SwiftUI `Spring` documentation (developer.apple.com/documentation/swiftui/spring)
  /// gives the worked conversion duration 0.5, bounce 0.3 → mass 1, stiffness 157.9, damping 17.6,
  /// and back: mass 1, stiffness 100, damping 10 → duration 0.63, bounce 0.5; both pin the
  /// bounce ≥ 0 formulas above. `Spring.bounce` documents the range: 0 is critically damped, 1 is
  /// undamped oscillation, negative values are over-damped down to a minimum of −1. Apple does not
  /// publish the formula for negative bounce; 1 / (1 + bounce) is the reading Flutter's
  /// `SpringDescription.withDurationAndBounce` (stated to match SwiftUI) uses, and it is continuous
  /// with the positive side at 0.
  ///
  /// - Parameters:
  ///   - perceptualDuration: the pace of the spring in seconds (the period of its undamped
  ///     oscillation); finite and greater than 0.
  ///   - bounce: greater than −1 and at most 1.
  ///   - initialVelocity: x'(0) in from→to distances per second; finite.
  /// - Throws: `SpringError` naming `perceptualDuration`, `bounce` or `initialVelocity`.
  public init(perceptualDuration: Double, bounce: Double, initialVelocity: Double = 0) throws(SpringError) {
    try Self.requireFinite(perceptualDuration, "perceptualDuration")
    try Self.requireFinite(bounce, "bounce")
    guard perceptualDuration > 0 else {
      throw .notPositive(field: "perceptualDuration", value: perceptualDuration)
    }
    guard bounce > -1, bounce <= 1 else { throw .outOfRange(field: "bounce", value: bounce, allowed: "(-1, 1]") }
    let stiffness = (2 * Double.pi / perceptualDuration) * (2 * Double.pi / perceptualDuration)
    let damping =
      bounce >= 0
      ? 4 * Double.pi * (1 - bounce) / perceptualDuration
      : 4 * Double.pi / (perceptualDuration * (1 + bounce))
    try self.init(mass: 1, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
  }

  /// ω₀ = √(k / m), the undamped angular frequency in radians per second.
  public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

  /// ζ = c / (2√(k·m)): below 1 the spring oscillates, 1 is critical, above 1 over-damped.
  public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

  /// The perceptual duration 2π / ω₀ (the inverse of `init(perceptualDuration:bounce:)`).
  public var perceptualDuration: Double { 2 * Double.pi / naturalFrequency }

  /// The bounce (the inverse of `init(perceptualDuration:bounce:)`): 1 − ζ when ζ ≤ 1,
  /// 1/ζ − 1 when over-damped.
  public var bounce: Double {
    let zeta = dampingRatio
    return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
  }

  /// The spring's progress from 0 towards 1 at `t` seconds after its start: 0 for t ≤ 0 (and NaN),
  /// 1 at t = +∞. Overshoots past 1 (and, with a negative initial velocity, below 0) are part of
  /// the motion and are returned as they are.
  public func progress(at t: Double) -> Double {
    guard t > 0 else { return 0 }
    guard t.isFinite else { return 1 }
    return 1 + displacement(at: t)
  }

  /// x'(t), the spring's velocity in from→to distances per second: 0 before the start,
  /// `initialVelocity` at t = 0.
  public func velocity(at t: Double) -> Double {
    guard t >= 0 else { return 0 }
    guard t.isFinite else { return 0 }
    let (a, b) = (dampingRatio * naturalFrequency, initialVelocity - dampingRatio * naturalFrequency)
    switch regime {
    case .under(let w):
      return exp(-a * t) * (initialVelocity * cos(w * t) + (w * w - a * b) * Self.sinc(w, t))
    case .over(let s):
      if s * t <= Self.hyperbolicLimit {
        return exp(-a * t) * (initialVelocity * cosh(s * t) - (a * b + s * s) * Self.sinhc(s, t))
      }
      let (r1, k1, r2, k2) = exponentialForm(a: a, b: b, s: s)
      return r1 * k1 * exp(r1 * t) + r2 * k2 * exp(r2 * t)
    }
  }

  /// The time after which |1 − x(t)| stays below `settlingThreshold` (0.001 of the from→to
  /// distance) for good, capped at `maximumSettlingDuration`.
  public var settlingDuration: Double { settlingDuration(threshold: Self.settlingThreshold) }

  /// The time after which |1 − x(t)| stays below `threshold` for good: the last time it equals
  /// `threshold`, found exactly from the solution's extrema and refined by bisection. Capped at
  /// `maximumSettlingDuration` (an undamped spring returns the cap).
  ///
  /// - Parameter threshold: a distance in from→to units, in (0, 1); other values are clamped
  ///   into that range.
  public func settlingDuration(threshold: Double) -> Double {
    let eps = threshold.isNaN ? Self.settlingThreshold : min(max(threshold, 1e-300), 1 - 1e-12)
    let cap = Self.maximumSettlingDuration
    let omega0 = naturalFrequency
    let a = dampingRatio * omega0
    let b = initialVelocity - a
    guard a > 0 else { return cap }
    func away(_ t: Double) -> Double { abs(displacement(at: t)) }

    switch regime {
    case .under(let w):
      // y(t) = −R·e^(−at)·cos(ωt + φ) with tan φ = b/ω. Its extrema fall at ωt + φ = kπ − α
      // (tan α = a/ω) and their sizes, R·√(1 − ζ²)·e^(−a·t_k), shrink with k; between an extremum
      // and the next zero |y| only falls. So the last crossing of eps lies after the last extremum
      // that still reaches eps, before the zero that follows it.
      let phi = atan2(b, w)
      let alpha = atan2(a, w)
      let peak = hypot(w, b) / omega0  // R·√(1 − ζ²)
      let lastTime = log(peak / eps) / a  // extrema up to this time reach eps
      let firstNonNegative = ((alpha + phi) / Double.pi).rounded(.up)
      var k = ((w * lastTime + alpha + phi) / Double.pi).rounded(.down)
      if !(k >= firstNonNegative - 1) { k = firstNonNegative - 1 }
      let extremum = (k * Double.pi - alpha - phi) / w
      let zero = (k * Double.pi + Double.pi / 2 - phi) / w
      guard extremum < cap else { return cap }
      let lo = max(0, extremum)
      let hi = min(max(zero, lo), cap)
      return Self.bisect(lo, hi) { away($0) >= eps }

    case .over(let s):
      // Two real exponentials: at most one extremum and one zero for t > 0. After the extremum
      // (or from 0 when there is none) y moves monotonically to 0, so |y| only falls.
      let q = initialVelocity / (a * initialVelocity - omega0 * omega0)
      var extremum: Double? = nil
      if q > 0 {
        if s == 0 {
          extremum = q
        } else if s * q < 1 {
          extremum = atanh(s * q) / s
        }
      }
      if let te = extremum, te.isFinite, away(te) < eps {
        // An overshoot smaller than eps: the last crossing is on the way up, where y rises from −1.
        return Self.bisect(0, te) { displacement(at: $0) <= -eps }
      }
      let start = extremum.map { $0.isFinite ? $0 : 0 } ?? 0
      var step = max(start, 1 / omega0, 1 / a)
      var hi = start + step
      while away(hi) >= eps {
        guard hi < cap else { return cap }
        step *= 2
        hi = start + step
      }
      return Self.bisect(start, min(hi, cap)) { away($0) >= eps }
    }
  }

  // MARK: - The closed form

  /// The two shapes of the solution: oscillating with damped frequency ω, or two real exponentials
  /// e^(−(a ∓ s)t) (s = 0 is the critical case, which the hyperbolic form covers exactly).
  enum Regime {
    case under(omega: Double)
    case over(s: Double)
  }

  var regime: Regime {
    let omega0 = naturalFrequency
    let zeta = dampingRatio
    if zeta < 1 {
      let w = omega0 * ((1 - zeta) * (1 + zeta)).squareRoot()
      if w > 0 { return .under(omega: w) }
      return .over(s: 0)
    }
    return .over(s: omega0 * ((zeta - 1) * (zeta + 1)).squareRoot())
  }

  /// Beyond s·t = 20 cosh and sinh are replaced by the two exponentials (no overflow, no
  /// cancellation); below it the hyperbolic form stays exact as s → 0 (critical damping).
  static let hyperbolicLimit = 20.0

  /// y(t) = x(t) − 1 for t > 0: y(0) = −1, y'(0) = v₀, with a = ζω₀ and b = v₀ − a.
  ///   under-damped:  y = e^(−at)·(−cos ωt + b·sin(ωt)/ω)
  ///   critical:      y = e^(−at)·(−1 + b·t)
  ///   over-damped:   y = e^(−at)·(−cosh st + b·sinh(st)/s)
  func displacement(at t: Double) -> Double {
    let a = dampingRatio * naturalFrequency
    let b = initialVelocity - a
    switch regime {
    case .under(let w):
      return exp(-a * t) * (-cos(w * t) + b * Self.sinc(w, t))
    case .over(let s):
      if s * t <= Self.hyperbolicLimit {
        return exp(-a * t) * (-cosh(s * t) + b * Self.sinhc(s, t))
      }
      let (r1, k1, r2, k2) = exponentialForm(a: a, b: b, s: s)
      return k1 * exp(r1 * t) + k2 * exp(r2 * t)
    }
  }

  /// y = k1·e^(r1·t) + k2·e^(r2·t) with r1 = −(a − s) (computed as −ω₀²/(a + s) to avoid
  /// cancellation when heavily over-damped) and r2 = −(a + s).
  private func exponentialForm(a: Double, b: Double, s: Double) -> (Double, Double, Double, Double) {
    let omega0 = naturalFrequency
    let r1 = -omega0 * omega0 / (a + s)
    let r2 = -(a + s)
    let k1 = -0.5 + b / (2 * s)
    let k2 = -0.5 - b / (2 * s)
    return (r1, k1, r2, k2)
  }

  /// sin(ωt)/ω, which tends to t as ω → 0.
  private static func sinc(_ w: Double, _ t: Double) -> Double { w == 0 ? t : sin(w * t) / w }
  /// sinh(st)/s, which tends to t as s → 0.
  private static func sinhc(_ s: Double, _ t: Double) -> Double { s == 0 ? t : sinh(s * t) / s }

  /// The boundary in [lo, hi] where `isAway` turns from true to false (true at lo, false at hi):
  /// returns the first time known to be settled.
  private static func bisect(_ lo: Double, _ hi: Double, isAway: (Double) -> Bool) -> Double {
    var (lo, hi) = (lo, hi)
    for _ in 0..<200 {
      let mid = lo + (hi - lo) / 2
      if mid <= lo || mid >= hi { break }
      if isAway(mid) { lo = mid } else { hi = mid }
    }
    return hi
  }

  private static func requireFinite(_ value: Double, _ field: String) throws(SpringError) {
    guard value.isFinite else { throw .nonFinite(field: field) }
  }
}

/// Why spring parameters were refused. Each case names the field.
public enum SpringError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The field is NaN or infinite.
  case nonFinite(field: String)
  /// The field must be greater than 0 (mass, stiffness, perceptualDuration).
  case notPositive(field: String, value: Double)
  /// The field must not be negative (damping).
  case negative(field: String, value: Double)
  /// The field is outside its allowed range (bounce: greater than −1, at most 1).
  case outOfRange(field: String, value: Double, allowed: String)
  /// Finite inputs whose ratio is not representable (stiffness / mass overflows or underflows).
  case unrepresentable(field: String, value: Double)

  public var description: String {
    switch self {
    case .nonFinite(let f): "spring \(f) is not a finite number"
    case .notPositive(let f, let v): "spring \(f) must be greater than 0 (is \(v))"
    case .negative(let f, let v): "spring \(f) must not be negative (is \(v))"
    case .outOfRange(let f, let v, let r): "spring \(f) must be in \(r) (is \(v))"
    case .unrepresentable(let f, let v): "spring \(f) is not representable (\(v))"
    }
  }
}
