import Foundation
import LayerKit
import LayerKitReference
import XCTest

/// A corpus of typical Core Animation snippets — the shapes they take in Apple's documentation
/// and in common tutorials — each ported by dropping the CA prefix and nothing else (a UIView's
/// `view.layer` is a plain `Layer` here). One test a snippet, named by its kind; each checks what
/// the snippet is for. The one snippet that needs more than the renaming says so in its name and
/// comment (`override init()` → `required init()`).
final class PortedCorpusTests: XCTestCase {
  var view: Layer!
  var layer: Layer!

  override func setUp() {
    view = Layer()
    view.frame = CGRect(x: 0, y: 0, width: 320, height: 240)
    layer = Layer()
    layer.frame = CGRect(x: 60, y: 40, width: 100, height: 100)
    view.addSublayer(layer)
  }

  // MARK: Core Graphics types

  func testGeometry01RoundAvatar() {
    layer.frame = CGRect(x: 0, y: 0, width: 80, height: 80)
    layer.cornerRadius = layer.frame.width / 2
    layer.masksToBounds = true
    XCTAssertEqual(layer.cornerRadius, 40)
  }

  func testGeometry02CardShadow() {
    layer.shadowColor = Color.black.cgColor
    layer.shadowOffset = CGSize(width: 0, height: 2)
    layer.shadowRadius = 4
    layer.shadowOpacity = 0.3
    layer.shadowPath = UIBezierPath(roundedRect: layer.bounds, cornerRadius: 8).cgPath
    XCTAssertEqual(layer.shadowPath?.boundingBox, layer.bounds)
  }

  func testGeometry03AnchorAtTheBottom() {
    layer.anchorPoint = CGPoint(x: 0.5, y: 1.0)
    layer.position = CGPoint(x: view.bounds.midX, y: view.bounds.maxY)
    XCTAssertEqual(layer.frame.maxY, 240)
  }

  func testGeometry04Border() {
    layer.borderWidth = 2.0
    layer.borderColor = Color.red.cgColor
    XCTAssertEqual(layer.borderColor, .red)
  }

  func testGeometry05HorizontalGradient() {
    let gradient = GradientLayer()
    gradient.frame = view.bounds
    gradient.colors = [Color.red.cgColor, Color.blue.cgColor]
    gradient.startPoint = CGPoint(x: 0.0, y: 0.5)
    gradient.endPoint = CGPoint(x: 1.0, y: 0.5)
    gradient.locations = [0.0, 1.0]
    view.insertSublayer(gradient, at: 0)
    XCTAssertTrue(view.sublayers?.first === gradient)
  }

  func testGeometry06RotateAboutZ() {
    layer.transform = Transform3DMakeRotation(.pi / 4, 0, 0, 1)
    XCTAssertEqual(layer.transform.m12, sin(.pi / 4), accuracy: 1e-12)
  }

  func testGeometry07Perspective() {
    var transform = Transform3DIdentity
    transform.m34 = -1.0 / 500.0
    transform = Transform3DRotate(transform, .pi / 4, 0, 1, 0)
    layer.transform = transform
    XCTAssertFalse(Transform3DIsAffine(layer.transform))
  }

  func testGeometry08AffineScale() {
    layer.setAffineTransform(CGAffineTransform(scaleX: 1.5, y: 1.5))
    XCTAssertEqual(layer.frame.width, 150)
  }

  // MARK: Animations and the forms of their values

  func testAnimation09FadeOutAndStay() {
    let fade = BasicAnimation(keyPath: "opacity")
    fade.fromValue = 1.0
    fade.toValue = 0.0
    fade.duration = 0.5
    fade.fillMode = .forwards
    fade.isRemovedOnCompletion = false
    layer.add(fade, forKey: "fade")
    XCTAssertEqual(layer.presentation(at: 10).opacity, 0)
  }

  func testAnimation10Pulse() {
    let pulse = BasicAnimation(keyPath: "transform.scale")
    pulse.fromValue = 1.0
    pulse.toValue = 1.2
    pulse.duration = 0.6
    pulse.autoreverses = true
    pulse.repeatCount = .infinity
    pulse.timingFunction = MediaTimingFunction(name: .easeInEaseOut)
    layer.add(pulse, forKey: "pulse")
    XCTAssertEqual(layer.presentation(at: 0.6).transform.m11, 1.2, accuracy: 1e-9)
    XCTAssertEqual(layer.presentation(at: 1.2).transform.m11, 1.0, accuracy: 1e-9)
  }

