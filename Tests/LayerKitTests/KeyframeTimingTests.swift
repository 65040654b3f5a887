import Foundation
import XCTest

@testable import LayerKit

/// Keyframe timing, quoting CAKeyframeAnimation's documented rules.
final class KeyframeTimingTests: XCTestCase {
  private func error(_ make: () throws(KeyframeError) -> Void) -> KeyframeError? {
    do {
      try make()
      return nil
    } catch { return error }
  }

  private func assertSegment(
    _ timing: KeyframeTiming, _ p: Double, _ index: Int, _ fraction: Double,
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let s = timing.segment(at: p)
    XCTAssertEqual(s.index, index, "index at \(p)", file: file, line: line)
    XCTAssertEqual(s.fraction, fraction, accuracy: 1e-12, "fraction at \(p)", file: file, line: line)
  }

  // MARK: Key times

  func testWithoutKeyTimesKeyframesAreEvenlySpaced() throws {
    // "Without keyTimes, key times are evenly spaced": 5 values, 4 segments of 0.25.
    let t = try KeyframeTiming(count: 5)
    XCTAssertEqual(t.keyTimes, [0, 0.25, 0.5, 0.75, 1])
    assertSegment(t, 0, 0, 0)
    assertSegment(t, 0.1, 0, 0.4)
    assertSegment(t, 0.25, 1, 0)
    assertSegment(t, 0.6, 2, 0.4)
    assertSegment(t, 1, 3, 1)
    // Outside [0, 1] clamps; NaN reads as 0; a single value is always (0, 0).
    assertSegment(t, -3, 0, 0)
    assertSegment(t, 7, 3, 1)
    assertSegment(t, .nan, 0, 0)
    assertSegment(try KeyframeTiming(count: 1), 0.7, 0, 0)
  }

  func testKeyTimesMapProgressOntoSegments() throws {
    // "Each value … defines the time point (a fraction of the duration) at which to apply the
    // corresponding keyframe value."
    let t = try KeyframeTiming(count: 4, keyTimes: [0, 0.1, 0.5, 1])
    assertSegment(t, 0.05, 0, 0.5)
    assertSegment(t, 0.1, 1, 0)
    assertSegment(t, 0.3, 1, 0.5)
    assertSegment(t, 0.75, 2, 0.5)
    assertSegment(t, 1, 2, 1)
    // "Each successive value must be greater than, or equal to, the previous": equal key times
    // are a jump to the later value.
    let jump = try KeyframeTiming(count: 4, keyTimes: [0, 0.5, 0.5, 1])
    assertSegment(jump, 0.49, 0, 0.98)
    assertSegment(jump, 0.5, 2, 0)
    // Cubic follows the same key times.
    XCTAssertEqual(try KeyframeTiming(count: 3, keyTimes: [0, 0.2, 1], calculationMode: .cubic).keyTimes, [0, 0.2, 1])
  }

  func testDiscreteStepsThroughTheValues() throws {
    // "Each value / keyTime pair represents the value from the specified time until the next
    // keyframe"; keyTimes has one more entry than values.
    let t = try KeyframeTiming(count: 3, keyTimes: [0, 0.25, 0.75, 1], calculationMode: .discrete)
    assertSegment(t, 0, 0, 0)
    assertSegment(t, 0.2499, 0, 0)
    assertSegment(t, 0.25, 1, 0)
    assertSegment(t, 0.7, 1, 0)
    assertSegment(t, 0.75, 2, 0)
    assertSegment(t, 1, 2, 0)
    // Without keyTimes each value holds for an equal share: 1/3 each.
    let even = try KeyframeTiming(count: 3, calculationMode: .discrete)
    XCTAssertEqual(even.keyTimes.count, 4)
    assertSegment(even, 0.3, 0, 0)
    assertSegment(even, 0.34, 1, 0)
    assertSegment(even, 0.67, 2, 0)
    assertSegment(even, 1, 2, 0)
    // As many key times as values (common in ported code): the last value holds to the end.
    let same = try KeyframeTiming(count: 3, keyTimes: [0, 0.5, 0.8], calculationMode: .discrete)
    assertSegment(same, 0.79, 1, 0)
    assertSegment(same, 0.9, 2, 0)
  }

