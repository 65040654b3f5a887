import Foundation
import LayerKit
import LayerKitMedia
import LayerKitReference
import LayerKitTesting
import XCTest

@testable import LayerKitEdit
@testable import LayerKitOutput
@testable import LayerKitTimeline
@testable import LayerKitVideo

/// Subtitle files, titles, subtitles and Ken Burns in the video timeline.
final class OverlayTests: XCTestCase {
  // MARK: Subtitle files

  /// SRT with a byte-order mark, CRLF line ends, tags, entities, overlapping cues and no final
  /// newline.
  func testSubRip() throws {
    let srt =
      "\u{FEFF}1\r\n00:00:01,000 --> 00:00:03,500\r\nHello <i>there</i>\r\n&lt;world&gt; &amp; {\\an8}more\r\n\r\n"
      + "2\r\n00:00:03,000 --> 00:01:02,25\r\n<b>Bold</b>"
    let cues = try SubtitleFile.parse(srt)
    XCTAssertEqual(cues.count, 2)
    XCTAssertEqual(cues[0].start, 1)
    XCTAssertEqual(cues[0].end, 3.5)
    XCTAssertEqual(cues[0].text.string, "Hello there\n<world> & more")
    XCTAssertEqual(cues[0].text.runs.map(\.font), [nil, ":italic", nil])
    XCTAssertEqual(cues[1].start, 3, "overlapping cues are kept")
    XCTAssertEqual(cues[1].end, 62.25, accuracy: 1e-9)
    XCTAssertEqual(cues[1].text.runs.first?.font, ":bold")
    XCTAssertEqual(cues[1].line, 7)
  }

  /// WebVTT: the header, NOTE and STYLE blocks, identifiers, times without hours, cue settings,
  /// voice and class tags.
  func testWebVTT() throws {
    let vtt = """
      WEBVTT - a test

      NOTE a comment
      that spans lines

      STYLE
      ::cue { color: red }

      intro
      00:01.000 --> 00:02.500 line:90% align:center
      <v Anna>Hi <c.loud>you</c></v>

      00:00:03.000 --> 00:00:04.000
      Two
      lines
      """
    let cues = try SubtitleFile.parse(vtt)
    XCTAssertEqual(cues.count, 2)
    XCTAssertEqual(cues[0].start, 1)
    XCTAssertEqual(cues[0].end, 2.5)
    XCTAssertEqual(cues[0].text.string, "Hi you")
    XCTAssertEqual(cues[1].text.string, "Two\nlines")
  }

  /// Broken timing names the file and the line; a cue that ends before it starts likewise.
  func testBrokenTimingNamesTheLine() {
    XCTAssertThrowsError(try SubtitleFile.parse("1\n00:00:01,000 -> 00:00:02,000\nHi\n", name: "a.srt")) {
      // The line after the cue number, where the timing should be.
      XCTAssertEqual($0 as? SubtitleFile.Error, .badTiming("a.srt", line: 2, text: "00:00:01,000 -> 00:00:02,000"))
    }
    XCTAssertThrowsError(try SubtitleFile.parse("1\n00:00:01,000 --> 00:00:xx,000\nHi\n", name: "a.srt")) {
      XCTAssertEqual($0 as? SubtitleFile.Error, .badTiming("a.srt", line: 2, text: "00:00:01,000 --> 00:00:xx,000"))
    }
    XCTAssertThrowsError(try SubtitleFile.parse("\n\n5\n00:00:04,000 --> 00:00:02,000\nHi\n", name: "b.srt")) {
      XCTAssertEqual($0 as? SubtitleFile.Error, .endBeforeStart("b.srt", line: 4))
      XCTAssertTrue("\($0)".contains("b.srt, line 4"))
    }
  }

  // MARK: Ken Burns

  /// The zoom runs from 1 to 1 + amount (or back) over the item, and the pan stays inside the
  /// margin the zoom leaves, so the picture always covers the frame.
  func testKenBurnsPlacement() {
    let move = KenBurns(zoom: .in, pan: [1, 0], amount: 0.2)
    XCTAssertEqual(move.placement(at: 0).scale, 1)
    XCTAssertEqual(move.placement(at: 1).scale, 1.2, accuracy: 1e-12)
    XCTAssertEqual(KenBurns(zoom: .out, amount: 0.2).placement(at: 0).scale, 1.2, accuracy: 1e-12)
    for u in stride(from: 0.0, through: 1.0, by: 0.05) {
      let (scale, offset) = move.placement(at: u)
      XCTAssertLessThanOrEqual(abs(offset.x), (scale - 1) / 2 + 1e-12, "inside the margin at \(u)")
    }
  }