  func testAnimation11SpinForever() {
    let rotation = BasicAnimation(keyPath: "transform.rotation.z")
    rotation.toValue = NSNumber(value: Double.pi * 2)
    rotation.duration = 1
    rotation.isCumulative = true
    rotation.repeatCount = Float.greatestFiniteMagnitude
    layer.add(rotation, forKey: "rotationAnimation")
    XCTAssertEqual(layer.presentation(at: 0.25).transform.m12, 1, accuracy: 1e-9)
  }

  func testAnimation12Shake() {
    let animation = KeyframeAnimation()
    animation.keyPath = "position.x"
    animation.values = [0, 10, -10, 10, 0]
    animation.keyTimes = [0, 0.16, 0.5, 0.83, 1]
    animation.duration = 0.4
    animation.isAdditive = true
    layer.add(animation, forKey: "shake")
    XCTAssertEqual(layer.presentation(at: 0.2).position.x, 100, accuracy: 1e-9, "half way: the -10 key")
  }

  func testAnimation13MixedKeyTimes() {
    let k = KeyframeAnimation(keyPath: "opacity")
    k.values = [0, 1, 0]
    k.keyTimes = [0, NSNumber(value: 1.0 / 6.0), 1]
    k.duration = 1
    layer.add(k, forKey: "blink")
    XCTAssertEqual(layer.presentation(at: 1.0 / 6.0).opacity, 1, accuracy: 1e-9)
  }

  func testAnimation14FollowACircle() {
    let circlePath = UIBezierPath(
      arcCenter: view.position, radius: 50, startAngle: 0, endAngle: .pi * 2, clockwise: true)
    let animation = KeyframeAnimation(keyPath: "position")
    animation.duration = 1
    animation.repeatCount = MAXFLOAT
    animation.path = circlePath.cgPath
    animation.calculationMode = .paced
    animation.rotationMode = .rotateAuto
    layer.add(animation, forKey: nil)
    let p = layer.presentation(at: 0.5).position
    XCTAssertEqual(hypot(p.x - view.position.x, p.y - view.position.y), 50, accuracy: 0.5)
  }

  func testAnimation15Group() {
    let scale = BasicAnimation(keyPath: "transform.scale")
    scale.toValue = 2
    let fade = BasicAnimation(keyPath: "opacity")
    fade.toValue = 0
    let group = AnimationGroup()
    group.animations = [scale, fade]
    group.duration = 2
    layer.add(group, forKey: "grow-and-fade")
    XCTAssertEqual(layer.presentation(at: 1).opacity, 0.5, accuracy: 1e-9)
  }

  func testAnimation16Spring() {
    let spring = SpringAnimation(perceptualDuration: 0.5, bounce: 0.3)
    spring.keyPath = "position.y"
    spring.fromValue = layer.position.y - 50
    spring.toValue = layer.position.y
    spring.initialVelocity = 5
    spring.duration = spring.settlingDuration
    layer.add(spring, forKey: nil)
    XCTAssertGreaterThan(spring.duration, 0)
    XCTAssertEqual(layer.presentation(at: spring.duration).position.y, 90, accuracy: 0.5)
  }

  func testAnimation17BackEasing() {
    let move = BasicAnimation(keyPath: "position.x")
    move.toValue = 300
    move.duration = 1
    move.timingFunction = MediaTimingFunction(controlPoints: 0.68, -0.55, 0.265, 1.55)
    layer.add(move, forKey: "move")
    XCTAssertLessThan(layer.presentation(at: 0.2).position.x, 110, "it backs up first")
  }

  func testAnimation18BoxedPoints() {
    let animation = KeyframeAnimation(keyPath: "position")
    animation.values = [NSValue(cgPoint: CGPoint(x: 0, y: 0)), NSValue(cgPoint: CGPoint(x: 100, y: 100))]
    animation.duration = 1
    layer.add(animation, forKey: "move")
    XCTAssertEqual(layer.presentation(at: 0.5).position, CGPoint(x: 50, y: 50))
  }

  func testAnimation19BoxedTransform() {
    let animation = BasicAnimation(keyPath: "transform")
    animation.toValue = NSValue(caTransform3D: Transform3DMakeScale(1.2, 1.2, 1))
    animation.duration = 1
    layer.add(animation, forKey: "grow")
    XCTAssertEqual(layer.presentation(at: 0.5).transform.m11, 1.1, accuracy: 1e-9)
  }