  func testInvalidKeyTimesNameTheFieldAndIndex() {
    XCTAssertEqual(error { () throws(KeyframeError) in _ = try KeyframeTiming(count: 0) }, .emptyValues)
    // Wrong count ("the number of elements should match the number of values"; discrete: one more).
    XCTAssertEqual(
      error { () throws(KeyframeError) in _ = try KeyframeTiming(count: 3, keyTimes: [0, 1]) },
      .countMismatch(field: "keyTimes", expected: 3, actual: 2))
    XCTAssertEqual(
      error { () throws(KeyframeError) in
        _ = try KeyframeTiming(count: 2, keyTimes: [0, 0.2, 0.5, 1], calculationMode: .discrete)
      }, .countMismatch(field: "keyTimes", expected: 3, actual: 4))
    // Not monotonic.
    XCTAssertEqual(
      error { () throws(KeyframeError) in _ = try KeyframeTiming(count: 4, keyTimes: [0, 0.6, 0.4, 1]) },
      .notMonotonic(field: "keyTimes", index: 2))
    // Linear and cubic: "the first value must be 0.0 and the last value must be 1.0".
    XCTAssertEqual(
      error { () throws(KeyframeError) in _ = try KeyframeTiming(count: 3, keyTimes: [0.1, 0.5, 1]) },
      .firstNotZero(field: "keyTimes", value: 0.1))
    XCTAssertEqual(
      error { () throws(KeyframeError) in
        _ = try KeyframeTiming(count: 3, keyTimes: [0, 0.5, 0.9], calculationMode: .cubic)
      }, .lastNotOne(field: "keyTimes", index: 2, value: 0.9))
    XCTAssertEqual(
      error { () throws(KeyframeError) in
        _ = try KeyframeTiming(count: 2, keyTimes: [0.2, 0.5, 1], calculationMode: .discrete)
      }, .firstNotZero(field: "keyTimes", value: 0.2))
    // NaN and values outside [0, 1].
    XCTAssertEqual(
      error { () throws(KeyframeError) in _ = try KeyframeTiming(count: 3, keyTimes: [0, .nan, 1]) },
      .nonFinite(field: "keyTimes", index: 1))
    XCTAssertEqual(
      error { () throws(KeyframeError) in _ = try KeyframeTiming(count: 3, keyTimes: [0, 0.5, 1.5]) },
      .outOfRange(field: "keyTimes", index: 2, value: 1.5))
    // Paced modes ignore keyTimes ("keyTimes … are ignored"), but need the segment lengths.
    XCTAssertNil(
      error { () throws(KeyframeError) in
        _ = try KeyframeTiming(count: 3, keyTimes: [0.5, 0.1], calculationMode: .paced, segmentLengths: [1, 1])
      })
    XCTAssertEqual(
      error { () throws(KeyframeError) in _ = try KeyframeTiming(count: 3, calculationMode: .paced) },
      .missing(field: "segmentLengths"))
    XCTAssertEqual(
      error { () throws(KeyframeError) in
        _ = try KeyframeTiming(count: 3, calculationMode: .cubicPaced, segmentLengths: [1])
      }, .countMismatch(field: "segmentLengths", expected: 2, actual: 1))
    XCTAssertEqual(
      error { () throws(KeyframeError) in
        _ = try KeyframeTiming(count: 3, calculationMode: .paced, segmentLengths: [1, -2])
      }, .negative(field: "segmentLengths", index: 1, value: -2))
    XCTAssertEqual(
      error { () throws(KeyframeError) in
        _ = try KeyframeTiming(count: 3, calculationMode: .paced, segmentLengths: [.infinity, 1])
      }, .nonFinite(field: "segmentLengths", index: 0))
    XCTAssertEqual(
      error { () throws(KeyframeError) in
        try KeyframeTiming.validateCubicParameters([0, .nan], field: "tensionValues", count: 2)
      }, .nonFinite(field: "tensionValues", index: 1))
    XCTAssertEqual(
      error { () throws(KeyframeError) in
        try KeyframeTiming.validateCubicParameters([0], field: "biasValues", count: 2)
      }, .countMismatch(field: "biasValues", expected: 2, actual: 1))
    XCTAssertEqual(
      KeyframeError.notMonotonic(field: "keyTimes", index: 2).description, "keyTimes[2] is smaller than keyTimes[1]")
  }

  // MARK: Paced

