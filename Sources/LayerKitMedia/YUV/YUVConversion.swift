import Dispatch
import Foundation
import LayerKit

/// How the chroma planes of planar Y'CbCr are sampled.
public enum ChromaSubsampling: Sendable, Hashable, CustomStringConvertible {
  /// One Cb and one Cr sample per 2×2 block of pixels, sited at the block's centre (Y4M's
  /// `C420jpeg`, ffmpeg's `yuv420p` with chroma location "center"). Chroma planes are
  /// ⌈width / 2⌉ × ⌈height / 2⌉.
  case yuv420
  /// One Cb and one Cr sample per pixel (Y4M's `C444`, ffmpeg's `yuv444p`).
  case yuv444

  public var description: String {
    switch self {
    case .yuv420: "4:2:0"
    case .yuv444: "4:4:4"
    }
  }
}

/// The byte layout of one planar 8-bit Y'CbCr frame: the whole Y' plane (`width × height` bytes,
/// rows top-down), then the whole Cb plane, then the whole Cr plane (`chromaWidth × chromaHeight`
/// bytes each). This is the layout of a Y4M frame's payload and of ffmpeg's `rawvideo` in
/// `yuv420p` / `yuv444p`. Rows are tightly packed (no padding).
public struct YUVFrameLayout: Sendable, Hashable, CustomStringConvertible {
  public let width: Int
  public let height: Int
  public let chroma: ChromaSubsampling

  /// A layout for `width × height` pixels. Odd sizes are allowed here (Y4M files may have them;
  /// the chroma planes round up), but `YUVConversion` converts only even sizes to 4:2:0.
  /// - Precondition: `width > 0`, `height > 0` (readers check sizes before making a layout).
  public init(width: Int, height: Int, chroma: ChromaSubsampling) {
    precondition(width > 0 && height > 0, "YUVFrameLayout needs a positive size, got \(width)×\(height)")
    self.width = width
    self.height = height
    self.chroma = chroma
  }

  /// Width of the Cb and Cr planes: `width` for 4:4:4, ⌈width / 2⌉ for 4:2:0.
  public var chromaWidth: Int { chroma == .yuv444 ? width : (width + 1) / 2 }
  /// Height of the Cb and Cr planes: `height` for 4:4:4, ⌈height / 2⌉ for 4:2:0.
  public var chromaHeight: Int { chroma == .yuv444 ? height : (height + 1) / 2 }
  /// Bytes in the Y', Cb and Cr planes, in that order.
  public var planeSizes: (y: Int, cb: Int, cr: Int) {
    let c = chromaWidth * chromaHeight
    return (width * height, c, c)
  }
  /// Where each plane starts in a frame.
  public var planeOffsets: (y: Int, cb: Int, cr: Int) {
    let s = planeSizes
    return (0, s.y, s.y + s.cb)
  }
  /// Bytes in a whole frame: the three planes.
  public var byteCount: Int {
    let s = planeSizes
    return s.y + s.cb + s.cr
  }

  public var description: String { "\(width)×\(height) Y'CbCr \(chroma)" }
}

/// Premultiplied RGBA8 → planar 8-bit Y'CbCr, ITU-R BT.709 matrix, limited ("TV", "MPEG") range:
/// what video encoders are fed.
///
/// The conversion, per pixel, as real numbers:
/// 1. Composite over an opaque background `(R_bg, G_bg, B_bg)` (straight 8-bit RGB), premultiplied
///    "over": `R = r + R_bg · (255 − a) / 255`, likewise G and B. Video has no alpha.
/// 2. `E'_Y = 0.2126 R + 0.7152 G + 0.0722 B` (0…255), then
///    `Y' = 16 + 219 · E'_Y / 255`,
///    `Cb = 128 + 224 · (B − E'_Y) / (1.8556 · 255)`,
///    `Cr = 128 + 224 · (R − E'_Y) / (1.5748 · 255)`.
/// 3. Round to nearest (halves up) and clamp to 16…235 (Y') and 16…240 (Cb, Cr). Valid
///    premultiplied pixels (each colour channel ≤ alpha) land in those ranges anyway; only
///    invalid ones (colour above alpha) are clamped.
///
/// For 4:2:0 each chroma sample is step 2 applied to the mean R, G and B (after compositing) of
/// its 2×2 block, i.e. the mean of the block's four Cb (Cr) values before rounding: the sample is
/// centre-sited, as Y4M's `C420jpeg` declares.
///
/// **Exactness.** The code uses integers: `n = 255 · R` is exact (`255 r + R_bg (255 − a)`), and
/// each output is `(Σ k_c · n_c + offset + 2^(S−1)) >> S` with `S = 30` and the `k_c` the real
/// coefficients × 2^S rounded to integers (for 4:2:0 chroma, `n` summed over the block and
/// `S + 2`). The coefficients' rounding moves a result by less than 2 × 10⁻⁴ before the final
/// rounding, so every output equals the rounded real formula except, rarely, when the real value
/// lies within that distance of a half, where it may be 1 off; tests check "at most 1 off, and
/// almost always exact" over many random pixels. Neutral colours stay exactly neutral: the chroma
/// coefficients of each row sum to zero, so R = G = B gives Cb = Cr = 128.
///
/// **Speed.** Rows (row pairs for 4:2:0) are split into chunks run on all cores with
/// `DispatchQueue.concurrentPerform`; a 1920×1080 frame takes a few milliseconds in release
/// builds. Every function may be called from any thread.
public enum YUVConversion {
  /// An opaque background colour, straight 8-bit sRGB-encoded values (as stored, no gamma change).
  public typealias Background = (red: UInt8, green: UInt8, blue: UInt8)

