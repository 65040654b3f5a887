import Foundation
import LayerKit
import LayerKitReference
import LayerKitTesting
import XCTest

/// Drawing into a layer (CALayer.draw(in:), CALayerDelegate's draw(_:in:)): Core Graphics'
/// vocabulary recorded as layers, drawn when asked (setNeedsDisplay) and kept until asked again,
/// clipped to the bounds, the same on both backends.
final class DrawingTests: ParityTestCase {
  /// A badge as a porter writes one: a filled rounded background, a stroked ring, a clipped
  /// stripe, an image, a gradient, the state saved and restored around a transform.
  final class Badge: Layer {
    var draws = 0
    var picture: Image?

    override func draw(in ctx: CGContext) {
      draws += 1
      ctx.setFillColor(Color(red: 1, green: 0, blue: 0, alpha: 1))
      ctx.fill(Rect(x: 0, y: 0, width: 20, height: 20))
      ctx.saveGState()
      ctx.translateBy(x: 40, y: 0)
      ctx.setStrokeColor(Color(red: 0, green: 0, blue: 1, alpha: 1))
      ctx.setLineWidth(4)
      ctx.strokeEllipse(in: Rect(x: 2, y: 2, width: 16, height: 16))
      ctx.restoreGState()
      ctx.saveGState()
      ctx.clip(to: Rect(x: 0, y: 30, width: 10, height: 10))
      ctx.setFillColor(Color(red: 0, green: 1, blue: 0, alpha: 1))
      ctx.fill(Rect(x: 0, y: 30, width: 60, height: 10))
      ctx.restoreGState()
      if let picture { ctx.draw(picture, in: Rect(x: 30, y: 30, width: 10, height: 10)) }
      // A gradient fills the clip area: clipped to a band.
      ctx.saveGState()
      ctx.clip(to: Rect(x: 0, y: 50, width: 64, height: 10))
      ctx.drawLinearGradient(
        DrawingContext.Gradient(colors: [.black, .white]), start: Point(x: 0, y: 50), end: Point(x: 0, y: 60))
      ctx.restoreGState()
    }
  }

