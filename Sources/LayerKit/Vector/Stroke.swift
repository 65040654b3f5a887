import Foundation

/// How a path is stroked (CAShapeLayer's line properties, CGContext's stroke state).
public struct StrokeStyle: Hashable, Sendable {
  /// CAShapeLayerLineCap.
  public enum LineCap: String, CaseIterable, Sendable {
    case butt, round, square
  }

  /// CAShapeLayerLineJoin.
  public enum LineJoin: String, CaseIterable, Sendable {
    case miter, round, bevel
  }

  public var lineWidth: Double
  public var lineCap: LineCap
  public var lineJoin: LineJoin
  /// A miter join whose length over the line width would exceed this becomes a bevel.
  public var miterLimit: Double
  /// Lengths of painted and unpainted runs, alternating, starting painted; an odd count is
  /// read twice (SVG's rule, what Core Graphics does); nil, empty, any negative or non-finite
  /// length, or a sum of 0 strokes solid.
  public var dashPattern: [Double]?
  /// How far into the pattern each subpath starts.
  public var dashPhase: Double
  /// The part of the path stroked, as fractions of its whole length (every subpath in order).
  public var start: Double
  public var end: Double

  public init(
    lineWidth: Double = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter, miterLimit: Double = 10,
    dashPattern: [Double]? = nil, dashPhase: Double = 0, start: Double = 0, end: Double = 1
  ) {
    self.lineWidth = lineWidth
    self.lineCap = lineCap
    self.lineJoin = lineJoin
    self.miterLimit = miterLimit
    self.dashPattern = dashPattern
    self.dashPhase = dashPhase
    self.start = start
    self.end = end
  }

  /// The dash pattern as it is used: even count, positive sum; nil strokes solid.
  var effectiveDashes: [Double]? {
    guard let d = dashPattern, !d.isEmpty, d.allSatisfy({ $0.isFinite && $0 >= 0 }) else { return nil }
    let pattern = d.count % 2 == 1 ? d + d : d
    return pattern.reduce(0, +) > 0 ? pattern : nil
  }
}

/// The outline of a stroke: the polygons whose union is what the stroke paints, each wound the
/// same way (positive area, y down: clockwise on screen), so filled with the non-zero rule
/// together they give their union, overlaps and all. A run of segments whose turns are gentle
/// (`isSmooth`: a flattened curve) is one strip polygon, offset and mitered on both sides; each
/// sharper join (miter, round or bevel) and each cap (square or round) is a convex polygon of
/// its own, as is each segment of a run too tight for a strip.
///
/// The stroke follows Core Graphics: the path is trimmed to [start, end] of its whole length
/// (all subpaths in order; nothing when end ≤ start), dashes are measured from each subpath's
/// start and do not move when the trim does (a dashed `strokeEnd` animation reveals dashes in
/// place), a closed subpath stroked whole has joins all round and no caps, every other piece
/// has caps. A zero-length piece — a dash of length 0, a subpath of one repeated point —
/// draws its round cap as a dot and its square cap as a square along the path's direction there
/// (none with butt caps). Round joins and caps are polygons whose chords stray at most
/// `tolerance` from the circle.
enum Stroker {
  typealias V = SIMD2<Double>

  static func outline(_ polylines: [Polyline], style: StrokeStyle, tolerance: Double) -> [[V]] {
    let hw = style.lineWidth / 2
    guard hw > 0, hw.isFinite else { return [] }
    var out: [[V]] = []
    let lines: [(points: [V], closed: Bool, lengths: [Double])] = polylines.map { line in
      var pts = line.points.map { V($0.x, $0.y) }
      if line.closed, pts.count > 1, pts.first == pts.last { pts.removeLast() }
      var lengths = [0.0]
      let n = line.closed ? pts.count : pts.count - 1
      for i in 0..<max(n, 0) {
        let a = pts[i]
        let b = pts[(i + 1) % pts.count]
        lengths.append(lengths.last! + length(b - a))
      }
      return (pts, line.closed, lengths)
    }
    let total = lines.reduce(0) { $0 + $1.lengths.last! }
    let s0 = min(max(style.start, 0), 1) * total
    let s1 = min(max(style.end, 0), 1) * total
    guard s1 > s0 || (total == 0 && style.end > style.start) else { return [] }
    let dashes = style.effectiveDashes
    var offset = 0.0
    for line in lines {
      defer { offset += line.lengths.last! }
      let length = line.lengths.last!
      // The subpath's own stretch of the trim.
      let lo = max(s0 - offset, 0)
      let hi = min(s1 - offset, length)
      guard hi >= lo, line.points.count >= 1 else { continue }
      // A trim that only touches a subpath of some length draws nothing of it.
      if lo == hi && length > 0 { continue }
      let whole = lo <= 0 && hi >= length
      if dashes == nil, whole, line.closed, length > 0 {
        closedOutline(line.points, hw: hw, style: style, tolerance: tolerance, into: &out)
        continue
      }
      for (a, b) in on(dashes, phase: style.dashPhase, from: lo, to: hi, whole: whole) {
        let (piece, tangent) = extract(line.points, closed: line.closed, lengths: line.lengths, from: a, to: b)
        openOutline(piece, tangent: tangent, hw: hw, style: style, tolerance: tolerance, into: &out)
      }
    }
    return out
  }

