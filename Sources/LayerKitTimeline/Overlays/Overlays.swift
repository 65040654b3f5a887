import Foundation
import LayerKit
import LayerKitMedia
import LayerKitOutput
import LayerKitText

/// How a title or a subtitle looks: a TextLayer in a box, placed by a preset, faded in and out.
public struct TextStyle: Sendable, Equatable {
  /// Where the text sits in the frame.
  public enum Position: String, CaseIterable, Sendable {
    case top, center, bottom
    /// The band between two thirds and four fifths of the height (television's lower third).
    case lowerThird = "lower-third"
  }

  public var font: String
  /// Points, as a fraction of the frame's height (0.06: 65 pixels at 1080p).
  public var size: Double
  public var color: Color
  public var position: Position
  /// The box behind the text, or nil for none.
  public var box: Color?
  /// The box's padding and corner radius, as fractions of the text's size.
  public var padding: Double
  public var radius: Double
  /// Seconds of fade at the start and the end.
  public var fade: Double
  /// Where lines wrap: this fraction of the frame's width.
  public var width: Double
  /// The most lines before the text is made smaller, and the smallest size it is made (a
  /// fraction of `size`); a text that does not fit even then is shown whole, and said once.
  public var maxLines: Int
  public var minimumScale: Double

  public init(
    font: String = TextLayer.defaultFont, size: Double = 0.06, color: Color = .white, position: Position = .lowerThird,
    box: Color? = Color(red: 0, green: 0, blue: 0, alpha: 0.55), padding: Double = 0.35, radius: Double = 0.25,
    fade: Double = 0.4, width: Double = 0.9, maxLines: Int = 2, minimumScale: Double = 0.6
  ) {
    self.font = font
    self.size = size
    self.color = color
    self.position = position
    self.box = box
    self.padding = padding
    self.radius = radius
    self.fade = fade
    self.width = width
    self.maxLines = maxLines
    self.minimumScale = minimumScale
  }

  /// Titles' defaults: larger, in the lower third.
  public static let title = TextStyle()
  /// Subtitles' defaults: smaller, at the bottom inside the safe margin, three lines at most.
  public static let subtitle = TextStyle(size: 0.045, position: .bottom, fade: 0.1, maxLines: 3)

  /// A layer of `width × height` with `text` laid out in this style at `opacity`: wrapped at
  /// `self.width` of the frame, made smaller (down to `minimumScale`) while it takes more than
  /// `maxLines` lines, in a box fitted to its lines.
  /// - Parameter note: told once, by the caller's key, when the text does not fit even at the
  ///   smallest size.
  func layer(
    _ text: AttributedText, width: Double, height: Double, opacity: Double, note: (String) -> Void
  ) throws -> Layer {
    let root = Layer(frame: Rect(x: 0, y: 0, width: width, height: height))
    root.opacity = opacity
    guard let box = try box(text, width: width, height: height, note: note) else { return root }
    // The safe margins: 5 % of the height at the top and bottom.
    let margin = height * 0.05
    let boxHeight = box.bounds.height
    let y: Double
    switch position {
    case .top: y = margin
    case .center: y = (height - boxHeight) / 2
    case .bottom: y = height - margin - boxHeight
    case .lowerThird: y = height * 0.72 - boxHeight / 2
    }
    box.frame.origin = Point(x: (width - box.bounds.width) / 2, y: y)
    root.addSublayer(box)
    return root
  }

  /// The text in its box, at the origin, for a frame of `width × height` (nil: no text engine).
  /// - Parameter alignment: the lines' alignment inside the box.
  package func box(
    _ text: AttributedText, width: Double, height: Double, alignment: TextLayer.AlignmentMode = .center,
    note: (String) -> Void
  ) throws -> Layer? {
    // Installed once; a frame only reads it.
    guard let engine = TextLayer.layoutEngine ?? FontStack.install() else { return nil }
    let maxWidth = width * self.width
    var points = size * height
    var layout: TextLayout
    let smallest = points * minimumScale
    repeat {
      layout = try engine.layout(request(text, points: points, width: maxWidth, alignment: alignment))
      if layout.lines.count <= maxLines || points <= smallest + 1e-9 { break }
      points = max(points * 0.9, smallest)
    } while true
    if layout.lines.count > maxLines {
      note("\"\(text.string.prefix(40))\" needs \(layout.lines.count) lines at the smallest size; shown whole")
    }
    let inkWidth = layout.lines.map { $0.maxX - $0.minX }.max() ?? 0
    let lineHeight = layout.lines.count > 1 ? (layout.lines[1].baseline - layout.lines[0].baseline) : points * 1.17
    let textHeight = lineHeight * Double(max(layout.lines.count, 1))
    let pad = points * padding
    let box = Layer(frame: Rect(x: 0, y: 0, width: inkWidth + 2 * pad, height: textHeight + 2 * pad))
    box.backgroundColor = self.box
    box.cornerRadius = self.box == nil ? 0 : points * radius
    let label = TextLayer()
    let shift: Double
    switch alignment {
    case .left, .natural, .justified: shift = -(layout.lines.map(\.minX).min() ?? 0)
    case .right: shift = inkWidth - (layout.lines.map(\.maxX).max() ?? maxWidth)
    default: shift = -(maxWidth - inkWidth) / 2
    }
    label.frame = Rect(x: pad + shift, y: pad, width: maxWidth, height: textHeight + 1)
    label.string = styled(text)
    label.font = font
    label.fontSize = points
    label.foregroundColor = color
    label.isWrapped = true
    label.alignmentMode = alignment
    box.addSublayer(label)
    return box
  }

