import Foundation
import LayerKit
import XCTest

/// Timing functions: "cubic Bézier from (0,0) to (1,1) with two control points, evaluated by
/// solving x(s) = t for s and returning y(s) (to 1e-6)". Expected values come from the Bernstein
/// form evaluated here, not from the solver under test.
final class MediaTimingFunctionTests: XCTestCase {
  /// B(s) = 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³ (p0 = 0, p3 = 1), the Bernstein form.
  static func bernstein(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
    let u = 1 - s
    return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
  }

  /// y at x by brute force: sample the curve at 200 000 parameter steps, find the samples that
  /// bracket x (x(s) is non-decreasing) and interpolate linearly between them.
  struct DenseCurve {
    var xs: [Double] = []
    var ys: [Double] = []

    init(_ f: MediaTimingFunction) {
      let n = 200_000
      xs.reserveCapacity(n + 1)
      ys.reserveCapacity(n + 1)
      for i in 0...n {
        let s = Double(i) / Double(n)
        xs.append(bernstein(s, f.c1x, f.c2x))
        ys.append(bernstein(s, f.c1y, f.c2y))
      }
    }

    func y(at x: Double) -> Double {
      var lo = 0
      var hi = xs.count - 1
      while hi - lo > 1 {
        let mid = (lo + hi) / 2
        if xs[mid] <= x { lo = mid } else { hi = mid }
      }
      let span = xs[hi] - xs[lo]
      let w = span > 0 ? (x - xs[lo]) / span : 0
      return ys[lo] + w * (ys[hi] - ys[lo])
    }
  }

  static let named: [(String, MediaTimingFunction)] = [
    ("linear", .linear), ("easeIn", .easeIn), ("easeOut", .easeOut), ("easeInEaseOut", .easeInEaseOut),
    ("default", .default),
  ]

  func testNamedControlPointsAreCoreAnimations() throws {
    // Core Animation's control points: linear (0,0,1,1), easeIn (0.42,0,1,1), easeOut (0,0,0.58,1),
    // easeInEaseOut (0.42,0,0.58,1), default (0.25,0.1,0.25,1).
    let expected: [MediaTimingFunction.Name: [Double]] = [
      .linear: [0, 0, 1, 1], .easeIn: [0.42, 0, 1, 1], .easeOut: [0, 0, 0.58, 1],
      .easeInEaseOut: [0.42, 0, 0.58, 1], .default: [0.25, 0.1, 0.25, 1],
    ]
    for name in MediaTimingFunction.Name.allCases {
      let f = MediaTimingFunction(name: name)
      XCTAssertEqual([f.c1x, f.c1y, f.c2x, f.c2y], expected[name], name.rawValue)
      let p = try XCTUnwrap(expected[name])
      XCTAssertEqual(f, try MediaTimingFunction(checkedControlPoints: p[0], p[1], p[2], p[3]), name.rawValue)
    }
  }

  func testControlPoints() throws {
    // getControlPointAtIndex: 0 is (0,0), 3 is (1,1), 1 and 2 are the control points.
    let f = try MediaTimingFunction(checkedControlPoints: 0.1, 0.2, 0.3, 0.4)
    XCTAssertEqual(f.controlPoint(at: 0), Point(x: 0, y: 0))
    XCTAssertEqual(f.controlPoint(at: 1), Point(x: 0.1, y: 0.2))
    XCTAssertEqual(f.controlPoint(at: 2), Point(x: 0.3, y: 0.4))
    XCTAssertEqual(f.controlPoint(at: 3), Point(x: 1, y: 1))
  }

  func testEndpointsAreExactAndInputsClamp() throws {
    // The curve runs from (0,0) to (1,1): the ends are exact, and inputs outside [0, 1] clamp.
    let custom = try MediaTimingFunction(checkedControlPoints: 0.3, -0.6, 0.7, 1.8)
    for (name, f) in Self.named + [("overshoot", custom)] {
      XCTAssertEqual(f.value(at: 0), 0, name)
      XCTAssertEqual(f.value(at: 1), 1, name)
      XCTAssertEqual(f.value(at: -0.5), 0, name)
      XCTAssertEqual(f.value(at: 7), 1, name)
    }
  }

  func testLinearIsTheIdentity() {
    // linear (0,0,1,1): "value(at: x) is x", exactly.
    for i in 0...1000 {
      let x = Double(i) / 1000
      XCTAssertEqual(MediaTimingFunction.linear.value(at: x), x)
    }
  }

  func testHandComputedPoints() throws {
    // At s = 1/2 the Bernstein weights are 1/8, 3/8, 3/8, 1/8, so x(½) and y(½) are exact sums:
    //   easeIn:        x = 3/8·0.42 + 3/8·1 + 1/8 = 0.6575,  y = 3/8 + 1/8 = 0.5
    //   easeOut:       x = 3/8·0.58 + 1/8     = 0.3425,  y = 0.5
    //   easeInEaseOut: x = 3/8·(0.42+0.58) + 1/8 = 0.5,  y = 0.5
    //   default:       x = 3/8·0.5 + 1/8      = 0.3125,  y = 3/8·1.1 + 1/8 = 0.5375
    let rows: [(MediaTimingFunction, Double, Double)] = [
      (.easeIn, 0.6575, 0.5), (.easeOut, 0.3425, 0.5), (.easeInEaseOut, 0.5, 0.5), (.default, 0.3125, 0.5375),
    ]
    for (f, x, y) in rows { XCTAssertEqual(f.value(at: x), y, accuracy: 1e-12, "\(f) at \(x)") }
  }

