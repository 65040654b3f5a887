import Dispatch
import Foundation
import LayerKitRender

/// Turns polygons in target pixels into a coverage mask (CoverageMask): what a ShapeLayer's fill
/// and stroke hand the backends, so both read the very same coverage.
///
/// The coverage of a pixel is the fraction of it inside the polygons, measured on 16 scanlines
/// through the pixel (at y + (k + 0.5) / 16) with the exact length of each scanline inside: 16
/// levels across near-horizontal edges, continuous ones across the rest. Inside is decided per
/// scanline by the winding number (non-zero or even-odd) of the crossings to the left, edges
/// counted half-open in y, so shared vertices count once and self-intersections, overlaps and
/// holes come out right; a stroke outline (Stroker) is its pieces' union under non-zero.
enum CoverageRasterizer {
  typealias V = SIMD2<Double>

  /// Scanlines per pixel row.
  static let scanlines = 16

  private struct Edge {
    var y0: Double
    var y1: Double
    var x0: Double
    var dxdy: Double
    var winding: Int32
  }

  /// The mask of `polygons` (each closed, target pixels) inside `region`; nil where they cover
  /// no pixel of it.
  static func rasterize(_ polygons: [[V]], evenOdd: Bool, within region: PixelRect) -> CoverageMask? {
    var edges: [Edge] = []
    var lo = V(repeating: .infinity)
    var hi = V(repeating: -.infinity)
    for polygon in polygons where polygon.count >= 2 {
      for i in polygon.indices {
        let a = polygon[i]
        let b = polygon[(i + 1) % polygon.count]
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { continue }
        lo = pointwiseMin(lo, a)
        hi = pointwiseMax(hi, a)
        if a.y == b.y { continue }
        let (top, bottom, w): (V, V, Int32) = a.y < b.y ? (a, b, 1) : (b, a, -1)
        edges.append(
          Edge(y0: top.y, y1: bottom.y, x0: top.x, dxdy: (bottom.x - top.x) / (bottom.y - top.y), winding: w))
      }
    }
    guard !edges.isEmpty else { return nil }
    // Whole pixels of the bounding box (clamped first, so huge coordinates stay in Int range).
    func clamp(_ v: Double) -> Double { min(max(v, -1e9), 1e9) }
    let bx0 = max(region.x, Int(clamp(lo.x).rounded(.down)))
    let by0 = max(region.y, Int(clamp(lo.y).rounded(.down)))
    let bx1 = min(region.maxX, Int(clamp(hi.x).rounded(.up)))
    let by1 = min(region.maxY, Int(clamp(hi.y).rounded(.up)))
    guard bx1 > bx0, by1 > by0 else { return nil }
    let bounds = PixelRect(x: bx0, y: by0, width: bx1 - bx0, height: by1 - by0)
    let width = bounds.width
    edges.sort { $0.y0 < $1.y0 }

    var bytes = [UInt8](repeating: 0, count: width * bounds.height)
    // Bands of rows on the cores, each with its own active edges, writing its own rows.
    let rows = bounds.height
    let bands = max(1, min(ProcessInfo.processInfo.activeProcessorCount, rows / 32))
    let drew = bytes.withUnsafeMutableBufferPointer { out -> Bool in
      let job = Job(edges: edges, evenOdd: evenOdd, left: bx0, width: width, top: by0, out: out.baseAddress!)
      if bands == 1 { return job.rows(by0..<by1) }
      let marks = Marks(count: bands)
      DispatchQueue.concurrentPerform(iterations: bands) { band in
        let r0 = by0 + rows * band / bands
        let r1 = by0 + rows * (band + 1) / bands
        marks.set(band, job.rows(r0..<r1))
      }
      return marks.any
    }
    return drew ? CoverageMask(bounds: bounds, bytes: bytes) : nil
  }

  /// Flags set by the bands, each in its own slot of memory no array's copy-on-write touches.
  private final class Marks: @unchecked Sendable {
    let flags: UnsafeMutableBufferPointer<Bool>
    init(count: Int) { flags = .allocate(capacity: count); flags.initialize(repeating: false) }
    deinit { flags.deallocate() }
    func set(_ i: Int, _ v: Bool) { flags[i] = v }
    var any: Bool { flags.contains(true) }
  }

  /// The scanline work over a band of rows, writing those rows of the mask.
  private struct Job: @unchecked Sendable {
    let edges: [Edge]
    let evenOdd: Bool
    let left: Int
    let width: Int
    let top: Int
    let out: UnsafeMutablePointer<UInt8>

