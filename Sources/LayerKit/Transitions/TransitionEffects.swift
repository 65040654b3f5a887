// The built-in transition effects' CPU twins. Each effect is one GLSL file in the gl-transitions
// form (Shaders/transitions/NAME.glsl, with `uniform TYPE name; // = default` parameters) and one
// Swift function here of the same name and parameters, in the same order of operations. A test
// holds the two lists of parameters and defaults equal.

/// What an effect sees for one output pixel (the gl-transitions conventions: uv y up).
public struct TransitionContext {
  public var uv: SIMD2<Float>
  public var progress: Float
  public var ratio: Float
  public var parameters: [String: TransitionValue]
  let fromSample: (SIMD2<Float>) -> SIMD4<Float>
  let toSample: (SIMD2<Float>) -> SIMD4<Float>

  public init(
    uv: SIMD2<Float>, progress: Float, ratio: Float, parameters: [String: TransitionValue],
    from: @escaping (SIMD2<Float>) -> SIMD4<Float>, to: @escaping (SIMD2<Float>) -> SIMD4<Float>
  ) {
    self.uv = uv
    self.progress = progress
    self.ratio = ratio
    self.parameters = parameters
    self.fromSample = from
    self.toSample = to
  }

  public func getFromColor(_ uv: SIMD2<Float>) -> SIMD4<Float> { fromSample(uv) }
  public func getToColor(_ uv: SIMD2<Float>) -> SIMD4<Float> { toSample(uv) }

  /// A vec2 parameter, or its default.
  func vec2(_ name: String, _ fallback: SIMD2<Float>) -> SIMD2<Float> {
    if case .vec2(let v)? = parameters[name] { return v }
    return fallback
  }
}

/// A parameter list in declaration order, shared by an effect's declaration and its CPU twin's
/// fallbacks, so the Swift defaults are written once. A nil default is a `sampler2D` parameter (an
/// image; GLSL declares no default for samplers).
typealias Parameters = [(name: String, default: TransitionValue?)]

extension TransitionContext {
  /// The value of `name`, or its default from `list`.
  func value(_ name: String, _ list: Parameters) -> TransitionValue? {
    parameters[name] ?? list.first { $0.name == name }?.default
  }

  func float(_ name: String, _ list: Parameters) -> Float {
    if case .float(let v)? = value(name, list) { return v }
    return 0
  }

  func int(_ name: String, _ list: Parameters) -> Int32 {
    if case .int(let v)? = value(name, list) { return v }
    return 0
  }

  func vec2(_ name: String, _ list: Parameters) -> SIMD2<Float> {
    if case .vec2(let v)? = value(name, list) { return v }
    return .zero
  }

  func vec3(_ name: String, _ list: Parameters) -> SIMD3<Float> {
    if case .vec3(let v)? = value(name, list) { return v }
    return .zero
  }

  func bool(_ name: String, _ list: Parameters) -> Bool {
    if case .bool(let v)? = value(name, list) { return v }
    return false
  }

  /// The image given for the `sampler2D` parameter `name`, if any (samplers have no default).
  func image(_ name: String) -> Image? {
    if case .image(let v)? = parameters[name] { return v }
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

/// A built-in effect: its parameters with their defaults, and its CPU function.
public struct TransitionEffect: Sendable {
  public let name: String
  /// The GLSL file under Shaders/transitions.
  public let file: String
  /// Parameter names and defaults, in declaration order (as the GLSL file declares them); a nil
  /// default is a `sampler2D` parameter, which takes an image and has no default.
  public let parameters: [(name: String, default: TransitionValue?)]
  public let cpu: @Sendable (TransitionContext) -> SIMD4<Float>

  /// The parameters' uniform types, in declaration order: a default's type, `sampler2D` without one.
  public var parameterTypes: [TransitionUniformType] {
    parameters.map { $0.default?.uniformType ?? .sampler2D }
  }
}

/// The built-in effects by name.
public enum TransitionEffects {
  public static let all: [String: TransitionEffect] = Dictionary(
    uniqueKeysWithValues: ([fade, moveIn, push, reveal] + coreImageA + coreImageB).map { ($0.name, $0) })

  /// Where the new content comes from, in uv units with y up, for Core Animation's subtypes.
  public static func direction(_ subtype: TransitionSubtype) -> SIMD2<Float> {
    switch subtype {
    case .fromLeft: [-1, 0]
    case .fromRight: [1, 0]
    case .fromTop: [0, 1]
    case .fromBottom: [0, -1]
    }
  }

  static func inside(_ p: SIMD2<Float>) -> Bool { p.x >= 0 && p.x <= 1 && p.y >= 0 && p.y <= 1 }

  /// fade.glsl: the new content crossfades over the old.
  public static let fade = TransitionEffect(name: "fade", file: "fade.glsl", parameters: []) { c in
    let a = c.getFromColor(c.uv)
    let b = c.getToColor(c.uv)
    return a + (b - a) * c.progress
  }

  static let defaultDirection = TransitionValue.vec2([-1, 0])

  /// move_in.glsl: the new content slides in over the old from `direction`.
  public static let moveIn = TransitionEffect(
    name: "moveIn", file: "move_in.glsl", parameters: [("direction", defaultDirection)]
  ) { c in
    let d = c.vec2("direction", [-1, 0])
    let q = c.uv - d * (1 - c.progress)
    return inside(q) ? c.getToColor(q) : c.getFromColor(c.uv)
  }

  /// push.glsl: the new content pushes the old out.
  public static let push = TransitionEffect(
    name: "push", file: "push.glsl", parameters: [("direction", defaultDirection)]
  ) { c in
    let d = c.vec2("direction", [-1, 0])
    let q = c.uv - d * (1 - c.progress)
    return inside(q) ? c.getToColor(q) : c.getFromColor(c.uv + d * c.progress)
  }

  /// reveal.glsl: the old content slides out, uncovering the new.
  public static let reveal = TransitionEffect(
    name: "reveal", file: "reveal.glsl", parameters: [("direction", defaultDirection)]
  ) { c in
    let d = c.vec2("direction", [-1, 0])
    let q = c.uv + d * c.progress
    return inside(q) ? c.getFromColor(q) : c.getToColor(c.uv)
  }
}

/// Core Animation's transition types.
public enum TransitionType: String, Sendable, CaseIterable {
  case fade, moveIn, push, reveal
}

/// Core Animation's transition subtypes: where the motion starts.
public enum TransitionSubtype: String, Sendable, CaseIterable {
  case fromLeft, fromRight, fromTop, fromBottom
}
