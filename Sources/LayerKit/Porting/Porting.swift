import Foundation

// Core Animation's spellings that port by renaming: the media clock, CATransaction's class
// methods and keys, key-value coding on layers and animations, and the kCA… constants. Each is
// the same value under the name a porter writes with the CA prefix dropped.

// MARK: - The media clock

/// The time at which the scene is being built or rendered: the time the scene on this thread was
/// made at or last advanced to (`Scene.init(root:time:)`, `Scene.advance(to:)`), 0 before any.
/// The model reads no wall clock, so Core Animation's `CACurrentMediaTime()` is the scene's time:
/// `beginTime = CurrentMediaTime() + 0.5` starts half a second after now, and Apple's pause and
/// resume recipe (QA1673) runs as written.
public func CurrentMediaTime() -> Double { MediaClock.now }

#if os(Linux)
  /// Core Foundation's time interval, which Core Animation's times are written in
  /// (`let pausedTime: CFTimeInterval = …`); Foundation on Linux does not export it.
  public typealias CFTimeInterval = TimeInterval
#endif

/// The thread's media time (CurrentMediaTime).
enum MediaClock {
  private static let slot = ThreadLocal<Double>(key: "LayerKit.MediaClock.now")

  static var now: Double {
    get { slot.value ?? 0 }
    set { slot.value = newValue }
  }
}

extension Layer {
  /// The presentation layer now: at its scene's time, else at `CurrentMediaTime()`. Optional,
  /// as CALayer's `presentation()` is, so `layer.presentation()?.opacity` ports as written; it
  /// is never nil.
  public func presentation() -> Self? { presentation(at: scene?.time ?? CurrentMediaTime()) }
}

// MARK: - CATransaction's class methods and keys

/// CATransaction's keys for `Transaction.setValue(_:forKey:)` and `value(forKey:)`.
public let kTransactionAnimationDuration = "animationDuration"
public let kTransactionDisableActions = "disableActions"
public let kTransactionAnimationTimingFunction = "animationTimingFunction"
public let kTransactionCompletionBlock = "completionBlock"

extension Transaction {
  /// CATransaction's `setValue(_:forKey:)`: the four keys set what their setters set (a number,
  /// a Bool, a MediaTimingFunction, a block); any other key holds its value for the transaction.
  public static func setValue(_ value: Any?, forKey key: String) {
    switch key {
    case kTransactionAnimationDuration:
      if let d = (value as? NSNumber)?.doubleValue ?? (value as? Double) { setAnimationDuration(d) }
    case kTransactionDisableActions:
      setDisableActions((value as? NSNumber)?.boolValue ?? (value as? Bool) ?? false)
    case kTransactionAnimationTimingFunction:
      setAnimationTimingFunction(value as? MediaTimingFunction)
    case kTransactionCompletionBlock:
      if let block = value as? () -> Void { setCompletionBlock(block) }
    default:
      setOwnValue(value, forKey: key)
    }
  }

  /// CATransaction's `value(forKey:)`: the setting in force for the four keys, else what
  /// `setValue(_:forKey:)` gave the innermost transaction that has the key.
  public static func value(forKey key: String) -> Any? {
    switch key {
    case kTransactionAnimationDuration: return animationDuration()
    case kTransactionDisableActions: return disableActions()
    case kTransactionAnimationTimingFunction: return animationTimingFunction()
    case kTransactionCompletionBlock: return completionBlock()
    default: return ownValue(forKey: key)
    }
  }
}

// MARK: - Key-value coding

extension Animation {
  /// Core Animation's extension of key-value coding to animations: any key holds any value
  /// (tagging an animation for its delegate is the common use). The copy `add(_:forKey:)` stores
  /// keeps them.
  public func setValue(_ value: Any?, forKey key: String) {
    keyedValues[key] = value
  }

  public func value(forKey key: String) -> Any? { keyedValues[key] }
}

extension Layer {
  /// Core Animation's key-value coding on layers: an animatable property's key path (`opacity`,
  /// `position`, `transform.rotation.z`, …) sets the property, its value in any form an
  /// animation takes (`NSNumber`, `CGFloat`, `[0, 0]`, `CGPoint`, …); a value that does not fit
  /// the property is not set and is reported to `Layer.animationFailureReporter`. Any other key
  /// holds its value on the layer.
  public func setValue(_ value: Any?, forKey key: String) {
    if key.hasPrefix("emitterCells."), let emitter = self as? EmitterLayer {
      if !emitter.setCellValue(value, forKeyPath: key) {
        Layer.animationFailureReporter(
          .unsupported(
            keyPath: key, reason: "setValue(_:forKey:): no such cell or cell property, or a value that does not fit"),
          nil)
      }
      return
    }
    if let property = resolveProperty(key) {
      guard let v = value as? any AnimationValue, property.setConverted(self, v) else {
        Layer.animationFailureReporter(
          .unsupported(
            keyPath: key,
            reason: "setValue(_:forKey:): \(value.map { "\(type(of: $0))" } ?? "nil") is no \(property.typeName)"),
          nil)
        return
      }
      if managedProperties[key] != nil, type(of: self).needsDisplay(forKey: key) { setNeedsDisplay() }
      return
    }
    keyedValues[key] = value
  }

