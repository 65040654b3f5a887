// Transitions between whole scenes, on the model of MotionTransitioning (and GTMotionTransitioning,
// a copy of it): a transition is an object with `start(context)`; the context says which way it
// runs (forward: the fore scene is being presented; backward: it is being dismissed), for how
// long, between which two root layers, in which container, and takes `transitionDidEnd()`.
// Optional protocols add a duration of the transition's own, feasibility (a transition may
// decline), a fallback (hand over to another transition) and a presentation participant (a
// dimming layer, say) that starts before the main transition and must end too. Transitions
// compose: `context.compose(with:)` starts a child with a context of its own. The whole ends once
// every participant has called `transitionDidEnd()`; then the blocks deferred to completion run,
// in order, and the container keeps the scene that was arrived at.
//
// Time is the scene's: participants add animations to layers of the container's scene, and end
// from those animations' stop callbacks (`context.add(_:to:)` does that), which `Scene.advance`
// delivers. Nothing here reads a clock.

/// Which way a scene transition runs.
public enum TransitionDirection: String, Sendable, CaseIterable {
  /// The fore scene is being presented over (or instead of) the back scene.
  case forward
  /// The fore scene is being dismissed, uncovering the back scene.
  case backward
}

/// A transition between two scenes' root layers.
public protocol SceneTransition: AnyObject {
  /// Starts the transition: adds animations to the context's layers, and calls
  /// `context.transitionDidEnd()` once they are over (or lets `context.add(_:to:)` call it).
  func start(_ context: SceneTransitionContext)
}

/// A transition that sets its own duration (otherwise `SceneTransitionContext.defaultDuration`).
public protocol SceneTransitionWithDuration: SceneTransition {
  func transitionDuration(_ context: SceneTransitionContext) -> Double
}

/// A transition that may decline to run, for example for a direction it does not support.
public protocol SceneTransitionWithFeasibility: SceneTransition {
  func canPerform(_ context: SceneTransitionContext) -> Bool
}

/// A transition that may hand over to another one: returning itself keeps it. A transition that
/// declines (SceneTransitionWithFeasibility) runs its fallback; without one, the scenes are
/// swapped at once.
public protocol SceneTransitionWithFallback: SceneTransition {
  func fallback(_ context: SceneTransitionContext) -> SceneTransition
}

/// A transition with a presentation participant: started before the main transition (with a
/// context of its own), it must end too, and its layers stay between the back and fore scenes
/// after a forward transition (a dimming layer under a sheet). While a presentation stays, the
/// back scene stays in the container under it.
public protocol SceneTransitionWithPresentation: SceneTransition {
  func presentation(_ context: SceneTransitionContext) -> SceneTransition?
}

/// What a participant of a scene transition sees: the direction, duration, scenes and container
/// of the whole, and a way to say it has ended.
public final class SceneTransitionContext {
  /// The duration a transition has unless it says otherwise (MotionTransitioning's default).
  public static let defaultDuration = 0.35

  public let direction: TransitionDirection
  /// Seconds of scene time.
  public let duration: Double
  /// The root of the scene underneath: the one left behind going forward, arrived at going back.
  public let back: Layer
  /// The root of the scene on top: the one presented going forward, dismissed going back.
  public let fore: Layer
  /// The layer both scenes are sublayers of while the transition runs.
  public let container: Layer
  /// This participant's name, as reported when it never ends ("main", "presentation", or the
  /// name given to `compose(with:name:)`).
  public let name: String
  /// The transition this context was given to.
  public let transition: SceneTransition

  /// The run this context belongs to.
  unowned let run: SceneTransitionRun
  private(set) var ended = false
  /// Animations added with `add(_:to:forKey:)` that have not stopped yet.
  private var running = 0

  init(run: SceneTransitionRun, transition: SceneTransition, name: String, duration: Double) {
    self.run = run
    self.transition = transition
    self.name = name
    self.direction = run.direction
    self.duration = duration
    self.back = run.back
    self.fore = run.fore
    self.container = run.container
  }

