import Foundation

/// A layer that draws text (CATextLayer): `string` laid out in its bounds from the top, in
/// `font` at `fontSize`, coloured `foregroundColor`, aligned, wrapped and truncated as Core
/// Animation does, over its background and contents and under its sublayers.
///
/// The model knows no fonts: it hands a `TextLayoutRequest` to `TextLayer.layoutEngine`, which
/// shapes the text with the real font stack and gives back the glyphs' outlines (LayerKitText's
/// `FontStack`: fontconfig, FreeType, HarfBuzz and FriBiDi through libraqm, libunibreak). The
/// outlines are then drawn as a ShapeLayer's path is: mapped into the frame's pixels and
/// rasterized there into one coverage mask per colour, which both backends draw — sharp at any
/// size, rotation or perspective, and the same on both, with no hinting (so a frame does not
/// depend on the machine's FreeType settings). The engine caches layouts: a text layer whose
/// text, font and size did not change is not shaped again.
open class TextLayer: Layer {
  /// CATextLayerAlignmentMode.
  public enum AlignmentMode: String, CaseIterable, Sendable {
    /// Left for left-to-right paragraphs, right for right-to-left ones.
    case natural
    case left, right, center
    /// Every line but a paragraph's last stretched to the width at its spaces.
    case justified
  }

  /// CATextLayerTruncationMode: where an ellipsis replaces what does not fit.
  public enum TruncationMode: String, CaseIterable, Sendable {
    case none, start, middle, end
  }

  /// A `String` (or `NSString`, `Substring`), or `AttributedText` for runs of their own font,
  /// size, colour, underline and kerning; nil draws nothing (CATextLayer's `Any?`).
  open var string: Any? {
    didSet { didChangeDiscretely("string") }
  }
  /// The font, as CATextLayer's `CFTypeRef`: a name — a family ("DejaVu Sans", "serif"), with a
  /// weight or style after a colon as fontconfig writes them ("DejaVu Sans:bold"), a PostScript
  /// name ("Helvetica-Bold"), or the path of a font file (`.ttf`, `.otf`, `.ttc`) — or a font
  /// (`UIFont`, `NSFont`, `CTFont`, `CGFont`), whose name is used and whose size is not (the
  /// layer draws at `fontSize`, as Core Animation documents); nil is the default font.
  /// Characters the font lacks are drawn in a fallback that has them.
  open var font: (any FontConvertible)? = TextLayer.defaultFont
  /// The name `font` is looked up by (`defaultFont` for nil).
  open var fontName: String { font?.fontName ?? TextLayer.defaultFont }
  /// Points (CA's default 36).
  open var fontSize: Double = 36 { didSet { didChange("fontSize", from: oldValue, to: fontSize) } }
  /// The colour of text without one of its own (CA's default opaque white).
  open var foregroundColor: Color = .white {
    didSet { didChange("foregroundColor", from: oldValue, to: foregroundColor) }
  }
  /// Whether lines wrap at the bounds' width (at Unicode's line-break opportunities).
  open var isWrapped = false
  open var alignmentMode: AlignmentMode = .natural
  open var truncationMode: TruncationMode = .none

  /// Whether a font name is the path of a font file rather than a family or a PostScript name:
  /// it holds a `/` or ends in a font file's extension (the text engine reads such a name as a
  /// file, and an edit's reader takes it as a path).
  public static func namesFontFile(_ name: String) -> Bool {
    let lower = name.lowercased()
    return name.contains("/") || [".ttf", ".otf", ".ttc", ".otc", ".pfb", ".woff"].contains { lower.hasSuffix($0) }
  }

  /// The family a text layer uses unless told otherwise (Core Animation's is Helvetica, which a
  /// Linux machine does not have; fontconfig's "sans-serif" finds its nearest).
  public static let defaultFont = "sans-serif"

  /// Lays text out. Unless one is set, the first text layer drawn takes the engine LayerKitText
  /// provides: linking LayerKitText (the LayerKit product does) registers its font stack, so a
  /// text layer draws with no set-up call, as a CATextLayer does. With no engine at all, drawing
  /// a text layer with text is an error (RenderError.textLayout) that says so. Read and set
  /// under a lock (`Locked`): the builder reads it on whatever thread builds a frame.
  public static var layoutEngine: (any TextLayoutEngine)? {
    get {
      installedEngine.withLock { current in
        if current == nil, let provide = engineProvider.current { current = provide() }
        return current
      }
    }
    set { installedEngine.withLock { $0 = newValue } }
  }

  /// Makes `engine` the layout engine unless one is set already, in one step (no other thread's
  /// engine replaced between the test and the set); returns the engine in force.
  @discardableResult
  public static func installLayoutEngine(ifNone engine: any TextLayoutEngine) -> any TextLayoutEngine {
    installedEngine.withLock { current in
      if let current { return current }
      current = engine
      return engine
    }
  }

  /// Where `layoutEngine` comes from while none is set: asked when a text layer is drawn
  /// (LayerKitText registers its shared `FontStack` as the program loads).
  public static func registerLayoutEngineProvider(_ provider: @escaping @Sendable () -> (any TextLayoutEngine)?) {
    engineProvider.withLock { $0 = provider }
  }

  private static let engineProvider = Locked<(@Sendable () -> (any TextLayoutEngine)?)?>(nil)
  private static let installedEngine = Locked<(any TextLayoutEngine)?>(nil)