  /// The painted intervals of [lo, hi] along a subpath: all of it without dashes, else the
  /// pattern's painted runs (from the subpath's start, shifted by the phase) that meet it.
  static func on(_ dashes: [Double]?, phase: Double, from lo: Double, to hi: Double, whole: Bool) -> [(Double, Double)]
  {
    guard let dashes else { return [(lo, hi)] }
    let period = dashes.reduce(0, +)
    var result: [(Double, Double)] = []
    // Where the pattern's cycle containing lo starts, in subpath length.
    let p = phase.truncatingRemainder(dividingBy: period)
    var cycle = -((p < 0 ? p + period : p)) + ((lo / period).rounded(.down) - 1) * period
    var guardCount = 0
    while cycle <= hi {
      var s = cycle
      for (i, d) in dashes.enumerated() {
        let e = s + d
        if i % 2 == 0, e >= lo, s <= hi {
          let a = max(s, lo)
          let b = min(e, hi)
          // A painted run of length 0 is a dot; one cut to nothing by the trim is not drawn.
          if b > a || (d == 0 && s >= lo) { result.append((a, b)) }
        }
        s = e
      }
      cycle += period
      guardCount += 1
      // Dashes far below a pixel on a long path: the runs number at most one per flattened
      // piece of length; more than a million is a pattern too fine to see, stroked solid.
      if guardCount > 1_000_000 { return [(lo, hi)] }
    }
    return result
  }

  /// The points of a subpath between lengths a and b, and the direction at a (for dots).
  static func extract(_ pts: [V], closed: Bool, lengths: [Double], from a: Double, to b: Double) -> ([V], V) {
    let n = lengths.count - 1
    func point(at s: Double) -> (V, Int) {
      // The segment holding s (the last one for s at the end).
      var lo = 0
      var hi = max(n - 1, 0)
      while lo < hi {
        let mid = (lo + hi + 1) / 2
        if lengths[mid] <= s { lo = mid } else { hi = mid - 1 }
      }
      let p0 = pts[lo % pts.count]
      guard n > 0 else { return (p0, 0) }
      let p1 = pts[(lo + 1) % pts.count]
      let seg = lengths[lo + 1] - lengths[lo]
      let t = seg > 0 ? min(max((s - lengths[lo]) / seg, 0), 1) : 0
      return (p0 + (p1 - p0) * t, lo)
    }
    let (pa, ia) = point(at: a)
    let (pb, ib) = point(at: b)
    var piece = [pa]
    if ib > ia { for i in (ia + 1)...ib { piece.append(pts[i % pts.count]) } }
    piece.append(pb)
    var tangent = V(1, 0)
    if n > 0 {
      let d = pts[(ia + 1) % pts.count] - pts[ia % pts.count]
      if length(d) > 0 { tangent = d / length(d) }
    }
    return (piece, tangent)
  }

  /// An open piece: a quad per segment, a join at each inner point, a cap at each end.
  static func openOutline(
    _ raw: [V], tangent: V, hw: Double, style: StrokeStyle, tolerance: Double, into out: inout [[V]]
  ) {
    let pts = deduplicated(raw)
    if pts.count < 2 {
      // A dot: the caps of a zero-length piece, along the direction there.
      let p = pts[0]
      switch style.lineCap {
      case .butt: break
      case .round: add(circle(p, hw, tolerance: tolerance), into: &out)
      case .square:
        let n = V(-tangent.y, tangent.x) * hw
        let d = tangent * hw
        add([p - d - n, p + d - n, p + d + n, p - d + n], into: &out)
      }
      return
    }
    let smooth = (0..<pts.count).map { i in
      i > 0 && i < pts.count - 1 && isSmooth(pts[i - 1], pts[i], pts[i + 1], hw, style, tolerance)
    }
    var first = 0
    for i in 1..<pts.count where i == pts.count - 1 || !smooth[i] {
      strip(pts, from: first, to: i, closed: false, smooth: smooth, hw, into: &out)
      if i < pts.count - 1 {
        join(pts[i], unit(pts[i] - pts[i - 1]), unit(pts[i + 1] - pts[i]), hw, style, tolerance, into: &out)
      }
      first = i
    }
    cap(pts[0], unit(pts[0] - pts[1]), hw, style, tolerance, into: &out)
    cap(pts[pts.count - 1], unit(pts[pts.count - 1] - pts[pts.count - 2]), hw, style, tolerance, into: &out)
  }

