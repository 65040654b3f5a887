// The built-in scene transitions. Each is written once, in terms of the direction: it names the
// values of the forward transition (where each layer starts and ends), and going backward the
// same values run the other way. The model value of every animated property is set to where the
// transition ends, so nothing jumps when the animations are removed.

/// Where a root layer sits when it fills the container: the position that puts its frame on the
/// container's bounds.
func homePosition(of layer: Layer, in container: Layer) -> Point {
  let b = container.bounds
  return Point(x: b.minX + b.width * layer.anchorPoint.x, y: b.minY + b.height * layer.anchorPoint.y)
}

extension SceneTransitionContext {
  /// Animates the property `keyPath` (the model's `property`) of `layer` between the forward
  /// transition's `start` and `end` (the other way going backward), leaving the model at the
  /// value it ends on. A failure to add the animation ends the participant rather than leaving it
  /// hanging.
  public func animate<Value: Animatable>(
    _ layer: Layer, _ property: ReferenceWritableKeyPath<Layer, Value>, keyPath: String,
    forward start: Value, _ end: Value, timing: MediaTimingFunction? = .easeInEaseOut
  ) {
    let (from, to) = direction == .forward ? (start, end) : (end, start)
    withoutActions { layer[keyPath: property] = to }
    let animation = BasicAnimation(keyPath: keyPath)
    animation.fromValue = from
    animation.toValue = to
    animation.timingFunction = timing
    do {
      try add(animation, to: layer, forKey: "scene-transition.\(keyPath)")
    } catch {
      transitionDidEnd()
    }
  }
}

/// The fore scene fades in over the back scene (going backward, out).
public final class FadeSceneTransition: SceneTransitionWithDuration {
  public var duration: Double
  public var timing: MediaTimingFunction?

  public init(duration: Double = SceneTransitionContext.defaultDuration, timing: MediaTimingFunction? = .easeInEaseOut)
  {
    self.duration = duration
    self.timing = timing
  }

  public func transitionDuration(_ context: SceneTransitionContext) -> Double { duration }

  public func start(_ context: SceneTransitionContext) {
    context.animate(context.fore, \.opacity, keyPath: "opacity", forward: 0.0, 1.0, timing: timing)
  }
}

/// Navigation's slide: going forward the fore scene slides in from the trailing edge (the right)
/// while the back scene moves a third of the way out to the left; going backward the fore scene
/// slides back out and the back scene returns.
public final class SlideSceneTransition: SceneTransitionWithDuration {
  public var duration: Double
  public var timing: MediaTimingFunction?
  /// How far the back scene moves, as a fraction of the container's width.
  public var parallax: Double

  public init(
    duration: Double = SceneTransitionContext.defaultDuration, timing: MediaTimingFunction? = .easeInEaseOut,
    parallax: Double = 1.0 / 3.0
  ) {
    self.duration = duration
    self.timing = timing
    self.parallax = parallax
  }

  public func transitionDuration(_ context: SceneTransitionContext) -> Double { duration }

  public func start(_ context: SceneTransitionContext) {
    let width = context.container.bounds.width
    let fore = homePosition(of: context.fore, in: context.container)
    let back = homePosition(of: context.back, in: context.container)
    context.animate(
      context.fore, \.position, keyPath: "position", forward: Point(x: fore.x + width, y: fore.y), fore, timing: timing)
    context.animate(
      context.back, \.position, keyPath: "position", forward: back, Point(x: back.x - width * parallax, y: back.y),
      timing: timing)
  }
}

/// A sheet: going forward the fore scene rises from the bottom edge over the back scene, which a
/// dimming layer (the presentation participant) darkens and which stays under it; going backward
/// the sheet goes back down and the dimming fades out and is removed.
public final class SheetSceneTransition: SceneTransitionWithDuration, SceneTransitionWithPresentation {
  public var duration: Double
  public var timing: MediaTimingFunction?
  /// The dimming layer's colour and opacity over the back scene while the sheet is up.
  public var dimming: Color
  public var dimmingOpacity: Double

  public init(
    duration: Double = 0.45, timing: MediaTimingFunction? = .easeInEaseOut, dimming: Color = .black,
    dimmingOpacity: Double = 0.4
  ) {
    self.duration = duration
    self.timing = timing
    self.dimming = dimming
    self.dimmingOpacity = dimmingOpacity
  }

  public func transitionDuration(_ context: SceneTransitionContext) -> Double { duration }

  public func presentation(_ context: SceneTransitionContext) -> SceneTransition? {
    DimmingPresentation(color: dimming, opacity: dimmingOpacity, timing: timing)
  }

  public func start(_ context: SceneTransitionContext) {
    let height = context.container.bounds.height
    let home = homePosition(of: context.fore, in: context.container)
    context.animate(
      context.fore, \.position, keyPath: "position", forward: Point(x: home.x, y: home.y + height), home, timing: timing
    )
  }
}

/// A presentation participant: a layer of one colour over the back scene, under the fore one,
/// fading to `opacity` going forward (and staying), and going backward fading out and leaving.
/// Going backward it finds the layer an earlier forward transition left (by name).
public final class DimmingPresentation: SceneTransition {
  public static let layerName = "layerkit.dimming"
  public var color: Color
  public var opacity: Double
  public var timing: MediaTimingFunction?