  /// The layout `convert` writes for `image`.
  /// - Throws: `.oddSizeForChromaSubsampling` for 4:2:0 when the width or height is odd.
  public static func layout(for image: Image, chroma: ChromaSubsampling) throws(MediaError) -> YUVFrameLayout {
    if chroma == .yuv420 && (image.width % 2 != 0 || image.height % 2 != 0) {
      throw .oddSizeForChromaSubsampling(width: image.width, height: image.height)
    }
    return YUVFrameLayout(width: image.width, height: image.height, chroma: chroma)
  }

  /// Converts `image` into `buffer`: the Y' plane, then Cb, then Cr (see `YUVFrameLayout`).
  /// - Parameters:
  ///   - image: premultiplied RGBA8, rows top-down.
  ///   - background: the opaque colour translucent pixels are composited over.
  ///   - chroma: 4:2:0 (even sizes only) or 4:4:4.
  ///   - buffer: exactly `layout(for: image, chroma: chroma).byteCount` bytes; every byte is
  ///     written.
  /// - Throws: `.oddSizeForChromaSubsampling` (4:2:0, odd width or height),
  ///   `.bufferSizeMismatch` when `buffer` is not exactly the frame's size. Nothing is written
  ///   when it throws.
  public static func convert(
    _ image: Image, background: Background = (0, 0, 0), chroma: ChromaSubsampling,
    into buffer: UnsafeMutableRawBufferPointer
  ) throws(MediaError) {
    let layout = try layout(for: image, chroma: chroma)
    guard buffer.count == layout.byteCount, let base = buffer.baseAddress else {
      throw .bufferSizeMismatch(expected: layout.byteCount, actual: buffer.count)
    }
    let out = base.assumingMemoryBound(to: UInt8.self)
    let offsets = layout.planeOffsets
    let planes = Planes(y: out + offsets.y, cb: out + offsets.cb, cr: out + offsets.cr)
    let k = Coefficients(background)
    image.pixels.withUnsafeBufferPointer { pixels in
      let src = Source(pointer: pixels.baseAddress!)
      let w = image.width
      // Units of work: rows for 4:4:4, row pairs for 4:2:0 (a chroma row needs both).
      let units = chroma == .yuv444 ? image.height : image.height / 2
      // Below ~64K pixels the dispatch costs more than it saves.
      let chunks = w * image.height < 1 << 16 ? 1 : min(units, ProcessInfo.processInfo.activeProcessorCount * 4)
      let perChunk = (units + chunks - 1) / chunks
      let work = { @Sendable (chunk: Int) in
        let first = chunk * perChunk
        let last = min(units, first + perChunk)
        if first >= last { return }
        switch chroma {
        case .yuv444: convert444(src.pointer, width: w, rows: first..<last, planes: planes, k: k)
        case .yuv420: convert420(src.pointer, width: w, rowPairs: first..<last, planes: planes, k: k)
        }
      }
      if chunks == 1 {
        work(0)
      } else {
        DispatchQueue.concurrentPerform(iterations: chunks, execute: work)
      }
    }
  }

