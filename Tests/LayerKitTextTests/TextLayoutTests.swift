import Foundation
import LayerKit
import LayerKitReference
import XCTest

@testable import LayerKitText

/// The font stack: shaping against HarfBuzz's own output, bidirectional order, line breaking,
/// truncation, fallbacks and their one-line notes, errors, and the layout cache.
final class TextLayoutTests: XCTestCase {
  static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
  static let lohit = "/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf"

  var stack: FontStack!

  override func setUpWithError() throws {
    stack = try XCTUnwrap(FontStack.install(), "the font stack starts")
  }

  private func builder(
    _ text: String, font: String, size: Double = 36, width: Double = 1000, wrapped: Bool = false,
    truncation: TextLayer.TruncationMode = .none
  ) -> TextLayoutBuilder {
    TextLayoutBuilder(
      stack: stack,
      request: TextLayoutRequest(
        runs: [.init(text: text, font: font, fontSize: size)], width: width, height: 1000, wrapped: wrapped,
        truncation: truncation))
  }

  /// `hb-shape`'s glyph ids and advances (font units) for `text` in `font`, in visual order.
  private func harfBuzz(_ text: String, font: String) throws -> [(UInt32, Int)] {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/hb-shape")
    p.arguments = [font, text, "--no-glyph-names", "--no-clusters"]
    let out = Pipe()
    p.standardOutput = out
    try p.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let line = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    // [gid+advance|gid@x,y+advance|…]
    return line.dropFirst().dropLast().split(separator: "|").map { g in
      let id = UInt32(g.prefix { $0.isNumber })!
      let advance = Int(g.split(separator: "+").last!)!
      return (id, advance)
    }
  }

  /// Glyph ids and advances of our shaping equal HarfBuzz's: ligatures and kerning (Latin),
  /// joining forms (Arabic), reordering and conjuncts (Devanagari).
  func testShapingMatchesHarfBuzz() throws {
    for (text, font) in [
      ("office AV To", Self.dejaVu), ("مرحبا بالعالم", Self.dejaVu), ("नमस्ते दुनिया", Self.lohit),
    ] {
      let expected = try harfBuzz(text, font: font)
      let b = builder(text, font: font)
      let fonts = [try stack.font(font)]
      let upem = fonts[0].primary.unitsPerEm
      let items = text.unicodeScalars.map { TextLayoutBuilder.Item(scalar: $0, run: 0) }
      let request = TextLayoutRequest(runs: [.init(text: text, font: font, fontSize: upem)], width: 1e6, height: 1e6)
      let glyphs = try TextLayoutBuilder(stack: stack, request: request).shape(
        items, fonts: fonts, rtl: nil)
      _ = b
      XCTAssertEqual(glyphs.map(\.index), expected.map(\.0), text)
      XCTAssertEqual(glyphs.map { Int($0.advance.rounded()) }, expected.map(\.1), text)
    }
  }

  /// A left-to-right paragraph with Arabic inside: the Arabic letters run right to left between
  /// the Latin words; a paragraph that starts in Arabic runs right to left as a whole.
  func testBidirectionalOrder() throws {
    let text = "ab مرحبا cd"
    let items = text.unicodeScalars.map { TextLayoutBuilder.Item(scalar: $0, run: 0) }
    let b = builder(text, font: Self.dejaVu)
    let glyphs = try b.shape(items, fonts: [try stack.font(Self.dejaVu)], rtl: nil)
    XCTAssertFalse(b.isRightToLeft(glyphs))
    let order = glyphs.map(\.item)
    XCTAssertEqual(Array(order.prefix(3)), [0, 1, 2], "ab and the space, left to right")
    XCTAssertEqual(Array(order.suffix(3)), [8, 9, 10], "the space and cd at the right")
    let arabic = order.filter { (3...7).contains($0) }
    XCTAssertEqual(arabic, arabic.sorted(by: >), "the Arabic word right to left")
    let rtl = "مرحبا ab"
    let rtlItems = rtl.unicodeScalars.map { TextLayoutBuilder.Item(scalar: $0, run: 0) }
    XCTAssertTrue(b.isRightToLeft(try b.shape(rtlItems, fonts: [try stack.font(Self.dejaVu)], rtl: nil)))
    // Natural alignment puts a right-to-left line at the right edge.
    let layout = try stack.layout(
      TextLayoutRequest(runs: [.init(text: rtl, font: Self.dejaVu, fontSize: 20)], width: 300, height: 50))
    XCTAssertEqual(layout.lines[0].maxX, 300, accuracy: 0.01)
  }

