import Foundation
import LayerKit
import XCTest

/// Core Animation code in the forms it is written in, ported by dropping the CA prefix: the
/// media clock (CACurrentMediaTime, QA1673's pause and resume), CATransaction's class methods
/// and keys, key-value coding on animations and layers, `animationKeys()`, `presentation()`,
/// `settlingDuration` without `try`, and the kCA… constants.
final class PortedClassMethodsTests: XCTestCase {
  /// Apple's QA1673, "How to pause the animation of a layer tree", as written: pausing holds the
  /// layer at its time then; resuming carries on from there.
  func testQA1673PausesAndResumesAsWritten() {
    func pauseLayer(layer: Layer) {
      let pausedTime: CFTimeInterval = layer.convertTime(CurrentMediaTime(), from: nil)
      layer.speed = 0.0
      layer.timeOffset = pausedTime
    }
    func resumeLayer(layer: Layer) {
      let pausedTime: CFTimeInterval = layer.timeOffset
      layer.speed = 1.0
      layer.timeOffset = 0.0
      layer.beginTime = 0.0
      let timeSincePause: CFTimeInterval = layer.convertTime(CurrentMediaTime(), from: nil) - pausedTime
      layer.beginTime = timeSincePause
    }
    let root = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
    let layer = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
    root.addSublayer(layer)
    let scene = Scene(root: root)
    let fade = BasicAnimation(keyPath: "opacity")
    fade.fromValue = 0
    fade.toValue = 1
    fade.duration = 2
    layer.add(fade, forKey: "fade")
    scene.advance(to: 1)
    XCTAssertEqual(CurrentMediaTime(), 1)
    XCTAssertEqual(layer.presentation()?.opacity ?? -1, 0.5, accuracy: 1e-9)
    pauseLayer(layer: layer)
    scene.advance(to: 3)
    XCTAssertEqual(layer.presentation()?.opacity ?? -1, 0.5, accuracy: 1e-9, "paused: held at 1 s")
    resumeLayer(layer: layer)
    scene.advance(to: 3.5)
    XCTAssertEqual(layer.presentation()?.opacity ?? -1, 0.75, accuracy: 1e-9, "resumed from 1 s: now 1.5 s in")
  }

  /// `beginTime = CACurrentMediaTime() + 0.5` starts half a second after now.
  func testBeginTimeFromTheMediaClock() {
    let layer = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
    let scene = Scene(root: layer, time: 10)
    let move = BasicAnimation(keyPath: "position.x")
    move.fromValue = 0
    move.toValue = 100
    move.duration = 1
    move.beginTime = CurrentMediaTime() + 0.5
    layer.add(move, forKey: "move")
    XCTAssertEqual(layer.presentation(at: 10.25).position.x, 5, "not started: the model value")
    XCTAssertEqual(layer.presentation(at: 11).position.x, 50, accuracy: 1e-9)
    XCTAssertEqual(scene.time, 10)
  }

  /// CATransaction's class methods and keys: setAnimationDuration, setAnimationTimingFunction,
  /// setDisableActions, setCompletionBlock, setValue(_:forKey:) and value(forKey:).
  func testTransactionClassMethods() {
    let root = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
    let scene = Scene(root: root)
    _ = scene.presentation()
    var done = false
    Transaction.begin()
    Transaction.setAnimationDuration(2)
    Transaction.setAnimationTimingFunction(MediaTimingFunction(name: kMediaTimingFunctionEaseIn))
    Transaction.setCompletionBlock { done = true }
    Transaction.setValue("mine", forKey: "tag")
    XCTAssertEqual(Transaction.value(forKey: kTransactionAnimationDuration) as? Double, 2)
    XCTAssertEqual(Transaction.animationDuration(), 2)
    XCTAssertEqual(Transaction.animationTimingFunction(), MediaTimingFunction(name: .easeIn))
    XCTAssertEqual(Transaction.value(forKey: "tag") as? String, "mine")
    XCTAssertNotNil(Transaction.completionBlock())
    root.opacity = 0
    Transaction.commit()
    let implicit = root.animation(forKey: "opacity")
    XCTAssertEqual(implicit?.duration, 2)
    XCTAssertEqual(implicit?.timingFunction, MediaTimingFunction(name: .easeIn))
    scene.advance(to: 2.5)
    XCTAssertTrue(done, "the completion block ran once the animation ended")

    Transaction.begin()
    Transaction.setDisableActions(true)
    XCTAssertEqual(Transaction.value(forKey: kTransactionDisableActions) as? Bool, true)
    XCTAssertTrue(Transaction.disableActions())
    root.opacity = 1
    Transaction.commit()
    XCTAssertNil(root.animation(forKey: "opacity"), "actions disabled: no implicit animation")
    Transaction.begin()
    Transaction.setValue(NSNumber(value: 0.75), forKey: kTransactionAnimationDuration)
    root.opacity = 0.5
    Transaction.commit()
    XCTAssertEqual(root.animation(forKey: "opacity")?.duration, 0.75)
  }