    /// Rasterizes rows `band`; whether any span was found.
    func rows(_ band: Range<Int>) -> Bool {
      let (by0, by1) = (band.lowerBound, band.upperBound)
      let bx0 = left
      let bytes = out
      let edges = self.edges
      var cover = [Float](repeating: 0, count: width + 1)
      var runs = [Float](repeating: 0, count: width + 2)
      var active: [Int] = []
      // The scanline's crossings, in the order of `active`.
      var xs: [Double] = []
      var next = 0
      // The edges that start above the band: those still open are active on its first scanline.
      let first = Double(by0) + 0.5 / Double(CoverageRasterizer.scanlines)
      while next < edges.count, edges[next].y0 <= first {
        if edges[next].y1 > first { active.append(next) }
        next += 1
      }
      let weight = 1 / Float(CoverageRasterizer.scanlines)
      let left = Double(bx0)
      let right = Double(bx0 + width)
      var any = false
      for row in by0..<by1 {
        for k in 0..<CoverageRasterizer.scanlines {
          let sy = Double(row) + (Double(k) + 0.5) / Double(CoverageRasterizer.scanlines)
          while next < edges.count, edges[next].y0 <= sy {
            active.append(next)
            next += 1
          }
          // Edges that end above the scanline leave; the others keep their order.
          var kept = 0
          for i in active.indices where edges[active[i]].y1 > sy {
            active[kept] = active[i]
            kept += 1
          }
          active.removeLast(active.count - kept)
          if active.isEmpty { continue }
          // The crossings, kept sorted by x with the active edges: from one scanline to the next
          // the order barely changes (only where edges cross), so insertion sorts in about one
          // pass.
          xs.removeAll(keepingCapacity: true)
          for i in active.indices {
            let e = edges[active[i]]
            // Crossings beside the mask only count for the winding: put at its edge, they stay in
            // order without moving past one another (a 5 000-glyph line of text, mostly beyond
            // the frame, took seconds a frame to sort).
            let x = min(max(e.x0 + (sy - e.y0) * e.dxdy, left), right)
            var j = i
            xs.append(x)
            let edge = active[i]
            while j > 0, xs[j - 1] > x {
              xs[j] = xs[j - 1]
              active[j] = active[j - 1]
              j -= 1
            }
            xs[j] = x
            active[j] = edge
          }
          var winding: Int32 = 0
          for c in 0..<(xs.count - 1) {
            winding &+= edges[active[c]].winding
            let inside = evenOdd ? winding & 1 != 0 : winding != 0
            guard inside else { continue }
            // The span between this crossing and the next, within the mask's columns.
            let xa = max(xs[c], left) - left
            let xb = min(xs[c + 1], right) - left
            guard xb > xa else { continue }
            any = true
            let ia = Int(xa)
            let ib = Int(xb)
            if ia == ib {
              cover[ia] += Float(xb - xa) * weight
            } else {
              cover[ia] += Float(Double(ia + 1) - xa) * weight
              runs[ia + 1] += weight
              runs[ib] -= weight
              cover[ib] += Float(xb - Double(ib)) * weight
            }
          }
        }
        // The row's coverage: partial pixels plus the runs of whole ones.
        var run: Float = 0
        let base = (row - top) * width
        for x in 0..<width {
          run += runs[x]
          let c = min(max(cover[x] + run, 0), 1)
          bytes[base + x] = UInt8(c * 255 + 0.5)
          cover[x] = 0
          runs[x] = 0
        }
        cover[width] = 0
        runs[width] = 0
        runs[width + 1] = 0
      }
      return any
    }
  }

  /// Polygons in a local plane mapped to target pixels through `toTarget` (rows of the
  /// homography): each is first cut to the half-space in front of the eye (W ≥ 1e-6), so a plane
  /// that passes the eye keeps the part that is seen.
  static func project(_ polygons: [[V]], _ toTarget: Matrix3) -> [[V]] {
    let r0 = SIMD3<Double>(Double(toTarget.row0.x), Double(toTarget.row0.y), Double(toTarget.row0.z))
    let r1 = SIMD3<Double>(Double(toTarget.row1.x), Double(toTarget.row1.y), Double(toTarget.row1.z))
    let r2 = SIMD3<Double>(Double(toTarget.row2.x), Double(toTarget.row2.y), Double(toTarget.row2.z))
    let affine = r2 == SIMD3(0, 0, 1)
    let near = 1e-6
    return polygons.compactMap { polygon in
      let h = polygon.map { p -> SIMD3<Double> in
        let v = SIMD3(p.x, p.y, 1)
        return SIMD3((r0 * v).sum(), (r1 * v).sum(), (r2 * v).sum())
      }
      if affine { return h.map { V($0.x, $0.y) } }
      var kept: [SIMD3<Double>] = []
      for i in h.indices {
        let a = h[i]
        let b = h[(i + 1) % h.count]
        if a.z >= near { kept.append(a) }
        if (a.z >= near) != (b.z >= near) {
          let t = (near - a.z) / (b.z - a.z)
          kept.append(a + (b - a) * t)
        }
      }
      guard kept.count >= 3 else { return nil }
      return kept.map { V($0.x / $0.z, $0.y / $0.z) }
    }
  }
}
