import LayerKitRender

/// One draw's inputs, shared read-only by the threads.
struct DrawJob: @unchecked Sendable {
  let draw: Draw
  let target: SurfaceTarget
  let texels: SurfacePixels?
  let mask: SurfacePixels?
  let backdrop: SurfacePixels?
  let fastPaths: Bool

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
    let fill = fastPaths ? interior : nil
    path.withUnsafeBufferPointer { segments in
      draw.clips.withUnsafeBufferPointer { clips in
        for y in range {
          guard let fill, fill.rows.contains(y) else {
            pixels(b.x..<b.maxX, y, segments, clips)
            continue
          }
          pixels(b.x..<fill.columns.lowerBound, y, segments, clips)
          fillRow(fill.columns, y)
          pixels(fill.columns.upperBound..<b.maxX, y, segments, clips)
        }
      }
    }

    /// The general path: every step of the draw colour for each pixel of `xs` in row `y`.
    func pixels(
      _ xs: Range<Int>, _ y: Int, _ segments: UnsafeBufferPointer<SIMD4<Float>>, _ clips: UnsafeBufferPointer<Clip>
    ) {
      for x in xs {
        // The pixel centre, as gl_FragCoord (plus the surface origin) gives it.
        let p = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
        guard let lp = RenderMath.unproject(p, mapping) else { continue }
        var coverage =
          isPath
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
          color = texels!.sample(lp.q * t.scale + t.offset)
        }
        let src = color * (coverage * opacity)
        let i = target.index(x, y)
        let out: SIMD4<UInt8>
        if mode != .normal {
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

    /// The interior of a plain rectangle: coverage 1 there, so the colour is the paint × opacity
    /// for every pixel, computed once; an opaque one replaces the pixels, another blends.
    func fillRow(_ xs: Range<Int>, _ y: Int) {
      guard case .color(let c) = paint else { return }
      let coverage: Float = 1
      let src = c * (coverage * opacity)
      if src.w == 1 {
        let out = RenderMath.unorm8(src)
        for x in xs { target.store(target.index(x, y), out) }
      } else {
        for x in xs {
          let i = target.index(x, y)
          let dst = SIMD4(target.pixels[i], target.pixels[i + 1], target.pixels[i + 2], target.pixels[i + 3])
          target.store(i, RenderMath.blend(src, over: dst))
        }
      }
    }
  }

  /// Where a plain draw — a colour, source-over, no clip, mask, path, border or corner radius,
  /// its plane a translation of the target — covers its pixels wholly: the pixels whose centres
  /// lie at least 1.5 pixels inside every edge, so that the signed distance the general path
  /// computes is below −1 whatever its Float rounding, and coverage clamps to exactly 1.
  var interior: (columns: Range<Int>, rows: Range<Int>)? {
    let m = draw.mapping
    guard case .color = draw.paint, draw.blendMode == .normal, draw.clips.isEmpty, draw.mask == nil,
      draw.shape.path == nil, draw.shape.borderWidth == 0, draw.shape.rect.cornerRadius == 0, m.isAffine,
      m.toTarget.row0.x == 1, m.toTarget.row0.y == 0, m.toTarget.row1.x == 0, m.toTarget.row1.y == 1,
      m.fromTarget.row0.x == 1, m.fromTarget.row0.y == 0, m.fromTarget.row1.x == 0, m.fromTarget.row1.y == 1
    else { return nil }
    let r = draw.shape.rect.bounds
    // The rectangle in target pixels (the plane's translation), as Double, then inset.
    let x0 = Double(r.x) + Double(m.toTarget.row0.z)
    let y0 = Double(r.y) + Double(m.toTarget.row1.z)
    let x1 = Double(r.z) + Double(m.toTarget.row0.z)
    let y1 = Double(r.w) + Double(m.toTarget.row1.z)
    guard [x0, y0, x1, y1].allSatisfy({ $0.isFinite && abs($0) < 1e6 }) else { return nil }
    // Pixel i's centre is i + 0.5: it is 1.5 inside x0 when i ≥ x0 + 1.
    let b = draw.pixelBounds
    let (left, right) = (max(b.x, Int((x0 + 1).rounded(.up))), min(b.maxX, Int((x1 - 2).rounded(.down)) + 1))
    let (top, bottom) = (max(b.y, Int((y0 + 1).rounded(.up))), min(b.maxY, Int((y1 - 2).rounded(.down)) + 1))
    guard left < right, top < bottom else { return nil }
    return (left..<right, top..<bottom)
  }
}
