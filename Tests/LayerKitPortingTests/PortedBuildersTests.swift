import Foundation
import LayerKit
import XCTest

/// CGPath's builders and the CATransform3D functions under their ported names, checked against
/// their closed forms.
final class PortedBuildersTests: XCTestCase {
  /// Every flattened point of a full circle lies on it (the cubic arcs' radial error is below
  /// 2.7 × 10⁻⁴ of the radius, plus the flattening tolerance).
  func testArcsLieOnTheirCircle() throws {
    var circle = Path()
    circle.addArc(center: CGPoint(x: 50, y: 40), radius: 30, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
    let points = circle.flattened(tolerance: 0.01).flatMap { $0 }
    XCTAssertGreaterThan(points.count, 16)
    for p in points {
      XCTAssertEqual(hypot(p.x - 50, p.y - 40), 30, accuracy: 30 * 2.7e-4 + 0.01)
    }
    // Four quarter-turn cubics, ending where they began.
    XCTAssertEqual(circle.elements.filter { if case .curve = $0 { true } else { false } }.count, 4)
    XCTAssertEqual(circle.currentPoint!.x, 80, accuracy: 1e-9)
    XCTAssertEqual(circle.currentPoint!.y, 40, accuracy: 1e-9)
  }

  /// CGPath's `clockwise` decreases the angle: from 0 to π/2 clockwise is three quarters of a
  /// turn through −π/2 (y = −r, the top on screen); counterclockwise, a quarter through π/4.
  func testClockwiseDecreasesTheAngleAsInCoreGraphics() throws {
    var cw = Path()
    cw.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
    var ccw = Path()
    ccw.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
    let top = cw.flattened(tolerance: 0.01).flatMap { $0 }.min { $0.y < $1.y }!
    XCTAssertEqual(top.y, -10, accuracy: 0.02)
    XCTAssertGreaterThanOrEqual(ccw.flattened(tolerance: 0.01).flatMap { $0 }.map(\.y).min()!, -1e-9)
    XCTAssertEqual(cw.boundingBox.height, 20, accuracy: 0.05)
    XCTAssertEqual(ccw.boundingBox.width, 10, accuracy: 0.05)
  }

  /// addArc(tangent1End:tangent2End:radius:) rounds a corner: a square's corner at (100, 0)
  /// rounded by 20 starts at (80, 0), ends at (100, 20), and stays 20 from (80, 20).
  func testTangentArcRoundsACorner() throws {
    var p = Path()
    p.move(to: .zero)
    p.addArc(tangent1End: CGPoint(x: 100, y: 0), tangent2End: CGPoint(x: 100, y: 100), radius: 20)
    guard case .line(let start) = p.elements[1] else { return XCTFail("\(p.elements)") }
    XCTAssertEqual(start.x, 80, accuracy: 1e-9)
    XCTAssertEqual(start.y, 0, accuracy: 1e-9)
    XCTAssertEqual(p.currentPoint!.x, 100, accuracy: 1e-9)
    XCTAssertEqual(p.currentPoint!.y, 20, accuracy: 1e-9)
    for q in p.flattened(tolerance: 0.01)[0] where q.x > 80 {
      XCTAssertEqual(hypot(q.x - 80, q.y - 20), 20, accuracy: 20 * 2.7e-4 + 0.01)
    }
  }

  func testLinesRectsAndEllipses() throws {
    var p = Path()
    p.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 5)])
    p.addRect(CGRect(x: 20, y: 20, width: 10, height: 10))
    p.addRoundedRect(in: CGRect(x: 40, y: 0, width: 20, height: 10), cornerWidth: 4, cornerHeight: 2)
    p.addEllipse(in: CGRect(x: 0, y: 40, width: 20, height: 10))
    XCTAssertEqual(p.boundingBox, CGRect(x: 0, y: 0, width: 60, height: 50))
    var q = Path()
    q.addPath(p)
    XCTAssertEqual(q, p)
  }

  func testTransformFunctionsAreTheirCoreAnimationNamesakes() throws {
    let r = Transform3DMakeRotation(.pi / 2, 0, 0, 1)
    XCTAssertEqual(r, Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1))
    let t = Transform3DTranslate(Transform3DMakeScale(2, 2, 1), 5, 0, 0)
    // The translation applies first: (1, 0) → (6, 0) → (12, 0).
    XCTAssertEqual(t.m41, 10, accuracy: 1e-12)
    XCTAssertTrue(Transform3DIsIdentity(Transform3DConcat(r, Transform3DInvert(r))))
    XCTAssertTrue(Transform3DIsAffine(t))
    var p = Transform3DIdentity
    p.m34 = -1 / 500
    XCTAssertFalse(Transform3DIsAffine(p))
    XCTAssertTrue(
      Transform3DEqualToTransform(Transform3DMakeTranslation(1, 2, 3), Transform3D(translationX: 1, y: 2, z: 3)))
  }
}