  /// The animatable property's value for its key path, else what `setValue(_:forKey:)` gave the
  /// key (nil if nothing).
  public func value(forKey key: String) -> Any? {
    if key.hasPrefix("emitterCells."), let emitter = self as? EmitterLayer {
      return emitter.cellValue(forKeyPath: key)
    }
    if let property = resolveProperty(key) { return property.getAny(self) }
    return keyedValues[key]
  }

  /// `setValue(_:forKeyPath:)` as Core Animation code writes it for the transform's fields
  /// (`layer.setValue(1.5, forKeyPath: "transform.scale")`): the same as `setValue(_:forKey:)`,
  /// which takes every animatable key path.
  public func setValue(_ value: Any?, forKeyPath keyPath: String) { setValue(value, forKey: keyPath) }

  /// `value(forKeyPath:)`: the same as `value(forKey:)`.
  public func value(forKeyPath keyPath: String) -> Any? { value(forKey: keyPath) }
}

// MARK: - Affine transforms

extension Layer {
  /// CALayer.setAffineTransform(_:): `transform` becomes the affine transform in the layer's
  /// plane (Transform3DMakeAffineTransform).
  public func setAffineTransform(_ m: AffineTransform) { transform = Transform3DMakeAffineTransform(m) }

  /// CALayer.affineTransform(): the affine part of `transform` (Transform3DGetAffineTransform).
  public func affineTransform() -> AffineTransform { Transform3DGetAffineTransform(transform) }
}

// MARK: - Spellings

extension SpringAnimation {
  /// CASpringAnimation's `settlingDuration`, without `try`: a spring that cannot move (a mass,
  /// stiffness or damping that is not positive and finite) settles at once (0), as Core Animation
  /// answers; `checkedSettlingDuration()` throws its `SpringError` instead.
  public var settlingDuration: Double { (try? checkedSettlingDuration()) ?? 0 }
}

extension RotationMode {
  /// CAAnimationRotationMode's names: `.rotateAuto`, `.rotateAutoReverse`.
  public static let rotateAuto = RotationMode.auto
  public static let rotateAutoReverse = RotationMode.autoReverse
}

extension ValueFunction {
  /// CAValueFunction(name:), as Core Animation spells it: `ValueFunction(name: .rotateZ)`.
  public init(name: ValueFunction) { self = name }
}

// MARK: - kCA… constants, with the prefix dropped

public let kFillModeRemoved = FillMode.removed
public let kFillModeForwards = FillMode.forwards
public let kFillModeBackwards = FillMode.backwards
public let kFillModeBoth = FillMode.both

// The timing-function names are strings, as Core Animation's were before Swift 4.2: code keeps
// them in a `String`, passes them to `MediaTimingFunction(name:)` or to
// `MediaTimingFunctionName(rawValue:)`.
public let kMediaTimingFunctionLinear = MediaTimingFunction.Name.linear.rawValue
public let kMediaTimingFunctionEaseIn = MediaTimingFunction.Name.easeIn.rawValue
public let kMediaTimingFunctionEaseOut = MediaTimingFunction.Name.easeOut.rawValue
public let kMediaTimingFunctionEaseInEaseOut = MediaTimingFunction.Name.easeInEaseOut.rawValue
public let kMediaTimingFunctionDefault = MediaTimingFunction.Name.default.rawValue

public let kTransitionFade = TransitionType.fade
public let kTransitionMoveIn = TransitionType.moveIn
public let kTransitionPush = TransitionType.push
public let kTransitionReveal = TransitionType.reveal
public let kTransitionFromLeft = TransitionSubtype.fromLeft
public let kTransitionFromRight = TransitionSubtype.fromRight
public let kTransitionFromTop = TransitionSubtype.fromTop
public let kTransitionFromBottom = TransitionSubtype.fromBottom

