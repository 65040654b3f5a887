import LayerKitRender

/// One draw's inputs, shared read-only by the threads.
struct DrawJob: @unchecked Sendable {
  let draw: Draw
  let target: SurfaceTarget
  let texels: SurfacePixels?
  let mask: SurfacePixels?
  let backdrop: SurfacePixels?
  let fastPaths: Bool
  /// Where the draw covers pixels wholly (made once per draw, read by every row).
  private let interior: Interior?
  /// For a texture in the interior: the bilinear tap of each interior column, and whether the
  /// taps of consecutive columns read consecutive texels at fraction 0 (made once per draw).
  private let columnTaps: [RenderMath.BilinearTap]

  init(
    draw: Draw, target: SurfaceTarget, texels: SurfacePixels?, mask: SurfacePixels?, backdrop: SurfacePixels?,
    fastPaths: Bool
  ) {
    self.draw = draw
    self.target = target
    self.texels = texels
    self.mask = mask
    self.backdrop = backdrop
    self.fastPaths = fastPaths
    var interior = fastPaths ? Interior(draw) : nil
    var taps: [RenderMath.BilinearTap] = []
    // The nearest filter reads other texels than the interior's bilinear taps: the general path.
    if case .texture(_, let t) = draw.paint, t.nearest { interior = nil }
    if case .gradient = draw.paint { interior = nil }
    if let found = interior, case .texture(_, let t) = draw.paint, let texels {
      // The general path's operations for uv.x, at the interior's columns on its first row: with a
      // plane along the axes, the x coordinate does not depend on the row (0 × y adds exactly nothing).
      let y = Float(found.rows.lowerBound) + 0.5
      for x in found.columns.lowerBound..<found.columns.upperBound {
        guard let lp = RenderMath.unproject(SIMD2(Float(x) + 0.5, y), draw.mapping) else { break }
        let u = t.u(lp.q.x)
        guard abs(u) < 1e30 else { break }
        taps.append(RenderMath.BilinearTap(u, size: texels.bounds.width))
      }
      if taps.count != found.columns.count { interior = nil }
    }
    self.interior = interior
    columnTaps = taps
  }

