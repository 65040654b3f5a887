import LayerKit

extension Image {
  /// The image made smaller by area averaging: each output pixel is the mean of the input
  /// pixels it covers, weighted by how much of each it covers (premultiplied, so edges against
  /// transparency stay clean). What a still is reduced to once before a Ken Burns move, so the
  /// move only ever magnifies it: no texture is minified (and none shimmers) while it zooms.
  /// - Returns: self when the size asked for is not smaller on both sides.
  public func areaScaled(width w: Int, height h: Int) -> Image {
    guard w > 0, h > 0, w <= width, h <= height, w < width || h < height else { return self }
    // Per axis, each output index's input span [a, b) in input pixels, and the weights.
    func spans(_ n: Int, _ m: Int) -> [(first: Int, weights: [Float])] {
      let step = Double(n) / Double(m)
      return (0..<m).map { o in
        let a = Double(o) * step
        let b = min(Double(o + 1) * step, Double(n))
        var weights: [Float] = []
        var i = Int(a)
        while Double(i) < b {
          let covered = min(Double(i + 1), b) - max(Double(i), a)
          weights.append(Float(covered / step))
          i += 1
        }
        return (Int(a), weights)
      }
    }
    let xs = spans(width, w)
    let ys = spans(height, h)
    // Rows first (input rows → output columns), then columns.
    var rows = [Float](repeating: 0, count: w * height * 4)
    pixels.withUnsafeBufferPointer { src in
      for y in 0..<height {
        for (ox, span) in xs.enumerated() {
          var acc = SIMD4<Float>.zero
          for (k, weight) in span.weights.enumerated() {
            let i = (y * width + span.first + k) * 4
            acc += SIMD4(Float(src[i]), Float(src[i + 1]), Float(src[i + 2]), Float(src[i + 3])) * weight
          }
          let o = (y * w + ox) * 4
          (rows[o], rows[o + 1], rows[o + 2], rows[o + 3]) = (acc.x, acc.y, acc.z, acc.w)
        }
      }
    }
    var out = [UInt8](repeating: 0, count: w * h * 4)
    for (oy, span) in ys.enumerated() {
      for x in 0..<w {
        var acc = SIMD4<Float>.zero
        for (k, weight) in span.weights.enumerated() {
          let i = ((span.first + k) * w + x) * 4
          acc += SIMD4(rows[i], rows[i + 1], rows[i + 2], rows[i + 3]) * weight
        }
        let o = (oy * w + x) * 4
        for c in 0..<4 { out[o + c] = UInt8(min(max(acc[c], 0), 255) + 0.5) }
      }
    }
    return (try? Image(width: w, height: h, pixels: out)) ?? self
  }
}
