import LayerKit
import XCTest

/// More of the forms public projects' layer code takes — loaders, emitters, shapes, a delegate
/// drawing with Core Graphics, a subclass animating its own property implicitly — each as such
/// code writes it, with the `CA` prefix dropped.
final class RealCodeFormsTests: RealCodeTestCase {
  /// Code in a file that imports LayerKit alone, as `import UIKit` became `import LayerKit`.
  func testAFileThatImportsLayerKitAlone() throws {
    let image = try rendered(cardBuiltWithImportLayerKitAlone(), at: 0.5, name: "import-layerkit-alone")
    XCTAssertEqual(rgba(image, 50, 5), [51, 102, 255, 255], "the card")
    XCTAssertEqual(rgba(image, 80, 20), [255, 59, 48, 255], "the badge, placed by an NSValue's point")
    XCTAssertEqual(rgba(image, 50, 50), [51, 102, 255, 255], "inside the ring")
  }

  /// A replicator spinner as tutorials write it: `repeatCount = HUGE`, `M_PI`, `instanceColor`
  /// from a UIColor, `instanceDelay` from the animation's duration.
  func testReplicatorSpinner() throws {
    let dot = Layer()
    dot.frame = CGRect(x: 45, y: 0, width: 10, height: 10)
    dot.cornerRadius = 5
    dot.backgroundColor = UIColor.white.cgColor
    let fade = BasicAnimation(keyPath: "opacity")
    fade.fromValue = 1.0
    fade.toValue = 0.0
    fade.repeatCount = HUGE
    fade.duration = 1.0
    dot.add(fade, forKey: "opacity")
    let replication = ReplicatorLayer()
    replication.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    replication.instanceCount = 10
    replication.instanceDelay = fade.duration / Double(replication.instanceCount)
    replication.instanceTransform = Transform3DMakeRotation(CGFloat(M_PI / 5), 0, 0, 1)
    replication.instanceColor = UIColor.white.cgColor
    replication.instanceRedOffset = -0.1
    replication.addSublayer(dot)
    let image = try rendered(replication, at: 0.95, name: "spinner")
    XCTAssertEqual(rgba(image, 50, 5)[3], 13, "the first dot has nearly faded")
    XCTAssertGreaterThan(rgba(image, 50, 95)[3], 100, "the dot half a turn on is half faded")
  }

  /// Snow from a cell configured in the usual order, with a cell `speed` and a colour literal.
  func testSnowEmitter() throws {
    let emitter = EmitterLayer()
    emitter.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    emitter.emitterShape = .line
    emitter.emitterPosition = CGPoint(x: 50, y: 0)
    emitter.emitterSize = CGSize(width: 100, height: 1)
    emitter.backgroundColor = #colorLiteral(red: 0.1, green: 0.1, blue: 0.2, alpha: 1).cgColor
    let flake = EmitterCell()
    flake.birthRate = 30
    flake.lifetime = 10
    flake.velocity = 40
    flake.emissionLongitude = CGFloat(M_PI / 2)
    flake.scale = 0.5
    flake.scaleSpeed = -0.05
    flake.color = UIColor.white.cgColor
    flake.contents = try Image(width: 8, height: 8, color: .white)
    flake.name = "snow"
    emitter.emitterCells = [flake]
    let slow = try rendered(emitter, at: 2, name: "snow")
    flake.speed = 0.5
    let halfSpeed = try rendered(emitter, at: 4, name: "snow-half-speed")
    XCTAssertEqual(slow, halfSpeed, "at half speed, 4 s of the layer are 2 s of the cell")
    emitter.setValue(0, forKeyPath: "emitterCells.snow.birthRate")
    XCTAssertEqual(flake.birthRate, 0)
  }

  /// A layer delegate drawing with Core Graphics: colours by components, a shadow, the current
  /// path read back.
  func testDelegateDrawingWithCoreGraphics() throws {
    final class Drawer: NSObject, LayerDelegate {
      var box: CGRect?
      func draw(_ layer: Layer, in ctx: CGContext) {
        ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
        ctx.setShadow(offset: CGSize(width: 10, height: 10), blur: 0, color: UIColor.black.cgColor)
        let path = CGMutablePath()
        path.addRect(CGRect(x: 10, y: 10, width: 50, height: 50))
        ctx.addPath(path)
        box = ctx.path?.boundingBox
        ctx.fillPath()
        ctx.setShadow(offset: .zero, blur: 0, color: nil)
        ctx.setStrokeColor(gray: 0, alpha: 1)
        ctx.setLineWidth(2)
        ctx.strokeEllipse(in: CGRect(x: 70, y: 70, width: 20, height: 20))
      }
    }
    let drawer = Drawer()
    let layer = Layer()
    layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    layer.delegate = drawer
    layer.setNeedsDisplay()
    let image = try rendered(layer, name: "delegate-cg")
    XCTAssertEqual(drawer.box, CGRect(x: 10, y: 10, width: 50, height: 50))
    XCTAssertEqual(rgba(image, 30, 30), [255, 0, 0, 255])
    XCTAssertEqual(rgba(image, 65, 65), [0, 0, 0, 255], "the shadow, 10 points down and right")
    XCTAssertEqual(rgba(image, 5, 5)[3], 0)
  }