public let kGravityCenter = ContentsGravity.center
public let kGravityTop = ContentsGravity.top
public let kGravityBottom = ContentsGravity.bottom
public let kGravityLeft = ContentsGravity.left
public let kGravityRight = ContentsGravity.right
public let kGravityTopLeft = ContentsGravity.topLeft
public let kGravityTopRight = ContentsGravity.topRight
public let kGravityBottomLeft = ContentsGravity.bottomLeft
public let kGravityBottomRight = ContentsGravity.bottomRight
public let kGravityResize = ContentsGravity.resize
public let kGravityResizeAspect = ContentsGravity.resizeAspect
public let kGravityResizeAspectFill = ContentsGravity.resizeAspectFill

public let kFilterLinear = ContentsFilter.linear
public let kFilterNearest = ContentsFilter.nearest
public let kFilterTrilinear = ContentsFilter.trilinear

public let kValueFunctionRotateX = ValueFunction.rotateX
public let kValueFunctionRotateY = ValueFunction.rotateY
public let kValueFunctionRotateZ = ValueFunction.rotateZ
public let kValueFunctionScale = ValueFunction.scale
public let kValueFunctionScaleX = ValueFunction.scaleX
public let kValueFunctionScaleY = ValueFunction.scaleY
public let kValueFunctionScaleZ = ValueFunction.scaleZ
public let kValueFunctionTranslate = ValueFunction.translate
public let kValueFunctionTranslateX = ValueFunction.translateX
public let kValueFunctionTranslateY = ValueFunction.translateY
public let kValueFunctionTranslateZ = ValueFunction.translateZ

public let kAnimationLinear = KeyframeCalculationMode.linear
public let kAnimationDiscrete = KeyframeCalculationMode.discrete
public let kAnimationPaced = KeyframeCalculationMode.paced
public let kAnimationCubic = KeyframeCalculationMode.cubic
public let kAnimationCubicPaced = KeyframeCalculationMode.cubicPaced
public let kAnimationRotateAuto = RotationMode.auto
public let kAnimationRotateAutoReverse = RotationMode.autoReverse

public let kLineCapButt = StrokeStyle.LineCap.butt
public let kLineCapRound = StrokeStyle.LineCap.round
public let kLineCapSquare = StrokeStyle.LineCap.square
public let kLineJoinMiter = StrokeStyle.LineJoin.miter
public let kLineJoinRound = StrokeStyle.LineJoin.round
public let kLineJoinBevel = StrokeStyle.LineJoin.bevel

public let kAlignmentNatural = TextLayer.AlignmentMode.natural
public let kAlignmentLeft = TextLayer.AlignmentMode.left
public let kAlignmentRight = TextLayer.AlignmentMode.right
public let kAlignmentCenter = TextLayer.AlignmentMode.center
public let kAlignmentJustified = TextLayer.AlignmentMode.justified
public let kTruncationNone = TextLayer.TruncationMode.none
public let kTruncationStart = TextLayer.TruncationMode.start
public let kTruncationMiddle = TextLayer.TruncationMode.middle
public let kTruncationEnd = TextLayer.TruncationMode.end

public let kGradientLayerAxial = GradientLayer.GradientType.axial
public let kGradientLayerRadial = GradientLayer.GradientType.radial
public let kGradientLayerConic = GradientLayer.GradientType.conic

public let kCornerCurveCircular = CornerCurve.circular
public let kCornerCurveContinuous = CornerCurve.continuous

public let kEmitterLayerPoint = EmitterLayer.EmitterShape.point
public let kEmitterLayerLine = EmitterLayer.EmitterShape.line
public let kEmitterLayerRectangle = EmitterLayer.EmitterShape.rectangle
public let kEmitterLayerCuboid = EmitterLayer.EmitterShape.cuboid
public let kEmitterLayerCircle = EmitterLayer.EmitterShape.circle
public let kEmitterLayerSphere = EmitterLayer.EmitterShape.sphere
public let kEmitterLayerPoints = EmitterLayer.EmitterMode.points
public let kEmitterLayerOutline = EmitterLayer.EmitterMode.outline
public let kEmitterLayerSurface = EmitterLayer.EmitterMode.surface
public let kEmitterLayerVolume = EmitterLayer.EmitterMode.volume
public let kEmitterLayerUnordered = EmitterLayer.RenderMode.unordered
public let kEmitterLayerOldestFirst = EmitterLayer.RenderMode.oldestFirst
public let kEmitterLayerOldestLast = EmitterLayer.RenderMode.oldestLast
public let kEmitterLayerBackToFront = EmitterLayer.RenderMode.backToFront
public let kEmitterLayerAdditive = EmitterLayer.RenderMode.additive

#if os(Linux)
  /// Darwin's MAXFLOAT (math.h), as older Core Animation code repeats forever:
  /// `repeatCount = MAXFLOAT` (Float.greatestFiniteMagnitude).
  public let MAXFLOAT = Float.greatestFiniteMagnitude
#endif
