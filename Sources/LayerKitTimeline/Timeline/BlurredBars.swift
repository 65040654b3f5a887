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
    /// A rectangle of the area (in its points) where the copy, drawn, is opaque: what lies under
    /// it there is hidden (a source-over of alpha 1 keeps none of it), with 2 points to spare.
    /// nil when there is none (a picture with transparency, an area a few σ wide).
    package var opaque: Rect?
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
    guard let made = try? Image(width: gw, height: gh, pixels: bytes) else {
      return Made(image: image, cell: SIMD2(0, 0), opaque: nil)
    }
    return Made(image: made, cell: cell, opaque: opaqueRect(bytes, width: gw, height: gh, cell: cell))
  }

  /// Where the grid drawn magnified is opaque: the cells of alpha 255 around the middle, as a
  /// rectangle of cells every one of which is 255 (an opaque picture's copy is the product of
  /// two ramps rising from the edges, so its corners are its least opaque cells), made a
  /// rectangle of points where each point's four nearest cells are in it, less 2 points.
  static func opaqueRect(_ bytes: [UInt8], width gw: Int, height gh: Int, cell: SIMD2<Double>) -> Rect? {
    func alpha(_ x: Int, _ y: Int) -> UInt8 { bytes[(y * gw + x) * 4 + 3] }
    let (mx, my) = (gw / 2, gh / 2)
    guard var c0 = (0..<gw).first(where: { alpha($0, my) == 255 }),
      var c1 = (0..<gw).last(where: { alpha($0, my) == 255 }),
      var r0 = (0..<gh).first(where: { alpha(mx, $0) == 255 }),
      var r1 = (0..<gh).last(where: { alpha(mx, $0) == 255 })
    else { return nil }
    func allOpaque() -> Bool {
      for y in r0...r1 {
        for x in c0...c1 where alpha(x, y) != 255 { return false }
      }
      return true
    }
    // A few cells in from the ramps' corners at most; anything else (holes) has no such rectangle.
    var tries = 0
    while c0 <= c1, r0 <= r1, !allOpaque() {
      tries += 1
      guard tries <= 4 else { return nil }
      (c0, c1, r0, r1) = (c0 + 1, c1 - 1, r0 + 1, r1 - 1)
    }
    guard c0 < c1, r0 < r1 else { return nil }
    // Texel k's centre lies at (k + 0.5 − 1) cells in the area (the grid starts a cell out);
    // whole points, so the strips' edges are exact.
    let x0 = ((Double(c0) - 0.5) * cell.x + 2).rounded(.up)
    let x1 = ((Double(c1) - 0.5) * cell.x - 2).rounded(.down)
    let y0 = ((Double(r0) - 0.5) * cell.y + 2).rounded(.up)
    let y1 = ((Double(r1) - 0.5) * cell.y - 2).rounded(.down)
    guard x1 > x0, y1 > y0 else { return nil }
    return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
