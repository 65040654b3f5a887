import Foundation

// Implicit animations: a change to an animatable property of a presented layer runs the action
// the search finds — delegate, then `actions`, then `styleActions`, then the class's default
// action — where `NSNull()` anywhere stops the search, as in Core Animation.

extension Layer {
  /// The scene whose tree holds the layer.
  public var scene: Scene? {
    var node: Layer? = self
    while let n = node {
      if let s = n.hostScene { return s }
      node = n.superlayer
    }
    return nil
  }

  /// The animation the action search finds for a changed property, to be copied and added; nil
  /// when the search ends in nothing or in `NSNull()`, or in an action of the caller's own, which
  /// is run here instead (CAAction's `run(forKey:object:arguments:)`).
  private func animationToRun(
    forKey key: String, _ settings: (duration: Double, timingFunction: MediaTimingFunction?, disableActions: Bool)
  ) -> Animation? {
    guard !settings.disableActions, let action = action(forKey: key), !(action is NSNull) else { return nil }
    if let animation = action as? Animation { return animation }
    action.run(forKey: key, object: self, arguments: nil)
    return nil
  }

  /// Runs the action for a changed property, inside the current transaction.
  func didChange<V: Animatable>(_ key: String, from old: V, to new: V) {
    didChange(key, from: old, to: new, action: actionBeforeChange(key, from: old, to: new))
  }

  /// The animation to run for a change about to be made, looked up while the model still holds
  /// the old value (as Core Animation asks `action(forKey:)`, so an override reading the layer or
  /// its presentation sees what is shown now).
  func actionBeforeChange<V: Animatable>(_ key: String, from old: V, to new: V) -> Animation? {
    guard wasPresented, old != new, scene != nil else { return nil }
    return animationToRun(forKey: key, Transaction.current)
  }

  /// Adds `template`'s copy for a change that has been made (`actionBeforeChange`'s result).
  func didChange<V: Animatable>(_ key: String, from old: V, to new: V, action template: Animation?) {
    guard let template else { return }
    let settings = Transaction.current
    let animation = template.copy()
    // The default action animates from the value the property showed just before the change.
    if let basic = animation as? BasicAnimation, basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil,
      let previous = presentationValue(key, modelValue: old)
    {
      basic.fromValue = previous
    }
    if animation.timing.duration == 0 { animation.timing.duration = settings.duration }
    if animation.timingFunction == nil { animation.timingFunction = settings.timingFunction ?? .default }
    do {
      try addChecked(animation, forKey: key)
    } catch {
      // An action that does not fit the property is not run; the scene hears why.
      scene?.actionFailed(.init(layer: debugName, key: key, error: error))
      return
    }
    if let stored = self.animation(forKey: key) { Transaction.record(stored, on: self) }
  }

  /// Runs the action for a changed property that does not interpolate (the filter-type
  /// properties, whose default action is a fade transition of the layer).
  func didChangeDiscretely(_ key: String) {
    guard wasPresented, scene != nil else { return }
    let settings = Transaction.current
    guard let template = animationToRun(forKey: key, settings) else { return }
    let animation = template.copy()
    if animation.timing.duration == 0 { animation.timing.duration = settings.duration }
    if animation.timingFunction == nil, !(animation is Transition) {
      animation.timingFunction = settings.timingFunction ?? .default
    }
    do {
      try addChecked(animation, forKey: key)
    } catch {
      scene?.actionFailed(.init(layer: debugName, key: key, error: error))
      return
    }
    let stored = animation is Transition ? "transition" : key
    if let added = self.animation(forKey: stored) { Transaction.record(added, on: self) }
  }

  /// The presentation value of `key` now, had the model value still been `modelValue`.
  private func presentationValue(_ key: String, modelValue: any Animatable) -> (any Animatable)? {
    guard let property = resolveProperty(key) else { return nil }
    let copy = type(of: self).init()
    copy.sublayers = nil
    copy.copyModelValues(from: self)
    property.setAny(copy, modelValue)
    let local = currentLocalTime
    for entry in animationEntries { entry.apply(to: copy, layerTime: local) }
    return property.getAny(copy)
  }
}
