// LayerKitReference: the CPU backend. It executes a RenderList in software with the same per-pixel
// math as the GPU shaders (LayerKit.RenderMath, mirrored by Shaders/layer and Shaders/effects), so
// its output is the reference the GPU is tested against, and the fallback where no EGL display
// exists.
//
// What it does not do: anything the RenderList does not say. It never looks at a Layer.
// Lifetime: a renderer owns nothing between renders except its configuration; every surface of a
// render is released when `render` returns.
import Dispatch
import Foundation
import LayerKitRender

/// Renders RenderLists on the CPU, pixel for pixel by the parity contract of docs/ARCHITECTURE.md.
public final class ReferenceRenderer: Renderer {
  public let name = "cpu"
  /// How many threads share the rows of a draw or filter pass.
  public let threadCount: Int

  /// - Parameter threadCount: threads to split each pass's rows across; defaults to the number of
  ///   active processors. The output does not depend on it: every pixel is computed independently.
  public init(threadCount: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.threadCount = max(1, threadCount)
    backend = CPUBackend(threadCount: self.threadCount)
  }

  /// Groups kept between renders (drawn once while their ops and images stay the same).
  package var retainedGroupCount: Int { backend.retained.count }

  /// Off: every transition pixel goes through its effect's kernel (the general path), for tests
  /// that hold the row shortcuts (fade, dissolve, moveIn, push, reveal) to it byte for byte.
  package var fastPaths: Bool {
    get { backend.fastPaths }
    set { backend.fastPaths = newValue }
  }

  private let backend: CPUBackend

  public func render(_ list: RenderList) throws -> Image {
    let pixels = try backend.execute(list)
    return try Image(width: list.width, height: list.height, pixels: pixels)
  }
}

/// The CPU's primitives of the backend contract (RenderBackend): the executor walks the list,
/// these compute pixels.
final class CPUBackend: RenderBackend {
  let threadCount: Int
  private var images: [Image] = []
  var retained = RetainedGroups<Surface>()
  var fastPaths = true

  init(threadCount: Int) {
    self.threadCount = threadCount
  }

  func begin(_ list: RenderList) throws {
    images = list.images
  }

  func end() {
    images = []
  }

  func makeSurface(_ bounds: PixelRect, fill: SIMD4<UInt8>?) -> Surface {
    guard let fill else { return Surface(uninitialized: bounds) }
    let surface = Surface(bounds: bounds)
    if fill != .zero {
      surface.pixels.withUnsafeMutableBufferPointer { px in
        for i in stride(from: 0, to: px.count, by: 4) {
          px[i] = fill.x
          px[i + 1] = fill.y
          px[i + 2] = fill.z
          px[i + 3] = fill.w
        }
      }
    }
    return surface
  }

  func copy(_ bounds: PixelRect, of source: Surface) -> Surface {
    source.copy(bounds)
  }

  func release(_ surface: Surface) {}

  func keep(_ surface: Surface) {}

  func readBack(_ surface: Surface) -> [UInt8] {
    surface.pixels
  }

  func crossfade(_ fade: ContentsCrossfade, images list: RenderList) -> Surface {
    let a = fade.from.map { list[image: $0] }
    let b = fade.to.map { list[image: $0] }
    let size = (a ?? b)!
    let bounds = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
    return Surface(
      bounds: bounds,
      pixels: RenderMath.crossfade(a?.pixels, b?.pixels, count: size.width * size.height * 4, weight: fade.weight))
  }

  func draw(_ draw: Draw, into target: Surface, inputs: DrawInputs<Surface>) {
    let source: Surface?
    switch inputs.texture {
    case nil: source = nil
    case .image(let id):
      let image = images[id.index]
      source = Surface(bounds: PixelRect(x: 0, y: 0, width: image.width, height: image.height), pixels: image.pixels)
    case .surface(let s): source = s
    }
    target.withTarget { target in
      withPixels(source) { tex in
        withPixels(inputs.mask) { maskTexels in
          withPixels(inputs.backdrop) { back in
            let job = DrawJob(
              draw: draw, target: target, texels: tex, mask: maskTexels, backdrop: back, fastPaths: fastPaths)
            parallelRows(draw.pixelBounds) { job.rows($0) }
          }
        }
      }
    }
  }

