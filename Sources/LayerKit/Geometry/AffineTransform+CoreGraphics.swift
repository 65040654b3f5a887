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

  /// CGAffineTransform(a:b:c:d:tx:ty:).
  public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
    self.init(m11: a, m12: b, m21: c, m22: d, tX: tx, tY: ty)
  }

  /// CGAffineTransform's six entries by their Core Graphics names.
  public var a: Double {
    get { m11 }
    set { m11 = newValue }
  }
  public var b: Double {
    get { m12 }
    set { m12 = newValue }
  }
  public var c: Double {
    get { m21 }
    set { m21 = newValue }
  }
  public var d: Double {
    get { m22 }
    set { m22 = newValue }
  }
  public var tx: Double {
    get { tX }
    set { tX = newValue }
  }
  public var ty: Double {
    get { tY }
    set { tY = newValue }
  }

  /// CGAffineTransform.isIdentity.
  public var isIdentity: Bool { self == .identity }

  /// CGAffineTransform.rotated(by:): a rotation by `angle`, then this transform.
  public func rotated(by angle: Double) -> AffineTransform {
    AffineTransform(rotationAngle: angle).concatenating(self)
  }

  /// CGAffineTransform.scaledBy(x:y:): a scale, then this transform.
  public func scaledBy(x sx: Double, y sy: Double) -> AffineTransform {
    AffineTransform(scaleX: sx, y: sy).concatenating(self)
  }

  /// CGAffineTransform.translatedBy(x:y:): a translation, then this transform.
  public func translatedBy(x tx: Double, y ty: Double) -> AffineTransform {
    AffineTransform(translationX: tx, y: ty).concatenating(self)
  }
}

#if os(Linux)
  /// Core Graphics' affine transform, as `CGAffineTransform(rotationAngle: a)` is written:
  /// Foundation's `AffineTransform` with Core Graphics' initializers, entries and composition.
  /// (Foundation's own `inverted()` stays, returning nil for a singular transform.)
  public typealias CGAffineTransform = AffineTransform
#endif

extension CGPoint {
  /// CGPoint.applying(_:): where `t` takes the point.
  public func applying(_ t: AffineTransform) -> CGPoint { t.apply(self) }
}

extension CGSize {
  /// CGSize.applying(_:): the size through `t`'s linear part (no translation).
  public func applying(_ t: AffineTransform) -> CGSize {
    CGSize(width: t.m11 * width + t.m21 * height, height: t.m12 * width + t.m22 * height)
  }
}

extension CGRect {
  /// CGRect.applying(_:): the smallest rectangle holding the four corners mapped by `t`.
  public func applying(_ t: AffineTransform) -> CGRect {
    let corners = [
      Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: minX, y: maxY), Point(x: maxX, y: maxY),
    ].map { t.apply($0) }
    let xs = corners.map(\.x)
    let ys = corners.map(\.y)
    let x0 = xs.min()!
    let y0 = ys.min()!
    return CGRect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
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

extension Path {
  /// CGPath.isEmpty: whether the path has no elements.
  public var isEmpty: Bool { elements.isEmpty }

  /// CGPath.boundingBoxOfPath: the box of the path itself, curves to within 0.01 of a point,
  /// control points left out (`boundingBox` holds them, as CGPath's does); `CGRect.null` for an
  /// empty path.
  public var boundingBoxOfPath: Rect {
    let points = flattened(tolerance: 0.01).joined()
    guard let x0 = points.map(\.x).min(), let y0 = points.map(\.y).min(), let x1 = points.map(\.x).max(),
      let y1 = points.map(\.y).max()
    else { return .null }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}

/// kCAFillRuleNonZero and kCAFillRuleEvenOdd, by their ported names.
public let kFillRuleNonZero = FillRule.nonZero
public let kFillRuleEvenOdd = FillRule.evenOdd

extension Color {
  /// UIColor.cgColor / NSColor.cgColor, so `UIColor.red.cgColor` ports as `Color.red.cgColor`:
  /// the colour itself.
  public var cgColor: Color { self }
}
