import CText
import Foundation
import LayerKit

/// LayerKit's text layout engine on the system's font stack: fontconfig finds fonts by family,
/// weight and style and orders the fallbacks; FreeType opens them and gives unhinted outlines;
/// libraqm runs FriBiDi (bidirectional order) and HarfBuzz (shaping: ligatures, kerning, Arabic
/// joining, Devanagari reordering) over each line; libunibreak gives Unicode's line-break
/// opportunities. Layouts are cached by request, so text that did not change is not shaped
/// again.
///
/// `FontStack.install()` makes it `TextLayer.layoutEngine`. One lock serialises its work
/// (FreeType faces are not thread-safe).
public final class FontStack: TextLayoutEngine, @unchecked Sendable {
  /// The engine `install()` sets up, made on first use.
  private static let sharedStack = Locked<FontStack?>(nil)

  /// The shared engine; nil (with the reason on `reporter`) when fontconfig or FreeType cannot
  /// start.
  public static var shared: FontStack? {
    sharedStack.withLock { stack in
      if stack == nil { stack = try? FontStack() }
      return stack
    }
  }

  /// Makes the shared engine `TextLayer.layoutEngine` unless another engine is set (idempotent).
  @discardableResult
  public static func install() -> FontStack? {
    guard let stack = shared else { return nil }
    TextLayer.installLayoutEngine(ifNone: stack)
    return stack
  }

  /// Where the one-line notes go: a family that is not installed (and the font used instead),
  /// characters no installed font can show. Each note is said once. Standard error by default.
  public static var reporter: @Sendable (String) -> Void {
    get { installedReporter.current }
    set { installedReporter.withLock { $0 = newValue } }
  }
  private static let installedReporter = Locked<@Sendable (String) -> Void>({ line in
    FileHandle.standardError.write(Data("layerkit: \(line)\n".utf8))
  })

  /// Serialises the work below (FreeType and fontconfig are not thread-safe).
  private let lock = Locked(())
  private let library: FT_Library
  private let config: OpaquePointer
  private var faces: [String: Face] = [:]
  private var resolved: [String: ResolvedFont] = [:]
  private var said = Set<String>()
  private var layouts: [TextLayoutRequest: TextLayout] = [:]
  private var layoutOrder: [TextLayoutRequest] = []
  /// How many layouts the cache keeps (the oldest goes first).
  static let cachedLayouts = 512

  public init() throws(TextError) {
    var library: FT_Library?
    guard FT_Init_FreeType(&library) == 0, let library else { throw .unavailable("FreeType did not start") }
    guard let config = FcInitLoadConfigAndFonts() else {
      FT_Done_FreeType(library)
      throw .unavailable("fontconfig found no configuration")
    }
    self.library = library
    self.config = config
    init_linebreak()
  }

  deinit {
    faces = [:]
    resolved = [:]
    FcConfigDestroy(config)
    FT_Done_FreeType(library)
  }

  public func layout(_ request: TextLayoutRequest) throws -> TextLayout {
    try lock.withLock { _ in try layoutHoldingTheLock(request) }
  }

  private func layoutHoldingTheLock(_ request: TextLayoutRequest) throws -> TextLayout {
    if let cached = layouts[request] { return cached }
    let length = request.runs.reduce(0) { $0 + $1.text.unicodeScalars.count }
    guard length <= Limits.maxTextLength else { throw TextError.tooLong(characters: length) }
    let layout = try TextLayoutBuilder(stack: self, request: request).build()
    layouts[request] = layout
    layoutOrder.append(request)
    if layoutOrder.count > Self.cachedLayouts {
      layouts[layoutOrder.removeFirst()] = nil
    }
    return layout
  }

  /// How many layouts were computed rather than found in the cache (for tests and the bench).
  public private(set) var layoutsComputed = 0

  // MARK: Fonts (called with the lock held)

  func noteLayoutComputed() { layoutsComputed += 1 }

  /// Says `line` through the reporter the first time only.
  func sayOnce(_ line: String) {
    if said.insert(line).inserted { FontStack.reporter(line) }
  }

  func face(path: String, index: Int) throws(TextError) -> Face {
    let key = "\(path)#\(index)"
    if let f = faces[key] { return f }
    let f = try Face(library: library, path: path, index: index)
    faces[key] = f
    return f
  }

