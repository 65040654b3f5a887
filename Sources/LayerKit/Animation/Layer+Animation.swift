import Foundation

/// An animation added to a layer: the stored copy and its compiled tracks.
struct AnimationEntry {
  let key: String
  let animation: Animation
  let node: TrackNode
  /// Whether it animates a key for which the layer's class's `needsDisplay(forKey:)` is true, so
  /// each presented frame draws the layer anew (found once, when it is added).
  let redraws: Bool
}

/// The compiled form of an animation: a property track, or a group of nodes in the group's time.
indirect enum TrackNode {
  case property(MediaTiming, any AnimationTrack)
  /// A group: its timing, its timing function (which paces its children's time), its children.
  case group(MediaTiming, MediaTimingFunction?, [TrackNode])
  case transition(MediaTiming, TransitionTrack)

  var timing: MediaTiming {
    switch self {
    case .property(let t, _), .group(let t, _, _), .transition(let t, _): t
    }
  }

  /// Applies the node at its parent's time (the layer's, or the enclosing group's local time).
  /// - Parameter defaultDuration: the duration of a node that sets none: the enclosing group's
  ///   (CAAnimationGroup's children take the group's duration), or 0.25 s at the top.
  func apply(to layer: Layer, parentTime: Double, defaultDuration: Double = MediaTiming.defaultAnimationDuration) {
    let timing = self.timing
    let d = timing.duration > 0 ? timing.duration : defaultDuration
    guard let local = timing.localTime(parentTime: parentTime, defaultDuration: d) else { return }
    switch self {
    case .property(_, let track):
      track.apply(
        to: layer, time: local, duration: d, iteration: timing.iteration(parentTime: parentTime, defaultDuration: d))
    case .group(_, let function, let children):
      // Children run in the group's local time, which the group's duration clips and its timing
      // function paces (a time t of the group is d × f(t / d) for its children).
      let paced = function.map { d > 0 ? d * $0.value(at: min(max(local / d, 0), 1)) : local } ?? local
      for child in children { child.apply(to: layer, parentTime: paced, defaultDuration: d) }
    case .transition(_, let track):
      track.apply(to: layer, time: local, duration: d)
    }
  }
}

extension Layer {
  /// Adds a copy of `animation` under `key` (replacing one with the same key), as
  /// CALayer.add(_:forKey:) does, and as Core Animation code writes it — no `try`: an animation
  /// that cannot run (an unknown key path, a value of the wrong type, bad timing, spring or
  /// keyframe parameters) is not added, and `Layer.animationFailureReporter` is told (by default,
  /// one line on standard error), where Core Animation ignores it silently. `addChecked(_:forKey:)`
  /// throws instead.
  public func add(_ animation: Animation, forKey key: String?) {
    do {
      try addChecked(animation, forKey: key)
    } catch {
      Layer.animationFailureReporter(error, key)
    }
  }

  /// Told of every animation `add(_:forKey:)` could not add, with its key; by default one line
  /// on standard error. Set it to log elsewhere, collect, or fail a test.
  public static var animationFailureReporter: @Sendable (AnimationError, String?) -> Void {
    get { failureReporter.withLock { $0 } }
    set { failureReporter.withLock { $0 = newValue } }
  }

  /// Adds a copy of `animation` under `key` (replacing one with the same key), as
  /// CALayer.add(_:forKey:) does. A beginTime of 0 means "now": the layer's current local time
  /// in its scene (0 outside a scene).
  /// - Throws: `AnimationError` for an unknown key path, a value of the wrong type, bad timing,
  ///   spring or keyframe parameters — when the animation is added, never while rendering.
  public func addChecked(_ animation: Animation, forKey key: String?) throws(AnimationError) {
    let copy = animation.copy()
    do {
      try copy.timing.validate(key ?? "animation")
    } catch {
      throw .invalidTiming(error)
    }
    if copy.timing.beginTime == 0 {
      copy.timing.beginTime = currentLocalTime
    }
    // A duration of 0 means the transaction's animation duration (0.25 s by default).
    if copy.timing.duration == 0 {
      copy.timing.duration = Transaction.current.duration
    }
    // Compiled after the begin time is settled: the tracks keep the timing they were given.
    let node = try compile(copy, owner: key ?? "animation")
    // One transition per layer, under "transition", whatever the key (CATransition's rule).
    let key = copy is Transition ? "transition" : key
    let k = key ?? "animation-\(animationEntries.count)-\(ObjectIdentifier(copy).hashValue)"
    // An animation replaced under its key stops unfinished, as in Core Animation.
    removeAnimation(forKey: k)
    animationEntries.append(AnimationEntry(key: k, animation: copy, node: node, redraws: animatesDisplayedKey(copy)))
  }

