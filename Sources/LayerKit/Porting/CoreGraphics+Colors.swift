import Foundation

// Core Graphics' colour as Core Animation code writes it: `CGColor(red: 1, green: 0, blue: 0,
// alpha: 1)`, `CGColor(gray: 0.5, alpha: 1)`, `color.copy(alpha: 0.5)`, `color.components`. A
// CGColor is LayerKit's `Color` — a value, sRGB as stored — so every layer property that takes a
// colour takes one as written.

#if os(Linux)
  /// Core Graphics' colour: LayerKit's `Color` (straight alpha, sRGB), with Core Graphics'
  /// initializers and accessors below.
  public typealias CGColor = Color
#endif

extension Color {
  /// CGColor(gray:alpha:): a grey (UIColor's `white`).
  public init(gray: Double, alpha: Double) { self.init(white: gray, alpha: alpha) }

  /// CGColor(srgbRed:green:blue:alpha:): LayerKit's colours are sRGB, so this is
  /// `init(red:green:blue:alpha:)`.
  public init(srgbRed red: Double, green: Double, blue: Double, alpha: Double) {
    self.init(red: red, green: green, blue: blue, alpha: alpha)
  }

  /// CGColor(genericGrayGamma2_2Gray:alpha:): a grey.
  public init(genericGrayGamma2_2Gray gray: Double, alpha: Double) { self.init(white: gray, alpha: alpha) }

  /// CGColor(colorSpace:components:): red, green, blue and alpha in an RGB space (every RGB space
  /// is drawn as sRGB), as Core Graphics code passes them (an array); nil when the space is
  /// missing or the components are not four (Core Graphics would read past a shorter buffer).
  public init?(colorSpace: ColorSpace?, components: [CGFloat]) {
    guard colorSpace != nil, components.count == 4 else { return nil }
    self.init(
      red: Double(components[0]), green: Double(components[1]), blue: Double(components[2]),
      alpha: Double(components[3]))
  }

  /// CGColor.components: red, green, blue and alpha (an RGB colour has four).
  public var components: [CGFloat]? { [CGFloat(red), CGFloat(green), CGFloat(blue), CGFloat(alpha)] }

  /// CGColor.numberOfComponents: 4 (red, green, blue, alpha).
  public var numberOfComponents: Int { 4 }

  /// CGColor.colorSpace: sRGB, the space every LayerKit colour is in.
  public var colorSpace: ColorSpace? { ColorSpace.srgb }

  /// CGColor.copy(alpha:): the colour with another alpha (optional, as Core Graphics' is; never
  /// nil).
  public func copy(alpha: CGFloat) -> Color? {
    var c = self
    c.alpha = Double(alpha)
    return c
  }

  /// CGColor.copy(): the colour itself (a value is its own copy).
  public func copy() -> Color? { self }

  /// CGColor.converted(to:intent:options:): the colour itself (every RGB space is drawn as sRGB).
  public func converted(to space: ColorSpace, intent: ColorRenderingIntent, options: [String: Any]?) -> Color? {
    self
  }
}

/// CGColorRenderingIntent, for `converted(to:intent:options:)`; LayerKit draws every intent alike.
public enum ColorRenderingIntent: Sendable {
  case defaultIntent, absoluteColorimetric, relativeColorimetric, perceptual, saturation
}

#if os(Linux)
  /// CGColorRenderingIntent.
  public typealias CGColorRenderingIntent = ColorRenderingIntent

  /// CGColorCreateCopyWithAlpha(_:_:), Core Graphics' C spelling.
  public func CGColorCreateCopyWithAlpha(_ color: Color?, _ alpha: CGFloat) -> Color? { color?.copy(alpha: alpha) }

  /// Core Graphics' vector (UIKit's spring velocities, physics): a dx and a dy.
  public struct CGVector: Hashable, Sendable, CustomStringConvertible {
    public var dx: CGFloat
    public var dy: CGFloat

    public init() { (dx, dy) = (0, 0) }
    public init(dx: CGFloat, dy: CGFloat) { (self.dx, self.dy) = (dx, dy) }
    public init(dx: Double, dy: Double) { (self.dx, self.dy) = (CGFloat(dx), CGFloat(dy)) }
    public init(dx: Int, dy: Int) { (self.dx, self.dy) = (CGFloat(dx), CGFloat(dy)) }

    public static let zero = CGVector()
    public var description: String { "(\(dx), \(dy))" }
  }

  /// Darwin's HUGE (math.h: MAXFLOAT), as Core Animation code repeats forever:
  /// `repeatCount = HUGE`.
  public let HUGE = Float.greatestFiniteMagnitude

  /// Core Foundation's string, as `"Helvetica" as CFString` is written for a text layer's font:
  /// a Swift `String` (Core Foundation's types are not Swift's on Linux).
  public typealias CFString = String
#endif
