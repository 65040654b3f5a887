import Foundation
import LayerKit
import XCTest

/// Transform decomposition, recomposition and interpolation, as CSS Transforms Level 2 ("unmatrix",
/// Graphics Gems II) and Core Animation define them, in CATransform3D's row-vector layout.
final class TransformDecompositionTests: XCTestCase {
  // MARK: Helpers

  private func assertMatrix(
    _ a: Transform3D, _ b: Transform3D, accuracy: Double = 1e-9, _ message: String = "",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    let (ra, rb) = (a.rows, b.rows)
    for i in 0..<4 {
      for j in 0..<4 where !(abs(ra[i][j] - rb[i][j]) <= accuracy) {
        XCTFail("m\(i + 1)\(j + 1): \(ra[i][j]) ≠ \(rb[i][j]) \(message)\n\(ra)\n\(rb)", file: file, line: line)
        return
      }
    }
  }

  private func assertVector<V: SIMD>(
    _ a: V, _ b: V, accuracy: Double = 1e-9, file: StaticString = #filePath, line: UInt = #line
  ) where V.Scalar == Double {
    for i in a.indices where !(abs(a[i] - b[i]) <= accuracy) {
      XCTFail("\(a) ≠ \(b)", file: file, line: line)
      return
    }
  }

  private func roundTrip(_ m: Transform3D, file: StaticString = #filePath, line: UInt = #line) {
    guard let d = m.decomposed() else {
      XCTFail("no decomposition for \(m.rows)", file: file, line: line)
      return
    }
    assertMatrix(Transform3D(d), m, file: file, line: line)
  }

  /// A transform is a pure rotation when its upper 3×3 is orthonormal with determinant +1 and
  /// everything else is the identity's.
  private func assertPureRotation(_ m: Transform3D, file: StaticString = #filePath, line: UInt = #line) {
    let r = m.rows
    for i in 0..<3 {
      for j in 0..<3 {
        let dot = (0..<3).reduce(0.0) { $0 + r[i][$1] * r[j][$1] }
        XCTAssertEqual(dot, i == j ? 1 : 0, accuracy: 1e-12, "rows \(i), \(j) not orthonormal", file: file, line: line)
      }
    }
    XCTAssertEqual(det3(m), 1, accuracy: 1e-12, "determinant", file: file, line: line)
    for v in [m.m14, m.m24, m.m34, m.m41, m.m42, m.m43] {
      XCTAssertEqual(v, 0, accuracy: 1e-12, file: file, line: line)
    }
    XCTAssertEqual(m.m44, 1, accuracy: 1e-12, file: file, line: line)
  }

  private func det3(_ m: Transform3D) -> Double {
    m.m11 * (m.m22 * m.m33 - m.m23 * m.m32) - m.m12 * (m.m21 * m.m33 - m.m23 * m.m31)
      + m.m13 * (m.m21 * m.m32 - m.m22 * m.m31)
  }

  private func apply(_ m: Transform3D, _ p: SIMD3<Double>) -> SIMD3<Double> {
    let x = p.x * m.m11 + p.y * m.m21 + p.z * m.m31 + m.m41
    let y = p.x * m.m12 + p.y * m.m22 + p.z * m.m32 + m.m42
    let z = p.x * m.m13 + p.y * m.m23 + p.z * m.m33 + m.m43
    let w = p.x * m.m14 + p.y * m.m24 + p.z * m.m34 + m.m44
    return SIMD3(x, y, z) / w
  }

