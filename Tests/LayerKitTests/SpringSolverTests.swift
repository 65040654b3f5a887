import Foundation
import XCTest

@testable import LayerKit

/// The spring of CASpringAnimation: m·x'' + c·x' + k·(x − 1) = 0 from x(0) = 0 with
/// x'(0) = initialVelocity (in from→to distances per second), checked against a numeric
/// integration written here, not against the closed form it tests.
final class SpringSolverTests: XCTestCase {
  /// Classic fourth-order Runge–Kutta on (x, v), with a fixed small step; returns x at each of
  /// `times` (ascending).
  private func integrate(_ s: SpringSolver, at times: [Double], step h: Double = 1e-4) -> [Double] {
    func accel(_ x: Double, _ v: Double) -> Double { (-s.damping * v - s.stiffness * (x - 1)) / s.mass }
    var (x, v, t) = (0.0, s.initialVelocity, 0.0)
    var out: [Double] = []
    for target in times {
      while t < target - 1e-12 {
        let dt = min(h, target - t)
        let (k1x, k1v) = (v, accel(x, v))
        let (k2x, k2v) = (v + dt / 2 * k1v, accel(x + dt / 2 * k1x, v + dt / 2 * k1v))
        let (k3x, k3v) = (v + dt / 2 * k2v, accel(x + dt / 2 * k2x, v + dt / 2 * k2v))
        let (k4x, k4v) = (v + dt * k3v, accel(x + dt * k3x, v + dt * k3v))
        x += dt / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
        v += dt / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        t += dt
      }
      out.append(x)
    }
    return out
  }

