import Foundation

/// UIKit's path builder (AppKit's `NSBezierPath`), for the Core Animation code that makes its
/// shapes with it (`shapeLayer.path = UIBezierPath(ovalIn: r).cgPath`): a reference type, as
/// UIBezierPath is, over a `Path`. Its `clockwise` is UIKit's — visually clockwise on the y-down
/// screen — the opposite of CGPath's, and turned into CGPath's here. Its drawing members
/// (`fill()`, `stroke()`, `addClip()`) draw into the current UIKit context
/// (`UIGraphicsPushContext`) with the path's own line settings.
open class BezierPath: @unchecked Sendable {
  /// The path built so far, as LayerKit's value.
  public var value = Path()

  /// The path as Core Graphics' (an immutable copy of what is built so far); setting it
  /// replaces the path.
  public var cgPath: CGPath {
    get { CGPath(value) }
    set { value = newValue.value }
  }

  /// Stroke settings `stroke()` uses, with UIKit's defaults.
  public var lineWidth: CGFloat = 1
  public var lineCapStyle: StrokeStyle.LineCap = .butt
  public var lineJoinStyle: StrokeStyle.LineJoin = .miter
  public var miterLimit: CGFloat = 10
  /// How flat curves are drawn; kept (LayerKit flattens to a tenth of a pixel).
  public var flatness: CGFloat = 0.6
  /// Whether `fill()` and `addClip()` use the even-odd rule (UIKit's default: non-zero).
  public var usesEvenOddFillRule = false
  private var dash: (phase: CGFloat, lengths: [CGFloat])?