  /// Wrapping breaks at spaces into lines no wider than the box; a word wider than a line is
  /// broken between characters; line feeds always break.
  /// A text beyond `Limits.maxTextLength` characters is an error before it is shaped; one at
  /// the bound is laid out.
  func testTextLengthIsBounded() throws {
    func request(_ count: Int) -> TextLayoutRequest {
      TextLayoutRequest(
        runs: [.init(text: String(repeating: "a", count: count), font: "DejaVu Sans", fontSize: 10)], width: 50,
        height: 20, wrapped: true)
    }
    XCTAssertThrowsError(try stack.layout(request(Limits.maxTextLength + 1))) { error in
      XCTAssertEqual(error as? TextError, .tooLong(characters: Limits.maxTextLength + 1))
    }
    XCTAssertNoThrow(try stack.layout(request(1000)))
  }

  func testWrapping() throws {
    let request = TextLayoutRequest(
      runs: [.init(text: "the quick brown fox jumps over the lazy dog\nend", font: Self.dejaVu, fontSize: 20)],
      width: 120, height: 1000, wrapped: true, alignment: .left)
    let layout = try stack.layout(request)
    XCTAssertGreaterThanOrEqual(layout.lines.count, 5)
    for line in layout.lines { XCTAssertLessThanOrEqual(line.maxX, 120.01) }
    XCTAssertEqual(zip(layout.lines, layout.lines.dropFirst()).filter { $0.1.baseline <= $0.0.baseline }.count, 0)
    let long = try stack.layout(
      TextLayoutRequest(
        runs: [.init(text: "Donaudampfschifffahrtsgesellschaft", font: Self.dejaVu, fontSize: 20)], width: 100,
        height: 1000, wrapped: true, alignment: .left))
    XCTAssertGreaterThan(long.lines.count, 2)
    for line in long.lines { XCTAssertLessThanOrEqual(line.maxX, 100.01) }
  }

  /// Truncation at the end, start and middle fits the width and shows an ellipsis; a wrapped
  /// text taller than its box keeps the lines that fit and ends the last with an ellipsis.
  func testTruncation() throws {
    let text = "A line much too long for its box"
    var widths: [TextLayer.TruncationMode: Double] = [:]
    for mode in [TextLayer.TruncationMode.end, .start, .middle] {
      let layout = try stack.layout(
        TextLayoutRequest(
          runs: [.init(text: text, font: Self.dejaVu, fontSize: 20)], width: 150, height: 40, alignment: .left,
          truncation: mode))
      XCTAssertEqual(layout.lines.count, 1)
      XCTAssertLessThanOrEqual(layout.lines[0].maxX, 150.01, "\(mode)")
      XCTAssertGreaterThan(layout.lines[0].maxX, 100, "\(mode): most of the width used")
      widths[mode] = layout.lines[0].maxX
    }
    let untruncated = try stack.layout(
      TextLayoutRequest(runs: [.init(text: text, font: Self.dejaVu, fontSize: 20)], width: 150, height: 40))
    XCTAssertGreaterThan(untruncated.lines[0].maxX, 300, "without truncation the line runs on")
    let tall = try stack.layout(
      TextLayoutRequest(
        runs: [.init(text: "one two three four five six seven eight nine ten", font: Self.dejaVu, fontSize: 20)],
        width: 100, height: 50, wrapped: true, alignment: .left, truncation: .end))
    XCTAssertEqual(tall.lines.count, 2, "two lines of 20-point text fit 50 points")
  }

