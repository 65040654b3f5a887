import Foundation

// The attributes layer code gives a CATextLayer's `string` as an `NSAttributedString`, under
// UIKit's names (Foundation on Linux has the string but not UIKit's keys): read into the runs of
// an `AttributedText`, drawn on both backends as the layer's own runs are.

#if !canImport(UIKit) && !canImport(AppKit)
  extension NSAttributedString.Key {
    /// A `UIFont`, `NSFont`, `CTFont` or a font name: the run's font and size.
    public static let font = NSAttributedString.Key("NSFont")
    /// A `UIColor` or `CGColor`: the run's colour.
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// Points of extra space after each character.
    public static let kern = NSAttributedString.Key("NSKern")
    /// `NSUnderlineStyle`'s raw value (or the style): any but 0 underlines the run.
    public static let underlineStyle = NSAttributedString.Key("NSUnderline")
  }

  /// UIKit's underline styles, as `.underlineStyle`'s value takes them (`.single.rawValue`).
  public struct NSUnderlineStyle: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let single = NSUnderlineStyle(rawValue: 0x01)
    public static let thick = NSUnderlineStyle(rawValue: 0x02)
    public static let double = NSUnderlineStyle(rawValue: 0x09)
  }
#endif

extension AttributedText {
  /// The runs of `text`: each stretch of one set of attributes a run, with the font, size,
  /// colour, kerning and underline it names (what it does not name is the layer's).
  public init(_ text: NSAttributedString) {
    var runs: [Run] = []
    let whole = NSRange(location: 0, length: text.length)
    text.enumerateAttributes(in: whole, options: []) { attributes, range, _ in
      let piece = (text.string as NSString).substring(with: range)
      var run = Run(piece)
      if let font = attributes[.font] {
        run.font = (font as? any FontConvertible)?.fontName
        if let ui = font as? UIFont { run.fontSize = Double(ui.pointSize) }
      }
      switch attributes[.foregroundColor] {
      case let color as UIColor: run.color = color.cgColor
      case let color as Color: run.color = color
      default: break
      }
      if let kern = Self.number(attributes[.kern]) { run.kerning = kern }
      if let underline = attributes[.underlineStyle] {
        run.underline = (underline as? NSUnderlineStyle)?.rawValue ?? Int(Self.number(underline) ?? 0) != 0
      }
      runs.append(run)
    }
    self.init(runs: runs.isEmpty ? [Run("")] : runs)
  }

  /// A number given as any of Swift's or Foundation's number types.
  static func number(_ value: Any?) -> Double? {
    switch value {
    case let n as Double: n
    case let n as CGFloat: Double(n)
    case let n as Float: Double(n)
    case let n as Int: Double(n)
    case let n as NSNumber: n.doubleValue
    default: nil
    }
  }
}
