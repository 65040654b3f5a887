// Flattening the layer properties that need offscreen passes: background filters, filters,
// shadows, masks and compositing filters. Order, as Core Animation composes a layer:
//   1. background filters: what lies behind, within the layer's rounded bounds, filtered and
//      drawn back first;
//   2. the layer's content (background, contents, sublayers, border) into a surface C;
//   3. filters on C, in order;
//   4. the shadow, from C's alpha (or from shadowPath), tinted, blurred and offset, under C;
//   5. the mask's alpha on (shadow + content);
//   6. opacity and the compositing filter when the result meets what lies behind.
// Blur sizes are in the layer's points, converted to pixels by the layer's own scale on screen
// (the square root of the area scale of its mapping at the anchor point), so a scaled layer
// blurs in proportion. Surfaces are bounded by the visible area plus the margins the blurs need.

import Foundation

extension Layer {
  /// Whether the layer needs the offscreen effects path.
  var hasEffects: Bool {
    !filters.isEmpty || !backgroundFilters.isEmpty || mask != nil
      || (compositingFilter.map { $0 != .normal } ?? false) || hasShadow
  }

  var hasShadow: Bool { shadowOpacity > 0 && shadowColor.alpha > 0 }
}

extension PixelRect {
  /// Grown by `m` pixels on every side.
  func expanded(by m: Int) -> PixelRect {
    isEmpty ? self : PixelRect(x: x - m, y: y - m, width: width + 2 * m, height: height + 2 * m)
  }
}

/// Filter passes planned for one filter list, and the margin their blurs need.
struct FilterPlan {
  var operations: [FilterOperation] = []
  var margin = 0

  /// Consecutive colour filters merge into one matrix (Core Image's unclamped working space); a
  /// blur of σ pixels becomes horizontal + vertical passes per `RenderMath.blurPasses`.
  init(_ filters: [Filter], pixelsPerPoint: Double) {
    var pending: ColorMatrix64?
    func flush() {
      if let m = pending { operations.append(.colorMatrix(m.float)) }
      pending = nil
    }
    for filter in filters {
      if let m = filter.colorMatrix {
        pending = m.after(pending ?? .identity)
      } else if case .gaussianBlur(let radius) = filter.effect {
        flush()
        let sigma = radius * pixelsPerPoint
        guard sigma >= 0.05 else { continue }
        for s in RenderMath.blurPasses(sigma: sigma) {
          let weights = RenderMath.gaussianWeights(sigma: s)
          operations.append(.blur(.horizontal, weights: weights))
          operations.append(.blur(.vertical, weights: weights))
          margin += weights.count - 1
        }
      }
    }
    flush()
  }

  /// The largest magnitude in the colour matrices `filters` merge into (as `init` merges them):
  /// beyond `Float.greatestFiniteMagnitude` a matrix the backends take would hold infinities.
  static func largestColorValue(_ filters: [Filter]) -> Double {
    var largest = 0.0
    var pending: ColorMatrix64?
    for filter in filters {
      if let m = filter.colorMatrix {
        let merged = m.after(pending ?? .identity)
        pending = merged
        for v in merged.rows + [merged.bias] {
          for i in 0..<4 { largest = abs(v[i]).isNaN ? .infinity : max(largest, abs(v[i])) }
        }
      } else {
        pending = nil
      }
    }
    return largest
  }
}