  func testValuesAgainstDenseSampling() throws {
    // "evaluated by solving x(s) = t for s and returning y(s) (to 1e-6)".
    let customs = [
      try MediaTimingFunction(checkedControlPoints: 0.34, 1.56, 0.64, 1),  // overshoots above 1
      try MediaTimingFunction(checkedControlPoints: 0.6, -0.28, 0.735, 0.045),  // dips below 0
      try MediaTimingFunction(checkedControlPoints: 0, 1, 0, 1),  // x(s) = s³: flat start
      try MediaTimingFunction(checkedControlPoints: 1, 0, 1, 0),  // x flat at the end
      try MediaTimingFunction(checkedControlPoints: 0.5, 0.5, 0.5, 0.5),
    ]
    let xs = [0.001, 0.01, 0.05, 0.1, 0.2, 0.25, 1.0 / 3, 0.4, 0.5, 0.6, 0.75, 0.8, 0.9, 0.95, 0.99, 0.999]
    for f in Self.named.map(\.1) + customs {
      let reference = DenseCurve(f)
      for x in xs {
        XCTAssertEqual(f.value(at: x), reference.y(at: x), accuracy: 1e-6, "\(f) at \(x)")
      }
    }
  }

  func testFlatStartAgainstClosedForm() throws {
    // (0,1,0,1): x(s) = s³ and y(s) = 1 − (1−s)³, so y(x) = 1 − (1 − ∛x)³ exactly. x′(0) = 0 makes
    // this the hard case for a solver that stops on a loose x tolerance.
    let f = try MediaTimingFunction(checkedControlPoints: 0, 1, 0, 1)
    for x in [1e-9, 1e-6, 1e-4, 0.001, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999] {
      XCTAssertEqual(f.value(at: x), 1 - pow(1 - cbrt(x), 3), accuracy: 1e-9, "at \(x)")
    }
  }

  func testRoundTripThroughTheCurve() throws {
    // For every s, value(at: x(s)) = y(s): the solver finds the parameter the curve was sampled at.
    let functions = Self.named.map(\.1) + [try MediaTimingFunction(checkedControlPoints: 0.34, 1.56, 0.64, 1)]
    for f in functions {
      for i in 1..<500 {
        let s = Double(i) / 500
        let x = Self.bernstein(s, f.c1x, f.c2x)
        XCTAssertEqual(f.value(at: x), Self.bernstein(s, f.c1y, f.c2y), accuracy: 1e-9, "\(f) at s=\(s)")
      }
    }
  }

  func testNamedFunctionsAreMonotonic() {
    // All five named curves have control-point y in [0, 1] and so never move backwards.
    for (name, f) in Self.named {
      var previous = f.value(at: 0)
      for i in 1...10_000 {
        let v = f.value(at: Double(i) / 10_000)
        XCTAssertGreaterThanOrEqual(v, previous, "\(name) decreases at \(Double(i) / 10_000)")
        previous = v
      }
    }
  }

  func testEaseInAndEaseOutAreMirrorImages() {
    // easeOut's control points are easeIn's rotated half a turn about (½, ½):
    // (0.42, 0) ↔ (0.58, 1), (1, 1) ↔ (0, 0); so easeIn(x) = 1 − easeOut(1 − x), and
    // easeInEaseOut is its own mirror.
    for i in 0...200 {
      let x = Double(i) / 200
      XCTAssertEqual(
        MediaTimingFunction.easeIn.value(at: x), 1 - MediaTimingFunction.easeOut.value(at: 1 - x), accuracy: 1e-9)
      XCTAssertEqual(
        MediaTimingFunction.easeInEaseOut.value(at: x), 1 - MediaTimingFunction.easeInEaseOut.value(at: 1 - x),
        accuracy: 1e-9)
    }
  }

  func testInvalidControlPointsNameTheField() {
    let owner = "MediaTimingFunction"
    let rows: [([Double], TimingError)] = [
      ([1.5, 0, 0.5, 1], .outOfRange(owner: owner, field: "c1x", value: 1.5, range: 0...1)),
      ([0.5, 0, -0.1, 1], .outOfRange(owner: owner, field: "c2x", value: -0.1, range: 0...1)),
      ([.nan, 0, 0.5, 1], .nonFinite(owner: owner, field: "c1x")),
      ([0.5, .nan, 0.5, 1], .nonFinite(owner: owner, field: "c1y")),
      ([0.5, 0, .infinity, 1], .nonFinite(owner: owner, field: "c2x")),
      ([0.5, 0, 0.5, -.infinity], .nonFinite(owner: owner, field: "c2y")),
    ]
    for (p, expected) in rows {
      XCTAssertThrowsError(try MediaTimingFunction(checkedControlPoints: p[0], p[1], p[2], p[3]), "\(p)") { error in
        XCTAssertEqual(error as? TimingError, expected)
      }
    }
    // y may leave [0, 1] (overshoot); x may touch both ends.
    XCTAssertNoThrow(try MediaTimingFunction(checkedControlPoints: 0, -2, 1, 3))
    XCTAssertEqual(
      TimingError.outOfRange(owner: owner, field: "c1x", value: 1.5, range: 0...1).description,
      "MediaTimingFunction: c1x must lie in [0.0, 1.0] (got 1.5)")
  }
}
