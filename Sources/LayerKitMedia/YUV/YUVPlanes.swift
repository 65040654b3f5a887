import Dispatch
import Foundation
import LayerKit
import Synchronization

/// One frame of planar 8-bit Y'CbCr (BT.709, limited range) in a `YUVFrameLayout`: what a clip
/// decodes to when its frames go to a Y'CbCr output as they are, and what a Y'CbCr sink writes.
/// Immutable; each one made gets a fresh `id` (as `Image` does), so a frame repeated is known.
public struct YUVPlanes: Sendable {
  public let layout: YUVFrameLayout
  /// `layout.byteCount` bytes: the Y' plane, then Cb, then Cr.
  let storage: FrameBuffer
  public let id: UInt64

  /// Planes filled by `initialize`, which writes every byte of its buffer (`layout.byteCount`);
  /// the memory is recycled from frames of the same size let go before (`FrameBuffer`).
  public init(layout: YUVFrameLayout, initialize: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
    let storage = FrameBuffer.make(count: layout.byteCount)
    try initialize(UnsafeMutableRawBufferPointer(start: storage.pointer, count: storage.count))
    self.layout = layout
    self.storage = storage
    id = nextPlanesID.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// A copy of `bytes`.
  /// - Throws: `.bufferSizeMismatch` when `bytes` is not `layout.byteCount` long.
  public init(layout: YUVFrameLayout, bytes: [UInt8]) throws(MediaError) {
    guard bytes.count == layout.byteCount else {
      throw .bufferSizeMismatch(expected: layout.byteCount, actual: bytes.count)
    }
    self.init(layout: layout) { buffer in bytes.withUnsafeBytes { buffer.copyMemory(from: $0) } }
  }

  /// `image` converted (`YUVConversion.convert`, over `background`).
  /// - Throws: `.oddSizeForChromaSubsampling` for 4:2:0 with an odd side.
  public init(_ image: Image, chroma: ChromaSubsampling, background: YUVConversion.Background = (0, 0, 0))
    throws(MediaError)
  {
    let layout = try YUVConversion.layout(for: image, chroma: chroma)
    do {
      try self.init(layout: layout) {
        try YUVConversion.convert(image, background: background, chroma: chroma, into: $0)
      }
    } catch let error as MediaError {
      throw error
    } catch {
      throw .bufferSizeMismatch(expected: layout.byteCount, actual: 0)
    }
  }

  /// The bytes, for the duration of `body`.
  public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try withExtendedLifetime(storage) {
      try body(UnsafeRawBufferPointer(start: storage.pointer, count: storage.count))
    }
  }

  /// The bytes as a new array.
  public var bytes: [UInt8] { withUnsafeBytes { [UInt8]($0) } }

