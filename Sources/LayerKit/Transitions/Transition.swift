/// Animates a change to a layer's subtree (CATransition): the subtree as it rendered before the
/// change and the subtree after it are rendered offscreen over the layer's area and mixed by the
/// effect — fade, moveIn, push or reveal, from a side — as progress runs from `startProgress` to
/// `endProgress`. A layer has one transition at a time, stored under the key "transition".
///
/// The "before" image is the subtree as its scene last presented it, so the change may come
/// before or after `add(_:forKey:)` in the same step; outside a scene it is the subtree as it is
/// when the transition is added. Directions are on screen, over the layer's area.
open class Transition: Animation {
  public var type: TransitionType = .fade
  /// Where the motion starts (ignored by fade). nil is fromLeft.
  public var subtype: TransitionSubtype?
  /// The fraction of the effect at the start, 0…1.
  public var startProgress: Double = 0
  /// The fraction of the effect at the end, startProgress…1.
  public var endProgress: Double = 1
  /// When set, this filter runs instead of `type` and `subtype`.
  public var filter: (any TransitionFilter)?
  /// Plays the effect backwards, from the new subtree to the old: at progress p the layer shows
  /// the effect mixing the new subtree (as its "from") into the old one (as its "to") at 1 − p.
  /// A push from the right played backwards brings the old content back in from the left; a
  /// page curl played backwards lays a page down. (A LayerKit addition: what a backward scene
  /// transition runs, SceneTransition.swift.)
  public var reversesEffect = false

  public override init() {}

  public convenience init(type: TransitionType, subtype: TransitionSubtype? = nil) {
    self.init()
    self.type = type
    self.subtype = subtype
  }

  open override func copy() -> Animation {
    let t = Transition(type: type, subtype: subtype)
    t.copyTiming(from: self)
    t.startProgress = startProgress
    t.endProgress = endProgress
    t.filter = filter
    t.reversesEffect = reversesEffect
    return t
  }

  /// The effect that runs: the filter's, or the type's.
  var effect: String { filter?.effect ?? type.rawValue }

  /// The effect's parameters: the filter's, or the subtype's direction.
  var parameters: [String: TransitionValue] {
    if let filter { return filter.parameters }
    return type == .fade ? [:] : ["direction": .vec2(TransitionEffects.direction(subtype ?? .fromLeft))]
  }
}

/// A transition in progress on a presentation layer: what the builder needs to draw it.
struct ActiveTransition {
  let before: Layer
  let effect: String
  let parameters: [String: TransitionValue]
  let progress: Double
  /// Transition.reversesEffect.
  let reversed: Bool
}

/// A transition's compiled form: the "before" subtree and how progress maps.
struct TransitionTrack {
  let before: Layer
  let transition: Transition

  func apply(to layer: Layer, time: Double, duration: Double) {
    let x = duration > 0 ? time / duration : 1
    // A nil timing function means linear pacing.
    let p = transition.timingFunction?.value(at: x) ?? x
    let progress = transition.startProgress + (transition.endProgress - transition.startProgress) * p
    layer.activeTransition = ActiveTransition(
      before: before, effect: transition.effect, parameters: transition.parameters, progress: progress,
      reversed: transition.reversesEffect)
  }
}

/// A transition as an image filter, like Core Image's transition filters: an input image, a
/// target image and a time in [0, 1] make an output image. LayerKit's built-in effects and
/// shaders registered with the GPU backend are such filters; set one on a `Transition` and its
/// type and subtype are ignored, as a filter on a CATransition makes them.
public protocol TransitionFilter: Sendable {
  /// The effect that runs the filter: a built-in name, or a shader registered with the GPU.
  var effect: String { get }
  /// Values for the effect's parameters; missing ones take the defaults.
  var parameters: [String: TransitionValue] { get }
}

extension TransitionFilter {
  /// Runs the filter on two images.
  /// - Parameters:
  ///   - input: the image at time 0.
  ///   - target: the image at time 1, fitted to the input's extent (stretched when sizes differ).
  ///   - time: the progress, 0…1.
  ///   - renderer: the backend (a GPU-only shader needs the GPU renderer it is registered with).
  /// - Returns: an image of the input's size.
  public func apply(input: Image, target: Image, time: Double, renderer: Renderer) throws -> Image {
    func layer(_ image: Image) -> Layer {
      let l = Layer(frame: Rect(x: 0, y: 0, width: Double(input.width), height: Double(input.height)))
      l.contents = image
      return l
    }
    let list = try RenderList(
      transitionFrom: layer(input), to: layer(target), width: input.width, height: input.height, effect: effect,
      parameters: parameters, progress: min(max(time, 0), 1), builtIn: TransitionEffects.all[effect] != nil)
    return try renderer.render(list)
  }
}

/// A built-in effect (`TransitionEffects.all`) or a registered shader, with parameter values.
public struct EffectTransitionFilter: TransitionFilter {
  public var effect: String
  public var parameters: [String: TransitionValue]

  public init(_ effect: String, parameters: [String: TransitionValue] = [:]) {
    self.effect = effect
    self.parameters = parameters
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

extension TransitionEffects {
  /// Where the new content comes from, in uv units with y up, for Core Animation's subtypes: the
  /// `direction` parameter of moveIn, push and reveal.
  public static func direction(_ subtype: TransitionSubtype) -> SIMD2<Float> {
    switch subtype {
    case .fromLeft: [-1, 0]
    case .fromRight: [1, 0]
    case .fromTop: [0, 1]
    case .fromBottom: [0, -1]
    }
  }
}

/// `kCATransition`: the key a layer keeps its transition under (any key given to `add` is
/// replaced by it, as Core Animation does).
public let kTransition = "transition"
