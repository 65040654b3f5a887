import LayerKitRender

/// One transition pass's inputs, shared read-only by the threads.
struct TransitionJob: @unchecked Sendable {
  let pass: TransitionPass
  let kernel: any CPUTransitionKernel
  let exactEnds: Bool
  /// The catalogue's shortcut of the effect (TransitionEffect.shortcut).
  let shortcut: TransitionShortcut?
  let parameters: ResolvedParameters
  let from: SurfacePixels
  let to: SurfacePixels
  let output: SurfaceTarget
  let size: SIMD2<Float>
  let fastPaths: Bool
  // Made once per pass (not per thread chunk), read by every row.
  /// The bilinear taps of the pixels' own uv.x, one per column (with the general path's operations).
  private(set) var columns: [RenderMath.BilinearTap] = []
  /// Columns whose tap is the texel itself (fraction 0, index the column's own): most of them.
  private(set) var exactColumns: [Bool] = []
  /// fade and dissolve: every byte pair's result (crossfadeTable).
  private(set) var crossfadeTable: [UInt16] = []
  private(set) var slideTaps: [(q: RenderMath.BilinearTap, r: RenderMath.BilinearTap, inside: Bool)] = []

  init(
    pass: TransitionPass, kernel: any CPUTransitionKernel, exactEnds: Bool, shortcut: TransitionShortcut?,
    parameters: ResolvedParameters, from: SurfacePixels, to: SurfacePixels,
    output: SurfaceTarget, size: SIMD2<Float>, fastPaths: Bool
  ) {
    self.pass = pass
    self.kernel = kernel
    self.exactEnds = exactEnds
    self.shortcut = shortcut
    self.parameters = parameters
    self.from = from
    self.to = to
    self.output = output
    self.size = size
    self.fastPaths = fastPaths
    let b = pass.bounds
    columns = (b.x..<b.maxX).map { RenderMath.BilinearTap(uv($0, b.y).x, size: b.width) }
    exactColumns = columns.enumerated().map { $0.element.f == 0 && $0.element.i0 == $0.offset }
    if crossfade { crossfadeTable = Self.crossfadeTable(pass.progress) }
    if let slide { slideTaps = slideColumns(slide) }
  }

  /// moveIn, push and reveal with their direction: each reads one surface at uv shifted by a
  /// constant, so the taps and the inside test split into a column part and a row part.
  var slide: (kind: TransitionShortcut.Slide, d: SIMD2<Float>)? {
    guard fastPaths, case .slide(let kind)? = shortcut, case .vec2(let d)? = parameters.value("direction")
    else { return nil }
    return (kind, d)
  }

  /// One row of moveIn, push or reveal: CPUEffects' formulas, each coordinate computed as there
  /// (q = uv ∓ d × …, one lane per axis), its taps and its half of `inside` once per column.
  func slideRow(_ y: Int, _ slide: (kind: TransitionShortcut.Slide, d: SIMD2<Float>), _ ownRow: RenderMath.BilinearTap)
  {
    let b = pass.bounds
    let rowQ = slideCoordinates(slide, uv(b.x, y))
    let qRow = RenderMath.BilinearTap(1 - rowQ.q.y, size: b.height)
    let rRow = slide.kind == .push ? RenderMath.BilinearTap(1 - rowQ.r.y, size: b.height) : ownRow
    let insideRow = rowQ.q.y >= 0 && rowQ.q.y <= 1
    // Which surface the shifted read takes, and which the other.
    let (shifted, other) = slide.kind.shiftsOldContent ? (from, to) : (to, from)
    slideTaps.withUnsafeBufferPointer { columns in
      for x in b.x..<b.maxX {
        let c = columns[x - b.x]
        let color = insideRow && c.inside ? shifted.sample(c.q, qRow) : other.sample(c.r, rRow)
        output.store(output.index(x, y), RenderMath.unorm8(color))
      }
    }
  }

  /// The column halves of `slideRow`: the taps of q.x and r.x and whether q.x lies in [0, 1].
  func slideColumns(_ slide: (kind: TransitionShortcut.Slide, d: SIMD2<Float>)) -> [(
    q: RenderMath.BilinearTap, r: RenderMath.BilinearTap, inside: Bool
  )] {
    let b = pass.bounds
    return (b.x..<b.maxX).map { x in
      let c = slideCoordinates(slide, uv(x, b.y))
      return (
        RenderMath.BilinearTap(c.q.x, size: b.width), RenderMath.BilinearTap(c.r.x, size: b.width),
        c.q.x >= 0 && c.q.x <= 1
      )
    }
  }

  /// The pixel's own uv (gl-transitions' convention, y up), as the general path computes it.
  @inline(__always) func uv(_ x: Int, _ y: Int) -> SIMD2<Float> {
    RenderMath.transitionUV(x, y, bounds: pass.bounds, size: size)
  }

  /// The slide's coordinates at uv (TransitionShortcut.Slide.coordinates).
  @inline(__always) func slideCoordinates(
    _ slide: (kind: TransitionShortcut.Slide, d: SIMD2<Float>), _ uv: SIMD2<Float>
  ) -> (
    q: SIMD2<Float>, r: SIMD2<Float>
  ) {
    slide.kind.coordinates(uv, direction: slide.d, progress: pass.progress)
  }

