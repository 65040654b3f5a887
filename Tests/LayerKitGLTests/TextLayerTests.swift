import Foundation
import LayerKit
import LayerKitMedia
import LayerKitReference
import LayerKitTesting
import LayerKitVideo
import XCTest

/// TextLayer on both backends: sizes from 6 to 300 points, rotated and scaled, contentsScale 1
/// and 2, attributed runs, several scripts; and where its glyphs land.
final class TextLayerTests: ParityTestCase {
  func testTextMatchesOnBothBackends() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 320, height: 240))
    root.backgroundColor = Color(red: 0.08, green: 0.09, blue: 0.12)
    var y = 2.0
    for (size, scale) in [(6.0, 1.0), (9.0, 2.0), (14.0, 1.0), (24.0, 2.0)] {
      let t = TextLayer()
      t.frame = Rect(x: 4, y: y, width: 310, height: size * 1.4)
      t.string = "Sphinx of black quartz, judge my vow — ﬁ 42"
      t.fontSize = size
      t.contentsScale = scale
      _ = root.addSublayer(t)
      y += size * 1.4
    }
    let mixed = TextLayer()
    mixed.frame = Rect(x: 10, y: 80, width: 300, height: 60)
    mixed.string = AttributedText(runs: [
      .init("Bold ", font: "DejaVu Sans:bold", color: .yellow), .init("مرحبا ", color: .cyan),
      .init("नमस्ते ", fontSize: 22), .init("你好 ", color: .orange), .init("under", underline: true, kerning: 1.5), .init(" 🚀✨"),
    ])
    mixed.fontSize = 18
    mixed.isWrapped = true
    _ = root.addSublayer(mixed)
    let turned = TextLayer()
    turned.frame = Rect(x: 120, y: 120, width: 200, height: 40)
    turned.string = "rotated"
    turned.fontSize = 30
    turned.alignmentMode = .center
    turned.transform = Transform3DMakeRotation(-0.35, 0, 0, 1).scaledBy(x: 1.3, y: 0.9)
    _ = root.addSublayer(turned)
    let big = TextLayer()
    big.frame = Rect(x: -20, y: 100, width: 400, height: 320)
    big.string = "Ag"
    big.fontSize = 300
    big.foregroundColor = Color(red: 1, green: 1, blue: 1, alpha: 0.25)
    _ = root.addSublayer(big)
    XCTAssertParity(checker, root, width: 320, height: 240, name: "text-layers")
  }

  /// An "I" in DejaVu Sans at 100 points: a vertical bar whose left edge sits at its left side
  /// bearing and whose top is the cap height below the first line's baseline top — ink where
  /// the font's metrics put it, and nowhere else.
  func testGlyphsLandWhereTheFontPutsThem() throws {
    let t = TextLayer()
    t.frame = Rect(x: 0, y: 0, width: 100, height: 130)
    t.string = "I"
    t.fontSize = 100
    t.font = "DejaVu Sans"
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: t, width: 100, height: 130))
    func alpha(_ x: Int, _ y: Int) -> UInt8 { out.pixels[(y * 100 + x) * 4 + 3] }
    // DejaVu Sans: ascender 1901 / 2048 em, "I" from x = 201 to 403 units, cap height 1493.
    let s = 100.0 / 2048
    let baseline = 1901 * s
    let (left, right, top) = (201 * s, 403 * s, baseline - 1493 * s)
    XCTAssertEqual(alpha(Int(left + right) / 2, Int(top + baseline) / 2), 255, "inside the bar")
    XCTAssertEqual(alpha(Int(left) - 2, Int(top + baseline) / 2), 0, "left of it")
    XCTAssertEqual(alpha(Int(right) + 2, Int(top + baseline) / 2), 0, "right of it")
    XCTAssertEqual(alpha(Int(left + right) / 2, Int(top) - 2), 0, "above it")
    XCTAssertEqual(alpha(Int(left + right) / 2, Int(baseline) + 2), 0, "below the baseline")
  }

  /// A frame of a slideshow with a Ken Burns move, a title and a subtitle over a transition, on
  /// both backends.
  func testTitlesSubtitlesAndKenBurnsMatchOnBothBackends() throws {
    var pixels = [UInt8](repeating: 255, count: 200 * 120 * 4)
    for y in 0..<120 {
      for x in 0..<200 where (x / 7 + y / 5) % 2 == 0 {
        let i = (y * 200 + x) * 4
        (pixels[i], pixels[i + 1], pixels[i + 2]) = (UInt8(x), UInt8(y * 2), 90)
      }
    }
    let image = try Image(width: 200, height: 120, pixels: pixels)
    let a = TimelineItem(
      source: .image(Still(image, name: "a.png")), duration: 2, title: TimelineTitle("Day 1"),
      motion: KenBurns(zoom: .in, pan: [1, 0.5], amount: 0.2))
    let b = TimelineItem(
      source: .image(Still(image, name: "b.png")), duration: 2, motion: KenBurns(zoom: .out, amount: 0.2))
    var timeline = try Timeline(
      items: [a, b],
      transitions: [TimelineTransition(effect: "fade", builtIn: true, parameters: [:], duration: 0.5, label: "fade")],
      width: 160, height: 90, rate: FrameRate(numerator: 10, denominator: 1))
    timeline.subtitles = Subtitles(cues: [SubtitleCue(start: 1, end: 2, text: "a <i>subtitle</i>")])
    let list = try timeline.renderList(frame: 17) { _, _ in image }
    let report = try checker.check(list, name: "timeline-overlays")
    XCTAssertTrue(report.passed, report.message)
  }

  /// Text casts the layer's shadow: the shadow follows the glyphs, offset, on both backends.
  func testTextCastsTheLayersShadow() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 120, height: 60))
    root.backgroundColor = .white
    let t = TextLayer()
    t.frame = Rect(x: 10, y: 5, width: 100, height: 50)
    t.string = "I I"
    t.fontSize = 40
    t.foregroundColor = .red
    t.shadowOpacity = 1
    t.shadowOffset = Size(width: 6, height: 0)
    t.shadowRadius = 0
    _ = root.addSublayer(t)
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: root, width: 120, height: 60))
    // The first "I": DejaVu's bar from 201 to 403 units at 40 points, i.e. x 13.9 … 17.9.
    func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(out.pixels[((y * 120) + x) * 4..<((y * 120) + x) * 4 + 4]) }
    XCTAssertEqual(pixel(15, 30), [255, 0, 0, 255], "the glyph")
    XCTAssertEqual(pixel(22, 30), [0, 0, 0, 255], "its shadow, 6 points to the right")
    XCTAssertEqual(pixel(30, 30), [255, 255, 255, 255], "between the letters")
    XCTAssertParity(checker, root, width: 120, height: 60, name: "text-shadow")
  }
}
