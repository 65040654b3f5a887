import Foundation
import LayerKit
import XCTest

/// The Animatable protocol's rules: interpolation (exact ends, extrapolation), addition for
/// byValue / additive animations, accumulation for cumulative ones, and the paced-keyframe metric.
final class AnimatableTests: XCTestCase {
  /// Every conformer: t = 0 gives `from`, t = 1 gives `to` (to 1e-12), `add(a, .zero) == a`,
  /// `scale(a, by: 0) == zero`, `scale(a, by: 1) == a`, distance is zero to itself and symmetric.
  private func checkLaws<V: Animatable>(
    _ a: V, _ b: V, close: (V, V) -> Bool, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertTrue(close(V.interpolate(a, b, 0), a), "t = 0 is from", file: file, line: line)
    XCTAssertTrue(close(V.interpolate(a, b, 1), b), "t = 1 is to", file: file, line: line)
    XCTAssertTrue(close(V.add(a, .zero), a), "zero is a right identity", file: file, line: line)
    XCTAssertTrue(close(V.add(.zero, a), a), "zero is a left identity", file: file, line: line)
    XCTAssertTrue(close(V.scale(a, by: 0), .zero), "scale by 0 is zero", file: file, line: line)
    XCTAssertTrue(close(V.scale(a, by: 1), a), "scale by 1 is a", file: file, line: line)
    XCTAssertTrue(close(V.scale(a, by: 2), V.add(a, a)), "scale by 2 is a + a", file: file, line: line)
    XCTAssertEqual(a.distance(to: a), 0, accuracy: 1e-12, file: file, line: line)
    XCTAssertEqual(a.distance(to: b), b.distance(to: a), accuracy: 1e-12, file: file, line: line)
    XCTAssertGreaterThan(a.distance(to: b), 0, file: file, line: line)
  }

