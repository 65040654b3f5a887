// Flattening a layer tree into a RenderList: the only place that knows both Layer and RenderOp.
//
// Matrices are CATransform3D-style row-vector transforms in Double. A point of a layer's bounds
// space reaches the target through:
//   local(L)  = T(−anchor in bounds space, −L.anchorPointZ) · L.transform · T(L.position, L.zPosition)
//   toTarget(L) = local(L) · parent(L)
//   parent(child of L) = T(−anchor) · L.sublayerTransform · T(anchor) · Flatten · toTarget(L)
//   parent(root) = Flatten · S(scale)
// where Flatten sets z to 0: every layer renders its sublayers into its own plane, as CALayer
// does. The plane z = 0 then maps to target pixels by a 3×3 homography made of rows/columns
// 1, 2 and 4 of toTarget.

extension RenderList {
  /// Flattens `layer` and its subtree, at their model values, into a RenderList.
  /// - Parameters:
  ///   - layer: the root; its frame is placed in the target's point space (points × `scale`).
  ///   - width: target width in pixels.
  ///   - height: target height in pixels.
  ///   - scale: pixels per point.
  ///   - background: the colour every target pixel starts with.
  /// - Throws: `RenderError` for a bad target size or scale, and for a layer property that is not
  ///   finite or is negative where it must not be (the error names the layer and the property).
  public init(
    layer: Layer, width: Int, height: Int, scale: Double = 1, background: Color = .clear
  ) throws(RenderError) {
    try RenderList.validateTarget(width: width, height: height)
    guard scale.isFinite, scale > 0 else { throw .invalidScale(scale) }
    guard background.isFinite else { throw .nonFiniteValue(layer: "<target>", property: "background") }
    var builder = RenderListBuilder(width: width, height: height)
    let ops = try builder.subtree(
      layer, parent: RenderListBuilder.root(scale: scale), clips: [], region: builder.target)
    self.init(
      width: width, height: height, clearColor: background.premultiplied, images: builder.images,
      ops: ops)
  }
}

extension Transform3D {
  /// Sets z to 0 (the projection of a sublayer onto its superlayer's plane).
  static let flatten: Transform3D = {
    var t = Transform3D.identity
    t.m33 = 0
    return t
  }()

  /// The homography from the plane z = 0 to (X, Y, W), in Double, as rows.
  var planeHomography: [[Double]] {
    [[m11, m21, m41], [m12, m22, m42], [m14, m24, m44]]
  }
}

/// A clip in force, with the target pixels it can leave visible.
struct ClipEntry {
  var clip: Clip
  var bounds: PixelRect
}

struct RenderListBuilder {
  let target: PixelRect
  private(set) var images: [Image] = []
  private var imageIndex: [UInt64: ImageID] = [:]
  private var nextSurface = 0
  var visiting = Set<ObjectIdentifier>()
  /// Whether the layer being built lies in an odd number of flipped geometries
  /// (`isGeometryFlipped`, its own included): its contents image is then mirrored back upright.
  var contentsFlipped = false
  /// How many times the layer being built is drawn: the product of the `instanceCount`s of the
  /// replicators it lies in (at most `Limits.maxReplicatedInstances`).
  var replicated = 1

  init(width: Int, height: Int) {
    target = PixelRect(x: 0, y: 0, width: width, height: height)
  }

  /// What the root layer's parent is: points to pixels, then flattened onto the target's plane.
  static func root(scale: Double) -> Transform3D {
    Transform3D.flatten.concatenating(Transform3D(scaleX: scale, y: scale))
  }

