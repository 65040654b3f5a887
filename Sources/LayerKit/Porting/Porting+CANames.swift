// Core Animation's own names, beside LayerKit's: `CALayer` is `Layer`, `CABasicAnimation` is
// `BasicAnimation`, `kCAFillModeForwards` is `kFillModeForwards`, `CACurrentMediaTime()` is
// `CurrentMediaTime()` — the same types, constants and functions, not copies — so ported code
// changes its import and nothing else, and a project's own class named like one of LayerKit's
// (`class TextLayer: CATextLayer`) declares its own type instead of colliding.

public typealias CALayer = Layer
public typealias CAShapeLayer = ShapeLayer
public typealias CAGradientLayer = GradientLayer
public typealias CATextLayer = TextLayer
public typealias CAReplicatorLayer = ReplicatorLayer
public typealias CATransformLayer = TransformLayer
public typealias CAEmitterLayer = EmitterLayer
public typealias CAEmitterCell = EmitterCell
public typealias CAScrollLayer = ScrollLayer
public typealias CATiledLayer = TiledLayer
public typealias CAAnimation = Animation
public typealias CAPropertyAnimation = PropertyAnimation
public typealias CABasicAnimation = BasicAnimation
public typealias CAKeyframeAnimation = KeyframeAnimation
public typealias CASpringAnimation = SpringAnimation
public typealias CAAnimationGroup = AnimationGroup
public typealias CATransition = Transition
public typealias CATransaction = Transaction
public typealias CAMediaTimingFunction = MediaTimingFunction
public typealias CAMediaTiming = MediaTiming
public typealias CAAction = Action
public typealias CALayerDelegate = LayerDelegate
public typealias CAAnimationDelegate = AnimationDelegate
public typealias CATransform3D = Transform3D
public typealias CAValueFunction = ValueFunction
public typealias CAMediaTimingFillMode = MediaTimingFillMode
public typealias CAMediaTimingFunctionName = MediaTimingFunctionName
public typealias CAAnimationCalculationMode = AnimationCalculationMode
public typealias CAAnimationRotationMode = AnimationRotationMode
public typealias CALayerContentsGravity = LayerContentsGravity
public typealias CALayerContentsFilter = LayerContentsFilter
public typealias CALayerCornerCurve = LayerCornerCurve
public typealias CAShapeLayerLineCap = ShapeLayerLineCap
public typealias CAShapeLayerLineJoin = ShapeLayerLineJoin
public typealias CAShapeLayerFillRule = ShapeLayerFillRule
public typealias CATextLayerAlignmentMode = TextLayerAlignmentMode
public typealias CATextLayerTruncationMode = TextLayerTruncationMode
public typealias CAGradientLayerType = GradientLayerType
public typealias CAValueFunctionName = ValueFunctionName
public typealias CAEmitterLayerEmitterShape = EmitterLayerEmitterShape
public typealias CAEmitterLayerEmitterMode = EmitterLayerEmitterMode
public typealias CAEmitterLayerRenderMode = EmitterLayerRenderMode
public typealias CATransitionType = TransitionType
public typealias CATransitionSubtype = TransitionSubtype
public typealias CAEdgeAntialiasingMask = EdgeAntialiasingMask
public typealias CACornerMask = CornerMask
public typealias CAScrollLayerScrollMode = ScrollLayerScrollMode

#if os(Linux)
  /// Core Foundation's any-object type, which Foundation on Linux does not export: what
  /// Objective-C-era code declares `contents` and fonts as.
  public typealias CFTypeRef = AnyObject
#endif

