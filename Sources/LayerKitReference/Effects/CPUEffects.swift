// The built-in transition effects' CPU twins. Each effect of the catalogue (TransitionEffects in
// LayerKitRender) is one GLSL file in the gl-transitions form (Shaders/transitions/FILE) and one
// kernel here of the same name, with the same Float operations in the same order. A kernel is
// made once per pass from the effect's parameters, resolved (every value given or defaulted),
// with the progress and the aspect ratio, so that what does not depend on the pixel is read and
// worked out once; then the pass asks it for each pixel's colour through `shadeRow`, specialised
// for each kernel type, so a pixel costs neither a closure call nor a parameter lookup. Kernels
// run only for progress strictly between 0 and 1: at 0 and 1 the executor returns the surfaces
// outright, as the GLSL host does for the built-ins.

import LayerKitRender

/// An effect's parameters, resolved: every value given or defaulted, in declaration order (nil:
/// a sampler without an image). Read by name when a kernel is made, never per pixel.
struct ResolvedParameters {
  var values: [(name: String, value: TransitionValue?)]

  func value(_ name: String) -> TransitionValue? {
    values.first { $0.name == name }?.value
  }

  // Resolved parameters always hold a value of the declared type; 0 / false cannot be reached.
  func float(_ name: String) -> Float {
    if case .float(let v)? = value(name) { return v }
    return 0
  }

  func int(_ name: String) -> Int32 {
    if case .int(let v)? = value(name) { return v }
    return 0
  }

  func vec2(_ name: String) -> SIMD2<Float> {
    if case .vec2(let v)? = value(name) { return v }
    return .zero
  }

  func vec3(_ name: String) -> SIMD3<Float> {
    if case .vec3(let v)? = value(name) { return v }
    return .zero
  }

  func bool(_ name: String) -> Bool {
    if case .bool(let v)? = value(name) { return v }
    return false
  }

  /// The image given for the `sampler2D` parameter `name`, if any (samplers have no default).
  func image(_ name: String) -> ImageTexels? {
    if case .image(let v)? = value(name) { return ImageTexels(v) }
    return nil
  }
}

/// An image parameter's texels, taken out of the Image once per pass.
struct ImageTexels {
  let pixels: [UInt8]
  let width: Int
  let height: Int

  init(_ image: Image) {
    pixels = image.pixels
    width = image.width
    height = image.height
  }

  /// The image at uv (y up), as the effect files' `sampleImage`: RenderMath.sampleBilinear
  /// (clamp-to-edge) at (uv.x, 1 − uv.y) in the image's own top-down texels.
  @inline(__always) func sample(_ uv: SIMD2<Float>) -> SIMD4<Float> {
    pixels.withUnsafeBufferPointer {
      RenderMath.sampleBilinear($0, width: width, height: height, uv: SIMD2(uv.x, 1 - uv.y))
    }
  }
}

/// What a kernel sees for one output pixel (the gl-transitions conventions: uv y up).
struct TransitionContext {
  var uv: SIMD2<Float>
  let from: SurfacePixels
  let to: SurfacePixels
  /// The bilinear taps of this pixel's own uv (RenderMath.BilinearTap), computed once per column
  /// and row of the pass: an effect reading a surface at its pixel's uv reads them.
  var column = RenderMath.BilinearTap(0, size: 1)
  var row = RenderMath.BilinearTap(0, size: 1)

  /// The from-surface at uv (y up): RenderMath.sampleBilinear at (uv.x, 1 − uv.y).
  @inline(__always) func getFromColor(_ uv: SIMD2<Float>) -> SIMD4<Float> {
    uv == self.uv ? from.sample(column, row) : from.sample(SIMD2(uv.x, 1 - uv.y))
  }

  @inline(__always) func getToColor(_ uv: SIMD2<Float>) -> SIMD4<Float> {
    uv == self.uv ? to.sample(column, row) : to.sample(SIMD2(uv.x, 1 - uv.y))
  }
}