  /// Checks an animation (and a group's children, at any depth) and compiles its tracks.
  private func compile(_ animation: Animation, owner: String) throws(AnimationError) -> TrackNode {
    switch animation {
    case let group as AnimationGroup:
      var children: [TrackNode] = []
      for child in group.animations {
        do {
          try child.timing.validate((child as? PropertyAnimation)?.keyPath ?? "group child")
        } catch {
          throw .invalidTiming(error)
        }
        children.append(try compile(child, owner: owner))
      }
      return .group(group.timing, group.timingFunction, children)
    case let property as PropertyAnimation:
      return .property(property.timing, try track(for: property))
    case let transition as Transition:
      guard (0...1).contains(transition.startProgress), (0...1).contains(transition.endProgress),
        transition.endProgress >= transition.startProgress
      else {
        throw .unsupported(keyPath: "transition", reason: "startProgress and endProgress must lie in 0…1, end ≥ start")
      }
      return .transition(transition.timing, TransitionTrack(before: transitionSnapshot(), transition: transition))
    default:
      throw .unsupported(keyPath: owner, reason: "\(type(of: animation)) animates nothing")
    }
  }

  private func track(for animation: PropertyAnimation) throws(AnimationError) -> any AnimationTrack {
    guard let property = resolveProperty(animation.keyPath) else {
      throw .unknownKeyPath(animation.keyPath)
    }
    try checkFilterParameter(animation.keyPath)
    return try property.makeTrack(animation, self)
  }

  /// A `filters.NAME.PARAM` path whose filter the layer has must name one of its parameters
  /// (a filter added later is checked when it is set, and a parameter it lacks is left alone).
  private func checkFilterParameter(_ keyPath: String) throws(AnimationError) {
    let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 3, parts[0] == "filters" || parts[0] == "backgroundFilters" else { return }
    let list = parts[0] == "filters" ? filters : backgroundFilters
    guard let filter = list.first(where: { $0.name == parts[1] }) else { return }
    var probe = filter
    do {
      try probe.setValue(filter.parameters[parts[2]] ?? 0, forKey: parts[2])
    } catch {
      throw .unsupported(keyPath: keyPath, reason: error.description)
    }
  }

  /// The keys of the animations on the layer, in the order they were added; nil when there are
  /// none (CALayer's `animationKeys()`).
  public func animationKeys() -> [String]? {
    animationEntries.isEmpty ? nil : animationEntries.map(\.key)
  }

  /// The stored copy of the animation under `key`.
  public func animation(forKey key: String) -> Animation? {
    animationEntries.first { $0.key == key }?.animation
  }

  /// Removes the animation under `key`; its delegate hears that it stopped unfinished.
  public func removeAnimation(forKey key: String) {
    let removed = animationEntries.filter { $0.key == key }
    animationEntries.removeAll { $0.key == key }
    for entry in removed { entry.animation.delegate?.animationDidStop(entry.animation, finished: false) }
  }

  /// Removes every animation; their delegates hear that they stopped unfinished.
  public func removeAllAnimations() {
    let removed = animationEntries
    animationEntries.removeAll()
    for entry in removed { entry.animation.delegate?.animationDidStop(entry.animation, finished: false) }
  }

  /// The layer's local time now: its scene's time carried down the tree (0 outside a scene).
  public var currentLocalTime: Double {
    var root: Layer = self
    while let up = root.superlayer { root = up }
    return timing.layerTime(parentTime: parentTime(atRootTime: root.hostScene?.time ?? 0))
  }

  /// The time in this layer's superlayer for a time of the root's parent (the scene): `time`
  /// carried down through every ancestor's timing, as Core Animation's `convertTime(_:from: nil)`
  /// does. The root's own parent time is `time` itself.
  func parentTime(atRootTime time: Double) -> Double {
    var ancestors: [Layer] = []
    var node = superlayer
    while let n = node {
      ancestors.append(n)
      node = n.superlayer
    }
    var t = time
    for layer in ancestors.reversed() { t = layer.timing.layerTime(parentTime: t) }
    return t
  }

  /// A copy of the subtree with every animation applied at scene time `time`: a pure function of
  /// the model and `time` (CALayer.presentation() at a time you choose). The time reaches this
  /// layer through its ancestors' timing (speed, beginTime, timeOffset), so a sublayer's
  /// presentation agrees with the one its root's presentation holds. Model values are untouched.
  /// Of the layer's own class, as CALayer's (`shape.presentation(at: t).strokeEnd`).
  public func presentation(at time: Double) -> Self {
    // The copy is made by `type(of: self).init()`.
    presentationCopy(parentTime: parentTime(atRootTime: time)) as! Self
  }

  /// The subtree as its scene last presented it (or as it is now, outside a scene), without
  /// animations: the "before" image of a transition.
  func transitionSnapshot() -> Layer {
    if let shown = scene?.presentedCopies[ObjectIdentifier(self)] {
      // What it showed; a transition it was running then is not carried into the new one.
      shown.activeTransition = nil
      return shown
    }
    let parentTime = superlayer?.currentLocalTime ?? (scene?.time ?? 0)
    return presentationCopy(parentTime: parentTime)
  }

