import Foundation

// UIKit's and AppKit's font, screen and drawing-context names as layer code meets them:
// `UIFont.systemFont(ofSize: 17)` for a text layer, `UIScreen.main.scale` for `contentsScale`,
// `UIGraphicsPushContext(ctx)` in `draw(in:)` so that `UIColor.setFill()` and
// `UIBezierPath.fill()` draw into the layer. Nothing of views, windows or events.

/// UIKit's font (AppKit's `NSFont`, Core Text's `CTFont`): a font name and a size, for
/// `TextLayer.font`. The name is looked up as a text layer's font name is (a PostScript name as
/// Apple's fonts spell it, a family, a fontconfig pattern); a name that is not installed falls
/// back when drawn, so `UIFont(name:size:)` never fails. As Core Animation documents, a text
/// layer draws at its own `fontSize`: the font's size is not used there.
open class UIFont: Hashable, CustomStringConvertible, @unchecked Sendable {
  /// The name, as given or as the system font is named ("sans-serif", "sans-serif:bold").
  public let fontName: String
  public let pointSize: CGFloat

  public init(fontName: String, pointSize: CGFloat) {
    self.fontName = fontName
    self.pointSize = pointSize
  }

  /// UIFont(name:size:) (optional, as UIKit's; never nil).
  public convenience init?(name: String, size: CGFloat) { self.init(fontName: name, pointSize: size) }

  /// UIFont.Weight: UIKit's weights (-0.8 ultra light … 0.62 black).
  public struct Weight: RawRepresentable, Hashable, Sendable {
    public var rawValue: CGFloat
    public init(rawValue: CGFloat) { self.rawValue = rawValue }
    public init(_ rawValue: CGFloat) { self.rawValue = rawValue }
    public static let ultraLight = Weight(-0.8)
    public static let thin = Weight(-0.6)
    public static let light = Weight(-0.4)
    public static let regular = Weight(0)
    public static let medium = Weight(0.23)
    public static let semibold = Weight(0.3)
    public static let bold = Weight(0.4)
    public static let heavy = Weight(0.56)
    public static let black = Weight(0.62)

    /// fontconfig's name for the weight.
    var fontconfigStyle: String? {
      switch rawValue {
      case ..<(-0.7): "extralight"
      case ..<(-0.5): "thin"
      case ..<(-0.2): "light"
      case ..<0.1: nil
      case ..<0.26: "medium"
      case ..<0.35: "semibold"
      case ..<0.5: "bold"
      case ..<0.6: "extrabold"
      default: "black"
      }
    }
  }

  /// The system font: LayerKit's default text font (`TextLayer.defaultFont`).
  open class func systemFont(ofSize size: CGFloat) -> UIFont {
    UIFont(fontName: TextLayer.defaultFont, pointSize: size)
  }
  open class func boldSystemFont(ofSize size: CGFloat) -> UIFont { systemFont(ofSize: size, weight: .bold) }
  open class func italicSystemFont(ofSize size: CGFloat) -> UIFont {
    UIFont(fontName: TextLayer.defaultFont + ":italic", pointSize: size)
  }
  open class func systemFont(ofSize size: CGFloat, weight: Weight) -> UIFont {
    UIFont(fontName: TextLayer.defaultFont + (weight.fontconfigStyle.map { ":" + $0 } ?? ""), pointSize: size)
  }
  open class func monospacedSystemFont(ofSize size: CGFloat, weight: Weight) -> UIFont {
    UIFont(fontName: "monospace" + (weight.fontconfigStyle.map { ":" + $0 } ?? ""), pointSize: size)
  }
  open class func monospacedDigitSystemFont(ofSize size: CGFloat, weight: Weight) -> UIFont {
    systemFont(ofSize: size, weight: weight)
  }
  /// UIFont.systemFontSize (UIKit's 14), labelFontSize (17).
  open class var systemFontSize: CGFloat { 14 }
  open class var labelFontSize: CGFloat { 17 }

  /// The same font at another size.
  open func withSize(_ size: CGFloat) -> UIFont { UIFont(fontName: fontName, pointSize: size) }
  /// The family: the name up to a fontconfig style (":bold").
  open var familyName: String { String(fontName.prefix { $0 != ":" }) }

