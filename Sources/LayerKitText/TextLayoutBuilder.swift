import CText
import Foundation
import LayerKit

/// One request's layout (FontStack.layout, with the stack's lock held): paragraphs split at
/// line feeds, each character given the font that has it, each paragraph's direction found and
/// its lines broken at Unicode's opportunities when wrapping, each line shaped (bidi and
/// HarfBuzz, through raqm), truncated with an ellipsis where the mode asks, aligned, and its
/// glyphs' outlines placed in the layer's coordinates.
struct TextLayoutBuilder {
  let stack: FontStack
  let request: TextLayoutRequest

  /// A character of the text and the run it belongs to.
  struct Item {
    var scalar: Unicode.Scalar
    var run: Int
  }

  /// A shaped glyph, in visual order: its face, glyph index, the item it stands for, and its
  /// advance and offsets in points.
  struct Glyph {
    var face: Face
    var index: UInt32
    var item: Int
    var advance: Double
    var dx: Double
    var dy: Double
  }

  static let ellipsis: Unicode.Scalar = "\u{2026}"

  func build() throws -> TextLayout {
    stack.noteLayoutComputed()
    var fonts: [ResolvedFont] = []
    for run in request.runs { fonts.append(try stack.font(run.font)) }
    // Items, and the paragraphs between line feeds (CR LF, LF, CR, U+2029).
    var paragraphs: [[Item]] = [[]]
    for (r, run) in request.runs.enumerated() {
      var previousCR = false
      for s in run.text.unicodeScalars {
        if s == "\n" && previousCR {
          previousCR = false
          continue
        }
        previousCR = s == "\r"
        if s == "\n" || s == "\r" || s == "\u{2029}" || s == "\u{2028}" {
          paragraphs.append([])
        } else {
          paragraphs[paragraphs.count - 1].append(Item(scalar: s, run: r))
        }
      }
    }
    var lines: [(items: [Item], rtl: Bool, lastOfParagraph: Bool, run: Int)] = []
    var lastRun = 0
    for paragraph in paragraphs {
      if let first = paragraph.first { lastRun = first.run }
      guard !paragraph.isEmpty else {
        lines.append(([], false, true, lastRun))
        continue
      }
      let shaped = try shape(paragraph, fonts: fonts, rtl: nil)
      let rtl = isRightToLeft(shaped)
      if request.wrapped && request.width > 0 {
        let broken = breakLines(paragraph, widths: logicalWidths(paragraph, shaped))
        for (i, range) in broken.enumerated() {
          lines.append((Array(paragraph[range]), rtl, i == broken.count - 1, paragraph[range.lowerBound].run))
        }
      } else {
        lines.append((paragraph, rtl, true, paragraph[0].run))
      }
    }

    // Vertical metrics of each line from its runs' main fonts.
    func metrics(_ line: [Item], run: Int) -> (ascent: Double, height: Double) {
      let runs = line.isEmpty ? [run] : Array(Set(line.map(\.run)))
      var ascent = 0.0
      var height = 0.0
      for r in runs {
        let f = fonts[r].primary
        let s = request.runs[r].fontSize / f.unitsPerEm
        ascent = max(ascent, f.ascender * s)
        height = max(height, f.lineHeight * s)
      }
      return (ascent, height)
    }
    // Lines that do not fit the height go when truncating; the last one kept takes the ellipsis.
    var baselines: [Double] = []
    var y = 0.0
    var keep = lines.count
    for (i, line) in lines.enumerated() {
      let m = metrics(line.items, run: line.run)
      let baseline = i == 0 ? m.ascent : y + m.ascent
      if request.truncation != .none, request.wrapped, i > 0, y + m.height > request.height + 0.01 {
        keep = i
        break
      }
      baselines.append(baseline)
      y += m.height
    }
    let truncatedLast = keep < lines.count
    lines = Array(lines.prefix(keep))

    var pieces: [Int: Path] = [:]
    var pictures: [TextLayout.Picture] = []
    var placed: [(baseline: Double, minX: Double, maxX: Double)] = []
    for (i, line) in lines.enumerated() {
      var items = trimmedTrailingSpace(line.items)
      var glyphs = try shape(items, fonts: fonts, rtl: line.rtl)
      var width = glyphs.reduce(0) { $0 + $1.advance }
      let mustTruncate =
        request.truncation != .none && (width > request.width + 0.01 || (truncatedLast && i == keep - 1))
      if mustTruncate {
        items = try truncated(items, fonts: fonts, rtl: line.rtl, forced: truncatedLast && i == keep - 1)
        glyphs = try shape(items, fonts: fonts, rtl: line.rtl)
        width = glyphs.reduce(0) { $0 + $1.advance }
      }
      // Alignment; justified lines stretch at their spaces (not a paragraph's last line).
      var x = 0.0
      var extraPerSpace = 0.0
      switch request.alignment {
      case .left: x = 0
      case .right: x = request.width - width
      case .center: x = (request.width - width) / 2
      case .natural: x = line.rtl ? request.width - width : 0
      case .justified:
        let spaces = glyphs.filter { items[$0.item].scalar == " " }.count
        if request.wrapped && !line.lastOfParagraph && spaces > 0 && width < request.width {
          extraPerSpace = (request.width - width) / Double(spaces)
        } else {
          x = line.rtl ? request.width - width : 0
        }
      }
      let baseline = baselines[i]
      var lineMin = Double.infinity
      var lineMax = -Double.infinity
      var underlines: [Int: (Double, Double)] = [:]
      for g in glyphs {
        let run = items[g.item].run
        let s = request.runs[run].fontSize / g.face.unitsPerEm
        let gx = x + g.dx
        let gy = baseline - g.dy
        if g.face.colorBitmaps {
          if let (image, left, top) = g.face.colorImage(g.index) {
            pictures.append(
              TextLayout.Picture(
                run: run, image: image,
                rect: Rect(
                  x: gx + left * s, y: gy - top * s, width: Double(image.width) * s, height: Double(image.height) * s)))
          }
        }
        let outline = g.face.colorBitmaps ? Path() : g.face.outline(g.index)
        if !outline.elements.isEmpty {
          let t = AffineTransform(m11: s, m12: 0, m21: 0, m22: -s, tX: gx, tY: gy)
          pieces[run, default: Path()].addPath(outline, transform: t)
        }
        let advance = g.advance + (items[g.item].scalar == " " ? extraPerSpace : 0)
        if request.runs[run].underline {
          let span = underlines[run] ?? (x, x)
          underlines[run] = (min(span.0, x), max(span.1, x + advance))
        }
        lineMin = min(lineMin, x)
        lineMax = max(lineMax, x + advance)
        x += advance
      }
      for (run, span) in underlines.sorted(by: { $0.key < $1.key }) {
        let f = fonts[run].primary
        let s = request.runs[run].fontSize / f.unitsPerEm
        let top = baseline - f.underlinePosition * s - f.underlineThickness * s / 2
        pieces[run, default: Path()].addRect(
          Rect(x: span.0, y: top, width: span.1 - span.0, height: f.underlineThickness * s))
      }
      placed.append((baseline, lineMin.isFinite ? lineMin : x, lineMax.isFinite ? lineMax : x))
    }
    return TextLayout(
      pieces: pieces.keys.sorted().map { TextLayout.Piece(run: $0, path: pieces[$0]!) }, pictures: pictures,
      lines: placed)
  }

