// Core Animation's Swift type names, less the CA prefix, for the LayerKit types that go by
// shorter names: ported code that spells a type out (`let mode: CAMediaTimingFillMode =
// .forwards`, `CATextLayerAlignmentMode.center`) keeps its line.

/// CAMediaTimingFillMode.
public typealias MediaTimingFillMode = FillMode
/// CAMediaTimingFunctionName.
public typealias MediaTimingFunctionName = MediaTimingFunction.Name
/// CAAnimationCalculationMode.
public typealias AnimationCalculationMode = KeyframeCalculationMode
/// CAAnimationRotationMode.
public typealias AnimationRotationMode = RotationMode
/// CALayerContentsGravity.
public typealias LayerContentsGravity = ContentsGravity
/// CALayerContentsFilter.
public typealias LayerContentsFilter = ContentsFilter
/// CALayerCornerCurve.
public typealias LayerCornerCurve = CornerCurve
/// CAShapeLayerLineCap.
public typealias ShapeLayerLineCap = StrokeStyle.LineCap
/// CAShapeLayerLineJoin.
public typealias ShapeLayerLineJoin = StrokeStyle.LineJoin
/// CAShapeLayerFillRule.
public typealias ShapeLayerFillRule = FillRule
/// CATextLayerAlignmentMode.
public typealias TextLayerAlignmentMode = TextLayer.AlignmentMode
/// CATextLayerTruncationMode.
public typealias TextLayerTruncationMode = TextLayer.TruncationMode
/// CAGradientLayerType.
public typealias GradientLayerType = GradientLayer.GradientType
/// CAValueFunctionName.
public typealias ValueFunctionName = ValueFunction
/// CAEmitterLayerEmitterShape.
public typealias EmitterLayerEmitterShape = EmitterLayer.EmitterShape
/// CAEmitterLayerEmitterMode.
public typealias EmitterLayerEmitterMode = EmitterLayer.EmitterMode
/// CAEmitterLayerRenderMode.
public typealias EmitterLayerRenderMode = EmitterLayer.RenderMode

public let kLayerLeftEdge = EdgeAntialiasingMask.layerLeftEdge
public let kLayerRightEdge = EdgeAntialiasingMask.layerRightEdge
public let kLayerBottomEdge = EdgeAntialiasingMask.layerBottomEdge
public let kLayerTopEdge = EdgeAntialiasingMask.layerTopEdge
