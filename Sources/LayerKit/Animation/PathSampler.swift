// PathSampler: positions and tangent directions along a keyframe animation's path.

import Foundation

/// Positions and tangent directions along a keyframe animation's `path`.
///
/// Two ways through a path, as Core Animation offers them:
/// - by arc length (`point(atArcFraction:)`), for the paced modes: the layer moves at constant
///   speed along the whole path;
/// - element by element (`point(segment:fraction:)`), for linear and cubic modes: each line,
///   quadratic or cubic element is one keyframe segment, so `KeyframeTiming(count: keyframeCount,
///   …)` and the segment timing functions decide the time spent in each, and the fraction is the
///   curve's own parameter; discrete mode shows the element end points in turn.
///
/// Move elements start a new subpath without a segment of their own (the layer jumps at the
/// segment boundary); a close element is a line back to the subpath's start, left out when it has
/// zero length (as when the last curve already ends there). Arc lengths use adaptive Gauss–Legendre
/// quadrature of the curve's speed to a relative tolerance of about 1e-10, and arc positions are
/// inverted with Newton steps, so points lie exactly on the curve.
public struct PathSampler: Sendable {
  enum Piece: Sendable {
    case line(Point, Point)
    case quad(Point, Point, Point)
    case cubic(Point, Point, Point, Point)
  }

  struct Segment: Sendable {
    var piece: Piece
    var length: Double
    /// (parameter, arc length from the segment's start) at the ends of the quadrature pieces,
    /// starting with (0, 0) and ending with (1, length).
    var table: [(t: Double, s: Double)]
  }

  let segments: [Segment]
  /// Arc length at the start of each segment, then the total.
  let starts: [Double]

  /// The keyframe positions: the start of each segment, then the end of the last one. A path with
  /// only a move has one keyframe.
  public let keyframePoints: [Point]

  /// The total arc length (jumps between subpaths count as 0).
  public var length: Double { starts.last ?? 0 }

  /// The number of keyframe segments (line, curve and non-degenerate close elements).
  public var segmentCount: Int { segments.count }

  /// The number of keyframes, `segmentCount + 1` (1 for a path with only a move).
  public var keyframeCount: Int { keyframePoints.count }

  /// The arc length of each segment, for `KeyframeTiming`'s paced modes.
  public var segmentLengths: [Double] { segments.map(\.length) }

  /// Prepares a path for sampling.
  ///
  /// - Parameter path: the animation's path.
  /// - Throws: `KeyframeError.emptyPath` for a path with no points, `.nonFinite(field: "path",
  ///   index:)` naming the first element with a non-finite coordinate.
  public init(path: Path) throws(KeyframeError) {
    var pieces: [Piece] = []
    var current: Point? = nil
    var subpathStart = Point.zero
    var firstPoint: Point? = nil
    for (index, element) in path.elements.enumerated() {
      let here = current ?? subpathStart
      switch element {
      case .move(let p):
        guard p.isFinite else { throw .nonFinite(field: "path", index: index) }
        current = p
        subpathStart = p
        if firstPoint == nil { firstPoint = p }
      case .line(let p):
        guard p.isFinite else { throw .nonFinite(field: "path", index: index) }
        pieces.append(.line(here, p))
        current = p
      case .quadCurve(let p, let c):
        guard p.isFinite, c.isFinite else { throw .nonFinite(field: "path", index: index) }
        pieces.append(.quad(here, c, p))
        current = p
      case .curve(let p, let c1, let c2):
        guard p.isFinite, c1.isFinite, c2.isFinite else { throw .nonFinite(field: "path", index: index) }
        pieces.append(.cubic(here, c1, c2, p))
        current = p
      case .closeSubpath:
        if let c = current, c != subpathStart { pieces.append(.line(c, subpathStart)) }
        current = subpathStart
      }
      if firstPoint == nil, current != nil { firstPoint = current }
    }
    guard let firstPoint else { throw .emptyPath }
    segments = pieces.map(Self.measure)
    var starts = [0.0]
    for s in segments { starts.append(starts[starts.count - 1] + s.length) }
    self.starts = starts
    keyframePoints =
      segments.isEmpty
      ? [firstPoint]
      : segments.map { Self.evaluate($0.piece, 0) } + [Self.evaluate(segments[segments.count - 1].piece, 1)]
  }

  // MARK: By arc length (paced)

  /// The point at `fraction` of the path's arc length.
  ///
  /// - Parameter fraction: in [0, 1]; values outside are clamped and NaN reads as 0.
  public func point(atArcFraction fraction: Double) -> Point {
    let (i, t) = location(atArcFraction: fraction)
    guard i >= 0 else { return keyframePoints[0] }
    return Self.evaluate(segments[i].piece, t)
  }

