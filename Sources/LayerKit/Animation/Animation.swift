// Animations in Core Animation's model (CAAnimation and its subclasses without the prefix): timed
// objects that, once added to a layer, change the layer's presentation values as a pure function
// of time. Nothing here reads a clock: time is always an argument.
//
// Animations are classes, configured like their Core Animation counterparts; `Layer.add(_:forKey:)`
// copies the animation (as Core Animation does), checks its key path and values once, and keeps a
// typed track, so rendering a frame never casts a value.

/// Receives an animation's start and stop, in scene-time order, as `Scene.advance(to:)` passes them.
public protocol AnimationDelegate: AnyObject {
  func animationDidStart(_ animation: Animation)
  func animationDidStop(_ animation: Animation, finished: Bool)
}

extension AnimationDelegate {
  public func animationDidStart(_ animation: Animation) {}
  public func animationDidStop(_ animation: Animation, finished: Bool) {}
}

/// The base of every animation: media timing, a timing function, removal on completion.
open class Animation: MediaTimed {
  /// beginTime, duration, speed, timeOffset, repeatCount, repeatDuration, autoreverses, fillMode.
  public var timing = MediaTiming()
  /// Paces the animation's progress; nil is linear.
  public var timingFunction: MediaTimingFunction?
  /// Whether the animation is removed from the layer once it has finished (default true).
  public var isRemovedOnCompletion = true
  /// Retained, as Core Animation retains its delegate.
  public var delegate: AnimationDelegate?
  /// Values set by key-value coding (`setValue(_:forKey:)`), kept by copies.
  var keyedValues: [String: Any] = [:]

  public init() {}

  /// A copy with the same configuration; `Layer.add(_:forKey:)` stores a copy.
  open func copy() -> Animation {
    let a = Animation()
    a.copyTiming(from: self)
    return a
  }

  /// Copies the base class's fields; subclasses call it from `copy()`.
  public func copyTiming(from other: Animation) {
    timing = other.timing
    timingFunction = other.timingFunction
    isRemovedOnCompletion = other.isRemovedOnCompletion
    delegate = other.delegate
    keyedValues = other.keyedValues
  }

  // CAMediaTiming's fields, forwarded for code written against Core Animation (beginTime,
  // speed and timeOffset come with MediaTimed, which layers share).
  public var duration: Double {
    get { timing.duration }
    set { timing.duration = newValue }
  }
  /// A Float, as CAMediaTiming's is (`.infinity` or `.greatestFiniteMagnitude` repeat forever;
  /// `timing.repeatCount` holds it as a Double).
  public var repeatCount: Float {
    get { Float(timing.repeatCount) }
    set { timing.repeatCount = newValue == .greatestFiniteMagnitude ? .infinity : Double(newValue) }
  }
  public var repeatDuration: Double {
    get { timing.repeatDuration }
    set { timing.repeatDuration = newValue }
  }
  public var autoreverses: Bool {
    get { timing.autoreverses }
    set { timing.autoreverses = newValue }
  }
  public var fillMode: FillMode {
    get { timing.fillMode }
    set { timing.fillMode = newValue }
  }
}

/// Turns the scalar (or vector) values of a transform animation into a transform
/// (CAValueFunction): the animation interpolates the numbers, then builds the matrix, so a
/// rotation of 0 → 4π turns twice instead of interpolating two equal matrices.
public enum ValueFunction: String, Sendable, CaseIterable {
  case rotateX, rotateY, rotateZ
  /// One number (uniform) or three (x, y, z).
  case scale
  case scaleX, scaleY, scaleZ
  /// Three numbers (x, y, z).
  case translate
  case translateX, translateY, translateZ

  /// The transform for `v` (one number is (n, n, n)).
  public func transform(_ v: SIMD3<Double>) -> Transform3D {
    switch self {
    case .rotateX: Transform3D(rotationAngle: v.x, x: 1, y: 0, z: 0)
    case .rotateY: Transform3D(rotationAngle: v.x, x: 0, y: 1, z: 0)
    case .rotateZ: Transform3D(rotationAngle: v.x, x: 0, y: 0, z: 1)
    case .scale: Transform3D(scaleX: v.x, y: v.y, z: v.z)
    case .scaleX: Transform3D(scaleX: v.x, y: 1, z: 1)
    case .scaleY: Transform3D(scaleX: 1, y: v.x, z: 1)
    case .scaleZ: Transform3D(scaleX: 1, y: 1, z: v.x)
    case .translate: Transform3D(translationX: v.x, y: v.y, z: v.z)
    case .translateX: Transform3D(translationX: v.x, y: 0, z: 0)
    case .translateY: Transform3D(translationX: 0, y: v.x, z: 0)
    case .translateZ: Transform3D(translationX: 0, y: 0, z: v.x)
    }
  }
}

/// An animation of one layer property, named by a key path ("position.x", "transform.scale").
open class PropertyAnimation: Animation {
  public var keyPath: String
  /// The animated value is added to the value the property has without this animation.
  public var isAdditive = false
  /// Each repeat starts where the previous one ended.
  public var isCumulative = false
  /// For "transform" and "sublayerTransform": the values are numbers (or SIMD3 vectors) that
  /// this function turns into the transform.
  public var valueFunction: ValueFunction?