  /// A closed subpath stroked whole: a quad per segment (the closing one too), a join at every point.
  static func closedOutline(_ raw: [V], hw: Double, style: StrokeStyle, tolerance: Double, into out: inout [[V]]) {
    var pts = deduplicated(raw)
    if pts.count > 1, pts.first == pts.last { pts.removeLast() }
    guard pts.count >= 2 else { return }
    let n = pts.count
    let smooth = (0..<n).map { i in isSmooth(pts[(i + n - 1) % n], pts[i], pts[(i + 1) % n], hw, style, tolerance) }
    guard let start = smooth.firstIndex(of: false) else {
      // Smooth all round (a circle, an ellipse): one polygon, the outer chain and the inner
      // chain joined by a seam whose two edges cancel.
      strip(pts + [pts[0]], from: 0, to: n, closed: true, smooth: smooth + [true], hw, into: &out)
      return
    }
    // From the first corner round to it again: strips between corners, a join at each corner.
    let ring = (0...n).map { pts[(start + $0) % n] }
    let ringSmooth = (0...n).map { smooth[(start + $0) % n] }
    var first = 0
    for i in 1...n where i == n || !ringSmooth[i] {
      strip(ring, from: first, to: i, closed: false, smooth: ringSmooth, hw, into: &out)
      first = i
    }
    for i in 0..<n where !smooth[i] {
      let prev = pts[(i + n - 1) % n]
      let next = pts[(i + 1) % n]
      join(pts[i], unit(pts[i] - prev), unit(next - pts[i]), hw, style, tolerance, into: &out)
    }
  }

  /// Whether the turn at b (from a, towards c) is gentle enough to be stroked inside one strip
  /// polygon: the join the style asks for lies within `tolerance` of the miter point that the
  /// strip uses, and the inner offsets meet within half of each segment (the stroke is narrower
  /// than the path's curvature there), so the strip does not fold over itself.
  static func isSmooth(_ a: V, _ b: V, _ c: V, _ hw: Double, _ style: StrokeStyle, _ tolerance: Double) -> Bool {
    let d0 = unit(b - a)
    let d1 = unit(c - b)
    let dot = d0.x * d1.x + d0.y * d1.y
    guard dot > 0 else { return false }
    let cosHalf = ((1 + dot) / 2).squareRoot()
    let sinHalf = ((1 - dot) / 2).squareRoot()
    let tip = hw / cosHalf
    let exact: Double
    switch style.lineJoin {
    case .miter: exact = 1 / cosHalf <= style.miterLimit ? tip : hw * cosHalf
    case .round: exact = hw
    case .bevel: exact = hw * cosHalf
    }
    guard tip - exact <= tolerance else { return false }
    let setback = hw * sinHalf / cosHalf
    return setback <= 0.5 * min(length(b - a), length(c - b))
  }

  /// The polygon of the segments from point `first` to point `last`, whose inner points are
  /// smooth: the left offsets forward (mitered at the inner points), then the right offsets
  /// back. `closed`: the points go round (the last is the first) and the chains close on
  /// themselves, joined by a seam.
  static func strip(
    _ pts: [V], from first: Int, to last: Int, closed: Bool, smooth: [Bool], _ hw: Double, into out: inout [[V]]
  ) {
    if last == first + 1 {
      segment(pts[first], pts[last], hw, into: &out)
      return
    }
    func normal(_ i: Int) -> V {
      let d = unit(pts[i + 1] - pts[i])
      return V(-d.y, d.x) * hw
    }
    // The offset at each point: the segment's normal at the ends, the miter inside.
    var offsets: [V] = []
    offsets.reserveCapacity(last - first + 1)
    for i in first...last {
      let inner = closed || (i > first && i < last)
      if !inner {
        offsets.append(i == first ? normal(first) : normal(last - 1))
        continue
      }
      let before = normal(i == first ? last - 1 : i - 1)
      let after = normal(i == last ? first : i)
      let m = before + after
      let k = (m.x * before.x + m.y * before.y) / (hw * hw)
      offsets.append(k > 0 ? m / k : before)
    }
    var polygon: [V] = []
    polygon.reserveCapacity(2 * offsets.count)
    for (j, o) in offsets.enumerated() { polygon.append(pts[first + j] + o) }
    for (j, o) in offsets.enumerated().reversed() { polygon.append(pts[first + j] - o) }
    add(polygon, into: &out)
  }