  /// Key-value coding: an animation tagged for its delegate keeps its tag on the copy the layer
  /// stores; a layer's animatable key paths set and read its properties, in CA's value forms.
  func testKeyValueCodingOnAnimationsAndLayers() {
    let layer = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
    let spin = BasicAnimation(keyPath: "transform.rotation.z")
    spin.toValue = Double.pi
    spin.setValue("spinner", forKey: "animationID")
    layer.add(spin, forKey: "spin")
    XCTAssertEqual(layer.animation(forKey: "spin")?.value(forKey: "animationID") as? String, "spinner")
    XCTAssertEqual(layer.animationKeys(), ["spin"])
    XCTAssertNil(Layer().animationKeys(), "none: nil, as CALayer answers")

    layer.setValue(NSNumber(value: 0.5), forKey: "opacity")
    XCTAssertEqual(layer.opacity, 0.5)
    layer.setValue([3, 4], forKey: "position")
    XCTAssertEqual(layer.position, CGPoint(x: 3, y: 4))
    layer.setValue(CGFloat(2), forKey: "transform.scale")
    XCTAssertEqual(layer.transform.m11, 2, accuracy: 1e-12)
    XCTAssertEqual(layer.value(forKey: "opacity") as? Double, 0.5)
    layer.setValue("hello", forKey: "myTag")
    XCTAssertEqual(layer.value(forKey: "myTag") as? String, "hello")
    XCTAssertNil(layer.value(forKey: "nothing"))
    // A value that does not fit the property is not set (and is reported).
    layer.setValue("loud", forKey: "opacity")
    XCTAssertEqual(layer.opacity, 0.5)
  }

  /// Spellings as CA writes them: settlingDuration without try, ValueFunction(name:), the kCA…
  /// constants and `.rotateAuto`.
  func testSpellings() {
    let spring = SpringAnimation(keyPath: "position.y")
    spring.damping = 5
    spring.duration = spring.settlingDuration
    XCTAssertGreaterThan(spring.duration, 0.5)
    let bad = SpringAnimation(keyPath: "position.y")
    bad.mass = 0
    XCTAssertEqual(bad.settlingDuration, 0)
    XCTAssertThrowsError(try bad.checkedSettlingDuration())

    let grow = BasicAnimation(keyPath: "transform")
    grow.valueFunction = ValueFunction(name: .rotateZ)
    XCTAssertEqual(grow.valueFunction, kValueFunctionRotateZ)
    grow.fillMode = kFillModeForwards
    XCTAssertEqual(grow.fillMode, .forwards)
    let orbit = KeyframeAnimation(keyPath: "position")
    orbit.calculationMode = kAnimationPaced
    orbit.rotationMode = .rotateAuto
    XCTAssertEqual(orbit.rotationMode, kAnimationRotateAuto)
    let transition = Transition()
    transition.type = kTransitionPush
    transition.subtype = kTransitionFromRight
    XCTAssertEqual(transition.type, .push)
    let shape = ShapeLayer()
    shape.lineCap = kLineCapRound
    shape.lineJoin = kLineJoinBevel
    shape.fillRule = kFillRuleEvenOdd
    let image = Layer()
    image.contentsGravity = kGravityResizeAspectFill
    XCTAssertEqual(image.contentsGravity, .resizeAspectFill)
    XCTAssertEqual(shape.lineCap, .round)
    let emitter = EmitterLayer()
    emitter.emitterShape = kEmitterLayerCircle
    emitter.emitterMode = kEmitterLayerOutline
    emitter.renderMode = kEmitterLayerAdditive
    XCTAssertEqual(emitter.emitterShape, .circle)
    XCTAssertEqual(emitter.emitterMode, .outline)
    XCTAssertEqual(emitter.renderMode, .additive)
  }