  /// The ops for `layer` and its subtree. `parent` maps the superlayer's sublayer space to the
  /// target; `clips` are the clips in force (at most `RenderList.maxClips`); `region` bounds every
  /// pixel this subtree may touch.
  mutating func subtree(
    _ layer: Layer, parent: Transform3D, clips: [ClipEntry], region: PixelRect
  ) throws(RenderError) -> [RenderOp] {
    try validate(layer)
    if let emitter = layer as? EmitterLayer, let count = emitter.particleOverflow {
      throw .outOfRange(
        layer: layer.debugName, property: "particles in one frame (every emitter and replicated instance together)",
        value: Double(count), limit: Double(Limits.maxParticlesPerFrame))
    }
    // Every value is checked whether or not the layer shows: a limit does not depend on where
    // a layer is or whether it is hidden.
    try validateEffects(layer)
    guard !layer.isHidden, layer.opacity > 0, !region.isEmpty else { return [] }
    guard visiting.insert(ObjectIdentifier(layer)).inserted else {
      throw .layerCycle(layer: layer.debugName)
    }
    defer { visiting.remove(ObjectIdentifier(layer)) }
    // Inside an odd number of flipped geometries, contents images are drawn mirrored back.
    let outerFlip = contentsFlipped
    if layer.isGeometryFlipped { contentsFlipped.toggle() }
    defer { contentsFlipped = outerFlip }

    let toTarget = layer.localTransform.concatenating(parent)
    // An edge-on plane covers no pixel, and neither does anything flattened into it.
    guard let (mapping, det) = PlaneMapping.make(toTarget.planeHomography) else { return [] }
    if !layer.isDoubleSided && det < 0 { return [] }

    if let active = layer.activeTransition {
      return try transitionSubtree(layer, active, mapping: mapping, parent: parent, clips: clips, region: region)
    }
    let opacity = Float(min(layer.opacity, 1))
    if layer.hasEffects {
      return try effects(
        layer, mapping: mapping, toTarget: toTarget, opacity: opacity, clips: clips,
        region: region)
    }
    if opacity >= 1 {
      return try content(layer, mapping: mapping, toTarget: toTarget, clips: clips, region: region)
    }
    // Group opacity: the subtree is composited as one image. A subtree of one draw needs no group.
    let inner = try content(layer, mapping: mapping, toTarget: toTarget, clips: [], region: region)
    if inner.count == 1, case .draw(var d) = inner[0], d.clips.count + clips.count <= RenderList.maxClips {
      d.opacity *= opacity
      d.clips = clips.map(\.clip) + d.clips
      d.pixelBounds = clips.reduce(d.pixelBounds) { $0.intersection($1.bounds) }
      return d.pixelBounds.isEmpty ? [] : [.draw(d)]
    }
    return wrapInGroup(inner, opacity: opacity, clips: clips)
  }

  /// The layer's own draws (background, contents, sublayers, border), without its opacity.
  mutating func content(
    _ layer: Layer, mapping: PlaneMapping, toTarget: Transform3D,
    clips: [ClipEntry], region: PixelRect
  ) throws(RenderError) -> [RenderOp] {
    if !layer.flattensSublayers {
      return try transformLayerContent(layer, toTarget: toTarget, clips: clips, region: region)
    }
    var ops: [RenderOp] = []
    let b = layer.bounds
    let boundsRect = RoundedRect(
      bounds: SIMD4(Float(b.minX), Float(b.minY), Float(b.maxX), Float(b.maxY)),
      cornerRadius: Float(layer.cornerRadius), corners: layer.cornerBits)

    if let bg = layer.backgroundColor, bg.alpha > 0 {
      append(&ops, Draw.make(mapping, Shape(rect: boundsRect), .color(bg.premultiplied), clips, region))
    }
    if let gradient = (layer as? GradientLayer)?.gradient {
      append(&ops, Draw.make(mapping, Shape(rect: boundsRect), .gradient(gradient), clips, region))
    }

    // Contents and sublayers are what masksToBounds clips.
    var ownClip: ClipEntry?
    var innerRegion = region
    if layer.masksToBounds {
      let bounds = mapping.pixelBounds(of: boundsRect.bounds, within: target)
      ownClip = ClipEntry(clip: Clip(mapping: mapping, rect: boundsRect), bounds: bounds)
      innerRegion = region.intersection(bounds)
    }
    // When the clip stack is full, the clipped part becomes a group that restarts it.
    let isolate = ownClip != nil && clips.count >= RenderList.maxClips
    let innerClips = isolate ? [ownClip!] : clips + (ownClip.map { [$0] } ?? [])

    var clipped: [RenderOp] = []
    if !innerRegion.isEmpty {
      if let image = layer.contents {
        append(&clipped, contentsDraw(layer, image: image, mapping: mapping, clips: innerClips, region: innerRegion))
      }
      if let shape = layer as? ShapeLayer {
        // Between the contents and the first sublayer, as Core Animation composites it.
        clipped += shapeDraws(shape, mapping: mapping, clips: innerClips, region: innerRegion).map(RenderOp.draw)
      }
      if let text = layer as? TextLayer {
        clipped += try textDraws(text, mapping: mapping, clips: innerClips, region: innerRegion).map(RenderOp.draw)
      }
      if !layer.sublayerList.isEmpty {
        let childParent = layer.sublayersParent(toTarget)
        if let replicator = layer as? ReplicatorLayer {
          clipped += try instances(of: replicator, parent: childParent, clips: innerClips, region: innerRegion)
        } else {
          clipped += try sublayers(layer.sublayerList, parent: childParent, clips: innerClips, region: innerRegion)
        }
      }
    }
    ops += isolate ? wrapInGroup(clipped, opacity: 1, clips: clips) : clipped

    if layer.borderWidth > 0, layer.borderColor.alpha > 0 {
      let shape = Shape(rect: boundsRect, borderWidth: Float(layer.borderWidth))
      append(&ops, Draw.make(mapping, shape, .color(layer.borderColor.premultiplied), clips, region))
    }
    return ops
  }

