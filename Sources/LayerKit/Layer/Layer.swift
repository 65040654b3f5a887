import Foundation

/// A rectangle in a tree of layers, with Core Animation's model of geometry and appearance
/// (CALayer without the prefix). Layers hold model values only; `RenderList(layer:…)` flattens a
/// tree into draw operations, and a `Renderer` turns those into pixels.
///
/// Geometry follows Core Animation: `bounds` is the layer's own coordinate space, `position` is
/// where its `anchorPoint` (a unit point of the bounds) sits in the superlayer's bounds space,
/// `transform` is applied about the anchor point, and `sublayerTransform` is applied to the
/// sublayers about the same point. Each layer flattens its sublayers into its own plane, as
/// CALayer does (there is no depth buffer between layers); siblings draw in order of
/// `zPosition`, then insertion.
///
/// Not thread-safe: build and change a tree on one thread.
open class Layer {
  /// A name for messages and debugging (`name` in CALayer).
  open var name: String?
  /// Values set by key-value coding under keys that are no property (`setValue(_:forKey:)`).
  var keyedValues: [String: Any] = [:]
  /// Where an unnamed layer came from, for messages: a scene file's place for it
  /// (`layers[0].sublayers[2]`). Not part of Core Animation's model.
  package var sourceLabel: String?

  // MARK: Geometry

  /// The layer's own coordinate space: its origin is the top-left corner of the layer's content.
  open var bounds: Rect = .zero {
    didSet {
      didChange("bounds", from: oldValue, to: bounds)
      if needsDisplayOnBoundsChange, bounds.size != oldValue.size { setNeedsDisplay() }
      if bounds.size != oldValue.size { layoutPending = true }
    }
  }
  /// Where the anchor point sits, in the superlayer's bounds space.
  open var position: Point = .zero { didSet { didChange("position", from: oldValue, to: position) } }
  /// The point of the bounds, in unit coordinates, that `position` places and transforms pivot on.
  open var anchorPoint = Point(x: 0.5, y: 0.5) {
    didSet { didChange("anchorPoint", from: oldValue, to: anchorPoint) }
  }
  /// The anchor point's z coordinate (CALayer.anchorPointZ): transforms pivot on
  /// (anchorPoint, anchorPointZ), and the layer's plane lies −anchorPointZ from it (the cube recipe
  /// turns its faces about the cube's centre this way).
  open var anchorPointZ: Double = 0 { didSet { didChange("anchorPointZ", from: oldValue, to: anchorPointZ) } }
  /// Position on the z axis, in the superlayer's space; also orders siblings (higher draws later).
  open var zPosition: Double = 0 { didSet { didChange("zPosition", from: oldValue, to: zPosition) } }
  /// Applied to the layer about its anchor point.
  open var transform: Transform3D = .identity { didSet { didChange("transform", from: oldValue, to: transform) } }
  /// Applied to every sublayer, about this layer's anchor point (perspective goes here).
  open var sublayerTransform: Transform3D = .identity {
    didSet { didChange("sublayerTransform", from: oldValue, to: sublayerTransform) }
  }