  /// The frame as opaque RGBA: `YUVConversion.image(fromPlanes:layout:)`'s formula (4:2:0 chroma
  /// replicated over its block), at most 1 off it in G (tables of Double terms summed in another
  /// order), fast enough for every frame of a video: the rows run on all cores.
  /// - Throws: `.tooLarge` for a size `Image` refuses (a layout made from a clip or an image of an
  ///   accepted size never is).
  public func image() throws(MediaError) -> Image {
    let (w, h, cw) = (layout.width, layout.height, layout.chromaWidth)
    let shift = layout.chroma == .yuv420 ? 1 : 0
    let offsets = layout.planeOffsets
    let tables = YUVPlanes.inverseTables
    let pixels = FrameMemory.bytes(count: w * h * 4) { out in
      let target = RowTarget(pointer: out.baseAddress!)
      withUnsafeBytes { src in
        let planes = RowSource(pointer: src.baseAddress!.assumingMemoryBound(to: UInt8.self))
        let chunks = min(ProcessInfo.processInfo.activeProcessorCount, h)
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
          let yp = planes.pointer + offsets.y
          let cbp = planes.pointer + offsets.cb
          let crp = planes.pointer + offsets.cr
          for y in (h * c / chunks)..<(h * (c + 1) / chunks) {
            var o = target.pointer + y * w * 4
            let chromaRow = (y >> shift) * cw
            for x in 0..<w {
              let luma = Int(yp[y * w + x])
              let cb = Int(cbp[chromaRow + (x >> shift)])
              let cr = Int(crp[chromaRow + (x >> shift)])
              o[0] = tables.red[luma << 8 | cr]
              o[1] = YUVPlanes.level(tables.greenY[luma] + tables.greenCb[cb] + tables.greenCr[cr])
              o[2] = tables.blue[luma << 8 | cb]
              o[3] = 255
              o += 4
            }
          }
        }
      }
    }
    do {
      return try Image(width: w, height: h, pixels: pixels)
    } catch {
      throw .tooLarge(path: "<planes>", width: w, height: h)
    }
  }

  /// The same frame at full chroma resolution (4:4:4): 4:2:0 chroma samples repeated over their
  /// 2 × 2 blocks, as `image()` repeats them; a 4:4:4 frame as it is.
  public func fullResolution() -> YUVPlanes {
    guard layout.chroma == .yuv420 else { return self }
    let (w, h, cw) = (layout.width, layout.height, layout.chromaWidth)
    let full = YUVFrameLayout(width: w, height: h, chroma: .yuv444)
    let offsets = layout.planeOffsets
    return YUVPlanes(layout: full) { out in
      let o = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
      withUnsafeBytes { src in
        let s = src.baseAddress!.assumingMemoryBound(to: UInt8.self)
        o.update(from: s, count: w * h)
        for (plane, offset) in [(1, offsets.cb), (2, offsets.cr)] {
          let target = o + plane * w * h
          for y in 0..<h {
            let row = s + offset + (y >> 1) * cw
            let line = target + y * w
            for x in 0..<w { line[x] = row[x >> 1] }
          }
        }
      }
    }
  }

  /// A 4:4:4 frame with its chroma halved each way (4:2:0): each chroma sample the mean of its
  /// 2 × 2 block (of the samples inside the frame), rounded half up — centre-sited, as
  /// `YUVConversion` makes 4:2:0 (which means before rounding: the two agree within a level).
  /// Another layout is returned as it is.
  public func chromaHalved() -> YUVPlanes {
    guard layout.chroma == .yuv444 else { return self }
    let (w, h) = (layout.width, layout.height)
    let half = YUVFrameLayout(width: w, height: h, chroma: .yuv420)
    let (cw, ch, offsets) = (half.chromaWidth, half.chromaHeight, half.planeOffsets)
    return YUVPlanes(layout: half) { out in
      let o = out.baseAddress!.assumingMemoryBound(to: UInt8.self)
      withUnsafeBytes { src in
        let s = src.baseAddress!.assumingMemoryBound(to: UInt8.self)
        o.update(from: s, count: w * h)
        for (plane, offset) in [(1, offsets.cb), (2, offsets.cr)] {
          let input = s + plane * w * h
          for cy in 0..<ch {
            let (y0, y1) = (2 * cy, min(2 * cy + 1, h - 1))
            for cx in 0..<cw {
              let (x0, x1) = (2 * cx, min(2 * cx + 1, w - 1))
              let sum =
                Int(input[y0 * w + x0]) + Int(input[y0 * w + x1]) + Int(input[y1 * w + x0]) + Int(input[y1 * w + x1])
              o[offset + cy * cw + cx] = UInt8((sum + 2) >> 2)
            }
          }
        }
      }
    }
  }

  /// `a + (b − a) × t` byte by byte over every plane, rounded (t in [0, 1], in steps of 2⁻¹⁶), into
  /// `buffer` (`a.layout.byteCount` bytes): a crossfade computed in the output's format. For opaque
  /// frames it is the RGBA crossfade then converted, within one level (the conversion is affine;
  /// only the roundings differ), and exactly `a` at t = 0 and `b` at t = 1.
  /// - Precondition: both frames have the same layout, and `buffer` is its size.
  public static func crossfade(
    _ a: YUVPlanes, _ b: YUVPlanes, progress t: Double, into buffer: UnsafeMutableRawBufferPointer
  ) {
    precondition(a.layout == b.layout && buffer.count == a.layout.byteCount)
    let weight = UInt32((min(max(t, 0), 1) * 65536).rounded())
    let count = buffer.count
    let out = RowTarget(pointer: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self))
    a.withUnsafeBytes { pa in
      b.withUnsafeBytes { pb in
        let (sa, sb) = (
          RowSource(pointer: pa.baseAddress!.assumingMemoryBound(to: UInt8.self)),
          RowSource(pointer: pb.baseAddress!.assumingMemoryBound(to: UInt8.self))
        )
        let chunks = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count >> 18))
        DispatchQueue.concurrentPerform(iterations: chunks) { c in
          let range = (count * c / chunks)..<(count * (c + 1) / chunks)
          mix(
            sa.pointer + range.lowerBound, sb.pointer + range.lowerBound, out.pointer + range.lowerBound,
            count: range.count, weight: weight)
        }
      }
    }
  }

  /// out = (a × (2¹⁶ − w) + b × w + 2¹⁵) >> 16, sixteen bytes at a time.
  static func mix(
    _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>, count: Int,
    weight: UInt32
  ) {
    let wb = SIMD16<UInt32>(repeating: weight)
    let wa = SIMD16<UInt32>(repeating: 65536 - weight)
    let half = SIMD16<UInt32>(repeating: 32768)
    var i = 0
    while i + 16 <= count {
      let va = SIMD16<UInt32>(truncatingIfNeeded: UnsafeRawPointer(a + i).loadUnaligned(as: SIMD16<UInt8>.self))
      let vb = SIMD16<UInt32>(truncatingIfNeeded: UnsafeRawPointer(b + i).loadUnaligned(as: SIMD16<UInt8>.self))
      let v = (va &* wa &+ vb &* wb &+ half) &>> 16
      UnsafeMutableRawPointer(out + i).storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: v), as: SIMD16<UInt8>.self)
      i += 16
    }
    while i < count {
      out[i] = UInt8(truncatingIfNeeded: (UInt32(a[i]) * (65536 - weight) + UInt32(b[i]) * weight + 32768) >> 16)
      i += 1
    }
  }

  /// round(v × 255) clamped to a byte: v × 255 + 0.5 truncated, which is the same for every value
  /// the clamp lets through (halves up; no libm call per pixel).
  @inline(__always) static func level(_ v: Double) -> UInt8 {
    let x = v * 255
    return x > 0 ? UInt8(truncatingIfNeeded: Int(min(x, 255) + 0.5)) : 0
  }

  /// R(Y', Cr) and B(Y', Cb) outright, and G's three terms, by the inverse's formula.
  private struct InverseTables: Sendable {
    var red = [UInt8](repeating: 0, count: 1 << 16)
    var blue = [UInt8](repeating: 0, count: 1 << 16)
    var greenY = [Double](repeating: 0, count: 256)
    var greenCb = [Double](repeating: 0, count: 256)
    var greenCr = [Double](repeating: 0, count: 256)
  }

  private static let inverseTables: InverseTables = {
    var t = InverseTables()
    for v in 0..<256 {
      let yn = (Double(v) - 16) / 219
      let cn = (Double(v) - 128) / 224
      t.greenY[v] = yn
      // G = (Y'n − 0.2126 R − 0.0722 B) / 0.7152 with R = Y'n + 1.5748 Crn, B = Y'n + 1.8556 Cbn:
      // Y'n − (0.2126 · 1.5748 / 0.7152) Crn − (0.0722 · 1.8556 / 0.7152) Cbn.
      t.greenCb[v] = -0.0722 * 1.8556 / 0.7152 * cn
      t.greenCr[v] = -0.2126 * 1.5748 / 0.7152 * cn
      for c in 0..<256 {
        let ync = (Double(v) - 16) / 219
        let ccn = (Double(c) - 128) / 224
        t.red[v << 8 | c] = level(ync + 1.5748 * ccn)
        t.blue[v << 8 | c] = level(ync + 1.8556 * ccn)
      }
    }
    return t
  }()
}