  /// CALayer's `actions` and a delegate's `action(for:forKey:)` as Core Animation code writes
  /// them: `NSNull()` turns an implicit animation off, an animation replaces the default one,
  /// and an action of one's own (CAAction) is run with the layer.
  func testActionsAsWritten() {
    final class Logged: Action {
      var events: [String] = []
      func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        events.append(event)
      }
    }
    final class Delegate: LayerDelegate {
      func action(for layer: Layer, forKey event: String) -> (any Action)? {
        event == "cornerRadius" ? NSNull() : nil
      }
    }
    let root = Layer()
    root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    let layer = Layer()
    layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
    root.addSublayer(layer)
    let scene = Scene(root: root)
    _ = scene.presentation()
    let slowFade = BasicAnimation(keyPath: "opacity")
    slowFade.duration = 3
    let logged = Logged()
    layer.actions = ["position": NSNull(), "opacity": slowFade, "zPosition": logged]
    let delegate = Delegate()
    layer.delegate = delegate
    layer.position = CGPoint(x: 50, y: 50)
    layer.opacity = 0.5
    layer.zPosition = 2
    layer.cornerRadius = 4
    layer.borderWidth = 1
    XCTAssertEqual(Set(layer.animationKeys() ?? []), ["opacity", "borderWidth"], "position and cornerRadius: NSNull")
    XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 3)
    XCTAssertEqual(logged.events, ["zPosition"])
    XCTAssertTrue(layer.action(forKey: "position") is NSNull)
    layer.actions = nil
    XCTAssertTrue(layer.action(forKey: "position") is BasicAnimation, "the default action again")
  }

  /// `CAMediaTimingFunction(controlPoints:_:_:_:)` as written, without `try`; numbers that would
  /// not make a function of time are mended (x clamped into [0, 1]) and reported, not thrown.
  func testTimingFunctionFromControlPointsWithoutTry() {
    let bounce = BasicAnimation(keyPath: "position.y")
    bounce.timingFunction = MediaTimingFunction(controlPoints: 0.34, 1.56, 0.64, 1)
    XCTAssertEqual(bounce.timingFunction?.c1y, 1.56)

    let saved = Layer.animationFailureReporter
    defer { Layer.animationFailureReporter = saved }
    let heard = Locked<[AnimationError]>([])
    Layer.animationFailureReporter = { error, _ in heard.withLock { $0.append(error) } }
    let mended = MediaTimingFunction(controlPoints: 1.5, 0, .nan, 1)
    XCTAssertEqual(mended.c1x, 1)
    XCTAssertEqual(mended.c2x, 1, "not finite: the linear curve's")
    XCTAssertEqual(heard.current.count, 1)
    guard case .invalidTiming(.nonFinite(_, "c2x"))? = heard.current.first else {
      return XCTFail("\(heard.current)")
    }
  }

  /// `sublayers` is optional as CALayer's: nil when there are none, so the usual idioms port.
  func testSublayersAsCALayersAre() {
    let container = Layer()
    XCTAssertNil(container.sublayers)
    for i in 0..<3 {
      let dot = Layer()
      dot.name = "dot\(i)"
      container.insertSublayer(dot, at: UInt32(i))
    }
    XCTAssertEqual(container.sublayers?.count, 3)
    XCTAssertEqual(container.sublayers?.map(\.name), ["dot0", "dot1", "dot2"])
    container.sublayers?.forEach { $0.removeFromSuperlayer() }
    XCTAssertNil(container.sublayers)
    container.sublayers = [Layer(), Layer()]
    XCTAssertEqual(container.sublayers?.count, 2)
    container.sublayers = nil
    XCTAssertNil(container.sublayers)
  }

  /// Key paths into an emitter's cells by name, as particle recipes turn a cell off or change
  /// it afterwards; a path that names no cell is reported, not set.
  func testEmitterCellKeyPaths() {
    let spark = EmitterCell()
    spark.name = "spark"
    spark.birthRate = 50
    let rocket = EmitterCell()
    rocket.name = "rocket"
    rocket.birthRate = 2
    rocket.emitterCells = [spark]
    let emitter = EmitterLayer()
    emitter.emitterCells = [rocket]
    emitter.setValue(0, forKeyPath: "emitterCells.rocket.birthRate")
    emitter.setValue(NSNumber(value: 120.5), forKeyPath: "emitterCells.rocket.emitterCells.spark.velocity")
    emitter.setValue(false, forKeyPath: "emitterCells.rocket.emitterCells.spark.enabled")
    XCTAssertEqual(rocket.birthRate, 0)
    XCTAssertEqual(spark.velocity, 120.5)
    XCTAssertFalse(spark.isEnabled)
    XCTAssertEqual(emitter.value(forKeyPath: "emitterCells.rocket.emitterCells.spark.birthRate") as? Double, 50)

    let saved = Layer.animationFailureReporter
    defer { Layer.animationFailureReporter = saved }
    let heard = Locked<[String?]>([])
    Layer.animationFailureReporter = { error, _ in
      if case .unsupported(let path, _) = error { heard.withLock { $0.append(path) } }
    }
    emitter.setValue(1, forKeyPath: "emitterCells.comet.birthRate")
    XCTAssertEqual(heard.current, ["emitterCells.comet.birthRate"])
    XCTAssertNil(emitter.value(forKeyPath: "emitterCells.comet.birthRate"))
  }

  /// Mixed numeric arrays as CAKeyframeAnimation's `keyTimes` ([NSNumber]) are written.
  func testKeyTimesInTheirMixedForm() {
    let layer = Layer(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
    let blink = KeyframeAnimation(keyPath: "opacity")
    blink.values = [0, 1, 0.5]
    blink.keyTimes = [0, NSNumber(value: 1.0 / 6.0), 1]
    blink.duration = 1
    layer.add(blink, forKey: "blink")
    XCTAssertEqual(layer.presentation(at: 1.0 / 6.0).opacity, 1, accuracy: 1e-9)
    XCTAssertEqual(layer.presentation(at: 1.0 / 12.0).opacity, 0.5, accuracy: 1e-9)
    XCTAssertEqual(layer.presentation(at: 7.0 / 12.0).opacity, 0.75, accuracy: 1e-9)
  }

  /// UIBezierPath as Core Animation code builds its shapes with it: a reference type (`let`),
  /// `.cgPath` for the layer, and UIKit's `clockwise` (visually clockwise on the y-down screen):
  /// from 3 o'clock to 9 o'clock clockwise passes 6 o'clock, below the centre.
  func testUIBezierPathAsWritten() {
    let shape = ShapeLayer()
    let path = UIBezierPath(
      arcCenter: CGPoint(x: 50, y: 50), radius: 20, startAngle: 0, endAngle: .pi, clockwise: true)
    path.addLine(to: CGPoint(x: 50, y: 50))
    path.close()
    shape.path = path.cgPath
    let box = shape.path!.boundingBox
    XCTAssertEqual(box.origin.y, 50, accuracy: 1e-9, "nothing above the centre")
    XCTAssertEqual(box.origin.y + box.size.height, 70, accuracy: 1e-6, "down to 6 o'clock")
    let oval = UIBezierPath(ovalIn: CGRect(x: 0, y: 0, width: 10, height: 20))
    XCTAssertEqual(oval.cgPath.boundingBox, CGRect(x: 0, y: 0, width: 10, height: 20))
    let rounded = UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 10, height: 10), cornerRadius: 2)
    XCTAssertFalse(rounded.isEmpty)
  }

  /// CGPath's initializers as written.
  func testCGPathInitializersAsWritten() {
    let shape = ShapeLayer()
    shape.path = CGPath(
      roundedRect: CGRect(x: 0, y: 0, width: 20, height: 10), cornerWidth: 4, cornerHeight: 4, transform: nil)
    XCTAssertEqual(shape.path?.boundingBox, CGRect(x: 0, y: 0, width: 20, height: 10))
    var shift = AffineTransform(translationX: 5, y: 0)
    shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10), transform: &shift)
    XCTAssertEqual(shape.path?.boundingBox.origin.x ?? -1, 5, accuracy: 1e-9)
    shape.path = CGPath(rect: CGRect(x: 1, y: 2, width: 3, height: 4), transform: nil)
    XCTAssertEqual(shape.path?.boundingBox, CGRect(x: 1, y: 2, width: 3, height: 4))
  }
}
