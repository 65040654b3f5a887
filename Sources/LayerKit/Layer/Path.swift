import Foundation

/// A shape made of subpaths of lines and quadratic and cubic Bézier curves (CGPath without the
/// prefix), in a layer's coordinate space. Filled with a `FillRule`; open subpaths are closed
/// for filling, as Core Graphics closes them.
public struct Path: Hashable, Sendable {
  public enum Element: Hashable, Sendable {
    case move(to: Point)
    case line(to: Point)
    case quadCurve(to: Point, control: Point)
    case curve(to: Point, control1: Point, control2: Point)
    case closeSubpath
  }

  public internal(set) var elements: [Element] = []

  public init() {}

  public init(elements: [Element]) {
    self.elements = elements
  }

  public mutating func move(to p: Point) { elements.append(.move(to: p)) }
  public mutating func addLine(to p: Point) { elements.append(.line(to: p)) }
  public mutating func addQuadCurve(to p: Point, control: Point) {
    elements.append(.quadCurve(to: p, control: control))
  }
  public mutating func addCurve(to p: Point, control1: Point, control2: Point) {
    elements.append(.curve(to: p, control1: control1, control2: control2))
  }
  public mutating func closeSubpath() { elements.append(.closeSubpath) }

  /// A closed rectangle, clockwise on screen (y down).
  public init(rect r: Rect) {
    self.init()
    move(to: Point(x: r.minX, y: r.minY))
    addLine(to: Point(x: r.maxX, y: r.minY))
    addLine(to: Point(x: r.maxX, y: r.maxY))
    addLine(to: Point(x: r.minX, y: r.maxY))
    closeSubpath()
  }

  /// A rectangle with circular corners of `cornerRadius` (clamped to half the shorter side).
  public init(roundedRect r: Rect, cornerRadius: Double) {
    let radius = max(0, min(cornerRadius, min(r.width, r.height) / 2))
    guard radius > 0 else {
      self.init(rect: r)
      return
    }
    // A quarter circle as one cubic: control points at k·radius along the tangents.
    let k = 0.552_284_749_831 * radius
    self.init()
    let (x0, y0, x1, y1) = (r.minX, r.minY, r.maxX, r.maxY)
    move(to: Point(x: x0 + radius, y: y0))
    addLine(to: Point(x: x1 - radius, y: y0))
    addCurve(
      to: Point(x: x1, y: y0 + radius), control1: Point(x: x1 - radius + k, y: y0),
      control2: Point(x: x1, y: y0 + radius - k))
    addLine(to: Point(x: x1, y: y1 - radius))
    addCurve(
      to: Point(x: x1 - radius, y: y1), control1: Point(x: x1, y: y1 - radius + k),
      control2: Point(x: x1 - radius + k, y: y1))
    addLine(to: Point(x: x0 + radius, y: y1))
    addCurve(
      to: Point(x: x0, y: y1 - radius), control1: Point(x: x0 + radius - k, y: y1),
      control2: Point(x: x0, y: y1 - radius + k))
    addLine(to: Point(x: x0, y: y0 + radius))
    addCurve(
      to: Point(x: x0 + radius, y: y0), control1: Point(x: x0, y: y0 + radius - k),
      control2: Point(x: x0 + radius - k, y: y0))
    closeSubpath()
  }

