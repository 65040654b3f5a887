import Foundation
import LayerKit
import LayerKitReference
import XCTest

/// Core Animation code as its references write it, ported by renaming only (CA prefix dropped,
/// `kCATransition` → `kTransition`, a `CGColor` → `Color`; Core Graphics' types kept): no `try`, no
/// `beginTime` (0 means now), values in the forms the references use. Each snippet is followed by
/// what the reference says it does, checked on the model or on the CPU renderer's pixels.
final class PortedSnippetsTests: XCTestCase {
  private func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
    let i = (y * image.width + x) * 4
    return Array(image.pixels[i..<i + 4])
  }

  /// CAAnimationGroup's reference: a fade and a scale through a value function, run together
  /// for the group's duration.
  func testTheAnimationGroupReference() throws {
    let layer = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))

    let fadeOut = BasicAnimation(keyPath: "opacity")
    fadeOut.fromValue = 1
    fadeOut.toValue = 0

    let expandScale = BasicAnimation(keyPath: "transform")
    expandScale.valueFunction = .scale
    expandScale.fromValue = [1, 1, 1]
    expandScale.toValue = [3, 3, 3]

    let fadeAndScale = AnimationGroup()
    fadeAndScale.animations = [fadeOut, expandScale]
    fadeAndScale.duration = 1

    layer.add(fadeAndScale, forKey: nil)

    let halfway = layer.presentation(at: 0.5)
    XCTAssertEqual(halfway.opacity, 0.5, accuracy: 1e-9)
    XCTAssertEqual(halfway.transform.m11, 2, accuracy: 1e-9)
    XCTAssertEqual(halfway.transform.m22, 2, accuracy: 1e-9)
    // Removed when done (removedOnCompletion), the model shows again.
    XCTAssertEqual(layer.presentation(at: 1.5).opacity, 1)
  }

  /// CAReplicatorLayer's reference recipe: one square, repeated along x by instanceTransform,
  /// each copy's red and green lowered by the offsets.
  func testTheReplicatorLayerRecipe() throws {
    let root = Layer(frame: CGRect(x: 0, y: 0, width: 100, height: 20))
    let replicatorLayer = ReplicatorLayer()
    replicatorLayer.frame = root.bounds
    replicatorLayer.instanceCount = 5
    replicatorLayer.instanceTransform = Transform3DMakeTranslation(20, 0, 0)
    replicatorLayer.instanceRedOffset = -0.2
    replicatorLayer.instanceGreenOffset = -0.2

    let square = Layer()
    square.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
    square.backgroundColor = .white
    replicatorLayer.addSublayer(square)
    root.addSublayer(replicatorLayer)

    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: root, width: 100, height: 20))
    for k in 0..<5 {
      let p = pixel(out, 20 * k + 10, 10)
      let expected = 255 - 51 * k
      XCTAssertEqual(Int(p[0]), expected, accuracy: 1, "copy \(k) red")
      XCTAssertEqual(Int(p[1]), expected, accuracy: 1, "copy \(k) green")
      XCTAssertEqual(p[2], 255, "copy \(k) blue")
    }
  }

  /// CAGradientLayer as tutorials write it: two colours, left to right, filling the layer.
  func testTheGradientLayerTutorial() throws {
    let gradientLayer = GradientLayer()
    gradientLayer.frame = CGRect(x: 0, y: 0, width: 101, height: 10)
    gradientLayer.colors = [Color.red, Color.blue]
    gradientLayer.locations = [0.0, 1.0]
    gradientLayer.startPoint = CGPoint(x: 0.0, y: 0.5)
    gradientLayer.endPoint = CGPoint(x: 1.0, y: 0.5)

    let out = try ReferenceRenderer(threadCount: 1).render(
      try RenderList(layer: gradientLayer, width: 101, height: 10))
    let left = pixel(out, 0, 5)
    let middle = pixel(out, 50, 5)
    let right = pixel(out, 100, 5)
    XCTAssertGreaterThan(left[0], 250)
    XCTAssertLessThan(left[2], 5)
    XCTAssertEqual(Int(middle[0]), 128, accuracy: 2)
    XCTAssertEqual(Int(middle[2]), 128, accuracy: 2)
    XCTAssertLessThan(right[0], 5)
    XCTAssertGreaterThan(right[2], 250)
  }

  /// CATransition's reference: a push from the right, added under kCATransition.
  func testTheTransitionReference() throws {
    let layer = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
    let transition = Transition()
    transition.duration = 0.5
    transition.type = .push
    transition.subtype = .fromRight
    layer.add(transition, forKey: kTransition)
    XCTAssertEqual((layer.animationKeys() ?? []), ["transition"])
    XCTAssertEqual((layer.animation(forKey: kTransition) as? Transition)?.type, .push)
  }

  /// CATransformLayer's reference: sublayers keep their 3D places; the layer draws nothing itself.
  func testTheTransformLayerReference() throws {
    let root = Layer(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
    let container = TransformLayer()
    container.frame = root.bounds
    container.backgroundColor = .red  // ignored, as Core Animation ignores it
    var perspective = Transform3D.identity
    perspective.m34 = -1.0 / 500
    container.transform = perspective
    let face = Layer(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
    face.backgroundColor = .blue
    container.addSublayer(face)
    root.addSublayer(container)

    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: root, width: 40, height: 40))
    XCTAssertEqual(pixel(out, 2, 2), [0, 0, 0, 0], "the transform layer's own background is not drawn")
    XCTAssertEqual(pixel(out, 20, 20), [0, 0, 255, 255])
  }

  /// CAShapeLayer's reference, Listing 1: a flower of twelve transformed ellipses, filled
  /// even-odd (the overlapping petals stay empty) and stroked. The one change beyond renaming
  /// (`UIColor` → `Color`, CG and CA prefixes dropped): CGMutablePath is a class there and Path a
  /// value here, so `let path` becomes `var path`.
  func testTheShapeLayerReference() throws {
    let width: CGFloat = 640
    let height: CGFloat = 640

    let shapeLayer = ShapeLayer()
    shapeLayer.frame = CGRect(x: 0, y: 0, width: width, height: height)

    var path = Path()

    stride(from: 0, to: CGFloat.pi * 2, by: CGFloat.pi / 6).forEach {
      angle in
      var transform = AffineTransform(rotationAngle: angle)
        .concatenating(AffineTransform(translationX: width / 2, y: height / 2))

      let petal = Path(ellipseIn: CGRect(x: -20, y: 0, width: 40, height: 100), transform: &transform)

      path.addPath(petal)
    }

    shapeLayer.pathValue = path
    shapeLayer.strokeColor = Color.red.cgColor
    shapeLayer.fillColor = Color.yellow.cgColor
    shapeLayer.fillRule = kFillRuleEvenOdd

    let image = try ReferenceRenderer().render(try RenderList(layer: shapeLayer, width: 640, height: 640))
    // Down the first petal (angle 0: centre (320, 370)), points inside one, two and three
    // petals: even-odd fills the odd ones and leaves the others empty; the petal's tip at
    // (320, 420) is its red outline, half over the pixel below; far outside nothing is drawn.
    XCTAssertEqual(pixel(image, 320, 400), [255, 255, 0, 255], "one petal")
    XCTAssertEqual(pixel(image, 330, 355)[3], 0, "two petals overlap: even-odd leaves it empty")
    XCTAssertEqual(pixel(image, 320, 346), [255, 255, 0, 255], "three petals")
    let tip = pixel(image, 320, 420)
    XCTAssertEqual([tip[1], tip[2]], [0, 0], "the outline is red")
    XCTAssertTrue((100...140).contains(tip[3]) && tip[0] == tip[3], "half covered: \(tip)")
    XCTAssertEqual(pixel(image, 10, 10), [0, 0, 0, 0])
  }

  /// The "draw a circle" tutorial recipe: a circle path, no fill, a red 5-wide stroke whose
  /// strokeEnd animates 0 → 1 linearly over a second; halfway, half the circle is drawn
  /// (clockwise on screen from the top, as addArc with clockwise false runs in y-down space).
  func testTheDrawACircleRecipe() throws {
    let circleLayer = ShapeLayer()
    circleLayer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    var path = Path()
    path.addArc(center: CGPoint(x: 50, y: 50), radius: 40, startAngle: -.pi / 2, endAngle: 1.5 * .pi, clockwise: false)
    circleLayer.pathValue = path
    circleLayer.fillColor = Color.clear
    circleLayer.strokeColor = Color.red
    circleLayer.lineWidth = 5
    circleLayer.strokeEnd = 0

    let animation = BasicAnimation(keyPath: "strokeEnd")
    animation.duration = 1
    animation.fromValue = 0
    animation.toValue = 1
    animation.timingFunction = MediaTimingFunction(name: .linear)
    circleLayer.strokeEnd = 1
    circleLayer.add(animation, forKey: "animateCircle")

    let halfway = circleLayer.presentation(at: 0.5)
    XCTAssertEqual(halfway.strokeEnd, 0.5, accuracy: 1e-9, "presentation(at:) is a ShapeLayer, as CALayer's is Self")
    let image = try ReferenceRenderer().render(try RenderList(layer: halfway, width: 100, height: 100))
    XCTAssertEqual(pixel(image, 90, 50), [255, 0, 0, 255], "a quarter: drawn")
    XCTAssertEqual(pixel(image, 50, 90), [255, 0, 0, 255], "half: drawn")
    XCTAssertEqual(pixel(image, 10, 50)[3], 0, "three quarters: not yet")
    XCTAssertEqual(pixel(image, 50, 50)[3], 0, "no fill")
  }

  /// The card-styling recipe of countless tutorials: rounded top corners (continuous), a hairline
  /// border, a soft shadow, and the rendering hints ported code sets (kept, without effect).
  func testTheCardStylingRecipe() throws {
    let card = Layer()
    card.frame = CGRect(x: 20, y: 20, width: 120, height: 80)
    card.backgroundColor = Color.white.cgColor
    card.cornerRadius = 16
    card.cornerCurve = .continuous
    card.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
    card.borderWidth = 1
    card.borderColor = Color.lightGray.cgColor
    card.shadowColor = Color.black.cgColor
    card.shadowOpacity = 0.3
    card.shadowOffset = CGSize(width: 0, height: 4)
    card.shadowRadius = 8
    card.allowsEdgeAntialiasing = true
    card.shouldRasterize = true
    card.rasterizationScale = 2

    let root = Layer(frame: CGRect(x: 0, y: 0, width: 160, height: 130))
    root.addSublayer(card)
    let image = try ReferenceRenderer().render(try RenderList(layer: root, width: 160, height: 130))
    XCTAssertEqual(pixel(image, 80, 60), [255, 255, 255, 255], "the card")
    XCTAssertEqual(pixel(image, 22, 97), [255, 255, 255, 255], "a square bottom corner")
    XCTAssertLessThan(pixel(image, 21, 21)[3], 64, "a rounded top corner: only the shadow")
    XCTAssertEqual(pixel(image, 20, 60)[0], 170, accuracy: 2, "the light gray border")
    let shade = pixel(image, 80, 103)
    XCTAssertTrue(shade[0] == 0 && shade[3] > 20 && shade[3] < 77, "the shadow below: \(shade)")
  }
}
