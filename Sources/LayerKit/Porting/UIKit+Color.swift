import Foundation

/// UIKit's colour (AppKit's `NSColor`), as layer code meets it: `UIColor.red.cgColor`,
/// `UIColor(red: 0.2, green: 0.4, blue: 1, alpha: 1).cgColor`, `UIColor(white: 0, alpha: 0.5)`,
/// `.withAlphaComponent(0.3)`. A reference type over a `Color`, as UIColor is a class; LayerKit's
/// layers take the `cgColor`. Components are sRGB; the system colours have their light-mode
/// values (there is no appearance to adapt to offscreen).
open class UIColor: Hashable, CustomStringConvertible, _ExpressibleByColorLiteral, @unchecked Sendable {
  /// The colour as Core Graphics' (LayerKit's `Color`), what a layer's colour properties take.
  public let cgColor: Color

  public init(cgColor: Color) { self.cgColor = cgColor }

  /// Xcode's colour literal, `#colorLiteral(red: 0.12, green: 0.13, blue: 0.14, alpha: 1)`.
  public required convenience init(_colorLiteralRed red: Float, green: Float, blue: Float, alpha: Float) {
    self.init(red: CGFloat(red), green: CGFloat(green), blue: CGFloat(blue), alpha: CGFloat(alpha))
  }

