import LayerKit

/// A slide (moveIn, push or reveal along an axis) between two opaque pictures, computed in the
/// output's Y'CbCr planes instead of drawn in RGBA and converted: a transition whose output only
/// feeds a Y'CbCr sink, mixed in that sink's format (`VideoFrame.slide`).
///
/// Each output pixel reads the picture and the texels the RGBA path reads — the same
/// coordinates, taps and inside test, in the same Float operations
/// (`TransitionShortcut.Slide.coordinates`, `RenderMath.BilinearTap`) — from full-resolution
/// (4:4:4) planes of the two pictures. Along the slide's axis the two texels are mixed with the
/// tap's fraction in steps of 2⁻⁸; across it the taps sit on texel centres (to within Float's
/// rounding of uv), and the nearer texel is taken. The conversion being affine, that is the RGBA
/// path converted to within one level per plane sample, before 4:2:0's 2 × 2 chroma means
/// (`VideoShortcutTests` holds it there).
public struct PlanarSlide: Sendable {
  public let from: YUVPlanes
  public let to: YUVPlanes
  public let kind: TransitionShortcut.Slide
  public let direction: SIMD2<Float>
  public let progress: Float

  /// A slide of `from` and `to` (4:4:4 planes of one size), or nil when it is not along an axis
  /// (a diagonal `direction` reads four texels: the RGBA path draws it).
  public init?(
    from: YUVPlanes, to: YUVPlanes, kind: TransitionShortcut.Slide, direction: SIMD2<Float>, progress: Float
  ) {
    guard from.layout == to.layout, from.layout.chroma == .yuv444, direction.x == 0 || direction.y == 0,
      direction.x.isFinite, direction.y.isFinite, progress.isFinite
    else { return nil }
    self.from = from
    self.to = to
    self.kind = kind
    self.direction = direction
    self.progress = progress
  }

  /// One axis of the reads: for each output index, which picture (shifted or other) and the two
  /// texels and weight along the axis, or the nearer texel across it.
  private struct Read {
    var inside: Bool
    var q: (i0: Int32, i1: Int32, weight: UInt32)
    var r: (i0: Int32, i1: Int32, weight: UInt32)
  }

  /// A tap along the slide's axis: its texels and its fraction as a weight out of 2¹⁶ (0: the
  /// first texel alone); across the axis (`along` false): the nearer texel alone.
  private static func weighted(_ tap: RenderMath.BilinearTap, along: Bool) -> (i0: Int32, i1: Int32, weight: UInt32) {
    let f = min(max(tap.f, 0), 1)
    if !along {
      let nearer = Int32(f < 0.5 ? tap.i0 : tap.i1)
      return (nearer, nearer, 0)
    }
    // In steps of 2⁻⁸: the fraction's Float noise from column to column (uv's rounding, ~10⁻⁴ at
    // 1080p) stays inside one step, so whole runs of columns share a weight.
    let w = UInt32((f * 256).rounded()) << 8
    if w == 65536 { return (Int32(tap.i1), Int32(tap.i1), 0) }
    return (Int32(tap.i0), Int32(tap.i1), w)
  }