  /// The ellipse inscribed in `r`, as four cubic arcs.
  public init(ellipseIn r: Rect) {
    let (cx, cy) = (r.midX, r.midY)
    let (rx, ry) = (r.width / 2, r.height / 2)
    let kx = 0.552_284_749_831 * rx
    let ky = 0.552_284_749_831 * ry
    self.init()
    move(to: Point(x: cx + rx, y: cy))
    addCurve(
      to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + ky), control2: Point(x: cx + kx, y: cy + ry))
    addCurve(
      to: Point(x: cx - rx, y: cy), control1: Point(x: cx - kx, y: cy + ry), control2: Point(x: cx - rx, y: cy + ky))
    addCurve(
      to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - ky), control2: Point(x: cx - kx, y: cy - ry))
    addCurve(
      to: Point(x: cx + rx, y: cy), control1: Point(x: cx + kx, y: cy - ry), control2: Point(x: cx + rx, y: cy - ky))
    closeSubpath()
  }

  /// Every coordinate is finite.
  public var isFinite: Bool {
    elements.allSatisfy { e in
      switch e {
      case .move(let p), .line(let p): p.isFinite
      case .quadCurve(let p, let c): p.isFinite && c.isFinite
      case .curve(let p, let c1, let c2): p.isFinite && c1.isFinite && c2.isFinite
      case .closeSubpath: true
      }
    }
  }

  /// The largest absolute coordinate of any point or control point (0 for an empty path).
  public var largestCoordinate: Double {
    let b = boundingBox
    guard !elements.isEmpty else { return 0 }
    return [b.minX, b.minY, b.maxX, b.maxY].map(abs).max() ?? 0
  }

  /// Whether a coordinate lies beyond `limit`.
  func exceeds(_ limit: Double) -> Bool { largestCoordinate > limit }

  /// The smallest rectangle holding every point and control point.
  public var boundingBox: Rect {
    var lo = Point(x: Double.infinity, y: Double.infinity)
    var hi = Point(x: -Double.infinity, y: -Double.infinity)
    func add(_ p: Point) {
      lo = Point(x: min(lo.x, p.x), y: min(lo.y, p.y))
      hi = Point(x: max(hi.x, p.x), y: max(hi.y, p.y))
    }
    for e in elements {
      switch e {
      case .move(let p), .line(let p): add(p)
      case .quadCurve(let p, let c): add(p); add(c)
      case .curve(let p, let c1, let c2): add(p); add(c1); add(c2)
      case .closeSubpath: break
      }
    }
    guard lo.x <= hi.x else { return .zero }
    return Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
  }

  /// The closed polygons that approximate the path: curves are split into `segments(for:)`
  /// straight pieces at uniform parameter steps, so that no piece strays more than `tolerance`
  /// from the curve. Deterministic: the backends rasterize exactly these polygons.
  public func flattened(tolerance: Double = 0.1) -> [[Point]] {
    polylines(tolerance: tolerance).map(\.points)
  }

  /// The subpaths flattened as `flattened(tolerance:)` does, each with whether it was closed
  /// (`closeSubpath`): what a stroke follows.
  public func polylines(tolerance: Double = 0.1) -> [Polyline] {
    var contours: [Polyline] = []
    var current: [Point] = []
    var start = Point.zero
    func finish(closed: Bool = false) {
      if current.count >= 2 { contours.append(Polyline(points: current, closed: closed)) }
      current = []
    }
    for e in elements {
      let last = current.last ?? start
      switch e {
      case .move(let p):
        finish()
        start = p
        current = [p]
      case .line(let p):
        if current.isEmpty { current = [last] }
        current.append(p)
      case .quadCurve(let p, let c):
        if current.isEmpty { current = [last] }
        let n = Path.steps(deviation: Path.length(last, c, p), tolerance: tolerance)
        for i in 1...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          current.append(
            Point(
              x: u * u * last.x + 2 * u * t * c.x + t * t * p.x,
              y: u * u * last.y + 2 * u * t * c.y + t * t * p.y))
        }
      case .curve(let p, let c1, let c2):
        if current.isEmpty { current = [last] }
        let n = Path.steps(deviation: Path.length(last, c1, c2, p), tolerance: tolerance)
        for i in 1...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          let a = u * u * u
          let b = 3 * u * u * t
          let cc = 3 * u * t * t
          let d = t * t * t
          current.append(
            Point(
              x: a * last.x + b * c1.x + cc * c2.x + d * p.x,
              y: a * last.y + b * c1.y + cc * c2.y + d * p.y))
        }
      case .closeSubpath:
        finish(closed: true)
      }
    }
    finish()
    return contours
  }

  /// Control-polygon length: bounds the curve's length and bending.
  static func length(_ pts: Point...) -> Double {
    zip(pts, pts.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
  }

  /// Steps so that a chord of a curve whose control polygon is `deviation` long strays at most
  /// about `tolerance` (chord error ≈ L² / (8 n² r), bounded here by sqrt(L / tolerance) / 2).
  static func steps(deviation: Double, tolerance: Double) -> Int {
    guard deviation.isFinite, tolerance > 0 else { return 1 }
    return max(1, min(256, Int((deviation / tolerance).squareRoot() / 2) + 1))
  }
}

/// One flattened subpath: its points in order, and whether a segment joins the last to the first.
public struct Polyline: Hashable, Sendable {
  public var points: [Point]
  public var closed: Bool

  public init(points: [Point], closed: Bool) {
    self.points = points
    self.closed = closed
  }
}

/// Which points a filled path covers.
public enum FillRule: String, CaseIterable, Hashable, Sendable {
  case nonZero, evenOdd
}
