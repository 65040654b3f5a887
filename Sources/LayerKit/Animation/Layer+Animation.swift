/// An animation added to a layer: the stored copy and its compiled tracks.
struct AnimationEntry {
  let key: String
  let animation: Animation
  /// One track for a property animation; one per child, with the child's timing, for a group.
  let tracks: [(timing: MediaTiming, track: any AnimationTrack)]
}

extension Layer {
  /// Adds a copy of `animation` under `key` (replacing one with the same key), as
  /// CALayer.add(_:forKey:) does. A beginTime of 0 means "now": the layer's current local time
  /// in its scene (0 outside a scene).
  /// - Throws: `AnimationError` for an unknown key path, a value of the wrong type, bad timing,
  ///   spring or keyframe parameters — when the animation is added, never while rendering.
  public func add(_ animation: Animation, forKey key: String?) throws(AnimationError) {
    let copy = animation.copy()
    do {
      try copy.timing.validate(key ?? "animation")
    } catch {
      throw .invalidTiming(error)
    }
    let tracks: [(timing: MediaTiming, track: any AnimationTrack)]
    switch copy {
    case let group as AnimationGroup:
      var list: [(timing: MediaTiming, track: any AnimationTrack)] = []
      for child in group.animations {
        do {
          try child.timing.validate(child.keyPath)
        } catch {
          throw .invalidTiming(error)
        }
        list.append((child.timing, try track(for: child)))
      }
      tracks = list
    case let property as PropertyAnimation:
      tracks = [(property.timing, try track(for: property))]
    default:
      throw .unsupported(keyPath: key ?? "", reason: "\(type(of: copy)) animates nothing")
    }
    if copy.timing.beginTime == 0 {
      copy.timing.beginTime = currentLocalTime
    }
    let k = key ?? "animation-\(animationEntries.count)-\(ObjectIdentifier(copy).hashValue)"
    // An animation replaced under its key stops unfinished, as in Core Animation.
    removeAnimation(forKey: k)
    animationEntries.append(AnimationEntry(key: k, animation: copy, tracks: tracks))
  }

  private func track(for animation: PropertyAnimation) throws(AnimationError) -> any AnimationTrack {
    guard let property = AnimatableProperties.resolve(animation.keyPath) else {
      throw .unknownKeyPath(animation.keyPath)
    }
    return try property.makeTrack(animation, self)
  }

  /// The keys of the animations on the layer, in the order they were added.
  public var animationKeys: [String] { animationEntries.map(\.key) }

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
    var chain: [Layer] = []
    var node: Layer? = self
    while let n = node {
      chain.append(n)
      node = n.superlayer
    }
    var t = chain.last?.hostScene?.time ?? 0
    for layer in chain.reversed() { t = layer.timing.layerTime(parentTime: t) }
    return t
  }

  /// A copy of the tree with every animation applied at scene time `time`: a pure function of the
  /// model and `time` (CALayer.presentation() at a time you choose). Model values are untouched.
  public func presentation(at time: Double) -> Layer {
    presentationCopy(parentTime: time)
  }

  func presentationCopy(parentTime: Double) -> Layer {
    let copy = Layer()
    copy.copyModelValues(from: self)
    let local = timing.layerTime(parentTime: parentTime)
    for entry in animationEntries {
      entry.apply(to: copy, layerTime: local)
    }
    if let mask { copy.mask = mask.presentationCopy(parentTime: local) }
    for sub in sublayerList {
      copy.addSublayer(sub.presentationCopy(parentTime: local))
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
    let top = animation.timing
    let d = AnimationEntry.duration(top)
    guard let local = top.localTime(parentTime: layerTime, defaultDuration: d) else { return }
    if animation is AnimationGroup {
      for (timing, track) in tracks {
        let cd = AnimationEntry.duration(timing)
        guard let childLocal = timing.localTime(parentTime: local, defaultDuration: cd) else { continue }
        track.apply(
          to: layer, time: childLocal, duration: cd, iteration: timing.iteration(parentTime: local, defaultDuration: cd)
        )
      }
    } else if let (_, track) = tracks.first {
      track.apply(
        to: layer, time: local, duration: d, iteration: top.iteration(parentTime: layerTime, defaultDuration: d))
    }
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
    return Int(min(max(i, 0), max(count.rounded(.up) - 1, 0)))
  }
}
