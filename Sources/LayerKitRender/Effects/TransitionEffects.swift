// The catalogue of built-in transition effects: names, GLSL files and parameters with their
// defaults, in declaration order. Each effect is one GLSL file in the gl-transitions form
// (Shaders/transitions/FILE, run by LayerKitGL) and one CPU twin of the same name (LayerKitReference,
// CPUEffects); a test parses the GLSL files and holds their declarations equal to these.
//
// Core Image's pixel lengths are fractions of the output's width, taken over a 640-px-wide image
// (300 px → 0.46875), as a pass has no extent of its own (docs/ARCHITECTURE.md, "Adding a
// transition effect").

/// A built-in effect: its name, its GLSL file and its parameters.
public struct TransitionEffect: Sendable {
  public let name: String
  /// The GLSL file under Shaders/transitions.
  public let file: String
  /// Parameter names and defaults, in declaration order (as the GLSL file declares them); a nil
  /// default is a `sampler2D` parameter, which takes an image and has no default.
  public let parameters: [(name: String, default: TransitionValue?)]
  /// Whether both backends return the surfaces outright at progress ≤ 0 and ≥ 1 (the formula
  /// alone is not exact there). Without it the formula runs at every progress, extrapolating
  /// beyond [0, 1] (Core Animation's four types).
  public let exactEnds: Bool
  /// What the effect's formula reduces to, so that a backend (or a video sink) may run it
  /// without evaluating the formula per pixel; nil for the others.
  public let shortcut: TransitionShortcut?

  public init(
    name: String, file: String, parameters: [(name: String, default: TransitionValue?)], exactEnds: Bool = true,
    shortcut: TransitionShortcut? = nil
  ) {
    self.name = name
    self.file = file
    self.parameters = parameters
    self.exactEnds = exactEnds
    self.shortcut = shortcut
  }

  /// The parameters' uniform types, in declaration order: a default's type, `sampler2D` without one.
  public var parameterTypes: [TransitionUniformType] {
    parameters.map { $0.default?.uniformType ?? .sampler2D }
  }

  /// The parameters as uniform declarations (line 0: they come from no file).
  public var uniforms: [TransitionUniform] {
    parameters.map {
      TransitionUniform(name: $0.name, type: $0.default?.uniformType ?? .sampler2D, default: $0.default, line: 0)
    }
  }
}

/// The built-in effects.
public enum TransitionEffects {
  /// Every built-in effect by name.
  public static let all: [String: TransitionEffect] = Dictionary(
    uniqueKeysWithValues: ([fade, moveIn, push, reveal, cut] + coreImage).map { ($0.name, $0) })

  /// The Core Image–style effects, in Core Image's order.
  public static let coreImage = [
    dissolve, swipe, barsSwipe, copyMachine, flash, mod, ripple, pageCurl, pageCurlWithShadow, accordionFold,
    disintegrateWithMask,
  ]

  static let direction: [(name: String, default: TransitionValue?)] = [("direction", .vec2([-1, 0]))]

  // MARK: Core Animation's types (direction: where the new content comes from, uv units, y up)

  /// fade.glsl: the new content crossfades over the old.
  public static let fade = TransitionEffect(
    name: "fade", file: "fade.glsl", parameters: [], exactEnds: false, shortcut: .crossfade)
  /// move_in.glsl: the new content slides in over the old from `direction`.
  public static let moveIn = TransitionEffect(
    name: "moveIn", file: "move_in.glsl", parameters: direction, exactEnds: false, shortcut: .slide(.moveIn))
  /// push.glsl: the new content pushes the old out.
  public static let push = TransitionEffect(
    name: "push", file: "push.glsl", parameters: direction, exactEnds: false, shortcut: .slide(.push))
  /// reveal.glsl: the old content slides out, uncovering the new.
  public static let reveal = TransitionEffect(
    name: "reveal", file: "reveal.glsl", parameters: direction, exactEnds: false, shortcut: .slide(.reveal))

  /// cut.glsl: the old content until halfway, then the new (editly's `dummy`, which overlaps
  /// the clips without an effect).
  public static let cut = TransitionEffect(name: "cut", file: "cut.glsl", parameters: [])

  // MARK: Core Image's transition filters, with Core Image's parameter names and defaults

  /// dissolve.glsl: CIDissolveTransition, a crossfade.
  public static let dissolve = TransitionEffect(
    name: "dissolve", file: "dissolve.glsl", parameters: [], shortcut: .crossfade)

