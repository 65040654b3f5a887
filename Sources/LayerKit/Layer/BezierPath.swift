import Foundation

/// UIKit's path builder, for the Core Animation code that makes its shapes with it
/// (`shapeLayer.path = UIBezierPath(ovalIn: r).cgPath`): a reference type, as UIBezierPath is,
/// over a `Path`. Its `clockwise` is UIKit's — visually clockwise on the y-down screen — the
/// opposite of CGPath's, and turned into CGPath's here.
public final class BezierPath {
  /// The path built so far (UIBezierPath's `cgPath`).
  public private(set) var cgPath = Path()

  public init() {}

  public init(rect: Rect) { cgPath = Path(rect: rect) }

  public init(ovalIn rect: Rect) { cgPath = Path(ellipseIn: rect) }

  public init(roundedRect rect: Rect, cornerRadius: Double) {
    cgPath = Path(roundedRect: rect, cornerRadius: cornerRadius)
  }

  public init(arcCenter center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
    addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
  }

  public init(cgPath: Path) { self.cgPath = cgPath }

  public func move(to point: Point) { cgPath.move(to: point) }
  public func addLine(to point: Point) { cgPath.addLine(to: point) }
  public func addCurve(to point: Point, controlPoint1: Point, controlPoint2: Point) {
    cgPath.addCurve(to: point, control1: controlPoint1, control2: controlPoint2)
  }
  public func addQuadCurve(to point: Point, controlPoint: Point) {
    cgPath.addQuadCurve(to: point, control: controlPoint)
  }

  /// An arc, `clockwise` as UIKit means it (CGPath's opposite).
  public func addArc(withCenter center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
    cgPath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
  }

  public func close() { cgPath.closeSubpath() }
  public func append(_ other: BezierPath) { cgPath.addPath(other.cgPath) }
  public func apply(_ transform: AffineTransform) { cgPath = cgPath.applying(transform) }
  public func removeAllPoints() { cgPath = Path() }
  public var isEmpty: Bool { cgPath.elements.isEmpty }
}

#if os(Linux)
  /// UIKit's name, where UIKit does not exist: Core Animation code builds paths with it.
  public typealias UIBezierPath = BezierPath
#endif