  /// Writes the frame into `buffer` in `layout` (the pictures' size, 4:2:0 or 4:4:4).
  /// - Precondition: `layout` is the pictures' size and `buffer` its byte count.
  public func write(_ layout: YUVFrameLayout, into buffer: UnsafeMutableRawBufferPointer) {
    let (w, h) = (from.layout.width, from.layout.height)
    precondition(layout.width == w && layout.height == h && buffer.count == layout.byteCount)
    let bounds = PixelRect(x: 0, y: 0, width: w, height: h)
    let size = SIMD2(Float(w), Float(h))
    let horizontal = direction.x != 0
    // Columns from row 0, rows from column 0: each coordinate's lane does not depend on the other
    // axis (the RGBA path splits them the same way).
    let columns = (0..<w).map { x -> Read in
      let c = kind.coordinates(
        RenderMath.transitionUV(x, 0, bounds: bounds, size: size), direction: direction, progress: progress)
      return Read(
        inside: c.q.x >= 0 && c.q.x <= 1, q: Self.weighted(RenderMath.BilinearTap(c.q.x, size: w), along: horizontal),
        r: Self.weighted(RenderMath.BilinearTap(c.r.x, size: w), along: horizontal))
    }
    let rows = (0..<h).map { y -> Read in
      let c = kind.coordinates(
        RenderMath.transitionUV(0, y, bounds: bounds, size: size), direction: direction, progress: progress)
      return Read(
        inside: c.q.y >= 0 && c.q.y <= 1,
        q: Self.weighted(RenderMath.BilinearTap(1 - c.q.y, size: h), along: !horizontal),
        r: Self.weighted(RenderMath.BilinearTap(1 - c.r.y, size: h), along: !horizontal))
    }
    let (shifted, other) = kind.shiftsOldContent ? (from, to) : (to, from)
    let out = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self)
    let planeSize = w * h
    shifted.withUnsafeBytes { s in
      other.withUnsafeBytes { o in
        let read = Reader(
          width: w, shifted: s.baseAddress!.assumingMemoryBound(to: UInt8.self),
          other: o.baseAddress!.assumingMemoryBound(to: UInt8.self), rows: rows,
          insideRuns: Self.runs(columns, rowInside: true), outsideRuns: Self.runs(columns, rowInside: false))
        let offsets = layout.planeOffsets
        // Y' at full resolution, straight into the output.
        for y in 0..<h {
          read.row(y, plane: 0, into: out + offsets.y + y * w)
        }
        if layout.chroma == .yuv444 {
          for (plane, offset) in [(1, offsets.cb), (2, offsets.cr)] {
            for y in 0..<h {
              read.row(y, plane: plane * planeSize, into: out + offset + y * w)
            }
          }
          return
        }
        // 4:2:0: each chroma sample the rounded mean of its 2 × 2 block's full-resolution samples.
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * w)
        defer { scratch.deallocate() }
        let cw = w / 2
        for (plane, offset) in [(1, offsets.cb), (2, offsets.cr)] {
          for j in 0..<(h / 2) {
            for k in 0..<2 {
              read.row(2 * j + k, plane: plane * planeSize, into: scratch + k * w)
            }
            let target = out + offset + j * cw
            for cx in 0..<cw {
              let sum =
                Int(scratch[2 * cx]) + Int(scratch[2 * cx + 1]) + Int(scratch[w + 2 * cx])
                + Int(scratch[w + 2 * cx + 1])
              target[cx] = UInt8(truncatingIfNeeded: (sum + 2) >> 2)
            }
          }
        }
      }
    }
  }

  /// A run of columns read from one picture on consecutive texels with one weight.
  private struct Run {
    var x: Int
    var count: Int
    var shifted: Bool
    var column: (i0: Int32, i1: Int32, weight: UInt32)
  }

  /// The runs of a row whose own half of the inside test is `rowInside`: the same for every such
  /// row, so made once per frame.
  private static func runs(_ columns: [Read], rowInside: Bool) -> [Run] {
    var runs: [Run] = []
    for (x, c) in columns.enumerated() {
      let inside = rowInside && c.inside
      let column = inside ? c.q : c.r
      if var last = runs.last, last.shifted == inside, column.i0 == last.column.i0 + Int32(x - last.x),
        column.i1 == last.column.i1 + Int32(x - last.x), column.weight == last.column.weight
      {
        last.count += 1
        runs[runs.count - 1] = last
      } else {
        runs.append(Run(x: x, count: 1, shifted: inside, column: column))
      }
    }
    return runs
  }

  /// The reads of one frame: the pictures, the rows' taps and the columns' runs.
  private struct Reader {
    let width: Int
    let shifted: UnsafePointer<UInt8>
    let other: UnsafePointer<UInt8>
    let rows: [Read]
    let insideRuns: [Run]
    let outsideRuns: [Run]

    /// Row y of one plane (at byte offset `plane` in the 4:4:4 pictures) into `target`.
    func row(_ y: Int, plane: Int, into target: UnsafeMutablePointer<UInt8>) {
      let w = width
      let rowRead = rows[y]
      for run in rowRead.inside ? insideRuns : outsideRuns {
        let (source, line) = run.shifted ? (shifted, rowRead.q) : (other, rowRead.r)
        let column = run.column
        let base = source + plane
        let a = base + Int(line.i0) * w + Int(column.i0)
        if column.weight != 0 {
          // Along x: texels i0 and i1 of one row (the row's taps are on texel centres).
          YUVPlanes.mix(
            a, base + Int(line.i0) * w + Int(column.i1), target + run.x, count: run.count, weight: column.weight)
        } else if line.weight != 0 {
          // Along y: the same columns of rows i0 and i1.
          YUVPlanes.mix(
            a, base + Int(line.i1) * w + Int(column.i0), target + run.x, count: run.count, weight: line.weight)
        } else {
          (target + run.x).update(from: a, count: run.count)
        }
      }
    }
  }
}