  /// The direction of travel at `fraction` of the arc length, as an angle in radians from the
  /// +x axis towards +y in the layer's coordinates (y down, so positive turns clockwise on screen,
  /// the sense of a positive `transform.rotation.z`). This is the z rotation of rotationMode
  /// auto; `reversed` adds π, for autoReverse.
  ///
  /// - Parameters:
  ///   - fraction: in [0, 1]; values outside are clamped and NaN reads as 0.
  ///   - reversed: add π (rotationMode autoReverse).
  public func tangentAngle(atArcFraction fraction: Double, reversed: Bool = false) -> Double {
    let (i, t) = location(atArcFraction: fraction)
    return angle(segment: i, t: t) + (reversed ? Double.pi : 0)
  }

  // MARK: Element by element (linear)

  /// The point at `fraction` of the curve parameter of segment `segment` (0 ≤ segment <
  /// segmentCount; clamped), as `KeyframeTiming.segment(at:)` gives them in linear mode.
  public func point(segment: Int, fraction: Double) -> Point {
    guard !segments.isEmpty else { return keyframePoints[0] }
    let i = min(max(segment, 0), segments.count - 1)
    return Self.evaluate(segments[i].piece, Self.clampUnit(fraction))
  }

  /// The direction of travel in segment `segment` at parameter `fraction`, as in
  /// `tangentAngle(atArcFraction:reversed:)`.
  public func tangentAngle(segment: Int, fraction: Double, reversed: Bool = false) -> Double {
    guard !segments.isEmpty else { return reversed ? Double.pi : 0 }
    let i = min(max(segment, 0), segments.count - 1)
    return angle(segment: i, t: Self.clampUnit(fraction)) + (reversed ? Double.pi : 0)
  }

  // MARK: Internals

  private static func clampUnit(_ x: Double) -> Double { x.isNaN ? 0 : min(max(x, 0), 1) }

