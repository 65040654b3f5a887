import LayerKit
import XCTest

/// Custom animatable property, the Swift way (`@Managed` where Core Animation code has
/// `@NSManaged`), drawn by `draw(in:)` and redrawn each frame while it animates.
final class ProgressRingLayer: Layer {
  @Managed var progress: CGFloat
  var ringColor: CGColor = UIColor.systemGreen.cgColor

  // The one word LayerKit asks for: Core Animation code writes `override init()`. LayerKit makes
  // a layer's presentation copies of its own class through `init()`, and Swift constructs a
  // class it only knows at run time through a `required` initializer alone.
  required init() {
    super.init()
    needsDisplayOnBoundsChange = true
  }

  override init(layer: Any) {
    super.init(layer: layer)
    if let other = layer as? ProgressRingLayer { ringColor = other.ringColor }
  }

  required init?(coder aDecoder: NSCoder) {
    super.init(coder: aDecoder)
  }

  override class func needsDisplay(forKey key: String) -> Bool {
    if key == "progress" { return true }
    return super.needsDisplay(forKey: key)
  }

  override class func defaultValue(forKey key: String) -> Any? {
    if key == "progress" { return 0.25 }
    return super.defaultValue(forKey: key)
  }

  override func draw(in ctx: CGContext) {
    let center = CGPoint(x: bounds.midX, y: bounds.midY)
    let radius = min(bounds.width, bounds.height) / 2 - 10
    ctx.setStrokeColor(ringColor)
    ctx.setLineWidth(10)
    ctx.addArc(
      center: center, radius: radius, startAngle: -.pi / 2, endAngle: -.pi / 2 + 2 * .pi * progress, clockwise: false)
    ctx.strokePath()
  }
}

/// Rows 4–12 of the porting table.
final class RealCodeLayersTests: RealCodeTestCase {
  /// `required init?(coder:)` calling `super.init(coder:)`, `override init(layer:)`, and a custom
  /// property that animates and is drawn: a third of the way, then two thirds.
  func testProgressRingSubclassAnimatesItsOwnProperty() throws {
    let ring = ProgressRingLayer()
    ring.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    XCTAssertEqual(ring.progress, 0.25, "defaultValue(forKey:) before it is set")
    ring.progress = 1
    XCTAssertEqual(ring.value(forKey: "progress") as? CGFloat, 1)
    let animation = BasicAnimation(keyPath: "progress")
    animation.fromValue = 0
    animation.toValue = 1
    animation.duration = 3
    animation.beginTime = 0
    ring.add(animation, forKey: "progress")
    XCTAssertNotNil(ring.animation(forKey: "progress"), "a @Managed property's key path animates")
    XCTAssertEqual(ring.presentation(at: 1.5).progress, 0.5, accuracy: 1e-9)
    XCTAssertEqual(ring.progress, 1, "the model keeps its value")

    // 12 o'clock is drawn from the start; 3 o'clock after a quarter; 9 o'clock after three.
    let early = try rendered(ring, at: 1, name: "progress-early")
    XCTAssertEqual(rgba(early, 52, 10)[3], 255, "the ring starts at the top")
    XCTAssertEqual(rgba(early, 90, 50)[3], 255, "a third: past 3 o'clock")
    XCTAssertEqual(rgba(early, 50, 90)[3], 0, "not yet at 6 o'clock")
    let late = try rendered(ring, at: 2, name: "progress-late")
    XCTAssertEqual(rgba(late, 50, 90)[3], 255, "two thirds: past 6 o'clock")
    XCTAssertEqual(rgba(late, 10, 50)[3], 0, "not yet at 9 o'clock")
    XCTAssertNotNil(ProgressRingLayer(coder: NSCoder()))
  }

  /// Confetti as a cell subclass that sets itself up in `init()`.
  func testConfettiCellSubclass() throws {
    final class Confetti: EmitterCell {
      override init() {
        super.init()
        birthRate = 40
        lifetime = 4
        velocity = 60
        emissionLongitude = .pi / 2
        emissionRange = .pi / 4
        spin = 2
        scale = 1
        color = UIColor.systemPink.cgColor
        contents = try? Image(width: 6, height: 6, color: .white)
      }

      required init?(coder: NSCoder) {
        super.init(coder: coder)
      }
    }
    let emitter = EmitterLayer()
    emitter.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    emitter.emitterPosition = CGPoint(x: 50, y: 0)
    emitter.emitterShape = .line
    emitter.emitterSize = CGSize(width: 100, height: 1)
    emitter.emitterCells = [Confetti()]
    let image = try rendered(emitter, at: 1.5, name: "confetti")
    let lit = (0..<100).flatMap { y in (0..<100).map { x in rgba(image, x, y)[3] > 0 ? 1 : 0 } }.reduce(0, +)
    XCTAssertGreaterThan(lit, 50, "confetti falls")
  }

