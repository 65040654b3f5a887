import LayerKit

/// Colours as the command line and edit files write them: a name (black, white, red, green,
/// blue, gray, transparent) or hex `#RRGGBB` / `#RRGGBBAA` (`0x` also taken).
public enum ColorName {
  /// The colour's 8-bit channels, or nil for text that is none.
  public static func rgba8(_ text: String) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)? {
    let named: [String: (UInt8, UInt8, UInt8, UInt8)] = [
      "black": (0, 0, 0, 255), "white": (255, 255, 255, 255), "red": (255, 0, 0, 255), "green": (0, 255, 0, 255),
      "blue": (0, 0, 255, 255), "gray": (128, 128, 128, 255), "grey": (128, 128, 128, 255),
      "transparent": (0, 0, 0, 0),
    ]
    if let c = named[text.lowercased()] { return c }
    var hex = Substring(text)
    if hex.hasPrefix("#") { hex.removeFirst() } else if hex.hasPrefix("0x") { hex.removeFirst(2) }
    guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit), let v = UInt32(hex, radix: 16) else {
      return nil
    }
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
