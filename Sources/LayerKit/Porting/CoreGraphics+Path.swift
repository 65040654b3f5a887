import Foundation

// Core Graphics' paths as Core Animation code writes them: reference types, `let path =
// CGMutablePath()` then `path.move(to:)` and `path.addLine(to:)`, `shape.path = path`. Each holds
// a LayerKit `Path` (a value, `path.value`); a layer that takes one keeps an immutable copy, as
// Core Animation copies, so building on the same CGMutablePath afterwards changes nothing drawn.

/// Core Graphics' immutable path: a reference to a `Path` value. `CGPath(rect:transform:)`,
/// `CGPath(ellipseIn:transform:)`, `CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`, or
/// `UIBezierPath.cgPath`; `Path.cgPath` makes one of a LayerKit path.
open class CGPath: Hashable, CustomStringConvertible, AnimationValue, @unchecked Sendable {
  /// The path, as LayerKit's value.
  public internal(set) var value: Path

  /// A path holding `value`.
  public init(_ value: Path) { self.value = value }

  public convenience init() { self.init(Path()) }

  /// CGPath(rect:transform:).
  public convenience init(rect: CGRect, transform: UnsafePointer<AffineTransform>?) {
    self.init(Path(rect: rect, transform: transform))
  }

  /// CGPath(ellipseIn:transform:).
  public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<AffineTransform>?) {
    self.init(Path(ellipseIn: rect, transform: transform))
  }

  /// CGPath(roundedRect:cornerWidth:cornerHeight:transform:).
  public convenience init(
    roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: UnsafePointer<AffineTransform>?
  ) {
    self.init(Path(roundedRect: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform))
  }

  /// Whether the path has no elements.
  public var isEmpty: Bool { value.elements.isEmpty }
  /// The box of every point and control point (CGPath.boundingBox); `CGRect.null` when empty.
  public var boundingBox: CGRect { value.elements.isEmpty ? .null : value.boundingBox }
  /// The box of the curve itself, control points left out.
  public var boundingBoxOfPath: CGRect { value.boundingBoxOfPath }
  /// Where the next element starts; (0, 0) for an empty path, as Core Graphics gives.
  public var currentPoint: CGPoint { value.currentPoint ?? .zero }

  /// CGPath.copy(): an immutable copy (optional, as Core Graphics'; never nil).
  public func copy() -> CGPath? { CGPath(value) }
  /// CGPath.copy(using:): a copy with every point mapped by the transform.
  public func copy(using transform: UnsafePointer<AffineTransform>?) -> CGPath? {
    CGPath(transform.map { value.applying($0.pointee) } ?? value)
  }
  /// CGPath.mutableCopy(): a mutable copy to build on.
  public func mutableCopy() -> CGMutablePath? { CGMutablePath(value) }
  /// CGPath.mutableCopy(using:).
  public func mutableCopy(using transform: UnsafePointer<AffineTransform>?) -> CGMutablePath? {
    CGMutablePath(transform.map { value.applying($0.pointee) } ?? value)
  }

  /// Equal when their elements are (CGPath's `==`).
  public static func == (a: CGPath, b: CGPath) -> Bool { a.value == b.value }
  public func hash(into hasher: inout Hasher) { hasher.combine(value) }
  public var description: String { "CGPath \(value.elements.count) elements" }

  /// The path a layer keeps of `path`: `path` itself when it is an immutable CGPath (nothing can
  /// change it), else an immutable copy of what it holds now.
  static func kept(_ path: CGPath?) -> CGPath? {
    guard let path else { return nil }
    return type(of: path) == CGPath.self ? path : CGPath(path.value)
  }
}

/// Core Graphics' mutable path: `let path = CGMutablePath()`, then Core Graphics' builders, each
/// with its optional `transform:` applied to what it adds.
open class CGMutablePath: CGPath, @unchecked Sendable {
  public func move(to point: CGPoint, transform: AffineTransform = .identity) {
    value.move(to: transform.apply(point))
  }
  public func addLine(to point: CGPoint, transform: AffineTransform = .identity) {
    value.addLine(to: transform.apply(point))
  }
  public func addLines(between points: [CGPoint], transform: AffineTransform = .identity) {
    value.addLines(between: points.map(transform.apply))
  }
  public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: AffineTransform = .identity) {
    value.addQuadCurve(to: transform.apply(end), control: transform.apply(control))
  }
  public func addCurve(
    to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: AffineTransform = .identity
  ) {
    value.addCurve(to: transform.apply(end), control1: transform.apply(control1), control2: transform.apply(control2))
  }
  public func addRect(_ rect: CGRect, transform: AffineTransform = .identity) {
    value.addPath(Path(rect: rect), transform: transform)
  }
  public func addRects(_ rects: [CGRect], transform: AffineTransform = .identity) {
    for r in rects { addRect(r, transform: transform) }
  }
  public func addEllipse(in rect: CGRect, transform: AffineTransform = .identity) {
    value.addPath(Path(ellipseIn: rect), transform: transform)
  }
  public func addRoundedRect(
    in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: AffineTransform = .identity
  ) {
    var p = Path()
    p.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight)
    value.addPath(p, transform: transform)
  }
  /// CGMutablePath.addArc(center:radius:startAngle:endAngle:clockwise:transform:), `clockwise` as
  /// Core Graphics means it (the angle decreases).
  public func addArc(
    center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
    transform: AffineTransform = .identity
  ) {
    build(transform) {
      $0.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }
  }
  public func addArc(
    tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat, transform: AffineTransform = .identity
  ) {
    build(transform) { $0.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius) }
  }
  public func addRelativeArc(
    center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat, transform: AffineTransform = .identity
  ) {
    build(transform) { $0.addRelativeArc(center: center, radius: radius, startAngle: startAngle, delta: delta) }
  }
  public func addPath(_ path: CGPath, transform: AffineTransform = .identity) {
    value.addPath(path.value, transform: transform)
  }
  public func closeSubpath() { value.closeSubpath() }

  /// Runs a builder that connects to the current point (arcs) in the untransformed space, then
  /// maps only what it added.
  private func build(_ transform: AffineTransform, _ body: (inout Path) -> Void) {
    guard transform != .identity else { return body(&value) }
    let inverse = transform.inverted() ?? .identity
    var local = value.applying(inverse)
    let before = local.elements.count
    body(&local)
    value.elements += Path(elements: Array(local.elements[before...])).applying(transform).elements
  }
}

extension Path {
  /// The path as a Core Graphics path (SwiftUI's `Path.cgPath`), for a property that takes one.
  public var cgPath: CGPath { CGPath(self) }

  /// The value a Core Graphics path holds (SwiftUI's `Path(_ cgPath:)`).
  public init(_ cgPath: CGPath) { self = cgPath.value }
}