  override func copyModelValues(from o: Layer) {
    super.copyModelValues(from: o)
    guard let t = o as? TextLayer else { return }
    (string, font, fontSize, foregroundColor) = (t.string, t.font, t.fontSize, t.foregroundColor)
    (isWrapped, alignmentMode, truncationMode) = (t.isWrapped, t.alignmentMode, t.truncationMode)
  }

  /// The runs of `string`, each with its own attributes or the layer's.
  open var attributedText: AttributedText? {
    switch string {
    case nil: return nil
    case let t as AttributedText: return t
    case let s as String: return AttributedText(s)
    case let s as Substring: return AttributedText(String(s))
    case let s as NSString: return AttributedText(s as String)
    case let s as NSAttributedString: return AttributedText(s)
    case let other?: return AttributedText(String(describing: other))
    }
  }

  /// What the engine lays out for this layer: its runs with fonts and sizes resolved (colours
  /// stay out, so a colour animation reuses the layout).
  open var layoutRequest: TextLayoutRequest? { attributedText.flatMap(layoutRequest(for:)) }

  /// The request for `text` (this layer's `attributedText`, made once by the caller).
  func layoutRequest(for text: AttributedText) -> TextLayoutRequest? {
    guard !text.runs.isEmpty else { return nil }
    return TextLayoutRequest(
      runs: text.runs.map {
        TextLayoutRequest.Run(
          text: $0.text, font: $0.font ?? fontName, fontSize: $0.fontSize ?? fontSize, underline: $0.underline,
          kerning: $0.kerning)
      },
      width: bounds.size.width, height: bounds.size.height, wrapped: isWrapped, alignment: alignmentMode,
      truncation: truncationMode)
  }
}

/// Text in runs, each with the attributes it sets (the rest are the text layer's): the
/// NSAttributedString a CATextLayer takes, in the attributes LayerKit draws.
public struct AttributedText: Hashable, Sendable, ExpressibleByStringLiteral {
  public struct Run: Hashable, Sendable {
    public var text: String
    public var font: String?
    public var fontSize: Double?
    public var color: Color?
    public var underline: Bool
    /// Extra space after each character, in points (NSAttributedString's `.kern`).
    public var kerning: Double

    public init(
      _ text: String, font: String? = nil, fontSize: Double? = nil, color: Color? = nil, underline: Bool = false,
      kerning: Double = 0
    ) {
      self.text = text
      self.font = font
      self.fontSize = fontSize
      self.color = color
      self.underline = underline
      self.kerning = kerning
    }
  }

  public var runs: [Run]

  public init(runs: [Run]) { self.runs = runs }
  public init(_ text: String) { runs = [Run(text)] }
  public init(stringLiteral value: String) { self.init(value) }

  /// The characters of every run.
  public var string: String { runs.map(\.text).joined() }

  /// The text itself when it is one run with no attributes of its own (what a plain String
  /// would hold); nil otherwise.
  public var plainString: String? {
    runs.count == 1 && runs[0] == Run(runs[0].text) ? runs[0].text : nil
  }
}

/// What a text layout engine lays out: the runs, the box and the layer's rules.
public struct TextLayoutRequest: Hashable, Sendable {
  public struct Run: Hashable, Sendable {
    public var text: String
    public var font: String
    public var fontSize: Double
    public var underline: Bool
    public var kerning: Double

    public init(text: String, font: String, fontSize: Double, underline: Bool = false, kerning: Double = 0) {
      self.text = text
      self.font = font
      self.fontSize = fontSize
      self.underline = underline
      self.kerning = kerning
    }
  }

  public var runs: [Run]
  public var width: Double
  public var height: Double
  public var wrapped: Bool
  public var alignment: TextLayer.AlignmentMode
  public var truncation: TextLayer.TruncationMode

  public init(
    runs: [Run], width: Double, height: Double, wrapped: Bool = false, alignment: TextLayer.AlignmentMode = .natural,
    truncation: TextLayer.TruncationMode = .none
  ) {
    self.runs = runs
    self.width = width
    self.height = height
    self.wrapped = wrapped
    self.alignment = alignment
    self.truncation = truncation
  }
}

/// A laid-out text: per run, the outlines of its glyphs (and underline) in the layer's
/// coordinates, top-left origin, y down, filled non-zero.
public struct TextLayout: Sendable {
  /// One run's glyphs: `run` indexes the request's runs.
  public struct Piece: Sendable {
    public var run: Int
    public var path: Path

    public init(run: Int, path: Path) {
      self.run = run
      self.path = path
    }
  }

  /// A colour glyph (an emoji of a colour font): its image over `rect`, in the layer's
  /// coordinates, drawn as it is (the run's colour does not tint it).
  public struct Picture: Sendable {
    public var run: Int
    public var image: Image
    public var rect: Rect

    public init(run: Int, image: Image, rect: Rect) {
      self.run = run
      self.image = image
      self.rect = rect
    }
  }

  public var pieces: [Piece]
  public var pictures: [Picture]
  /// Each line's baseline and the x extent of its glyphs, top to bottom.
  public var lines: [(baseline: Double, minX: Double, maxX: Double)]

  public init(pieces: [Piece], pictures: [Picture] = [], lines: [(baseline: Double, minX: Double, maxX: Double)]) {
    self.pieces = pieces
    self.pictures = pictures
    self.lines = lines
  }
}

/// Lays out text for text layers (LayerKitText's `FontStack`).
public protocol TextLayoutEngine: AnyObject, Sendable {
  /// The layout of `request`; throws a message naming what is wrong (a font file that is not a font).
  func layout(_ request: TextLayoutRequest) throws -> TextLayout
}
