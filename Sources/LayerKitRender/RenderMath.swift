// The per-pixel rules of the parity contract, written once. The CPU backend calls these functions;
// Shaders/layer/layer_quad.frag is their line-by-line GLSL twin. Change one, change the other, and
// the parity tests will say if they drifted apart.
//
// All arithmetic is Float (IEEE binary32), as GLSL ES `highp float` is.

import Foundation

/// The shared per-pixel math of both backends.
public enum RenderMath {
  /// A pixel centre mapped into a local plane, with the derivatives of the local point with
  /// respect to the pixel's x and y (the Jacobian's columns), which turn local distances into
  /// pixel distances for the 1-pixel antialiasing ramp.
  public struct LocalPoint: Sendable {
    public var q: SIMD2<Float>
    public var dqdx: SIMD2<Float>
    public var dqdy: SIMD2<Float>

    @inlinable public init(q: SIMD2<Float>, dqdx: SIMD2<Float>, dqdy: SIMD2<Float>) {
      self.q = q
      self.dqdx = dqdx
      self.dqdy = dqdy
    }
  }

  /// Maps the target pixel position `p` into the local plane of `m`. Returns nil where the plane
  /// is not visible at `p`: the homogeneous divisor is zero, or the local point lies behind the
  /// eye (its forward W is not positive).
  @inlinable @inline(__always)
  public static func unproject(_ p: SIMD2<Float>, _ m: PlaneMapping) -> LocalPoint? {
    let inv = m.fromTarget
    let h = inv.apply(SIMD3(p.x, p.y, 1))
    if m.isAffine {
      // h.z is exactly 1: q = h.xy, W = 1 and the Jacobian is the matrix's, exactly what the
      // general path below computes, without its divisions (the shader's PROJECTIVE 0 variant).
      return LocalPoint(
        q: SIMD2(h.x, h.y), dqdx: SIMD2(inv.row0.x, inv.row1.x), dqdy: SIMD2(inv.row0.y, inv.row1.y))
    }
    if abs(h.z) < 1e-20 { return nil }
    let q = SIMD2(h.x / h.z, h.y / h.z)
    // Near the horizon q overflows: such a point is no pixel's business (NaN fails the test too).
    if !(abs(q.x) < 1e30 && abs(q.y) < 1e30) { return nil }
    let w = (m.toTarget.row2 * SIMD3(q.x, q.y, 1)).sum()
    if !(w > 1e-6) { return nil }
    // d(q)/d(p) of q = (A p~) / (c · p~): (A_col − q c_col) / (c · p~).
    let dqdx = (SIMD2(inv.row0.x, inv.row1.x) - q * inv.row2.x) / h.z
    let dqdy = (SIMD2(inv.row0.y, inv.row1.y) - q * inv.row2.y) / h.z
    return LocalPoint(q: q, dqdx: dqdx, dqdy: dqdy)
  }