  /// RenderMath.unorm8(a + (b − a) × t) of every pair of bytes (a / 255, b / 255), at 256 × a + b.
  /// The low byte of an entry is the result; `safeEntry` is set where v = (a + (b − a) × t) × 255
  /// lies farther than `safeMargin` from every rounding boundary (v + 0.5 an integer), so that a
  /// value within that distance of v rounds to the same byte.
  static func crossfadeTable(_ t: Float) -> [UInt16] {
    [UInt16](unsafeUninitializedCapacity: 1 << 16) { table, count in
      for a in 0..<256 {
        let fa = Float(a) / 255
        for b in 0..<256 {
          let v = (fa + (Float(b) / 255 - fa) * t) * 255
          let byte = UInt16(truncatingIfNeeded: Int32((v > 0 ? min(v, 255) : 0) + 0.5))
          let g = (v + 0.5) - (v + 0.5).rounded(.down)
          table[a << 8 | b] = byte | (min(g, 1 - g) > safeMargin ? safeEntry : 0)
        }
      }
      count = 1 << 16
    }
  }

  static let safeEntry: UInt16 = 0x100
  /// 0.05 of a byte step: rows whose bilinear fraction is within `nearTexel` of 0 or 1 move a
  /// sample by at most 255 × nearTexel + 2e-4 (Float rounding included) = 0.0482 < 0.05.
  static let safeMargin: Float = 0.05
  static let nearTexel: Float = 1.88e-4

  /// One row of fade or dissolve inside (0, 1), a byte at a time over the runs of exact
  /// columns: each byte goes through the general path's Float operations in the same order —
  /// the texel c / 255, the row's bilinear c0 + (c1 − c0) × fy where its fraction is not 0,
  /// a + (b − a) × t, RenderMath.unorm8 — so the bytes are the same; the other columns take the
  /// general sample.
  func crossfadeRow(_ y: Int, row: RenderMath.BilinearTap) {
    let (exact, table) = (exactColumns, crossfadeTable)
    let b = pass.bounds
    let w = b.width
    let t = pass.progress
    let rowBytes = w * 4
    let a0 = from.texels.baseAddress! + row.i0 * rowBytes
    let a1 = from.texels.baseAddress! + row.i1 * rowBytes
    let z0 = to.texels.baseAddress! + row.i0 * rowBytes
    let z1 = to.texels.baseAddress! + row.i1 * rowBytes
    let out = output.pixels.baseAddress! + output.index(b.x, y)
    let fy = row.f
    @inline(__always) func one(_ pa0: UnsafePointer<UInt8>, _ pa1: UnsafePointer<UInt8>, _ k: Int) -> Float {
      let c0 = Float(pa0[k]) / 255
      return fy == 0 ? c0 : c0 + (Float(pa1[k]) / 255 - c0) * fy
    }
    var i = 0
    while i < w {
      guard exact[i] else {
        let a = from.sample(columns[i], row)
        let z = to.sample(columns[i], row)
        output.store(output.index(b.x + i, y), RenderMath.unorm8(a + (z - a) * t))
        i += 1
        continue
      }
      var end = i
      while end < w && exact[end] { end += 1 }
      // One byte at a time over the run: a loop of plain Float operations on raw pointers.
      if fy == 0 {
        // A row on texel centres: the byte depends on the two bytes alone, so the table of
        // every pair, made once with these operations, gives it.
        table.withUnsafeBufferPointer { table in
          for k in i * 4..<end * 4 { out[k] = UInt8(truncatingIfNeeded: table[Int(a0[k]) << 8 | Int(z0[k])]) }
        }
      } else if min(fy, 1 - fy) <= Self.nearTexel {
        // A row a hair's breadth off texel centres (uv.y's double flip loses a bit): its samples
        // lie within 255 × nearTexel of the nearer row's bytes, so where the table's value is
        // farther than that from a rounding boundary it is the byte; elsewhere, the operations.
        let (na, nz) = fy < 0.5 ? (a0, z0) : (a1, z1)
        table.withUnsafeBufferPointer { table in
          for k in i * 4..<end * 4 {
            let entry = table[Int(na[k]) << 8 | Int(nz[k])]
            if entry & Self.safeEntry != 0 {
              out[k] = UInt8(truncatingIfNeeded: entry)
            } else {
              let a = one(a0, a1, k)
              let v = (a + (one(z0, z1, k) - a) * t) * 255
              out[k] = UInt8(truncatingIfNeeded: Int32((v > 0 ? min(v, 255) : 0) + 0.5))
            }
          }
        }
      } else {
        for k in i * 4..<end * 4 {
          let a = one(a0, a1, k)
          let v = (a + (one(z0, z1, k) - a) * t) * 255
          out[k] = UInt8(truncatingIfNeeded: Int32((v > 0 ? min(v, 255) : 0) + 0.5))
        }
      }
      i = end
    }
  }

  /// fade or dissolve (the catalogue's `.crossfade`; exact ends are taken before it): the same
  /// crossfade, run through a byte-pair table.
  var crossfade: Bool {
    fastPaths && shortcut == .crossfade
  }

  func rows(_ range: Range<Int>) {
    let b = pass.bounds
    let fromEnd = exactEnds && pass.progress <= 0
    let toEnd = exactEnds && pass.progress >= 1
    let slide = self.slide
    let crossfade = self.crossfade
    for y in range {
      // The row taps of (uv.x, 1 − uv.y), where getFromColor / getToColor read the pixel's own
      // uv, with the operations the general path uses; the column taps are made once per pass.
      let row = RenderMath.BilinearTap(1 - uv(b.x, y).y, size: b.height)
      if fromEnd || toEnd {
        // TransitionEffect.exactEnds: the surfaces outright at the ends (as the GLSL host).
        let surface = fromEnd ? from : to
        for (i, x) in (b.x..<b.maxX).enumerated() {
          output.store(output.index(x, y), RenderMath.unorm8(surface.sample(columns[i], row)))
        }
      } else if crossfade {
        crossfadeRow(y, row: row)
      } else if let slide = slide {
        slideRow(y, slide, row)
      } else {
        kernel.shadeRow(y, job: self, row: row)
      }
    }
  }
}