  private func stripes(_ w: Int, _ h: Int) throws -> Image {
    var pixels = [UInt8](repeating: 255, count: w * h * 4)
    for y in 0..<h {
      for x in 0..<w {
        let v: UInt8 = (x / 3 + y / 5) % 2 == 0 ? 40 : 220
        let i = (y * w + x) * 4
        (pixels[i], pixels[i + 1], pixels[i + 2]) = (v, UInt8(x * 255 / w), UInt8(y * 255 / h))
      }
    }
    return try Image(width: w, height: h, pixels: pixels)
  }

  /// Ken Burns over a detailed still twice the frame's size: consecutive frames differ by about
  /// as much all along (no frame jumps further than the motion, no shimmer from minification:
  /// the still is reduced once by area averaging, then only magnified).
  func testKenBurnsIsSmooth() throws {
    let item = TimelineItem(
      source: .image(Still(try stripes(320, 180), name: "s.png")), duration: 1,
      motion: KenBurns(zoom: .in, pan: [0.6, 0.4], amount: 0.15))
    let timeline = try Timeline(
      items: [item], transitions: [], width: 160, height: 90, rate: FrameRate(numerator: 30, denominator: 1))
    let frames = TimelineRenderer(timeline: timeline, renderer: ReferenceRenderer(threadCount: 1))
    var images: [Image] = []
    for k in 0..<timeline.frameCount { images.append(try frames.frame(k)) }
    frames.stop()
    let steps = zip(images, images.dropFirst()).map { a, b -> Double in
      zip(a.pixels, b.pixels).reduce(0.0) { $0 + abs(Double($1.0) - Double($1.1)) } / Double(a.pixels.count)
    }
    let sorted = steps.sorted()
    let median = sorted[sorted.count / 2]
    XCTAssertGreaterThan(median, 0.2, "the picture moves")
    XCTAssertLessThanOrEqual(sorted.last!, median * 2.5, "no step much larger than the others: \(steps)")
    XCTAssertNotEqual(images.first!.pixels, images.last!.pixels)
  }

  /// A reduced still is the mean of the pixels it covers.
  func testAreaScalingAverages() throws {
    let image = try Image(
      width: 4, height: 2,
      pixels: [
        0, 0, 0, 255, 100, 100, 100, 255, 200, 0, 0, 255, 200, 0, 0, 255,
        0, 0, 0, 255, 100, 100, 100, 255, 0, 0, 200, 255, 0, 0, 200, 255,
      ])
    let half = image.areaScaled(width: 2, height: 1)
    XCTAssertEqual(half.pixels, [50, 50, 50, 255, 100, 0, 100, 255])
  }

  // MARK: Titles and subtitles in frames

  /// A title darkens its box in the lower third and draws white text there; it fades in from
  /// nothing; a subtitle shows over a transition frame too, at the bottom.
  func testTitlesAndSubtitlesAreDrawnOverFrames() throws {
    let grey = try Image(width: 320, height: 180, color: Color(white: 0.5))
    let a = TimelineItem(
      source: .image(Still(grey, name: "a.png")), duration: 2, title: TimelineTitle("Day 1", style: .title))
    let b = TimelineItem(source: .image(Still(grey, name: "b.png")), duration: 2)
    var timeline = try Timeline(
      items: [a, b],
      transitions: [TimelineTransition(effect: "fade", builtIn: true, parameters: [:], duration: 0.5, label: "fade")],
      width: 320, height: 180, rate: FrameRate(numerator: 10, denominator: 1))
    timeline.subtitles = Subtitles(cues: [SubtitleCue(start: 1.4, end: 2, text: "hello")])
    let frames = TimelineRenderer(timeline: timeline, renderer: ReferenceRenderer(threadCount: 1))
    func band(_ image: Image, rows: Range<Int>) -> (dark: Int, white: Int) {
      var (dark, white) = (0, 0)
      for y in rows {
        for x in 0..<320 {
          let v = image.pixels[(y * 320 + x) * 4]
          if v < 100 { dark += 1 }
          if v > 200 { white += 1 }
        }
      }
      return (dark, white)
    }
    let first = try frames.frame(0)
    XCTAssertEqual(band(first, rows: 110..<150).dark, 0, "faded out at the very start")
    let held = try frames.frame(8)
    let title = band(held, rows: 110..<150)
    XCTAssertGreaterThan(title.dark, 200, "the title's box")
    XCTAssertGreaterThan(title.white, 20, "the title's letters")
    XCTAssertTrue(timeline.hasOverlay(frame: 8))
    // Frame 16 (1.6 s) is inside the fade between the items, and the subtitle is on.
    guard case .transition = timeline.content(ofFrame: 16) else { return XCTFail("frame 16 is a transition") }
    let crossing = try frames.frame(16)
    let subtitle = band(crossing, rows: 150..<171)
    XCTAssertGreaterThan(subtitle.dark, 300, "the subtitle's box at the bottom, over the fade")
    XCTAssertGreaterThan(subtitle.white, 3, "and its letters")
    XCTAssertEqual(band(try frames.frame(12), rows: 150..<171).dark, 0, "no subtitle before its cue")
    frames.stop()
  }
}