  /// A subclass that animates its own property implicitly, as Core Animation code does it: its
  /// `action(forKey:)` returns an animation for the key, from the presented value.
  func testImplicitAnimationOfACustomProperty() throws {
    final class BarLayer: Layer {
      @Managed var progress: CGFloat
      @Managed var color: CGColor

      required init() { super.init() }
      override init(layer: Any) {
        super.init(layer: layer)
        if let layer = layer as? BarLayer {
          progress = layer.progress
          color = layer.color
        }
      }
      required init?(coder aDecoder: NSCoder) { super.init(coder: aDecoder) }

      override class func needsDisplay(forKey key: String) -> Bool {
        let needsDisplayKeys = ["progress", "color"]
        if needsDisplayKeys.contains(key) { return true }
        return super.needsDisplay(forKey: key)
      }

      override func action(forKey event: String) -> Action? {
        if event == "progress" {
          let animation = BasicAnimation(keyPath: event)
          animation.fromValue = presentation()?.progress ?? 0
          animation.duration = 2
          return animation
        }
        return super.action(forKey: event)
      }

      override func draw(in ctx: CGContext) {
        ctx.setFillColor(color)
        ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * progress, height: bounds.height))
      }
    }
    let bar = BarLayer()
    bar.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    bar.color = UIColor.systemBlue.cgColor
    bar.setNeedsDisplay()
    let scene = Scene(root: bar)
    _ = scene.presentation()
    bar.progress = 1
    XCTAssertNotNil(bar.animation(forKey: "progress"), "the subclass's action ran")
    let image = try rendered(bar, at: 1, name: "implicit-custom")
    // Half the duration, eased by the default timing function: 0.80 of the way.
    XCTAssertEqual(bar.presentation(at: 1).progress, 0.8024, accuracy: 1e-4)
    XCTAssertEqual(rgba(image, 70, 50), [0, 122, 255, 255], "drawn at the presented progress")
    XCTAssertEqual(rgba(image, 90, 50)[3], 0, "not yet the end")
  }

  /// A progress circle as view code builds it: UIBezierPath's arc, `CAShapeLayerLineCap.round`,
  /// `kCALineCapRound`, dash pattern, and a path animation between two CGPaths.
  func testCircularProgressAsViewsWriteIt() throws {
    let circularPath = UIBezierPath(
      arcCenter: CGPoint(x: 50, y: 50), radius: 40, startAngle: -CGFloat.pi / 2, endAngle: 2 * CGFloat.pi,
      clockwise: true)
    let track = ShapeLayer()
    track.path = circularPath.cgPath
    track.strokeColor = UIColor.lightGray.cgColor
    track.fillColor = UIColor.clear.cgColor
    track.lineWidth = 10
    track.lineDashPattern = [2, 3]
    let shapeLayer = ShapeLayer()
    shapeLayer.path = circularPath.cgPath
    shapeLayer.strokeColor = UIColor.red.cgColor
    shapeLayer.fillColor = nil
    shapeLayer.lineCap = ShapeLayerLineCap.round
    shapeLayer.lineCap = kLineCapRound
    shapeLayer.lineWidth = 10
    shapeLayer.strokeEnd = 0
    let basicAnimation = BasicAnimation(keyPath: "strokeEnd")
    basicAnimation.toValue = 1
    basicAnimation.duration = 2
    basicAnimation.fillMode = MediaTimingFillMode.forwards
    basicAnimation.isRemovedOnCompletion = false
    basicAnimation.timingFunction = MediaTimingFunction(name: MediaTimingFunctionName.linear)
    shapeLayer.add(basicAnimation, forKey: "urSoBasic")
    let root = Layer()
    root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    root.addSublayer(track)
    root.addSublayer(shapeLayer)
    let image = try rendered(root, at: 3, name: "circular-progress")
    XCTAssertEqual(rgba(image, 90, 50), [255, 0, 0, 255], "held at the end (fill mode forwards)")
  }
}