  private func checkAgainstODE(_ s: SpringSolver, until end: Double, file: StaticString = #filePath, line: UInt = #line)
  {
    let times = stride(from: 0.01, through: end, by: end / 97).map { $0 }
    let numeric = integrate(s, at: times)
    for (t, x) in zip(times, numeric) {
      XCTAssertEqual(s.progress(at: t), x, accuracy: 1e-8, "t = \(t), \(s)", file: file, line: line)
    }
  }

  func testUnderdampedMatchesNumericIntegration() throws {
    // Core Animation's defaults: ζ = 10 / (2·√100) = 0.5.
    let s = SpringSolver()
    XCTAssertEqual(s.dampingRatio, 0.5, accuracy: 1e-15)
    checkAgainstODE(s, until: 2)
    checkAgainstODE(try SpringSolver(mass: 2, stiffness: 300, damping: 4, initialVelocity: 3), until: 3)
    checkAgainstODE(try SpringSolver(mass: 1, stiffness: 100, damping: 0, initialVelocity: 0), until: 1)
  }

  func testCriticallyDampedMatchesNumericIntegration() throws {
    // c = 2·√(k·m) exactly: ζ = 1.
    let s = try SpringSolver(mass: 1, stiffness: 100, damping: 20)
    XCTAssertEqual(s.dampingRatio, 1)
    checkAgainstODE(s, until: 2)
    checkAgainstODE(try SpringSolver(mass: 4, stiffness: 25, damping: 20, initialVelocity: 8), until: 4)
    checkAgainstODE(try SpringSolver(mass: 1, stiffness: 100, damping: 20, initialVelocity: -5), until: 2)
  }

  func testOverdampedMatchesNumericIntegration() throws {
    checkAgainstODE(try SpringSolver(mass: 1, stiffness: 100, damping: 50), until: 3)
    checkAgainstODE(try SpringSolver(mass: 1, stiffness: 100, damping: 25, initialVelocity: 40), until: 3)
    checkAgainstODE(try SpringSolver(mass: 0.5, stiffness: 10, damping: 30, initialVelocity: -2), until: 5)
    // Just either side of critical: the forms stay exact as ζ → 1.
    checkAgainstODE(try SpringSolver(mass: 1, stiffness: 100, damping: 20.000001), until: 2)
    checkAgainstODE(try SpringSolver(mass: 1, stiffness: 100, damping: 19.999999), until: 2)
  }

  func testStartsAtZeroWithTheInitialVelocity() throws {
    // "x(0) = 0" and "x'(0) = initialVelocity" in every regime.
    for (c, v0) in [(10.0, 0.0), (10, 7.5), (20, -3), (60, 12), (0, 2)] {
      let s = try SpringSolver(stiffness: 100, damping: c, initialVelocity: v0)
      XCTAssertEqual(s.progress(at: 0), 0)
      XCTAssertEqual(s.progress(at: -1), 0, "t < 0 is before the start")
      XCTAssertEqual(s.velocity(at: 0), v0, accuracy: 1e-12)
      let h = 1e-6
      XCTAssertEqual(s.progress(at: h) / h, v0, accuracy: 1e-3 + abs(v0) * 1e-4, "forward difference, c = \(c)")
      // The analytic velocity agrees with a central difference everywhere.
      for t in [0.05, 0.3, 1.1] {
        let fd = (s.progress(at: t + h) - s.progress(at: t - h)) / (2 * h)
        XCTAssertEqual(s.velocity(at: t), fd, accuracy: 1e-5, "c = \(c), t = \(t)")
      }
    }
  }

  func testApproachesOne() throws {
    for c in [10.0, 20, 60, 500] {
      let s = try SpringSolver(damping: c, initialVelocity: 4)
      XCTAssertEqual(s.progress(at: 300), 1, accuracy: 1e-9, "c = \(c)")
      XCTAssertEqual(s.progress(at: .infinity), 1)
    }
    // Heavily over-damped (roots r ≈ −1e-6·(1 + 1e-12) and −1e6): slow, but no overflow or
    // cancellation. The slow mode's weight is r2 / (r1 − r2) ≈ −(1 + 1e-12).
    let slow = try SpringSolver(stiffness: 1, damping: 1e6)
    XCTAssertEqual(slow.progress(at: 1), 1 - (1 + 1e-12) * exp(-1e-6 * (1 + 1e-12)), accuracy: 1e-16)
    XCTAssertTrue(slow.progress(at: 1e9).isFinite)
  }

  // MARK: settlingDuration

  /// "After settlingDuration, |1 − x(t)| stays below the threshold; just before, it is not."
  private func checkSettling(_ s: SpringSolver, file: StaticString = #filePath, line: UInt = #line) {
    let eps = SpringSolver.settlingThreshold
    let T = s.settlingDuration
    XCTAssertTrue(T.isFinite && T > 0, "\(s): \(T)", file: file, line: line)
    let period = s.perceptualDuration
    let span = max(T * 2, 10 * period)
    for i in 0...20_000 {
      let t = T + span * Double(i) / 20_000
      XCTAssertLessThan(abs(1 - s.progress(at: t)), eps * (1 + 1e-9), "\(s) at t = \(t)", file: file, line: line)
    }
    XCTAssertGreaterThanOrEqual(
      abs(1 - s.progress(at: T * (1 - 1e-9))), eps, "\(s) just before \(T)", file: file, line: line)
    // An independent dense scan from 0 finds the same last time at or above the threshold.
    let h = T / 50_000
    let lastAbove = (0...50_000).last { abs(1 - s.progress(at: Double($0) * h)) >= eps } ?? 0
    XCTAssertEqual(Double(lastAbove) * h, T, accuracy: h * 1.01, "\(s) dense scan", file: file, line: line)
  }

  func testSettlingDuration() throws {
    checkSettling(SpringSolver())
    checkSettling(try SpringSolver(mass: 1, stiffness: 100, damping: 20))
    checkSettling(try SpringSolver(mass: 1, stiffness: 100, damping: 20, initialVelocity: 30))
    checkSettling(try SpringSolver(mass: 1, stiffness: 100, damping: 50))
    checkSettling(try SpringSolver(mass: 1, stiffness: 100, damping: 50, initialVelocity: -20))
    checkSettling(try SpringSolver(mass: 1, stiffness: 100, damping: 1, initialVelocity: 10))
    checkSettling(try SpringSolver(mass: 3, stiffness: 40, damping: 19.999, initialVelocity: 0.5))
    // The default spring: the extrema of 1 − x shrink as e^(−5t) and reach 0.001 until ln(1000)/5
    // = 1.38 s; the last one before that (t ≈ 1.21 s) is followed by the crossing at ≈ 1.27 s.
    XCTAssertEqual(SpringSolver().settlingDuration, 1.27, accuracy: 0.01)
    XCTAssertLessThanOrEqual(SpringSolver().settlingDuration, log(1000) / 5)
  }

  func testSettlingDurationOnRandomSprings() throws {
    var rng = SeededRandom(seed: 42)
    for _ in 0..<60 {
      let s = try SpringSolver(
        mass: .random(in: 0.1...5, using: &rng), stiffness: .random(in: 5...800, using: &rng),
        damping: .random(in: 0.5...120, using: &rng), initialVelocity: .random(in: -30...30, using: &rng))
      checkSettling(s)
    }
  }

  func testSettlingDurationIsFiniteForEveryValidSpring() throws {
    // Damping 0 oscillates forever: the documented cap.
    let undamped = try SpringSolver(damping: 0)
    XCTAssertEqual(undamped.settlingDuration, SpringSolver.maximumSettlingDuration)
    let bounceOne = try SpringSolver(perceptualDuration: 1, bounce: 1)
    XCTAssertEqual(bounceOne.settlingDuration, SpringSolver.maximumSettlingDuration)
    for s in [
      try SpringSolver(mass: 1e-6, stiffness: 1e6, damping: 1e-3),
      try SpringSolver(mass: 1e6, stiffness: 1e-6, damping: 1e9),
      try SpringSolver(stiffness: 1, damping: 1e-9),
      try SpringSolver(stiffness: 1e9, damping: 1e9, initialVelocity: 1e9),
    ] {
      let t = s.settlingDuration
      XCTAssertTrue(t.isFinite && t > 0 && t <= SpringSolver.maximumSettlingDuration, "\(s): \(t)")
    }
    // A custom threshold: tighter settles later.
    let s = SpringSolver()
    XCTAssertLessThan(s.settlingDuration(threshold: 0.01), s.settlingDuration(threshold: 0.0001))
  }

  // MARK: Perceptual form

  func testPerceptualFormParameters() throws {
    // Apple's Spring documentation: duration 0.5, bounce 0.3 → mass 1, stiffness 157.9, damping 17.6.
    let s = try SpringSolver(perceptualDuration: 0.5, bounce: 0.3)
    XCTAssertEqual(s.mass, 1)
    XCTAssertEqual(s.stiffness, 157.9, accuracy: 0.05)
    XCTAssertEqual(s.damping, 17.6, accuracy: 0.05)
    XCTAssertEqual(s.stiffness, pow(2 * .pi / 0.5, 2), accuracy: 1e-9)
    XCTAssertEqual(s.damping, 4 * .pi * (1 - 0.3) / 0.5, accuracy: 1e-12)
    // And back: mass 1, stiffness 100, damping 10 → duration 0.63, bounce 0.5.
    let d = SpringSolver()
    XCTAssertEqual(d.perceptualDuration, 0.63, accuracy: 0.005)
    XCTAssertEqual(d.bounce, 0.5, accuracy: 1e-12)
    // Bounce 0 is critical; negative bounce is over-damped with damping 4π / (duration·(1 + bounce)).
    XCTAssertEqual(try SpringSolver(perceptualDuration: 0.8, bounce: 0).dampingRatio, 1, accuracy: 1e-12)
    let over = try SpringSolver(perceptualDuration: 0.8, bounce: -0.5)
    XCTAssertEqual(over.damping, 4 * .pi / (0.8 * 0.5), accuracy: 1e-12)
    XCTAssertEqual(over.dampingRatio, 2, accuracy: 1e-12)
    XCTAssertEqual(over.bounce, -0.5, accuracy: 1e-12)
    XCTAssertEqual(over.perceptualDuration, 0.8, accuracy: 1e-12)
  }

  // MARK: Errors

  func testErrorsNameTheField() {
    func error(_ make: () throws(SpringError) -> SpringSolver) -> SpringError? {
      do {
        _ = try make()
        return nil
      } catch { return error }
    }
    XCTAssertEqual(error { () throws(SpringError) in try SpringSolver(mass: 0) }, .notPositive(field: "mass", value: 0))
    XCTAssertEqual(error { () throws(SpringError) in try SpringSolver(mass: .nan) }, .nonFinite(field: "mass"))
    XCTAssertEqual(
      error { () throws(SpringError) in try SpringSolver(stiffness: -1) }, .notPositive(field: "stiffness", value: -1))
    XCTAssertEqual(
      error { () throws(SpringError) in try SpringSolver(stiffness: .infinity) }, .nonFinite(field: "stiffness"))
    XCTAssertEqual(
      error { () throws(SpringError) in try SpringSolver(damping: -0.5) }, .negative(field: "damping", value: -0.5))
    XCTAssertEqual(
      error { () throws(SpringError) in try SpringSolver(initialVelocity: .nan) }, .nonFinite(field: "initialVelocity"))
    XCTAssertEqual(
      error { () throws(SpringError) in try SpringSolver(perceptualDuration: 0, bounce: 0) },
      .notPositive(field: "perceptualDuration", value: 0))
    XCTAssertEqual(
      error { () throws(SpringError) in try SpringSolver(perceptualDuration: .nan, bounce: 0) },
      .nonFinite(field: "perceptualDuration"))
    XCTAssertEqual(
      error { () throws(SpringError) in try SpringSolver(perceptualDuration: 1, bounce: -1) },
      .outOfRange(field: "bounce", value: -1, allowed: "(-1, 1]"))
    XCTAssertEqual(
      error { () throws(SpringError) in try SpringSolver(perceptualDuration: 1, bounce: 1.5) },
      .outOfRange(field: "bounce", value: 1.5, allowed: "(-1, 1]"))
    if case .unrepresentable(let field, _)? = error({ () throws(SpringError) in
      try SpringSolver(mass: 1e-300, stiffness: 1e300)
    }) {
      XCTAssertEqual(field, "stiffness / mass")
    } else {
      XCTFail("an overflowing k/m must be refused")
    }
    XCTAssertEqual(
      SpringError.negative(field: "damping", value: -1).description, "spring damping must not be negative (is -1.0)")
  }
}