  func request(
    _ text: AttributedText, points: Double, width: Double, alignment: TextLayer.AlignmentMode = .center
  ) -> TextLayoutRequest {
    TextLayoutRequest(
      runs: styled(text).runs.map {
        .init(
          text: $0.text, font: $0.font ?? font, fontSize: $0.fontSize.map { $0 * points / 36 } ?? points,
          underline: $0.underline, kerning: $0.kerning)
      }, width: width, height: .infinity, wrapped: true, alignment: alignment)
  }

  /// Runs whose font is only a style (":bold", ":italic", as subtitle tags give) take it on
  /// this style's family.
  func styled(_ text: AttributedText) -> AttributedText {
    AttributedText(
      runs: text.runs.map { run in
        var r = run
        if let f = run.font, f.hasPrefix(":") { r.font = font + f }
        return r
      })
  }

  /// The opacity of a text shown from `start` for `length` seconds at time `t`.
  package func opacity(at t: Double, start: Double, length: Double) -> Double {
    guard fade > 0 else { return 1 }
    let f = min(fade, length / 2)
    return min(max(min((t - start) / f, (start + length - t) / f), 0), 1)
  }
}

/// A title over an item: shown while the item is on screen (its transitions included), faded in
/// and out.
public struct TimelineTitle: Sendable, Equatable {
  public var text: AttributedText
  public var style: TextStyle

  public init(_ text: AttributedText, style: TextStyle = .title) {
    self.text = text
    self.style = style
  }
}

/// The slow zoom and pan over a still while it is on screen (editly's zoomDirection /
/// zoomAmount, "Ken Burns"): the picture scaled about its centre from 1 to 1 + `amount` (or
/// back) and moved along `pan` within what the zoom leaves over, continuously over the item's
/// whole time, its transitions included.
public struct KenBurns: Sendable, Equatable {
  public enum Zoom: String, CaseIterable, Sendable {
    case none, `in`, out
  }

  public var zoom: Zoom
  /// The direction of the pan, (−1…1, −1…1); zero for none.
  public var pan: SIMD2<Double>
  /// How much larger the picture gets (0.1: 10 %).
  public var amount: Double
  /// editly's `zoomDirection: 'left'` / `'right'`: the picture 1.3 + `amount` times its size,
  /// moving across by 1000 × `amount` pixels of the frame, from −500 × `amount` to
  /// +500 × `amount` (right; left the other way), whatever the frame's size.
  public var editlyPan = false

  public init(zoom: Zoom = .in, pan: SIMD2<Double> = .zero, amount: Double = 0.1, editlyPan: Bool = false) {
    self.zoom = zoom
    self.pan = pan
    self.amount = amount
    self.editlyPan = editlyPan
  }

  /// The move at `u` as the transform of a picture `width`×`height` (about its centre).
  func transform(at u: Double, width: Double, height: Double) -> Transform3D {
    let (scale, offset) = placement(at: u, width: width)
    return Transform3D(scaleX: scale, y: scale).concatenating(
      Transform3D(translationX: offset.x * width, y: offset.y * height))
  }

  /// The scale and the offset (fractions of the picture's size) at `u` (0…1 of the item's time),
  /// for a picture `width` pixels wide.
  package func placement(at u: Double, width: Double = 1) -> (scale: Double, offset: SIMD2<Double>) {
    let v = min(max(u, 0), 1)
    if editlyPan {
      return (1.3 + amount, SIMD2(pan.x * (1000 * amount * v - 500 * amount) / max(width, 1), 0))
    }
    let scale: Double
    switch zoom {
    case .in: scale = 1 + amount * v
    case .out: scale = 1 + amount * (1 - v)
    case .none: scale = 1 + amount
    }
    // Within the margin the zoom leaves on each side: (scale − 1) / 2 of the size.
    let reach = (scale - 1) / 2
    return (scale, pan * (reach * (2 * v - 1)))
  }
}

/// Subtitles burned into a video: cues at times of the whole video, in one style.
public struct Subtitles: Sendable, Equatable {
  public var cues: [SubtitleCue]
  public var style: TextStyle

  public init(cues: [SubtitleCue], style: TextStyle = .subtitle) {
    self.cues = cues
    self.style = style
  }

  /// The cues shown at `t`, oldest first (overlapping cues stack).
  package func cues(at t: Double) -> [SubtitleCue] { cues.filter { t >= $0.start && t < $0.end } }
}