  func testPacedGivesEqualDistancePerUnitTime() throws {
    // "keyframe times are automatically generated to give the animation a constant velocity":
    // an L-shaped polyline (0,0) → (30,0) → (30,10), 40 long.
    let points = [Point(x: 0, y: 0), Point(x: 30, y: 0), Point(x: 30, y: 10)]
    let lengths = zip(points, points.dropFirst()).map { Double(hypot($1.x - $0.x, $1.y - $0.y)) }
    let t = try KeyframeTiming(count: 3, calculationMode: .paced, segmentLengths: lengths)
    XCTAssertEqual(t.keyTimes, [0, 0.75, 1])
    func position(_ p: Double) -> Point {
      let (i, f) = t.segment(at: p)
      return Point(
        x: points[i].x + (points[i + 1].x - points[i].x) * f, y: points[i].y + (points[i + 1].y - points[i].y) * f)
    }
    // Distance along the polyline travelled per step of progress is always 40 · Δp.
    func travelled(_ q: Point) -> Double { q.y == 0 ? q.x : 30 + q.y }
    let n = 400
    for k in 0..<n {
      let (p0, p1) = (Double(k) / Double(n), Double(k + 1) / Double(n))
      XCTAssertEqual(travelled(position(p1)) - travelled(position(p0)), 40 / Double(n), accuracy: 1e-9, "at \(p0)")
    }
    // All lengths zero: evenly spaced rather than 0/0.
    XCTAssertEqual(
      try KeyframeTiming(count: 3, calculationMode: .cubicPaced, segmentLengths: [0, 0]).keyTimes, [0, 0.5, 1])
  }

  // MARK: Cubic

  func testCatmullRomPassesThroughKeyframesAndIsC1() {
    let values = [0.0, 3, -1, 4, 2]
    func curve(_ seg: Int, _ f: Double) -> Double {
      let (a, b, c, d) = KeyframeTiming.cubicNeighbors(ofSegment: seg, count: values.count)
      return KeyframeTiming.hermite(p0: values[a], p1: values[b], p2: values[c], p3: values[d], fraction: f)
    }
    // Passes through every keyframe.
    for seg in 0..<4 {
      XCTAssertEqual(curve(seg, 0), values[seg], accuracy: 1e-15)
      XCTAssertEqual(curve(seg, 1), values[seg + 1], accuracy: 1e-15)
    }
    // C1 at interior keyframes: the slope arriving equals the slope leaving, (p[i+1] − p[i−1]) / 2.
    let h = 1e-6
    for k in 1..<4 {
      let arriving = (curve(k - 1, 1) - curve(k - 1, 1 - h)) / h
      let leaving = (curve(k, h) - curve(k, 0)) / h
      XCTAssertEqual(arriving, leaving, accuracy: 1e-4, "at keyframe \(k)")
      XCTAssertEqual(leaving, (values[k + 1] - values[k - 1]) / 2, accuracy: 1e-4)
    }
    // End points duplicated: the first tangent is (p1 − p0) / 2.
    XCTAssertEqual(KeyframeTiming.cubicNeighbors(ofSegment: 0, count: 5).0, 0)
    XCTAssertEqual(KeyframeTiming.cubicNeighbors(ofSegment: 3, count: 5).3, 4)
    XCTAssertEqual((curve(0, h) - curve(0, 0)) / h, (values[1] - values[0]) / 2, accuracy: 1e-4)
    // Two values: a single segment with both ends duplicated is a smoothstep-like ease.
    XCTAssertEqual(KeyframeTiming.hermite(p0: 0, p1: 0, p2: 1, p3: 1, fraction: 0.5), 0.5, accuracy: 1e-15)
  }