  public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    self.init(cgColor: Color(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha)))
  }

  public convenience init(white: CGFloat, alpha: CGFloat) {
    self.init(cgColor: Color(white: Double(white), alpha: Double(alpha)))
  }

  /// UIColor(hue:saturation:brightness:alpha:): HSB (HSV), each in [0, 1].
  public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
    let h = (Double(hue) - Double(hue).rounded(.down)) * 6
    let s = min(max(Double(saturation), 0), 1)
    let v = min(max(Double(brightness), 0), 1)
    let f = h - h.rounded(.down)
    let (p, q, t) = (v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f)))
    let rgb: (Double, Double, Double) =
      switch Int(h) % 6 {
      case 0: (v, t, p)
      case 1: (q, v, p)
      case 2: (p, v, t)
      case 3: (p, q, v)
      case 4: (t, p, v)
      default: (v, p, q)
      }
    self.init(cgColor: Color(red: rgb.0, green: rgb.1, blue: rgb.2, alpha: Double(alpha)))
  }

  /// UIColor(displayP3Red:green:blue:alpha:): drawn as sRGB, as every space is here.
  public convenience init(displayP3Red red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    self.init(red: red, green: green, blue: blue, alpha: alpha)
  }

  /// NSColor(calibratedRed:green:blue:alpha:), NSColor(deviceRed:…), NSColor(srgbRed:…): sRGB.
  public convenience init(calibratedRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    self.init(red: red, green: green, blue: blue, alpha: alpha)
  }
  public convenience init(deviceRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    self.init(red: red, green: green, blue: blue, alpha: alpha)
  }
  public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    self.init(red: red, green: green, blue: blue, alpha: alpha)
  }
  /// NSColor(calibratedWhite:alpha:), NSColor(deviceWhite:alpha:).
  public convenience init(calibratedWhite white: CGFloat, alpha: CGFloat) { self.init(white: white, alpha: alpha) }
  public convenience init(deviceWhite white: CGFloat, alpha: CGFloat) { self.init(white: white, alpha: alpha) }

  /// UIColor(_ color: Color): the CGColor spelled Swift's way (`UIColor(cgColor:)`).
  public convenience init(_ color: Color) { self.init(cgColor: color) }

  /// UIColor(named:): one of UIKit's named colours by its name ("red", "systemBlue"); nil for
  /// another (there is no asset catalogue).
  public convenience init?(named name: String) {
    guard let color = UIColor.named[name] else { return nil }
    self.init(cgColor: color)
  }

  /// The colour with another alpha (UIColor.withAlphaComponent(_:)).
  public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
    UIColor(cgColor: Color(red: cgColor.red, green: cgColor.green, blue: cgColor.blue, alpha: Double(alpha)))
  }

  /// UIColor.getRed(_:green:blue:alpha:): the components, true (every colour is RGB).
  @discardableResult
  public func getRed(
    _ red: UnsafeMutablePointer<CGFloat>?, green: UnsafeMutablePointer<CGFloat>?,
    blue: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?
  ) -> Bool {
    red?.pointee = CGFloat(cgColor.red)
    green?.pointee = CGFloat(cgColor.green)
    blue?.pointee = CGFloat(cgColor.blue)
    alpha?.pointee = CGFloat(cgColor.alpha)
    return true
  }

  /// UIColor.getWhite(_:alpha:): the luma (Rec. 709 weights) and alpha, true.
  @discardableResult
  public func getWhite(_ white: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?) -> Bool {
    white?.pointee = CGFloat(0.2126 * cgColor.red + 0.7152 * cgColor.green + 0.0722 * cgColor.blue)
    alpha?.pointee = CGFloat(cgColor.alpha)
    return true
  }

  /// UIColor.getHue(_:saturation:brightness:alpha:): HSB, true.
  @discardableResult
  public func getHue(
    _ hue: UnsafeMutablePointer<CGFloat>?, saturation: UnsafeMutablePointer<CGFloat>?,
    brightness: UnsafeMutablePointer<CGFloat>?, alpha: UnsafeMutablePointer<CGFloat>?
  ) -> Bool {
    let (r, g, b) = (cgColor.red, cgColor.green, cgColor.blue)
    let v = max(r, g, b)
    let d = v - min(r, g, b)
    var h = 0.0
    if d > 0 {
      h =
        v == r ? (g - b) / d : v == g ? 2 + (b - r) / d : 4 + (r - g) / d
      h = (h / 6).truncatingRemainder(dividingBy: 1)
      if h < 0 { h += 1 }
    }
    hue?.pointee = CGFloat(h)
    saturation?.pointee = CGFloat(v > 0 ? d / v : 0)
    brightness?.pointee = CGFloat(v)
    alpha?.pointee = CGFloat(cgColor.alpha)
    return true
  }

  /// The alpha (UIColor.cgColor.alpha; NSColor.alphaComponent).
  public var alphaComponent: CGFloat { CGFloat(cgColor.alpha) }
  /// NSColor.redComponent, greenComponent, blueComponent.
  public var redComponent: CGFloat { CGFloat(cgColor.red) }
  public var greenComponent: CGFloat { CGFloat(cgColor.green) }
  public var blueComponent: CGFloat { CGFloat(cgColor.blue) }

  public static func == (a: UIColor, b: UIColor) -> Bool { a.cgColor == b.cgColor }
  public func hash(into hasher: inout Hasher) { hasher.combine(cgColor) }
  public var description: String { "UIColor \(cgColor)" }

  // UIKit's named colours, with its documented components.
  public class var clear: UIColor { UIColor(cgColor: .clear) }
  public class var black: UIColor { UIColor(cgColor: .black) }
  public class var white: UIColor { UIColor(cgColor: .white) }
  public class var red: UIColor { UIColor(cgColor: .red) }
  public class var green: UIColor { UIColor(cgColor: .green) }
  public class var blue: UIColor { UIColor(cgColor: .blue) }
  public class var yellow: UIColor { UIColor(cgColor: .yellow) }
  public class var cyan: UIColor { UIColor(cgColor: .cyan) }
  public class var magenta: UIColor { UIColor(cgColor: .magenta) }
  public class var orange: UIColor { UIColor(cgColor: .orange) }
  public class var purple: UIColor { UIColor(cgColor: .purple) }
  public class var brown: UIColor { UIColor(cgColor: .brown) }
  public class var gray: UIColor { UIColor(cgColor: .gray) }
  public class var darkGray: UIColor { UIColor(cgColor: .darkGray) }
  public class var lightGray: UIColor { UIColor(cgColor: .lightGray) }

  // The system colours, light mode (iOS 13's values).
  public class var systemRed: UIColor { named("systemRed") }
  public class var systemOrange: UIColor { named("systemOrange") }
  public class var systemYellow: UIColor { named("systemYellow") }
  public class var systemGreen: UIColor { named("systemGreen") }
  public class var systemTeal: UIColor { named("systemTeal") }
  public class var systemBlue: UIColor { named("systemBlue") }
  public class var systemIndigo: UIColor { named("systemIndigo") }
  public class var systemPurple: UIColor { named("systemPurple") }
  public class var systemPink: UIColor { named("systemPink") }
  public class var systemGray: UIColor { named("systemGray") }
  public class var label: UIColor { named("label") }
  public class var secondaryLabel: UIColor { named("secondaryLabel") }
  public class var systemBackground: UIColor { named("systemBackground") }
  public class var secondarySystemBackground: UIColor { named("secondarySystemBackground") }
  public class var separator: UIColor { named("separator") }
  /// UIColor.tintColor (iOS 15): the default tint, system blue.
  public class var tintColor: UIColor { named("systemBlue") }

  private static func named(_ name: String) -> UIColor { UIColor(cgColor: named[name]!) }

  private static let named: [String: Color] = [
    "clear": .clear, "black": .black, "white": .white, "red": .red, "green": .green, "blue": .blue,
    "yellow": .yellow, "cyan": .cyan, "magenta": .magenta, "orange": .orange, "purple": .purple,
    "brown": .brown, "gray": .gray, "darkGray": .darkGray, "lightGray": .lightGray,
    "systemRed": Color(red: 1, green: 59 / 255, blue: 48 / 255),
    "systemOrange": Color(red: 1, green: 149 / 255, blue: 0),
    "systemYellow": Color(red: 1, green: 204 / 255, blue: 0),
    "systemGreen": Color(red: 52 / 255, green: 199 / 255, blue: 89 / 255),
    "systemTeal": Color(red: 90 / 255, green: 200 / 255, blue: 250 / 255),
    "systemBlue": Color(red: 0, green: 122 / 255, blue: 1),
    "systemIndigo": Color(red: 88 / 255, green: 86 / 255, blue: 214 / 255),
    "systemPurple": Color(red: 175 / 255, green: 82 / 255, blue: 222 / 255),
    "systemPink": Color(red: 1, green: 45 / 255, blue: 85 / 255),
    "systemGray": Color(red: 142 / 255, green: 142 / 255, blue: 147 / 255),
    "label": .black,
    "secondaryLabel": Color(red: 60 / 255, green: 60 / 255, blue: 67 / 255, alpha: 0.6),
    "systemBackground": .white,
    "secondarySystemBackground": Color(red: 242 / 255, green: 242 / 255, blue: 247 / 255),
    "separator": Color(red: 60 / 255, green: 60 / 255, blue: 67 / 255, alpha: 0.29),
  ]
}

extension Color: _ExpressibleByColorLiteral {
  /// Xcode's colour literal where a CGColor is expected.
  public init(_colorLiteralRed red: Float, green: Float, blue: Float, alpha: Float) {
    self.init(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha))
  }
}

#if os(Linux)
  /// AppKit's colour, as macOS layer code writes it (`NSColor.red.cgColor`,
  /// `NSColor(calibratedRed:green:blue:alpha:)`): LayerKit's `UIColor`.
  public typealias NSColor = UIColor
#endif

/// The type an untyped `#colorLiteral(…)` makes, as UIKit and AppKit declare it.
public typealias _ColorLiteralType = UIColor