  public init(keyPath: String) {
    self.keyPath = keyPath
  }

  /// An animation whose key path is set afterwards, as Core Animation code writes
  /// `let animation = CAKeyframeAnimation(); animation.keyPath = "position.x"`. Added without
  /// one, it is an unknown key path (reported, or thrown by `addChecked`).
  public override convenience init() {
    self.init(keyPath: "")
  }

  open override func copy() -> Animation {
    let a = PropertyAnimation(keyPath: keyPath)
    a.copyProperty(from: self)
    return a
  }

  public func copyProperty(from other: PropertyAnimation) {
    copyTiming(from: other)
    isAdditive = other.isAdditive
    isCumulative = other.isCumulative
    valueFunction = other.valueFunction
  }
}

/// Interpolates a property between two values (CABasicAnimation), following the documented
/// combinations of fromValue, toValue and byValue:
/// 1. from and to: from → to.
/// 2. from and by: from → from + by.
/// 3. by and to: to − by → to.
/// 4. from only: from → the current presentation value.
/// 5. to only: the current presentation value → to.
/// 6. by only: the current presentation value → that value + by.
/// 7. none: the presentation value when the animation was added → the current presentation value.
/// "Current presentation value" is the property's value with the animations before this one
/// applied, at the same time.
open class BasicAnimation: PropertyAnimation {
  /// The values, typed `Any?` as CABasicAnimation's, so what `value(forKey:)` returns goes in
  /// as written (`fromValue = layer.presentation()?.value(forKey: "opacity")`); each must be an
  /// `AnimationValue` form of the key path's type, checked when the animation is added.
  public var fromValue: Any?
  public var toValue: Any?
  public var byValue: Any?

  public override init(keyPath: String) {
    super.init(keyPath: keyPath)
  }

  open override func copy() -> Animation {
    let a = BasicAnimation(keyPath: keyPath)
    a.copyBasic(from: self)
    return a
  }

  public func copyBasic(from other: BasicAnimation) {
    copyProperty(from: other)
    fromValue = other.fromValue
    toValue = other.toValue
    byValue = other.byValue
  }
}

/// A basic animation whose progress follows a damped spring (CASpringAnimation); the timing
/// function is ignored. As in Core Animation its duration is independent of the spring's
/// `settlingDuration`: left at 0 it is the transaction's (0.25 s by default), which usually cuts
/// the spring short; set `duration = settlingDuration` for the whole motion.
open class SpringAnimation: BasicAnimation {
  public var mass: Double = 1
  public var stiffness: Double = 100
  public var damping: Double = 10
  /// In units of the from→to distance per second.
  public var initialVelocity: Double = 0

  public override init(keyPath: String) {
    super.init(keyPath: keyPath)
  }

  /// CASpringAnimation(perceptualDuration:bounce:) as written, without `try` and with its key
  /// path set afterwards: a spring whose parameters cannot be made (a duration that is not
  /// positive, a bounce outside (-1, 1)) keeps the default spring and is reported to
  /// `Layer.animationFailureReporter`; `init(keyPath:perceptualDuration:bounce:)` throws.
  public convenience init(perceptualDuration: Double, bounce: Double) {
    self.init(keyPath: "")
    do throws(SpringError) {
      let s = try SpringSolver(perceptualDuration: perceptualDuration, bounce: bounce)
      (mass, stiffness, damping) = (s.mass, s.stiffness, s.damping)
    } catch {
      Layer.animationFailureReporter(.invalidSpring(keyPath: "", error), nil)
    }
  }

  /// A spring from the perceptual parameters (duration and bounce).
  public convenience init(keyPath: String, perceptualDuration: Double, bounce: Double) throws(SpringError) {
    self.init(keyPath: keyPath)
    let s = try SpringSolver(perceptualDuration: perceptualDuration, bounce: bounce)
    mass = s.mass
    stiffness = s.stiffness
    damping = s.damping
  }

  /// The spring's settling duration: the time after which it stays within 0.001 of the distance.
  /// - Throws: the `SpringError` of a spring that cannot move (a mass, stiffness or damping that
  ///   is not positive and finite, a non-finite initial velocity) — where a duration of 0 would
  ///   hide the mistake.
  public func checkedSettlingDuration() throws(SpringError) -> Double {
    try SpringSolver(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity)
      .settlingDuration
  }

  open override func copy() -> Animation {
    let a = SpringAnimation(keyPath: keyPath)
    a.copyBasic(from: self)
    a.mass = mass
    a.stiffness = stiffness
    a.damping = damping
    a.initialVelocity = initialVelocity
    return a
  }
}

/// Runs its children in its own time space (CAAnimationGroup): each child's beginTime is relative
/// to the group's start, a child that sets no duration takes the group's, the group's duration
/// clips them (it does not scale them), and the group's timing function paces their time.
open class AnimationGroup: Animation {
  /// Property animations or nested groups.
  public var animations: [Animation] = []

  public override init() {}

  open override func copy() -> Animation {
    let g = AnimationGroup()
    g.copyTiming(from: self)
    g.animations = animations.map { $0.copy() }
    return g
  }
}