  /// A filter pass over the output bounds.
  func filter(_ pass: FilterPass, input: Surface, into output: Surface) {
    // A blur reads each texel once per tap: its texels are turned into floats (byte / 255, the
    // value every tap would compute) once, first.
    var floats: [SIMD4<Float>] = []
    if case .blur = pass.operation {
      let ib = input.bounds
      floats = [SIMD4<Float>](unsafeUninitializedCapacity: ib.width * ib.height) { plane, count in
        let target = FloatPlane(pointer: plane.baseAddress!)
        input.pixels.withUnsafeBufferPointer { px in
          let bytes = SurfacePixels(bounds: ib, texels: px)
          parallelRows(ib) { rows in
            for k in (rows.lowerBound - ib.y) * ib.width..<(rows.upperBound - ib.y) * ib.width {
              let t = bytes.texels
              target.pointer[k] =
                SIMD4(Float(t[k * 4]), Float(t[k * 4 + 1]), Float(t[k * 4 + 2]), Float(t[k * 4 + 3])) / 255
            }
          }
        }
        count = ib.width * ib.height
      }
    }
    output.withTarget { out in
      input.pixels.withUnsafeBufferPointer { px in
        floats.withUnsafeBufferPointer { floats in
          let job = FilterJob(
            pass: pass, input: SurfacePixels(bounds: input.bounds, texels: px), floats: floats, output: out)
          parallelRows(pass.bounds) { job.rows($0) }
        }
      }
    }
  }

  /// A transition pass: the effect's CPU twin per output pixel, with gl-transitions' uv (y up)
  /// and bilinear reads of the two surfaces at (uv.x, 1 − uv.y).
  func transition(_ pass: TransitionPass, from: Surface, to: Surface, into output: Surface) throws {
    guard let kernelType = CPUEffects.all[pass.effect], let declaration = TransitionEffects.all[pass.effect] else {
      throw RenderError.gpuOnlyEffect(pass.effect)
    }
    let parameters: ResolvedParameters
    do {
      let values = try declaration.uniforms.resolve(pass.parameters, effect: pass.effect)
      parameters = ResolvedParameters(values: zip(declaration.parameters, values).map { ($0.name, $1) })
    } catch {
      throw RenderError.transitionParameters(error)
    }
    let b = pass.bounds
    let size = SIMD2(Float(b.width), Float(b.height))
    let kernel = kernelType.init(parameters, progress: pass.progress, ratio: size.x / size.y)
    output.withTarget { out in
      withPixels(from) { a in
        withPixels(to) { z in
          let job = TransitionJob(
            pass: pass, kernel: kernel, exactEnds: declaration.exactEnds, parameters: parameters, from: a!, to: z!,
            output: out, size: size, fastPaths: fastPaths)
          parallelRows(b) { job.rows($0) }
        }
      }
    }
  }

  /// Runs `body` over the rows of `bounds`, split across threads.
  private func parallelRows(_ bounds: PixelRect, _ body: (Range<Int>) -> Void) {
    let chunks = min(threadCount, bounds.height)
    if chunks <= 1 || bounds.width * bounds.height < 4096 {
      body(bounds.y..<bounds.maxY)
      return
    }
    withoutActuallyEscaping(body) { body in
      let job = RowsJob(body: body)
      DispatchQueue.concurrentPerform(iterations: chunks) { c in
        job.body((bounds.y + bounds.height * c / chunks)..<(bounds.y + bounds.height * (c + 1) / chunks))
      }
    }
  }

