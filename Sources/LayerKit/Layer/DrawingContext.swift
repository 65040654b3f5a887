import Foundation

#if os(Linux)
  /// Core Graphics' context, as `draw(in ctx: CGContext)` is written: LayerKit's
  /// `DrawingContext` (Foundation on Linux has no Core Graphics).
  public typealias CGContext = DrawingContext
#endif

/// What a layer draws into (`Layer.draw(in:)`, a delegate's `draw(_:in:)`), in Core Graphics'
/// vocabulary: a current path built in user space and filled or stroked, rectangles and
/// ellipses, images, linear and radial gradients, text, clipping to paths and rectangles,
/// transforms, and the graphics state saved and restored.
///
/// What is drawn is recorded as layers — a ShapeLayer per fill or stroke, a layer per image, a
/// GradientLayer per gradient, a TextLayer per text, clips as masked groups — in the layer's
/// bounds, with its origin at the top left (y down, as a UIView's context), so the backends draw
/// the drawing as they draw any layer. The layer keeps it until `setNeedsDisplay()`.
public final class DrawingContext {
  /// The drawing so far: a layer the size of the bounds.
  public let drawing: Layer

  struct State {
    var ctm = AffineTransform.identity
    var fillColor = Color.black
    var strokeColor = Color.black
    var lineWidth = 1.0
    var lineCap = StrokeStyle.LineCap.butt
    var lineJoin = StrokeStyle.LineJoin.miter
    var miterLimit = 10.0
    var dash: (phase: Double, lengths: [Double])?
    var alpha = 1.0
    /// CGContext.setShadow's offset, blur and colour, given to what is drawn after it.
    var shadow: (offset: Size, blur: Double, color: Color)?
    /// Where drawing goes: `drawing`, or the innermost clip's group.
    var container: Layer
    /// The box of the clip, in the bounds' coordinates.
    var clipBox: Rect
  }

  private var state: State
  private var saved: [State] = []
  /// The current path, in the bounds' coordinates (points are transformed as they are added, as
  /// Core Graphics does).
  var currentPath = Path()

  /// A context over `bounds` (a layer's).
  public init(bounds: Rect) {
    drawing = Layer(frame: Rect(x: 0, y: 0, width: bounds.size.width, height: bounds.size.height))
    // A drawing stays inside the bounds, as a backing store does.
    drawing.masksToBounds = true
    state = State(container: drawing, clipBox: drawing.bounds)
    if bounds.origin != .zero {
      state.ctm = AffineTransform(translationX: -bounds.origin.x, y: -bounds.origin.y)
    }
  }

  // MARK: The graphics state

  public func saveGState() { saved.append(state) }

  public func restoreGState() {
    if let s = saved.popLast() { state = s }
  }

  /// The current transformation matrix: user space to the bounds' coordinates.
  public var ctm: AffineTransform { state.ctm }

  public func translateBy(x: Double, y: Double) { concatenate(AffineTransform(translationX: x, y: y)) }
  public func scaleBy(x: Double, y: Double) { concatenate(AffineTransform(scaleX: x, y: y)) }
  public func rotate(by angle: Double) { concatenate(AffineTransform(rotationAngle: angle)) }
  /// `t`, then the current transform (CGContext's `concatenate(_:)`).
  public func concatenate(_ t: AffineTransform) { state.ctm = t.concatenating(state.ctm) }

  public func setFillColor(_ color: Color) { state.fillColor = color }
  public func setStrokeColor(_ color: Color) { state.strokeColor = color }
  public func setLineWidth(_ width: Double) { state.lineWidth = max(0, width) }
  public func setLineCap(_ cap: StrokeStyle.LineCap) { state.lineCap = cap }
  public func setLineJoin(_ join: StrokeStyle.LineJoin) { state.lineJoin = join }
  public func setMiterLimit(_ limit: Double) { state.miterLimit = limit }
  public func setLineDash(phase: Double, lengths: [Double]) { state.dash = lengths.isEmpty ? nil : (phase, lengths) }
  /// Multiplies everything drawn after it (CGContext's `setAlpha(_:)`).
  public func setAlpha(_ alpha: Double) { state.alpha = min(max(alpha, 0), 1) }

  // MARK: The current path

