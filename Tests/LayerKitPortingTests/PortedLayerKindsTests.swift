import Foundation
import LayerKit
import LayerKitReference
import XCTest

/// Core Animation's scroll and tiled layers and its spelled-out type names, ported by renaming.
final class PortedLayerKindsTests: XCTestCase {
  /// CAScrollLayer: scrolling moves the bounds' origin on the axes `scrollMode` allows; a
  /// sublayer's `scroll(_:)`, `scrollRectToVisible(_:)` and `visibleRect` go through the closest
  /// scroll layer, as CALayer's do.
  func testScrollLayerAsWritten() throws {
    let scrollLayer = ScrollLayer()
    scrollLayer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    scrollLayer.scrollMode = .vertically
    scrollLayer.masksToBounds = true
    let content = Layer()
    content.frame = CGRect(x: 0, y: 0, width: 100, height: 400)
    content.backgroundColor = Color.red.cgColor
    let band = Layer()
    band.frame = CGRect(x: 0, y: 250, width: 100, height: 50)
    band.backgroundColor = Color.blue.cgColor
    content.addSublayer(band)
    scrollLayer.addSublayer(content)

    scrollLayer.scroll(to: CGPoint(x: 30, y: 200))
    XCTAssertEqual(scrollLayer.bounds.origin, CGPoint(x: 0, y: 200), "vertically: x stays")
    let image = try ReferenceRenderer().render(try RenderList(layer: scrollLayer, width: 100, height: 100))
    let row = 75 * 100 * 4
    XCTAssertEqual(Array(image.pixels[row..<row + 3]), [0, 0, 255], "the band at 250 shows at 50 + 25")
    XCTAssertEqual(content.visibleRect, CGRect(x: 0, y: 200, width: 100, height: 100))

    scrollLayer.scroll(to: CGRect(x: 0, y: 350, width: 10, height: 30))
    XCTAssertEqual(scrollLayer.bounds.origin.y, 280, "the least scroll that shows the rect")
    band.scrollRectToVisible(CGRect(x: 0, y: 0, width: 10, height: 10))
    XCTAssertEqual(scrollLayer.bounds.origin.y, 250)
    band.scroll(CGPoint(x: 0, y: 10))
    XCTAssertEqual(scrollLayer.bounds.origin.y, 260, "the point lies at the scroll layer's origin")
    XCTAssertEqual(Layer().visibleRect, .zero, "no scroll layer: the bounds")
  }

  /// CATiledLayer: `draw(in:)` is asked once for the whole bounds; the tile settings are kept.
  func testTiledLayerDrawsItsWholeBounds() throws {
    final class Tiles: TiledLayer {
      var asked: [CGRect] = []
      override func draw(in ctx: CGContext) {
        let box = ctx.boundingBoxOfClipPath
        asked.append(box)
        ctx.setFillColor(Color.green.cgColor)
        ctx.fill(box)
      }
    }
    let tiles = Tiles()
    tiles.frame = CGRect(x: 0, y: 0, width: 64, height: 32)
    tiles.tileSize = CGSize(width: 16, height: 16)
    tiles.levelsOfDetail = 4
    tiles.setNeedsDisplay()
    let image = try ReferenceRenderer().render(try RenderList(layer: tiles.presentation(at: 0), width: 64, height: 32))
    XCTAssertEqual(tiles.asked, [CGRect(x: 0, y: 0, width: 64, height: 32)])
    XCTAssertEqual(Array(image.pixels[(31 * 64 + 63) * 4..<(31 * 64 + 63) * 4 + 4]), [0, 255, 0, 255])
    XCTAssertEqual(TiledLayer.fadeDuration(), 0.25)
    XCTAssertEqual(tiles.presentation(at: 0).levelsOfDetail, 4)
  }

