import LayerKit

/// contain-blur's blurred copy, made on the CPU as a small picture that both backends only draw
/// (so the GPU and the CPU show the same bars by construction), at a cost that does not grow with
/// the blur: the picture stretched over the area is averaged into cells about σ / 4 wide, the
/// cells are blurred by the rest of the Gaussian (about 4 cells), and the backend's bilinear
/// magnification draws them over the area. A still's copy is made once and kept
/// (`cache`, keyed by the picture's identity, the area and σ), so its frames reuse it.
///
/// What it stands for is the long way (`Fit.bars(…, once: false)`): the picture stretched over
/// the area and blurred by a Gaussian of σ pixels, reading transparency outside the area — so
/// the copy thins out within a few σ of the area's edges, where the sharp copy under it shows.
/// The grid reaches one cell past the area on every side, so the magnification interpolates
/// across the edge instead of holding the last cell.
package enum BlurredBars {
  /// The blurred copy: `image` drawn stretched over the area grown by `cell` on every side.
  package struct Made: Sendable {
    package var image: Image
    /// One cell's width and height, in the area's points.
    package var cell: SIMD2<Double>
  }

  /// What a copy depends on: the picture's pixels (their identity), the area and the blur.
  struct Key: Hashable {
    var image: UInt64
    var width: Double
    var height: Double
    var sigma: Double
  }

  /// At most this many copies are kept, the least recently used dropped first.
  static let cacheEntries = 16
  /// And at most this many bytes of them.
  static let cacheBytes = 32 << 20

  private struct Cache {
    var entries: [Key: (made: Made, used: UInt64)] = [:]
    var tick: UInt64 = 0
    var bytes = 0
    /// Copies made (not found), for tests.
    var made = 0
  }
  private static let cache = Locked(Cache())

  /// How many copies were made rather than found in the cache, for tests.
  package static var madeCount: Int { cache.withLock { $0.made } }
  /// How many copies the cache holds, for tests.
  package static var cachedCount: Int { cache.withLock { $0.entries.count } }

  /// The cells a σ is made of: about σ / 4 points, so the Gaussian left on the grid has σ ≈ 4
  /// cells — enough for the magnification to interpolate it within a level of 8 bits.
  static func cellSize(sigma: Double) -> Double { max(1, (sigma / 4).rounded(.down)) }

  /// `image` stretched over `width`×`height` points and blurred by a Gaussian of `sigma` points:
  /// found in the cache, or made and kept.
  package static func made(_ image: Image, width: Double, height: Double, sigma: Double) -> Made {
    let key = Key(image: image.id, width: width, height: height, sigma: sigma)
    if let found = cache.withLock({ c -> Made? in
      guard let entry = c.entries[key] else { return nil }
      c.tick += 1
      c.entries[key]?.used = c.tick
      return entry.made
    }) {
      return found
    }
    let made = make(image, width: width, height: height, sigma: sigma)
    cache.withLock { c in
      c.made += 1
      c.tick += 1
      if let old = c.entries.updateValue((made, c.tick), forKey: key) { c.bytes -= old.made.image.pixels.count }
      c.bytes += made.image.pixels.count
      while c.entries.count > cacheEntries || (c.bytes > cacheBytes && c.entries.count > 1) {
        guard let oldest = c.entries.min(by: { $0.value.used < $1.value.used }) else { break }
        c.bytes -= oldest.value.made.image.pixels.count
        c.entries[oldest.key] = nil
      }
    }
    return made
  }

  /// Per axis, each cell's span of input pixels [first, …) and their weights, for `n` input
  /// pixels stretched over `length` points of `m` cells: the mean, over the pixel centres inside
  /// the cell, of the input sampled there as a backend draws it stretched (linear between pixel
  /// centres, held at the ends). So a cell of one pixel is the pixel the long way blurs.
  private static func spans(_ n: Int, over length: Double, cells m: Int) -> [(first: Int, weights: [Float])] {
    let cell = length / Double(m)
    let pixels = max(1, Int(length.rounded()))
    let step = Double(n) / length
    var spans: [(first: Int, weights: [Float])] = []
    var x = 0
    for o in 0..<m {
      let end = o == m - 1 ? pixels : min(pixels, Int((Double(o + 1) * cell - 0.5).rounded(.up)))
      var weights: [Int: Double] = [:]
      var count = 0
      // Each cell holds at least one centre: the nearest to its middle when none lies in it.
      let centres = x < end ? Array(x..<end) : [min(pixels - 1, Int((Double(o) + 0.5) * cell))]
      for p in centres {
        let u = (Double(p) + 0.5) * step - 0.5
        let i0 = Int(u.rounded(.down))
        let t = u - Double(i0)
        weights[min(max(i0, 0), n - 1), default: 0] += 1 - t
        weights[min(max(i0 + 1, 0), n - 1), default: 0] += t
        count += 1
      }
      x = max(x, end)
      let first = weights.keys.min() ?? 0
      let last = weights.keys.max() ?? 0
      spans.append((first, (first...last).map { Float((weights[$0] ?? 0) / Double(count)) }))
    }
    return spans
  }

  static func make(_ image: Image, width w: Double, height h: Double, sigma: Double) -> Made {
    let size = cellSize(sigma: sigma)
    let nx = max(1, Int((w / size).rounded()))
    let ny = max(1, Int((h / size).rounded()))
    let cell = SIMD2(w / Double(nx), h / Double(ny))
    // The Gaussian left for the grid: the cells' averaging and the magnification's interpolation
    // add about a quarter of a cell's square to the variance (nothing for cells of one pixel).
    let sx = (max(sigma * sigma - (cell.x * cell.x - 1) / 4, 0.01)).squareRoot() / cell.x
    let sy = (max(sigma * sigma - (cell.y * cell.y - 1) / 4, 0.01)).squareRoot() / cell.y
    let (iw, ih) = (image.width, image.height)

    // 1. The picture stretched and averaged into nx × ny cells: rows first (input rows → cells
    //    across), then columns.
    let xs = spans(iw, over: w, cells: nx)
    let ys = spans(ih, over: h, cells: ny)
    var across = [SIMD4<Float>](repeating: .zero, count: nx * ih)
    image.pixels.withUnsafeBufferPointer { src in
      across.withUnsafeMutableBufferPointer { out in
        for y in 0..<ih {
          let row = y * iw
          for (ox, span) in xs.enumerated() {
            var acc = SIMD4<Float>.zero
            var i = (row + span.first) * 4
            for weight in span.weights {
              acc += SIMD4(Float(src[i]), Float(src[i + 1]), Float(src[i + 2]), Float(src[i + 3])) * weight
              i += 4
            }
            out[y * nx + ox] = acc
          }
        }
      }
    }
    var cells = [SIMD4<Float>](repeating: .zero, count: nx * ny)
    across.withUnsafeBufferPointer { src in
      cells.withUnsafeMutableBufferPointer { out in
        for (oy, span) in ys.enumerated() {
          for (k, weight) in span.weights.enumerated() {
            let row = (span.first + k) * nx
            for x in 0..<nx { out[oy * nx + x] += src[row + x] * weight }
          }
        }
      }
    }

    // 2. The Gaussian on the grid, transparent outside it, evaluated on the grid grown by one
    //    cell on every side: across, then down.
    let (gw, gh) = (nx + 2, ny + 2)
    let wx = RenderMath.gaussianWeights(sigma: sx)
    let wy = RenderMath.gaussianWeights(sigma: sy)
    var blurredAcross = [SIMD4<Float>](repeating: .zero, count: gw * ny)
    cells.withUnsafeBufferPointer { src in
      blurredAcross.withUnsafeMutableBufferPointer { out in
        let r = wx.count - 1
        for y in 0..<ny {
          for gx in 0..<gw {
            let x = gx - 1
            let lo = max(-r, -x)
            let hi = min(r, nx - 1 - x)
            var acc = SIMD4<Float>.zero
            if lo <= hi {
              for i in lo...hi { acc += src[y * nx + x + i] * wx[abs(i)] }
            }
            out[y * gw + gx] = acc
          }
        }
      }
    }
    var bytes = [UInt8](repeating: 0, count: gw * gh * 4)
    blurredAcross.withUnsafeBufferPointer { src in
      bytes.withUnsafeMutableBufferPointer { out in
        let r = wy.count - 1
        for gy in 0..<gh {
          let y = gy - 1
          let lo = max(-r, -y)
          let hi = min(r, ny - 1 - y)
          for gx in 0..<gw {
            var acc = SIMD4<Float>.zero
            if lo <= hi {
              for i in lo...hi { acc += src[(y + i) * gw + gx] * wy[abs(i)] }
            }
            let o = (gy * gw + gx) * 4
            for c in 0..<4 { out[o + c] = UInt8(min(max(acc[c], 0), 255) + 0.5) }
          }
        }
      }
    }
    // The size is at most the area's (in pixels) plus two cells, within the image limits the
    // area's own picture keeps.
    let made = (try? Image(width: gw, height: gh, pixels: bytes)) ?? image
    return Made(image: made, cell: cell)
  }
}