  public func beginPath() { currentPath = Path() }
  public func move(to p: Point) { currentPath.move(to: state.ctm.apply(p)) }
  public func addLine(to p: Point) { currentPath.addLine(to: state.ctm.apply(p)) }
  public func addLines(between points: [Point]) { currentPath.addLines(between: points.map(state.ctm.apply)) }
  public func addCurve(to p: Point, control1: Point, control2: Point) {
    currentPath.addCurve(
      to: state.ctm.apply(p), control1: state.ctm.apply(control1), control2: state.ctm.apply(control2))
  }
  public func addQuadCurve(to p: Point, control: Point) {
    currentPath.addQuadCurve(to: state.ctm.apply(p), control: state.ctm.apply(control))
  }
  public func addRect(_ rect: Rect) { currentPath.addPath(Path(rect: rect).applying(state.ctm)) }
  public func addRects(_ rects: [Rect]) { for r in rects { addRect(r) } }
  public func addEllipse(in rect: Rect) { currentPath.addPath(Path(ellipseIn: rect).applying(state.ctm)) }
  public func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
    var arc = Path()
    arc.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    addPath(arc)
  }
  public func addPath(_ p: Path) { currentPath.addPath(p.applying(state.ctm)) }
  /// CGContext.addPath(_:) with a Core Graphics path.
  public func addPath(_ p: CGPath) { addPath(p.value) }
  public func closePath() { currentPath.closeSubpath() }
  /// Whether the current path is empty.
  public var isPathEmpty: Bool { currentPath.elements.isEmpty }

  // MARK: Painting

  /// CGPathDrawingMode.
  public enum PathDrawingMode: Sendable {
    case fill, eoFill, stroke, fillStroke, eoFillStroke
  }

  public func fillPath(using rule: FillRule = .nonZero) { paint(fill: rule, stroke: false) }
  public func strokePath() { paint(fill: nil, stroke: true) }

  public func drawPath(using mode: PathDrawingMode) {
    switch mode {
    case .fill: paint(fill: .nonZero, stroke: false)
    case .eoFill: paint(fill: .evenOdd, stroke: false)
    case .stroke: paint(fill: nil, stroke: true)
    case .fillStroke: paint(fill: .nonZero, stroke: true)
    case .eoFillStroke: paint(fill: .evenOdd, stroke: true)
    }
  }

  public func fill(_ rect: Rect) { shape(Path(rect: rect), fill: .nonZero, stroke: false) }
  public func fill(_ rects: [Rect]) { for r in rects { fill(r) } }
  public func stroke(_ rect: Rect) { shape(Path(rect: rect), fill: nil, stroke: true) }
  public func stroke(_ rect: Rect, width: Double) {
    saveGState()
    setLineWidth(width)
    stroke(rect)
    restoreGState()
  }
  public func fillEllipse(in rect: Rect) { shape(Path(ellipseIn: rect), fill: .nonZero, stroke: false) }
  public func strokeEllipse(in rect: Rect) { shape(Path(ellipseIn: rect), fill: nil, stroke: true) }
  public func strokeLineSegments(between points: [Point]) {
    var p = Path()
    for pair in stride(from: 0, to: points.count - 1, by: 2) {
      p.move(to: points[pair])
      p.addLine(to: points[pair + 1])
    }
    shape(p, fill: nil, stroke: true)
  }

  /// Draws `image` into `rect` (user space), upright.
  public func draw(_ image: Image, in rect: Rect) {
    let layer = Layer()
    layer.anchorPoint = .zero
    layer.bounds = Rect(x: 0, y: 0, width: rect.size.width, height: rect.size.height)
    let t = state.ctm
    layer.position = t.apply(rect.origin)
    layer.transform = Self.linear(t)
    layer.contents = image
    layer.opacity = state.alpha
    addDrawn(layer)
  }

  /// Adds a drawn layer where drawing goes, with the context's shadow, if one is set.
  func addDrawn(_ layer: Layer) {
    if let shadow = state.shadow, shadow.color.alpha > 0 {
      layer.shadowColor = shadow.color
      layer.shadowOpacity = 1
      layer.shadowOffset = shadow.offset
      layer.shadowRadius = shadow.blur / 2
    }
    state.container.addSublayer(layer)
  }

  func setShadowState(_ shadow: (offset: Size, blur: Double, color: Color)?) { state.shadow = shadow }

  /// CGGradient: colours at locations (0…1; nil spaces them evenly).
  public struct Gradient: Sendable {
    public var colors: [Color]
    public var locations: [Double]?

    public init(colors: [Color], locations: [Double]? = nil) {
      self.colors = colors
      self.locations = locations
    }
  }

  /// Fills the clip area with `gradient` from `start` to `end` (user space), extended past both
  /// ends as its end colours (CGGradientDrawingOptions' before- and after-start drawing).
  public func drawLinearGradient(_ gradient: Gradient, start: Point, end: Point) {
    fillGradient(gradient, .axial, start: state.ctm.apply(start), end: state.ctm.apply(end))
  }

  /// Fills the clip area with `gradient` in circles from `center` out to `radius` (user space).
  public func drawRadialGradient(_ gradient: Gradient, center: Point, radius: Double) {
    let c = state.ctm.apply(center)
    let edge = state.ctm.apply(Point(x: center.x + radius, y: center.y + radius))
    fillGradient(gradient, .radial, start: c, end: edge)
  }

  /// Draws `text` with its top left at `point` (user space), in `font` at `fontSize`.
  public func draw(text: String, at point: Point, font: String = TextLayer.defaultFont, fontSize: Double = 17) {
    let layer = TextLayer()
    layer.string = AttributedText(text)
    layer.font = font
    layer.fontSize = fontSize
    layer.foregroundColor = state.fillColor
    layer.anchorPoint = .zero
    layer.bounds = Rect(x: 0, y: 0, width: drawing.bounds.size.width, height: fontSize * 1.5)
    layer.position = state.ctm.apply(point)
    layer.transform = Self.linear(state.ctm)
    layer.opacity = state.alpha
    addDrawn(layer)
  }

  // MARK: Clipping

  /// Intersects the clip with the current path, which it uses up.
  public func clip(using rule: FillRule = .nonZero) {
    state.clipBox = state.clipBox.intersection(currentPath.boundingBoxOfPath)
    let mask = ShapeLayer()
    mask.frame = drawing.bounds
    mask.pathValue = currentPath
    mask.fillRule = rule
    currentPath = Path()
    let group = Layer(frame: drawing.bounds)
    group.mask = mask
    state.container.addSublayer(group)
    state.container = group
  }

  /// CGContext.boundingBoxOfClipPath: the box of the clip in user space (the bounds while
  /// nothing clips; a tiled layer is asked to draw its whole bounds at once).
  public var boundingBoxOfClipPath: Rect {
    guard !state.clipBox.isNull, let inverse = state.ctm.inverted() else { return .null }
    return state.clipBox.applying(inverse)
  }

  public func clip(to rect: Rect) {
    beginPath()
    addRect(rect)
    clip()
  }

  // MARK: Recording

  private func paint(fill: FillRule?, stroke: Bool) {
    let p = currentPath
    currentPath = Path()
    record(p, fill: fill, stroke: stroke)
  }

  /// A shape in user space, not touching the current path.
  private func shape(_ p: Path, fill: FillRule?, stroke: Bool) {
    record(p.applying(state.ctm), fill: fill, stroke: stroke)
  }

  private func record(_ p: Path, fill: FillRule?, stroke: Bool) {
    guard !p.elements.isEmpty else { return }
    let layer = ShapeLayer()
    layer.frame = drawing.bounds
    layer.pathValue = p
    layer.fillColor = fill.map { _ in state.fillColor }
    layer.fillRule = fill ?? .nonZero
    if stroke {
      let t = state.ctm
      // The width in user space, as the transform scales it (its mean scale).
      let scale = abs(t.m11 * t.m22 - t.m12 * t.m21).squareRoot()
      layer.strokeColor = state.strokeColor
      layer.lineWidth = state.lineWidth * scale
      layer.lineCap = state.lineCap
      layer.lineJoin = state.lineJoin
      layer.miterLimit = state.miterLimit
      if let dash = state.dash {
        layer.lineDashPattern = dash.lengths.map { $0 * scale }
        layer.lineDashPhase = dash.phase * scale
      }
    }
    layer.opacity = state.alpha
    addDrawn(layer)
  }

  private func fillGradient(_ g: Gradient, _ type: GradientLayer.GradientType, start: Point, end: Point) {
    let size = drawing.bounds.size
    guard size.width > 0, size.height > 0, !g.colors.isEmpty else { return }
    let layer = GradientLayer()
    layer.frame = drawing.bounds
    layer.type = type
    layer.colors = g.colors
    layer.locations = g.locations?.map { NSNumber(value: $0) }
    layer.startPoint = Point(x: start.x / size.width, y: start.y / size.height)
    layer.endPoint = Point(x: end.x / size.width, y: end.y / size.height)
    layer.opacity = state.alpha
    addDrawn(layer)
  }

  /// How far from `point` (user space) the drawing's bounds reach; nil when the transform is
  /// singular (nothing drawn would show).
  func reach(from point: Point) -> Double? {
    guard let inverse = state.ctm.inverted() else { return nil }
    let b = drawing.bounds
    let corners = [
      Point(x: b.minX, y: b.minY), Point(x: b.maxX, y: b.minY), Point(x: b.minX, y: b.maxY),
      Point(x: b.maxX, y: b.maxY),
    ]
    return corners.map { inverse.apply($0) }.map { hypot($0.x - point.x, $0.y - point.y) }.max()! + 1
  }

  /// The transform's linear part as a layer transform (about the layer's anchor point).
  static func linear(_ t: AffineTransform) -> Transform3D {
    var m = Transform3D.identity
    (m.m11, m.m12, m.m21, m.m22) = (t.m11, t.m12, t.m21, t.m22)
    return m
  }
}
