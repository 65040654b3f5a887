import ArgumentParser
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

/// Titles, subtitles and Ken Burns for `slideshow` and `concat`.
struct TextOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "A title over an item: the first --title goes with the first input, the second with the second, … (\"\" for none; \\n for a line break).",
      valueName: "text"))
  var title: [String] = []
  @Option(help: "A file of titles, one line per input (an empty line for none).") var titles: String?
  @Option(help: "Title font: a family (\"DejaVu Sans:bold\") or a font file.") var titleFont: String = "sans-serif:bold"
  @Option(help: "Title size, as a fraction of the frame's height.") var titleSize: Double = 0.06
  @Option(help: "Title colour (name or #RRGGBB[AA]).") var titleColor: ColorArgument?
  @Option(help: "Where titles sit: lower-third, center, top or bottom.") var titlePosition: TextStyle.Position =
    .lowerThird
  @Option(help: "The box behind titles: a colour, or none.") var titleBox: String = "#0000008C"
  @Option(help: "Seconds a title fades in and out.") var titleFade: Double = 0.4
  @Option(help: "An SRT or WebVTT file burned in over the whole video.") var subtitles: String?
  @Option(help: "Subtitle font.") var subtitleFont: String = "sans-serif"
  @Option(help: "Subtitle size, as a fraction of the frame's height.") var subtitleSize: Double = 0.045
  @Option(help: "Subtitle colour.") var subtitleColor: ColorArgument?
  @Option(help: "The box behind subtitles: a colour, or none.") var subtitleBox: String = "#0000008C"
  @Option(
    help:
      "Ken Burns: in, out, random or none (a slow zoom over an input's whole time); once for all stills, or once per input (clips too).")
  var zoom: [ZoomChoice] = []
  @Option(help: "How much the zoom adds (0.1: 10 %).") var zoomAmount: Double = 0.1
  @Option(help: "Pan as they zoom: left, right, up, down, random or none; once for all stills, or once per input (clips too).")
  var pan: [PanChoice] = []

  enum ZoomChoice: String, ExpressibleByArgument, CaseIterable { case none, `in`, out, random }
  enum PanChoice: String, ExpressibleByArgument, CaseIterable { case none, left, right, up, down, random }

  func validate() throws {
    try checkNamed([titles], "--titles")
    try checkNamed([subtitles], "--subtitles")
    for (v, name) in [(titleSize, "--title-size"), (subtitleSize, "--subtitle-size")] {
      guard v.isFinite, v > 0, v <= 0.5 else {
        throw ValidationError("\(name) is a fraction of the height in (0, 0.5]")
      }
    }
    guard titleFade.isFinite, titleFade >= 0, titleFade <= 60 else {
      throw ValidationError("--title-fade: 0 to 60 seconds")
    }
    guard zoomAmount.isFinite, zoomAmount >= 0, zoomAmount <= 1 else {
      throw ValidationError("--zoom-amount: 0 to 1")
    }
    for (box, name) in [(titleBox, "--title-box"), (subtitleBox, "--subtitle-box")] where box != "none" {
      guard ColorArgument(argument: box) != nil else { throw ValidationError("\(name): a colour or none, not \(box)") }
    }
  }

  /// Sets the items' titles and Ken Burns moves; the subtitles, if any.
  func apply(to items: inout [TimelineItem], seed: UInt64) throws -> Subtitles? {
    var texts = title
    if let titles {
      let text = try textFile(titles, what: "--titles")
      texts = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
      if texts.last == "" { texts.removeLast() }
    }
    if texts.count > items.count {
      throw ValidationError("\(texts.count) titles for \(items.count) inputs: give at most one per input")
    }
    let style = TextStyle(
      font: titleFont, size: titleSize, color: titleColor?.color ?? .white, position: titlePosition,
      box: titleBox == "none" ? nil : ColorArgument(argument: titleBox)?.color, fade: titleFade)
    for (i, text) in texts.enumerated() where !text.isEmpty {
      items[i].title = TimelineTitle(AttributedText(text.replacingOccurrences(of: "\\n", with: "\n")), style: style)
    }
    for (list, name) in [(zoom.count, "--zoom"), (pan.count, "--pan")] where list > 1 && list != items.count {
      throw ValidationError("give one \(name) for all \(items.count) inputs, or one per input, not \(list)")
    }
    var random = SeededRandom(seed: seed ^ 0x4B42)
    for i in items.indices {
      let zoom = self.zoom.isEmpty ? .none : self.zoom[self.zoom.count == 1 ? 0 : i]
      let pan = self.pan.isEmpty ? .none : self.pan[self.pan.count == 1 ? 0 : i]
      // One --zoom/--pan for all moves the stills; one per input moves what it names, clips too.
      let isStill = { if case .image = items[i].source { return true } else { return false } }()
      guard isStill || (self.zoom.count > 1 || self.pan.count > 1), zoom != .none || pan != .none else { continue }
      let z: KenBurns.Zoom
      switch zoom {
      case .none: z = .none
      case .in: z = .in
      case .out: z = .out
      case .random: z = random.next() % 2 == 0 ? .in : .out
      }
      let directions: [SIMD2<Double>] = [[-1, 0], [1, 0], [0, -1], [0, 1]]
      let p: SIMD2<Double>
      switch pan {
      case .none: p = .zero
      case .left: p = [-1, 0]
      case .right: p = [1, 0]
      case .up: p = [0, -1]
      case .down: p = [0, 1]
      case .random: p = directions[Int(random.next() % 4)]
      }
      items[i].motion = KenBurns(zoom: z, pan: p, amount: zoomAmount)
    }
    guard let subtitles else { return nil }
    let cues: [SubtitleCue]
    do {
      cues = try SubtitleFile.read(URL(fileURLWithPath: subtitles))
    } catch {
      // The file's content is at fault, not the command line: exit 1, without the usage text.
      throw ParameterError(error.description)
    }
    return Subtitles(
      cues: cues,
      style: TextStyle(
        font: subtitleFont, size: subtitleSize, color: subtitleColor?.color ?? .white, position: .bottom,
        box: subtitleBox == "none" ? nil : ColorArgument(argument: subtitleBox)?.color, fade: 0.1, maxLines: 3))
  }
}

extension TextStyle.Position: ExpressibleByArgument {}