  public init() {}
  public init(rect: CGRect) { value = Path(rect: rect) }
  public init(ovalIn rect: CGRect) { value = Path(ellipseIn: rect) }
  public init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
    value = Path(roundedRect: rect, cornerRadius: cornerRadius)
  }

  /// UIBezierPath(roundedRect:byRoundingCorners:cornerRadii:): only the given corners rounded,
  /// each by the radii (clamped to half the rect's sides).
  public init(roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize) {
    var rounding: Path.RoundedCorners = []
    for (ui, path) in [
      (UIRectCorner.topLeft, Path.RoundedCorners.topLeft), (.topRight, .topRight), (.bottomRight, .bottomRight),
      (.bottomLeft, .bottomLeft),
    ] where corners.contains(ui) {
      rounding.insert(path)
    }
    value.addRoundedRect(in: rect, cornerWidth: cornerRadii.width, cornerHeight: cornerRadii.height, rounding: rounding)
  }

  /// NSBezierPath(roundedRect:xRadius:yRadius:).
  public init(roundedRect rect: CGRect, xRadius: CGFloat, yRadius: CGFloat) {
    value.addRoundedRect(in: rect, cornerWidth: xRadius, cornerHeight: yRadius)
  }

  public init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
    addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
  }

  public init(cgPath: CGPath) { value = cgPath.value }
  public init(_ path: Path) { value = path }

  public func move(to point: CGPoint) { value.move(to: point) }
  public func addLine(to point: CGPoint) { value.addLine(to: point) }
  public func addCurve(to point: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
    value.addCurve(to: point, control1: controlPoint1, control2: controlPoint2)
  }
  public func addQuadCurve(to point: CGPoint, controlPoint: CGPoint) {
    value.addQuadCurve(to: point, control: controlPoint)
  }

  /// An arc, `clockwise` as UIKit means it (CGPath's opposite).
  public func addArc(
    withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
  ) {
    value.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
  }

  public func close() { value.closeSubpath() }
  public func append(_ other: BezierPath) { value.addPath(other.value) }
  public func apply(_ transform: AffineTransform) { value = value.applying(transform) }
  public func removeAllPoints() { value = Path() }
  public var isEmpty: Bool { value.elements.isEmpty }
  /// Where the next element starts; (0, 0) when empty, as UIKit gives.
  public var currentPoint: CGPoint { value.currentPoint ?? .zero }
  /// The box of the curve (UIBezierPath.bounds: control points left out); `.zero` when empty.
  public var bounds: CGRect { value.elements.isEmpty ? .zero : value.boundingBoxOfPath }

  /// UIBezierPath.setLineDash(_:count:phase:): `count` lengths from `pattern`; nil or 0 clears.
  public func setLineDash(_ pattern: UnsafePointer<CGFloat>?, count: Int, phase: CGFloat) {
    guard let pattern, count > 0 else { return dash = nil }
    dash = (phase, Array(UnsafeBufferPointer(start: pattern, count: count)))
  }

  // MARK: AppKit's spellings (NSBezierPath)

  public func line(to point: CGPoint) { addLine(to: point) }
  public func curve(to point: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
    addCurve(to: point, controlPoint1: controlPoint1, controlPoint2: controlPoint2)
  }
  public func appendRect(_ rect: CGRect) { value.addPath(Path(rect: rect)) }
  public func appendOval(in rect: CGRect) { value.addPath(Path(ellipseIn: rect)) }
  public func appendRoundedRect(_ rect: CGRect, xRadius: CGFloat, yRadius: CGFloat) {
    value.addRoundedRect(in: rect, cornerWidth: xRadius, cornerHeight: yRadius)
  }
  /// NSBezierPath.appendArc(withCenter:radius:startAngle:endAngle:clockwise:): angles in degrees.
  public func appendArc(
    withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool = false
  ) {
    value.addArc(
      center: center, radius: radius, startAngle: startAngle * .pi / 180, endAngle: endAngle * .pi / 180,
      clockwise: clockwise)
  }

  // MARK: Drawing into the current UIKit context

  /// Fills the path with the context's fill colour (UIColor.setFill()).
  public func fill() {
    guard let ctx = UIGraphicsGetCurrentContext() else { return }
    ctx.addPath(value)
    ctx.fillPath(using: usesEvenOddFillRule ? .evenOdd : .nonZero)
  }

  /// UIBezierPath.fill(with:alpha:): the blend mode is not used.
  public func fill(with blendMode: Int, alpha: CGFloat) {
    guard let ctx = UIGraphicsGetCurrentContext() else { return }
    ctx.saveGState()
    ctx.setAlpha(alpha)
    fill()
    ctx.restoreGState()
  }

  /// Strokes the path with the context's stroke colour and this path's line settings.
  public func stroke() {
    guard let ctx = UIGraphicsGetCurrentContext() else { return }
    ctx.saveGState()
    ctx.setLineWidth(lineWidth)
    ctx.setLineCap(lineCapStyle)
    ctx.setLineJoin(lineJoinStyle)
    ctx.setMiterLimit(miterLimit)
    if let dash { ctx.setLineDash(phase: dash.phase, lengths: dash.lengths.map { Double($0) }) }
    ctx.addPath(value)
    ctx.strokePath()
    ctx.restoreGState()
  }

  /// Clips the current context to the path.
  public func addClip() {
    guard let ctx = UIGraphicsGetCurrentContext() else { return }
    ctx.addPath(value)
    ctx.clip(using: usesEvenOddFillRule ? .evenOdd : .nonZero)
  }
}

/// UIRectCorner: which corners `BezierPath(roundedRect:byRoundingCorners:cornerRadii:)` rounds.
public struct UIRectCorner: OptionSet, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }
  public static let topLeft = UIRectCorner(rawValue: 1)
  public static let topRight = UIRectCorner(rawValue: 2)
  public static let bottomLeft = UIRectCorner(rawValue: 4)
  public static let bottomRight = UIRectCorner(rawValue: 8)
  public static let allCorners: UIRectCorner = [.topLeft, .topRight, .bottomLeft, .bottomRight]
}

#if os(Linux)
  /// UIKit's name, where UIKit does not exist: Core Animation code builds paths with it.
  public typealias UIBezierPath = BezierPath
  /// AppKit's name.
  public typealias NSBezierPath = BezierPath
  /// Core Graphics' line cap and join (UIBezierPath's `lineCapStyle`, CGContext's `setLineCap`).
  public typealias CGLineCap = StrokeStyle.LineCap
  public typealias CGLineJoin = StrokeStyle.LineJoin
#endif