  private func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-12 }

  func testEveryConformerObeysTheLaws() {
    checkLaws(0.3, 7.1, close: near)
    checkLaws(Point(x: 1, y: -2), Point(x: 0.1, y: 9), close: { near($0.x, $1.x) && near($0.y, $1.y) })
    checkLaws(Size(width: 3, height: 4), Size(width: -1, height: 0.3)) {
      near($0.width, $1.width) && near($0.height, $1.height)
    }
    checkLaws(Rect(x: 1, y: 2, width: 3, height: 4), Rect(x: -5, y: 0.5, width: 30, height: 0.1)) {
      $0.distance(to: $1) <= 1e-12
    }
    checkLaws(Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4), Color.white) { $0.distance(to: $1) <= 1e-12 }
    checkLaws(SIMD2<Double>(1, 2), SIMD2(-3, 4)) { $0.distance(to: $1) <= 1e-12 }
    checkLaws(SIMD3<Double>(1, 2, 3), SIMD3(-3, 4, 0.5)) { $0.distance(to: $1) <= 1e-12 }
    checkLaws(SIMD4<Double>(1, 2, 3, 4), SIMD4(-3, 4, 0.5, 0)) { $0.distance(to: $1) <= 1e-12 }
    checkLaws(Color?.some(.red), Color?.some(.blue)) { ($0 ?? Color.zero).distance(to: $1 ?? Color.zero) <= 1e-12 }
    let transformClose: (Transform3D, Transform3D) -> Bool = { a, b in
      zip(a.rows.joined(), b.rows.joined()).allSatisfy { abs($0 - $1) <= 1e-12 }
    }
    checkLaws(
      Transform3D.rotationZ(0.4).concatenating(.translation(x: 10, y: 5)),
      Transform3D.scale(x: 2, y: 3).concatenating(.rotationX(1)), close: transformClose)
  }

  // MARK: Interpolation

  func testScalarMidpointAndExtrapolation() {
    XCTAssertEqual(Double.interpolate(10, 20, 0.5), 15)
    XCTAssertEqual(Double.interpolate(10, 20, 0.25), 12.5)
    // Overshooting timing functions and springs give t outside [0, 1]: extrapolate, never clamp.
    XCTAssertEqual(Double.interpolate(10, 20, 1.5), 25)
    XCTAssertEqual(Double.interpolate(10, 20, -0.5), 5)
    // (1 − t)·a + t·b is exact at t = 1 where a + (b − a)·t is not.
    XCTAssertEqual(Double.interpolate(0.1, 0.7, 1), 0.7)
  }

  func testPointAndSizeAreComponentWise() {
    XCTAssertEqual(Point.interpolate(Point(x: 0, y: 10), Point(x: 100, y: -10), 0.25), Point(x: 25, y: 5))
    XCTAssertEqual(
      Size.interpolate(Size(width: 10, height: 0), Size(width: 20, height: 40), 1.5), Size(width: 25, height: 60))
  }

  func testRectInterpolatesOriginAndSizeComponentWise() {
    // bounds animates as origin and size, each component-wise (CGRect interpolation).
    let a = Rect(x: 0, y: 10, width: 100, height: 50)
    let b = Rect(x: 20, y: -10, width: 200, height: 0)
    XCTAssertEqual(Rect.interpolate(a, b, 0.5), Rect(x: 10, y: 0, width: 150, height: 25))
    XCTAssertEqual(Rect.interpolate(a, b, 2), Rect(x: 40, y: -30, width: 300, height: -50))
    XCTAssertEqual(Rect.add(a, b), Rect(x: 20, y: 0, width: 300, height: 50))
  }

  func testColorIsComponentWiseInStraightAlpha() {
    // Core Animation interpolates a colour's stored components (straight alpha, sRGB-encoded):
    // red → clear passes through half-transparent dark red.
    let mid = Color.interpolate(.red, .clear, 0.5)
    XCTAssertEqual(mid, Color(red: 0.5, green: 0, blue: 0, alpha: 0.5))
    let c = Color.interpolate(
      Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 1), Color(red: 0.6, green: 0.4, blue: 0.2, alpha: 0.5), 0.25)
    XCTAssertEqual(c.red, 0.3, accuracy: 1e-15)
    XCTAssertEqual(c.green, 0.4, accuracy: 1e-15)
    XCTAssertEqual(c.blue, 0.5, accuracy: 1e-15)
    XCTAssertEqual(c.alpha, 0.875, accuracy: 1e-15)
    // Unclamped when extrapolating; the renderer clamps when it premultiplies.
    XCTAssertEqual(Color.interpolate(.black, .white, 1.25).red, 1.25)
    XCTAssertEqual(Color.add(Color(white: 0.75), Color(white: 0.5)).green, 1.25)
    XCTAssertEqual(Color.zero, .clear)
  }

  func testSIMDIsComponentWise() {
    XCTAssertEqual(SIMD3<Double>.interpolate(SIMD3(0, 10, 20), SIMD3(10, 10, 0), 0.5), SIMD3(5, 10, 10))
  }

  func testOptionalTreatsNilAsZero() {
    // A nil backgroundColor animates as transparent black, as a nil CGColor does in Core Animation.
    let none: Color? = nil
    XCTAssertNil(Color?.interpolate(none, none, 0.5))
    XCTAssertNil(Color?.interpolate(none, .red, 0))
    XCTAssertEqual(Color?.interpolate(none, .red, 1), .red)
    XCTAssertEqual(Color?.interpolate(none, .red, 0.5), Color(red: 0.5, green: 0, blue: 0, alpha: 0.5))
    XCTAssertEqual(Color?.add(none, .red), .red)
    XCTAssertEqual(Color?.add(.red, none), .red)
    XCTAssertEqual(Color?.some(.red).distance(to: none), 2.0.squareRoot(), accuracy: 1e-15)
  }

  // MARK: Addition and accumulation

  func testComponentValuesAddComponentWise() {
    // byValue: to = from + by; additive: presented = model + animation value.
    XCTAssertEqual(Double.add(3, 4), 7)
    XCTAssertEqual(Point.add(Point(x: 1, y: 2), Point(x: 10, y: 20)), Point(x: 11, y: 22))
    XCTAssertEqual(Size.add(Size(width: 1, height: 2), Size(width: 10, height: 20)), Size(width: 11, height: 22))
  }

  func testCumulativeScalesByTheRepeatIndex() {
    // isCumulative: repeat n starts from n times the accumulated value.
    XCTAssertEqual(Double.scale(2.5, by: 3), 7.5)
    XCTAssertEqual(Point.scale(Point(x: 1, y: -2), by: 4), Point(x: 4, y: -8))
    XCTAssertEqual(Rect.scale(Rect(x: 1, y: 2, width: 3, height: 4), by: 2), Rect(x: 2, y: 4, width: 6, height: 8))
    XCTAssertEqual(Color.scale(Color(white: 0.25, alpha: 0.5), by: 2), Color(white: 0.5, alpha: 1))
  }

  func testTransformsAddByConcatenatingInTheLayersSpace() {
    // Additive transforms concatenate: add(a, b) = CATransform3DConcat(b, a), the added transform
    // acting in the layer's own space inside the underlying one (like CATransform3DRotate(a, …)).
    let model = Transform3D.translation(x: 100, y: 0)
    let added = Transform3D.rotationZ(.pi / 2)
    let sum = Transform3D.add(model, added)
    XCTAssertEqual(sum, added.concatenating(model))
    XCTAssertEqual(sum, model.rotated(by: .pi / 2, x: 0, y: 0, z: 1))
    // (1, 0) turns to (0, 1) about the layer's origin, then moves with the layer to (100, 1).
    XCTAssertEqual(1 * sum.m11 + sum.m41, 100, accuracy: 1e-12)
    XCTAssertEqual(1 * sum.m12 + sum.m42, 1, accuracy: 1e-12)
    XCTAssertEqual(Transform3D.zero, .identity)
  }

  func testTransformAccumulationIsTheMatrixPower() {
    // Cumulative transform repeats: a concatenated with itself k times.
    let r = Transform3D.rotationZ(0.3)
    XCTAssertEqual(Transform3D.scale(r, by: 3).rotationZ, 0.9, accuracy: 1e-14)
    // 4 × 60° is 240°: a power, not a shortest-path interpolation.
    let sixty = Transform3D.rotationZ(.pi / 3)
    XCTAssertEqual(Transform3D.scale(sixty, by: 4).rotationZ, -2 * .pi / 3, accuracy: 1e-12)
    let t = Transform3D.translation(x: 3, y: 4)
    XCTAssertEqual(Transform3D.scale(t, by: 5), .translation(x: 15, y: 20))
    XCTAssertEqual(Transform3D.scale(.scale(x: 2, y: 3), by: 3), .scale(x: 8, y: 27))
    // Negative: the inverse's power; fractional: interpolated from the identity.
    let back = Transform3D.scale(r.concatenating(t), by: -1).concatenating(r.concatenating(t))
    for (x, y) in zip(back.rows.joined(), Transform3D.identity.rows.joined()) {
      XCTAssertEqual(x, y, accuracy: 1e-14)
    }
    XCTAssertEqual(Transform3D.scale(r, by: 0.5).rotationZ, 0.15, accuracy: 1e-14)
    // A singular transform has no inverse: the fallback still gives a value.
    XCTAssertEqual(Transform3D.scale(.scale(x: 0, y: 2), by: -1), .scale(x: 2, y: 0))
  }

  // MARK: Distance

  func testDistanceIsEuclideanInComponents() {
    // Paced keyframes move at constant speed in this metric.
    XCTAssertEqual(Double(3).distance(to: -1), 4)
    XCTAssertEqual(Point(x: 0, y: 0).distance(to: Point(x: 3, y: 4)), 5)
    XCTAssertEqual(Size(width: 1, height: 1).distance(to: Size(width: 4, height: 5)), 5)
    XCTAssertEqual(Rect(x: 0, y: 0, width: 0, height: 0).distance(to: Rect(x: 1, y: 1, width: 1, height: 1)), 2)
    XCTAssertEqual(Color.black.distance(to: .white), 3.0.squareRoot(), accuracy: 1e-15)
    XCTAssertEqual(SIMD4<Double>(0, 0, 0, 0).distance(to: SIMD4(1, 1, 1, 1)), 2)
  }

  func testTransformDistanceMeasuresTranslationLengthAndRotationAngle() {
    XCTAssertEqual(Transform3D.identity.distance(to: .translation(x: 3, y: 4)), 5, accuracy: 1e-12)
    XCTAssertEqual(Transform3D.identity.distance(to: .rotationZ(0.5)), 0.5, accuracy: 1e-12)
    // The shorter arc: 10° to 350° is 20°.
    XCTAssertEqual(
      Transform3D.rotationZ(10 * .pi / 180).distance(to: .rotationZ(350 * .pi / 180)), 20 * .pi / 180,
      accuracy: 1e-12)
    XCTAssertEqual(Transform3D.identity.distance(to: .scale(x: 2, y: 1)), 1, accuracy: 1e-12)
    // Singular: Euclidean over the 16 elements.
    XCTAssertEqual(Transform3D.identity.distance(to: .scale(x: 0, y: 1)), 1, accuracy: 1e-15)
  }
}
