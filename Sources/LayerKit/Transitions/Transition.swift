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
    return t
  }

  /// The effect's parameters for the subtype.
  var parameters: [String: TransitionValue] {
    type == .fade ? [:] : ["direction": .vec2(TransitionEffects.direction(subtype ?? .fromLeft))]
  }
}

/// A transition in progress on a presentation layer: what the builder needs to draw it.
struct ActiveTransition {
  let before: Layer
  let effect: String
  let parameters: [String: TransitionValue]
  let progress: Double
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
      before: before, effect: transition.type.rawValue, parameters: transition.parameters, progress: progress)
  }
}
