import Foundation

extension RenderMath {
  /// The gradient's colour at local point `q` (both backends: Shaders/layer/layer_quad.frag's
  /// lk_gradientColor): t by the kind — the projection onto start → end (axial), the elliptical
  /// distance from start with radii |end − start| (radial; a zero radius takes the other's, both
  /// zero give t = 1), the clockwise angle from the direction of end over a turn (conic) —
  /// clamped to [0, 1]; before the first location the first colour, after the last the last,
  /// between two the premultiplied colours mixed as `a + (b − a) × f`.
  @inlinable
  public static func gradientColor(_ q: SIMD2<Float>, _ g: Gradient) -> SIMD4<Float> {
    let d = g.end - g.start
    let p = q - g.start
    var t: Float
    switch g.kind {
    case .axial:
      let dd = d.x * d.x + d.y * d.y
      t = dd > 0 ? (p.x * d.x + p.y * d.y) / dd : 0
    case .radial:
      var r = SIMD2(abs(d.x), abs(d.y))
      if r.x == 0 { r.x = r.y }
      if r.y == 0 { r.y = r.x }
      if r.x == 0 {
        t = 1
      } else {
        let e = p / r
        t = (e.x * e.x + e.y * e.y).squareRoot()
      }
    case .conic:
      let a = atan2f(p.y, p.x) - atan2f(d.y, d.x)
      t = a / (2 * Float.pi)
      t -= t.rounded(.down)
    }
    t = min(max(t, 0), 1)
    let n = g.locations.count
    if t <= g.locations[0] { return g.colors[0] }
    for i in 1..<max(n, 1) where t <= g.locations[i] {
      let (l0, l1) = (g.locations[i - 1], g.locations[i])
      let f = l1 > l0 ? (t - l0) / (l1 - l0) : 1
      let (a, b) = (g.colors[i - 1], g.colors[i])
      return a + (b - a) * f
    }
    return g.colors[n - 1]
  }
}