  func testAnimation20StartLater() {
    let scene = Scene(root: view, time: 3)
    let fade = BasicAnimation(keyPath: "opacity")
    fade.toValue = 0
    fade.beginTime = CurrentMediaTime() + 0.3
    fade.duration = 1
    layer.add(fade, forKey: nil)
    XCTAssertEqual(layer.presentation(at: 3.2).opacity, 1)
    XCTAssertEqual(layer.presentation(at: 3.8).opacity, 0.5, accuracy: 1e-9)
    XCTAssertEqual(scene.time, 3)
  }

  func testAnimation21Bounds() {
    let animation = BasicAnimation(keyPath: "bounds")
    animation.fromValue = layer.bounds
    animation.toValue = CGRect(x: 0, y: 0, width: 200, height: 100)
    animation.duration = 1
    layer.add(animation, forKey: "bounds")
    XCTAssertEqual(layer.presentation(at: 0.5).bounds.width, 150)
  }

  func testAnimation22FromThePosition() {
    let animation = BasicAnimation(keyPath: "position")
    animation.fromValue = layer.position
    animation.toValue = CGPoint(x: layer.position.x + 100, y: layer.position.y)
    animation.duration = 1
    layer.add(animation, forKey: "slide")
    XCTAssertEqual(layer.presentation(at: 0.5).position.x, 160)
  }

  // MARK: CATransaction

