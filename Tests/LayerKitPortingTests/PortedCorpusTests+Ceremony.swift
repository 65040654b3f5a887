import Foundation
import LayerKit
import LayerKitReference
import XCTest

// The corpus's last kind (PortedCorpusTests.swift has the rest): what Core Animation needs no
// ceremony for — a text layer, actions, sublayers, a layer subclass.
extension PortedCorpusTests {
  // MARK: No ceremony

  func testCeremony43TextLayer() throws {
    let text = TextLayer()
    text.frame = CGRect(x: 0, y: 0, width: 200, height: 40)
    text.string = "Hello"
    text.font = "Helvetica-Bold"
    text.fontSize = 18
    text.foregroundColor = Color.black.cgColor
    text.backgroundColor = Color.white.cgColor
    text.alignmentMode = .center
    text.contentsScale = 2
    let image = try ReferenceRenderer().render(try RenderList(layer: text, width: 200, height: 40))
    XCTAssertTrue(stride(from: 0, to: image.pixels.count, by: 4).contains { image.pixels[$0] < 100 })
  }

  func testCeremony44Actions() {
    let scene = Scene(root: view)
    _ = scene.presentation()
    layer.actions = ["position": NSNull(), "bounds": NSNull()]
    layer.position = CGPoint(x: 0, y: 0)
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    XCTAssertNil(layer.animationKeys())
  }

  func testCeremony45ClearSublayers() {
    view.sublayers?.forEach { $0.removeFromSuperlayer() }
    XCTAssertNil(view.sublayers)
  }

  /// The one change: `override init()` → `required init()` (LayerKit's presentation copies are
  /// made through it).
  func testCeremony46CustomLayerSubclassWithRequiredInit() throws {
    final class BadgeLayer: Layer {
      let dot = ShapeLayer()
      var count = 0

      required init() {
        super.init()
        dot.fillColor = Color.red.cgColor
        addSublayer(dot)
      }

      override init(layer: Any) {
        super.init(layer: layer)
        if let badge = layer as? BadgeLayer { count = badge.count }
      }

      required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
      }

      override func layoutSublayers() {
        super.layoutSublayers()
        let side = min(bounds.width, bounds.height)
        dot.frame = CGRect(x: bounds.maxX - side, y: 0, width: side, height: side)
        dot.path = CGPath(ellipseIn: dot.bounds, transform: nil)
      }
    }
    let badge = BadgeLayer()
    badge.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
    badge.count = 3
    let image = try ReferenceRenderer().render(try RenderList(layer: badge.presentation(at: 0), width: 40, height: 20))
    let centre = (10 * 40 + 30) * 4
    XCTAssertEqual(Array(image.pixels[centre..<centre + 4]), [255, 0, 0, 255], "the dot, laid out at the right")
    XCTAssertEqual(image.pixels[(10 * 40 + 5) * 4 + 3], 0, "nothing at the left")
  }
}