public let kCALayerLeftEdge = kLayerLeftEdge
public let kCALayerRightEdge = kLayerRightEdge
public let kCALayerBottomEdge = kLayerBottomEdge
public let kCALayerTopEdge = kLayerTopEdge
public let kCATransactionAnimationDuration = kTransactionAnimationDuration
public let kCATransactionDisableActions = kTransactionDisableActions
public let kCATransactionAnimationTimingFunction = kTransactionAnimationTimingFunction
public let kCATransactionCompletionBlock = kTransactionCompletionBlock
public let kCAFillModeRemoved = kFillModeRemoved
public let kCAFillModeForwards = kFillModeForwards
public let kCAFillModeBackwards = kFillModeBackwards
public let kCAFillModeBoth = kFillModeBoth
public let kCAMediaTimingFunctionLinear = kMediaTimingFunctionLinear
public let kCAMediaTimingFunctionEaseIn = kMediaTimingFunctionEaseIn
public let kCAMediaTimingFunctionEaseOut = kMediaTimingFunctionEaseOut
public let kCAMediaTimingFunctionEaseInEaseOut = kMediaTimingFunctionEaseInEaseOut
public let kCAMediaTimingFunctionDefault = kMediaTimingFunctionDefault
public let kCATransitionFade = kTransitionFade
public let kCATransitionMoveIn = kTransitionMoveIn
public let kCATransitionPush = kTransitionPush
public let kCATransitionReveal = kTransitionReveal
public let kCATransitionFromLeft = kTransitionFromLeft
public let kCATransitionFromRight = kTransitionFromRight
public let kCATransitionFromTop = kTransitionFromTop
public let kCATransitionFromBottom = kTransitionFromBottom
public let kCAGravityCenter = kGravityCenter
public let kCAGravityTop = kGravityTop
public let kCAGravityBottom = kGravityBottom
public let kCAGravityLeft = kGravityLeft
public let kCAGravityRight = kGravityRight
public let kCAGravityTopLeft = kGravityTopLeft
public let kCAGravityTopRight = kGravityTopRight
public let kCAGravityBottomLeft = kGravityBottomLeft
public let kCAGravityBottomRight = kGravityBottomRight
public let kCAGravityResize = kGravityResize
public let kCAGravityResizeAspect = kGravityResizeAspect
public let kCAGravityResizeAspectFill = kGravityResizeAspectFill
public let kCAFilterLinear = kFilterLinear
public let kCAFilterNearest = kFilterNearest
public let kCAFilterTrilinear = kFilterTrilinear
public let kCAValueFunctionRotateX = kValueFunctionRotateX
public let kCAValueFunctionRotateY = kValueFunctionRotateY
public let kCAValueFunctionRotateZ = kValueFunctionRotateZ
public let kCAValueFunctionScale = kValueFunctionScale
public let kCAValueFunctionScaleX = kValueFunctionScaleX
public let kCAValueFunctionScaleY = kValueFunctionScaleY
public let kCAValueFunctionScaleZ = kValueFunctionScaleZ
public let kCAValueFunctionTranslate = kValueFunctionTranslate
public let kCAValueFunctionTranslateX = kValueFunctionTranslateX
public let kCAValueFunctionTranslateY = kValueFunctionTranslateY
public let kCAValueFunctionTranslateZ = kValueFunctionTranslateZ
public let kCAAnimationLinear = kAnimationLinear
public let kCAAnimationDiscrete = kAnimationDiscrete
public let kCAAnimationPaced = kAnimationPaced
public let kCAAnimationCubic = kAnimationCubic
public let kCAAnimationCubicPaced = kAnimationCubicPaced
public let kCAAnimationRotateAuto = kAnimationRotateAuto
public let kCAAnimationRotateAutoReverse = kAnimationRotateAutoReverse
public let kCALineCapButt = kLineCapButt
public let kCALineCapRound = kLineCapRound
public let kCALineCapSquare = kLineCapSquare
public let kCALineJoinMiter = kLineJoinMiter
public let kCALineJoinRound = kLineJoinRound
public let kCALineJoinBevel = kLineJoinBevel
public let kCAAlignmentNatural = kAlignmentNatural
public let kCAAlignmentLeft = kAlignmentLeft
public let kCAAlignmentRight = kAlignmentRight
public let kCAAlignmentCenter = kAlignmentCenter
public let kCAAlignmentJustified = kAlignmentJustified
public let kCATruncationNone = kTruncationNone
public let kCATruncationStart = kTruncationStart
public let kCATruncationMiddle = kTruncationMiddle
public let kCATruncationEnd = kTruncationEnd
public let kCAGradientLayerAxial = kGradientLayerAxial
public let kCAGradientLayerRadial = kGradientLayerRadial
public let kCAGradientLayerConic = kGradientLayerConic
public let kCACornerCurveCircular = kCornerCurveCircular
public let kCACornerCurveContinuous = kCornerCurveContinuous
public let kCAEmitterLayerPoint = kEmitterLayerPoint
public let kCAEmitterLayerLine = kEmitterLayerLine
public let kCAEmitterLayerRectangle = kEmitterLayerRectangle
public let kCAEmitterLayerCuboid = kEmitterLayerCuboid
public let kCAEmitterLayerCircle = kEmitterLayerCircle
public let kCAEmitterLayerSphere = kEmitterLayerSphere
public let kCAEmitterLayerPoints = kEmitterLayerPoints
public let kCAEmitterLayerOutline = kEmitterLayerOutline
public let kCAEmitterLayerSurface = kEmitterLayerSurface
public let kCAEmitterLayerVolume = kEmitterLayerVolume
public let kCAEmitterLayerUnordered = kEmitterLayerUnordered
public let kCAEmitterLayerOldestFirst = kEmitterLayerOldestFirst
public let kCAEmitterLayerOldestLast = kEmitterLayerOldestLast
public let kCAEmitterLayerBackToFront = kEmitterLayerBackToFront
public let kCAEmitterLayerAdditive = kEmitterLayerAdditive
public let kCATransition = kTransition
public let CATransform3DIdentity = Transform3DIdentity

