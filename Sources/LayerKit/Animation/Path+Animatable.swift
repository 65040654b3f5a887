import Foundation

/// A path animates as Core Animation animates `shadowPath` and `CAShapeLayer.path`: point by point
/// between two paths of the same elements (the same kinds in the same order); between paths of
/// different elements the result is the first path before the midpoint and the second from it
/// (Core Animation leaves that case undefined). The empty path is `zero`.
extension Path: Animatable {
  /// A `CGPath` (what `shape.path` holds, what `UIBezierPath.cgPath` gives) stands for its value.
  public static func converted(from value: any AnimationValue) -> Path? {
    (value as? Path) ?? (value as? CGPath)?.value
  }

  public static func interpolate(_ from: Path, _ to: Path, _ t: Double) -> Path {
    from.zipPoints(to) { Point.interpolate($0, $1, t) } ?? (t < 0.5 ? from : to)
  }

  /// Point by point; a path added to the empty path (or the empty path added) is itself.
  public static func add(_ a: Path, _ b: Path) -> Path {
    if b.elements.isEmpty { return a }
    if a.elements.isEmpty { return b }
    return a.zipPoints(b) { Point.add($0, $1) } ?? b
  }

  public static func scale(_ a: Path, by k: Double) -> Path {
    a.mapPoints { Point.scale($0, by: k) }
  }

  public static var zero: Path { Path() }

  /// The Euclidean distance over every point of the same elements; between paths of different
  /// elements, the distance between their bounding boxes' corners.
  public func distance(to other: Path) -> Double {
    guard let pairs = zipPoints(other, { Point(x: $1.x - $0.x, y: $1.y - $0.y) }) else {
      let (a, b) = (boundingBox, other.boundingBox)
      return hypot(a.minX - b.minX, a.minY - b.minY) + hypot(a.maxX - b.maxX, a.maxY - b.maxY)
    }
    var sum = 0.0
    pairs.mapPointsVisiting { sum += $0.x * $0.x + $0.y * $0.y }
    return sum.squareRoot()
  }

  /// The path with every point mapped.
  func mapPoints(_ f: (Point) -> Point) -> Path {
    Path(
      elements: elements.map {
        switch $0 {
        case .move(let p): .move(to: f(p))
        case .line(let p): .line(to: f(p))
        case .quadCurve(let p, let c): .quadCurve(to: f(p), control: f(c))
        case .curve(let p, let c1, let c2): .curve(to: f(p), control1: f(c1), control2: f(c2))
        case .closeSubpath: .closeSubpath
        }
      })
  }

  /// Every point, in order.
  func mapPointsVisiting(_ visit: (Point) -> Void) {
    _ = mapPoints {
      visit($0)
      return $0
    }
  }

  /// The two paths' points combined pairwise, nil when their elements differ in kind or count.
  func zipPoints(_ other: Path, _ f: (Point, Point) -> Point) -> Path? {
    guard elements.count == other.elements.count else { return nil }
    var out: [Element] = []
    out.reserveCapacity(elements.count)
    for (a, b) in zip(elements, other.elements) {
      switch (a, b) {
      case (.move(let p), .move(let q)): out.append(.move(to: f(p, q)))
      case (.line(let p), .line(let q)): out.append(.line(to: f(p, q)))
      case (.quadCurve(let p, let c), .quadCurve(let q, let d)): out.append(.quadCurve(to: f(p, q), control: f(c, d)))
      case (.curve(let p, let c1, let c2), .curve(let q, let d1, let d2)):
        out.append(.curve(to: f(p, q), control1: f(c1, d1), control2: f(c2, d2)))
      case (.closeSubpath, .closeSubpath): out.append(.closeSubpath)
      default: return nil
      }
    }
    return Path(elements: out)
  }
}