  private func withPixels<R>(_ surface: Surface?, _ body: (SurfacePixels?) -> R) -> R {
    guard let surface else { return body(nil) }
    return surface.pixels.withUnsafeBufferPointer { body(SurfacePixels(bounds: surface.bounds, texels: $0)) }
  }
}

/// An RGBA8 premultiplied image covering `bounds` of the target; draws write into it in place.
final class Surface {
  let bounds: PixelRect
  var pixels: [UInt8]

  init(bounds: PixelRect, pixels: [UInt8]? = nil) {
    self.bounds = bounds
    self.pixels = pixels ?? FrameMemory.zeros(count: bounds.width * bounds.height * 4)
  }

  /// A surface whose bytes an op is about to write, every one (no zero-fill first).
  init(uninitialized bounds: PixelRect) {
    self.bounds = bounds
    pixels = FrameMemory.bytes(count: bounds.width * bounds.height * 4) { _ in }
  }

  /// The pixels of `rect` (inside `bounds`) as a new surface.
  func copy(_ rect: PixelRect) -> Surface {
    let out = Surface(bounds: rect)
    for y in rect.y..<rect.maxY {
      let src = ((y - bounds.y) * bounds.width + (rect.x - bounds.x)) * 4
      let dst = (y - rect.y) * rect.width * 4
      out.pixels[dst..<dst + rect.width * 4] = pixels[src..<src + rect.width * 4]
    }
    return out
  }

  func withTarget(_ body: (SurfaceTarget) -> Void) {
    let b = bounds
    pixels.withUnsafeMutableBufferPointer { body(SurfaceTarget(bounds: b, pixels: $0)) }
  }
}

/// Read-only view of a surface's texels.
struct SurfacePixels: @unchecked Sendable {
  let bounds: PixelRect
  let texels: UnsafeBufferPointer<UInt8>

  /// The texel at target pixel (x, y); transparent outside the bounds.
  @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
    let lx = x - bounds.x
    let ly = y - bounds.y
    guard lx >= 0, ly >= 0, lx < bounds.width, ly < bounds.height else { return .zero }
    let i = (ly * bounds.width + lx) * 4
    return SIMD4(Float(texels[i]), Float(texels[i + 1]), Float(texels[i + 2]), Float(texels[i + 3])) / 255
  }

  @inline(__always) func sample(_ uv: SIMD2<Float>) -> SIMD4<Float> {
    RenderMath.sampleBilinear(texels, width: bounds.width, height: bounds.height, uv: uv)
  }

  /// `sample` at the coordinates of two precomputed taps, bit for bit the same.
  @inline(__always) func sample(_ x: RenderMath.BilinearTap, _ y: RenderMath.BilinearTap) -> SIMD4<Float> {
    RenderMath.sampleBilinear(texels, width: bounds.width, x: x, y: y)
  }
}

/// A writable surface; threads write disjoint rows.
struct SurfaceTarget: @unchecked Sendable {
  let bounds: PixelRect
  let pixels: UnsafeMutableBufferPointer<UInt8>

  @inline(__always) func index(_ x: Int, _ y: Int) -> Int {
    ((y - bounds.y) * bounds.width + (x - bounds.x)) * 4
  }

  @inline(__always) func store(_ i: Int, _ v: SIMD4<UInt8>) {
    pixels[i] = v.x
    pixels[i + 1] = v.y
    pixels[i + 2] = v.z
    pixels[i + 3] = v.w
  }
}

/// Float texels being written, rows split across threads.
private struct FloatPlane: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<SIMD4<Float>>
}

private struct RowsJob: @unchecked Sendable {
  let body: (Range<Int>) -> Void
}

/// One draw's inputs, shared read-only by the threads.
private struct DrawJob: @unchecked Sendable {
  let draw: Draw
  let target: SurfaceTarget
  let texels: SurfacePixels?
  let mask: SurfacePixels?
  let backdrop: SurfacePixels?
  let fastPaths: Bool