  /// - Parameter replicated: the product of the `instanceCount`s of the replicators above: past
  ///   `Limits.maxReplicatedInstances` no instance copies are made (the builder refuses the tree).
  /// - Parameter particles: what the frame may still spend on particles, shared by the whole
  ///   tree (made at its root).
  func presentationCopy(
    parentTime: Double, record: ((Layer, Layer) -> Void)? = nil, replicated: Int = 1,
    particles: EmitterLayer.FrameBudget = EmitterLayer.FrameBudget()
  ) -> Layer {
    // The layer lays its sublayers out first (if asked), so the copies below see where it put them.
    if layoutPending { runLayout() }
    let copy = type(of: self).init()
    // What a subclass's init() adds (sublayers, a mask) is the model's to show: its own copies
    // come below, as Core Animation's shadow copies (init(layer:)) start without them.
    copy.sublayers = nil
    copy.mask = nil
    record?(self, copy)
    copy.copyModelValues(from: self)
    // A presentation tree placed in another scene keeps the transitions it was showing.
    copy.activeTransition = activeTransition
    let local = timing.layerTime(parentTime: parentTime)
    for entry in animationEntries {
      entry.apply(to: copy, layerTime: local)
    }
    let replicator = copy as? ReplicatorLayer
    let (inner, overflow) = replicated.multipliedReportingOverflow(by: max(replicator?.instanceCount ?? 1, 1))
    let within = !overflow && inner <= Limits.maxReplicatedInstances
    let below = within ? inner : Limits.maxReplicatedInstances + 1
    if let mask {
      copy.mask = mask.presentationCopy(parentTime: local, record: record, replicated: replicated, particles: particles)
    }
    for sub in sublayerList {
      copy.addSublayer(sub.presentationCopy(parentTime: local, record: record, replicated: below, particles: particles))
    }
    // The layer's drawing (drawn now if it was asked for), under its particles and sublayers;
    // drawn anew for this frame while a key that needs display animates.
    if needsDisplay { display() }
    var drawn = self.drawn
    if animationEntries.contains(where: \.redraws) {
      let ctx = DrawingContext(bounds: copy.bounds)
      PresentedDrawing.drawing(self, as: copy) { draw(in: ctx) }
      drawn = ctx.drawing.sublayerList.isEmpty ? nil : ctx.drawing
    }
    if let drawn {
      copy.insertSublayer(
        drawn.presentationCopy(parentTime: local, record: nil, replicated: replicated, particles: particles), at: 0)
    }
    // An emitter's particles at its time, under its sublayers (over its drawing).
    if let emitter = copy as? EmitterLayer {
      let under = drawn == nil ? 0 : 1
      for (n, particle) in emitter.particleLayers(at: local, budget: particles, replicated: replicated).enumerated() {
        copy.insertSublayer(particle, at: under + n)
      }
    }
    // A replicator's instances show its sublayers at their own delays.
    if let replicator, replicator.instanceCount > 1, within {
      replicator.instanceSublayers = (1..<replicator.instanceCount).map { k in
        sublayerList.map {
          $0.presentationCopy(
            parentTime: local - Double(k) * replicator.instanceDelay, replicated: inner, particles: particles)
        }
      }
    }
    return copy
  }
}

extension AnimationEntry {
  /// The simple duration: the animation's, or Core Animation's default of 0.25 s for 0.
  static func duration(_ timing: MediaTiming) -> Double {
    timing.duration > 0 ? timing.duration : MediaTiming.defaultAnimationDuration
  }

  func apply(to layer: Layer, layerTime: Double) {
    node.apply(to: layer, parentTime: layerTime)
  }
}

extension MediaTiming {
  /// Which repeat a parent time falls in (0 for the first), for cumulative animations.
  func iteration(parentTime: Double, defaultDuration: Double) -> Int {
    let d = duration > 0 ? duration : defaultDuration
    let cycle = d * (autoreverses ? 2 : 1)
    guard cycle > 0 else { return 0 }
    let elapsed = (parentTime - beginTime) * speed + timeOffset
    let count = repeatDuration > 0 ? repeatDuration / cycle : max(repeatCount, 1)
    let i = (elapsed / cycle).rounded(.down)
    guard i.isFinite else { return 0 }
    // Bounded before the conversion: an endless repeat of a tiny duration counts past Int.
    return Int(min(max(i, 0), max(count.rounded(.up) - 1, 0), Double(Int32.max)))
  }
}

private let failureReporter = Locked<@Sendable (AnimationError, String?) -> Void> { error, key in
  let name = key.map { "'\($0)' " } ?? ""
  FileHandle.standardError.write(Data("LayerKit: animation \(name)not added: \(error)\n".utf8))
}
