import LayerKit

/// A picture magnified and moved along the axes (a Ken Burns frame: scale and translation, no
/// rotation), computed in the output's Y'CbCr planes from the picture's full-resolution (4:4:4)
/// planes instead of drawn in RGBA and converted (`VideoFrame.deferred`).
///
/// Output sample (x, y) of a plane at `step` output pixels a sample (2 for 4:2:0 chroma) reads
/// the picture at I = (P · scale + offset) in its pixels, P the sample's centre in the frame
/// ((x + ½) · step), with the RGBA path's bilinear taps (`RenderMath.BilinearTap`: texel centres,
/// edges clamped) and the fractions in steps of 2⁻⁸. Bilinear interpolation and the BT.709
/// conversion being affine, that is the RGBA path converted to within a level per sample, but
/// for 4:2:0 chroma, read at its 2 × 2 block's centre rather than averaged over it (the two
/// differ by the picture's curvature there: nothing, for a magnified photo).
public struct PlanarZoom: Sendable {
  public let picture: YUVPlanes
  /// Frame pixels → picture pixels: I = P · scale + offset.
  public let scale: SIMD2<Double>
  public let offset: SIMD2<Double>

  /// nil unless `picture` is 4:4:4.
  public init?(picture: YUVPlanes, scale: SIMD2<Double>, offset: SIMD2<Double>) {
    guard picture.layout.chroma == .yuv444, scale.x.isFinite, scale.y.isFinite, offset.x.isFinite, offset.y.isFinite
    else { return nil }
    self.picture = picture
    self.scale = scale
    self.offset = offset
  }

  /// The frame in `layout`.
  public func planes(_ layout: YUVFrameLayout) -> YUVPlanes {
    YUVPlanes(layout: layout) { write(layout, into: $0) }
  }

  /// Writes the frame in `layout` into `buffer` (`layout.byteCount` bytes).
  ///
  /// Separably: each output row first blends its two source rows (over the columns its taps
  /// read) into a row of 16-bit sums, then each sample blends two of those. The sum of the four
  /// texels times their weights is the same integer either way round.
  public func write(_ layout: YUVFrameLayout, into buffer: UnsafeMutableRawBufferPointer) {
    let source = picture.layout
    let (sw, sh) = (source.width, source.height)
    let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    let step = layout.chroma == .yuv444 ? 1 : 2
    let targets = layout.planeOffsets
    // One spare sample past the end: a clamped tap (weight 0) may read it.
    var blended = [UInt16](repeating: 0, count: sw + 1)
    picture.withUnsafeBytes { raw in
      let src = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
      blended.withUnsafeMutableBufferPointer { row in
        let row = row.baseAddress!
        for plane in 0..<3 {
          let s = plane == 0 ? 1 : step
          let (ow, oh) = plane == 0 ? (layout.width, layout.height) : (layout.chromaWidth, layout.chromaHeight)
          let columns = Self.taps(count: ow, step: s, scale: scale.x, offset: offset.x, size: sw)
          let rows = Self.taps(count: oh, step: s, scale: scale.y, offset: offset.y, size: sh)
          // Each column as its first texel and the weight of the next (0 where both are one).
          let index = columns.map { Int32($0.i0) }
          let weight = columns.map { $0.i0 == $0.i1 ? 0 : UInt32($0.weight) }
          // The source columns any output sample reads.
          let first = columns.reduce(sw) { min($0, $1.i0) }
          let last = columns.reduce(0) { max($0, $1.i1) }
          let input = src + plane * sw * sh
          let target = out + [targets.y, targets.cb, targets.cr][plane]
          index.withUnsafeBufferPointer { index in
            weight.withUnsafeBufferPointer { weight in
              for y in 0..<oh {
                let tap = rows[y]
                let top = input + tap.i0 * sw
                let bottom = input + tap.i1 * sw
                let wy = tap.i0 == tap.i1 ? 0 : tap.weight
                let wt = 256 - wy
                for x in first...last { row[x] = UInt16(top[x]) &* wt &+ UInt16(bottom[x]) &* wy }
                let line = target + y * ow
                for x in 0..<ow {
                  let (i, w) = (Int(index[x]), weight[x])
                  let v = UInt32(row[i]) &* (256 &- w) &+ UInt32(row[i &+ 1]) &* w
                  line[x] = UInt8(truncatingIfNeeded: (v &+ 32768) >> 16)
                }
              }
            }
          }
        }
      }
    }
  }

  /// Along one axis, for each of `count` output samples `step` pixels apart: the two texels and
  /// the second's weight out of 256.
  static func taps(count: Int, step: Int, scale: Double, offset: Double, size: Int) -> [Tap] {
    (0..<count).map { n in
      let centre = (Double(n) + 0.5) * Double(step)
      let tap = RenderMath.BilinearTap(Float((centre * scale + offset) / Double(size)), size: size)
      return Tap(i0: tap.i0, i1: tap.i1, weight: UInt16((tap.f * 256).rounded()))
    }
  }

  struct Tap {
    var i0: Int
    var i1: Int
    var weight: UInt16
  }
}
