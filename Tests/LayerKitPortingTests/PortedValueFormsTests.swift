import Foundation
import LayerKit
import XCTest

/// The value forms Core Animation code writes, taken as they are written: the CABasicAnimation
/// reference's `fromValue = [0, 0]` for `position`, NSNumber, CGFloat, Float and Int numbers,
/// CGPoint / CGSize / CGRect, SIMD2, and CAValueFunction's `[1, 1, 1]`. Each is converted to the
/// key path's type when the animation is added; a form with no such value is a typed error.
final class PortedValueFormsTests: XCTestCase {
  private func layer() -> Layer {
    let l = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 50))
    l.position = CGPoint(x: 50, y: 25)
    return l
  }

  func testTheBasicAnimationReferenceExample() throws {
    // CABasicAnimation's reference: animation.fromValue = [0, 0]; animation.toValue = [100, 100].
    let l = layer()
    let animation = BasicAnimation(keyPath: "position")
    animation.fromValue = [0, 0]
    animation.toValue = [100, 100]
    animation.duration = 1
    animation.beginTime = 1
    try l.addChecked(animation, forKey: "basic")
    XCTAssertEqual(l.presentation(at: 1.5).position, CGPoint(x: 50, y: 50))
  }

  func testNumbersInEveryForm() throws {
    let forms: [(any AnimationValue, any AnimationValue)] = [
      (NSNumber(value: 0), NSNumber(value: 1)), (CGFloat(0), CGFloat(1)), (Float(0), Float(1)), (0, 1), ([0], [1]),
    ]
    for (from, to) in forms {
      let l = layer()
      let a = BasicAnimation(keyPath: "opacity")
      a.fromValue = from
      a.toValue = to
      a.duration = 1
      a.beginTime = 1
      try l.addChecked(a, forKey: "fade")
      XCTAssertEqual(l.presentation(at: 1.25).opacity, 0.25, accuracy: 1e-6, "\(type(of: from))")
    }
  }

  func testGeometryInFoundationsTypesAndSIMD() throws {
    let l = layer()
    let move = BasicAnimation(keyPath: "position")
    move.fromValue = CGPoint(x: 0, y: 0)
    move.toValue = SIMD2<Double>(100, 10)
    move.duration = 1
    move.beginTime = 1
    try l.addChecked(move, forKey: "move")
    let size = BasicAnimation(keyPath: "bounds.size")
    size.fromValue = CGSize(width: 10, height: 10)
    size.toValue = CGSize(width: 30, height: 50)
    size.duration = 1
    size.beginTime = 1
    try l.addChecked(size, forKey: "size")
    let p = l.presentation(at: 1.5)
    XCTAssertEqual(p.position, CGPoint(x: 50, y: 5))
    XCTAssertEqual(p.bounds.size, CGSize(width: 20, height: 30))
    let l2 = layer()
    let bounds = BasicAnimation(keyPath: "bounds")
    bounds.toValue = CGRect(x: 0, y: 0, width: 200, height: 100)
    bounds.fromValue = CGRect(x: 0, y: 0, width: 100, height: 50)
    bounds.duration = 1
    bounds.beginTime = 1
    try l2.addChecked(bounds, forKey: "bounds")
    XCTAssertEqual(l2.presentation(at: 1.5).bounds.size, CGSize(width: 150, height: 75))
  }

  func testKeyframeValuesInPortedForms() throws {
    let l = layer()
    let k = KeyframeAnimation(keyPath: "position")
    k.values = [CGPoint(x: 0, y: 0), [100, 0], SIMD2<Double>(100, 100)]
    k.duration = 1
    k.beginTime = 1
    try l.addChecked(k, forKey: "k")
    XCTAssertEqual(l.presentation(at: 1.25).position, CGPoint(x: 50, y: 0))
    XCTAssertEqual(l.presentation(at: 1.75).position, CGPoint(x: 100, y: 50))
  }

  /// Values boxed in NSValue, as older Core Animation code writes them: `NSValue(cgPoint:)` for
  /// keyframes, `NSValue(caTransform3D:)` for a transform's ends (the pulse recipe).
  func testValuesBoxedInNSValue() throws {
    let l = layer()
    let k = KeyframeAnimation(keyPath: "position")
    k.values = [NSValue(cgPoint: CGPoint(x: 0, y: 0)), NSValue(cgPoint: CGPoint(x: 100, y: 0))]
    k.duration = 1
    k.beginTime = 1
    try l.addChecked(k, forKey: "k")
    XCTAssertEqual(l.presentation(at: 1.5).position, CGPoint(x: 50, y: 0))

    let pulse = BasicAnimation(keyPath: "transform")
    pulse.fromValue = NSValue(caTransform3D: Transform3DIdentity)
    pulse.toValue = NSValue(caTransform3D: Transform3DMakeScale(1.2, 1.2, 1))
    pulse.duration = 1
    pulse.beginTime = 3
    try l.addChecked(pulse, forKey: "pulse")
    XCTAssertEqual(l.presentation(at: 3.5).transform.m11, 1.1, accuracy: 1e-9)
    XCTAssertEqual(
      NSValue(caTransform3D: Transform3DMakeScale(2, 3, 4)).caTransform3DValue, Transform3DMakeScale(2, 3, 4))
    XCTAssertEqual(NSValue(cgRect: CGRect(x: 1, y: 2, width: 3, height: 4)).cgRectValue.maxY, 6)
    XCTAssertEqual(NSValue(cgPoint: .zero).caTransform3DValue, Transform3DIdentity, "not a transform: the identity")
    let bounds = BasicAnimation(keyPath: "bounds")
    bounds.toValue = NSValue(cgSize: CGSize(width: 1, height: 1))
    XCTAssertThrowsError(try l.addChecked(bounds, forKey: "bad"), "a size is no rect")
  }

  /// CAGradientLayer's `locations` are `[NSNumber]`: written as numbers or NSNumbers, read back
  /// as NSNumbers, animated as numbers.
  func testGradientLocationsAsNSNumbers() throws {
    let gradient = GradientLayer()
    gradient.colors = [Color.red.cgColor, Color.green.cgColor, Color.blue.cgColor]
    gradient.locations = [0, NSNumber(value: 0.25), 1]
    XCTAssertEqual(gradient.locations?[1].doubleValue, 0.25)
    let slide = BasicAnimation(keyPath: "locations")
    slide.fromValue = [0, 0.25, 1]
    slide.toValue = [0, 0.75, 1]
    slide.duration = 1
    slide.beginTime = 1
    try gradient.addChecked(slide, forKey: "slide")
    let halfway = gradient.presentation(at: 1.5)
    XCTAssertEqual(halfway.locations?.map(\.doubleValue), [0, 0.5, 1])
  }

  /// An animation made without a key path and given one afterwards; added without one, it is
  /// refused with a reason that says so. A spring from its perceptual parameters, without `try`.
  func testKeyPathSetAfterwards() throws {
    let l = layer()
    let fade = BasicAnimation()
    fade.keyPath = "opacity"
    fade.toValue = 0
    fade.duration = 1
    fade.beginTime = 1
    try l.addChecked(fade, forKey: "fade")
    XCTAssertEqual(l.presentation(at: 1.5).opacity, 0.5, accuracy: 1e-9)
    XCTAssertThrowsError(try l.addChecked(BasicAnimation(), forKey: "none")) {
      XCTAssertEqual("\($0)", "no key path: set keyPath before adding the animation")
    }
    let spring = SpringAnimation(perceptualDuration: 1, bounce: 0)
    XCTAssertGreaterThan(spring.stiffness, 0)
    XCTAssertEqual(
      spring.damping, 2 * (spring.stiffness * spring.mass).squareRoot(), accuracy: 1e-9, "no bounce: critical")
  }

  /// CAAnimationGroup's Listing 1 as written (value function scale, `[1, 1, 1]` to `[3, 3, 3]`).
  func testValueFunctionVectorsAsArrays() throws {
    let l = layer()
    let expandScale = BasicAnimation(keyPath: "transform")
    expandScale.valueFunction = .scale
    expandScale.fromValue = [1, 1, 1]
    expandScale.toValue = [3, 3, 3]
    expandScale.duration = 1
    expandScale.beginTime = 1
    try l.addChecked(expandScale, forKey: "scale")
    XCTAssertEqual(l.presentation(at: 1.5).transform.m11, 2, accuracy: 1e-9)
  }

  func testAFormWithNoValueOfTheKeyPathsTypeIsATypedError() throws {
    let l = layer()
    let a = BasicAnimation(keyPath: "position")
    a.toValue = [1, 2, 3]
    XCTAssertThrowsError(try l.addChecked(a, forKey: "bad")) { error in
      guard case .wrongValueType(let keyPath, _, _, _)? = error as? AnimationError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(keyPath, "position")
    }
    let b = BasicAnimation(keyPath: "opacity")
    b.toValue = CGPoint(x: 1, y: 2)
    XCTAssertThrowsError(try l.addChecked(b, forKey: "bad2"))
  }

  /// CAMediaTiming's Float fields take Float values: `repeatCount = .greatestFiniteMagnitude`
  /// repeats forever (as the CAMediaTiming reference says), `speed = Float(2)` doubles the pace;
  /// and a transition added under `kTransition` is kept there.
  func testFloatTimingFieldsAndTheTransitionKey() throws {
    let l = layer()
    let pulse = BasicAnimation(keyPath: "opacity")
    pulse.fromValue = 0
    pulse.toValue = 1
    pulse.duration = 1
    pulse.beginTime = 1
    pulse.repeatCount = .greatestFiniteMagnitude
    pulse.speed = Float(2)
    l.add(pulse, forKey: "pulse")
    XCTAssertEqual(l.presentation(at: 1.25).opacity, 0.5, accuracy: 1e-9)
    XCTAssertEqual(l.presentation(at: 1001.25).opacity, 0.5, accuracy: 1e-6)
    XCTAssertEqual(pulse.repeatCount, .infinity)
    let fade = Transition()
    l.add(fade, forKey: kTransition)
    XCTAssertEqual((l.animationKeys() ?? []).last, "transition")
  }

  /// `layer.add(animation, forKey:)` as Core Animation code writes it, without `try`: what cannot
  /// run is not added and is reported (`Layer.animationFailureReporter`); `addChecked` throws.
  func testAddWithoutTryReportsWhatItCannotAdd() throws {
    let reported = Reports()
    let previous = Layer.animationFailureReporter
    Layer.animationFailureReporter = { error, key in reported.append("\(key ?? "-"): \(error)") }
    defer { Layer.animationFailureReporter = previous }
    let l = layer()
    let fade = BasicAnimation(keyPath: "opacity")
    fade.fromValue = 0
    fade.toValue = 1
    fade.duration = 1
    fade.beginTime = 1
    l.add(fade, forKey: "fade")
    let bad = BasicAnimation(keyPath: "noSuchProperty")
    bad.toValue = 1
    l.add(bad, forKey: "bad")
    XCTAssertEqual((l.animationKeys() ?? []), ["fade"])
    XCTAssertEqual(l.presentation(at: 1.5).opacity, 0.5, accuracy: 1e-9)
    XCTAssertEqual(reported.lines.count, 1)
    XCTAssertTrue(reported.lines[0].hasPrefix("bad: "), reported.lines[0])
    XCTAssertThrowsError(try l.addChecked(bad, forKey: "bad"))
  }
}

private final class Reports: Sendable {
  private let stored = Locked([String]())
  func append(_ line: String) { stored.withLock { $0.append(line) } }
  var lines: [String] { stored.current }
}
