import Foundation

/// How a layer animated along a path turns (CAKeyframeAnimation.rotationMode).
public enum RotationMode: String, Sendable {
  /// The layer's z rotation follows the path's tangent.
  case auto
  /// The tangent plus 180°.
  case autoReverse
}

/// Animates a property through a sequence of values, or a point along a path
/// (CAKeyframeAnimation).
open class KeyframeAnimation: PropertyAnimation {
  /// The keyframe values; ignored when `path` is set.
  public var values: [Any]?
  /// A point property (position, anchorPoint) moves along this path instead of through `values`.
  /// (An immutable copy of a `CGMutablePath` is kept.)
  public var path: CGPath? { didSet { path = CGPath.kept(path) } }
  /// The path as LayerKit's value.
  public var pathValue: Path? {
    get { path?.value }
    set { path = newValue.map(CGPath.init) }
  }
  /// When each value is reached, in [0, 1] of the duration; nil spaces them evenly.
  public var keyTimes: [NSNumber]?
  /// One per segment (values.count − 1); nil is linear.
  public var timingFunctions: [MediaTimingFunction]?
  public var calculationMode: KeyframeCalculationMode = .linear
  /// Kochanek–Bartels parameters per keyframe, for the cubic modes (0 = Catmull–Rom).
  public var tensionValues: [Double]?
  public var continuityValues: [Double]?
  public var biasValues: [Double]?
  /// With a path: turn the layer along the tangent.
  public var rotationMode: RotationMode?

  public override init(keyPath: String) {
    super.init(keyPath: keyPath)
  }

  open override func copy() -> Animation {
    let a = KeyframeAnimation(keyPath: keyPath)
    a.copyProperty(from: self)
    a.values = values
    a.path = path
    a.keyTimes = keyTimes
    a.timingFunctions = timingFunctions
    a.calculationMode = calculationMode
    a.tensionValues = tensionValues
    a.continuityValues = continuityValues
    a.biasValues = biasValues
    a.rotationMode = rotationMode
    return a
  }
}

/// Why an animation was refused when it was added.
public enum AnimationError: Error, Equatable, Sendable, CustomStringConvertible {
  case unknownKeyPath(String)
  /// A value whose type is not the key path's.
  case wrongValueType(keyPath: String, field: String, expected: String, actual: String)
  case invalidTiming(TimingError)
  case invalidSpring(keyPath: String, SpringError)
  case invalidKeyframes(keyPath: String, KeyframeError)
  /// A value that is not finite.
  case nonFiniteValue(keyPath: String, field: String)
  /// Something the animation kind does not support (for example a path on a non-point property).
  case unsupported(keyPath: String, reason: String)

  public var description: String {
    switch self {
    case .unknownKeyPath(let k):
      k.isEmpty ? "no key path: set keyPath before adding the animation" : "unknown animatable key path \"\(k)\""
    case .wrongValueType(let k, let f, let e, let a): "\(k): \(f) is \(a), expected \(e)"
    case .invalidTiming(let e): "\(e)"
    case .invalidSpring(let k, let e): "\(k): \(e)"
    case .invalidKeyframes(let k, let e): "\(k): \(e)"
    case .nonFiniteValue(let k, let f): "\(k): \(f) is not finite"
    case .unsupported(let k, let r): "\(k): \(r)"
    }
  }
}
