import Foundation
import LayerKit
import LayerKitMedia
import LayerKitOutput

/// One subtitle cue: shown from `start` to `end` seconds of the video.
public struct SubtitleCue: Sendable, Equatable {
  public var start: Double
  public var end: Double
  /// The text, line breaks kept; italic, bold and underlined parts as runs (a run's `font` is a
  /// fontconfig style such as ":bold" or ":italic", added to the style's family).
  public var text: AttributedText
  /// The line of the file the cue's timing is on (for messages).
  public var line: Int

  public init(start: Double, end: Double, text: AttributedText, line: Int = 0) {
    self.start = start
    self.end = end
    self.text = text
    self.line = line
  }
}

/// Reads SubRip (.srt) and WebVTT (.vtt) files: a byte-order mark, CRLF or CR line ends, a
/// missing final newline, cue numbers and identifiers, VTT's header, NOTE, STYLE and REGION
/// blocks and cue settings are all taken; `<i>`, `<b>`, `<u>` (and their closing tags) become
/// runs; other tags (`<c.x>`, `<v Name>`, `{\an8}`) are dropped; `&amp;`, `&lt;`, `&gt;`,
/// `&nbsp;` are decoded. Overlapping cues are kept (they show together).
public enum SubtitleFile {
  public enum Error: Swift.Error, Equatable, CustomStringConvertible {
    case unreadable(String, reason: String)
    /// A timing line that is not `start --> end` with times such as 00:01:02,500.
    case badTiming(String, line: Int, text: String)
    case endBeforeStart(String, line: Int)

    public var description: String {
      switch self {
      case .unreadable(let f, let r): "subtitles \(f): \(r)"
      case .badTiming(let f, let l, let t):
        "subtitles \(f), line \(l): \"\(Error.quoted(t))\" is not a cue timing such as 00:00:01,000 --> 00:00:03,500"
      case .endBeforeStart(let f, let l): "subtitles \(f), line \(l): the cue ends before it starts"
      }
    }

    /// A line as a message quotes it: control characters as U+FFFD, at most 60 characters.
    static func quoted(_ text: String) -> String {
      let scalars = text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\u{FFFD}" : $0 }
      let shown = String(String.UnicodeScalarView(scalars))
      return shown.count <= 60 ? shown : shown.prefix(57) + "…"
    }
  }

  public static func read(_ url: URL) throws(Error) -> [SubtitleCue] {
    let data: Data
    do {
      // Regular files only (a FIFO would wait for a writer forever), and not a whole disk's worth.
      data = try FileIO.readRegularFile(url.path, maxSize: 64 << 20)
    } catch .fileNotFound {
      throw .unreadable(url.path, reason: "no such file")
    } catch .unreadable(_, let reason) {
      throw .unreadable(url.path, reason: reason)
    } catch {
      throw .unreadable(url.path, reason: "cannot be read")
    }
    // NUL bytes: binary data, or UTF-16 text (which the Latin-1 fallback would read as junk).
    guard !data.contains(0),
      let text = String(data: data, encoding: .utf8) ?? String(data: data, encoding: .isoLatin1)
    else {
      throw .unreadable(url.path, reason: "not a text file (it holds NUL bytes; UTF-16 must be converted to UTF-8)")
    }
    return try parse(text, name: url.path)
  }

  public static func parse(_ source: String, name: String = "subtitles") throws(Error) -> [SubtitleCue] {
    var text = source
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    let lines = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
      .components(separatedBy: "\n")
    var cues: [SubtitleCue] = []
    var i = 0
    let isVTT = lines.first?.hasPrefix("WEBVTT") ?? false
    if isVTT {
      // The header block runs to the first blank line.
      while i < lines.count, !lines[i].trimmingCharacters(in: .whitespaces).isEmpty { i += 1 }
    }
    while i < lines.count {
      // Skip blank lines between blocks.
      while i < lines.count, lines[i].trimmingCharacters(in: .whitespaces).isEmpty { i += 1 }
      guard i < lines.count else { break }
      var block: [(Int, String)] = []
      while i < lines.count, !lines[i].trimmingCharacters(in: .whitespaces).isEmpty {
        block.append((i + 1, lines[i]))
        i += 1
      }
      if isVTT, let first = block.first?.1,
        first.hasPrefix("NOTE") || first.hasPrefix("STYLE") || first.hasPrefix("REGION")
      {
        continue
      }
      // The timing is the first line with an arrow (a cue number or identifier may come before).
      guard let t = block.firstIndex(where: { $0.1.contains("-->") }) else {
        // After a cue number, the line that should have been the timing.
        let number = block.count > 1 && block[0].1.trimmingCharacters(in: .whitespaces).allSatisfy(\.isNumber)
        let (line, text) = block[number ? 1 : 0]
        throw .badTiming(name, line: line, text: text)
      }
      let (lineNumber, timing) = block[t]
      let parts = timing.components(separatedBy: "-->")
      guard parts.count == 2, let start = seconds(parts[0]),
        let end = seconds(String(parts[1].trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? ""))
      else { throw .badTiming(name, line: lineNumber, text: timing) }
      guard end >= start else { throw .endBeforeStart(name, line: lineNumber) }
      let body = block[(t + 1)...].map(\.1).joined(separator: "\n")
      cues.append(SubtitleCue(start: start, end: end, text: styled(body), line: lineNumber))
    }
    return cues
  }

  /// "01:02:03,500", "02:03.5", "3.25" → seconds.
  static func seconds(_ s: String) -> Double? {
    let t = s.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
    let fields = t.split(separator: ":", omittingEmptySubsequences: false)
    guard (1...3).contains(fields.count) else { return nil }
    var total = 0.0
    for (k, f) in fields.enumerated() {
      guard let v = Double(f), v >= 0, v.isFinite else { return nil }
      if k < fields.count - 1 { guard f.allSatisfy(\.isNumber) else { return nil } }
      total = total * 60 + v
    }
    return total
  }

  /// The cue text as runs: <i>, <b> and <u> set their attribute until closed.
  static func styled(_ body: String) -> AttributedText {
    var runs: [AttributedText.Run] = []
    var (italic, bold, underline) = (false, false, false)
    var current = ""
    func flush() {
      guard !current.isEmpty else { return }
      let styles = (bold ? ":bold" : "") + (italic ? ":italic" : "")
      runs.append(AttributedText.Run(decoded(current), font: styles.isEmpty ? nil : styles, underline: underline))
      current = ""
    }
    var rest = Substring(body)
    while let c = rest.first {
      if c == "<", let close = rest.firstIndex(of: ">") {
        let tag = rest[rest.index(after: rest.startIndex)..<close].lowercased()
        flush()
        switch tag {
        case "i": italic = true
        case "/i": italic = false
        case "b": bold = true
        case "/b": bold = false
        case "u": underline = true
        case "/u": underline = false
        default: break  // <c.x>, <v Name>, timestamps, font tags: dropped
        }
        rest = rest[rest.index(after: close)...]
      } else if c == "{", rest.dropFirst().first == "\\", let close = rest.firstIndex(of: "}") {
        rest = rest[rest.index(after: close)...]  // {\an8} and other SSA overrides
      } else {
        current.append(c)
        rest = rest.dropFirst()
      }
    }
    flush()
    return AttributedText(runs: runs.isEmpty ? [AttributedText.Run("")] : runs)
  }

  static func decoded(_ s: String) -> String {
    s.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&nbsp;", with: "\u{00A0}").replacingOccurrences(of: "&amp;", with: "&")
  }
}