  func testTensionContinuityAndBiasChangeTheCurve() {
    let (p0, p1, p2, p3) = (0.0, 1.0, 3.0, 2.0)
    let base = KeyframeTiming.hermite(p0: p0, p1: p1, p2: p2, p3: p3, fraction: 0.3)
    // Tension 1: zero tangents, the plain cubic ease between p1 and p2 (3s² − 2s³).
    let tight = KeyframeTiming.hermite(p0: p0, p1: p1, p2: p2, p3: p3, fraction: 0.3, tension: 1)
    XCTAssertEqual(tight, p1 + (p2 - p1) * (3 * 0.09 - 2 * 0.027), accuracy: 1e-15)
    XCTAssertNotEqual(tight, base)
    // Bias and continuity move it too, and each keeps the end points.
    for (t, c, b) in [(0.0, 0.0, 0.5), (0, 0.7, 0), (-0.5, 0, 0), (0.3, -0.4, 0.2)] {
      let v = KeyframeTiming.hermite(
        p0: p0, p1: p1, p2: p2, p3: p3, fraction: 0.3, tension: t, continuity: c, bias: b)
      XCTAssertNotEqual(v, base, accuracy: 1e-6, "t \(t) c \(c) b \(b)")
      for f in [0.0, 1.0] {
        XCTAssertEqual(
          KeyframeTiming.hermite(p0: p0, p1: p1, p2: p2, p3: p3, fraction: f, tension: t, continuity: c, bias: b),
          f == 0 ? p1 : p2, accuracy: 1e-15)
      }
    }
    // Continuity ≠ 0 breaks C1 at the keyframe: the arriving and leaving tangents differ.
    let values = [0.0, 2, 1]
    let corner = KeyframeTiming.CubicParameters(continuity: 0.8)
    let h = 1e-6
    let arrive =
      (KeyframeTiming.hermite(p0: 0, p1: 0, p2: 2, p3: 1, fraction: 1, start: .catmullRom, end: corner)
        - KeyframeTiming.hermite(p0: 0, p1: 0, p2: 2, p3: 1, fraction: 1 - h, start: .catmullRom, end: corner)) / h
    let leave =
      (KeyframeTiming.hermite(p0: 0, p1: 2, p2: 1, p3: 1, fraction: h, start: corner, end: .catmullRom)
        - KeyframeTiming.hermite(p0: 0, p1: 2, p2: 1, p3: 1, fraction: 0, start: corner, end: .catmullRom)) / h
    XCTAssertGreaterThan(abs(arrive - leave), 0.5, "\(values)")
  }

  // MARK: Path sampler

  func testRectPathIsSampledAtConstantSpeed() throws {
    let sampler = try PathSampler(path: Path(rect: Rect(x: 10, y: 20, width: 100, height: 50)))
    XCTAssertEqual(sampler.length, 300, accuracy: 1e-12)
    XCTAssertEqual(sampler.segmentCount, 4)
    XCTAssertEqual(sampler.keyframeCount, 5)
    XCTAssertEqual(sampler.segmentLengths, [100, 50, 100, 50])
    // Distance along the perimeter is 300 · fraction.
    func expected(_ d: Double) -> Point {
      switch d {
      case ..<100: Point(x: 10 + d, y: 20)
      case ..<150: Point(x: 110, y: 20 + d - 100)
      case ..<250: Point(x: 110 - (d - 150), y: 70)
      default: Point(x: 10, y: 70 - (d - 250))
      }
    }
    for k in 0...600 {
      let f = Double(k) / 600
      let p = sampler.point(atArcFraction: f)
      let e = expected(300 * f)
      XCTAssertEqual(p.x, e.x, accuracy: 1e-9, "at \(f)")
      XCTAssertEqual(p.y, e.y, accuracy: 1e-9, "at \(f)")
    }
    // Linear mode: each element is a keyframe segment; the fraction is the element's parameter.
    XCTAssertEqual(sampler.point(segment: 1, fraction: 0.5), Point(x: 110, y: 45))
    XCTAssertEqual(sampler.keyframePoints.first, Point(x: 10, y: 20))
    XCTAssertEqual(sampler.keyframePoints.last, Point(x: 10, y: 20))
  }

  func testTangentAnglesOnEachSideOfARect() throws {
    // rotationMode auto: the z rotation follows the tangent. y grows down, so going down is +π/2.
    let sampler = try PathSampler(path: Path(rect: Rect(x: 0, y: 0, width: 100, height: 50)))
    XCTAssertEqual(sampler.tangentAngle(atArcFraction: 50 / 300.0), 0, accuracy: 1e-12)  // top, →
    XCTAssertEqual(sampler.tangentAngle(atArcFraction: 125 / 300.0), .pi / 2, accuracy: 1e-12)  // right, ↓
    XCTAssertEqual(abs(sampler.tangentAngle(atArcFraction: 200 / 300.0)), .pi, accuracy: 1e-12)  // bottom, ←
    XCTAssertEqual(sampler.tangentAngle(atArcFraction: 275 / 300.0), -.pi / 2, accuracy: 1e-12)  // left, ↑
    // autoReverse adds π.
    XCTAssertEqual(sampler.tangentAngle(atArcFraction: 0.1, reversed: true), .pi, accuracy: 1e-12)
    XCTAssertEqual(sampler.tangentAngle(segment: 1, fraction: 0.3), .pi / 2, accuracy: 1e-12)
  }

