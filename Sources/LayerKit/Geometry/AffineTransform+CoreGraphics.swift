import Foundation

// CGAffineTransform's initializers and composition by their Core Graphics names, on Foundation's
// AffineTransform (the same six numbers: a = m11, b = m12, c = m21, d = m22, tx = tX, ty = tY;
// a point maps to (a·x + c·y + tx, b·x + d·y + ty)), so `CGAffineTransform(rotationAngle: a)`
// ports as `AffineTransform(rotationAngle: a)`. Paths take them as CGPath does.
extension AffineTransform {
  /// CGAffineTransform(rotationAngle:): `angle` radians (clockwise on screen in y-down space).
  public init(rotationAngle angle: Double) {
    self.init(m11: cos(angle), m12: sin(angle), m21: -sin(angle), m22: cos(angle), tX: 0, tY: 0)
  }

  /// CGAffineTransform(translationX:y:).
  public init(translationX tx: Double, y ty: Double) {
    self.init(m11: 1, m12: 0, m21: 0, m22: 1, tX: tx, tY: ty)
  }

  /// CGAffineTransform(scaleX:y:).
  public init(scaleX sx: Double, y sy: Double) {
    self.init(m11: sx, m12: 0, m21: 0, m22: sy, tX: 0, tY: 0)
  }

  /// CGAffineTransform.concatenating(_:): this transform, then `t`.
  public func concatenating(_ t: AffineTransform) -> AffineTransform {
    AffineTransform(
      m11: m11 * t.m11 + m12 * t.m21, m12: m11 * t.m12 + m12 * t.m22,
      m21: m21 * t.m11 + m22 * t.m21, m22: m21 * t.m12 + m22 * t.m22,
      tX: tX * t.m11 + tY * t.m21 + t.tX, tY: tX * t.m12 + tY * t.m22 + t.tY)
  }

  /// Where the transform takes `p` (CGPoint.applying(_:)).
  public func apply(_ p: Point) -> Point {
    Point(x: m11 * p.x + m21 * p.y + tX, y: m12 * p.x + m22 * p.y + tY)
  }
}

extension Path {
  /// Every point and control point mapped by `t` (CGPath's `transform:` arguments).
  public func applying(_ t: AffineTransform) -> Path {
    Path(
      elements: elements.map { e in
        switch e {
        case .move(let p): .move(to: t.apply(p))
        case .line(let p): .line(to: t.apply(p))
        case .quadCurve(let p, let c): .quadCurve(to: t.apply(p), control: t.apply(c))
        case .curve(let p, let c1, let c2): .curve(to: t.apply(p), control1: t.apply(c1), control2: t.apply(c2))
        case .closeSubpath: .closeSubpath
        }
      })
  }

  /// CGPath(ellipseIn:transform:): the ellipse in `rect`, mapped by `transform` when given.
  public init(ellipseIn rect: Rect, transform: UnsafePointer<AffineTransform>?) {
    let path = Path(ellipseIn: rect)
    self = transform.map { path.applying($0.pointee) } ?? path
  }

  /// CGPath(rect:transform:).
  public init(rect: Rect, transform: UnsafePointer<AffineTransform>?) {
    let path = Path(rect: rect)
    self = transform.map { path.applying($0.pointee) } ?? path
  }

  /// CGPath(roundedRect:cornerWidth:cornerHeight:transform:).
  public init(
    roundedRect rect: Rect, cornerWidth: Double, cornerHeight: Double, transform: UnsafePointer<AffineTransform>?
  ) {
    var path = Path()
    path.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight)
    self = transform.map { path.applying($0.pointee) } ?? path
  }

  /// CGMutablePath.addPath(_:transform:).
  public mutating func addPath(_ path: Path, transform: AffineTransform) {
    elements += path.applying(transform).elements
  }
}

#if os(Linux)
  /// Core Graphics' immutable path, as `CGPath(rect: r, transform: nil)` is written: LayerKit's
  /// `Path` (a value; build one with `var`, where Core Graphics code has a CGMutablePath).
  public typealias CGPath = Path
#endif

/// kCAFillRuleNonZero and kCAFillRuleEvenOdd, by their ported names.
public let kFillRuleNonZero = FillRule.nonZero
public let kFillRuleEvenOdd = FillRule.evenOdd

extension Color {
  /// UIColor.cgColor / NSColor.cgColor, so `UIColor.red.cgColor` ports as `Color.red.cgColor`:
  /// the colour itself.
  public var cgColor: Color { self }
}