  // MARK: Shaping

  /// Items shaped as one line (raqm: FriBiDi, then HarfBuzz per font run), glyphs in visual
  /// order, advances in points with each run's kerning added.
  /// `rtl`: the line's direction; nil finds it (its first strong character's).
  func shape(_ items: [Item], fonts: [ResolvedFont], rtl: Bool?) throws -> [Glyph] {
    let direction = rtl.map { $0 ? RAQM_DIRECTION_RTL : RAQM_DIRECTION_LTR } ?? RAQM_DIRECTION_DEFAULT
    guard !items.isEmpty else { return [] }
    var bytes: [UInt8] = []
    var itemOfByte: [Int] = []
    var faces: [Face] = []
    var missing: [Unicode.Scalar] = []
    for (k, item) in items.enumerated() {
      let start = bytes.count
      bytes.append(contentsOf: String(Character(item.scalar)).utf8)
      itemOfByte.append(contentsOf: repeatElement(k, count: bytes.count - start))
      if let face = stack.face(for: item.scalar, in: fonts[item.run]) {
        faces.append(face)
      } else {
        missing.append(item.scalar)
        faces.append(fonts[item.run].primary)
      }
    }
    stack.sayMissing(missing, drawnWith: fonts[items[0].run].primary)
    guard let rq = raqm_create() else { throw TextError.unavailable("raqm_create failed") }
    defer { raqm_destroy(rq) }
    let ok = bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { raqm_set_text_utf8(rq, $0.baseAddress, buffer.count) }
    }
    guard ok else { throw TextError.unavailable("raqm could not take the text") }
    _ = raqm_set_par_direction(rq, direction)
    _ = raqm_set_freetype_load_flags(rq, Int32(LK_FT_LOAD_NO_HINTING))
    // Runs of one face, in bytes.
    var k = 0
    var byte = 0
    var byFace: [UnsafeMutableRawPointer: Face] = [:]
    while k < items.count {
      var end = k + 1
      while end < items.count, faces[end] === faces[k] { end += 1 }
      let length = itemOfByte[byte...].prefix { $0 < end }.count
      _ = raqm_set_freetype_face_range(rq, faces[k].face, byte, length)
      byFace[UnsafeMutableRawPointer(faces[k].face)] = faces[k]
      byte += length
      k = end
    }
    guard raqm_layout(rq) else { throw TextError.unavailable("raqm could not lay out the text") }
    var count = 0
    guard let out = raqm_get_glyphs(rq, &count) else { return [] }
    var glyphs: [Glyph] = []
    glyphs.reserveCapacity(count)
    for i in 0..<count {
      let g = out[i]
      let cluster = min(Int(g.cluster), itemOfByte.count - 1)
      let item = itemOfByte[cluster]
      let face = g.ftface.flatMap { byFace[UnsafeMutableRawPointer($0)] } ?? faces[item]
      let run = request.runs[items[item].run]
      let s = run.fontSize / face.unitsPerEm / 64
      glyphs.append(
        Glyph(
          face: face, index: g.index, item: item, advance: Double(g.x_advance) * s + run.kerning,
          dx: Double(g.x_offset) * s, dy: Double(g.y_offset) * s))
    }
    return glyphs
  }

  /// Whether a paragraph shaped with its direction found automatically runs right to left: its
  /// logical first character stands right of its logical last.
  func isRightToLeft(_ glyphs: [Glyph]) -> Bool {
    guard let first = glyphs.indices.min(by: { glyphs[$0].item < glyphs[$1].item }),
      let last = glyphs.indices.max(by: { glyphs[$0].item < glyphs[$1].item })
    else { return false }
    return first > last
  }

  /// Each item's share of the advances, in logical order (a cluster's glyphs count for its first
  /// character).
  func logicalWidths(_ items: [Item], _ glyphs: [Glyph]) -> [Double] {
    var w = [Double](repeating: 0, count: items.count)
    for g in glyphs { w[g.item] += g.advance }
    return w
  }

  // MARK: Lines

  /// Lines of a paragraph no wider than the request's width where Unicode allows a break
  /// (libunibreak, UAX #14); a word wider than the line is broken between characters.
  func breakLines(_ items: [Item], widths w: [Double]) -> [Range<Int>] {
    var bytes: [UInt8] = []
    var lastByte: [Int] = []
    for item in items {
      bytes.append(contentsOf: String(Character(item.scalar)).utf8)
      lastByte.append(bytes.count - 1)
    }
    var breaks = [CChar](repeating: 0, count: bytes.count)
    bytes.withUnsafeBufferPointer { b in
      breaks.withUnsafeMutableBufferPointer { out in
        set_linebreaks_utf8(b.baseAddress, b.count, nil, out.baseAddress)
      }
    }
    func breakAfter(_ k: Int) -> Bool {
      let b = Int32(breaks[lastByte[k]])
      return b == LINEBREAK_ALLOWBREAK || b == LINEBREAK_MUSTBREAK
    }
    var lines: [Range<Int>] = []
    var start = 0
    var width = 0.0
    var lastOpportunity: Int?
    var k = 0
    while k < items.count {
      width += w[k]
      let visible = width - trailingSpaceWidth(items, w, from: start, through: k)
      if visible > request.width + 0.01 && k > start {
        let end = lastOpportunity.map { $0 + 1 } ?? k
        lines.append(start..<end)
        start = end
        width = w[start...k].reduce(0, +)
        lastOpportunity = nil
        if start > k { width = 0 }
        continue
      }
      if breakAfter(k) && k < items.count - 1 { lastOpportunity = k }
      k += 1
    }
    lines.append(start..<items.count)
    return lines.filter { !$0.isEmpty }
  }

  private func trailingSpaceWidth(_ items: [Item], _ w: [Double], from start: Int, through end: Int) -> Double {
    var k = end
    var total = 0.0
    while k >= start, items[k].scalar.properties.isWhitespace {
      total += w[k]
      k -= 1
    }
    return total
  }

  func trimmedTrailingSpace(_ items: [Item]) -> [Item] {
    var end = items.count
    while end > 0, items[end - 1].scalar.properties.isWhitespace { end -= 1 }
    return Array(items[..<end])
  }

  /// The line cut to the width with an ellipsis where the truncation mode puts it (`forced`:
  /// the last line kept of a wrapped text that did not fit, which ends in one even if it fits).
  func truncated(_ items: [Item], fonts: [ResolvedFont], rtl: Bool, forced: Bool) throws -> [Item] {
    guard !items.isEmpty else { return items }
    let widths = logicalWidths(items, try shape(items, fonts: fonts, rtl: rtl))
    func ellipsis(_ run: Int) -> Item { Item(scalar: Self.ellipsis, run: run) }
    let mark = try shape([ellipsis(items[0].run)], fonts: fonts, rtl: false)
    let room = max(request.width - mark.reduce(0) { $0 + $1.advance }, 0)
    func prefix(_ limit: Double) -> Int {
      var total = 0.0
      var n = 0
      while n < items.count, total + widths[n] <= limit + 0.01 {
        total += widths[n]
        n += 1
      }
      return n
    }
    func suffix(_ limit: Double) -> Int {
      var total = 0.0
      var n = 0
      while n < items.count, total + widths[items.count - 1 - n] <= limit + 0.01 {
        total += widths[items.count - 1 - n]
        n += 1
      }
      return n
    }
    let mode = forced && request.truncation != .end ? TextLayer.TruncationMode.end : request.truncation
    switch mode {
    case .none, .end:
      let n = prefix(room)
      return trimmedTrailingSpace(Array(items[..<n])) + [ellipsis(items[max(n - 1, 0)].run)]
    case .start:
      let n = suffix(room)
      return [ellipsis(items[items.count - max(n, 1)].run)] + items[(items.count - n)...]
    case .middle:
      let head = prefix(room / 2)
      let tail = suffix(room - widths[..<head].reduce(0, +))
      return trimmedTrailingSpace(Array(items[..<head])) + [ellipsis(items[max(head - 1, 0)].run)]
        + items[(items.count - min(tail, items.count - head))...]
    }
  }
}