private let nextPlanesID = Atomic<UInt64>(1)

/// Raw pointers handed to worker chunks, which read (or write disjoint parts of) them.
private struct RowSource: @unchecked Sendable { let pointer: UnsafePointer<UInt8> }
private struct RowTarget: @unchecked Sendable { let pointer: UnsafeMutablePointer<UInt8> }

/// Frame-sized memory handed back to a pool when its last user lets go, and handed out again for
/// the next frame of that size: a stream of decoded frames reuses a few buffers instead of
/// mapping (and page-faulting) fresh megabytes for every frame, as glibc does for blocks this
/// large here (`reserveLargeBuffersWithMmap`). The pool keeps at most `kept` free buffers in all
/// (a 1080p 4:2:0 frame is 3 MiB: 24 MiB at most), so memory does not grow with the video's
/// length.
final class FrameBuffer: @unchecked Sendable {
  let pointer: UnsafeMutableRawPointer
  let count: Int

  private init(count: Int) {
    self.count = count
    pointer = UnsafeMutableRawPointer.allocate(byteCount: max(1, count), alignment: 64)
  }

  private init(reusing pointer: UnsafeMutableRawPointer, count: Int) {
    self.pointer = pointer
    self.count = count
  }

  deinit {
    if !FrameBuffer.pool.withLock({ free in
      guard free.count < FrameBuffer.kept else { return false }
      free.append((pointer, count))
      return true
    }) {
      pointer.deallocate()
    }
  }

  static let kept = 8
  private static let pool = Locked<[(UnsafeMutableRawPointer, Int)]>([])

  /// A buffer of `count` bytes (contents undefined): a free one of that size, or a new one.
  static func make(count: Int) -> FrameBuffer {
    let reused = pool.withLock { free -> UnsafeMutableRawPointer? in
      guard let i = free.lastIndex(where: { $0.1 == count }) else { return nil }
      return free.remove(at: i).0
    }
    if let reused { return FrameBuffer(reusing: reused, count: count) }
    return FrameBuffer(count: count)
  }
}