  /// Converts `image` (see `convert(_:background:chroma:into:)`) into a new array of
  /// `layout(for:chroma:).byteCount` bytes.
  /// - Throws: `.oddSizeForChromaSubsampling` (4:2:0, odd width or height).
  public static func convert(
    _ image: Image, background: Background = (0, 0, 0), chroma: ChromaSubsampling
  ) throws(MediaError) -> [UInt8] {
    let layout = try layout(for: image, chroma: chroma)
    var failure: MediaError?
    // Every byte is written (or, on failure, the array is dropped).
    let bytes = FrameMemory.bytes(count: layout.byteCount) { buffer in
      do throws(MediaError) {
        try convert(image, background: background, chroma: chroma, into: UnsafeMutableRawBufferPointer(buffer))
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return bytes
  }

  /// The inverse, for tests and tools: planar BT.709 limited-range Y'CbCr → opaque RGBA8.
  ///
  /// `R = 255 · (Y'n + 1.5748 Crn)`, `B = 255 · (Y'n + 1.8556 Cbn)`,
  /// `G = 255 · (Y'n − 0.2126 · 1.5748 Crn − 0.0722 · 1.8556 Cbn) / 0.7152`, with
  /// `Y'n = (Y' − 16) / 219`, `Cbn = (Cb − 128) / 224`, `Crn = (Cr − 128) / 224`; rounded and
  /// clamped to 0…255. 4:2:0 chroma is replicated over its 2×2 block (nearest neighbour).
  /// Converting an opaque image and back moves each channel by at most a few levels (the
  /// 8-bit Y'CbCr grid is coarser than RGB's, and 4:2:0 averages colour over blocks).
  /// - Throws: `.bufferSizeMismatch` when `planes` is not `layout.byteCount` bytes.
  public static func image(fromPlanes planes: [UInt8], layout: YUVFrameLayout) throws(MediaError) -> Image {
    guard planes.count == layout.byteCount else {
      throw .bufferSizeMismatch(expected: layout.byteCount, actual: planes.count)
    }
    let (w, h, cw) = (layout.width, layout.height, layout.chromaWidth)
    let offsets = layout.planeOffsets
    let shift = layout.chroma == .yuv420 ? 1 : 0
    var rgba = [UInt8](repeating: 255, count: w * h * 4)
    func level(_ v: Double) -> UInt8 { UInt8(min(max((v * 255).rounded(), 0), 255)) }
    for y in 0..<h {
      for x in 0..<w {
        let c = (y >> shift) * cw + (x >> shift)
        let yn = (Double(planes[offsets.y + y * w + x]) - 16) / 219
        let cbn = (Double(planes[offsets.cb + c]) - 128) / 224
        let crn = (Double(planes[offsets.cr + c]) - 128) / 224
        let r = yn + 1.5748 * crn
        let b = yn + 1.8556 * cbn
        let g = (yn - 0.2126 * r - 0.0722 * b) / 0.7152
        let i = (y * w + x) * 4
        rgba[i] = level(r)
        rgba[i + 1] = level(g)
        rgba[i + 2] = level(b)
      }
    }
    do {
      return try Image(width: w, height: h, pixels: rgba)
    } catch {
      // A YUVFrameLayout always has a positive size; only Image's size limits can refuse it.
      throw .tooLarge(path: "<memory>", width: w, height: h)
    }
  }

  // MARK: - Fixed point

  /// Fraction bits of the coefficients. With `n ≤ 2 · 255²` (the most an invalid premultiplied
  /// pixel can composite to) summed over 4 pixels and coefficients below 2^22, sums stay far
  /// inside Int (64-bit).
  static let shift = RenderMath.YCbCr420.shift

  /// Integer coefficients for `n = 255 · R` (etc.), see the type's documentation.
  struct Coefficients: Sendable {
    let yR, yG, yB: Int
    let cbR, cbG, cbB: Int
    let crR, crG, crB: Int
    /// The background's contribution per unit of `255 − a`.
    let bgR, bgG, bgB: Int

    /// The matrix's integers (RenderMath.YCbCr420.Coefficients, which the GPU's conversion
    /// shares) and the background's.
    init(_ background: Background) {
      let m = RenderMath.YCbCr420.Coefficients()
      (yR, yG, yB) = (m.yR, m.yG, m.yB)
      (cbR, cbG, cbB) = (m.cbR, m.cbG, m.cbB)
      (crR, crG, crB) = (m.crR, m.crG, m.crB)
      bgR = Int(background.red)
      bgG = Int(background.green)
      bgB = Int(background.blue)
    }
  }

  /// The input pixels, read (never written) by every worker chunk.
  struct Source: @unchecked Sendable {
    let pointer: UnsafePointer<UInt8>
  }

  /// Output plane bases; raw pointers handed to the worker chunks, which write disjoint rows.
  struct Planes: @unchecked Sendable {
    let y: UnsafeMutablePointer<UInt8>
    let cb: UnsafeMutablePointer<UInt8>
    let cr: UnsafeMutablePointer<UInt8>
  }

  @inline(__always)
  static func luma(_ sum: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: min(max(sum, 16), 235))
  }

  @inline(__always)
  static func chroma(_ sum: Int) -> UInt8 {
    UInt8(truncatingIfNeeded: min(max(sum, 16), 240))
  }

  /// `n = 255 · (c + bg · (255 − a) / 255) = 255 c + bg · (255 − a)` per channel: exact.
  @inline(__always)
  static func composite(_ p: UnsafePointer<UInt8>, _ k: Coefficients) -> (r: Int, g: Int, b: Int) {
    let inv = 255 &- Int(p[3])
    return (Int(p[0]) &* 255 &+ k.bgR &* inv, Int(p[1]) &* 255 &+ k.bgG &* inv, Int(p[2]) &* 255 &+ k.bgB &* inv)
  }

  static func convert444(
    _ src: UnsafePointer<UInt8>, width w: Int, rows: Range<Int>, planes: Planes, k: Coefficients
  ) {
    let s = shift
    let yOffset = 16 << s + 1 << (s - 1)
    let cOffset = 128 << s + 1 << (s - 1)
    for row in rows {
      var p = src + row * w * 4
      let yRow = planes.y + row * w
      let cbRow = planes.cb + row * w
      let crRow = planes.cr + row * w
      for x in 0..<w {
        let (r, g, b) = composite(p, k)
        yRow[x] = luma((k.yR &* r &+ k.yG &* g &+ k.yB &* b &+ yOffset) >> s)
        cbRow[x] = chroma((k.cbR &* r &+ k.cbG &* g &+ k.cbB &* b &+ cOffset) >> s)
        crRow[x] = chroma((k.crR &* r &+ k.crG &* g &+ k.crB &* b &+ cOffset) >> s)
        p += 4
      }
    }
  }

  static func convert420(
    _ src: UnsafePointer<UInt8>, width w: Int, rowPairs: Range<Int>, planes: Planes, k: Coefficients
  ) {
    let s = shift
    let yOffset = RenderMath.YCbCr420.Coefficients.yOffset
    // Chroma sums n over 4 pixels: 2 more fraction bits.
    let cOffset = RenderMath.YCbCr420.Coefficients.chromaOffset
    let cw = w / 2
    for pair in rowPairs {
      var top = src + 2 * pair * w * 4
      var bottom = top + w * 4
      let yTop = planes.y + 2 * pair * w
      let yBottom = yTop + w
      let cbRow = planes.cb + pair * cw
      let crRow = planes.cr + pair * cw
      for cx in 0..<cw {
        // The block's four pixels: (0,0) (1,0) on the top row, (0,1) (1,1) below.
        let a = composite(top, k)
        let b = composite(top + 4, k)
        let c = composite(bottom, k)
        let d = composite(bottom + 4, k)
        yTop[2 * cx] = luma((k.yR &* a.r &+ k.yG &* a.g &+ k.yB &* a.b &+ yOffset) >> s)
        yTop[2 * cx + 1] = luma((k.yR &* b.r &+ k.yG &* b.g &+ k.yB &* b.b &+ yOffset) >> s)
        yBottom[2 * cx] = luma((k.yR &* c.r &+ k.yG &* c.g &+ k.yB &* c.b &+ yOffset) >> s)
        yBottom[2 * cx + 1] = luma((k.yR &* d.r &+ k.yG &* d.g &+ k.yB &* d.b &+ yOffset) >> s)
        let sumR = a.r &+ b.r &+ c.r &+ d.r
        let sumG = a.g &+ b.g &+ c.g &+ d.g
        let sumB = a.b &+ b.b &+ c.b &+ d.b
        cbRow[cx] = chroma((k.cbR &* sumR &+ k.cbG &* sumG &+ k.cbB &* sumB &+ cOffset) >> (s + 2))
        crRow[cx] = chroma((k.crR &* sumR &+ k.crG &* sumG &+ k.crB &* sumB &+ cOffset) >> (s + 2))
        top += 8
        bottom += 8
      }
    }
  }
}