  func rows(_ range: Range<Int>) {
    // Locals, not `draw.…` in the loop: the optimizer keeps them in registers and never touches
    // the clips array's reference count per pixel.
    let b = draw.pixelBounds
    let opacity = draw.opacity
    let mapping = draw.mapping
    let rect = draw.shape.rect
    let borderWidth = draw.shape.borderWidth
    let paint = draw.paint
    let maskTransform = draw.mask?.transform
    let mode = draw.blendMode
    let evenOdd = draw.shape.path?.evenOdd ?? false
    let path = draw.shape.path?.segments ?? []
    let isPath = draw.shape.path != nil
    // A Bool and the bounds, not the optional mask, in the loop: testing the optional against
    // nil copies it (retaining its bytes) for every pixel.
    let hasCoverage = draw.shape.coverage != nil
    let maskBounds = draw.shape.coverage?.bounds ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
    let fill = interior
    (draw.shape.coverage?.bytes ?? []).withUnsafeBufferPointer { maskBytes in
      path.withUnsafeBufferPointer { segments in
        draw.clips.withUnsafeBufferPointer { clips in
          for y in range {
            guard let fill, let columns = fill.columns(y) else {
              pixels(b.x..<b.maxX, y, segments, clips, maskBytes)
              continue
            }
            pixels(b.x..<columns.lowerBound, y, segments, clips, maskBytes)
            if !fillRow(columns, y) { pixels(columns, y, segments, clips, maskBytes) }
            pixels(columns.upperBound..<b.maxX, y, segments, clips, maskBytes)
          }
        }
      }
    }

    /// The general path: every step of the draw colour for each pixel of `xs` in row `y`.
    func pixels(
      _ xs: Range<Int>, _ y: Int, _ segments: UnsafeBufferPointer<SIMD4<Float>>, _ clips: UnsafeBufferPointer<Clip>,
      _ maskBytes: UnsafeBufferPointer<UInt8>
    ) {
      for x in xs {
        // The pixel centre, as gl_FragCoord (plus the surface origin) gives it.
        let p = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
        guard let lp = RenderMath.unproject(p, mapping) else { continue }
        var coverage =
          hasCoverage
          ? RenderMath.coverage(p, bytes: maskBytes, bounds: maskBounds)
          : isPath
            ? RenderMath.coverage(lp, segments: segments, evenOdd: evenOdd)
            : RenderMath.coverage(lp, rect, borderWidth: borderWidth)
        if coverage == 0 { continue }
        for clip in clips {
          coverage *= RenderMath.coverage(p, clip)
        }
        if let mask, let t = maskTransform {
          coverage *= mask.sample(p * t.scale + t.offset).w
        }
        if coverage == 0 { continue }
        let color: SIMD4<Float>
        switch paint {
        case .color(let c):
          color = c
        case .texture(_, let t):
          let uv = t.uv(lp.q)
          color = t.nearest ? texels!.sampleNearest(uv) : texels!.sample(uv)
        case .gradient(let g):
          color = RenderMath.gradientColor(lp.q, g)
        }
        let src = color * (coverage * opacity)
        let i = target.index(x, y)
        let out: SIMD4<UInt8>
        if mode == .plusLighter {
          let dst = SIMD4(target.pixels[i], target.pixels[i + 1], target.pixels[i + 2], target.pixels[i + 3])
          out = RenderMath.add(src, onto: dst)
        } else if mode != .normal {
          out = RenderMath.unorm8(RenderMath.composite(mode, src, backdrop!.texel(x, y)))
        } else if src.w == 1 {
          // An opaque source replaces the pixel: src + dst × 0 is src exactly.
          out = RenderMath.unorm8(src)
        } else {
          let dst = SIMD4(target.pixels[i], target.pixels[i + 1], target.pixels[i + 2], target.pixels[i + 3])
          out = RenderMath.blend(src, over: dst)
        }
        target.store(i, out)
      }
    }

    /// Pixels of the interior, where coverage is exactly 1: the paint × opacity, by the general
    /// path's operations less the coverage. A colour is computed once; a texture at a translation
    /// reads its column taps made once, and where it lands on whole texels (fraction 0) at full
    /// opacity an opaque texel is the pixel's byte for byte (c / 255 × 255 rounds back to c), so
    /// runs of them are copied. False for a row the general path must take (a coordinate that
    /// is not finite).
    func fillRow(_ xs: Range<Int>, _ y: Int) -> Bool {
      switch paint {
      case .color(let c):
        let coverage: Float = 1
        let src = c * (coverage * opacity)
        if src.w == 1 {
          let out = RenderMath.unorm8(src)
          for x in xs { target.store(target.index(x, y), out) }
        } else {
          for x in xs { put(src, x, y) }
        }
        return true
      case .texture(_, let t):
        let texels = texels!
        // The general path's uv.y, the same on every column (0 × x adds exactly nothing).
        guard let interior, let lp = RenderMath.unproject(SIMD2(Float(xs.lowerBound) + 0.5, Float(y) + 0.5), mapping)
        else { return false }
        let v = t.v(lp.q.y)
        guard abs(v) < 1e30 else { return false }
        let row = RenderMath.BilinearTap(v, size: texels.bounds.height)
        let first = interior.columns.lowerBound
        let copies = opacity == 1 && row.f == 0
        let rowBase = row.i0 * texels.bounds.width * 4
        var x = xs.lowerBound
        while x < xs.upperBound {
          let tap = columnTaps[x - first]
          if copies && tap.f == 0 {
            // A run of columns on consecutive whole texels: copied where every texel is opaque.
            var end = x + 1
            while end < xs.upperBound, columnTaps[end - first].f == 0,
              columnTaps[end - first].i0 == tap.i0 + (end - x)
            {
              end += 1
            }
            let source = texels.texels.baseAddress! + rowBase + tap.i0 * 4
            var opaque = true
            for k in 0..<(end - x) where source[k * 4 + 3] != 255 {
              opaque = false
              break
            }
            if opaque {
              (target.pixels.baseAddress! + target.index(x, y)).update(from: source, count: (end - x) * 4)
              x = end
              continue
            }
          }
          let coverage: Float = 1
          put(texels.sample(tap, row) * (coverage * opacity), x, y)
          x += 1
        }
        return true
      case .gradient:
        // Gradient draws have no interior (DrawJob.init): the general path.
        return false
      }
    }

    /// Source-over of `src` at (x, y), as the general path writes it.
    @inline(__always) func put(_ src: SIMD4<Float>, _ x: Int, _ y: Int) {
      let i = target.index(x, y)
      if src.w == 1 {
        target.store(i, RenderMath.unorm8(src))
      } else {
        let dst = SIMD4(target.pixels[i], target.pixels[i + 1], target.pixels[i + 2], target.pixels[i + 3])
        target.store(i, RenderMath.blend(src, over: dst))
      }
    }
  }
}

/// Where a plain draw covers its pixels wholly: a colour or a texture, source-over, no mask, path
/// or border, its plane and its clips scaled and moved along the axes only, no clip rounded. The pixels
/// whose centres lie at least 1.5 pixels inside every edge of the rectangle and of each clip —
/// and, beside a rounded corner, inside the straight part of the edge — so that the signed
/// distance the general path computes is below −1 whatever its Float rounding, and coverage
/// clamps to exactly 1 for each.
struct Interior {
  /// Rows and columns away from the corners (the whole interior of a square-cornered rectangle).
  let rows: Range<Int>
  let columns: Range<Int>
  /// Rows beside the corners' arcs, where only the columns between the arcs are inside.
  let cornerRows: Range<Int>
  let cornerColumns: Range<Int>