  func rows(_ range: Range<Int>) {
    // Locals, not `draw.…` in the loop: the optimizer keeps them in registers and never touches
    // the clips array's reference count per pixel.
    let b = draw.pixelBounds
    let opacity = draw.opacity
    let mapping = draw.mapping
    let rect = draw.shape.rect
    let borderWidth = draw.shape.borderWidth
    let paint = draw.paint
    let maskTransform = draw.mask?.transform
    let mode = draw.blendMode
    let evenOdd = draw.shape.path?.evenOdd ?? false
    let path = draw.shape.path?.segments ?? []
    let isPath = draw.shape.path != nil
    let fill = fastPaths ? interior : nil
    path.withUnsafeBufferPointer { segments in
      draw.clips.withUnsafeBufferPointer { clips in
        for y in range {
          guard let fill, fill.rows.contains(y) else {
            pixels(b.x..<b.maxX, y, segments, clips)
            continue
          }
          pixels(b.x..<fill.columns.lowerBound, y, segments, clips)
          fillRow(fill.columns, y)
          pixels(fill.columns.upperBound..<b.maxX, y, segments, clips)
        }
      }
    }

    /// The general path: every step of the draw colour for each pixel of `xs` in row `y`.
    func pixels(
      _ xs: Range<Int>, _ y: Int, _ segments: UnsafeBufferPointer<SIMD4<Float>>, _ clips: UnsafeBufferPointer<Clip>
    ) {
      for x in xs {
        // The pixel centre, as gl_FragCoord (plus the surface origin) gives it.
        let p = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
        guard let lp = RenderMath.unproject(p, mapping) else { continue }
        var coverage =
          isPath
          ? RenderMath.coverage(lp, segments: segments, evenOdd: evenOdd)
          : RenderMath.coverage(lp, rect, borderWidth: borderWidth)
        if coverage == 0 { continue }
        for clip in clips {
          coverage *= RenderMath.coverage(p, clip)
        }
        if let mask, let t = maskTransform {
          coverage *= mask.sample(p * t.scale + t.offset).w
        }
        if coverage == 0 { continue }
        let color: SIMD4<Float>
        switch paint {
        case .color(let c):
          color = c
        case .texture(_, let t):
          color = texels!.sample(lp.q * t.scale + t.offset)
        }
        let src = color * (coverage * opacity)
        let i = target.index(x, y)
        let out: SIMD4<UInt8>
        if mode != .normal {
          out = RenderMath.unorm8(RenderMath.composite(mode, src, backdrop!.texel(x, y)))
        } else if src.w == 1 {
          // An opaque source replaces the pixel: src + dst × 0 is src exactly.
          out = RenderMath.unorm8(src)
        } else {
          let dst = SIMD4(target.pixels[i], target.pixels[i + 1], target.pixels[i + 2], target.pixels[i + 3])
          out = RenderMath.blend(src, over: dst)
        }
        target.store(i, out)
      }
    }

    /// The interior of a plain rectangle: coverage 1 there, so the colour is the paint × opacity
    /// for every pixel, computed once; an opaque one replaces the pixels, another blends.
    func fillRow(_ xs: Range<Int>, _ y: Int) {
      guard case .color(let c) = paint else { return }
      let coverage: Float = 1
      let src = c * (coverage * opacity)
      if src.w == 1 {
        let out = RenderMath.unorm8(src)
        for x in xs { target.store(target.index(x, y), out) }
      } else {
        for x in xs {
          let i = target.index(x, y)
          let dst = SIMD4(target.pixels[i], target.pixels[i + 1], target.pixels[i + 2], target.pixels[i + 3])
          target.store(i, RenderMath.blend(src, over: dst))
        }
      }
    }
  }