  func testTransaction23Duration() {
    let scene = Scene(root: view)
    _ = scene.presentation()
    Transaction.begin()
    Transaction.setAnimationDuration(1.0)
    layer.opacity = 0
    Transaction.commit()
    XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 1)
  }

  func testTransaction24DisableActions() {
    let scene = Scene(root: view)
    _ = scene.presentation()
    Transaction.begin()
    Transaction.setDisableActions(true)
    layer.position = CGPoint(x: 10, y: 10)
    Transaction.commit()
    XCTAssertNil(layer.animationKeys())
  }

  func testTransaction25CompletionBlock() {
    let scene = Scene(root: view)
    var done = false
    Transaction.begin()
    Transaction.setCompletionBlock { done = true }
    let fade = BasicAnimation(keyPath: "opacity")
    fade.toValue = 0
    fade.duration = 0.5
    layer.add(fade, forKey: nil)
    Transaction.commit()
    scene.advance(to: 1)
    XCTAssertTrue(done)
    Transaction.begin()
    Transaction.setCompletionBlock(nil)
    XCTAssertNil(Transaction.completionBlock())
    Transaction.commit()
  }

  func testTransaction26TimingFunction() {
    let scene = Scene(root: view)
    _ = scene.presentation()
    Transaction.begin()
    Transaction.setAnimationTimingFunction(MediaTimingFunction(name: .easeOut))
    layer.opacity = 0.5
    Transaction.commit()
    XCTAssertEqual(layer.animation(forKey: "opacity")?.timingFunction, MediaTimingFunction(name: .easeOut))
  }

  func testTransaction27ValueForKey() {
    Transaction.begin()
    Transaction.setValue(true, forKey: kTransactionDisableActions)
    XCTAssertTrue(Transaction.disableActions())
    Transaction.commit()
  }

  // MARK: The media clock

  func testClock28PresentationNow() {
    let scene = Scene(root: view)
    let move = BasicAnimation(keyPath: "position.x")
    move.toValue = 260
    move.duration = 2
    layer.add(move, forKey: nil)
    scene.advance(to: 1)
    XCTAssertEqual(layer.presentation()?.position.x ?? 0, 185, accuracy: 1e-9)
  }

  func testClock29LayerTimeOfNow() {
    let scene = Scene(root: view, time: 2)
    layer.speed = 2
    let now = layer.convertTime(CurrentMediaTime(), from: nil)
    XCTAssertEqual(now, 4)
    XCTAssertEqual(scene.time, 2)
  }

  // MARK: Constants and names

  func testConstants30FillModeAndTiming() {
    let anim = BasicAnimation(keyPath: "opacity")
    anim.fillMode = kFillModeForwards
    anim.timingFunction = MediaTimingFunction(name: kMediaTimingFunctionEaseInEaseOut)
    XCTAssertEqual(anim.fillMode, .forwards)
  }

  func testConstants31PushTransition() {
    let transition = Transition()
    transition.type = kTransitionPush
    transition.subtype = kTransitionFromRight
    transition.duration = 0.3
    layer.add(transition, forKey: kTransition)
    XCTAssertNotNil(layer.animation(forKey: kTransition))
  }

  func testConstants32Gravity() {
    layer.contentsGravity = kGravityResizeAspect
    layer.magnificationFilter = kFilterNearest
    XCTAssertEqual(layer.contentsGravity, .resizeAspect)
  }

  func testConstants33ShapeStyle() {
    let shape = ShapeLayer()
    shape.lineCap = kLineCapRound
    shape.lineJoin = kLineJoinRound
    shape.fillRule = kFillRuleEvenOdd
    XCTAssertEqual(shape.lineJoin, .round)
  }

  func testConstants34ValueFunction() {
    let spin = BasicAnimation(keyPath: "transform")
    spin.valueFunction = ValueFunction(name: kValueFunctionRotateZ)
    spin.fromValue = 0
    spin.toValue = Double.pi
    spin.duration = 1
    layer.add(spin, forKey: nil)
    XCTAssertEqual(layer.presentation(at: 0.5).transform.m12, 1, accuracy: 1e-9)
  }

  func testConstants35TextModes() {
    let text = TextLayer()
    text.alignmentMode = kAlignmentCenter
    text.truncationMode = kTruncationEnd
    XCTAssertEqual(text.alignmentMode, .center)
  }

  // MARK: Paths

  func testPaths36ProgressRing() {
    let circle = UIBezierPath(
      arcCenter: CGPoint(x: 50, y: 50), radius: 40, startAngle: -.pi / 2, endAngle: 3 * .pi / 2, clockwise: true)
    let progress = ShapeLayer()
    progress.path = circle.cgPath
    progress.strokeColor = Color.blue.cgColor
    progress.fillColor = Color.clear.cgColor
    progress.lineWidth = 8
    progress.strokeEnd = 0
    let draw = BasicAnimation(keyPath: "strokeEnd")
    draw.fromValue = 0
    draw.toValue = 1
    draw.duration = 2
    progress.add(draw, forKey: "draw")
    XCTAssertEqual(progress.presentation(at: 1).strokeEnd, 0.5, accuracy: 1e-9)
  }

  /// As written: CGMutablePath is a reference type, as Core Graphics' is.
  func testPaths37MutablePath() {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 0, y: 100))
    path.addLine(to: CGPoint(x: 50, y: 0))
    path.addLine(to: CGPoint(x: 100, y: 100))
    path.closeSubpath()
    let triangle = ShapeLayer()
    triangle.path = path
    XCTAssertEqual(triangle.path?.boundingBox, CGRect(x: 0, y: 0, width: 100, height: 100))
  }

  func testPaths38RoundedRect() {
    let path = CGPath(roundedRect: layer.bounds, cornerWidth: 10, cornerHeight: 10, transform: nil)
    let mask = ShapeLayer()
    mask.path = path
    layer.mask = mask
    XCTAssertTrue(layer.mask === mask)
  }

  func testPaths39OvalAndRect() {
    let oval = UIBezierPath(ovalIn: CGRect(x: 0, y: 0, width: 40, height: 20)).cgPath
    let rect = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 40, height: 20)).cgPath
    XCTAssertEqual(oval.boundingBox, rect.boundingBox)
  }

  func testPaths40Arc() {
    let path = CGMutablePath()
    path.addArc(center: CGPoint(x: 50, y: 50), radius: 25, startAngle: 0, endAngle: .pi, clockwise: false)
    XCTAssertEqual(path.boundingBoxOfPath.height, 25, accuracy: 0.02)
  }

  // MARK: Key-value coding

  func testKVC41TaggedAnimation() {
    final class Watcher: AnimationDelegate {
      var stopped: [String] = []
      func animationDidStop(_ anim: Animation, finished flag: Bool) {
        if let name = anim.value(forKey: "name") as? String { stopped.append(name) }
      }
    }
    let scene = Scene(root: view)
    let watcher = Watcher()
    let fade = BasicAnimation(keyPath: "opacity")
    fade.toValue = 0
    fade.duration = 0.5
    fade.setValue("fadeOut", forKey: "name")
    fade.delegate = watcher
    layer.add(fade, forKey: nil)
    scene.advance(to: 1)
    XCTAssertEqual(watcher.stopped, ["fadeOut"])
  }

  func testKVC42ScaleByKeyPath() {
    layer.setValue(1.5, forKeyPath: "transform.scale")
    XCTAssertEqual(layer.transform.m11, 1.5)
    XCTAssertEqual(layer.value(forKeyPath: "transform.scale") as? Double, 1.5)
  }
}