  public init(color: Color = .black, opacity: Double = 0.4, timing: MediaTimingFunction? = .easeInEaseOut) {
    self.color = color
    self.opacity = opacity
    self.timing = timing
  }

  public func start(_ context: SceneTransitionContext) {
    let container = context.container
    let dim: Layer
    if let existing = container.sublayerList.last(where: { $0.name == Self.layerName && $0.zPosition == 0 }),
      context.direction == .backward
    {
      dim = existing
    } else {
      dim = Layer(frame: container.bounds)
      dim.name = Self.layerName
      dim.backgroundColor = color
      context.withoutActions {
        dim.opacity = 0
        container.insertSublayer(dim, below: context.fore)
      }
    }
    context.animate(dim, \.opacity, keyPath: "opacity", forward: 0.0, opacity, timing: timing)
    if context.direction == .backward {
      context.deferToCompletion { dim.removeFromSuperlayer() }
    }
  }
}

/// Any Core Animation transition (fade, moveIn, push, reveal from a side) or filter transition (a
/// built-in effect or a registered shader, with parameters) as a scene transition: the container's
/// change from the back scene to the fore one runs through the effect. Going backward the same
/// effect plays backwards (`Transition.reversesEffect`): a push from the right brings the back
/// scene back in from the left; a page curl lays the page back down.
public final class EffectSceneTransition: SceneTransitionWithDuration {
  public let transition: Transition
  public var duration: Double

  /// A Core Animation transition.
  public convenience init(
    type: TransitionType, subtype: TransitionSubtype? = nil, duration: Double = SceneTransitionContext.defaultDuration,
    timing: MediaTimingFunction? = .easeInEaseOut
  ) {
    self.init(Transition(type: type, subtype: subtype), duration: duration, timing: timing)
  }

  /// A filter transition.
  public convenience init(
    filter: any TransitionFilter, duration: Double = SceneTransitionContext.defaultDuration,
    timing: MediaTimingFunction? = .easeInEaseOut
  ) {
    let t = Transition()
    t.filter = filter
    self.init(t, duration: duration, timing: timing)
  }

  /// `transition`'s type, subtype, filter and progress range; its timing is the scene
  /// transition's.
  public init(_ transition: Transition, duration: Double, timing: MediaTimingFunction?) {
    self.transition = transition.copy() as! Transition
    self.transition.timingFunction = timing
    self.duration = duration
  }

  public func transitionDuration(_ context: SceneTransitionContext) -> Double { duration }

  public func start(_ context: SceneTransitionContext) {
    // The scene being left is hidden for the length of the transition: the effect mixes what the
    // container showed (the snapshot) into the scene arrived at alone.
    let leaving = context.direction == .forward ? context.back : context.fore
    context.withoutActions { leaving.isHidden = true }
    context.deferToCompletion { leaving.isHidden = false }
    let t = transition.copy() as! Transition
    t.reversesEffect = context.direction == .backward
    t.duration = context.duration
    do {
      try context.add(t, to: context.container)
    } catch {
      context.transitionDidEnd()
    }
  }
}

/// No animation: the scenes swap at once (what a declining transition without a fallback
/// amounts to, written as a transition).
public final class CutSceneTransition: SceneTransition {
  public init() {}
  public func start(_ context: SceneTransitionContext) { context.transitionDidEnd() }
}

/// A stack of scenes, navigation-style: `push` presents a scene with its transition (forward);
/// `pop` dismisses the top one with the transition it was pushed with (backward).
public final class SceneNavigator {
  public let container: Layer
  /// The scenes, bottom first, each with the transition it arrived with (nil for the first).
  public private(set) var stack: [(root: Layer, transition: SceneTransition?)]
  /// Every transition started, oldest first.
  public private(set) var runs: [SceneTransitionRun] = []

  /// - Parameters:
  ///   - container: the layer the scenes are shown in (each scene's root fills its bounds).
  ///   - root: the first scene, added to the container.
  public init(container: Layer, root: Layer) {
    self.container = container
    stack = [(root, nil)]
    Transaction.begin()
    Transaction.setDisableActions(true)
    if root.superlayer !== container { container.addSublayer(root) }
    Transaction.commit()
  }

  public var top: Layer { stack[stack.count - 1].root }

  /// Presents `root` over the top scene with `transition`, forward; with `animated` false at once
  /// (the transition is kept for the pop).
  @discardableResult
  public func push(_ root: Layer, transition: SceneTransition, animated: Bool = true) -> SceneTransitionRun {
    let run = SceneTransitionRun(
      animated ? transition : CutSceneTransition(), direction: .forward, back: top, fore: root, container: container)
    stack.append((root, transition))
    runs.append(run)
    return run
  }

  /// Dismisses the top scene with the transition it was pushed with, backward; nil when only the
  /// first scene is left.
  @discardableResult
  public func pop() -> SceneTransitionRun? {
    guard stack.count > 1, let transition = stack[stack.count - 1].transition else { return nil }
    let fore = stack.removeLast().root
    let run = SceneTransitionRun(transition, direction: .backward, back: top, fore: fore, container: container)
    runs.append(run)
    return run
  }

  /// Participants of every transition that have not ended, as "run N: name".
  public var unfinishedParticipants: [String] {
    runs.enumerated().flatMap { i, run in run.unfinishedParticipants.map { "transition \(i + 1): \($0)" } }
  }
}
