import Foundation
import LayerKit
import XCTest

/// Keyframe calculation modes through values (cubicPaced) and along a path, quoting
/// CAKeyframeAnimation's and CAAnimationCalculationMode's documentation.
final class KeyframeModesTests: XCTestCase {
  /// A keyframe animation of `position` from t = 1 to t = 2 (progress = t − 1), holding its
  /// last value after the end so that progress 1 can be read.
  private func animation(_ configure: (KeyframeAnimation) -> Void) throws -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    let k = KeyframeAnimation(keyPath: "position")
    k.duration = 1
    k.beginTime = 1
    k.fillMode = .forwards
    k.isRemovedOnCompletion = false
    configure(k)
    try l.addChecked(k, forKey: "k")
    return l
  }

  private func position(_ l: Layer, _ progress: Double) -> Point { l.presentation(at: 1 + progress).position }

  private func assertPoint(
    _ p: Point, _ x: Double, _ y: Double, accuracy: Double = 1e-9, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(p.x, x, accuracy: accuracy, "x \(message)", file: file, line: line)
    XCTAssertEqual(p.y, y, accuracy: accuracy, "y \(message)", file: file, line: line)
  }

  // MARK: cubicPaced

  /// A curved set of four points whose Catmull–Rom segments have very different lengths and
  /// speeds, so neither chord pacing nor the spline's own parameter gives constant speed.
  private let curved = [Point(x: 0, y: 0), Point(x: 200, y: 0), Point(x: 220, y: 120), Point(x: 60, y: 80)]

  /// The Catmull–Rom curve through `curved`, sampled densely with the scalar reference spline
  /// (`KeyframeTiming.hermite`, component by component), independently of the track: points and
  /// the arc length from the start to each of them.
  private func referenceCurve(samplesPerSegment m: Int = 20_000) -> (points: [Point], arc: [Double]) {
    var points: [Point] = []
    var arc: [Double] = []
    for seg in 0..<(curved.count - 1) {
      let (a, b, c, d) = KeyframeTiming.cubicNeighbors(ofSegment: seg, count: curved.count)
      for k in (seg == 0 ? 0 : 1)...m {
        let s = Double(k) / Double(m)
        let p = Point(
          x: KeyframeTiming.hermite(p0: curved[a].x, p1: curved[b].x, p2: curved[c].x, p3: curved[d].x, fraction: s),
          y: KeyframeTiming.hermite(p0: curved[a].y, p1: curved[b].y, p2: curved[c].y, p3: curved[d].y, fraction: s))
        arc.append(points.last.map { arc[arc.count - 1] + $0.distance(to: p) } ?? 0)
        points.append(p)
      }
    }
    return (points, arc)
  }

  /// The arc length along the reference curve to its point nearest `p`, projected onto the
  /// polyline edges beside that sample.
  private func arcPosition(of p: Point, on curve: (points: [Point], arc: [Double])) -> (arc: Double, miss: Double) {
    let (points, arc) = curve
    var best = 0
    for i in points.indices where points[i].distance(to: p) < points[best].distance(to: p) { best = i }
    var result = (arc: arc[best], miss: points[best].distance(to: p))
    for (i, j) in [(best - 1, best), (best, best + 1)] where i >= 0 && j < points.count {
      let (a, b) = (points[i], points[j])
      let (ex, ey) = (b.x - a.x, b.y - a.y)
      let len2 = ex * ex + ey * ey
      guard len2 > 0 else { continue }
      let u = min(max(((p.x - a.x) * ex + (p.y - a.y) * ey) / len2, 0), 1)
      let q = Point(x: a.x + ex * u, y: a.y + ey * u)
      if q.distance(to: p) <= result.miss { result = (arc[i] + u * (arc[j] - arc[i]), q.distance(to: p)) }
    }
    return result
  }

  func testCubicPacedMovesEqualArcLengthPerUnitTime() throws {
    // cubicPaced: "Cubic keyframe values are interpolated to produce an even pace throughout the
    // animation" — keyframe times are "automatically generated to give the animation a constant
    // velocity". Along the spline, so equal times cover equal arc lengths of the curve, measured
    // here on an independent dense sampling of it.
    let l = try animation {
      $0.values = curved
      $0.calculationMode = .cubicPaced
    }
    let curve = referenceCurve()
    let total = curve.arc[curve.arc.count - 1]
    let steps = 40
    var previous = 0.0
    for j in 1...steps {
      let (s, miss) = arcPosition(of: position(l, Double(j) / Double(steps)), on: curve)
      XCTAssertLessThan(miss, 1e-3, "on the curve at step \(j)")
      XCTAssertEqual(s - previous, total / Double(steps), accuracy: 1e-3 * total / Double(steps), "step \(j)")
      previous = s
    }
    XCTAssertEqual(previous, total, accuracy: 1e-9)
  }

  func testCubicPacedPassesThroughEveryKeyframe() throws {
    // The spline interpolates the values: each keyframe value is reached, at the time its arc
    // length along the curve says (constant speed), measured independently.
    let l = try animation {
      $0.values = curved
      $0.calculationMode = .cubicPaced
    }
    let curve = referenceCurve()
    let m = 20_000
    let total = curve.arc[curve.arc.count - 1]
    for (k, value) in curved.enumerated() {
      let t = curve.arc[k * m] / total
      assertPoint(position(l, t), value.x, value.y, accuracy: 1e-3, "keyframe \(k) at progress \(t)")
    }
    assertPoint(position(l, 0), 0, 0, "the first value exactly")
    assertPoint(position(l, 1), 60, 80, "the last value exactly")
  }

  func testCubicPacedIgnoresKeyTimesAndTimingFunctions() throws {
    // "keyTimes and timingFunction are ignored" in the paced modes.
    let plain = try animation {
      $0.values = curved
      $0.calculationMode = .cubicPaced
    }
    let timed = try animation {
      $0.values = curved
      $0.calculationMode = .cubicPaced
      $0.keyTimes = [0, 0.9, 0.95, 1]
      $0.timingFunctions = [.easeIn, .easeOut, .easeInEaseOut]
    }
    for p in stride(from: 0.0, through: 1, by: 0.125) {
      let (a, b) = (position(plain, p), position(timed, p))
      assertPoint(b, a.x, a.y, accuracy: 0, "at \(p)")
    }
  }

  func testCubicPacedOnScalarsPassesThroughValues() throws {
    // A scalar spline, measured in the scalar's own distance.
    let l = Layer()
    let k = KeyframeAnimation(keyPath: "opacity")
    k.values = [0.0, 1.0]
    k.calculationMode = .cubicPaced
    k.duration = 1
    k.beginTime = 1
    k.fillMode = .forwards
    k.isRemovedOnCompletion = false
    try l.addChecked(k, forKey: "o")
    // Two values, ends repeated: the Catmull–Rom segment is −s³ + 1.5s² + 0.5s, which is not
    // linear in s but is monotonic, so its arc length is its value: at constant speed the
    // opacity rises linearly in time.
    for p in stride(from: 0.0, through: 1, by: 0.1) {
      XCTAssertEqual(l.presentation(at: 1 + p).opacity, p, accuracy: 1e-4, "at \(p)")
    }
  }

  func testCubicParameterArraysAreValidated() {
    // Tension, continuity and bias are per keyframe: one number each.
    let l = Layer()
    let k = KeyframeAnimation(keyPath: "position.x")
    k.values = [0.0, 10.0, 20.0]
    k.calculationMode = .cubicPaced
    k.tensionValues = [0, 0]
    XCTAssertThrowsError(try l.addChecked(k, forKey: nil)) {
      XCTAssertEqual(
        $0 as? AnimationError,
        .invalidKeyframes(keyPath: "position.x", .countMismatch(field: "tensionValues", expected: 3, actual: 2)))
    }
  }

  // MARK: Paths, element by element

  /// move (0, 0), a line to (100, 0), a quadratic curve to (100, 100) bulging to x = 150.
  private var lineThenQuad: Path {
    var p = Path()
    p.move(to: Point(x: 0, y: 0))
    p.addLine(to: Point(x: 100, y: 0))
    p.addQuadCurve(to: Point(x: 100, y: 100), control: Point(x: 150, y: 50))
    return p
  }

  func testPathLinearAppliesKeyTimesPerElement() throws {
    // path: "The end point of a line-to or curve-to segment defines the keyframe value", and
    // timing values "are applied to the points used to create the path": keyTimes [0, 0.1, 1]
    // give the line the first 10 % of the duration and the curve the rest.
    let l = try animation {
      $0.pathValue = lineThenQuad
      $0.keyTimes = [0, 0.1, 1]
    }
    assertPoint(position(l, 0.1), 100, 0, "the first element's end at 10 %")
    assertPoint(position(l, 0.05), 50, 0, "halfway along the line")
    // Halfway through the curve's time, its parameter is 0.5: (a + 2c + b) / 4.
    assertPoint(position(l, 0.55), 125, 50, "the curve's midpoint")
    assertPoint(position(l, 1), 100, 100)
    // Without keyTimes the elements share the time equally.
    let even = try animation { $0.pathValue = lineThenQuad }
    assertPoint(position(even, 0.5), 100, 0, "evenly spaced")
    assertPoint(position(even, 0.25), 50, 0)
  }

  func testPathTimingFunctionsApplyPerElement() throws {
    // timingFunctions: one per keyframe segment, here per path element.
    let l = try animation {
      $0.pathValue = lineThenQuad
      $0.timingFunctions = [.easeIn, .linear]
    }
    assertPoint(position(l, 0.25), 100 * MediaTimingFunction.easeIn.value(at: 0.5), 0, accuracy: 1e-9)
    assertPoint(position(l, 0.75), 125, 50)
  }

  func testPathCubicModeTimesElementsLikeLinear() throws {
    // The path's own elements are the curve; cubic mode keeps the per-element timing.
    let l = try animation {
      $0.pathValue = lineThenQuad
      $0.keyTimes = [0, 0.1, 1]
      $0.calculationMode = .cubic
    }
    assertPoint(position(l, 0.1), 100, 0)
    assertPoint(position(l, 0.55), 125, 50)
  }

  func testPathKeyTimesCountIsTheNumberOfKeyframePoints() {
    // "the number of elements in the array should match … the number of control points in the
    // path": three keyframe points (the start and two element ends), so two key times are wrong.
    let l = Layer()
    let k = KeyframeAnimation(keyPath: "position")
    k.pathValue = lineThenQuad
    k.keyTimes = [0, 1]
    XCTAssertThrowsError(try l.addChecked(k, forKey: nil)) {
      XCTAssertEqual(
        $0 as? AnimationError,
        .invalidKeyframes(keyPath: "position", .countMismatch(field: "keyTimes", expected: 3, actual: 2)))
    }
  }

  func testPathDiscreteJumpsBetweenElementEndPoints() throws {
    // discrete: "Each keyframe value is used in turn, no interpolated values are calculated";
    // on a path the keyframe values are the start and the element end points.
    var square = Path()
    square.move(to: Point(x: 0, y: 0))
    square.addLine(to: Point(x: 100, y: 0))
    square.addLine(to: Point(x: 100, y: 100))
    square.addLine(to: Point(x: 0, y: 100))
    let l = try animation {
      $0.pathValue = square
      $0.calculationMode = .discrete
    }
    assertPoint(position(l, 0.1), 0, 0)
    assertPoint(position(l, 0.3), 100, 0)
    assertPoint(position(l, 0.6), 100, 100)
    assertPoint(position(l, 0.9), 0, 100)
    // "Move-to segments do not define separate keyframe values": the second subpath's start
    // (50, 50) is never shown; its line's end is.
    var jumps = Path()
    jumps.move(to: Point(x: 0, y: 0))
    jumps.addLine(to: Point(x: 10, y: 0))
    jumps.move(to: Point(x: 50, y: 50))
    jumps.addLine(to: Point(x: 60, y: 50))
    let m = try animation {
      $0.pathValue = jumps
      $0.calculationMode = .discrete
      $0.keyTimes = [0, 0.5, 0.8]
    }
    assertPoint(position(m, 0.4), 0, 0)
    assertPoint(position(m, 0.6), 10, 0)
    assertPoint(position(m, 0.9), 60, 50)
  }

  func testPathPacedMovesAtConstantSpeedByArcLength() throws {
    // paced and cubicPaced along a path: constant speed by arc length, keyTimes ignored. The
    // line is 100 long and the second line 300: a quarter of the time reaches the first end.
    var path = Path()
    path.move(to: Point(x: 0, y: 0))
    path.addLine(to: Point(x: 100, y: 0))
    path.addLine(to: Point(x: 100, y: 300))
    for mode in [KeyframeCalculationMode.paced, .cubicPaced] {
      let l = try animation {
        $0.pathValue = path
        $0.calculationMode = mode
        $0.keyTimes = [0, 0.9, 1]
      }
      assertPoint(position(l, 0.25), 100, 0, "\(mode)")
      assertPoint(position(l, 0.125), 50, 0, "\(mode)")
      assertPoint(position(l, 0.625), 100, 150, "\(mode)")
    }
    // On a curve, the arc-length positions PathSampler measures.
    let sampler = try PathSampler(path: lineThenQuad)
    let curved = try animation {
      $0.pathValue = lineThenQuad
      $0.calculationMode = .paced
    }
    for p in stride(from: 0.0, through: 1, by: 0.1) {
      let q = sampler.point(atArcFraction: p)
      assertPoint(position(curved, p), q.x, q.y, "at \(p)")
    }
  }

  func testRotationModeFollowsTheElementTangentInLinearMode() throws {
    // rotationMode auto: the layer turns along the path's tangent; with linear timing the
    // position in an element is the curve's own parameter, and so is the tangent.
    var path = Path()
    path.move(to: Point(x: 0, y: 0))
    path.addLine(to: Point(x: 100, y: 0))
    path.addCurve(to: Point(x: 200, y: 100), control1: Point(x: 150, y: 0), control2: Point(x: 200, y: 50))
    for (mode, turn) in [(RotationMode.auto, 0.0), (.autoReverse, Double.pi)] {
      let l = try animation {
        $0.pathValue = path
        $0.rotationMode = mode
      }
      let onLine = l.presentation(at: 1.25)
      assertPoint(onLine.position, 50, 0)
      XCTAssertEqual(onLine.transform.m11, cos(turn), accuracy: 1e-9, "\(mode)")
      XCTAssertEqual(onLine.transform.m12, sin(turn), accuracy: 1e-9, "\(mode)")
      // Parameter 0.5 of the cubic: B = (a + 3c₁ + 3c₂ + b) / 8, B′ ∝ (1, 1), a heading of 45°.
      let onCurve = l.presentation(at: 1.75)
      assertPoint(onCurve.position, 168.75, 31.25)
      XCTAssertEqual(onCurve.transform.m11, cos(Double.pi / 4 + turn), accuracy: 1e-9, "\(mode)")
      XCTAssertEqual(onCurve.transform.m12, sin(Double.pi / 4 + turn), accuracy: 1e-9, "\(mode)")
    }
  }
}
