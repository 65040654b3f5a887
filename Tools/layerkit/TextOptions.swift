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
      "Ken Burns: in, out, random or none (a slow zoom over an input's whole time); once for all stills, or once per input (clips too)."
  )
  var zoom: [ZoomChoice] = []
  @Option(help: "How much the zoom adds (0.1: 10 %).") var zoomAmount: Double = 0.1
  @Option(
    help: "Pan as they zoom: left, right, up, down, random or none; once for all stills, or once per input (clips too)."
  )
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

  /// Adds the titles and Ken Burns moves to the edit's clips (random choices made here, from
  /// `seed`), and the subtitles.
  func apply(to edit: inout Edit, stills: [Bool], seed: UInt64) throws {
    var texts = title
    if let titles {
      let text = try textFile(titles, what: "--titles")
      texts = text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
      if texts.last == "" { texts.removeLast() }
    }
    let count = edit.clips.count
    if texts.count > count {
      throw ValidationError("\(texts.count) titles for \(count) inputs: give at most one per input")
    }
    for (i, text) in texts.enumerated() where !text.isEmpty {
      var layer = Edit.Title(text: text.replacingOccurrences(of: "\\n", with: "\n"))
      let isFile =
        titleFont.contains("/") || [".ttf", ".otf", ".ttc"].contains { titleFont.lowercased().hasSuffix($0) }
      if isFile { layer.fontPath = titleFont } else { layer.fontFamily = titleFont }
      layer.fontSize = titleSize
      layer.textColor = titleColor?.hex
      layer.position = .named(titlePosition.rawValue)
      layer.box = titleBox == "none" ? "none" : ColorArgument(argument: titleBox)?.hex
      layer.fade = titleFade
      // Still, as the command draws it (an edit file's title grows unless it says "none").
      layer.zoomDirection = "none"
      edit.clips[i].layers.append(.title(layer))
    }
    for (list, name) in [(zoom.count, "--zoom"), (pan.count, "--pan")] where list > 1 && list != count {
      throw ValidationError("give one \(name) for all \(count) inputs, or one per input, not \(list)")
    }
    var random = SeededRandom(seed: seed ^ 0x4B42)
    for i in 0..<count {
      let zoom = self.zoom.isEmpty ? .none : self.zoom[self.zoom.count == 1 ? 0 : i]
      let pan = self.pan.isEmpty ? .none : self.pan[self.pan.count == 1 ? 0 : i]
      // One --zoom/--pan for all moves the stills; one per input moves what it names, clips too.
      guard stills[i] || (self.zoom.count > 1 || self.pan.count > 1), zoom != .none || pan != .none else {
        // Said as "none": an edit file's image zooms in unless it says otherwise.
        edit.clips[i].layers = edit.clips[i].layers.map { layer in
          guard case .image(var image) = layer, image.zoomDirection == nil else { return layer }
          image.zoomDirection = "none"
          return .image(image)
        }
        continue
      }
      let direction: String?
      switch zoom {
      case .none: direction = nil
      case .in, .out: direction = zoom.rawValue
      case .random: direction = random.next() % 2 == 0 ? "in" : "out"
      }
      let panName: String?
      switch pan {
      case .none: panName = nil
      case .random: panName = ["left", "right", "up", "down"][Int(random.next() % 4)]
      default: panName = pan.rawValue
      }
      edit.clips[i].layers = edit.clips[i].layers.map { layer in
        switch layer {
        case .video(var v):
          (v.zoomDirection, v.zoomAmount, v.panDirection) = (direction ?? "none", zoomAmount, panName)
          return .video(v)
        case .image(var image):
          (image.zoomDirection, image.zoomAmount, image.panDirection) = (direction ?? "none", zoomAmount, panName)
          return .image(image)
        default: return layer
        }
      }
    }
    guard let subtitles else { return }
    var track = Edit.SubtitleTrack(path: subtitles)
    track.fontFamily = subtitleFont
    track.fontSize = subtitleSize
    track.textColor = subtitleColor?.hex
    track.box = subtitleBox == "none" ? "none" : ColorArgument(argument: subtitleBox)?.hex
    edit.subtitles = track
  }
}

extension TextStyle.Position: ExpressibleByArgument {}