/// One effect's CPU twin.
protocol CPUTransitionKernel: Sendable {
  /// Reads the parameters and works out what does not depend on the pixel, once per pass.
  /// - Parameters:
  ///   - ratio: the pass's width / height (gl-transitions' `ratio`).
  init(_ parameters: ResolvedParameters, progress: Float, ratio: Float)

  /// The premultiplied colour of the pixel at `c.uv`.
  func color(_ c: TransitionContext) -> SIMD4<Float>

  /// One row of the pass (TransitionJob.shade): every kernel takes the extension's, which the
  /// compiler specialises for the kernel type, `color` inlined.
  func shadeRow(_ y: Int, job: TransitionJob, row: RenderMath.BilinearTap)
}

extension CPUTransitionKernel {
  func shadeRow(_ y: Int, job: TransitionJob, row: RenderMath.BilinearTap) {
    let b = job.pass.bounds
    var context = TransitionContext(uv: .zero, from: job.from, to: job.to, row: row)
    job.columns.withUnsafeBufferPointer { columns in
      for x in b.x..<b.maxX {
        context.uv = job.uv(x, y)
        context.column = columns[x - b.x]
        job.output.store(job.output.index(x, y), RenderMath.unorm8(color(context)))
      }
    }
  }
}

/// The CPU twins of the built-in effects.
enum CPUEffects {
  /// By effect name; the same names as TransitionEffects.all (a test holds them equal).
  static let all: [String: any CPUTransitionKernel.Type] = [
    "fade": Fade.self, "moveIn": MoveIn.self, "push": Push.self, "reveal": Reveal.self, "cut": Cut.self,
    "dissolve": Fade.self, "swipe": Swipe.self, "barsSwipe": BarsSwipe.self, "copyMachine": CopyMachine.self,
    "flash": Flash.self, "mod": Mod.self, "ripple": Ripple.self, "pageCurl": PageCurl.self,
    "pageCurlWithShadow": PageCurlWithShadow.self, "accordionFold": AccordionFold.self,
    "disintegrateWithMask": DisintegrateWithMask.self,
  ]

  @inline(__always) static func inside(_ p: SIMD2<Float>) -> Bool { p.x >= 0 && p.x <= 1 && p.y >= 0 && p.y <= 1 }

  /// fade.glsl, and dissolve.glsl (Core Image's CIDissolveTransition): the new content
  /// crossfades over the old.
  struct Fade: CPUTransitionKernel {
    let progress: Float

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      self.progress = progress
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let a = c.getFromColor(c.uv)
      let b = c.getToColor(c.uv)
      return a + (b - a) * progress
    }
  }

  /// cut.glsl: the old content until progress passes 0.5, then the new.
  struct Cut: CPUTransitionKernel {
    let late: Bool

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      late = progress > 0.5
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      late ? c.getToColor(c.uv) : c.getFromColor(c.uv)
    }
  }

  /// move_in.glsl: the new content slides in over the old from `direction`.
  struct MoveIn: CPUTransitionKernel {
    /// direction × (1 − progress).
    let shift: SIMD2<Float>

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      shift = parameters.vec2("direction") * (1 - progress)
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let q = c.uv - shift
      return inside(q) ? c.getToColor(q) : c.getFromColor(c.uv)
    }
  }

  /// push.glsl: the new content pushes the old out.
  struct Push: CPUTransitionKernel {
    /// direction × (1 − progress) and direction × progress.
    let shift: SIMD2<Float>
    let out: SIMD2<Float>

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      let d = parameters.vec2("direction")
      shift = d * (1 - progress)
      out = d * progress
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let q = c.uv - shift
      return inside(q) ? c.getToColor(q) : c.getFromColor(c.uv + out)
    }
  }

  /// reveal.glsl: the old content slides out, uncovering the new.
  struct Reveal: CPUTransitionKernel {
    /// direction × progress.
    let shift: SIMD2<Float>

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      shift = parameters.vec2("direction") * progress
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let q = c.uv + shift
      return inside(q) ? c.getFromColor(q) : c.getToColor(c.uv)
    }
  }
}