  public static func == (a: UIFont, b: UIFont) -> Bool { a.fontName == b.fontName && a.pointSize == b.pointSize }
  public func hash(into hasher: inout Hasher) {
    hasher.combine(fontName)
    hasher.combine(pointSize)
  }
  public var description: String { "UIFont \(fontName) \(pointSize) pt" }
}

/// What `TextLayer.font` takes, as CATextLayer's `CFTypeRef` does: a font name (`String`, or
/// `"Helvetica" as CFString`) or a font (`UIFont`, `NSFont`, `CTFont`, `CGFont`).
public protocol FontConvertible {
  /// The name a text layer looks the font up by.
  var fontName: String { get }
}

extension String: FontConvertible {
  public var fontName: String { self }
}

extension Substring: FontConvertible {
  public var fontName: String { String(self) }
}

extension UIFont: FontConvertible {}

#if os(Linux)
  /// AppKit's font: LayerKit's `UIFont`.
  public typealias NSFont = UIFont
  /// Core Text's font: LayerKit's `UIFont` (toll-free bridged with UIFont on Apple's systems).
  public typealias CTFont = UIFont
  /// Core Graphics' font, as `CGFont("Helvetica" as CFString)` is written: LayerKit's `UIFont`.
  public typealias CGFont = UIFont
#endif

extension UIFont {
  /// CGFont(_ name: CFString): the font of that name (optional, as Core Graphics' is; never nil).
  public convenience init?(_ name: String) { self.init(fontName: name, pointSize: 0) }
}

/// CTFontCreateWithName(_:_:_:): the font of that name at that size (the matrix is not used).
public func CTFontCreateWithName(_ name: String, _ size: CGFloat, _ matrix: UnsafePointer<AffineTransform>?) -> UIFont {
  UIFont(fontName: name, pointSize: size)
}

/// UIKit's screen, for the layer code that reads `UIScreen.main.scale` or `UIScreen.main.bounds`.
/// Offscreen there is no screen: `scale` is 1 (LayerKit draws vectors at the output's pixels,
/// whatever `contentsScale` says) and `bounds` is what you set (1920 × 1080 points at first), so
/// layout written against the screen lays out against your frame.
public final class UIScreen: @unchecked Sendable {
  public static let main = UIScreen()
  private let state = Locked((bounds: CGRect(x: 0, y: 0, width: 1920, height: 1080), scale: CGFloat(1)))

  public var bounds: CGRect {
    get { state.withLock { $0.bounds } }
    set { state.withLock { $0.bounds = newValue } }
  }
  public var scale: CGFloat {
    get { state.withLock { $0.scale } }
    set { state.withLock { $0.scale = newValue } }
  }
  public var nativeScale: CGFloat { scale }
  public var nativeBounds: CGRect { bounds }
}

// MARK: - UIKit's current drawing context

/// The thread's stack of drawing contexts UIKit drawing goes to (UIGraphicsPushContext).
enum UIGraphicsStack {
  private static let slot = ThreadLocal<[DrawingContext]>(key: "LayerKit.UIGraphicsStack")

  static var contexts: [DrawingContext] {
    get { slot.value ?? [] }
    set { slot.value = newValue }
  }
}

/// UIGraphicsPushContext(_:): `ctx` becomes the context UIKit drawing goes to on this thread
/// (`UIColor.setFill()`, `UIBezierPath.fill()`, `UIImage.draw(in:)`), until the matching
/// `UIGraphicsPopContext()`. A layer's `draw(in:)` pushes nothing itself, as in UIKit.
public func UIGraphicsPushContext(_ ctx: DrawingContext) { UIGraphicsStack.contexts.append(ctx) }

/// UIGraphicsPopContext(): the context pushed before the last one is current again.
public func UIGraphicsPopContext() { _ = UIGraphicsStack.contexts.popLast() }

/// UIGraphicsGetCurrentContext(): the context last pushed on this thread, nil when none is.
public func UIGraphicsGetCurrentContext() -> DrawingContext? { UIGraphicsStack.contexts.last }

extension UIColor {
  /// UIColor.setFill(): the current context's fill colour.
  public func setFill() { UIGraphicsGetCurrentContext()?.setFillColor(cgColor) }
  /// UIColor.setStroke(): the current context's stroke colour.
  public func setStroke() { UIGraphicsGetCurrentContext()?.setStrokeColor(cgColor) }
  /// UIColor.set(): both.
  public func set() {
    setFill()
    setStroke()
  }
}