  /// A family that is not installed falls back with one line naming the font used (once); a
  /// font file that is missing or not a font is a clear error naming it.
  func testFallbacksAndFontErrors() throws {
    let said = Said()
    let saved = FontStack.reporter
    FontStack.reporter = { said.append($0) }
    defer { FontStack.reporter = saved }
    let layer = TextLayer()
    layer.frame = Rect(x: 0, y: 0, width: 200, height: 50)
    layer.string = "Hello"
    layer.font = "No Such Family 9"
    _ = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: 200, height: 50))
    layer.string = "Hello again"
    _ = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: 200, height: 50))
    let notes = said.lines.filter { $0.contains("No Such Family 9") }
    XCTAssertEqual(notes.count, 1, "\(said.lines)")
    XCTAssertTrue(notes.first?.contains("is not installed; using \"") ?? false, "\(notes)")

    layer.font = "/nonexistent/font.ttf"
    XCTAssertThrowsError(try RenderList(layer: layer, width: 200, height: 50)) {
      XCTAssertTrue("\($0)".contains("font file /nonexistent/font.ttf does not exist"), "\($0)")
    }
    let junk = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-not-a-font.ttf")
    try Data("this is not a font".utf8).write(to: junk)
    layer.font = junk.path
    XCTAssertThrowsError(try RenderList(layer: layer, width: 200, height: 50)) {
      XCTAssertTrue("\($0)".contains("is not a font"), "\($0)")
    }
  }

  /// A text layer whose text, font and size did not change is not shaped again: a colour
  /// animation reuses the layout.
  func testLayoutsAreCached() throws {
    let layer = TextLayer()
    layer.frame = Rect(x: 0, y: 0, width: 300, height: 60)
    layer.string = "cached \(UUID())"
    _ = try RenderList(layer: layer, width: 300, height: 60)
    let after = stack.layoutsComputed
    layer.foregroundColor = .red
    _ = try RenderList(layer: layer, width: 300, height: 60)
    XCTAssertEqual(stack.layoutsComputed, after, "a colour change reuses the layout")
    layer.string = "changed \(UUID())"
    _ = try RenderList(layer: layer, width: 300, height: 60)
    XCTAssertEqual(stack.layoutsComputed, after + 1)
  }

  /// An emoji shown as an emoji takes the colour font (fonts-noto-color-emoji): a picture of
  /// its glyph, in colour, where its advance lies; a text-style symbol keeps an outline font.
  func testColourEmojiArePictures() throws {
    let layout = try stack.layout(
      TextLayoutRequest(runs: [.init(text: "go 🚀 ☀", font: Self.dejaVu, fontSize: 40)], width: 400, height: 60))
    XCTAssertEqual(layout.pictures.count, 1, "the rocket, in colour")
    let rocket = try XCTUnwrap(layout.pictures.first)
    XCTAssertEqual(rocket.rect.size.width, 40 * 136 / 109, accuracy: 8, "about an em wide at 40 points")
    XCTAssertGreaterThan(rocket.rect.minX, 40, "after \"go \"")
    let p = rocket.image.pixels
    let colourful = stride(from: 0, to: p.count, by: 4).contains { i in
      p[i + 3] > 200 && (Int(p[i]) - Int(p[i + 2])).magnitude > 60
    }
    XCTAssertTrue(colourful, "a colour image, not a mask")
    XCTAssertFalse(layout.pieces.isEmpty, "the letters and ☀ (text style) are outlines")
  }
}

/// Lines said through the reporter, from any thread.
final class Said: Sendable {
  private let list = Locked([String]())
  func append(_ s: String) { list.withLock { $0.append(s) } }
  var lines: [String] { list.current }
}
