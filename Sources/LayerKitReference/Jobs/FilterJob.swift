import LayerKitRender

/// One filter pass's inputs, shared read-only by the threads.
struct FilterJob: @unchecked Sendable {
  let pass: FilterPass
  let input: SurfacePixels
  /// For a blur: the input's texels as floats (byte / 255), row-major over the input's bounds.
  let floats: UnsafeBufferPointer<SIMD4<Float>>
  let output: SurfaceTarget

  func rows(_ range: Range<Int>) {
    let b = pass.bounds
    switch pass.operation {
    case .blur(let axis, let weights):
      let r = weights.count - 1
      let (dx, dy) = axis == .horizontal ? (1, 0) : (0, 1)
      let ib = input.bounds
      // Texel step along the axis.
      let step = dx + dy * ib.width
      let t = floats.baseAddress!
      /// `input.texel(x, y)` from the floats: transparent outside the input.
      @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let lx = x - ib.x
        let ly = y - ib.y
        guard lx >= 0, ly >= 0, lx < ib.width, ly < ib.height else { return .zero }
        return t[ly * ib.width + lx]
      }
      weights.withUnsafeBufferPointer { w in
        for y in range {
          for x in b.x..<b.maxX {
            var acc = SIMD4<Float>.zero
            // Local texel of the first tap, and whether every tap lies inside the input.
            let fx = x - r * dx - ib.x
            let fy = y - r * dy - ib.y
            let lx = fx + 2 * r * dx
            let ly = fy + 2 * r * dy
            if fx >= 0 && fy >= 0 && lx < ib.width && ly < ib.height {
              // The same sum without bounds checks, in the same order i = −r … r.
              var k = fy * ib.width + fx
              for i in -r...r {
                acc += w[abs(i)] * t[k]
                k += step
              }
            } else {
              for i in -r...r {
                acc += w[abs(i)] * texel(x + i * dx, y + i * dy)
              }
            }
            output.store(output.index(x, y), RenderMath.unorm8(acc))
          }
        }
      }
    case .colorMatrix(let m):
      for y in range {
        for x in b.x..<b.maxX {
          output.store(output.index(x, y), RenderMath.unorm8(RenderMath.applyColorMatrix(m, input.texel(x, y))))
        }
      }
    case .tint(let c):
      for y in range {
        for x in b.x..<b.maxX {
          output.store(output.index(x, y), RenderMath.unorm8(RenderMath.tint(c, input.texel(x, y))))
        }
      }
    }
  }
}