  /// Where a plain draw — a colour, source-over, no clip, mask, path, border or corner radius,
  /// its plane a translation of the target — covers its pixels wholly: the pixels whose centres
  /// lie at least 1.5 pixels inside every edge, so that the signed distance the general path
  /// computes is below −1 whatever its Float rounding, and coverage clamps to exactly 1.
  var interior: (columns: Range<Int>, rows: Range<Int>)? {
    let m = draw.mapping
    guard case .color = draw.paint, draw.blendMode == .normal, draw.clips.isEmpty, draw.mask == nil,
      draw.shape.path == nil, draw.shape.borderWidth == 0, draw.shape.rect.cornerRadius == 0, m.isAffine,
      m.toTarget.row0.x == 1, m.toTarget.row0.y == 0, m.toTarget.row1.x == 0, m.toTarget.row1.y == 1,
      m.fromTarget.row0.x == 1, m.fromTarget.row0.y == 0, m.fromTarget.row1.x == 0, m.fromTarget.row1.y == 1
    else { return nil }
    let r = draw.shape.rect.bounds
    // The rectangle in target pixels (the plane's translation), as Double, then inset.
    let x0 = Double(r.x) + Double(m.toTarget.row0.z)
    let y0 = Double(r.y) + Double(m.toTarget.row1.z)
    let x1 = Double(r.z) + Double(m.toTarget.row0.z)
    let y1 = Double(r.w) + Double(m.toTarget.row1.z)
    guard [x0, y0, x1, y1].allSatisfy({ $0.isFinite && abs($0) < 1e6 }) else { return nil }
    // Pixel i's centre is i + 0.5: it is 1.5 inside x0 when i ≥ x0 + 1.
    let b = draw.pixelBounds
    let (left, right) = (max(b.x, Int((x0 + 1).rounded(.up))), min(b.maxX, Int((x1 - 2).rounded(.down)) + 1))
    let (top, bottom) = (max(b.y, Int((y0 + 1).rounded(.up))), min(b.maxY, Int((y1 - 2).rounded(.down)) + 1))
    guard left < right, top < bottom else { return nil }
    return (left..<right, top..<bottom)
  }
}

/// One filter pass's inputs, shared read-only by the threads.
private struct FilterJob: @unchecked Sendable {
  let pass: FilterPass
  let input: SurfacePixels
  /// For a blur: the input's texels as floats (byte / 255), row-major over the input's bounds.
  let floats: UnsafeBufferPointer<SIMD4<Float>>
  let output: SurfaceTarget

  func rows(_ range: Range<Int>) {
    let b = pass.bounds
    switch pass.operation {
    case .blur(let axis, let weights):
      let r = weights.count - 1
      let (dx, dy) = axis == .horizontal ? (1, 0) : (0, 1)
      let ib = input.bounds
      // Texel step along the axis.
      let step = dx + dy * ib.width
      let t = floats.baseAddress!
      /// `input.texel(x, y)` from the floats: transparent outside the input.
      @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
        let lx = x - ib.x
        let ly = y - ib.y
        guard lx >= 0, ly >= 0, lx < ib.width, ly < ib.height else { return .zero }
        return t[ly * ib.width + lx]
      }
      weights.withUnsafeBufferPointer { w in
        for y in range {
          for x in b.x..<b.maxX {
            var acc = SIMD4<Float>.zero
            // Local texel of the first tap, and whether every tap lies inside the input.
            let fx = x - r * dx - ib.x
            let fy = y - r * dy - ib.y
            let lx = fx + 2 * r * dx
            let ly = fy + 2 * r * dy
            if fx >= 0 && fy >= 0 && lx < ib.width && ly < ib.height {
              // The same sum without bounds checks, in the same order i = −r … r.
              var k = fy * ib.width + fx
              for i in -r...r {
                acc += w[abs(i)] * t[k]
                k += step
              }
            } else {
              for i in -r...r {
                acc += w[abs(i)] * texel(x + i * dx, y + i * dy)
              }
            }
            output.store(output.index(x, y), RenderMath.unorm8(acc))
          }
        }
      }
    case .colorMatrix(let m):
      for y in range {
        for x in b.x..<b.maxX {
          output.store(output.index(x, y), RenderMath.unorm8(RenderMath.applyColorMatrix(m, input.texel(x, y))))
        }
      }
    case .tint(let c):
      for y in range {
        for x in b.x..<b.maxX {
          output.store(output.index(x, y), RenderMath.unorm8(RenderMath.tint(c, input.texel(x, y))))
        }
      }
    }
  }
}

