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
    let a = try RenderList(layer: from, width: width, height: height, background: background)
    let b = try RenderList(layer: to, width: width, height: height, background: background)
    let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
    var ops: [RenderOp] = []
    var images: [Image] = []
    // Surface ids of the second list are shifted past the first list's.
    let shift = a.surfaceIDs.max().map { $0 + 1 } ?? 0
    let fromID = shift + (b.surfaceIDs.max() ?? -1) + 1
    let toID = fromID + 1
    let outID = fromID + 2
    for (list, id, idShift) in [(a, fromID, 0), (b, toID, shift)] {
      let imageShift = images.count
      images += list.images
      ops.append(.pushGroup(id, bounds: bounds))
      // The list's clear colour fills its surface first.
      if list.clearColor.w > 0 {
        ops.append(
          .draw(
            Draw(
              pixelBounds: bounds, mapping: .identity, shape: Shape(rect: bounds.roundedRect),
              paint: .color(list.clearColor))))
      }
      ops += list.ops.map { $0.shifted(surfaces: idShift, images: imageShift) }
      ops.append(.popGroup(id))
    }
    ops.append(
      .transition(
        TransitionPass(
          from: fromID, to: toID, output: outID, bounds: bounds, progress: Float(progress), effect: effect,
          parameters: parameters)))
    ops.append(
      .draw(
        Draw(
          pixelBounds: bounds, mapping: .identity, shape: Shape(rect: bounds.roundedRect),
          paint: .texture(.surface(outID), bounds.surfaceTransform))))
    self.init(width: width, height: height, clearColor: .zero, images: images, ops: ops)
  }

  /// Every surface id the list makes.
  var surfaceIDs: [Int] {
    ops.compactMap {
      switch $0 {
      case .pushGroup(let id, _), .copyBackdrop(let id, _): id
      case .filter(let p): p.output
      case .transition(let p): p.output
      default: nil
      }
    }
  }
}

extension RenderOp {
  /// The op with surface ids and image indices moved by the given amounts.
  func shifted(surfaces s: Int, images i: Int) -> RenderOp {
    guard s != 0 || i != 0 else { return self }
    switch self {
    case .pushGroup(let id, let b): return .pushGroup(id + s, bounds: b)
    case .popGroup(let id): return .popGroup(id + s)
    case .copyBackdrop(let id, let b): return .copyBackdrop(id + s, bounds: b)
    case .filter(var p):
      p.input += s
      p.output += s
      return .filter(p)
    case .transition(var p):
      p.from += s
      p.to += s
      p.output += s
      return .transition(p)
    case .draw(var d):
      switch d.paint {
      case .texture(.image(let k), let t): d.paint = .texture(.image(k + i), t)
      case .texture(.surface(let k), let t): d.paint = .texture(.surface(k + s), t)
      case .color: break
      }
      d.mask?.surface += s
      d.backdrop = d.backdrop.map { $0 + s }
      return .draw(d)
    }
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
    ops.append(
      .transition(
        TransitionPass(
          from: from, to: to, output: out, bounds: area, progress: Float(active.progress), effect: active.effect,
          parameters: active.parameters)))
    let visible = clips.reduce(area) { $0.intersection($1.bounds) }
    guard !visible.isEmpty else { return ops }
    ops.append(
      .draw(
        Draw(
          pixelBounds: visible, mapping: .identity, shape: Shape(rect: area.roundedRect),
          paint: .texture(.surface(out), area.surfaceTransform), clips: clips.map(\.clip))))
    return ops
  }
}