/// `CACurrentMediaTime()`: `CurrentMediaTime()`.
@inlinable public func CACurrentMediaTime() -> Double { CurrentMediaTime() }
@inlinable public func CATransform3DMakeTranslation(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
  Transform3DMakeTranslation(tx, ty, tz)
}
@inlinable public func CATransform3DMakeScale(_ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
  Transform3DMakeScale(sx, sy, sz)
}
@inlinable public func CATransform3DMakeRotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D
{
  Transform3DMakeRotation(angle, x, y, z)
}
@inlinable public func CATransform3DTranslate(_ t: Transform3D, _ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D
{
  Transform3DTranslate(t, tx, ty, tz)
}
@inlinable public func CATransform3DScale(_ t: Transform3D, _ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
  Transform3DScale(t, sx, sy, sz)
}
@inlinable public func CATransform3DRotate(
  _ t: Transform3D, _ angle: Double, _ x: Double, _ y: Double, _ z: Double
) -> Transform3D {
  Transform3DRotate(t, angle, x, y, z)
}
@inlinable public func CATransform3DConcat(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
  Transform3DConcat(a, b)
}
@inlinable public func CATransform3DInvert(_ t: Transform3D) -> Transform3D { Transform3DInvert(t) }
@inlinable public func CATransform3DIsIdentity(_ t: Transform3D) -> Bool { Transform3DIsIdentity(t) }
@inlinable public func CATransform3DEqualToTransform(_ a: Transform3D, _ b: Transform3D) -> Bool {
  Transform3DEqualToTransform(a, b)
}
@inlinable public func CATransform3DIsAffine(_ t: Transform3D) -> Bool { Transform3DIsAffine(t) }
@inlinable public func CATransform3DMakeAffineTransform(_ m: AffineTransform) -> Transform3D {
  Transform3DMakeAffineTransform(m)
}
@inlinable public func CATransform3DGetAffineTransform(_ t: Transform3D) -> AffineTransform {
  Transform3DGetAffineTransform(t)
}
