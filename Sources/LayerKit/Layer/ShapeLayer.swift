/// A layer that fills and strokes a path in its own coordinates (CAShapeLayer), over its
/// background and contents and under its sublayers, as Core Animation composites it.
///
/// The shape is rasterized by the model, in target pixels (the path mapped through the layer's
/// transforms first, perspective included, so it stays sharp at any scale): fill and stroke
/// become one coverage mask each (CoverageMask, 16 scanlines a pixel, exact along them), drawn
/// by both backends in its colour under the layer's clips. Curves are flattened to
/// `flatness` (0.02 target pixel); round joins and caps likewise. See `StrokeStyle` and `Stroker` for the stroke's rules
/// (trim over the whole path, dashes in place, dots for zero-length dashes).
open class ShapeLayer: Layer {
  public typealias LineCap = StrokeStyle.LineCap
  public typealias LineJoin = StrokeStyle.LineJoin

  /// The shape; nil draws nothing. Animatable between paths of the same elements. The layer
  /// keeps an immutable copy of a `CGMutablePath` (as Core Animation copies): building on the
  /// mutable path afterwards changes nothing drawn.
  open var path: CGPath? {
    didSet {
      path = CGPath.kept(path)
      didChange("path", from: oldValue?.value, to: path?.value)
    }
  }
  /// The shape as LayerKit's value.
  open var pathValue: Path? {
    get { path?.value }
    set { path = newValue.map(CGPath.init) }
  }
  /// nil does not fill (CA's default: opaque black).
  open var fillColor: Color? = .black {
    didSet { didChange("fillColor", from: oldValue ?? .clear, to: fillColor ?? .clear) }
  }
  /// CAShapeLayerFillRule: which points of the path are inside.
  open var fillRule: FillRule = .nonZero
  /// nil does not stroke (CA's default).
  open var strokeColor: Color? {
    didSet { didChange("strokeColor", from: oldValue ?? .clear, to: strokeColor ?? .clear) }
  }
  /// The stroke's width in the layer's units; 0 (or less) draws no stroke.
  open var lineWidth: Double = 1 { didSet { didChange("lineWidth", from: oldValue, to: lineWidth) } }
  open var miterLimit: Double = 10 { didSet { didChange("miterLimit", from: oldValue, to: miterLimit) } }
  open var lineCap: LineCap = .butt
  open var lineJoin: LineJoin = .miter
  /// Painted and unpainted lengths, alternating (`[4, 2]`); nil strokes solid.
  open var lineDashPattern: [Double]?
  open var lineDashPhase: Double = 0 {
    didSet { didChange("lineDashPhase", from: oldValue, to: lineDashPhase) }
  }
  /// The part of the path stroked, as fractions of its length (0 and 1: all of it).
  open var strokeStart: Double = 0 { didSet { didChange("strokeStart", from: oldValue, to: strokeStart) } }
  open var strokeEnd: Double = 1 { didSet { didChange("strokeEnd", from: oldValue, to: strokeEnd) } }

  /// How far, in target pixels, the chords that stand for curves, arcs, round joins and round
  /// caps may stray from them.
  public static let flatness = 0.02

  override func copyModelValues(from o: Layer) {
    super.copyModelValues(from: o)
    guard let s = o as? ShapeLayer else { return }
    (path, fillColor, fillRule, strokeColor, lineWidth, miterLimit) =
      (s.path, s.fillColor, s.fillRule, s.strokeColor, s.lineWidth, s.miterLimit)
    (lineCap, lineJoin, lineDashPattern, lineDashPhase, strokeStart, strokeEnd) =
      (s.lineCap, s.lineJoin, s.lineDashPattern, s.lineDashPhase, s.strokeStart, s.strokeEnd)
  }

  /// The stroke's geometry and style as the stroker takes them.
  open var strokeStyle: StrokeStyle {
    StrokeStyle(
      lineWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit,
      dashPattern: lineDashPattern, dashPhase: lineDashPhase, start: strokeStart, end: strokeEnd)
  }
}
