import Dispatch
import Foundation
import LayerKitRender

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
            pass: pass, kernel: kernel, exactEnds: declaration.exactEnds, shortcut: declaration.shortcut,
            parameters: parameters, from: a!, to: z!,
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

/// A row body handed to the threads of `parallelRows`.
private struct RowsJob: @unchecked Sendable {
  let body: (Range<Int>) -> Void
}
