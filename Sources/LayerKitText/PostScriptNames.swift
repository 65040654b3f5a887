import Foundation

extension FontStack {
  /// A font name as Core Animation code writes it, in fontconfig's pattern syntax. PostScript
  /// names ("Helvetica-Bold", "HelveticaNeue-MediumItalic", "Arial-BoldMT", "Menlo-Regular")
  /// become a family and fontconfig's style constants ("Helvetica:bold", "Helvetica
  /// Neue:medium:italic"), so a porter's `font` keeps its weight and slant on Linux (fontconfig
  /// itself would read the text after the dash as a size, and drop it). Anything else — a
  /// family ("DejaVu Sans"), a pattern ("DejaVu Sans:bold"), "sans-serif", a file — is returned
  /// as it is.
  static func fontconfigPattern(_ name: String) -> String {
    guard !name.contains(":"), !name.contains(" "), !isPath(name),
      let dash = name.lastIndex(of: "-")
    else { return name }
    let family = String(name[..<dash])
    var style = String(name[name.index(after: dash)...])
    for suffix in ["PSMT", "MT", "PS"] where style.hasSuffix(suffix) && style.count > suffix.count {
      style.removeLast(suffix.count)
      break
    }
    guard !family.isEmpty, let constants = styleConstants(style) else { return name }
    return ([spacedWords(family)] + constants).joined(separator: ":")
  }

  /// fontconfig's constants for a PostScript style ("BoldItalic" → bold, italic); nil when a word
  /// of it is not a style.
  private static func styleConstants(_ style: String) -> [String]? {
    var constants: [String] = []
    var rest = Substring(style)
    while !rest.isEmpty {
      guard let (word, constant) = styleWords.first(where: { rest.hasPrefix($0.0) }) else { return nil }
      rest = rest.dropFirst(word.count)
      if let constant { constants.append(constant) }
    }
    return constants
  }

  /// PostScript style words and fontconfig's constant for each (nil: the regular face); a word is
  /// listed before any shorter word it begins with ("Italic" before "It").
  private static let styleWords: [(String, String?)] = [
    ("UltraLight", "extralight"), ("ExtraLight", "extralight"), ("SemiBold", "semibold"),
    ("Semibold", "semibold"), ("DemiBold", "semibold"), ("ExtraBold", "extrabold"),
    ("UltraBold", "extrabold"), ("Condensed", "condensed"), ("Regular", nil), ("Oblique", "oblique"),
    ("Italic", "italic"), ("Medium", "medium"), ("Light", "light"), ("Heavy", "heavy"),
    ("Black", "black"), ("Roman", nil), ("Plain", nil), ("Bold", "bold"), ("Book", nil),
    ("Thin", "thin"), ("It", "italic"),
  ]

  /// "HelveticaNeue" → "Helvetica Neue": a space before each capital that follows a lower-case
  /// letter (PostScript names drop the family's spaces).
  private static func spacedWords(_ family: String) -> String {
    var out = ""
    var previous: Character?
    for c in family {
      if let p = previous, p.isLowercase, c.isUppercase { out.append(" ") }
      out.append(c)
      previous = c
    }
    return out
  }
}
