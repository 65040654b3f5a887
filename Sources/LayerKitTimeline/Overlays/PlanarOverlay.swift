import LayerKit
import LayerKitMedia
import LayerKitOutput

/// The image overlays of a timeline, drawn once over a transparent frame, laid over frames that
/// are at hand without a draw of their own (a clip's frames as decoded, crossfades mixed in the
/// output's planes): only the box the overlays cover is touched.
///
/// Laying a premultiplied picture over a frame is affine in RGB (out = o + (1 − α) · bg), and so
/// is the BT.709 limited-range conversion; so over Y'CbCr planes it is, per sample, out = keep ·
/// frame + add, with keep = 1 − α and add the picture's own contribution in the planes' values
/// (16α + 219 E'Y(o) / 255 for Y'; 128α + 224 (o_B − E'Y(o)) / (1.8556 · 255) for Cb, likewise
/// Cr). A 4:2:0 chroma sample takes the means over its 2 × 2 block, exact where α is the same
/// over the block (everywhere but the overlay's soft edges). Results round half up, as the
/// conversion does: within a level of drawing the overlay and converting.
struct PlanarOverlay: Sendable {
  /// The drawn overlays: premultiplied RGBA over a transparent frame.
  let picture: Image
  /// The pixels with any coverage: x0..<x1, y0..<y1, grown to whole chroma blocks.
  let box: (x0: Int, y0: Int, x1: Int, y1: Int)

  /// nil when the overlays cover no pixel.
  init?(picture: Image) {
    var (x0, y0, x1, y1) = (picture.width, picture.height, 0, 0)
    picture.pixels.withUnsafeBufferPointer { p in
      for y in 0..<picture.height {
        for x in 0..<picture.width where p[(y * picture.width + x) * 4 + 3] != 0 {
          (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x + 1), max(y1, y + 1))
        }
      }
    }
    guard x1 > x0, y1 > y0 else { return nil }
    self.picture = picture
    box = (x0 & ~1, y0 & ~1, min(picture.width, (x1 + 1) & ~1), min(picture.height, (y1 + 1) & ~1))
  }

  /// `frame` with the overlays over it (premultiplied RGBA): out = o + (1 − α) · frame, rounded.
  func over(_ frame: Image) throws -> Image {
    var pixels = frame.pixels
    let o = picture.pixels
    for y in box.y0..<box.y1 {
      for x in box.x0..<box.x1 {
        let i = (y * frame.width + x) * 4
        let keep = 255 - Int(o[i + 3])
        for c in 0..<4 { pixels[i + c] = UInt8(min(255, Int(o[i + c]) + (Int(pixels[i + c]) * keep + 127) / 255)) }
      }
    }
    return try Image(width: frame.width, height: frame.height, pixels: pixels)
  }

  /// Per pixel of the box, row by row: what stays of the frame (1 − α), and what the picture
  /// adds to Y', Cb and Cr. Worked out once; every frame only reads them.
  private var pixelTerms: [(keep: Double, y: Double, cb: Double, cr: Double)] {
    let o = picture.pixels
    let w = picture.width
    var terms: [(keep: Double, y: Double, cb: Double, cr: Double)] = []
    terms.reserveCapacity((box.x1 - box.x0) * (box.y1 - box.y0))
    for y in box.y0..<box.y1 {
      for x in box.x0..<box.x1 {
        let i = (y * w + x) * 4
        let (r, g, b, a) = (Double(o[i]), Double(o[i + 1]), Double(o[i + 2]), Double(o[i + 3]) / 255)
        let luma = 0.2126 * r + 0.7152 * g + 0.0722 * b
        terms.append(
          (
            1 - a, 16 * a + 219 * luma / 255, 128 * a + 224 * (b - luma) / (1.8556 * 255),
            128 * a + 224 * (r - luma) / (1.5748 * 255)
          ))
      }
    }
    return terms
  }

  /// The overlays laid over frames of one layout, their terms worked out once.
  struct Laid: Sendable {
    let box: (x0: Int, y0: Int, x1: Int, y1: Int)
    let layout: YUVFrameLayout
    /// Per pixel of the box: keep and Y' add.
    let luma: [(keep: Double, add: Double)]
    /// Per chroma sample of the box: keep, Cb add and Cr add (a 2 × 2 block's means for 4:2:0).
    let chroma: [(keep: Double, cb: Double, cr: Double)]

    /// `planes` with the overlays over them, faded to `opacity` (a copy: `lay` works in place).
    func over(_ planes: YUVPlanes, opacity: Double = 1) -> YUVPlanes {
      YUVPlanes(layout: layout) { out in
        planes.withUnsafeBytes { out.copyMemory(from: $0) }
        lay(over: out, opacity: opacity)
      }
    }

    /// Lays the overlays over the planes in `bytes` (of `layout`), faded to `opacity` (the
    /// picture's premultiplied values scaled by it: keep 1 − opacity · α, add opacity · add).
    func lay(over bytes: UnsafeMutableRawBufferPointer, opacity: Double = 1) {
      let o = min(max(opacity, 0), 1)
      func blend(_ v: UInt8, _ keep: Double, _ add: Double) -> UInt8 {
        let (k, a) = o == 1 ? (keep, add) : (1 - o * (1 - keep), o * add)
        return UInt8(min(max((Double(v) * k + a + 0.5).rounded(.down), 0), 255))
      }
      let bytes = bytes.bindMemory(to: UInt8.self)
      let (w, offsets, cw) = (layout.width, layout.planeOffsets, layout.chromaWidth)
      let boxWidth = box.x1 - box.x0
      for y in box.y0..<box.y1 {
        for x in box.x0..<box.x1 {
          let t = luma[(y - box.y0) * boxWidth + (x - box.x0)]
          bytes[y * w + x] = blend(bytes[y * w + x], t.keep, t.add)
        }
      }
      let step = layout.chroma == .yuv444 ? 1 : 2
      var n = 0
      for cy in stride(from: box.y0, to: box.y1, by: step) {
        for cx in stride(from: box.x0, to: box.x1, by: step) {
          let t = chroma[n]
          n += 1
          let j = (cy / step) * cw + cx / step
          bytes[offsets.cb + j] = blend(bytes[offsets.cb + j], t.keep, t.cb)
          bytes[offsets.cr + j] = blend(bytes[offsets.cr + j], t.keep, t.cr)
        }
      }
    }
  }

  /// The overlays ready to lay over frames of `layout` (of the picture's size).
  func laid(in layout: YUVFrameLayout) -> Laid {
    let terms = pixelTerms
    let boxWidth = box.x1 - box.x0
    let step = layout.chroma == .yuv444 ? 1 : 2
    var chroma: [(keep: Double, cb: Double, cr: Double)] = []
    for cy in stride(from: box.y0, to: box.y1, by: step) {
      for cx in stride(from: box.x0, to: box.x1, by: step) {
        var sum = (keep: 0.0, cb: 0.0, cr: 0.0)
        var n = 0.0
        for y in cy..<min(cy + step, box.y1) {
          for x in cx..<min(cx + step, box.x1) {
            let t = terms[(y - box.y0) * boxWidth + (x - box.x0)]
            sum = (sum.keep + t.keep, sum.cb + t.cb, sum.cr + t.cr)
            n += 1
          }
        }
        chroma.append((sum.keep / n, sum.cb / n, sum.cr / n))
      }
    }
    return Laid(box: box, layout: layout, luma: terms.map { ($0.keep, $0.y) }, chroma: chroma)
  }
}
