// From a layer's plane to target pixels, for the builder (RenderList+Layer.swift): draws made
// with their pixel bounds, plane mappings from homographies (and when one is singular), a
// rectangle's pixels, surface transforms.

extension Draw {
  /// A draw of `shape` clipped to the target region and the clips in force; nil when it would
  /// touch no pixel.
  static func make(
    _ mapping: PlaneMapping, _ shape: Shape, _ paint: Paint, _ clips: [ClipEntry], _ region: PixelRect
  ) -> Draw? {
    var bounds = mapping.pixelBounds(of: shape.rect.bounds, within: region)
    bounds = clips.reduce(bounds) { $0.intersection($1.bounds) }
    guard !bounds.isEmpty else { return nil }
    return Draw(pixelBounds: bounds, mapping: mapping, shape: shape, paint: paint, clips: clips.map(\.clip))
  }
}

extension PlaneMapping {
  /// The mapping for homography `h` (rows) and the sign of its determinant; nil when `h` is
  /// singular or not finite (a plane seen edge-on).
  static func make(_ h: [[Double]]) -> (PlaneMapping, Double)? {
    let (a, b, c) = (h[0][0], h[0][1], h[0][2])
    let (d, e, f) = (h[1][0], h[1][1], h[1][2])
    let (g, hh, i) = (h[2][0], h[2][1], h[2][2])
    let det = a * (e * i - f * hh) - b * (d * i - f * g) + c * (d * hh - e * g)
    // Singular when the columns are (nearly) dependent: |det| measured against the product of
    // the columns' lengths (Hadamard's bound, reached by orthogonal columns), which neither a
    // translation nor a scale changes. (Against the largest entry cubed, a layer 10 000 points
    // left of the origin — its translation column that long — counted as edge-on and vanished.)
    func length(_ x: Double, _ y: Double, _ z: Double) -> Double { (x * x + y * y + z * z).squareRoot() }
    let bound = length(a, d, g) * length(b, e, hh) * length(c, f, i)
    guard det.isFinite, bound.isFinite, bound > 0, abs(det) > 1e-12 * bound else { return nil }
    let inv: [[Double]] = [
      [(e * i - f * hh) / det, (c * hh - b * i) / det, (b * f - c * e) / det],
      [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
      [(d * hh - e * g) / det, (b * g - a * hh) / det, (a * e - b * d) / det],
    ]
    func m(_ r: [[Double]]) -> Matrix3 {
      Matrix3(
        row0: SIMD3(Float(r[0][0]), Float(r[0][1]), Float(r[0][2])),
        row1: SIMD3(Float(r[1][0]), Float(r[1][1]), Float(r[1][2])),
        row2: SIMD3(Float(r[2][0]), Float(r[2][1]), Float(r[2][2])))
    }
    return (PlaneMapping(toTarget: m(h), fromTarget: m(inv)), det)
  }

  /// Whole pixels that the local rectangle `r` (minX, minY, maxX, maxY) can touch, with one pixel
  /// of margin for the antialiasing ramp, inside `region`. The part of the rectangle behind the
  /// eye (W ≤ 1e-6) is cut away first, so a plane that passes the eye still gets finite bounds.
  func pixelBounds(of r: SIMD4<Float>, within region: PixelRect) -> PixelRect {
    let h = toTarget
    let corners: [SIMD3<Double>] = [
      SIMD2(r.x, r.y), SIMD2(r.z, r.y), SIMD2(r.z, r.w), SIMD2(r.x, r.w),
    ].map { q in
      let v = SIMD3(Double(q.x), Double(q.y), 1)
      func dot(_ row: SIMD3<Float>) -> Double {
        Double(row.x) * v.x + Double(row.y) * v.y + Double(row.z) * v.z
      }
      return SIMD3(dot(h.row0), dot(h.row1), dot(h.row2))
    }
    // Sutherland–Hodgman against W ≥ eps.
    let eps = 1e-6
    var poly: [SIMD3<Double>] = []
    for k in 0..<4 {
      let p = corners[k]
      let n = corners[(k + 1) % 4]
      let pIn = p.z >= eps
      let nIn = n.z >= eps
      if pIn { poly.append(p) }
      if pIn != nIn {
        let t = (eps - p.z) / (n.z - p.z)
        poly.append(p + (n - p) * t)
      }
    }
    guard !poly.isEmpty else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
    var lo = SIMD2(Double.infinity, Double.infinity)
    var hi = -lo
    for p in poly {
      let s = SIMD2(p.x / p.z, p.y / p.z)
      lo = pointwiseMin(lo, s)
      hi = pointwiseMax(hi, s)
    }
    // Clamp before converting: a plane close to the eye projects arbitrarily far.
    let limit = 1e9
    func clamp(_ v: Double) -> Int { Int(min(max(v, -limit), limit)) }
    let x0 = clamp((lo.x - 1).rounded(.down))
    let y0 = clamp((lo.y - 1).rounded(.down))
    let x1 = clamp((hi.x + 1).rounded(.up))
    let y1 = clamp((hi.y + 1).rounded(.up))
    return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0).intersection(region)
  }
}

extension PixelRect {
  /// The rectangle as a local rectangle of the identity mapping (target pixels).
  var roundedRect: RoundedRect {
    RoundedRect(bounds: SIMD4(Float(x), Float(y), Float(maxX), Float(maxY)))
  }

  /// Target pixel → normalized coordinates of a surface covering this rectangle:
  /// uv = (p − origin) / size.
  var surfaceTransform: TextureTransform {
    let size = SIMD2(Float(width), Float(height))
    return TextureTransform(scale: 1 / size, offset: -SIMD2(Float(x), Float(y)) / size)
  }
}

extension TextureTransform.Slices {
  /// The same pieces read upside down about local y = c / 2 (y → c − y), for contents kept
  /// upright in a flipped geometry; itself when `c` is nil.
  func flippedVertically(about c: Double?) -> TextureTransform.Slices {
    guard let c else { return self }
    let k = Float(c)
    let (b, s, o) = (breaksY, scaleY, offsetY)
    return TextureTransform.Slices(
      breaksX: breaksX, scaleX: scaleX, offsetX: offsetX, breaksY: SIMD2(k - b.y, k - b.x),
      scaleY: SIMD3(-s.z, -s.y, -s.x), offsetY: SIMD3(k * s.z + o.z, k * s.y + o.y, k * s.x + o.x))
  }
}