  static func segment(_ a: V, _ b: V, _ hw: Double, into out: inout [[V]]) {
    let d = unit(b - a)
    let n = V(-d.y, d.x) * hw
    add([a + n, b + n, b - n, a - n], into: &out)
  }

  /// The piece that fills the outer side of the turn at p from direction d0 to d1.
  static func join(
    _ p: V, _ d0: V, _ d1: V, _ hw: Double, _ style: StrokeStyle, _ tolerance: Double, into out: inout [[V]]
  ) {
    let cross = d0.x * d1.y - d0.y * d1.x
    let dot = d0.x * d1.x + d0.y * d1.y
    if abs(cross) < 1e-12 && dot > 0 { return }
    // The outer side is the one the path turns away from.
    let side: Double = cross > 0 ? -1 : 1
    let n0 = V(-d0.y, d0.x) * (hw * side)
    let n1 = V(-d1.y, d1.x) * (hw * side)
    switch style.lineJoin {
    case .bevel:
      add([p, p + n0, p + n1], into: &out)
    case .miter:
      // The miter's length over the line width is 1 / sin(θ / 2), θ the angle between the
      // segments: 1 / cos(φ / 2) for the turn φ, cos(φ / 2) = sqrt((1 + cos φ) / 2).
      let c = ((1 + dot) / 2).squareRoot()
      if c > 0, 1 / c <= style.miterLimit {
        let m = unit(n0 + n1) * (hw / c)
        add([p, p + n0, p + m, p + n1], into: &out)
      } else {
        add([p, p + n0, p + n1], into: &out)
      }
    case .round:
      // From one outer normal to the other the short way, which is the outer side (a half
      // turn for a U-turn).
      let sweep = abs(cross) < 1e-12 ? Double.pi : atan2(n0.x * n1.y - n0.y * n1.x, n0.x * n1.x + n0.y * n1.y)
      add([p] + arc(p, hw, from: atan2(n0.y, n0.x), sweep: sweep, tolerance: tolerance), into: &out)
    }
  }

  /// The cap at end point p, whose outward direction is d.
  static func cap(_ p: V, _ d: V, _ hw: Double, _ style: StrokeStyle, _ tolerance: Double, into out: inout [[V]]) {
    let n = V(-d.y, d.x) * hw
    switch style.lineCap {
    case .butt: return
    case .square: add([p + n, p + n + d * hw, p - n + d * hw, p - n], into: &out)
    case .round: add([p] + arc(p, hw, from: atan2(n.y, n.x), sweep: -.pi, tolerance: tolerance), into: &out)
    }
  }

  /// Points on the circle (c, r) from angle a0 through `sweep`, both ends included.
  static func arc(_ c: V, _ r: Double, from a0: Double, sweep: Double, tolerance: Double) -> [V] {
    let steps = arcSteps(r, sweep: abs(sweep), tolerance: tolerance)
    return (0...steps).map { i in
      let a = a0 + sweep * Double(i) / Double(steps)
      return c + V(cos(a), sin(a)) * r
    }
  }

  static func circle(_ c: V, _ r: Double, tolerance: Double) -> [V] {
    Array(arc(c, r, from: 0, sweep: 2 * .pi, tolerance: tolerance).dropLast())
  }

  /// Chords over `sweep` radians of a circle of radius r, each within `tolerance` of the arc.
  static func arcSteps(_ r: Double, sweep: Double, tolerance: Double) -> Int {
    let step = 2 * acos(max(min(1 - tolerance / max(r, 1e-12), 1), -1))
    guard step > 0, step.isFinite else { return max(1, Int((sweep / (Double.pi / 2)).rounded(.up))) }
    return min(max(1, Int((sweep / step).rounded(.up))), 1024)
  }

  /// Appends a polygon wound with positive area (reversed if need be); a degenerate one is dropped.
  static func add(_ polygon: [V], into out: inout [[V]]) {
    var area = 0.0
    for i in polygon.indices {
      let a = polygon[i]
      let b = polygon[(i + 1) % polygon.count]
      area += a.x * b.y - a.y * b.x
    }
    guard area.isFinite, area != 0 else { return }
    out.append(area > 0 ? polygon : polygon.reversed())
  }

  static func deduplicated(_ pts: [V]) -> [V] {
    var out: [V] = []
    out.reserveCapacity(pts.count)
    for p in pts where out.last != p { out.append(p) }
    return out
  }

  @inline(__always) static func length(_ v: V) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }
  @inline(__always) static func unit(_ v: V) -> V {
    let l = length(v)
    return l > 0 ? v / l : V(1, 0)
  }
}