  /// A seeded linear congruential generator (Knuth's MMIX constants): deterministic inputs.
  private struct LCG {
    var state: UInt64
    mutating func next(_ range: ClosedRange<Double>) -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let unit = Double(state >> 11) / Double(1 << 53)
      return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }
  }

  // MARK: Decomposition of the basic transforms

  func testIdentityDecomposesToIdentityComponents() {
    XCTAssertEqual(Transform3D.identity.decomposed(), .identity)
    XCTAssertEqual(Transform3D(DecomposedTransform3D.identity), .identity)
  }

  func testTranslationIsTheLastRow() {
    // CATransform3D keeps the translation in m41 m42 m43 (row vectors), CSS's matrix[3][0...2].
    let m = Transform3D.translation(x: 10, y: -20, z: 30)
    let d = m.decomposed()
    XCTAssertEqual(d?.translation, SIMD3(10, -20, 30))
    XCTAssertEqual(d?.scale, SIMD3(1, 1, 1))
    XCTAssertEqual(d?.quaternion, SIMD4(0, 0, 0, 1))
    XCTAssertEqual(d?.perspective, SIMD4(0, 0, 0, 1))
    roundTrip(m)
  }

  func testScaleIsTheLengthOfEachRow() {
    let m = Transform3D.scale(x: 2, y: 3, z: 4)
    XCTAssertEqual(m.decomposed()?.scale, SIMD3(2, 3, 4))
    XCTAssertEqual(m.decomposed()?.skew, .zero)
    roundTrip(m)
  }

  func testRotationsAboutEachAxisGiveHalfAngleQuaternions() {
    // q = (sin(θ/2)·axis, cos(θ/2)) for Transform3D(rotationAngle: θ, axis), w ≥ 0.
    let angle = 0.7
    let s = sin(angle / 2)
    let c = cos(angle / 2)
    let cases: [(Transform3D, SIMD4<Double>)] = [
      (.rotationX(angle), SIMD4(s, 0, 0, c)),
      (.rotationY(angle), SIMD4(0, s, 0, c)),
      (.rotationZ(angle), SIMD4(0, 0, s, c)),
      (.rotationZ(-angle), SIMD4(0, 0, -s, c)),
    ]
    for (m, q) in cases {
      assertVector(m.decomposed()!.quaternion, q, accuracy: 1e-15)
      assertVector(m.decomposed()!.scale, SIMD3(1, 1, 1), accuracy: 1e-15)
      roundTrip(m)
    }
  }

  func testRotationAboutAnArbitraryAxis() {
    let m = Transform3D(rotationAngle: 2.0, x: 1, y: 2, z: 3)
    let d = m.decomposed()!
    let axis = SIMD3<Double>(1, 2, 3) / 14.0.squareRoot()
    assertVector(d.quaternion, SIMD4(axis * sin(1.0), cos(1.0)), accuracy: 1e-14)
    XCTAssertEqual(d.rotationAngle, 2.0, accuracy: 1e-12)
    roundTrip(m)
  }

  func testHalfTurnsRoundTrip() {
    // w ≈ 0: the CSS sign comparisons cannot tell (1, −1, 0) from (1, 1, 0); Shepperd's method can.
    for axis in [SIMD3<Double>(1, -1, 0), SIMD3(1, 1, 0), SIMD3(0, 1, -1), SIMD3(-1, 2, -3), SIMD3(0, 0, 1)] {
      roundTrip(Transform3D(rotationAngle: .pi, x: axis.x, y: axis.y, z: axis.z))
    }
  }

  func testSkewFactors() {
    // Rows (1,0,0), (xy,1,0), (xz,yz,1): the unit lower-triangular shear, CSS's skew[0...2].
    var m = Transform3D.identity
    m.m21 = 0.3
    m.m31 = 0.2
    m.m32 = -0.4
    let d = m.decomposed()!
    assertVector(d.skew, SIMD3(0.3, 0.2, -0.4), accuracy: 1e-15)
    assertVector(d.scale, SIMD3(1, 1, 1), accuracy: 1e-15)
    XCTAssertEqual(d.quaternion, SIMD4(0, 0, 0, 1))
    roundTrip(m)

    // A 2D skew in x by 30°: x' = x + tan(30°)·y.
    var skewX = Transform3D.identity
    skewX.m21 = tan(.pi / 6)
    roundTrip(skewX)
  }

  func testPerspectiveIsTheLastColumn() {
    // m34 = −1/d for an eye at distance d (CATransform3D's perspective convention).
    let m = Transform3D.perspective(eyeDistance: 500)
    XCTAssertEqual(m.decomposed()?.perspective, SIMD4(0, 0, -1.0 / 500, 1))
    roundTrip(m)
    // Core Animation's usual 3D set-up: rotate in the layer's space, then project.
    let rotated = Transform3D.rotationY(0.6).concatenating(.perspective(eyeDistance: 800))
    let d = rotated.decomposed()!
    assertVector(d.perspective, SIMD4(0, 0, -1.0 / 800, 1), accuracy: 1e-15)
    assertVector(d.quaternion, SIMD4(0, sin(0.3), 0, cos(0.3)), accuracy: 1e-15)
    roundTrip(rotated)
  }

  func testTranslationTowardsTheEyeKeepsItsPerspective() {
    // T(z) · P(d) has m44 = 1 − z/d. It decomposes into that translation and that perspective and
    // recomposes to the same matrix (not a multiple of it); m44 = 0 (z = d) decomposes too.
    for z in [100.0, 500] {
      let m = Transform3D.translation(x: 0, y: 0, z: z).concatenating(.perspective(eyeDistance: 500))
      let d = m.decomposed()!
      assertVector(d.translation, SIMD3(0, 0, z), accuracy: 1e-12)
      assertVector(d.perspective, SIMD4(0, 0, -1.0 / 500, 1), accuracy: 1e-15)
      roundTrip(m)
    }
  }

  func testCombinationDecomposesIntoItsFactors() {
    // Row-vector order: scale · skew · rotation · translation · perspective.
    var shear = Transform3D.identity
    shear.m21 = 0.25
    let rotation = Transform3D(rotationAngle: 1.1, x: -1, y: 0.5, z: 2)
    let m = Transform3D.scale(x: 2, y: 0.5, z: 3)
      .concatenating(shear)
      .concatenating(rotation)
      .concatenating(.translation(x: 40, y: -7, z: 12))
      .concatenating(.perspective(eyeDistance: 600))
    let d = m.decomposed()!
    assertVector(d.scale, SIMD3(2, 0.5, 3), accuracy: 1e-12)
    assertVector(d.skew, SIMD3(0.25, 0, 0), accuracy: 1e-12)
    assertVector(d.translation, SIMD3(40, -7, 12), accuracy: 1e-12)
    assertVector(d.perspective, SIMD4(0, 0, -1.0 / 600, 1), accuracy: 1e-15)
    assertVector(d.quaternion, rotation.decomposed()!.quaternion, accuracy: 1e-12)
    roundTrip(m)
  }

  func testRandomCompositionsRoundTrip() {
    var rng = LCG(state: 42)
    for _ in 0..<300 {
      var shear = Transform3D.identity
      (shear.m21, shear.m31, shear.m32) = (rng.next(-1...1), rng.next(-1...1), rng.next(-1...1))
      var m = Transform3D.scale(x: rng.next(0.1...3), y: rng.next(-3 ... -0.1), z: rng.next(0.1...3))
        .concatenating(shear)
        .concatenating(
          Transform3D(rotationAngle: rng.next(-7...7), x: rng.next(-1...1), y: rng.next(-1...1), z: rng.next(-1...1))
        )
        .concatenating(.translation(x: rng.next(-500...500), y: rng.next(-500...500), z: rng.next(-500...500)))
      (m.m14, m.m24, m.m34) = (rng.next(-0.01...0.01), rng.next(-0.01...0.01), rng.next(-0.01...0.01))
      roundTrip(m)
    }
  }

  func testAFlipNegatesOneAxis() {
    // The determinant is negative: one axis is negated, the one pointing most backwards.
    XCTAssertEqual(Transform3D.scale(x: -1, y: 1).decomposed()?.scale, SIMD3(-1, 1, 1))
    XCTAssertEqual(Transform3D.scale(x: -1, y: 1).decomposed()?.quaternion, SIMD4(0, 0, 0, 1))
    XCTAssertEqual(Transform3D.scale(x: 1, y: -2).decomposed()?.scale, SIMD3(1, -2, 1))
    var shear = Transform3D.identity
    shear.m21 = 0.5
    let m = Transform3D.scale(x: -2, y: 1).concatenating(shear).concatenating(.rotationZ(0.4))
    let d = m.decomposed()!
    assertVector(d.scale, SIMD3(-2, 1, 1), accuracy: 1e-12)
    assertVector(d.skew, SIMD3(0.5, 0, 0), accuracy: 1e-12)
    roundTrip(m)
    roundTrip(Transform3D.scale(x: -1, y: -1, z: -1).concatenating(.rotationX(2.5)))
  }

  func testSingularMatricesHaveNoDecomposition() {
    XCTAssertNil(Transform3D.scale(x: 0, y: 1).decomposed())
    XCTAssertNil(Transform3D.scale(x: 1, y: 1, z: 0).decomposed())
    // Collapsed onto a line after a rotation: rank 2 but no row exactly zero.
    XCTAssertNil(Transform3D.rotationZ(0.3).concatenating(.scale(x: 0, y: 1)).decomposed())
    var nan = Transform3D.identity
    nan.m11 = .nan
    XCTAssertNil(nan.decomposed())
    // A tiny uniform scale is not singular.
    roundTrip(.scale(x: 1e-6, y: 1e-6, z: 1e-6))
  }

  func testRecompositionNormalizesTheQuaternion() {
    let d = DecomposedTransform3D(quaternion: SIMD4(0, 0, 3, 3))
    assertMatrix(Transform3D(d), .rotationZ(.pi / 2), accuracy: 1e-15)
    XCTAssertEqual(Transform3D(DecomposedTransform3D(quaternion: .zero)), .identity)
  }

  // MARK: Euler angles and component readers

  func testEulerAnglesApplyXThenYThenZ() {
    var d = DecomposedTransform3D.identity
    d.eulerAngles = SIMD3(0.3, -0.5, 1.2)
    let expected = Transform3D.rotationX(0.3).concatenating(.rotationY(-0.5)).concatenating(.rotationZ(1.2))
    assertMatrix(Transform3D(d), expected, accuracy: 1e-15)
    assertVector(expected.decomposed()!.eulerAngles, SIMD3(0.3, -0.5, 1.2), accuracy: 1e-14)
  }

  func testComponentReaders() {
    // transform.translation reads (m41, m42, m43).
    let m = Transform3D.scale(x: 2, y: 3).concatenating(.rotationZ(0.5)).concatenating(.translation(x: 7, y: 8, z: 9))
    XCTAssertEqual(m.translation, SIMD3(7, 8, 9))
    // transform.scale reads the decomposed scale, unaffected by the rotation.
    assertVector(m.scale, SIMD3(2, 3, 1), accuracy: 1e-14)
    // transform.rotation.z reads the z Euler angle, atan2(m12, m11) for a rotation about z.
    XCTAssertEqual(m.rotationZ, 0.5, accuracy: 1e-14)
    XCTAssertEqual(m.rotationX, 0, accuracy: 1e-14)
    XCTAssertEqual(m.rotationY, 0, accuracy: 1e-14)
    for angle in [-3.0, -1, 0, 1, 2, 3, .pi] {
      XCTAssertEqual(Transform3D.rotationZ(angle).rotationZ, angle, accuracy: 1e-12)
    }
    XCTAssertEqual(Transform3D.rotationX(0.8).rotationX, 0.8, accuracy: 1e-14)
    XCTAssertEqual(Transform3D.rotationY(-0.8).rotationY, -0.8, accuracy: 1e-14)
    // A horizontal flip reads as a negative x scale.
    XCTAssertEqual(Transform3D.scale(x: -1, y: 1).scale, SIMD3(-1, 1, 1))
    // Singular: the lengths of the axis images, and the angle of the x axis's image.
    let collapsed = Transform3D.scale(x: 2, y: 0).concatenating(.rotationZ(0.25))
    assertVector(collapsed.scale, SIMD3(2, 0, 1), accuracy: 1e-14)
    XCTAssertEqual(collapsed.rotationZ, 0.25, accuracy: 1e-14)
  }

  func testValueFunctionBuildingBlocksMatchTheInitializers() {
    XCTAssertEqual(Transform3D.rotationZ(0.4), Transform3D(rotationAngle: 0.4, x: 0, y: 0, z: 1))
    XCTAssertEqual(Transform3D.scale(x: 2, y: 3), Transform3D(scaleX: 2, y: 3, z: 1))
    XCTAssertEqual(Transform3D.translation(x: 2, y: 3), Transform3D(translationX: 2, y: 3, z: 0))
  }

  // MARK: Interpolation

  func testEndpointsAreExact() {
    // A held or filled end must be the model value bit for bit.
    let a = Transform3D.rotationY(0.3).concatenating(.translation(x: 12.3, y: 4, z: 5))
      .concatenating(.perspective(eyeDistance: 700))
    let b = Transform3D.scale(x: 2, y: 1.5).concatenating(.rotationZ(2)).concatenating(.translation(x: -100, y: 0.1))
    XCTAssertEqual(Transform3D.interpolate(a, b, 0), a)
    XCTAssertEqual(Transform3D.interpolate(a, b, 1), b)
    // Just inside the ends the recomposition is continuous with them.
    assertMatrix(Transform3D.interpolate(a, b, 1e-12), a, accuracy: 1e-9)
    assertMatrix(Transform3D.interpolate(a, b, 1 - 1e-12), b, accuracy: 1e-9)
  }

  func testHalfTurnAboutZPassesThroughAQuarterTurn() {
    // Decomposed interpolation: 0° → 180° about z is a 90° pure rotation halfway, not the squashed
    // (zero) matrix that element-wise interpolation would give.
    let mid = Transform3D.interpolate(.identity, .rotationZ(.pi), 0.5)
    assertPureRotation(mid)
    XCTAssertEqual(abs(mid.rotationZ), .pi / 2, accuracy: 1e-12)
    for t in stride(from: 0.0, through: 1, by: 0.125) {
      let m = Transform3D.interpolate(.identity, .rotationZ(.pi), t)
      assertPureRotation(m)
      XCTAssertEqual(abs(m.rotationZ), t * .pi, accuracy: 1e-12)
    }
  }

  func testRotationTakesTheShorterPath() {
    // Orientations, not angles, are interpolated: 350° is −10°, so 10° → 350° passes through 0°,
    // and 0° → 270° turns −90° (through −45°).
    let mid = Transform3D.interpolate(.rotationZ(10 * .pi / 180), .rotationZ(350 * .pi / 180), 0.5)
    assertMatrix(mid, .identity, accuracy: 1e-12)
    let quarter = Transform3D.interpolate(.identity, .rotationZ(1.5 * .pi), 0.5)
    XCTAssertEqual(quarter.rotationZ, -.pi / 4, accuracy: 1e-12)
    assertPureRotation(quarter)
  }

  func testTranslationAndRotationInterpolateIndependently() {
    // The origin moves in a straight line while the layer turns about it.
    let to = Transform3D.rotationZ(.pi / 2).concatenating(.translation(x: 100, y: 40))
    for t in [0.25, 0.5, 0.75] {
      let m = Transform3D.interpolate(.identity, to, t)
      assertMatrix(
        m, Transform3D.rotationZ(t * .pi / 2).concatenating(.translation(x: 100 * t, y: 40 * t)), accuracy: 1e-12)
    }
  }

  func testScalesSkewsAndPerspectiveInterpolateLinearly() {
    let mid = Transform3D.interpolate(.scale(x: 1, y: 2), .scale(x: 3, y: 4, z: 5), 0.5)
    assertMatrix(mid, .scale(x: 2, y: 3, z: 3), accuracy: 1e-12)
    let p = Transform3D.interpolate(.perspective(eyeDistance: 500), .perspective(eyeDistance: 1000), 0.5)
    XCTAssertEqual(p.m34, (-1.0 / 500 - 1.0 / 1000) / 2, accuracy: 1e-15)
    var skewed = Transform3D.identity
    skewed.m21 = 1
    XCTAssertEqual(Transform3D.interpolate(.identity, skewed, 0.25).m21, 0.25, accuracy: 1e-15)
    // Flipped horizontally: a squeeze through zero width, not a turn.
    let flip = Transform3D.interpolate(.identity, .scale(x: -1, y: 1), 0.25)
    assertMatrix(flip, .scale(x: 0.5, y: 1), accuracy: 1e-15)
  }

  func testExtrapolatesBeyondTheEnds() {
    // Overshooting timing functions and springs give t outside [0, 1]; nothing is clamped.
    let over = Transform3D.interpolate(.identity, .rotationZ(.pi / 2), 1.5)
    XCTAssertEqual(over.rotationZ, 3 * .pi / 4, accuracy: 1e-12)
    assertPureRotation(over)
    let under = Transform3D.interpolate(.translation(x: 10, y: 0), .translation(x: 20, y: 0), -0.5)
    assertMatrix(under, .translation(x: 5, y: 0), accuracy: 1e-12)
    let scaled = Transform3D.interpolate(.identity, .scale(x: 2, y: 2), 1.2)
    assertMatrix(scaled, .scale(x: 2.2, y: 2.2), accuracy: 1e-12)
  }

  func testNearlyEqualRotationsUseNormalizedLerp() {
    let a = Transform3D.rotationZ(0.5)
    let b = Transform3D.rotationZ(0.5 + 1e-9)
    let m = Transform3D.interpolate(a, b, 0.5)
    assertPureRotation(m)
    XCTAssertEqual(m.rotationZ, 0.5 + 0.5e-9, accuracy: 1e-14)
  }

  func testSingularEndFallsBackToElementwise() {
    // No decomposition for a scale to zero: element by element, a linear shrink.
    let m = Transform3D.interpolate(.identity, .scale(x: 0, y: 0), 0.25)
    XCTAssertEqual(m, .scale(x: 0.75, y: 0.75))
    let rotated = Transform3D.interpolate(.rotationZ(1), .scale(x: 0, y: 1), 0.5)
    let (a, b) = (Transform3D.rotationZ(1).rows, Transform3D.scale(x: 0, y: 1).rows)
    for i in 0..<4 {
      for j in 0..<4 {
        XCTAssertEqual(rotated.rows[i][j], (a[i][j] + b[i][j]) / 2, accuracy: 1e-15)
      }
    }
  }

  func testDecomposedInterpolationOfComponents() {
    let a = DecomposedTransform3D(translation: SIMD3(0, 0, 0), scale: SIMD3(1, 1, 1))
    let b = DecomposedTransform3D(
      translation: SIMD3(10, 20, 30), scale: SIMD3(3, 1, 1), skew: SIMD3(1, 0, 0),
      perspective: SIMD4(0, 0, -0.002, 1), quaternion: SIMD4(0, 0, sin(0.5), cos(0.5)))
    let mid = DecomposedTransform3D.interpolate(a, b, 0.5)
    assertVector(mid.translation, SIMD3(5, 10, 15))
    assertVector(mid.scale, SIMD3(2, 1, 1))
    assertVector(mid.skew, SIMD3(0.5, 0, 0))
    assertVector(mid.perspective, SIMD4(0, 0, -0.001, 1))
    assertVector(mid.quaternion, SIMD4(0, 0, sin(0.25), cos(0.25)), accuracy: 1e-15)
  }
}