extension RenderListBuilder {
  mutating func effects(
    _ layer: Layer, mapping: PlaneMapping, toTarget: Transform3D, opacity: Float,
    clips: [ClipEntry], region: PixelRect
  ) throws(RenderError) -> [RenderOp] {
    let h = toTarget.planeHomography
    let anchor = layer.anchorInBounds
    let scale = RenderListBuilder.linearScale(h, at: anchor)
    let filterPlan = FilterPlan(layer.filters, pixelsPerPoint: scale)
    let b = layer.bounds
    let boundsRect = RoundedRect(
      bounds: SIMD4(Float(b.minX), Float(b.minY), Float(b.maxX), Float(b.maxY)),
      cornerRadius: Float(layer.cornerRadius), corners: layer.cornerBits)

    // The shadow's blur, offset (in target pixels) and margin.
    var shadowPlan: FilterPlan?
    var shadowOffset = SIMD2<Double>.zero
    if layer.hasShadow {
      shadowPlan = FilterPlan([.gaussianBlur(radius: layer.shadowRadius)], pixelsPerPoint: scale)
      shadowOffset = RenderListBuilder.project(h, anchor, by: layer.shadowOffset)
    }
    let shadowMargin = (shadowPlan?.margin ?? 0) + Int(max(abs(shadowOffset.x), abs(shadowOffset.y)).rounded(.up)) + 1
    let grow = filterPlan.margin + (shadowPlan == nil ? 0 : shadowMargin)
    let contentRegion = region.expanded(by: grow).intersection(target)
    var ops: [RenderOp] = []

    // 1. Background filters: the backdrop within the rounded bounds, filtered, drawn back.
    if !layer.backgroundFilters.isEmpty {
      ops += backgroundFilterOps(
        layer, mapping: mapping, boundsRect: boundsRect, scale: scale, clips: clips, region: region)
    }

    // 2. The content, into its own surface, with room for the filters' blur.
    let inner = try content(
      layer, mapping: mapping, toTarget: toTarget, clips: [], region: contentRegion)
    if let blended = Self.blendedInPlace(layer, inner, opacity: opacity, clips: clips, region: region) {
      return blended
    }
    var contentBounds = RenderListBuilder.touched(by: inner).expanded(by: filterPlan.margin).intersection(contentRegion)
    var pathShadow: PathGeometry?
    var pathBounds = PixelRect(x: 0, y: 0, width: 0, height: 0)
    if layer.hasShadow, let path = layer.shadowPathValue {
      let geometry = PathGeometry(path: path, tolerance: 0.1 / max(scale, 1e-6))
      if !geometry.segments.isEmpty {
        pathShadow = geometry
        pathBounds = mapping.pixelBounds(of: geometry.bounds, within: contentRegion)
      }
    }
    if contentBounds.isEmpty && pathBounds.isEmpty { return ops }
    if contentBounds.isEmpty { contentBounds = pathBounds }

    var content = newSurface()
    ops.append(.pushGroup(content, bounds: contentBounds))
    ops += inner
    ops.append(.popGroup(content))
    // 3. Filters.
    for operation in filterPlan.operations {
      let out = newSurface()
      ops.append(.filter(FilterPass(input: content, output: out, bounds: contentBounds, operation: operation)))
      content = out
    }
    var composed = content
    var composedBounds = contentBounds

    // 4. The shadow under the content.
    if let shadowPlan {
      (composed, composedBounds) = shadowOps(
        layer, plan: shadowPlan, offset: shadowOffset, mapping: mapping, boundsRect: boundsRect,
        content: content, contentBounds: contentBounds, path: pathShadow.map { ($0, pathBounds) }, into: &ops)
    }

    // 5. The mask, rendered in the layer's bounds space over the composed area.
    var mask: SurfaceMask?
    if let maskLayer = layer.mask {
      let id = newSurface()
      let maskParent = Transform3D.flatten.concatenating(toTarget)
      let maskOps = try subtree(maskLayer, parent: maskParent, clips: [], region: composedBounds)
      ops.append(.pushGroup(id, bounds: composedBounds))
      ops += maskOps
      ops.append(.popGroup(id))
      mask = SurfaceMask(surface: id, transform: composedBounds.surfaceTransform)
    }

    // 6. Composite with opacity, the clips in force and the compositing filter.
    let visible = clips.reduce(composedBounds.intersection(region)) { $0.intersection($1.bounds) }
    guard !visible.isEmpty else { return ops }
    var draw = Draw(
      pixelBounds: visible, mapping: .identity, shape: Shape(rect: composedBounds.roundedRect),
      paint: .texture(.surface(composed), composedBounds.surfaceTransform), opacity: opacity,
      clips: clips.map(\.clip), mask: mask)
    if let mode = layer.compositingFilter, mode != .normal {
      draw.blendMode = mode
      if mode.readsBackdrop {
        let backdrop = newSurface()
        ops.append(.copyBackdrop(backdrop, bounds: visible))
        draw.backdrop = backdrop
      }
    }
    ops.append(.draw(draw))
    return ops
  }

