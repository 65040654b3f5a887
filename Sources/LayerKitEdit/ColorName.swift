import Foundation
import LayerKit

/// Colours as the command line and edit files write them: a name (CSS's basic ones: black,
/// white, red, green, blue, gray, yellow, orange, purple, pink, cyan, magenta, …, transparent),
/// hex `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (`0x` also taken), or CSS's `rgb(r, g, b)` and
/// `rgba(r, g, b, a)` (channels 0–255, alpha 0–1), as editly's files use them.
public enum ColorName {
  static let named: [String: (UInt8, UInt8, UInt8, UInt8)] = [
    "black": (0, 0, 0, 255), "white": (255, 255, 255, 255), "red": (255, 0, 0, 255), "green": (0, 128, 0, 255),
    "lime": (0, 255, 0, 255), "blue": (0, 0, 255, 255), "gray": (128, 128, 128, 255), "grey": (128, 128, 128, 255),
    "silver": (192, 192, 192, 255), "yellow": (255, 255, 0, 255), "orange": (255, 165, 0, 255),
    "purple": (128, 0, 128, 255), "pink": (255, 192, 203, 255), "cyan": (0, 255, 255, 255),
    "aqua": (0, 255, 255, 255), "magenta": (255, 0, 255, 255), "fuchsia": (255, 0, 255, 255),
    "brown": (165, 42, 42, 255), "navy": (0, 0, 128, 255), "teal": (0, 128, 128, 255), "olive": (128, 128, 0, 255),
    "maroon": (128, 0, 0, 255), "gold": (255, 215, 0, 255), "transparent": (0, 0, 0, 0),
  ]

  /// The colour's 8-bit channels, or nil for text that is none.
  public static func rgba8(_ text: String) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)? {
    let lower = text.lowercased().trimmingCharacters(in: .whitespaces)
    if let c = named[lower] { return c }
    if lower.hasPrefix("rgb"), lower.hasSuffix(")"), let open = lower.firstIndex(of: "(") {
      let parts = lower[lower.index(after: open)..<lower.index(before: lower.endIndex)].split(separator: ",")
        .map { Double($0.trimmingCharacters(in: .whitespaces)) }
      guard parts.count == (lower.hasPrefix("rgba") ? 4 : 3), parts.allSatisfy({ $0.map(\.isFinite) == true }) else {
        return nil
      }
      let v = parts.map { $0! }
      guard v.prefix(3).allSatisfy({ (0...255).contains($0) }), v.count == 3 || (0...1).contains(v[3]) else {
        return nil
      }
      return (
        UInt8(v[0].rounded()), UInt8(v[1].rounded()), UInt8(v[2].rounded()),
        UInt8(((v.count == 4 ? v[3] : 1) * 255).rounded())
      )
    }
    var hex = Substring(lower)
    if hex.hasPrefix("#") { hex.removeFirst() } else if hex.hasPrefix("0x") { hex.removeFirst(2) }
    guard [3, 4, 6, 8].contains(hex.count), hex.allSatisfy(\.isHexDigit) else { return nil }
    // #RGB and #RGBA: each digit doubled.
    if hex.count <= 4 { hex = Substring(hex.flatMap { [$0, $0] }) }
    guard let v = UInt32(hex, radix: 16) else { return nil }
    if hex.count == 6 { return (UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255), 255) }
    return (UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255))
  }
}

extension Color {
  /// A colour from a name or hex (`ColorName`), or nil.
  public init?(name text: String) {
    guard let c = ColorName.rgba8(text) else { return nil }
    self.init(
      red: Double(c.red) / 255, green: Double(c.green) / 255, blue: Double(c.blue) / 255, alpha: Double(c.alpha) / 255)
  }
}
