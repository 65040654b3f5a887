import Foundation

/// Groups layer changes (CATransaction): their implicit animations take the transaction's duration
/// and timing function, actions can be disabled, and a completion block runs, in scene time, when
/// every animation added in the transaction has finished. Transactions nest; the settings of the
/// innermost one apply. Changes made outside an explicit transaction use an implicit one with the
/// defaults (0.25 s, the default timing function, actions enabled).
///
/// Like CATransaction, the stack is per thread. A class, as CATransaction is, so ported code
/// can add class methods of its own in an extension (`extension Transaction { class func … }`).
open class Transaction {
  /// CATransaction is used through its class methods; an instance holds nothing.
  public init() {}

  /// Opens a transaction, nested in the current one if any.
  public static func begin() {
    var s = stack
    s.append(State())
    stack = s
  }

  /// Closes the innermost transaction. Its completion block is handed to the scene of the layers
  /// it animated, to run when their animations end (or at the scene's next step if it added none).
  public static func commit() {
    var s = stack
    guard let top = s.popLast() else { return }
    stack = s
    if let block = top.completion {
      if !s.isEmpty {
        // Nested: the outer transaction waits for the inner one's animations too.
        s[s.count - 1].added += top.added
        stack = s
      }
      // With no animation to wait for, the block runs now, as Core Animation runs it right after
      // the commit.
      if let scene = top.added.lazy.compactMap({ $0.layer?.scene }).first {
        scene.addCompletion(block, waitingFor: top.added)
      } else {
        block()
      }
    } else if !s.isEmpty {
      s[s.count - 1].added += top.added
      stack = s
    }
  }

  /// Runs `body` in a transaction (begin, body, commit).
  public static func perform<R>(_ body: () throws -> R) rethrows -> R {
    begin()
    defer { commit() }
    return try body()
  }

  /// Duration of the implicit animations of the current transaction (default 0.25 s), as
  /// CATransaction's `animationDuration()` and `setAnimationDuration(_:)` spell it.
  public static func animationDuration() -> Double { stack.last?.duration ?? MediaTiming.defaultAnimationDuration }
  public static func setAnimationDuration(_ duration: Double) { update { $0.duration = duration } }

  /// Timing function of the implicit animations (nil: the default timing function).
  public static func animationTimingFunction() -> MediaTimingFunction? { stack.last?.timingFunction }
  public static func setAnimationTimingFunction(_ function: MediaTimingFunction?) {
    update { $0.timingFunction = function }
  }

  /// When true, property changes add no implicit animation.
  public static func disableActions() -> Bool { stack.last?.disableActions ?? false }
  public static func setDisableActions(_ disabled: Bool) { update { $0.disableActions = disabled } }

  /// Runs once every animation added in the current transaction has finished, in scene time;
  /// nil clears it.
  public static func setCompletionBlock(_ block: (() -> Void)?) {
    update { $0.completion = block }
  }

  // MARK: State

  struct Added {
    weak var layer: Layer?
    let animation: Animation
  }

  struct State {
    var implicit = false
    var duration: Double?
    var timingFunction: MediaTimingFunction?
    var disableActions: Bool?
    var completion: (() -> Void)?
    var added: [Added] = []
    /// Values set by key (`setValue(_:forKey:)`) under keys other than the four settings.
    var values: [String: Any] = [:]
  }

  /// The completion block of the innermost transaction that has one (CATransaction's
  /// `completionBlock()`).
  public static func completionBlock() -> (() -> Void)? { stack.reversed().lazy.compactMap(\.completion).first }

  static func setOwnValue(_ value: Any?, forKey key: String) { update { $0.values[key] = value } }

  static func ownValue(forKey key: String) -> Any? { stack.reversed().lazy.compactMap { $0.values[key] }.first }

  /// The settings in force: the innermost transaction's, each falling back to the enclosing ones.
  static var current: (duration: Double, timingFunction: MediaTimingFunction?, disableActions: Bool) {
    let s = stack
    let duration = s.reversed().lazy.compactMap(\.duration).first ?? MediaTiming.defaultAnimationDuration
    let tf = s.reversed().lazy.compactMap(\.timingFunction).first
    let disabled = s.reversed().lazy.compactMap(\.disableActions).first ?? false
    return (duration, tf, disabled)
  }

  /// Records an animation an action added, for the completion block.
  static func record(_ animation: Animation, on layer: Layer) {
    guard !stack.isEmpty else { return }
    update { $0.added.append(Added(layer: layer, animation: animation)) }
  }

  /// Commits the implicit transaction, if one is open (Core Animation does this at the end of a
  /// run-loop turn; here `Scene.advance(to:)` does it before moving the clock).
  public static func flush() {
    while let top = stack.last, top.implicit { commit() }
  }

  private static func update(_ change: (inout State) -> Void) {
    var s = stack
    if s.isEmpty { s.append(State(implicit: true)) }  // open until flush() or the next commit
    change(&s[s.count - 1])
    stack = s
  }

  private static let key = "LayerKit.Transaction.stack"

  private final class Box { var states: [State] = [] }

  private static var stack: [State] {
    get { (Thread.current.threadDictionary[key] as? Box)?.states ?? [] }
    set {
      let box = (Thread.current.threadDictionary[key] as? Box) ?? Box()
      box.states = newValue
      Thread.current.threadDictionary[key] = box
    }
  }
}

/// What a property change runs (CAAction). An `Animation` is copied and added to the layer under
/// the property's key; `NSNull()` found anywhere in the search stops it, so nothing runs, as in
/// Core Animation (`layer.actions = ["position": NSNull()]`); any other action is asked to
/// `run(forKey:object:arguments:)` with the layer as the object.
public protocol Action: AnyObject {
  /// Runs the action for `event` (the property's key) on `anObject` (the layer).
  func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

extension Action {
  public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}

extension Animation: Action {}
extension NSNull: Action {}

/// Supplies actions for a layer first in the search (CALayerDelegate.action(for:forKey:)).
public protocol LayerDelegate: AnyObject {
  /// nil continues the search; `NSNull()` stops it.
  func action(for layer: Layer, forKey key: String) -> (any Action)?
  /// Draws `layer`'s contents (CALayerDelegate's `draw(_:in:)`).
  func draw(_ layer: Layer, in ctx: DrawingContext)
  /// Lays out `layer`'s sublayers (CALayerDelegate's `layoutSublayers(of:)`), when the layer
  /// does not override `layoutSublayers()`.
  func layoutSublayers(of layer: Layer)
}

extension LayerDelegate {
  public func action(for layer: Layer, forKey key: String) -> (any Action)? { nil }
  public func draw(_ layer: Layer, in ctx: DrawingContext) {}
  public func layoutSublayers(of layer: Layer) {}
}
