// The per-pixel rules of the effect passes, written once: colour matrices, tints, blend modes and
// path coverage. The CPU backend calls these; Shaders/effects/*.frag and the path branch of
// Shaders/layer/layer_quad.frag are their GLSL twins, with the same operations in the same order
// (sums spelled out left to right).

extension RenderMath {
  /// unpremultiply(c): colour over alpha, 0 where alpha is 0.
  @inlinable @inline(__always)
  public static func unpremultiply(_ c: SIMD4<Float>) -> SIMD4<Float> {
    c.w > 0 ? SIMD4(c.x / c.w, c.y / c.w, c.z / c.w, c.w) : .zero
  }

  /// A colour-matrix filter on one premultiplied texel:
  /// premultiply(clamp(M · unpremultiply(c) + bias, 0, 1)).
  @inlinable @inline(__always)
  public static func applyColorMatrix(_ m: ColorMatrix, _ texel: SIMD4<Float>) -> SIMD4<Float> {
    let u = unpremultiply(texel)
    @inline(__always) func row(_ r: SIMD4<Float>) -> Float {
      ((r.x * u.x + r.y * u.y) + r.z * u.z) + r.w * u.w
    }
    let v = SIMD4(row(m.r), row(m.g), row(m.b), row(m.a)) + m.bias
    let c = SIMD4(min(max(v.x, 0), 1), min(max(v.y, 0), 1), min(max(v.z, 0), 1), min(max(v.w, 0), 1))
    return SIMD4(c.x * c.w, c.y * c.w, c.z * c.w, c.w)
  }

  /// A tint filter on one texel: colour (premultiplied) × texel alpha.
  @inlinable @inline(__always)
  public static func tint(_ color: SIMD4<Float>, _ texel: SIMD4<Float>) -> SIMD4<Float> {
    color * texel.w
  }

  // MARK: Blend modes (W3C Compositing and Blending Level 1)

  /// The blend function B(cb, cs) of a separable mode, on one unpremultiplied channel.
  @inlinable @inline(__always)
  public static func blendChannel(_ mode: BlendMode, _ cb: Float, _ cs: Float) -> Float {
    switch mode {
    case .multiply: return cb * cs
    case .screen: return cb + cs - cb * cs
    case .overlay: return hardLight(cs: cb, cb: cs)
    case .darken: return min(cb, cs)
    case .lighten: return max(cb, cs)
    case .colorDodge:
      if cb == 0 { return 0 }
      if cs >= 1 { return 1 }
      return min(1, cb / (1 - cs))
    case .colorBurn:
      if cb >= 1 { return 1 }
      if cs <= 0 { return 0 }
      return 1 - min(1, (1 - cb) / cs)
    case .hardLight: return hardLight(cs: cs, cb: cb)
    case .softLight:
      if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
      let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
      return cb + (2 * cs - 1) * (d - cb)
    case .difference: return abs(cb - cs)
    case .exclusion: return cb + cs - 2 * cb * cs
    case .normal, .hue, .saturation, .color, .luminosity, .plusLighter: return cs
    }
  }

  @inlinable @inline(__always)
  static func hardLight(cs: Float, cb: Float) -> Float {
    if cs <= 0.5 { return cb * (2 * cs) }
    let s = 2 * cs - 1
    return cb + s - cb * s
  }

  @inlinable @inline(__always)
  static func lum(_ c: SIMD3<Float>) -> Float { (0.3 * c.x + 0.59 * c.y) + 0.11 * c.z }