  /// Says this participant is done. The transition ends when every participant has; a second
  /// call is harmless.
  public func transitionDidEnd() {
    guard !ended else { return }
    ended = true
    run.participantEnded()
  }

  /// Starts `transition` as a child participant, with a context of its own (the same direction,
  /// scenes and container; its own duration if it has one, else this context's). The whole ends
  /// only once the child has ended too.
  @discardableResult
  public func compose(with transition: SceneTransition, name: String? = nil) -> SceneTransitionContext {
    run.start(transition, name: name ?? "\(self.name).\(run.participants.count)", inheritedDuration: duration)
  }

  /// Runs `work` when the whole transition ends, after the blocks deferred before it.
  public func deferToCompletion(_ work: @escaping () -> Void) {
    run.deferred.append(work)
  }

  /// Adds `animation` to `layer` and counts it against this participant: when every animation
  /// added this way has stopped (finished or removed), the participant ends. An animation without
  /// a duration takes the context's.
  public func add(_ animation: Animation, to layer: Layer, forKey key: String? = nil) throws(AnimationError) {
    let copy = animation.copy()
    if copy.duration == 0 { copy.duration = duration }
    copy.delegate = EndOnStop(self)
    running += 1
    do {
      try layer.addChecked(copy, forKey: key)
    } catch {
      running -= 1
      throw error
    }
  }

  fileprivate func animationStopped() {
    running -= 1
    if running == 0 { transitionDidEnd() }
  }

  /// Sets model values without implicit animations (the transition animates them explicitly).
  public func withoutActions(_ body: () -> Void) {
    Transaction.begin()
    Transaction.setDisableActions(true)
    body()
    Transaction.commit()
  }
}

/// Ends a participant when the last of its animations stops.
private final class EndOnStop: AnimationDelegate {
  weak var context: SceneTransitionContext?
  init(_ context: SceneTransitionContext) { self.context = context }
  func animationDidStop(_ animation: Animation, finished: Bool) { context?.animationStopped() }
}

/// One scene transition from start to end: the participants, the blocks deferred to completion,
/// and what the container holds at the end.
public final class SceneTransitionRun {
  public let direction: TransitionDirection
  public let back: Layer
  public let fore: Layer
  public let container: Layer
  /// The transition that runs after fallbacks and feasibility (nil: declined without a fallback;
  /// the scenes were swapped at once).
  public private(set) var transition: SceneTransition?
  /// Every participant's context, the presentation first when there is one.
  public private(set) var participants: [SceneTransitionContext] = []
  /// Whether every participant has ended and the deferred blocks have run.
  public private(set) var isFinished = false
  /// Runs once, after the deferred blocks.
  public var completion: (() -> Void)?

  fileprivate var deferred: [() -> Void] = []
  /// Whether a presentation participant ran (its layers, and the back scene, stay going forward).
  private var presented = false
  /// While starting, participants that end at once do not end the run before the rest start.
  private var starting = true

  /// The participants that have not called `transitionDidEnd()`, by name.
  public var unfinishedParticipants: [String] { participants.filter { !$0.ended }.map(\.name) }

  /// Starts `transition` between `back` and `fore` in `container`, at the current time of the
  /// container's scene. Going forward `fore` is added above `back` (which is added first if it is
  /// not in the container); going backward `back` is added below `fore`.
  /// - Parameters:
  ///   - completion: runs when the transition has ended (after the deferred blocks).
  public init(
    _ transition: SceneTransition, direction: TransitionDirection, back: Layer, fore: Layer, container: Layer,
    completion: (() -> Void)? = nil
  ) {
    self.direction = direction
    self.back = back
    self.fore = fore
    self.container = container
    self.completion = completion
    Transaction.begin()
    Transaction.setDisableActions(true)
    if back.superlayer !== container {
      if fore.superlayer === container {
        container.insertSublayer(back, below: fore)
      } else {
        container.addSublayer(back)
      }
    }
    if fore.superlayer !== container { container.addSublayer(fore) }
    Transaction.commit()
    let chosen = resolve(transition)
    self.transition = chosen
    guard let chosen else {
      starting = false
      finish()
      return
    }
    let duration = Self.duration(of: chosen, self)
    if let presenting = chosen as? SceneTransitionWithPresentation {
      let probe = SceneTransitionContext(run: self, transition: chosen, name: "presentation", duration: duration)
      if let presentation = presenting.presentation(probe) {
        presented = true
        start(presentation, name: "presentation", inheritedDuration: duration)
      }
    }
    start(chosen, name: "main", inheritedDuration: duration)
    starting = false
    if participants.allSatisfy(\.ended) { finish() }
  }