  /// A fresh surface id.
  mutating func newSurface() -> SurfaceID {
    defer { nextSurface += 1 }
    return SurfaceID(nextSurface)
  }

  /// The id of `image` in this list, adding it the first time it is used.
  mutating func imageID(_ image: Image) -> ImageID {
    if let id = imageIndex[image.id] { return id }
    let id = ImageID(images.count)
    images.append(image)
    imageIndex[image.id] = id
    return id
  }

  /// The pixels of the current target that `ops` touch: draws and backdrop copies at their own
  /// level (what nested groups draw reaches this target through their composite draws).
  static func touched(by ops: [RenderOp]) -> PixelRect {
    var bounds = PixelRect(x: 0, y: 0, width: 0, height: 0)
    var depth = 0
    for op in ops {
      switch op {
      case .pushGroup: depth += 1
      case .popGroup: depth -= 1
      case .draw(let d) where depth == 0: bounds = bounds.union(d.pixelBounds)
      case .copyBackdrop(_, let b) where depth == 0: bounds = bounds.union(b)
      default: break
      }
    }
    return bounds
  }

  private mutating func contentsDraw(
    _ layer: Layer, image: Image, mapping: PlaneMapping, clips: [ClipEntry], region: PixelRect
  ) -> Draw? {
    let cr = layer.contentsRect
    let natural = Size(
      width: Double(image.width) * abs(cr.size.width) / layer.contentsScale,
      height: Double(image.height) * abs(cr.size.height) / layer.contentsScale)
    let g = layer.contentsGravity.rect(in: layer.bounds, imageSize: natural)
    guard g.size.width != 0, g.size.height != 0, cr.size.width != 0, cr.size.height != 0 else { return nil }
    // uv = cr.origin + (q − g.origin) / g.size × cr.size
    var scale = SIMD2(cr.size.width / g.size.width, cr.size.height / g.size.height)
    var offset = SIMD2(cr.origin.x - g.origin.x * scale.x, cr.origin.y - g.origin.y * scale.y)
    if contentsFlipped {
      // Upright in a flipped geometry: v = cr.y + (g.maxY − q.y) / g.height × cr.height.
      offset.y = cr.origin.y + g.maxY * scale.y
      scale.y = -scale.y
    }
    // Magnified where a texel covers more than a pixel: the layer's filter for that case decides.
    let m = mapping.toTarget
    let h = [m.row0, m.row1, m.row2].map { [Double($0.x), Double($0.y), Double($0.z)] }
    let pixelsPerPoint = RenderListBuilder.linearScale(h, at: Point(x: g.midX, y: g.midY))
    let texelsPerPoint = (abs(scale.x) * Double(image.width) * abs(scale.y) * Double(image.height)).squareRoot()
    let filter = texelsPerPoint < pixelsPerPoint ? layer.magnificationFilter : layer.minificationFilter
    let transform = TextureTransform(
      scale: SIMD2(Float(scale.x), Float(scale.y)), offset: SIMD2(Float(offset.x), Float(offset.y)),
      nearest: filter == .nearest,
      // Every gravity: the pieces fill the rectangle the gravity gives (a gravity that does not
      // scale gives the natural size, where the pieces are the image as it is).
      slices: layer.contentsCenter != .unit
        ? RenderListBuilder.slices(layer.contentsCenter, contentsRect: cr, natural: natural, in: g)
          .flippedVertically(about: contentsFlipped ? g.minY + g.maxY : nil) : nil)
    let rect = RoundedRect(bounds: SIMD4(Float(g.minX), Float(g.minY), Float(g.maxX), Float(g.maxY)))
    let source: TextureSource
    if let fade = image.crossfade {
      // An animation of contents in progress: the backends mix the two images themselves.
      source = .crossfade(
        ContentsCrossfade(from: fade.from.map { imageID($0) }, to: fade.to.map { imageID($0) }, weight: fade.weight))
    } else {
      source = .image(imageID(image))
    }
    return Draw.make(mapping, Shape(rect: rect), .texture(source, transform), clips, region)
  }