  /// A layer of one draw whose only effect is a mode that blends in place (an additive
  /// emitter's particle) needs no surface: the draw itself blends. Nil for any other layer.
  /// Out of line: `effects` recurses through deep trees, and its frame stays small.
  @inline(never)
  static func blendedInPlace(
    _ layer: Layer, _ inner: [RenderOp], opacity: Float, clips: [ClipEntry], region: PixelRect
  ) -> [RenderOp]? {
    guard let mode = layer.compositingFilter, !mode.readsBackdrop, mode != .normal, layer.filters.isEmpty,
      layer.backgroundFilters.isEmpty, layer.mask == nil, !layer.hasShadow, inner.count == 1,
      case .draw(var d) = inner[0], d.blendMode == .normal, d.clips.count + clips.count <= RenderList.maxClips
    else { return nil }
    d.opacity *= opacity
    d.blendMode = mode
    d.clips = clips.map(\.clip) + d.clips
    d.pixelBounds = clips.reduce(d.pixelBounds.intersection(region)) { $0.intersection($1.bounds) }
    return d.pixelBounds.isEmpty ? [] : [.draw(d)]
  }

  /// Pixels per point of the plane mapping `h` around `p`: √|det J| of its Jacobian there.
  static func linearScale(_ h: [[Double]], at p: Point) -> Double {
    guard let j = jacobian(h, at: p) else { return 1 }
    let s = abs(j.j00 * j.j11 - j.j01 * j.j10).squareRoot()
    return s.isFinite && s > 0 ? s : 1
  }

  /// The Jacobian of the plane mapping `h` (rows) at local point `p`: d(target)/d(local); nil
  /// where `p` is behind the eye.
  static func jacobian(_ h: [[Double]], at p: Point) -> (j00: Double, j01: Double, j10: Double, j11: Double)? {
    let w = h[2][0] * p.x + h[2][1] * p.y + h[2][2]
    guard w > 1e-9 else { return nil }
    let x = (h[0][0] * p.x + h[0][1] * p.y + h[0][2]) / w
    let y = (h[1][0] * p.x + h[1][1] * p.y + h[1][2]) / w
    return (
      (h[0][0] - x * h[2][0]) / w, (h[0][1] - x * h[2][1]) / w, (h[1][0] - y * h[2][0]) / w,
      (h[1][1] - y * h[2][1]) / w
    )
  }

  /// Where the local vector `offset` from `p` lands on the target, as a pixel displacement.
  static func project(_ h: [[Double]], _ p: Point, by offset: Size) -> SIMD2<Double> {
    func map(_ x: Double, _ y: Double) -> SIMD2<Double>? {
      let w = h[2][0] * x + h[2][1] * y + h[2][2]
      guard w > 1e-9 else { return nil }
      return SIMD2((h[0][0] * x + h[0][1] * y + h[0][2]) / w, (h[1][0] * x + h[1][1] * y + h[1][2]) / w)
    }
    guard let a = map(p.x, p.y), let b = map(p.x + offset.width, p.y + offset.height) else { return .zero }
    let d = b - a
    return d.x.isFinite && d.y.isFinite ? d : .zero
  }

