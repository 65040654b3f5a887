/// A colour with straight (not premultiplied) alpha, components in [0, 1], sRGB-encoded as
/// stored, like a CGColor in the sRGB space. Renderers premultiply once, when the RenderList is
/// built.
public struct Color: Hashable, Sendable, CustomStringConvertible {
  public var red: Double
  public var green: Double
  public var blue: Double
  public var alpha: Double

  public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
    self.red = red
    self.green = green
    self.blue = blue
    self.alpha = alpha
  }

  /// A grey.
  public init(white: Double, alpha: Double = 1) {
    self.init(red: white, green: white, blue: white, alpha: alpha)
  }

  public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
  public static let black = Color(white: 0)
  public static let white = Color(white: 1)
  public static let red = Color(red: 1, green: 0, blue: 0)
  public static let green = Color(red: 0, green: 1, blue: 0)
  public static let blue = Color(red: 0, green: 0, blue: 1)
  // UIColor's other named colours, with its documented components.
  public static let yellow = Color(red: 1, green: 1, blue: 0)
  public static let cyan = Color(red: 0, green: 1, blue: 1)
  public static let magenta = Color(red: 1, green: 0, blue: 1)
  public static let orange = Color(red: 1, green: 0.5, blue: 0)
  public static let purple = Color(red: 0.5, green: 0, blue: 0.5)
  public static let brown = Color(red: 0.6, green: 0.4, blue: 0.2)
  public static let gray = Color(white: 0.5)
  public static let darkGray = Color(white: 1.0 / 3)
  public static let lightGray = Color(white: 2.0 / 3)

  public var isFinite: Bool { red.isFinite && green.isFinite && blue.isFinite && alpha.isFinite }

  /// Components clamped to [0, 1] and premultiplied by alpha, in Float for the backends.
  public var premultiplied: SIMD4<Float> {
    func c(_ v: Double) -> Double { min(max(v, 0), 1) }
    let a = c(alpha)
    return SIMD4(Float(c(red) * a), Float(c(green) * a), Float(c(blue) * a), Float(a))
  }

  public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }
}