  func testQuarterCircleTangentAndArcLength() throws {
    // A quarter circle of radius 100 about the origin from (100, 0) to (0, 100) as one cubic
    // (control points at 0.5523·r along the tangents), within the approximation's 2.7e-4·r.
    let r = 100.0
    let k = 0.552_284_749_831 * r
    var path = Path()
    path.move(to: Point(x: r, y: 0))
    path.addCurve(to: Point(x: 0, y: r), control1: Point(x: r, y: k), control2: Point(x: k, y: r))
    let sampler = try PathSampler(path: path)
    XCTAssertEqual(sampler.length, .pi / 2 * r, accuracy: 0.03)
    for i in 0...20 {
      let f = Double(i) / 20
      let theta = f * .pi / 2
      let p = sampler.point(atArcFraction: f)
      // At arc fraction f the point is at angle f·π/2 and the tangent is that angle + π/2.
      XCTAssertEqual(atan2(p.y, p.x), theta, accuracy: 1e-3, "position at \(f)")
      XCTAssertEqual(hypot(p.x, p.y), r, accuracy: 0.03)
      // The one-cubic circle's own tangent strays up to ~1.2e-3 rad from the circle's.
      XCTAssertEqual(sampler.tangentAngle(atArcFraction: f), theta + .pi / 2, accuracy: 2e-3, "tangent at \(f)")
      // And exactly the direction of travel of the sampled points themselves.
      let (a, b) = (sampler.point(atArcFraction: max(f - 1e-6, 0)), sampler.point(atArcFraction: min(f + 1e-6, 1)))
      XCTAssertEqual(
        sampler.tangentAngle(atArcFraction: f), atan2(b.y - a.y, b.x - a.x), accuracy: 1e-6, "chord at \(f)")
    }
    // Arc fractions are exact in the curve's own length: equal steps of fraction are equal chords.
    let chords = (0..<50).map { i -> Double in
      let (a, b) = (sampler.point(atArcFraction: Double(i) / 50), sampler.point(atArcFraction: Double(i + 1) / 50))
      return hypot(b.x - a.x, b.y - a.y)
    }
    XCTAssertEqual(chords.max()! - chords.min()!, 0, accuracy: 1e-6 * r)
  }

  func testPathEdgeCases() throws {
    XCTAssertEqual(error { () throws(KeyframeError) in _ = try PathSampler(path: Path()) }, .emptyPath)
    XCTAssertEqual(
      error { () throws(KeyframeError) in
        _ = try PathSampler(path: Path(elements: [.move(to: .zero), .line(to: Point(x: Double.nan, y: 0))]))
      }, .nonFinite(field: "path", index: 1))
    // Only a move: one keyframe, no length, the layer stays put.
    let still = try PathSampler(path: Path(elements: [.move(to: Point(x: 5, y: 6))]))
    XCTAssertEqual(still.keyframeCount, 1)
    XCTAssertEqual(still.point(atArcFraction: 0.5), Point(x: 5, y: 6))
    XCTAssertEqual(still.tangentAngle(atArcFraction: 0.5), 0)
    // A rounded rect ends with a curve back to the start: its zero-length close is no segment.
    let rounded = try PathSampler(path: Path(roundedRect: Rect(x: 0, y: 0, width: 100, height: 60), cornerRadius: 10))
    XCTAssertEqual(rounded.segmentCount, 8)
    // A cubic whose first control point sits on its start has a zero derivative there; the
    // direction is still the limit direction, towards the second control point.
    var cusp = Path()
    cusp.move(to: .zero)
    cusp.addCurve(to: Point(x: 10, y: 10), control1: .zero, control2: Point(x: 0, y: 10))
    XCTAssertEqual(try PathSampler(path: cusp).tangentAngle(atArcFraction: 0), .pi / 2, accuracy: 1e-3)
    // Two subpaths: the jump between them takes no arc length.
    var two = Path()
    two.move(to: .zero)
    two.addLine(to: Point(x: 10, y: 0))
    two.move(to: Point(x: 0, y: 50))
    two.addLine(to: Point(x: 0, y: 60))
    let jumpy = try PathSampler(path: two)
    XCTAssertEqual(jumpy.length, 20)
    XCTAssertEqual(jumpy.point(atArcFraction: 0.75), Point(x: 0, y: 55))
    XCTAssertEqual(jumpy.keyframePoints, [.zero, Point(x: 0, y: 50), Point(x: 0, y: 60)])
    // Paced key times from a path's segment lengths.
    let timing = try KeyframeTiming(
      count: jumpy.keyframeCount, calculationMode: .paced, segmentLengths: jumpy.segmentLengths)
    XCTAssertEqual(timing.keyTimes, [0, 0.5, 1])
  }
}