  /// The segment and curve parameter at an arc fraction; (−1, 0) for a path without segments.
  func location(atArcFraction fraction: Double) -> (Int, Double) {
    guard !segments.isEmpty else { return (-1, 0) }
    let target = Self.clampUnit(fraction) * length
    // The last segment starting at or before the target: at a boundary the later segment wins,
    // so a jump to a new subpath happens exactly there.
    var (lo, hi) = (0, segments.count)
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if starts[mid] <= target { lo = mid } else { hi = mid }
    }
    let seg = segments[lo]
    let local = min(max(target - starts[lo], 0), seg.length)
    return (lo, Self.parameter(in: seg, atLength: local))
  }

  /// The direction at (segment, t); degenerate spots borrow a nearby direction.
  func angle(segment i: Int, t: Double) -> Double {
    guard i >= 0 else { return 0 }
    if let d = Self.direction(segments[i].piece, t) { return atan2(d.y, d.x) }
    // A zero-length segment: the direction of the nearest segment that has one.
    for j in (i + 1)..<segments.count { if let d = Self.direction(segments[j].piece, 0) { return atan2(d.y, d.x) } }
    for j in stride(from: i - 1, through: 0, by: -1) {
      if let d = Self.direction(segments[j].piece, 1) { return atan2(d.y, d.x) }
    }
    return 0
  }

  static func evaluate(_ piece: Piece, _ t: Double) -> Point {
    let u = 1 - t
    switch piece {
    case .line(let a, let b):
      return Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    case .quad(let a, let c, let b):
      return Point(x: u * u * a.x + 2 * u * t * c.x + t * t * b.x, y: u * u * a.y + 2 * u * t * c.y + t * t * b.y)
    case .cubic(let a, let c1, let c2, let b):
      let (w0, w1, w2, w3) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
      return Point(
        x: w0 * a.x + w1 * c1.x + w2 * c2.x + w3 * b.x, y: w0 * a.y + w1 * c1.y + w2 * c2.y + w3 * b.y)
    }
  }

  /// dB/dt.
  static func derivative(_ piece: Piece, _ t: Double) -> Point {
    let u = 1 - t
    switch piece {
    case .line(let a, let b):
      return Point(x: b.x - a.x, y: b.y - a.y)
    case .quad(let a, let c, let b):
      return Point(x: 2 * (u * (c.x - a.x) + t * (b.x - c.x)), y: 2 * (u * (c.y - a.y) + t * (b.y - c.y)))
    case .cubic(let a, let c1, let c2, let b):
      let (w0, w1, w2) = (3 * u * u, 6 * u * t, 3 * t * t)
      return Point(
        x: w0 * (c1.x - a.x) + w1 * (c2.x - c1.x) + w2 * (b.x - c2.x),
        y: w0 * (c1.y - a.y) + w1 * (c2.y - c1.y) + w2 * (b.y - c2.y))
    }
  }

  private static func speed(_ piece: Piece, _ t: Double) -> Double {
    let d = derivative(piece, t)
    return hypot(d.x, d.y)
  }

  /// The direction of travel at t, or nil where the piece has no length. Where the derivative
  /// vanishes (a control point on an end point, a cusp) the chord over a small step in the
  /// direction of travel gives the limit direction.
  static func direction(_ piece: Piece, _ t: Double) -> Point? {
    let d = derivative(piece, t)
    let scale = controlLength(piece)
    guard scale > 0 else { return nil }
    if hypot(d.x, d.y) > 1e-9 * scale { return d }
    for h in [1e-7, 1e-5, 1e-3, 1e-1] {
      let (t0, t1) = t + h <= 1 ? (t, t + h) : (t - h, t)
      let (p0, p1) = (evaluate(piece, max(t0, 0)), evaluate(piece, min(t1, 1)))
      let c = Point(x: p1.x - p0.x, y: p1.y - p0.y)
      if hypot(c.x, c.y) > 1e-12 * scale { return c }
    }
    return nil
  }

  private static func controlLength(_ piece: Piece) -> Double {
    switch piece {
    case .line(let a, let b): Path.length(a, b)
    case .quad(let a, let c, let b): Path.length(a, c, b)
    case .cubic(let a, let c1, let c2, let b): Path.length(a, c1, c2, b)
    }
  }

  // Five-point Gauss–Legendre nodes and weights on [−1, 1].
  private static let nodes: [Double] = [
    0, -0.538_469_310_105_683_1, 0.538_469_310_105_683_1, -0.906_179_845_938_664_0, 0.906_179_845_938_664_0,
  ]
  private static let weights: [Double] = [
    0.568_888_888_888_888_9, 0.478_628_670_499_366_5, 0.478_628_670_499_366_5, 0.236_926_885_056_189_1,
    0.236_926_885_056_189_1,
  ]

  /// ∫ |B'(t)| dt over [t0, t1].
  private static func arcLength(_ piece: Piece, _ t0: Double, _ t1: Double) -> Double {
    let half = (t1 - t0) / 2
    let mid = (t1 + t0) / 2
    var sum = 0.0
    for k in 0..<5 { sum += weights[k] * speed(piece, mid + half * nodes[k]) }
    return sum * half
  }

  /// Builds a segment's arc-length table by adaptive quadrature: an interval is split until its
  /// two halves agree with the whole to the tolerance (at least 8 pieces, at most 2¹⁶).
  static func measure(_ piece: Piece) -> Segment {
    if case .line(let a, let b) = piece {
      let l = hypot(b.x - a.x, b.y - a.y)
      return Segment(piece: piece, length: l, table: [(0, 0), (1, l)])
    }
    let tolerance = max(controlLength(piece), .leastNormalMagnitude) * 1e-10
    var table: [(t: Double, s: Double)] = [(0, 0)]
    var total = 0.0
    func refine(_ t0: Double, _ t1: Double, _ whole: Double, _ depth: Int) {
      let mid = (t0 + t1) / 2
      let left = arcLength(piece, t0, mid)
      let right = arcLength(piece, mid, t1)
      if depth >= 16 || abs(left + right - whole) <= tolerance * (t1 - t0) {
        total += left
        table.append((mid, total))
        total += right
        table.append((t1, total))
      } else {
        refine(t0, mid, left, depth + 1)
        refine(mid, t1, right, depth + 1)
      }
    }
    for k in 0..<8 {
      let (t0, t1) = (Double(k) / 8, Double(k + 1) / 8)
      refine(t0, t1, arcLength(piece, t0, t1), 3)
    }
    table[table.count - 1].t = 1
    return Segment(piece: piece, length: total, table: table)
  }

  /// The curve parameter at arc length `s` from the segment's start: the table brackets it,
  /// Newton steps on ∫|B'| = s refine it.
  static func parameter(in segment: Segment, atLength s: Double) -> Double {
    guard segment.length > 0 else { return 0 }
    if case .line = segment.piece { return min(max(s / segment.length, 0), 1) }
    let table = segment.table
    var (lo, hi) = (0, table.count - 1)
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if table[mid].s <= s { lo = mid } else { hi = mid }
    }
    let (a, b) = (table[lo], table[hi])
    guard b.s > a.s else { return a.t }
    var t = a.t + (b.t - a.t) * (s - a.s) / (b.s - a.s)
    for _ in 0..<4 {
      let v = speed(segment.piece, t)
      guard v > 0 else { break }
      let error = a.s + arcLength(segment.piece, a.t, t) - s
      t = min(max(t - error / v, a.t), b.t)
    }
    return t
  }
}