  /// A font by family pattern ("DejaVu Sans:bold"), PostScript name ("Helvetica-Bold") or file
  /// path.
  func font(_ spec: String) throws(TextError) -> ResolvedFont {
    if let r = resolved[spec] { return r }
    let r: ResolvedFont
    if FontStack.isPath(spec) {
      let primary = try face(path: spec, index: 0)
      if !primary.hasOutlines { throw .noOutlines(spec) }
      r = ResolvedFont(primary: primary, fallbacks: try familyFonts("sans-serif").files)
    } else {
      let pattern = FontStack.fontconfigPattern(spec)
      let (files, matched) = try familyFonts(pattern)
      guard let first = files.first else { throw .unavailable("fontconfig knows no font at all") }
      let primary = try face(path: first.path, index: first.index)
      let asked = FontStack.family(of: pattern)
      if !asked.isEmpty, !FontStack.genericFamilies.contains(asked.lowercased()),
        matched.lowercased() != asked.lowercased()
      {
        sayOnce("font family \"\(asked)\" is not installed; using \"\(matched)\"")
      }
      r = ResolvedFont(primary: primary, fallbacks: Array(files.dropFirst()))
    }
    resolved[spec] = r
    return r
  }

  /// The fonts fontconfig sorts for a pattern (best first), and the family of the best.
  private func familyFonts(_ spec: String) throws(TextError) -> (files: [(path: String, index: Int)], family: String) {
    guard let pattern = FcNameParse(spec) else { throw .unavailable("fontconfig cannot parse \"\(spec)\"") }
    defer { FcPatternDestroy(pattern) }
    FcConfigSubstitute(config, pattern, FcMatchPattern)
    FcDefaultSubstitute(pattern)
    var result = FcResultMatch
    guard let set = FcFontSort(config, pattern, FcTrue, nil, &result) else { return ([], "") }
    defer { FcFontSetDestroy(set) }
    var files: [(String, Int)] = []
    var family = ""
    for i in 0..<Int(set.pointee.nfont) {
      guard let font = set.pointee.fonts[i] else { continue }
      var file: UnsafeMutablePointer<FcChar8>?
      guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
      var index: Int32 = 0
      _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
      let path = String(cString: file)
      if files.isEmpty {
        var name: UnsafeMutablePointer<FcChar8>?
        if FcPatternGetString(font, FC_FAMILY, 0, &name) == FcResultMatch, let name { family = String(cString: name) }
      }
      files.append((path, Int(index)))
    }
    return (files, family)
  }

  /// The face to draw `scalar` with: the run's font if it has the glyph, else the first
  /// fallback that has it (each fallback opened when first needed), else nil: no installed font
  /// has it, and the run's font draws its missing-glyph box.
  func face(for scalar: Unicode.Scalar, in font: ResolvedFont) -> Face? {
    if font.primary.has(scalar) || scalar.properties.isWhitespace || scalar.value < 0x20 { return font.primary }
    let key = FallbackKey(scalar: scalar, font: ObjectIdentifier(font.primary))
    if let found = fallbackFaces[key] { return found }
    // An emoji shown as an emoji takes a colour font first, where one is installed.
    var found: Face?
    for (path, index) in font.fallbacks {
      guard let f = try? face(path: path, index: index), f.hasOutlines || f.colorBitmaps, f.has(scalar) else {
        continue
      }
      if f.colorBitmaps || !scalar.properties.isEmojiPresentation {
        found = f
        break
      }
      if found == nil { found = f }
    }
    fallbackFaces[key] = found
    return found
  }

  private struct FallbackKey: Hashable {
    var scalar: Unicode.Scalar
    var font: ObjectIdentifier
  }
  private var fallbackFaces: [FallbackKey: Face] = [:]

  /// Says once, for a layout, which characters no installed font has.
  func sayMissing(_ scalars: [Unicode.Scalar], drawnWith face: Face) {
    guard !scalars.isEmpty else { return }
    var seen = Set<Unicode.Scalar>()
    let unique = scalars.filter { seen.insert($0).inserted }
    let named = unique.prefix(4).map {
      "U+\(String($0.value, radix: 16, uppercase: true)) \($0.properties.name ?? "")"
    }
    let more = unique.count > 4 ? " and \(unique.count - 4) more" : ""
    sayOnce(
      "no installed font has \(named.joined(separator: ", "))\(more); drawing \(face.family)'s missing-glyph box")
  }

  static let genericFamilies: Set<String> = ["sans-serif", "sans", "serif", "monospace", "mono", "cursive", "fantasy"]

  /// A family pattern's family: the text before a colon or a dash-size.
  static func family(of spec: String) -> String {
    String(spec.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
      .trimmingCharacters(in: .whitespaces)
  }

  /// Whether a font spec names a file rather than a family.
  public static func isPath(_ spec: String) -> Bool { TextLayer.namesFontFile(spec) }
}
