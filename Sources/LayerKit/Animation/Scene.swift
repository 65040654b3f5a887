/// A layer tree with a clock that moves only when told to (render at t, step to t): the time
/// source animations are added and evaluated against. Nothing here reads the wall clock, so
/// rendering the same scene at the same time gives the same pixels, every run.
///
/// `advance(to:)` delivers the animations' start and stop callbacks in scene-time order and
/// removes finished animations whose `isRemovedOnCompletion` is true.
public final class Scene {
  public let root: Layer
  /// The scene's current time, in seconds.
  public private(set) var time: Double

  /// An action that could not run: the layer, the key whose change triggered it, and why.
  public struct ActionFailure: Sendable, Equatable {
    public var layer: String
    public var key: String
    public var error: AnimationError
  }

  /// Called when an implicit action found for a property change cannot be added (say a custom
  /// action animates a key path the property's value does not fit). A property setter cannot
  /// throw, so the failure comes here instead of vanishing; the default handler keeps it in
  /// `actionFailures`.
  public var onActionFailure: ((ActionFailure) -> Void)?

  /// The actions that failed since the scene was made, oldest first (at most the last 100), when
  /// `onActionFailure` is not set.
  public private(set) var actionFailures: [ActionFailure] = []

  func actionFailed(_ failure: ActionFailure) {
    if let onActionFailure {
      onActionFailure(failure)
    } else {
      actionFailures.append(failure)
      if actionFailures.count > 100 { actionFailures.removeFirst(actionFailures.count - 100) }
    }
  }
  private var started = Set<ObjectIdentifier>()
  /// Transaction completion blocks waiting for their animations.
  private var completions: [(block: () -> Void, animations: [Transaction.Added])] = []

  /// - Parameters:
  ///   - root: the tree; its frame is placed in the target's point space when rendered.
  ///   - time: the clock's start.
  public init(root: Layer, time: Double = 0) {
    self.root = root
    self.time = time
    root.hostScene = self
    MediaClock.now = time
  }

  /// The presentation tree at the current time. From now on, changes to the layers of the tree
  /// run their actions (implicit animations).
  public func presentation() -> Layer {
    markPresented(root)
    var copies: [ObjectIdentifier: Layer] = [:]
    let tree = root.presentationCopy(parentTime: time) { original, copy in copies[ObjectIdentifier(original)] = copy }
    presentedCopies = copies
    return tree
  }

  /// The copies of the last presentation, by the layer they copy: what each layer showed, for
  /// the "before" image of a transition added after a change.
  var presentedCopies: [ObjectIdentifier: Layer] = [:]

  private func markPresented(_ layer: Layer) {
    layer.wasPresented = true
    if let mask = layer.mask { markPresented(mask) }
    for sub in layer.sublayerList { markPresented(sub) }
  }

  /// Queues a transaction's completion block until `animations` have all finished.
  func addCompletion(_ block: @escaping () -> Void, waitingFor animations: [Transaction.Added]) {
    completions.append((block, animations))
  }

  /// Scene time at which `animation` on `layer` ends; nil if never (infinite, or frozen time).
  func endTime(of animation: Animation, on layer: Layer) -> Double? {
    var chain: [Layer] = []
    var node: Layer? = layer
    while let n = node {
      chain.append(n)
      node = n.superlayer
    }
    var scale = 1.0
    var offset = 0.0
    for l in chain.reversed() {
      offset = (offset - l.timing.beginTime) * l.timing.speed + l.timing.timeOffset
      scale *= l.timing.speed
    }
    let t = animation.timing
    guard scale > 0, t.speed > 0 else { return nil }
    let end = (t.beginTime + t.activeDuration(defaultDuration: AnimationEntry.duration(t)) / t.speed - offset) / scale
    return end.isFinite ? end : nil
  }

  /// The presentation tree at `t`, without moving the clock.
  public func presentation(at t: Double) -> Layer { root.presentation(at: t) }

  /// A render list of the presentation tree at the current time.
  public func renderList(width: Int, height: Int, scale: Double = 1, background: Color = .clear) throws(RenderError)
    -> RenderList
  {
    try RenderList(layer: presentation(), width: width, height: height, scale: scale, background: background)
  }

  /// Moves the clock forward by `dt` seconds.
  public func step(by dt: Double) { advance(to: time + dt) }

  /// Moves the clock to `t` (never backwards: an earlier `t` is ignored), firing every start and
  /// stop in between in time order, and removing finished animations.
  public func advance(to t: Double) {
    guard t.isFinite, t >= time else { return }
    Transaction.flush()
    var events: [Event] = []
    collectAnimationEvents(of: root, scale: 1, offset: 0, until: t, into: &events)
    collectCompletionEvents(until: t, into: &events)
    time = t
    MediaClock.now = t
    // Ties keep the order of collection: starts and stops in tree order, then completions.
    for e in events.sorted(by: { ($0.time, $0.order) < ($1.time, $1.order) }) { e.fire() }
  }

  /// Something that happens at a scene time: a delegate's start or stop, a completion block.
  private struct Event {
    var time: Double
    var order: Int
    var fire: () -> Void
  }

  /// The starts and stops of `layer`'s animations (and its mask's and sublayers') that fall in
  /// (time, t]. The layer's local time is scale × sceneTime + offset.
  private func collectAnimationEvents(
    of layer: Layer, scale: Double, offset: Double, until t: Double, into events: inout [Event]
  ) {
    let s = scale * layer.timing.speed
    let o = (offset - layer.timing.beginTime) * layer.timing.speed + layer.timing.timeOffset
    for entry in layer.animationEntries {
      let a = entry.animation
      let id = ObjectIdentifier(a)
      let d = AnimationEntry.duration(a.timing)
      guard s > 0, a.timing.speed > 0 else { continue }
      let start = (a.timing.beginTime - o) / s
      let active = a.timing.activeDuration(defaultDuration: d) / a.timing.speed
      let end = start + active
      if !started.contains(id), start <= t {
        events.append(
          Event(time: max(start, time), order: events.count + 1) { [weak self] in
            self?.started.insert(id)
            a.delegate?.animationDidStart(a)
          })
      }
      if end.isFinite, end > time || !started.contains(id), end <= t {
        let key = entry.key
        events.append(
          Event(time: end, order: events.count + 1) { [weak layer] in
            a.delegate?.animationDidStop(a, finished: true)
            if a.isRemovedOnCompletion { layer?.removeEntry(key: key, animation: a) }
          })
      }
    }
    if let mask = layer.mask { collectAnimationEvents(of: mask, scale: s, offset: o, until: t, into: &events) }
    for sub in layer.sublayerList { collectAnimationEvents(of: sub, scale: s, offset: o, until: t, into: &events) }
  }

  /// Completion blocks due by `t`: at the end of the last of their animations (at once when they
  /// added none); the others keep waiting.
  private func collectCompletionEvents(until t: Double, into events: inout [Event]) {
    var waiting: [(block: () -> Void, animations: [Transaction.Added])] = []
    for c in completions {
      var end = time
      var never = false
      for added in c.animations {
        guard let layer = added.layer, let e = endTime(of: added.animation, on: layer) else {
          never = added.layer != nil
          continue
        }
        end = max(end, e)
      }
      if !never && end <= t {
        events.append(Event(time: end, order: events.count + 1, fire: c.block))
      } else {
        waiting.append(c)
      }
    }
    completions = waiting
  }
}

extension Layer {
  /// Removes the entry for `animation` under `key` (not a newer one added under the same key).
  func removeEntry(key: String, animation: Animation) {
    animationEntries.removeAll { $0.key == key && $0.animation === animation }
  }
}