  func validateEffects(_ layer: Layer) throws(RenderError) {
    let name = layer.debugName
    if let mask = layer.mask {
      if mask === layer { throw .invalidMask(layer: name, reason: "a layer cannot be its own mask") }
      if let parent = mask.superlayer {
        throw .invalidMask(layer: name, reason: "the mask \(mask.debugName) is also a sublayer of \(parent.debugName)")
      }
    }
    for filter in layer.filters + layer.backgroundFilters {
      do { try filter.validate() } catch { throw .invalidFilter(layer: name, error) }
      if let r = filter.parameters["inputRadius"], r > Limits.maxBlurRadius {
        throw .outOfRange(
          layer: name, property: "filters.\(filter.name).inputRadius", value: r, limit: Limits.maxBlurRadius)
      }
    }
    // Each colour filter is finite; the matrix they merge into must be too, as the Float the
    // backends compute in.
    for (filters, property) in [(layer.filters, "filters"), (layer.backgroundFilters, "backgroundFilters")] {
      let largest = FilterPlan.largestColorValue(filters)
      if !(largest <= Double(Float.greatestFiniteMagnitude)) {
        throw .outOfRange(
          layer: name, property: "\(property) (the colour filters' combined matrix)", value: largest,
          limit: Double(Float.greatestFiniteMagnitude))
      }
    }
    for (value, property) in [
      (layer.shadowOpacity, "shadowOpacity"), (layer.shadowRadius, "shadowRadius"),
      (layer.shadowOffset.width, "shadowOffset"), (layer.shadowOffset.height, "shadowOffset"),
    ] where !value.isFinite {
      throw .nonFiniteValue(layer: name, property: property)
    }
    if !layer.shadowColor.isFinite { throw .nonFiniteValue(layer: name, property: "shadowColor") }
    if layer.shadowRadius < 0 { throw .negativeValue(layer: name, property: "shadowRadius", value: layer.shadowRadius) }
    if layer.shadowOpacity < 0 {
      throw .negativeValue(layer: name, property: "shadowOpacity", value: layer.shadowOpacity)
    }
    if let path = layer.shadowPathValue, !path.isFinite { throw .invalidPath(layer: name, property: "shadowPath") }
    if layer.shadowRadius > Limits.maxBlurRadius {
      throw .outOfRange(layer: name, property: "shadowRadius", value: layer.shadowRadius, limit: Limits.maxBlurRadius)
    }
    for (value, property) in [(layer.shadowOffset.width, "shadowOffset"), (layer.shadowOffset.height, "shadowOffset")]
    where abs(value) > Limits.maxCoordinate {
      throw .outOfRange(layer: name, property: property, value: value, limit: Limits.maxCoordinate)
    }
    if let path = layer.shadowPathValue, path.exceeds(Limits.maxCoordinate) {
      throw .outOfRange(layer: name, property: "shadowPath", value: path.largestCoordinate, limit: Limits.maxCoordinate)
    }
  }
}

extension PathGeometry {
  /// The path flattened into segments, each contour closed.
  init(path: Path, tolerance: Double, fillRule: FillRule = .nonZero) {
    var segments: [SIMD4<Float>] = []
    for contour in path.flattened(tolerance: tolerance) {
      for (i, a) in contour.enumerated() {
        let b = contour[(i + 1) % contour.count]
        if a == b { continue }
        segments.append(SIMD4(Float(a.x), Float(a.y), Float(b.x), Float(b.y)))
      }
    }
    self.init(segments: Array(segments.prefix(RenderList.maxPathSegments)), evenOdd: fillRule == .evenOdd)
  }

  /// (minX, minY, maxX, maxY) of the segments.
  var bounds: SIMD4<Float> {
    var lo = SIMD2<Float>(repeating: .infinity)
    var hi = SIMD2<Float>(repeating: -.infinity)
    for s in segments {
      lo = pointwiseMin(lo, pointwiseMin(SIMD2(s.x, s.y), SIMD2(s.z, s.w)))
      hi = pointwiseMax(hi, pointwiseMax(SIMD2(s.x, s.y), SIMD2(s.z, s.w)))
    }
    return SIMD4(lo.x, lo.y, hi.x, hi.y)
  }
}

extension RenderListBuilder {
  /// Step 1 of a layer's effects: what lies behind the layer, within its rounded bounds, copied,
  /// run through the background filters and drawn back under the clips in force.
  mutating func backgroundFilterOps(
    _ layer: Layer, mapping: PlaneMapping, boundsRect: RoundedRect, scale: Double, clips: [ClipEntry],
    region: PixelRect
  ) -> [RenderOp] {
    var ops: [RenderOp] = []
    let plan = FilterPlan(layer.backgroundFilters, pixelsPerPoint: scale)
    let visible = mapping.pixelBounds(of: boundsRect.bounds, within: region)
    let source = visible.expanded(by: plan.margin).intersection(region)
    if !visible.isEmpty && !source.isEmpty {
      var id = newSurface()
      ops.append(.copyBackdrop(id, bounds: source))
      for operation in plan.operations {
        let out = newSurface()
        ops.append(.filter(FilterPass(input: id, output: out, bounds: source, operation: operation)))
        id = out
      }
      let own = ClipEntry(clip: Clip(mapping: mapping, rect: boundsRect), bounds: visible)
      let draw = Draw(
        pixelBounds: visible, mapping: .identity, shape: Shape(rect: source.roundedRect),
        paint: .texture(.surface(id), source.surfaceTransform))
      if clips.count < RenderList.maxClips {
        var d = draw
        d.clips = (clips + [own]).map(\.clip)
        ops.append(.draw(d))
      } else {
        var d = draw
        d.clips = [own.clip]
        ops += wrapInGroup([.draw(d)], opacity: 1, clips: clips)
      }
    }
    return ops
  }

