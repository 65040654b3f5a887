extension RenderList {
  /// A frame of a transition between two layer trees: each is rendered into its own surface over
  /// the whole target, and the effect mixes them at `progress`.
  /// - Parameters:
  ///   - from: the tree shown at progress 0.
  ///   - to: the tree shown at progress 1.
  ///   - effect: a built-in effect name (`TransitionEffects.all`), or with `builtIn: false` the
  ///     name of a shader registered with the GPU backend (`GLRenderer.registerTransition`).
  ///   - parameters: values for the effect's uniforms; missing ones take the defaults.
  /// - Throws: `RenderError` for a bad target or layer, or `.malformedList` for an unknown
  ///   built-in effect.
  public init(
    transitionFrom from: Layer, to: Layer, width: Int, height: Int, effect: String,
    parameters: [String: TransitionValue] = [:], progress: Double, background: Color = .clear, builtIn: Bool = true
  ) throws(RenderError) {
    guard !builtIn || TransitionEffects.all[effect] != nil else {
      throw .malformedList(index: 0, reason: "no built-in transition effect \(effect)")
    }
    guard progress.isFinite else { throw .nonFiniteValue(layer: "<transition>", property: "progress") }
    try RenderList.validateTarget(width: width, height: height)
    guard background.isFinite else { throw .nonFiniteValue(layer: "<target>", property: "background") }
    // Both trees flatten through one builder: one counter of surface ids, one table of images.
    var builder = RenderListBuilder(width: width, height: height)
    let bounds = builder.target
    let root = RenderListBuilder.root(scale: 1)
    var ops: [RenderOp] = []
    let clear = background.premultiplied
    var ends: [SurfaceID] = []
    for layer in [from, to] {
      let id = builder.newSurface()
      ops.append(.pushGroup(id, bounds: bounds))
      // The background fills each surface first, as it fills a target.
      if clear.w > 0 {
        ops.append(
          .draw(
            Draw(
              pixelBounds: bounds, mapping: .identity, shape: Shape(rect: bounds.roundedRect), paint: .color(clear))))
      }
      ops += try builder.subtree(layer, parent: root, clips: [], region: bounds)
      ops.append(.popGroup(id))
      ends.append(id)
    }
    let out = builder.newSurface()
    ops.append(
      .transition(
        TransitionPass(
          from: ends[0], to: ends[1], output: out, bounds: bounds, progress: Float(progress), effect: effect,
          parameters: parameters)))
    builder.append(&ops, builder.surfaceDraw(out, covering: bounds, clips: []))
    self.init(width: width, height: height, clearColor: .zero, images: builder.images, ops: ops)
  }
}

extension RenderListBuilder {
  /// A layer in the middle of a transition: the "before" and "after" subtrees, each rendered
  /// into a surface over the layer's area, mixed by the effect and drawn there.
  mutating func transitionSubtree(
    _ layer: Layer, _ active: ActiveTransition, mapping: PlaneMapping, parent: Transform3D, clips: [ClipEntry],
    region: PixelRect
  ) throws(RenderError) -> [RenderOp] {
    let b = layer.bounds
    let area = mapping.pixelBounds(
      of: SIMD4(Float(b.minX), Float(b.minY), Float(b.maxX), Float(b.maxY)), within: region)
    guard !area.isEmpty else { return [] }
    // The layer's own subtree without the transition, and the snapshot of what it showed before.
    // The layer is rendered again without its transition: not a cycle.
    layer.activeTransition = nil
    visiting.remove(ObjectIdentifier(layer))
    defer {
      layer.activeTransition = active
      visiting.insert(ObjectIdentifier(layer))
    }
    let after = try subtree(layer, parent: parent, clips: [], region: area)
    let before = try subtree(active.before, parent: parent, clips: [], region: area)
    let (from, to, out) = (newSurface(), newSurface(), newSurface())
    var ops: [RenderOp] = [.pushGroup(from, bounds: area)]
    ops += before
    ops += [.popGroup(from), .pushGroup(to, bounds: area)]
    ops += after
    ops.append(.popGroup(to))
    // Played backwards: the new subtree is the effect's "from", the old its "to", at 1 − p.
    let (first, second) = active.reversed ? (to, from) : (from, to)
    let progress = active.reversed ? 1 - active.progress : active.progress
    ops.append(
      .transition(
        TransitionPass(
          from: first, to: second, output: out, bounds: area, progress: Float(progress), effect: active.effect,
          parameters: active.parameters)))
    append(&ops, surfaceDraw(out, covering: area, clips: clips))
    return ops
  }
}