  /// Layout as CALayer has it: a subclass's `layoutSublayers()` places its sublayers before the
  /// layer is drawn, again after its size changes or `setNeedsLayout()`; a delegate's
  /// `layoutSublayers(of:)` serves a plain layer; layout adds no implicit animation.
  func testLayoutSublayersAsWritten() {
    // A Core Animation subclass's initializers, with `override init()` written `required init()`.
    final class Gauge: Layer {
      let needle = ShapeLayer()
      var layouts = 0
      var value: CGFloat = 0
      required init() {
        super.init()
        addSublayer(needle)
      }
      override init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? Gauge { value = other.value }
      }
      required init?(coder aDecoder: NSCoder) {
        super.init(coder: aDecoder)
      }
      override func layoutSublayers() {
        super.layoutSublayers()
        layouts += 1
        needle.frame = CGRect(x: bounds.midX - 1, y: 0, width: 2, height: bounds.height / 2)
      }
    }
    final class Stack: LayerDelegate {
      func layoutSublayers(of layer: Layer) {
        var y: CGFloat = 0
        for sub in layer.sublayers ?? [] {
          sub.frame = CGRect(x: 0, y: y, width: layer.bounds.width, height: 10)
          y += 10
        }
      }
    }
    let gauge = Gauge()
    gauge.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    XCTAssertTrue(gauge.needsLayout())
    let scene = Scene(root: gauge)
    _ = scene.presentation()
    XCTAssertEqual(gauge.needle.frame, CGRect(x: 49, y: 0, width: 2, height: 50))
    XCTAssertEqual(gauge.presentation()?.sublayers?.count, 1, "the needle once: init()'s own is not shown twice")
    XCTAssertFalse(gauge.needsLayout())
    XCTAssertNil(gauge.needle.animationKeys(), "layout adds no implicit animation")
    _ = scene.presentation()
    XCTAssertEqual(gauge.layouts, 1, "laid out once until marked again")
    gauge.bounds.size = CGSize(width: 200, height: 60)
    XCTAssertTrue(gauge.needsLayout(), "a new size marks it")
    gauge.layoutIfNeeded()
    XCTAssertEqual(gauge.needle.frame, CGRect(x: 99, y: 0, width: 2, height: 30))
    gauge.setNeedsLayout()
    _ = gauge.presentation(at: 0)
    XCTAssertEqual(gauge.layouts, 3)
    gauge.value = 0.7
    gauge.cornerRadius = 5
    let shadow = Gauge(layer: gauge)
    XCTAssertEqual(shadow.value, 0.7, "the subclass's own copy")
    XCTAssertEqual(shadow.cornerRadius, 5, "the layer's model values")
    XCTAssertEqual(shadow.bounds, gauge.bounds)

    let stack = Stack()
    let list = Layer()
    list.delegate = stack
    list.frame = CGRect(x: 0, y: 0, width: 50, height: 30)
    for _ in 0..<3 { list.addSublayer(Layer()) }
    let shown = list.presentation(at: 0)
    XCTAssertEqual(shown.sublayers?.map(\.frame.origin.y), [0, 10, 20])
    XCTAssertEqual(list.preferredFrameSize(), CGSize(width: 50, height: 30))
  }

  /// Core Animation's type names spelled out, and the edge mask as an option set.
  func testTypeNamesSpelledOut() {
    let fill: MediaTimingFillMode = .forwards
    let name: MediaTimingFunctionName = .easeIn
    let mode: AnimationCalculationMode = .paced
    let rotation: AnimationRotationMode = .rotateAuto
    let gravity: LayerContentsGravity = .resizeAspect
    let filter: LayerContentsFilter = .nearest
    let cap: ShapeLayerLineCap = .round
    let join: ShapeLayerLineJoin = .bevel
    let rule: ShapeLayerFillRule = .evenOdd
    let align: TextLayerAlignmentMode = .center
    let truncation: TextLayerTruncationMode = .end
    let kind: GradientLayerType = .radial
    let function: ValueFunctionName = .rotateZ
    let shape: EmitterLayerEmitterShape = .circle
    let emitterMode: EmitterLayerEmitterMode = .outline
    let render: EmitterLayerRenderMode = .additive
    let curve: LayerCornerCurve = .continuous
    let scroll: ScrollLayerScrollMode = .both
    let all: [Any] = [
      fill, name, mode, rotation, gravity, filter, cap, join, rule, align, truncation, kind, function, shape,
      emitterMode, render, curve, scroll,
    ]
    XCTAssertEqual(all.count, 18)
    let layer = Layer()
    layer.edgeAntialiasingMask = [.layerLeftEdge, .layerRightEdge]
    XCTAssertEqual(layer.edgeAntialiasingMask.rawValue, 3)
    XCTAssertEqual(Layer().edgeAntialiasingMask, [kLayerLeftEdge, kLayerRightEdge, kLayerBottomEdge, kLayerTopEdge])
  }
}