  /// Step 4 of a layer's effects: the shadow (the content's tinted alpha, or the shadow path),
  /// blurred, drawn at its offset under the filtered content, in a new surface.
  /// - Returns: that surface and its bounds.
  mutating func shadowOps(
    _ layer: Layer, plan: FilterPlan, offset: SIMD2<Double>, mapping: PlaneMapping, boundsRect: RoundedRect,
    content: SurfaceID, contentBounds: PixelRect, path: (PathGeometry, PixelRect)?, into ops: inout [RenderOp]
  ) -> (surface: SurfaceID, bounds: PixelRect) {
    let composed: SurfaceID
    let composedBounds: PixelRect
    let color = layer.shadowColor.premultiplied * Float(min(layer.shadowOpacity, 1))
    var shadow: SurfaceID
    let shadowBounds: PixelRect
    if let (pathShadow, pathBounds) = path {
      shadowBounds = pathBounds.expanded(by: plan.margin).intersection(target)
      shadow = newSurface()
      ops.append(.pushGroup(shadow, bounds: shadowBounds))
      append(
        &ops,
        Draw.make(
          mapping, Shape(rect: RoundedRect(bounds: pathShadow.bounds), path: pathShadow), .color(color), [],
          pathBounds))
      ops.append(.popGroup(shadow))
    } else {
      shadowBounds = contentBounds.expanded(by: plan.margin).intersection(target)
      shadow = newSurface()
      ops.append(.filter(FilterPass(input: content, output: shadow, bounds: shadowBounds, operation: .tint(color))))
    }
    for operation in plan.operations {
      let out = newSurface()
      ops.append(.filter(FilterPass(input: shadow, output: out, bounds: shadowBounds, operation: operation)))
      shadow = out
    }
    // Drawn at the offset: bilinear sampling shifts it by fractions of a pixel too.
    let placed = PixelRect(
      x: shadowBounds.x + Int(offset.x.rounded(.down)), y: shadowBounds.y + Int(offset.y.rounded(.down)),
      width: shadowBounds.width + 1, height: shadowBounds.height + 1
    ).intersection(target)
    composedBounds = contentBounds.union(placed)
    composed = newSurface()
    ops.append(.pushGroup(composed, bounds: composedBounds))
    if !placed.isEmpty {
      let size = SIMD2(Float(shadowBounds.width), Float(shadowBounds.height))
      let origin = SIMD2(
        Float(Double(shadowBounds.x) + offset.x), Float(Double(shadowBounds.y) + offset.y))
      // masksToBounds clips the layer's whole rendering, its shadow included (Core Animation's
      // well-known "no shadow with masksToBounds").
      let clip = layer.masksToBounds ? [Clip(mapping: mapping, rect: boundsRect)] : []
      ops.append(
        .draw(
          Draw(
            pixelBounds: placed, mapping: .identity, shape: Shape(rect: placed.roundedRect),
            paint: .texture(.surface(shadow), TextureTransform(scale: 1 / size, offset: -origin / size)),
            clips: clip)))
    }
    ops.append(
      .draw(
        Draw(
          pixelBounds: contentBounds, mapping: .identity, shape: Shape(rect: contentBounds.roundedRect),
          paint: .texture(.surface(content), contentBounds.surfaceTransform))))
    ops.append(.popGroup(composed))
    return (composed, composedBounds)
  }
}