  /// A project's own CATransaction helper, added in an extension as class methods.
  func testTransactionExtension() throws {
    let layer = Layer()
    layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    layer.backgroundColor = UIColor.red.cgColor
    let scene = Scene(root: layer)
    _ = scene.presentation()
    Transaction.withoutAnimation { layer.opacity = 0.5 }
    XCTAssertNil(layer.animationKeys(), "no implicit animation inside the helper")
    Transaction.animate(duration: 2) { layer.opacity = 0 }
    XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 2)
  }

  /// Taking over from where an animation is: `fromValue` from `presentation()?.value(forKey:)`.
  func testFromValueOfThePresentationLayer() throws {
    let layer = Layer()
    layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    layer.backgroundColor = UIColor.blue.cgColor
    let scene = Scene(root: layer)
    let fade = BasicAnimation(keyPath: "opacity")
    fade.fromValue = 1
    fade.toValue = 0
    fade.duration = 2
    layer.add(fade, forKey: "fade")
    scene.advance(to: 1)
    let back = BasicAnimation(keyPath: "opacity")
    back.fromValue = layer.presentation()?.value(forKey: "opacity")
    back.toValue = 1
    back.duration = 1
    layer.add(back, forKey: "fade")
    XCTAssertEqual(layer.presentation()?.opacity ?? 0, 0.5, accuracy: 1e-6, "it continues from the half-faded value")
    let image = try rendered(layer, at: 1, name: "from-presentation")
    XCTAssertEqual(rgba(image, 50, 50)[3], 128)
  }

  /// Timing functions named as older and migrated code names them.
  func testTimingFunctionNamesAsStrings() throws {
    let easing: String = kMediaTimingFunctionEaseOut
    let slide = BasicAnimation(keyPath: "position.x")
    slide.timingFunction = MediaTimingFunction(name: MediaTimingFunctionName(rawValue: easing))
    XCTAssertEqual(slide.timingFunction, MediaTimingFunction(name: .easeOut))
    let old = MediaTimingFunction(name: kMediaTimingFunctionEaseInEaseOut)
    XCTAssertEqual(old, .easeInEaseOut)
    let names: [String] = [kMediaTimingFunctionLinear, kMediaTimingFunctionEaseIn, kMediaTimingFunctionDefault]
    XCTAssertEqual(names, ["linear", "easeIn", "default"])
    let told = Locked([String]())
    let saved = Layer.animationFailureReporter
    Layer.animationFailureReporter = { error, _ in told.withLock { $0.append("\(error)") } }
    defer { Layer.animationFailureReporter = saved }
    XCTAssertEqual(MediaTimingFunction(name: MediaTimingFunctionName(rawValue: "bounce")), .default)
    XCTAssertEqual(told.withLock { $0 }.count, 1, "an unknown name is reported")
  }

  /// UIBezierPath's remaining members: `currentPoint` to continue a path, `usesEvenOddFillRule`
  /// for a ring cut out of a disc, `byRoundingCorners`.
  func testBezierPathMembers() throws {
    let path = UIBezierPath()
    path.move(to: CGPoint(x: 10, y: 10))
    path.addLine(to: CGPoint(x: 90, y: 10))
    path.addLine(to: CGPoint(x: path.currentPoint.x, y: 40))
    XCTAssertEqual(path.currentPoint, CGPoint(x: 90, y: 40))
    let ring = UIBezierPath(ovalIn: CGRect(x: 10, y: 10, width: 80, height: 80))
    ring.append(UIBezierPath(ovalIn: CGRect(x: 30, y: 30, width: 40, height: 40)))
    ring.usesEvenOddFillRule = true
    let shape = ShapeLayer()
    shape.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    shape.path = ring.cgPath
    shape.fillRule = ring.usesEvenOddFillRule ? .evenOdd : .nonZero
    shape.fillColor = UIColor.purple.cgColor
    let tab = ShapeLayer()
    tab.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    tab.path =
      UIBezierPath(
        roundedRect: CGRect(x: 0, y: 90, width: 100, height: 10), byRoundingCorners: [.topLeft, .topRight],
        cornerRadii: CGSize(width: 5, height: 5)
      ).cgPath
    tab.fillColor = UIColor.black.cgColor
    shape.addSublayer(tab)
    let image = try rendered(shape, name: "bezier-members")
    XCTAssertEqual(rgba(image, 50, 50)[3], 0, "the hole, even-odd")
    XCTAssertEqual(rgba(image, 50, 20), [128, 0, 128, 255])
    XCTAssertEqual(rgba(image, 0, 99), [0, 0, 0, 255], "a square bottom corner")
    XCTAssertEqual(rgba(image, 0, 90)[3], 0, "a rounded top corner")
  }

  /// `let path = CGMutablePath()`, built on, handed to a layer, built on further.
  func testMutablePathWithLet() throws {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 10, y: 10))
    path.addLine(to: CGPoint(x: 90, y: 10))
    path.addLine(to: CGPoint(x: 50, y: 90))
    path.closeSubpath()
    let triangle = ShapeLayer()
    triangle.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    triangle.path = path
    triangle.fillColor = UIColor.orange.cgColor
    path.addRect(CGRect(x: 0, y: 0, width: 100, height: 100))
    let morph = BasicAnimation(keyPath: "path")
    morph.fromValue = triangle.path
    morph.toValue = UIBezierPath(rect: CGRect(x: 10, y: 10, width: 80, height: 80)).cgPath
    XCTAssertNotNil(morph.fromValue as? CGPath)
    let image = try rendered(triangle, name: "mutable-path")
    XCTAssertEqual(rgba(image, 50, 30), [255, 128, 0, 255])
    XCTAssertEqual(rgba(image, 5, 95)[3], 0, "the rectangle added afterwards is not the layer's")
  }
}

extension Transaction {
  /// A helper of the kind projects add to CATransaction.
  class func withoutAnimation(_ changes: () -> Void) {
    begin()
    setDisableActions(true)
    changes()
    commit()
  }

  class func animate(duration: CFTimeInterval, _ changes: () -> Void) {
    begin()
    setAnimationDuration(duration)
    setAnimationTimingFunction(MediaTimingFunction(name: .easeInEaseOut))
    changes()
    commit()
  }
}