  /// Signed distance from `q` to the rounded rectangle (negative inside), in local units, and the
  /// unit gradient of that distance. The radius is clamped to [0, half the shorter side].
  /// sign(0) counts as +1 here (GLSL's sign() would give 0, so the shader spells it out).
  @inlinable @inline(__always)
  public static func signedDistance(_ q: SIMD2<Float>, _ r: RoundedRect) -> (
    distance: Float, normal: SIMD2<Float>
  ) {
    let lo = SIMD2(r.bounds.x, r.bounds.y)
    let hi = SIMD2(r.bounds.z, r.bounds.w)
    let center = (lo + hi) * 0.5
    let half = (hi - lo) * 0.5
    let rel = q - center
    let s = SIMD2<Float>(rel.x >= 0 ? 1 : -1, rel.y >= 0 ? 1 : -1)
    // The quadrant's corner (RoundedRect.corners): rounded, or square.
    let corner: UInt8 = (rel.x >= 0 ? 2 : 1) << (rel.y >= 0 ? 2 : 0)
    let rounded = r.corners & corner != 0
    let continuous = rounded && r.corners & RoundedRect.continuous != 0
    let reach = continuous ? max(r.cornerRadius, 0) * RoundedRect.continuousExtent : max(r.cornerRadius, 0)
    let radius = rounded ? min(reach, min(half.x, half.y)) : 0
    let d = SIMD2(abs(rel.x), abs(rel.y)) - (half - radius)
    if continuous && d.x > 0 && d.y > 0 {
      // The superellipse (d.x / e)^n + (d.y / e)^n = 1: its value over its gradient's length
      // is the distance to first order (exact on the curve, where the ramp is).
      let n = RoundedRect.continuousExponent
      let t = d / radius
      let f = pow(t.x, n) + pow(t.y, n) - 1
      let g = SIMD2(n * pow(t.x, n - 1), n * pow(t.y, n - 1)) / radius
      let len = max((g.x * g.x + g.y * g.y).squareRoot(), 1e-20)
      return (f / len, (g / len) * s)
    }
    if d.x > 0 && d.y > 0 {
      let len = (d.x * d.x + d.y * d.y).squareRoot()
      return (len - radius, (d / len) * s)
    }
    if d.x >= d.y {
      return (d.x - radius, SIMD2(s.x, 0))
    }
    return (d.y - radius, SIMD2(0, s.y))
  }

  /// Coverage of the pixel at `lp` by the rounded rectangle: the signed distance converted to
  /// pixels through the Jacobian, then the 1-pixel ramp clamp(0.5 − d, 0, 1).
  @inlinable @inline(__always)
  public static func coverage(_ lp: LocalPoint, _ r: RoundedRect) -> Float {
    let (sd, n) = signedDistance(lp.q, r)
    let g = SIMD2((n * lp.dqdx).sum(), (n * lp.dqdy).sum())
    let len = max((g.x * g.x + g.y * g.y).squareRoot(), 1e-8)
    return min(max(0.5 - sd / len, 0), 1)
  }

  /// Coverage of the pixel whose centre is `p` (target pixels) by a coverage mask: its byte
  /// / 255, 0 outside its bounds.
  @inlinable @inline(__always)
  public static func coverage(_ p: SIMD2<Float>, _ mask: CoverageMask) -> Float {
    mask.bytes.withUnsafeBufferPointer { coverage(p, bytes: $0, bounds: mask.bounds) }
  }

  /// `coverage(_:_:)` of a mask given as its bytes and bounds.
  @inlinable @inline(__always)
  public static func coverage(_ p: SIMD2<Float>, bytes: UnsafeBufferPointer<UInt8>, bounds b: PixelRect) -> Float {
    // Pixel centres are i + 0.5, so truncation is floor for every pixel of a surface.
    let x = Int(p.x.rounded(.down)) - b.x
    let y = Int(p.y.rounded(.down)) - b.y
    guard x >= 0, y >= 0, x < b.width, y < b.height else { return 0 }
    return Float(bytes[y * b.width + x]) / 255
  }

  /// Coverage by a draw's shape: the filled rounded rectangle, the ring of a border, or a path.
  /// (A coverage mask is read at the pixel, not at a local point: `coverage(_:_:)` of the mask.)
  @inlinable @inline(__always)
  public static func coverage(_ lp: LocalPoint, _ shape: Shape) -> Float {
    if let path = shape.path { return coverage(lp, path) }
    return coverage(lp, shape.rect, borderWidth: shape.borderWidth)
  }

  /// Coverage by a rounded rectangle, or by the ring of width `borderWidth` inside it.
  @inlinable @inline(__always)
  public static func coverage(_ lp: LocalPoint, _ rect: RoundedRect, borderWidth bw: Float) -> Float {
    let outer = coverage(lp, rect)
    if !(bw > 0) { return outer }
    let b = rect.bounds
    let inner = RoundedRect(
      bounds: SIMD4(b.x + bw, b.y + bw, b.z - bw, b.w - bw),
      cornerRadius: max(rect.cornerRadius - bw, 0), corners: rect.corners)
    if !(inner.bounds.z > inner.bounds.x && inner.bounds.w > inner.bounds.y) { return outer }
    return outer * (1 - coverage(lp, inner))
  }