  @inlinable @inline(__always)
  static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
    let l = lum(c)
    let n = min(min(c.x, c.y), c.z)
    let x = max(max(c.x, c.y), c.z)
    var r = c
    // Only where the divisor is positive: a grey colour has l == n, and 0/0 is no colour.
    if n < 0 && l - n > 0 { r = SIMD3(repeating: l) + (r - SIMD3(repeating: l)) * (l / (l - n)) }
    if x > 1 && x - l > 0 { r = SIMD3(repeating: l) + (r - SIMD3(repeating: l)) * ((1 - l) / (x - l)) }
    return r
  }

  @inlinable @inline(__always)
  static func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
    clipColor(c + SIMD3(repeating: l - lum(c)))
  }

  @inlinable @inline(__always)
  static func sat(_ c: SIMD3<Float>) -> Float { max(max(c.x, c.y), c.z) - min(min(c.x, c.y), c.z) }

  /// SetSat: the spec's sorted form, written as (c − min) × s / (max − min).
  @inlinable @inline(__always)
  static func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
    let lo = min(min(c.x, c.y), c.z)
    let hi = max(max(c.x, c.y), c.z)
    if !(hi > lo) { return .zero }
    return (c - SIMD3(repeating: lo)) * (s / (hi - lo))
  }

  /// The blend function of any mode on unpremultiplied colours (backdrop cb, source cs).
  @inlinable @inline(__always)
  public static func blendColor(_ mode: BlendMode, _ cb: SIMD3<Float>, _ cs: SIMD3<Float>) -> SIMD3<Float> {
    switch mode {
    case .hue: return setLum(setSat(cs, sat(cb)), lum(cb))
    case .saturation: return setLum(setSat(cb, sat(cs)), lum(cb))
    case .color: return setLum(cs, lum(cb))
    case .luminosity: return setLum(cb, lum(cs))
    default:
      return SIMD3(blendChannel(mode, cb.x, cs.x), blendChannel(mode, cb.y, cs.y), blendChannel(mode, cb.z, cs.z))
    }
  }

  /// Source `src` composited onto backdrop `dst` (both premultiplied) with a blend mode:
  /// co = cs·(1 − ab) + cb·(1 − as) + as·ab·B(cb/ab, cs/as), ao = as + ab·(1 − as).
  /// `.normal` is source-over; `.plusLighter` is src + dst, clamped to 1.
  @inlinable @inline(__always)
  public static func composite(_ mode: BlendMode, _ src: SIMD4<Float>, _ dst: SIMD4<Float>) -> SIMD4<Float> {
    let sa = src.w
    let da = dst.w
    if mode == .normal { return src + dst * (1 - sa) }
    if mode == .plusLighter { return (src + dst).clamped(lowerBound: .zero, upperBound: .one) }
    let cs = sa > 0 ? SIMD3(src.x, src.y, src.z) / sa : .zero
    let cb = da > 0 ? SIMD3(dst.x, dst.y, dst.z) / da : .zero
    let mixed = blendColor(mode, cb, cs)
    let rgb = SIMD3(src.x, src.y, src.z) * (1 - da) + SIMD3(dst.x, dst.y, dst.z) * (1 - sa) + mixed * (sa * da)
    return SIMD4(rgb.x, rgb.y, rgb.z, sa + da * (1 - sa))
  }

  // MARK: Paths

  /// Coverage of the pixel at `lp` by a filled path: the winding rule decides inside, the
  /// distance to the nearest segment (through the Jacobian, in pixels) gives the 1-pixel ramp
  /// clamp(0.5 − d, 0, 1) with d negative inside.
  @inlinable
  public static func coverage(_ lp: LocalPoint, _ path: PathGeometry) -> Float {
    path.segments.withUnsafeBufferPointer { coverage(lp, segments: $0, evenOdd: path.evenOdd) }
  }

  /// `coverage(_:_:)` of a path given as its segments.
  @inlinable
  public static func coverage(
    _ lp: LocalPoint, segments: UnsafeBufferPointer<SIMD4<Float>>, evenOdd: Bool
  ) -> Float {
    let q = lp.q
    var winding = 0
    var best = Float.infinity
    var nearest = SIMD2<Float>.zero
    for s in segments {
      let a = SIMD2(s.x, s.y)
      let b = SIMD2(s.z, s.w)
      // Crossings of the ray from q towards +x, half-open in y so shared vertices count once.
      if (a.y <= q.y) != (b.y <= q.y) {
        let t = (q.y - a.y) / (b.y - a.y)
        let x = a.x + t * (b.x - a.x)
        if x > q.x { winding += b.y > a.y ? 1 : -1 }
      }
      let e = b - a
      let ee = e.x * e.x + e.y * e.y
      let d = q - a
      let t = ee > 0 ? min(max((d.x * e.x + d.y * e.y) / ee, 0), 1) : 0
      let c = a + e * t
      let v = q - c
      let dd = v.x * v.x + v.y * v.y
      if dd < best {
        best = dd
        nearest = v
      }
    }
    let inside = evenOdd ? (winding & 1) != 0 : winding != 0
    let dist = best.squareRoot()
    if !(dist > 0) { return 0.5 }
    let n = nearest / dist
    let g = SIMD2(n.x * lp.dqdx.x + n.y * lp.dqdx.y, n.x * lp.dqdy.x + n.y * lp.dqdy.y)
    let len = max((g.x * g.x + g.y * g.y).squareRoot(), 1e-8)
    let sd = inside ? -dist : dist
    return min(max(0.5 - sd / len, 0), 1)
  }
}

extension RenderMath {
  /// One byte of a contents crossfade: a + (b − a)·t in Float on the byte values, clamped to
  /// [0, 255], rounded half up (ContentsCrossfade).
  @inlinable @inline(__always)
  public static func crossfade(_ a: UInt8, _ b: UInt8, _ t: Float) -> UInt8 {
    let x = Float(a)
    return UInt8(min(max(x + (Float(b) - x) * t, 0), 255) + 0.5)
  }

  /// The bytes of a contents crossfade of two images of `count` bytes (nil: transparent).
  public static func crossfade(_ a: [UInt8]?, _ b: [UInt8]?, count: Int, weight t: Float) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
      func run(_ pa: UnsafeBufferPointer<UInt8>?, _ pb: UnsafeBufferPointer<UInt8>?) {
        for i in 0..<count { out[i] = crossfade(pa?[i] ?? 0, pb?[i] ?? 0, t) }
      }
      switch (a, b) {
      case (let a?, let b?): a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in run(pa, pb) } }
      case (let a?, nil): a.withUnsafeBufferPointer { run($0, nil) }
      case (nil, let b?): b.withUnsafeBufferPointer { run(nil, $0) }
      case (nil, nil): run(nil, nil)
      }
      initialized = count
    }
  }
}