  /// The nine-slice pieces of contents resized into `g` (CALayer.contentsCenter): along each
  /// axis, the parts of the image before and after `center` keep their natural size (shrunk
  /// alike where the two do not fit), the centre stretches over the rest.
  static func slices(_ center: Rect, contentsRect cr: Rect, natural: Size, in g: Rect) -> TextureTransform.Slices {
    func axis(_ c0: Double, _ c1: Double, _ u0: Double, _ uw: Double, _ n: Double, _ g0: Double, _ g1: Double)
      -> (SIMD2<Float>, SIMD3<Float>, SIMD3<Float>)
    {
      let (lo, hi) = (min(max(min(c0, c1), 0), 1), min(max(max(c0, c1), 0), 1))
      var (before, after) = (lo * n, (1 - hi) * n)
      let span = g1 - g0
      if before + after > span, before + after > 0 {
        let k = span / (before + after)
        (before, after) = (before * k, after * k)
      }
      let xs = [g0, g0 + before, g1 - after, g1]
      let us = [u0, u0 + lo * uw, u0 + hi * uw, u0 + uw]
      var scale = SIMD3<Float>()
      var offset = SIMD3<Float>()
      for i in 0..<3 {
        let dx = xs[i + 1] - xs[i]
        let s = dx != 0 ? (us[i + 1] - us[i]) / dx : 0
        scale[i] = Float(s)
        offset[i] = Float(us[i] - xs[i] * s)
      }
      return (SIMD2(Float(xs[1]), Float(xs[2])), scale, offset)
    }
    let x = axis(center.minX, center.maxX, cr.origin.x, cr.size.width, natural.width, g.minX, g.maxX)
    let y = axis(center.minY, center.maxY, cr.origin.y, cr.size.height, natural.height, g.minY, g.maxY)
    return TextureTransform.Slices(breaksX: x.0, scaleX: x.1, offsetX: x.2, breaksY: y.0, scaleY: y.1, offsetY: y.2)
  }

  /// Sublayers by zPosition, then in insertion order.
  mutating func sublayers(_ list: [Layer], parent: Transform3D, clips: [ClipEntry], region: PixelRect)
    throws(RenderError) -> [RenderOp]
  {
    let ordered = list.enumerated().sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
    var ops: [RenderOp] = []
    for (_, child) in ordered { ops += try subtree(child, parent: parent, clips: clips, region: region) }
    return ops
  }