  /// Coverage of target pixel centre `p` by a clip.
  @inlinable @inline(__always)
  public static func coverage(_ p: SIMD2<Float>, _ clip: Clip) -> Float {
    guard let lp = unproject(p, clip.mapping) else { return 0 }
    return coverage(lp, clip.rect)
  }

  /// Bilinear sample of premultiplied RGBA8 texels (rows top-down) at normalized `uv`, with
  /// clamp-to-edge: texel centres at (i + 0.5) / size, weights from the fractional position, and
  /// `a + (b − a) × t` as the interpolation (the shader fetches the same four texels).
  @inlinable @inline(__always)
  public static func sampleBilinear(
    _ texels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, uv: SIMD2<Float>
  ) -> SIMD4<Float> {
    // Non-finite coordinates sample nothing (the clamps below would not survive a NaN).
    if !(abs(uv.x) < 1e30 && abs(uv.y) < 1e30) { return .zero }
    let t = uv * SIMD2(Float(width), Float(height)) - 0.5
    let fx0 = floor(t.x, below: width)
    let fy0 = floor(t.y, below: height)
    let f = SIMD2(t.x - fx0, t.y - fy0)
    let x0 = min(max(Int(fx0), 0), width - 1)
    let x1 = min(max(Int(fx0) + 1, 0), width - 1)
    let y0 = min(max(Int(fy0), 0), height - 1)
    let y1 = min(max(Int(fy0) + 1, 0), height - 1)
    @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
      let i = (y * width + x) * 4
      return SIMD4(Float(texels[i]), Float(texels[i + 1]), Float(texels[i + 2]), Float(texels[i + 3]))
        / 255
    }
    let c00 = texel(x0, y0)
    let c10 = texel(x1, y0)
    let c01 = texel(x0, y1)
    let c11 = texel(x1, y1)
    let top = c00 + (c10 - c00) * f.x
    let bottom = c01 + (c11 - c01) * f.x
    return top + (bottom - top) * f.y
  }

  /// The texel containing `uv` (normalized, clamp-to-edge): index floor(u × size), clamped — the
  /// `nearest` filter. Non-finite coordinates sample nothing, as in `sampleBilinear`.
  @inlinable @inline(__always)
  public static func sampleNearest(
    _ texels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, uv: SIMD2<Float>
  ) -> SIMD4<Float> {
    if !(abs(uv.x) < 1e30 && abs(uv.y) < 1e30) { return .zero }
    let t = uv * SIMD2(Float(width), Float(height))
    let x = Int(min(max(floor(t.x, below: width), 0), Float(width - 1)))
    let y = Int(min(max(floor(t.y, below: height), 0), Float(height - 1)))
    let i = (y * width + x) * 4
    return SIMD4(Float(texels[i]), Float(texels[i + 1]), Float(texels[i + 2]), Float(texels[i + 3])) / 255
  }

  /// One axis of `sampleBilinear` at normalized coordinate `u` over `size` texels: the two
  /// clamped texel indices and the fraction between them, computed with exactly its operations.
  /// A pass that samples the same coordinates on every row (or column) computes them once.
  public struct BilinearTap: Sendable, Equatable {
    public var i0: Int
    public var i1: Int
    public var f: Float

    @inlinable @inline(__always)
    public init(_ u: Float, size: Int) {
      let t = u * Float(size) - 0.5
      let ft = RenderMath.floor(t, below: size)
      f = t - ft
      i0 = min(max(Int(ft), 0), size - 1)
      i1 = min(max(Int(ft) + 1, 0), size - 1)
    }
  }

  /// `sampleBilinear` at the coordinates whose taps are `x` and `y` (both finite): the same
  /// result, bit for bit; where both fractions are 0 it is the texel itself, read once.
  @inlinable @inline(__always)
  public static func sampleBilinear(
    _ texels: UnsafeBufferPointer<UInt8>, width: Int, x: BilinearTap, y: BilinearTap
  ) -> SIMD4<Float> {
    @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
      let i = (y * width + x) * 4
      return SIMD4(Float(texels[i]), Float(texels[i + 1]), Float(texels[i + 2]), Float(texels[i + 3])) / 255
    }
    let c00 = texel(x.i0, y.i0)
    // c + (d − c) × 0 is c: the fractions' zero cases need no other texel.
    if x.f == 0 && y.f == 0 { return c00 }
    let c10 = texel(x.i1, y.i0)
    let top = c00 + (c10 - c00) * x.f
    if y.f == 0 { return top }
    let c01 = texel(x.i0, y.i1)
    let c11 = texel(x.i1, y.i1)
    let bottom = c01 + (c11 - c01) * x.f
    return top + (bottom - top) * y.f
  }

  /// Source-over of a premultiplied colour onto a stored RGBA8 pixel in 8-bit fixed point, as
  /// a GL blend unit does with glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA) on an RGBA8 target:
  /// the source converted first (`unorm8`), then s + round(d × (255 − s.a) / 255), saturated.
  /// (x + 128 + ((x + 128) >> 8)) >> 8 is round(x / 255) for every x = d × (255 − a).
  /// The same sum in Float, rounded once, drifts from the GPU's by tens of levels under heavy
  /// translucent overdraw: each draw's half-level differences feed the next.
  @inlinable @inline(__always)
  public static func blend(_ src: SIMD4<Float>, over dst: SIMD4<UInt8>) -> SIMD4<UInt8> {
    let s = SIMD4<UInt32>(truncatingIfNeeded: unorm8(src))
    let d = SIMD4<UInt32>(truncatingIfNeeded: dst)
    let x = d &* (255 &- s.w) &+ 128
    let sum = s &+ ((x &+ (x &>> 8)) &>> 8)
    return SIMD4<UInt8>(truncatingIfNeeded: sum.replacing(with: 255, where: sum .> 255))
  }

  /// `src` (premultiplied, in [0, 1]) added to the stored `dst` (plus-lighter, blending in
  /// place) with the store's rounding and clamping: what a GL blend unit does with
  /// glBlendFunc(GL_ONE, GL_ONE) on an RGBA8 target.
  @inlinable @inline(__always)
  public static func add(_ src: SIMD4<Float>, onto dst: SIMD4<UInt8>) -> SIMD4<UInt8> {
    let d = SIMD4(Float(dst.x), Float(dst.y), Float(dst.z), Float(dst.w)) / 255
    return unorm8(src + d)
  }

  /// Float→unorm8: round to nearest (halves away from zero), clamp to [0, 255].
  @inlinable @inline(__always)
  public static func unorm8(_ c: SIMD4<Float>) -> SIMD4<UInt8> {
    // Clamp, then truncate v + 0.5: for v in [0, 255] that is round-half-up, without a libm call
    // (x86-64's baseline has no rounding instruction, so .rounded() is a function call per
    // channel in the hottest loop of the CPU backend).
    @inline(__always) func u8(_ x: Float) -> UInt8 {
      let v = x * 255
      // NaN fails `v > 0` and stores 0, as GL's conversion does; nothing here may trap.
      return UInt8(truncatingIfNeeded: Int32((v > 0 ? min(v, 255) : 0) + 0.5))
    }
    return SIMD4(u8(c.x), u8(c.y), u8(c.z), u8(c.w))
  }

  /// floor(t) for texel addressing, first clamped to [−1, size]: beyond that range the clamped
  /// texel indices no longer change, and both texels of a pair are the same edge texel, so the
  /// fraction does not matter. Keeps huge coordinates away from integer conversion.
  @inlinable @inline(__always)
  static func floor(_ t: Float, below size: Int) -> Float {
    let c = min(max(t, -1), Float(size))
    let i = Float(Int32(c))  // truncates toward zero
    return i > c ? i - 1 : i
  }
}
