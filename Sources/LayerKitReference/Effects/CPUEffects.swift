// The built-in transition effects' CPU twins. Each effect of the catalogue (TransitionEffects in
// LayerKitRender) is one GLSL file in the gl-transitions form (Shaders/transitions/FILE) and one
// Swift function here of the same name, with the same Float operations in the same order. The
// function sees its parameters resolved (every value given or defaulted) and runs only for
// progress strictly between 0 and 1: at 0 and 1 the executor returns the surfaces outright, as
// the GLSL host does for the built-ins.

import LayerKitRender

/// What an effect sees for one output pixel (the gl-transitions conventions: uv y up).
struct TransitionContext {
  var uv: SIMD2<Float>
  var progress: Float
  var ratio: Float
  /// Every parameter's value in declaration order (TransitionEffect.resolve; nil: a sampler
  /// without an image). Read by a scan with string compares, as cheap for a handful of short
  /// names as it gets, and far cheaper per pixel than hashing the name into a dictionary.
  var parameters: [(name: String, value: TransitionValue?)]
  let from: SurfacePixels
  let to: SurfacePixels
  /// The bilinear taps of this pixel's own uv (RenderMath.BilinearTap), computed once per column
  /// and row of the pass: an effect reading a surface at its pixel's uv reads them.
  var column = RenderMath.BilinearTap(0, size: 1)
  var row = RenderMath.BilinearTap(0, size: 1)

  @inline(__always) func value(_ name: String) -> TransitionValue? {
    for p in parameters where p.name == name { return p.value }
    return nil
  }

  /// The from-surface at uv (y up): RenderMath.sampleBilinear at (uv.x, 1 − uv.y).
  @inline(__always) func getFromColor(_ uv: SIMD2<Float>) -> SIMD4<Float> {
    uv == self.uv ? from.sample(column, row) : from.sample(SIMD2(uv.x, 1 - uv.y))
  }

  @inline(__always) func getToColor(_ uv: SIMD2<Float>) -> SIMD4<Float> {
    uv == self.uv ? to.sample(column, row) : to.sample(SIMD2(uv.x, 1 - uv.y))
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
  func image(_ name: String) -> Image? {
    if case .image(let v)? = value(name) { return v }
    return nil
  }

  /// An image parameter at uv (y up), as the effect files' `sampleImage`: RenderMath.sampleBilinear
  /// (clamp-to-edge) at (uv.x, 1 − uv.y) in the image's own top-down texels.
  static func sampleImage(_ image: Image, _ uv: SIMD2<Float>) -> SIMD4<Float> {
    image.pixels.withUnsafeBufferPointer {
      RenderMath.sampleBilinear($0, width: image.width, height: image.height, uv: SIMD2(uv.x, 1 - uv.y))
    }
  }
}

/// One effect's CPU function: the premultiplied colour of one output pixel.
typealias CPUEffect = @Sendable (TransitionContext) -> SIMD4<Float>

/// The CPU twins of the built-in effects.
enum CPUEffects {
  /// By effect name; the same names as TransitionEffects.all (a test holds them equal).
  static let all: [String: CPUEffect] = [
    "fade": fade, "moveIn": moveIn, "push": push, "reveal": reveal,
    "dissolve": dissolve, "swipe": swipe, "barsSwipe": barsSwipe, "copyMachine": copyMachine, "flash": flash,
    "mod": mod, "ripple": ripple, "pageCurl": pageCurl, "pageCurlWithShadow": pageCurlWithShadow,
    "accordionFold": accordionFold, "disintegrateWithMask": disintegrateWithMask,
  ]

  static func inside(_ p: SIMD2<Float>) -> Bool { p.x >= 0 && p.x <= 1 && p.y >= 0 && p.y <= 1 }

  /// fade.glsl: the new content crossfades over the old.
  static let fade: CPUEffect = { c in
    let a = c.getFromColor(c.uv)
    let b = c.getToColor(c.uv)
    return a + (b - a) * c.progress
  }

  /// move_in.glsl: the new content slides in over the old from `direction`.
  static let moveIn: CPUEffect = { c in
    let d = c.vec2("direction")
    let q = c.uv - d * (1 - c.progress)
    return inside(q) ? c.getToColor(q) : c.getFromColor(c.uv)
  }

  /// push.glsl: the new content pushes the old out.
  static let push: CPUEffect = { c in
    let d = c.vec2("direction")
    let q = c.uv - d * (1 - c.progress)
    return inside(q) ? c.getToColor(q) : c.getFromColor(c.uv + d * c.progress)
  }

  /// reveal.glsl: the old content slides out, uncovering the new.
  static let reveal: CPUEffect = { c in
    let d = c.vec2("direction")
    let q = c.uv + d * c.progress
    return inside(q) ? c.getFromColor(q) : c.getToColor(c.uv)
  }
}