  /// A run that starts nothing: what the planning functions ask transitions about.
  private init(probe direction: TransitionDirection) {
    self.direction = direction
    back = Layer()
    fore = Layer()
    container = Layer()
    starting = false
  }

  /// How long `transition` will run going `direction`, as a run would resolve it (fallbacks
  /// followed, 0 when it declines): for laying out a video before it starts. The probe context
  /// has empty layers; a transition whose duration depends on its scenes sees none.
  public static func plannedDuration(of transition: SceneTransition, direction: TransitionDirection) -> Double {
    let probe = SceneTransitionRun(probe: direction)
    guard let chosen = probe.resolve(transition) else { return 0 }
    return duration(of: chosen, probe)
  }

  /// The transition that runs: fallbacks followed (at most 8 steps, so two transitions naming
  /// each other cannot loop), a declining one replaced by its fallback, or nil.
  private func resolve(_ first: SceneTransition) -> SceneTransition? {
    var current = first
    for _ in 0..<8 {
      let probe = SceneTransitionContext(
        run: self, transition: current, name: "main", duration: Self.duration(of: current, self))
      let feasible = (current as? SceneTransitionWithFeasibility)?.canPerform(probe) ?? true
      let next = (current as? SceneTransitionWithFallback)?.fallback(probe)
      if let next, next !== current {
        current = next
        continue
      }
      return feasible ? current : nil
    }
    return nil
  }

  private static func duration(of transition: SceneTransition, _ run: SceneTransitionRun) -> Double {
    guard let custom = transition as? SceneTransitionWithDuration else { return SceneTransitionContext.defaultDuration }
    let probe = SceneTransitionContext(
      run: run, transition: transition, name: "main", duration: SceneTransitionContext.defaultDuration)
    let d = custom.transitionDuration(probe)
    return d.isFinite && d >= 0 ? d : SceneTransitionContext.defaultDuration
  }

  @discardableResult
  fileprivate func start(_ transition: SceneTransition, name: String, inheritedDuration: Double)
    -> SceneTransitionContext
  {
    let own = transition as? SceneTransitionWithDuration
    let duration = own != nil ? Self.duration(of: transition, self) : inheritedDuration
    let context = SceneTransitionContext(run: self, transition: transition, name: name, duration: duration)
    participants.append(context)
    transition.start(context)
    return context
  }

  fileprivate func participantEnded() {
    guard !starting, !isFinished, participants.allSatisfy(\.ended) else { return }
    finish()
  }

  /// Every participant has ended: the deferred blocks run in order, then the container keeps the
  /// scene arrived at (going forward the back scene leaves unless a presentation stays over it;
  /// going backward the fore scene leaves).
  private func finish() {
    isFinished = true
    // Blocks deferred by other blocks run too, after them.
    var i = 0
    while i < deferred.count {
      deferred[i]()
      i += 1
    }
    deferred = []
    Transaction.begin()
    Transaction.setDisableActions(true)
    switch direction {
    case .forward:
      if !presented && back.superlayer === container { back.removeFromSuperlayer() }
    case .backward:
      if fore.superlayer === container { fore.removeFromSuperlayer() }
    }
    Transaction.commit()
    completion?()
    completion = nil
  }
}