/// One transition pass's inputs, shared read-only by the threads.
struct TransitionJob: @unchecked Sendable {
  let pass: TransitionPass
  let kernel: any CPUTransitionKernel
  let exactEnds: Bool
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
    pass: TransitionPass, kernel: any CPUTransitionKernel, exactEnds: Bool,
    parameters: ResolvedParameters, from: SurfacePixels, to: SurfacePixels,
    output: SurfaceTarget, size: SIMD2<Float>, fastPaths: Bool
  ) {
    self.pass = pass
    self.kernel = kernel
    self.exactEnds = exactEnds
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
  var slide: (kind: String, d: SIMD2<Float>)? {
    guard fastPaths, ["moveIn", "push", "reveal"].contains(pass.effect),
      case .vec2(let d)? = parameters.value("direction")
    else { return nil }
    return (pass.effect, d)
  }

  /// One row of moveIn, push or reveal: CPUEffects' formulas, each coordinate computed as there
  /// (q = uv ∓ d × …, one lane per axis), its taps and its half of `inside` once per column.
  func slideRow(_ y: Int, _ slide: (kind: String, d: SIMD2<Float>), _ ownRow: RenderMath.BilinearTap) {
    let b = pass.bounds
    let rowQ = slideCoordinates(slide, uv(b.x, y))
    let qRow = RenderMath.BilinearTap(1 - rowQ.q.y, size: b.height)
    let rRow = slide.kind == "push" ? RenderMath.BilinearTap(1 - rowQ.r.y, size: b.height) : ownRow
    let insideRow = rowQ.q.y >= 0 && rowQ.q.y <= 1
    // Which surface the shifted read takes, and which the other.
    let (shifted, other) = slide.kind == "reveal" ? (from, to) : (to, from)
    slideTaps.withUnsafeBufferPointer { columns in
      for x in b.x..<b.maxX {
        let c = columns[x - b.x]
        let color = insideRow && c.inside ? shifted.sample(c.q, qRow) : other.sample(c.r, rRow)
        output.store(output.index(x, y), RenderMath.unorm8(color))
      }
    }
  }

  /// The column halves of `slideRow`: the taps of q.x and r.x and whether q.x lies in [0, 1].
  func slideColumns(_ slide: (kind: String, d: SIMD2<Float>)) -> [(
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
    let b = pass.bounds
    let c = SIMD2(Float(x) + 0.5, Float(y) + 0.5) - SIMD2(Float(b.x), Float(b.y))
    return SIMD2(c.x / size.x, 1 - c.y / size.y)
  }

  /// CPUEffects' coordinates for moveIn, push and reveal: q, read from the shifted surface when
  /// inside, and r, read from the other one otherwise (one SIMD lane per axis, as there).
  @inline(__always) func slideCoordinates(_ slide: (kind: String, d: SIMD2<Float>), _ uv: SIMD2<Float>) -> (
    q: SIMD2<Float>, r: SIMD2<Float>
  ) {
    let p = pass.progress
    let d = slide.d
    switch slide.kind {
    case "moveIn": return (uv - d * (1 - p), uv)
    case "push": return (uv - d * (1 - p), uv + d * p)
    default: return (uv + d * p, uv)
    }
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

  /// fade or dissolve strictly inside (0, 1): the same crossfade, run through a byte-pair table.
  var crossfade: Bool {
    fastPaths && (pass.effect == "fade" || (pass.effect == "dissolve" && pass.progress > 0 && pass.progress < 1))
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