  /// A ReplicatorLayer's instances (its documentation): instance k's sublayers under its transform
  /// about the layer's centre; a colour other than white multiplies the instance as a group.
  mutating func instances(of r: ReplicatorLayer, parent: Transform3D, clips: [ClipEntry], region: PixelRect)
    throws(RenderError) -> [RenderOp]
  {
    var ops: [RenderOp] = []
    let (product, overflow) = replicated.multipliedReportingOverflow(by: max(r.instanceCount, 1))
    guard !overflow, product <= Limits.maxReplicatedInstances else {
      throw .outOfRange(
        layer: r.debugName, property: "instanceCount (times the replicators around it)",
        value: overflow ? .infinity : Double(product), limit: Double(Limits.maxReplicatedInstances))
    }
    let outer = replicated
    replicated = product
    defer { replicated = outer }
    let center = Point(x: r.bounds.midX, y: r.bounds.midY)
    // `instanceTransform` applied k times, one product per instance (`r.instanceTransform(k)`
    // for every k made 5 000 instances take 40 s).
    var power = Transform3D.identity
    for k in 0..<max(r.instanceCount, 0) {
      defer { power = power.concatenating(r.instanceTransform) }
      let list = k == 0 || r.instanceSublayers.count < k ? r.sublayerList : r.instanceSublayers[k - 1]
      let instanceParent = Transform3D(translationX: -center.x, y: -center.y)
        .concatenating(power)
        .concatenating(Transform3D(translationX: center.x, y: center.y))
        .concatenating(parent)
      let m = r.instanceMultiplier(k)
      if m == SIMD4(repeating: 1) {
        ops += try sublayers(list, parent: instanceParent, clips: clips, region: region)
        continue
      }
      // Multiplied as a group: out = in × (r, g, b, a), on straight colour (RenderMath.applyColorMatrix).
      let inner = try sublayers(list, parent: instanceParent, clips: [], region: region)
      let bounds = RenderListBuilder.touched(by: inner).intersection(region)
      if bounds.isEmpty || m.w == 0 { continue }
      let content = newSurface()
      ops.append(.pushGroup(content, bounds: bounds))
      ops += inner
      ops.append(.popGroup(content))
      let tinted = newSurface()
      let f = SIMD4<Float>(Float(m.x), Float(m.y), Float(m.z), Float(m.w))
      let matrix = ColorMatrix(r: [f.x, 0, 0, 0], g: [0, f.y, 0, 0], b: [0, 0, f.z, 0], a: [0, 0, 0, f.w])
      ops.append(.filter(FilterPass(input: content, output: tinted, bounds: bounds, operation: .colorMatrix(matrix))))
      append(&ops, surfaceDraw(tinted, covering: bounds, clips: clips))
    }
    return ops
  }

  /// A TransformLayer's sublayers (through nested transform layers) kept in its 3D space and drawn
  /// back to front by the depth of their centres (TransformLayer's documentation).
  mutating func transformLayerContent(
    _ layer: Layer, toTarget: Transform3D, clips: [ClipEntry], region: PixelRect
  ) throws(RenderError) -> [RenderOp] {
    // Depth runs through the transform layer down to its superlayer's sublayerTransform (a
    // perspective), before any flattening.
    let depthBase = layer.localTransform.concatenating(
      layer.superlayer.map { $0.aboutAnchor($0.sublayerTransform) } ?? .identity)
    var leaves: [(layer: Layer, parent: Transform3D, depth: Double, order: Int)] = []
    func collect(_ t: Layer, toTarget: Transform3D, depthFrame: Transform3D) throws(RenderError) {
      guard visiting.insert(ObjectIdentifier(t)).inserted || t === layer else {
        throw .layerCycle(layer: t.debugName)
      }
      let parent = t.sublayersParent(toTarget, flattening: false)
      let depthParent = t.aboutAnchor(t.sublayerTransform).concatenating(depthFrame)
      for s in t.sublayerList where !s.isHidden {
        if !s.flattensSublayers {
          try collect(
            s, toTarget: s.localTransform.concatenating(parent),
            depthFrame: s.localTransform.concatenating(depthParent))
          visiting.remove(ObjectIdentifier(s))
          continue
        }
        let c = s.localTransform.concatenating(depthParent).homogeneous(Point(x: s.bounds.midX, y: s.bounds.midY))
        leaves.append((s, parent, c.w > 1e-9 ? c.z / c.w : -.infinity, leaves.count))
      }
    }
    try collect(layer, toTarget: toTarget, depthFrame: depthBase)
    var ops: [RenderOp] = []
    for leaf in leaves.sorted(by: { ($0.depth, $0.order) < ($1.depth, $1.order) }) {
      ops += try subtree(leaf.layer, parent: leaf.parent, clips: clips, region: region)
    }
    return ops
  }