  /// The interior's columns on row y, if any.
  @inline(__always) func columns(_ y: Int) -> Range<Int>? {
    if rows.contains(y) { return columns.isEmpty ? nil : columns }
    return cornerRows.contains(y) && !cornerColumns.isEmpty ? cornerColumns : nil
  }

  init?(_ draw: Draw) {
    guard draw.blendMode == .normal, draw.mask == nil, draw.shape.path == nil, draw.shape.coverage == nil,
      draw.shape.borderWidth == 0,
      let plane = Interior.axisAligned(draw.mapping)
    else { return nil }
    // The rectangle in target pixels (the plane's scale and translation), as Double.
    var box = plane.box(draw.shape.rect.bounds)
    let half = min(box.x1 - box.x0, box.y1 - box.y0) / 2
    // A continuous corner bends over `continuousExtent` radii: its region is that much larger.
    let continuous = draw.shape.rect.corners & RoundedRect.continuous != 0
    let reach = Double(draw.shape.rect.cornerRadius) * (continuous ? Double(RoundedRect.continuousExtent) : 1)
    let radius = min(max(reach, 0), max(half, 0))
    for clip in draw.clips {
      guard clip.rect.cornerRadius <= 0, let o = Interior.axisAligned(clip.mapping) else { return nil }
      let c = o.box(clip.rect.bounds)
      box = (max(box.x0, c.x0), max(box.y0, c.y0), min(box.x1, c.x1), min(box.y1, c.y1))
    }
    guard [box.x0, box.y0, box.x1, box.y1, radius].allSatisfy({ $0.isFinite && abs($0) < 1e6 }) else { return nil }
    let b = draw.pixelBounds
    // Pixel i's centre is i + 0.5: it is `inset` inside a low edge e when i ≥ e + inset − 0.5, and
    // inside a high edge e when i ≤ e − inset − 0.5.
    func span(_ lo: Double, _ hi: Double, inset: Double, within bounds: Range<Int>) -> Range<Int> {
      let first = max(bounds.lowerBound, Int((lo + inset - 0.5).rounded(.up)))
      let last = min(bounds.upperBound - 1, Int((hi - inset - 0.5).rounded(.down)))
      return first <= last ? first..<(last + 1) : bounds.lowerBound..<bounds.lowerBound
    }
    let xs = b.x..<b.maxX
    let ys = b.y..<b.maxY
    // Beside the corners, the general path's corner case starts where the arc does: one more
    // pixel of margin keeps every interior pixel clear of it.
    let arc = radius > 0 ? radius + 1 : 0
    rows = span(box.y0 + arc, box.y1 - arc, inset: 1.5, within: ys)
    columns = span(box.x0, box.x1, inset: 1.5, within: xs)
    cornerRows = span(box.y0, box.y1, inset: 1.5, within: ys)
    cornerColumns = arc > 0 ? span(box.x0 + arc, box.x1 - arc, inset: 1.5, within: xs) : columns
    if rows.isEmpty && (cornerRows.isEmpty || cornerColumns.isEmpty) { return nil }
  }

  /// A plane whose matrices scale and translate along the axes only (no rotation, shear or
  /// perspective): every off-diagonal entry is exactly 0, so a pixel's local x depends on its
  /// column alone and its y on its row alone (0 × the other coordinate adds exactly nothing) —
  /// what the interior's per-column and per-row taps rely on.
  struct AxisAligned {
    var scale: (x: Double, y: Double)
    var offset: (x: Double, y: Double)

    /// A local rectangle (minX, minY, maxX, maxY) in target pixels.
    func box(_ r: SIMD4<Float>) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
      let xs = (Double(r.x) * scale.x + offset.x, Double(r.z) * scale.x + offset.x)
      let ys = (Double(r.y) * scale.y + offset.y, Double(r.w) * scale.y + offset.y)
      return (min(xs.0, xs.1), min(ys.0, ys.1), max(xs.0, xs.1), max(ys.0, ys.1))
    }
  }

  static func axisAligned(_ m: PlaneMapping) -> AxisAligned? {
    let (t, f) = (m.toTarget, m.fromTarget)
    guard m.isAffine, t.row0.y == 0, t.row1.x == 0, f.row0.y == 0, f.row1.x == 0, t.row0.x != 0, t.row1.y != 0
    else { return nil }
    return AxisAligned(
      scale: (Double(t.row0.x), Double(t.row1.y)), offset: (Double(t.row0.z), Double(t.row1.z)))
  }

}