  func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
    let o = (y * image.width + x) * 4
    return Array(image.pixels[o..<o + 4])
  }

  func render(_ layer: Layer, at t: Double = 0) throws -> Image {
    try ReferenceRenderer(threadCount: 1).render(
      try RenderList(layer: layer.presentation(at: t), width: 64, height: 64))
  }

  func testADrawingIsMadeWhenAskedAndKept() throws {
    let badge = Badge()
    badge.frame = Rect(x: 0, y: 0, width: 64, height: 60)
    XCTAssertEqual(pixel(try render(badge), 5, 5), [0, 0, 0, 0], "nothing drawn before setNeedsDisplay")
    XCTAssertEqual(badge.draws, 0)
    badge.setNeedsDisplay()
    let out = try render(badge)
    XCTAssertEqual(badge.draws, 1)
    XCTAssertEqual(pixel(out, 5, 5), [255, 0, 0, 255], "the filled rect")
    XCTAssertEqual(pixel(out, 50, 10)[3], 0, "inside the ring: empty")
    XCTAssertEqual(Array(pixel(out, 41, 10)[0...2]), [0, 0, 255], "the ring, 40 across (translated)")
    XCTAssertEqual(pixel(out, 5, 35), [0, 255, 0, 255], "inside the clip")
    XCTAssertEqual(pixel(out, 20, 35), [0, 0, 0, 0], "outside the clip: nothing")
    XCTAssertEqual(pixel(out, 5, 62), [0, 0, 0, 0], "outside the bounds: nothing")
    XCTAssertLessThan(pixel(out, 5, 51)[0], pixel(out, 5, 58)[0], "the gradient darkens upwards")
    _ = try render(badge, at: 1)
    XCTAssertEqual(badge.draws, 1, "kept: not drawn again until asked")
    badge.setNeedsDisplay()
    _ = try render(badge, at: 1)
    XCTAssertEqual(badge.draws, 2)
  }

  /// A delegate draws a plain layer; needsDisplayOnBoundsChange redraws when the size changes.
  func testADelegateDrawsAndABoundsChangeRedraws() throws {
    final class Painter: LayerDelegate {
      var sizes: [Size] = []
      func draw(_ layer: Layer, in ctx: DrawingContext) {
        sizes.append(layer.bounds.size)
        ctx.setFillColor(.white)
        ctx.addEllipse(in: layer.bounds)
        ctx.fillPath()
      }
    }
    let painter = Painter()
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 20))
    layer.delegate = painter
    layer.needsDisplayOnBoundsChange = true
    layer.setNeedsDisplay()
    XCTAssertEqual(pixel(try render(layer), 10, 10), [255, 255, 255, 255])
    layer.bounds = Rect(x: 0, y: 0, width: 40, height: 40)
    XCTAssertTrue(layer.needsDisplay)
    _ = try render(layer)
    XCTAssertEqual(painter.sizes, [Size(width: 20, height: 20), Size(width: 40, height: 40)])
  }

  /// Core Graphics' gradient calls as written: a CGGradient in device RGB, a linear gradient
  /// painted only between its ends (no options), a radial one only between its circles, and a
  /// linear one carried past both ends with both options.
  final class Gradients: Layer {
    override func draw(in ctx: CGContext) {
      let colors = [Color.white.cgColor, Color.black.cgColor]
      let gradient = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: colors, locations: [0, 1])!
      ctx.drawLinearGradient(gradient, start: CGPoint(x: 0, y: 4), end: CGPoint(x: 0, y: 12), options: [])
      ctx.drawRadialGradient(
        gradient, startCenter: CGPoint(x: 32, y: 32), startRadius: 4, endCenter: CGPoint(x: 32, y: 32), endRadius: 12,
        options: [])
      ctx.saveGState()
      ctx.clip(to: CGRect(x: 0, y: 50, width: 64, height: 14))
      ctx.drawLinearGradient(
        gradient, start: CGPoint(x: 20, y: 0), end: CGPoint(x: 40, y: 0),
        options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
      ctx.restoreGState()
    }
  }

  func testCoreGraphicsGradientsAsWritten() throws {
    let layer = Gradients()
    layer.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
    layer.setNeedsDisplay()
    let out = try render(layer)
    XCTAssertEqual(pixel(out, 5, 2)[3], 0, "before the start: not painted")
    XCTAssertEqual(pixel(out, 5, 5)[3], 255, "between the ends: painted")
    XCTAssertGreaterThan(pixel(out, 5, 5)[0], pixel(out, 5, 11)[0], "white to black downwards")
    XCTAssertEqual(pixel(out, 5, 14)[3], 0, "after the end: not painted")
    XCTAssertEqual(pixel(out, 32, 32)[3], 0, "inside the start circle: not painted")
    XCTAssertEqual(pixel(out, 32, 24)[3], 255, "between the circles: painted")
    XCTAssertEqual(pixel(out, 32, 46)[3], 0, "outside the end circle: not painted")
    XCTAssertEqual(pixel(out, 2, 56), [255, 255, 255, 255], "both options: the start colour carries on")
    XCTAssertEqual(pixel(out, 62, 56), [0, 0, 0, 255], "and the end colour")
    XCTAssertNil(CGGradient(colorsSpace: nil, colors: [.white], locations: [0, 1]), "a location a colour")
    XCTAssertNil(CGColorSpace(name: "kCGColorSpaceGenericGray"))
    let root = Layer(frame: CGRect(x: 0, y: 0, width: 64, height: 64))
    root.addSublayer(layer)
    XCTAssertParity(checker, root.presentation(at: 0), width: 64, height: 64, name: "drawing-gradients")
  }

  func testADrawingMatchesOnBothBackends() throws {
    let badge = Badge()
    badge.picture = try Image(width: 4, height: 4, color: Color(red: 1, green: 1, blue: 0, alpha: 1))
    badge.frame = Rect(x: 0, y: 0, width: 64, height: 60)
    badge.setNeedsDisplay()
    let root = Layer(frame: Rect(x: 0, y: 0, width: 64, height: 64))
    _ = root.addSublayer(badge)
    XCTAssertParity(checker, root.presentation(at: 0), width: 64, height: 64, name: "drawing")
  }
}