  /// swipe.glsl: CISwipeTransition, a soft band tinted towards `color`.
  public static let swipe = TransitionEffect(
    name: "swipe", file: "swipe.glsl",
    parameters: [
      ("color", .vec3([1, 1, 1])), ("angle", .float(0)), ("width", .float(0.46875)), ("opacity", .float(0)),
    ])

  /// bars_swipe.glsl: CIBarsSwipeTransition, bars of the old content sliding away.
  public static let barsSwipe = TransitionEffect(
    name: "barsSwipe", file: "bars_swipe.glsl",
    parameters: [("angle", .float(3.14)), ("width", .float(0.046875)), ("barOffset", .float(10))])

  /// copy_machine.glsl: CICopyMachineTransition, a bar of light sweeping across.
  public static let copyMachine = TransitionEffect(
    name: "copyMachine", file: "copy_machine.glsl",
    parameters: [
      ("color", .vec3([0.6, 1, 0.8])), ("angle", .float(0)), ("width", .float(0.3125)), ("opacity", .float(1.3)),
    ])

  /// flash.glsl: CIFlashTransition, a star of light that fades into the new content.
  public static let flash = TransitionEffect(
    name: "flash", file: "flash.glsl",
    parameters: [
      ("center", .vec2([0.5, 0.5])), ("color", .vec3([1, 0.8, 0.6])), ("maxStriationRadius", .float(2.58)),
      ("striationStrength", .float(0.5)), ("striationContrast", .float(1.375)), ("fadeThreshold", .float(0.85)),
    ])

  /// mod.glsl: CIModTransition, holes opening in a turned grid, each at its own time.
  public static let mod = TransitionEffect(
    name: "mod", file: "mod.glsl",
    parameters: [
      ("center", .vec2([0.5, 0.5])), ("angle", .float(2)), ("radius", .float(0.234375)),
      ("compression", .float(0.46875)),
    ])

  /// ripple.glsl: CIRippleTransition, a ring wave from `center` refracting both images, the new
  /// content inside it; `shadingImage` shades the ring when `useShadingImage` is true.
  public static let ripple = TransitionEffect(
    name: "ripple", file: "ripple.glsl",
    parameters: [
      ("center", .vec2([0.5, 0.5])), ("width", .float(0.15625)), ("scale", .float(0.078125)),
      ("shadingImage", nil), ("useShadingImage", .bool(false)),
    ])

  static let curl: [(name: String, default: TransitionValue?)] = [("angle", .float(0)), ("radius", .float(0.15625))]
  static let backside: [(name: String, default: TransitionValue?)] = [
    ("backsideImage", nil), ("useBacksideImage", .bool(false)),
  ]

  /// page_curl.glsl: CIPageCurlTransition, the old content curling away around a cylinder of
  /// `radius` along `angle`; its back a lightened mirror of itself or `backsideImage`.
  public static let pageCurl = TransitionEffect(name: "pageCurl", file: "page_curl.glsl", parameters: curl + backside)

  /// page_curl_with_shadow.glsl: CIPageCurlWithShadowTransition, the page curl with the shadow
  /// the lifted page casts on the new content.
  public static let pageCurlWithShadow = TransitionEffect(
    name: "pageCurlWithShadow", file: "page_curl_with_shadow.glsl",
    parameters: curl + [("shadowSize", .float(0.5)), ("shadowAmount", .float(0.7))] + backside)

  /// accordion_fold.glsl: CIAccordionFoldTransition, the old content folding up towards the top
  /// edge in 2 × `numberOfFolds` panels and crossfading into the new.
  public static let accordionFold = TransitionEffect(
    name: "accordionFold", file: "accordion_fold.glsl",
    parameters: [("bottomHeight", .float(0)), ("numberOfFolds", .int(3)), ("foldShadowAmount", .float(0.1))])

  /// disintegrate_with_mask.glsl: CIDisintegrateWithMaskTransition over a procedural value-noise
  /// mask of `maskScale` cells across the width, or the luminance of `maskImage`, with a soft shadow.
  public static let disintegrateWithMask = TransitionEffect(
    name: "disintegrateWithMask", file: "disintegrate_with_mask.glsl",
    parameters: [
      ("maskScale", .float(8)), ("shadowRadius", .float(0.0125)), ("shadowDensity", .float(0.65)),
      ("shadowOffset", .vec2([0, -0.015625])), ("maskImage", nil), ("useMaskImage", .bool(false)),
    ])
}