  /// The layer's rectangle in its superlayer's space, derived from bounds, anchorPoint, position
  /// and transform as Core Animation derives it: the bounding box of the transformed bounds
  /// (perspective ignored). Setting it sets `position` and `bounds.size`; like CALayer's, the
  /// setter is meaningful only while `transform` is the identity.
  open var frame: Rect {
    get {
      let a = anchorOffset
      var minX = Double.infinity
      var minY = Double.infinity
      var maxX = -Double.infinity
      var maxY = -Double.infinity
      let t = transform
      for (x, y) in [
        (0.0, 0.0), (bounds.size.width, 0), (0, bounds.size.height), (bounds.size.width, bounds.size.height),
      ] {
        let lx = x - a.x
        let ly = y - a.y
        let px = lx * t.m11 + ly * t.m21 + t.m41 + position.x
        let py = lx * t.m12 + ly * t.m22 + t.m42 + position.y
        minX = min(minX, px)
        minY = min(minY, py)
        maxX = max(maxX, px)
        maxY = max(maxY, py)
      }
      return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
    set {
      bounds.size = newValue.size
      position = Point(
        x: newValue.origin.x + anchorPoint.x * newValue.size.width,
        y: newValue.origin.y + anchorPoint.y * newValue.size.height)
    }
  }

  /// The anchor point in points, relative to the bounds' top-left corner.
  var anchorOffset: Point {
    Point(x: anchorPoint.x * bounds.size.width, y: anchorPoint.y * bounds.size.height)
  }

  // MARK: Appearance

  /// Opacity of the layer and its subtree, applied to the subtree as one group (CALayer's
  /// default `allowsGroupOpacity`). 0 hides the layer.
  open var opacity: Double = 1 { didSet { didChange("opacity", from: oldValue, to: opacity) } }
  open var isHidden = false
  /// Filled first, inside the (rounded) bounds. nil draws nothing.
  open var backgroundColor: Color? { didSet { didChange("backgroundColor", from: oldValue, to: backgroundColor) } }
  /// The image drawn above the background, placed by `contentsGravity`.
  open var contents: Image? { didSet { didChange("contents", from: oldValue ?? .zero, to: contents ?? .zero) } }
  /// The part of the contents image to draw, in unit coordinates of the image.
  open var contentsRect: Rect = .unit { didSet { didChange("contentsRect", from: oldValue, to: contentsRect) } }
  /// The part of the contents (unit coordinates of `contentsRect`'s image) that stretches when
  /// the contents are resized (CALayer.contentsCenter): the parts outside it keep their natural
  /// size at the edges of the rectangle the gravity gives — a nine-slice image (a button's
  /// rounded frame); with `.resizeAspect` the corners stay natural while the centre grows. The
  /// whole image (the default) stretches as one.
  open var contentsCenter: Rect = .unit {
    didSet { didChange("contentsCenter", from: oldValue, to: contentsCenter) }
  }
  open var contentsGravity: ContentsGravity = .resize
  /// Pixels of the contents image per point, for the natural size that non-resizing gravities use.
  open var contentsScale: Double = 1
  /// How contents drawn larger than their pixels are sampled (CALayer.magnificationFilter).
  open var magnificationFilter: ContentsFilter = .linear
  /// How contents drawn smaller than their pixels are sampled (CALayer.minificationFilter).
  open var minificationFilter: ContentsFilter = .linear
  /// The corners `cornerRadius` rounds (CALayer.maskedCorners; all by default).
  open var maskedCorners: CornerMask = .all
  /// How the rounded corners bend (CALayer.cornerCurve): circular by default.
  open var cornerCurve: CornerCurve = .circular
  /// Rounds the background and border; the contents and sublayers too when `masksToBounds`.
  open var cornerRadius: Double = 0 { didSet { didChange("cornerRadius", from: oldValue, to: cornerRadius) } }
  /// Drawn inset from the bounds, above the contents and the sublayers.
  open var borderWidth: Double = 0 { didSet { didChange("borderWidth", from: oldValue, to: borderWidth) } }
  open var borderColor: Color = .black { didSet { didChange("borderColor", from: oldValue, to: borderColor) } }
  /// Clips the contents and sublayers to the bounds (rounded by `cornerRadius`).
  open var masksToBounds = false
  /// When false, the layer and its subtree are not drawn while it faces away from the viewer.
  open var isDoubleSided = true
  /// Whether the layer's geometry — its bounds' space, where its sublayers, its shape's path and
  /// its gradient's points lie — runs bottom up (CALayer.isGeometryFlipped): mirrored about the
  /// bounds' horizontal centre line, so a sublayer at y = 0 sits at the bottom. Contents images
  /// are still drawn upright, as Core Animation keeps them; the layer's own frame does not move.
  open var isGeometryFlipped = false

  // Kept for ported code, with Core Animation's defaults; LayerKit's output does not depend on
  // them: every edge is antialiased (the ramp the two backends agree on), and nothing is cached
  // as a bitmap between frames (each frame is drawn from the model).
  /// CALayer.allowsEdgeAntialiasing: kept; edges are always antialiased.
  open var allowsEdgeAntialiasing = false
  /// CALayer.edgeAntialiasingMask: kept; every edge is antialiased.
  open var edgeAntialiasingMask: EdgeAntialiasingMask = [
    .layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge,
  ]
  /// CALayer.shouldRasterize: kept; layers are drawn from the model every frame.
  open var shouldRasterize = false
  /// CALayer.rasterizationScale: kept, as `shouldRasterize`.
  open var rasterizationScale: Double = 1
  /// CALayer.isOpaque: kept; transparency is always composited.
  open var isOpaque = false
  /// CALayer.drawsAsynchronously: kept; `draw(in:)` is recorded when the frame is built, on the
  /// thread that builds it, and replayed by the renderer either way.
  open var drawsAsynchronously = false

  // MARK: Effects

  /// A layer whose rendered alpha masks this layer, its subtree and its shadow. Its geometry is in
  /// this layer's bounds space (as if it were a sublayer, without `sublayerTransform`); it must
  /// not be in a tree itself (no superlayer) and not be the layer itself.
  open var mask: Layer?
  /// The shadow's colour (default opaque black).
  open var shadowColor: Color = .black { didSet { didChange("shadowColor", from: oldValue, to: shadowColor) } }
  /// 0 (the default) draws no shadow.
  open var shadowOpacity: Double = 0 { didSet { didChange("shadowOpacity", from: oldValue, to: shadowOpacity) } }
  /// The shadow's offset in the layer's space. Core Animation's default is (0, −3): on iOS's
  /// y-down geometry, the shadow falls 3 points above the layer.
  open var shadowOffset = Size(width: 0, height: -3) {
    didSet { didChange("shadowOffset", from: oldValue, to: shadowOffset) }
  }
  /// The blur of the shadow: the standard deviation of its Gaussian, in points of the layer's
  /// space (default 3).
  open var shadowRadius: Double = 3 { didSet { didChange("shadowRadius", from: oldValue, to: shadowRadius) } }
  /// When set, the shadow takes this shape (filled non-zero) instead of the layer's alpha; an
  /// immutable copy of a `CGMutablePath` is kept, as Core Animation keeps one.
  open var shadowPath: CGPath? { didSet { shadowPath = CGPath.kept(shadowPath) } }
  /// The shadow's shape as LayerKit's value.
  open var shadowPathValue: Path? {
    get { shadowPath?.value }
    set { shadowPath = newValue.map(CGPath.init) }
  }
  /// Applied, in order, to the layer and its subtree before it is composited.
  open var filters: [Filter] = [] { didSet { if oldValue != filters { didChangeDiscretely("filters") } } }
  /// Applied, in order, to what lies behind the layer, within its (rounded) bounds, before the
  /// layer is drawn over it.
  open var backgroundFilters: [Filter] = [] {
    didSet { if oldValue != backgroundFilters { didChangeDiscretely("backgroundFilters") } }
  }
  /// How the layer (with its subtree) is composited onto what lies behind it; nil is source-over.
  open var compositingFilter: BlendMode? {
    didSet { if oldValue != compositingFilter { didChangeDiscretely("compositingFilter") } }
  }

  // MARK: Timing and animations

  /// Layers are timed objects too: their local time is (parent time − beginTime) × speed +
  /// timeOffset, and animations run in the layer's local time.
  open var timing = MediaTiming()
  /// The animations added to the layer, in the order they were added (later ones apply later).
  var animationEntries: [AnimationEntry] = []
  /// The scene this layer is the root of, for "now" when an animation is added.
  weak var hostScene: Scene?
  /// Whether a scene has presented this layer: only then do property changes run actions (as
  /// Core Animation animates only layers that have been committed to the render tree).
  var wasPresented = false
  /// On a presentation copy: the transition running on this layer.
  var activeTransition: ActiveTransition?

  // MARK: Actions

  /// Searched first for the action of a changed property (CALayer.delegate); asked to draw the
  /// layer's contents when the layer does not override `draw(in:)`.
  public weak var delegate: LayerDelegate?

  // MARK: Drawing

  /// Draws the layer's contents (CALayer.draw(in:)): override it, or give a delegate that draws.
  /// Called by `display()`, which the next presentation runs after `setNeedsDisplay()`; what is
  /// drawn stays until then.
  open func draw(in ctx: DrawingContext) { delegate?.draw(self, in: ctx) }

  /// Whether a change of `key` redraws the layer (CALayer's class method, for a subclass to
  /// override): a change of the property marks the drawing stale, and while an animation of it
  /// runs every presented frame draws the layer anew with the animated value
  /// (`@Managed` properties, Layer+Managed.swift). False for every key by default.
  open class func needsDisplay(forKey key: String) -> Bool { false }

  /// The value a property has before it is set (CALayer's class method, for a subclass to
  /// override): for LayerKit's animatable properties their default, for a `@Managed` property of
  /// a subclass what the override returns; nil for any other key.
  open class func defaultValue(forKey key: String) -> Any? {
    AnimatableProperties.resolve(key).map { $0.getAny(Layer()) }
  }

  /// Marks the drawing stale: the next presentation draws the layer again (CALayer's
  /// `setNeedsDisplay()`). A new layer draws nothing until asked, as in Core Animation.
  open func setNeedsDisplay() { needsDisplay = true }
  public private(set) var needsDisplay = false
  /// Whether a change of the bounds' size marks the drawing stale.
  open var needsDisplayOnBoundsChange = false

  /// Draws the layer now (CALayer's `display()`): `draw(in:)` into a context over its bounds.
  open func display() {
    needsDisplay = false
    let ctx = DrawingContext(bounds: bounds)
    draw(in: ctx)
    drawn = ctx.drawing.sublayerList.isEmpty ? nil : ctx.drawing
  }

  /// Places the sublayers (CALayer.layoutSublayers()): override it, or give a delegate that
  /// does (`layoutSublayers(of:)`). Run by the next presentation after the layer is marked
  /// (Layer+Layout.swift).
  open func layoutSublayers() { delegate?.layoutSublayers(of: self) }

  /// CALayer.preferredFrameSize(): the size the layer would like (its bounds' by default).
  open func preferredFrameSize() -> Size { bounds.size }

  /// What `display()` drew last, under the sublayers.
  var drawn: Layer?
  /// Whether `layoutSublayers()` is to run before the next presentation (Layer+Layout.swift).
  var layoutPending = false
  /// Actions by key, searched after the delegate (CALayer.actions): `["position": NSNull()]`
  /// turns the implicit animation of `position` off.
  open var actions: [String: any Action]?
  /// Actions searched after `actions` (the "actions" entry of CALayer.style).
  open var styleActions: [String: any Action]?

  /// The action for `key`, by Core Animation's search order (CALayer.action(forKey:)): the
  /// delegate's, `actions`, `styleActions`, then the class's default. A subclass may override it
  /// (returning an animation for a `@Managed` property animates its changes).
  open func action(forKey key: String) -> (any Action)? {
    if let found = delegate?.action(for: self, forKey: key) { return found }
    if let found = actions?[key] { return found }
    if let found = styleActions?[key] { return found }
    return type(of: self).defaultAction(forKey: key)
  }

  /// The action used when the search finds none (CALayer.defaultAction(forKey:)): a basic
  /// animation for the animatable properties, nothing otherwise. Subclasses may override.
  open class func defaultAction(forKey key: String) -> (any Action)? {
    if Layer.transitionedKeys.contains(key) { return Transition(type: .fade) }
    guard Layer.implicitlyAnimatedKeys.contains(key) else { return nil }
    return BasicAnimation(keyPath: key)
  }

  /// The filter-type properties, whose default action is a fade transition.
  public static let transitionedKeys: Set<String> = ["filters", "backgroundFilters", "compositingFilter"]

  /// The properties whose changes run a basic animation by default (the Animatable Properties
  /// appendix).
  public static let implicitlyAnimatedKeys: Set<String> = [
    "bounds", "position", "anchorPoint", "anchorPointZ", "zPosition", "transform", "sublayerTransform", "opacity",
    "backgroundColor", "contentsRect", "contentsCenter", "instanceTransform", "instanceColor", "instanceDelay",
    "colors", "locations", "startPoint", "endPoint",
    "path", "fillColor", "strokeColor", "lineWidth", "miterLimit", "lineDashPhase", "strokeStart", "strokeEnd",
    "fontSize", "foregroundColor",
    "cornerRadius", "borderWidth", "borderColor", "shadowColor",
    "shadowOpacity", "shadowOffset", "shadowRadius", "contents",
  ]

  // MARK: The tree

  public private(set) weak var superlayer: Layer?
  private(set) var sublayerList: [Layer] = []

  /// A layer with Core Animation's defaults. A subclass with an initializer of its own writes
  /// `required init()` where Core Animation code writes `override init()`: LayerKit makes a
  /// layer's presentation copies through it, as it is, of the layer's own class.
  public required init() {}

  /// CALayer's `init?(coder:)`, so a subclass's `required init?(coder: NSCoder)` and its
  /// `super.init(coder: aDecoder)` compile as written. LayerKit archives no layers: nothing is
  /// read from the coder, and the layer has Core Animation's defaults, as `init()` gives.
  public required init?(coder: NSCoder) {}

  /// CALayer.init(layer:): a copy of `layer`'s model values (not its sublayers, mask or
  /// animations), as Core Animation makes the shadow copies of a layer; a subclass that
  /// overrides it copies its own properties after `super.init(layer:)`.
  public init(layer: Any) {
    if let other = layer as? Layer { copyModelValues(from: other) }
  }

  /// A layer with the given bounds size and frame origin, for brevity in scenes and tests.
  public convenience init(frame: Rect) {
    self.init()
    self.frame = frame
  }

  /// The sublayers, back to front before `zPosition` ordering; nil when there are none, as
  /// CALayer's (`layer.sublayers?.forEach { $0.removeFromSuperlayer() }`). Setting replaces them
  /// all; nil removes them.
  open var sublayers: [Layer]? {
    get { sublayerList.isEmpty ? nil : sublayerList }
    set {
      for layer in sublayerList { layer.superlayer = nil }
      sublayerList = []
      for layer in newValue ?? [] { addSublayer(layer) }
    }
  }

  /// Appends `layer`, removing it from its current superlayer first. Adding the layer itself or
  /// one of its ancestors would make a cycle, and is refused (returns false).
  @discardableResult
  open func addSublayer(_ layer: Layer) -> Bool {
    insertSublayer(layer, at: sublayerList.count)
  }

  /// Inserts `layer` at `index` (clamped to the valid range). Returns false for a cycle.
  @discardableResult
  open func insertSublayer(_ layer: Layer, at index: Int) -> Bool {
    guard !isDescendant(of: layer) else { return false }
    layer.removeFromSuperlayer()
    let i = min(max(index, 0), sublayerList.count)
    sublayerList.insert(layer, at: i)
    layer.superlayer = self
    layoutPending = true
    return true
  }

  /// CALayer's `insertSublayer(_:at:)` with its `UInt32` index.
  @discardableResult
  open func insertSublayer(_ layer: Layer, at index: UInt32) -> Bool { insertSublayer(layer, at: Int(index)) }

  /// Inserts `layer` just above `sibling` (at the end when `sibling` is not a sublayer).
  @discardableResult
  open func insertSublayer(_ layer: Layer, above sibling: Layer?) -> Bool {
    guard layer !== sibling else { return false }
    guard let sibling, let i = sublayerList.firstIndex(where: { $0 === sibling }) else {
      return addSublayer(layer)
    }
    let wasBefore = sublayerList.firstIndex(where: { $0 === layer }).map { $0 < i } ?? false
    return insertSublayer(layer, at: wasBefore ? i : i + 1)
  }

  /// Inserts `layer` just below `sibling` (at the start when `sibling` is not a sublayer).
  @discardableResult
  open func insertSublayer(_ layer: Layer, below sibling: Layer?) -> Bool {
    guard layer !== sibling else { return false }
    guard let sibling, let i = sublayerList.firstIndex(where: { $0 === sibling }) else {
      return insertSublayer(layer, at: 0)
    }
    let wasBefore = sublayerList.firstIndex(where: { $0 === layer }).map { $0 < i } ?? false
    return insertSublayer(layer, at: wasBefore ? i - 1 : i)
  }

  /// Puts `newLayer` where `oldLayer` is. Does nothing when `oldLayer` is not a sublayer.
  @discardableResult
  open func replaceSublayer(_ oldLayer: Layer, with newLayer: Layer) -> Bool {
    guard oldLayer !== newLayer, let i = sublayerList.firstIndex(where: { $0 === oldLayer }),
      !isDescendant(of: newLayer)
    else { return false }
    oldLayer.removeFromSuperlayer()
    return insertSublayer(newLayer, at: i)
  }

  /// Detaches the layer from its superlayer.
  open func removeFromSuperlayer() {
    guard let parent = superlayer else { return }
    parent.sublayerList.removeAll { $0 === self }
    parent.layoutPending = true
    superlayer = nil
  }

  /// Whether `self` is `layer` or lies in its subtree.
  open func isDescendant(of layer: Layer) -> Bool {
    var node: Layer? = self
    while let n = node {
      if n === layer { return true }
      node = n.superlayer
    }
    return false
  }

  /// Copies every model value (not the sublayers, the mask or the animations) from `other`.
  func copyModelValues(from o: Layer) {
    name = o.name
    sourceLabel = o.sourceLabel
    bounds = o.bounds
    position = o.position
    anchorPoint = o.anchorPoint
    anchorPointZ = o.anchorPointZ
    zPosition = o.zPosition
    transform = o.transform
    sublayerTransform = o.sublayerTransform
    opacity = o.opacity
    isHidden = o.isHidden
    backgroundColor = o.backgroundColor
    contents = o.contents
    contentsRect = o.contentsRect
    contentsGravity = o.contentsGravity
    contentsScale = o.contentsScale
    contentsCenter = o.contentsCenter
    maskedCorners = o.maskedCorners
    cornerCurve = o.cornerCurve
    magnificationFilter = o.magnificationFilter
    minificationFilter = o.minificationFilter
    cornerRadius = o.cornerRadius
    borderWidth = o.borderWidth
    borderColor = o.borderColor
    masksToBounds = o.masksToBounds
    isDoubleSided = o.isDoubleSided
    isGeometryFlipped = o.isGeometryFlipped
    (allowsEdgeAntialiasing, edgeAntialiasingMask) = (o.allowsEdgeAntialiasing, o.edgeAntialiasingMask)
    (shouldRasterize, rasterizationScale, isOpaque) = (o.shouldRasterize, o.rasterizationScale, o.isOpaque)
    shadowColor = o.shadowColor
    shadowOpacity = o.shadowOpacity
    shadowOffset = o.shadowOffset
    shadowRadius = o.shadowRadius
    shadowPath = o.shadowPath
    filters = o.filters
    backgroundFilters = o.backgroundFilters
    compositingFilter = o.compositingFilter
    timing = o.timing
    keyedValues = o.keyedValues
  }

  /// The name used in error messages.
  var debugName: String { name ?? sourceLabel ?? "<unnamed \(ObjectIdentifier(self).hashValue & 0xFFFF)>" }
}