  /// Draws `inner` into a new group and composites it with `opacity` under `clips`.
  mutating func wrapInGroup(_ inner: [RenderOp], opacity: Float, clips: [ClipEntry]) -> [RenderOp] {
    let bounds = clips.reduce(RenderListBuilder.touched(by: inner)) { $0.intersection($1.bounds) }
    guard !bounds.isEmpty else { return [] }
    let id = newSurface()
    var ops: [RenderOp] = [.pushGroup(id, bounds: bounds)] + inner + [.popGroup(id)]
    append(&ops, surfaceDraw(id, covering: bounds, opacity: opacity, clips: clips))
    return ops
  }

  /// The draw that composites surface `id`, which covers `bounds` in target pixels, with
  /// `opacity` under `clips`; nil when the clips leave nothing of it.
  func surfaceDraw(_ id: SurfaceID, covering bounds: PixelRect, opacity: Float = 1, clips: [ClipEntry]) -> Draw? {
    let visible = clips.reduce(bounds) { $0.intersection($1.bounds) }
    guard !visible.isEmpty else { return nil }
    return Draw(
      pixelBounds: visible, mapping: .identity, shape: Shape(rect: bounds.roundedRect),
      paint: .texture(.surface(id), bounds.surfaceTransform), opacity: opacity, clips: clips.map(\.clip))
  }

  func append(_ ops: inout [RenderOp], _ draw: Draw?) {
    if let draw { ops.append(.draw(draw)) }
  }

  func validate(_ layer: Layer) throws(RenderError) {
    let name = layer.debugName
    func finite(_ ok: Bool, _ property: String) throws(RenderError) {
      if !ok { throw .nonFiniteValue(layer: name, property: property) }
    }
    func nonNegative(_ v: Double, _ property: String) throws(RenderError) {
      if v < 0 { throw .negativeValue(layer: name, property: property, value: v) }
    }
    try finite(layer.bounds.isFinite, "bounds")
    try finite(layer.position.isFinite, "position")
    try finite(layer.anchorPoint.isFinite, "anchorPoint")
    try finite(layer.zPosition.isFinite, "zPosition")
    try finite(layer.anchorPointZ.isFinite, "anchorPointZ")
    try finite(layer.transform.isFinite, "transform")
    try finite(layer.sublayerTransform.isFinite, "sublayerTransform")
    try finite(layer.opacity.isFinite, "opacity")
    try finite(layer.cornerRadius.isFinite, "cornerRadius")
    try finite(layer.borderWidth.isFinite, "borderWidth")
    try finite(layer.contentsRect.isFinite, "contentsRect")
    try finite(layer.contentsScale.isFinite, "contentsScale")
    try finite(layer.backgroundColor?.isFinite ?? true, "backgroundColor")
    try finite(layer.borderColor.isFinite, "borderColor")
    try nonNegative(layer.bounds.size.width, "bounds.size.width")
    try nonNegative(layer.bounds.size.height, "bounds.size.height")
    try nonNegative(layer.cornerRadius, "cornerRadius")
    try nonNegative(layer.borderWidth, "borderWidth")
    if !(layer.contentsScale > 0) {
      throw .negativeValue(layer: name, property: "contentsScale", value: layer.contentsScale)
    }
    if let shape = layer as? ShapeLayer { try validateShape(shape) }
    for (value, property) in [
      (layer.position.x, "position"), (layer.position.y, "position"), (layer.bounds.origin.x, "bounds"),
      (layer.bounds.origin.y, "bounds"), (layer.bounds.size.width, "bounds"), (layer.bounds.size.height, "bounds"),
      (layer.zPosition, "zPosition"), (layer.cornerRadius, "cornerRadius"), (layer.borderWidth, "borderWidth"),
    ] where abs(value) > Limits.maxCoordinate {
      throw .outOfRange(layer: name, property: property, value: value, limit: Limits.maxCoordinate)
    }
  }
}
