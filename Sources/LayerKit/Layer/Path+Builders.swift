import Foundation

// CGMutablePath's builders, by their Core Graphics names. Arcs become cubic Béziers of at most a
// quarter turn each (control points at 4/3 · tan(θ / 4) of the radius along the tangents: a
// radial error below 2.7 × 10⁻⁴ of the radius), flattened like every curve when drawn.
//
// Angles are in radians from the positive x-axis, and `clockwise` means what it means to
// CGPath: the angle decreases. In LayerKit's y-down space — UIKit's — that arc runs
// counterclockwise on screen, exactly as CGPath.addArc does in a UIView; UIBezierPath's
// `clockwise` is the opposite (pass `!clockwise` when porting from it).
extension Path {
  /// Appends an arc of a circle (CGPath.addArc(center:radius:startAngle:endAngle:clockwise:)):
  /// a line from the current point to the arc's start (or a move, in an empty path or after a
  /// close), then the arc. Angles that differ by a whole turn or more make a full circle.
  public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
    let turn = 2 * Double.pi
    var delta = endAngle - startAngle
    if clockwise {
      delta = -((startAngle - endAngle).truncatingRemainder(dividingBy: turn))
      if delta > 0 { delta -= turn }
      if delta == 0 && startAngle != endAngle { delta = -turn }
    } else {
      delta = delta.truncatingRemainder(dividingBy: turn)
      if delta < 0 { delta += turn }
      if delta == 0 && startAngle != endAngle { delta = turn }
    }
    addRelativeArc(center: center, radius: radius, startAngle: startAngle, delta: delta)
  }

  /// Appends an arc that turns by `delta` from `startAngle` (CGPath.addRelativeArc): negative
  /// deltas decrease the angle.
  public mutating func addRelativeArc(center: Point, radius: Double, startAngle: Double, delta: Double) {
    let r = abs(radius)
    func point(_ a: Double) -> Point { Point(x: center.x + r * cos(a), y: center.y + r * sin(a)) }
    connect(to: point(startAngle))
    guard delta != 0, r > 0, delta.isFinite else { return }
    let segments = max(1, Int((abs(delta) / (Double.pi / 2)).rounded(.up)))
    let step = delta / Double(segments)
    let k = 4.0 / 3.0 * tan(step / 4) * r
    var a = startAngle
    for _ in 0..<segments {
      let b = a + step
      let (p0, p3) = (point(a), point(b))
      addCurve(
        to: p3, control1: Point(x: p0.x - k * sin(a), y: p0.y + k * cos(a)),
        control2: Point(x: p3.x + k * sin(b), y: p3.y - k * cos(b)))
      a = b
    }
  }

  /// Appends an arc of `radius` tangent to the line from the current point to `tangent1End` and
  /// to the line from `tangent1End` to `tangent2End` (CGPath.addArc(tangent1End:tangent2End:radius:)),
  /// after a line to its first tangent point; a line to `tangent1End` when the three points are
  /// in a line or the radius is 0.
  public mutating func addArc(tangent1End t1: Point, tangent2End t2: Point, radius: Double) {
    guard let p0 = currentPoint else {
      move(to: t1)
      return
    }
    let (ux, uy) = (p0.x - t1.x, p0.y - t1.y)
    let (vx, vy) = (t2.x - t1.x, t2.y - t1.y)
    let (lu, lv) = (hypot(ux, uy), hypot(vx, vy))
    let cross = ux * vy - uy * vx
    guard radius > 0, lu > 0, lv > 0, abs(cross) > 1e-12 * lu * lv else {
      addLine(to: t1)
      return
    }
    // The angle at t1 between the two lines, and the tangent points at distance r / tan(θ / 2).
    let cosTheta = max(-1, min(1, (ux * vx + uy * vy) / (lu * lv)))
    let theta = acos(cosTheta)
    let d = radius / tan(theta / 2)
    let start = Point(x: t1.x + ux / lu * d, y: t1.y + uy / lu * d)
    let end = Point(x: t1.x + vx / lv * d, y: t1.y + vy / lv * d)
    // The centre lies along the bisector, radius / sin(θ / 2) from t1.
    let (bx, by) = (ux / lu + vx / lv, uy / lu + vy / lv)
    let lb = hypot(bx, by)
    let h = radius / sin(theta / 2)
    let center = Point(x: t1.x + bx / lb * h, y: t1.y + by / lb * h)
    let a0 = atan2(start.y - center.y, start.x - center.x)
    var sweep = atan2(end.y - center.y, end.x - center.x) - a0
    if sweep > Double.pi { sweep -= 2 * Double.pi }
    if sweep < -Double.pi { sweep += 2 * Double.pi }
    addRelativeArc(center: center, radius: radius, startAngle: a0, delta: sweep)
  }

  /// Appends line segments through `points` (CGPath.addLines(between:)): a move to the first,
  /// lines to the rest.
  public mutating func addLines(between points: [Point]) {
    guard let first = points.first else { return }
    move(to: first)
    for p in points.dropFirst() { addLine(to: p) }
  }

  /// Appends a closed rectangle (CGPath.addRect).
  public mutating func addRect(_ rect: Rect) {
    elements += Path(rect: rect).elements
  }

  /// Appends a closed rectangle with elliptical corners of `cornerWidth` × `cornerHeight`
  /// (CGPath.addRoundedRect(in:cornerWidth:cornerHeight:)), each clamped to half the side.
  public mutating func addRoundedRect(in rect: Rect, cornerWidth: Double, cornerHeight: Double) {
    addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, rounding: .all)
  }

  /// The corners a rounded rectangle rounds, in the y-down bounds (UIBezierPath's
  /// `byRoundingCorners`); the others are square.
  struct RoundedCorners: OptionSet {
    let rawValue: Int
    static let topLeft = RoundedCorners(rawValue: 1)
    static let topRight = RoundedCorners(rawValue: 2)
    static let bottomRight = RoundedCorners(rawValue: 4)
    static let bottomLeft = RoundedCorners(rawValue: 8)
    static let all: RoundedCorners = [.topLeft, .topRight, .bottomRight, .bottomLeft]
  }

  /// As `addRoundedRect(in:cornerWidth:cornerHeight:)`, rounding only the corners in `rounding`:
  /// clockwise on screen from the top edge, each rounded corner a line to where its quarter
  /// ellipse starts and the quarter (four-point Béziers), each square one a line to the corner.
  mutating func addRoundedRect(in rect: Rect, cornerWidth: Double, cornerHeight: Double, rounding: RoundedCorners) {
    let rx = max(0, min(cornerWidth, rect.width / 2))
    let ry = max(0, min(cornerHeight, rect.height / 2))
    guard rx > 0, ry > 0, !rounding.isEmpty else {
      addRect(rect)
      return
    }
    let k = 0.552_284_749_831
    let (x0, y0, x1, y1) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
    // Each corner: the point its quarter starts at, where it ends, the two control points, and
    // the corner itself.
    func corner(_ which: RoundedCorners, from a: Point, to b: Point, _ c1: Point, _ c2: Point, square: Point) {
      if rounding.contains(which) {
        addLine(to: a)
        addCurve(to: b, control1: c1, control2: c2)
      } else if which != .topLeft {
        addLine(to: square)
      }
    }
    move(to: rounding.contains(.topLeft) ? Point(x: x0 + rx, y: y0) : Point(x: x0, y: y0))
    corner(
      .topRight, from: Point(x: x1 - rx, y: y0), to: Point(x: x1, y: y0 + ry), Point(x: x1 - rx + k * rx, y: y0),
      Point(x: x1, y: y0 + ry - k * ry), square: Point(x: x1, y: y0))
    corner(
      .bottomRight, from: Point(x: x1, y: y1 - ry), to: Point(x: x1 - rx, y: y1), Point(x: x1, y: y1 - ry + k * ry),
      Point(x: x1 - rx + k * rx, y: y1), square: Point(x: x1, y: y1))
    corner(
      .bottomLeft, from: Point(x: x0 + rx, y: y1), to: Point(x: x0, y: y1 - ry), Point(x: x0 + rx - k * rx, y: y1),
      Point(x: x0, y: y1 - ry + k * ry), square: Point(x: x0, y: y1))
    // The top left square corner is where the path started: the close reaches it.
    corner(
      .topLeft, from: Point(x: x0, y: y0 + ry), to: Point(x: x0 + rx, y: y0), Point(x: x0, y: y0 + ry - k * ry),
      Point(x: x0 + rx - k * rx, y: y0), square: Point(x: x0, y: y0))
    closeSubpath()
  }

  /// Appends a closed ellipse inscribed in `rect` (CGPath.addEllipse(in:)).
  public mutating func addEllipse(in rect: Rect) {
    elements += Path(ellipseIn: rect).elements
  }

  /// Appends another path's elements (CGPath.addPath).
  public mutating func addPath(_ path: Path) {
    elements += path.elements
  }

  /// The point the next element starts from (CGPath.currentPoint); nil for an empty path.
  public var currentPoint: Point? {
    var start: Point?
    var current: Point?
    for element in elements {
      switch element {
      case .move(let p):
        start = p
        current = p
      case .line(let p), .quadCurve(let p, _), .curve(let p, _, _): current = p
      case .closeSubpath: current = start
      }
    }
    return current
  }

  /// A line to `p`, or a move where nothing is drawn yet (an empty path, or after a close).
  private mutating func connect(to p: Point) {
    if let last = elements.last, last != .closeSubpath {
      addLine(to: p)
    } else {
      move(to: p)
    }
  }
}
