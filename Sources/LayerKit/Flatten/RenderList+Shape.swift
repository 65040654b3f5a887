import Foundation

extension RenderListBuilder {
  /// A shape layer's fill, then its stroke: each a coverage mask rasterized in target pixels
  /// (the path and the stroke outline mapped through the layer's plane, cut in front of the eye),
  /// drawn in its colour under the clips in force.
  func shapeDraws(_ layer: ShapeLayer, mapping: PlaneMapping, clips: [ClipEntry], region: PixelRect) -> [Draw] {
    guard let path = layer.pathValue, !path.elements.isEmpty else { return [] }
    let visible = clips.reduce(region) { $0.intersection($1.bounds) }
    guard !visible.isEmpty else { return [] }
    // Flattened to 0.02 target pixel (a chord's error on a near-horizontal edge is that fraction
    // of a pixel's coverage: 5 levels of 255): the tolerance in the layer's units at the path's
    // largest magnification (perspective magnifies parts of the plane more than others).
    let tolerance = ShapeLayer.flatness / max(RenderListBuilder.maxScale(mapping, over: path.boundingBox), 1e-9)
    let polylines = path.polylines(tolerance: tolerance)
    var draws: [Draw] = []
    if let fill = layer.fillColor, fill.alpha > 0 {
      let contours = polylines.map { $0.points.map { SIMD2<Double>($0.x, $0.y) } }
      draws += coverageDraw(contours, evenOdd: layer.fillRule == .evenOdd, fill, mapping, clips, visible)
    }
    if let stroke = layer.strokeColor, stroke.alpha > 0, layer.lineWidth > 0 {
      let outline = Stroker.outline(polylines, style: layer.strokeStyle, tolerance: tolerance)
      draws += coverageDraw(outline, evenOdd: false, stroke, mapping, clips, visible)
    }
    return draws
  }

  /// Polygons of a layer's plane drawn in `color`: mapped into target pixels, rasterized into a
  /// coverage mask within `visible`, under the clips; nothing where they cover no pixel.
  func coverageDraw(
    _ polygons: [[SIMD2<Double>]], evenOdd: Bool, _ color: Color, _ mapping: PlaneMapping, _ clips: [ClipEntry],
    _ visible: PixelRect
  ) -> [Draw] {
    let projected = CoverageRasterizer.project(polygons, mapping.toTarget)
    guard let mask = CoverageRasterizer.rasterize(projected, evenOdd: evenOdd, within: visible) else { return [] }
    let b = mask.bounds
    let rect = RoundedRect(bounds: SIMD4(Float(b.x), Float(b.y), Float(b.maxX), Float(b.maxY)))
    return [
      Draw(
        pixelBounds: b, mapping: .identity, shape: Shape(rect: rect, coverage: mask),
        paint: .color(color.premultiplied),
        clips: clips.map(\.clip))
    ]
  }

  /// A text layer's glyphs: the engine's outlines for each run, filled non-zero in the run's
  /// colour (or the layer's foreground colour), like a shape layer's fill.
  mutating func textDraws(
    _ layer: TextLayer, mapping: PlaneMapping, clips: [ClipEntry], region: PixelRect
  ) throws(RenderError) -> [Draw] {
    guard let text = layer.attributedText, let request = layer.layoutRequest(for: text) else { return [] }
    let visible = clips.reduce(region) { $0.intersection($1.bounds) }
    guard !visible.isEmpty else { return [] }
    guard let engine = TextLayer.layoutEngine else {
      throw .textLayout(
        layer: layer.debugName,
        reason: "no layout engine: link LayerKitText (the LayerKit product does) or set TextLayer.layoutEngine")
    }
    let layout: TextLayout
    do {
      layout = try engine.layout(request)
    } catch {
      throw .textLayout(layer: layer.debugName, reason: "\(error)")
    }
    let tolerance = ShapeLayer.flatness / max(RenderListBuilder.maxScale(mapping, over: layer.bounds), 1e-9)
    // One mask per colour: runs of one colour share it.
    var byColor: [(Color, [[SIMD2<Double>]])] = []
    for piece in layout.pieces {
      let color = text.runs[piece.run].color ?? layer.foregroundColor
      guard color.alpha > 0 else { continue }
      let contours = piece.path.polylines(tolerance: tolerance).map { $0.points.map { SIMD2<Double>($0.x, $0.y) } }
      if let i = byColor.firstIndex(where: { $0.0 == color }) {
        byColor[i].1 += contours
      } else {
        byColor.append((color, contours))
      }
    }
    var draws = byColor.flatMap { coverageDraw($0.1, evenOdd: false, $0.0, mapping, clips, visible) }
    // Colour glyphs: their images, where they lie, as contents are drawn.
    for picture in layout.pictures {
      let r = picture.rect
      guard r.size.width > 0, r.size.height > 0 else { continue }
      let transform = TextureTransform(
        scale: SIMD2(Float(1 / r.size.width), Float(1 / r.size.height)),
        offset: SIMD2(Float(-r.origin.x / r.size.width), Float(-r.origin.y / r.size.height)))
      let bounds = SIMD4(Float(r.minX), Float(r.minY), Float(r.maxX), Float(r.maxY))
      if let draw = Draw.make(
        mapping, Shape(rect: RoundedRect(bounds: bounds)), .texture(.image(imageID(picture.image)), transform), clips,
        visible)
      {
        draws.append(draw)
      }
    }
    return draws
  }

  /// The most target pixels one unit of the plane spans, in any direction, at the corners and
  /// the centre of `rect` (the Jacobian's larger column).
  static func maxScale(_ mapping: PlaneMapping, over rect: Rect) -> Double {
    let m = mapping.toTarget
    let h = [m.row0, m.row1, m.row2].map { [Double($0.x), Double($0.y), Double($0.z)] }
    var scale = 0.0
    for p in [
      Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY), Point(x: rect.minX, y: rect.maxY),
      Point(x: rect.maxX, y: rect.maxY), Point(x: rect.midX, y: rect.midY),
    ] {
      guard let j = RenderListBuilder.jacobian(h, at: p) else { continue }
      let c0 = hypot(j.j00, j.j10)
      let c1 = hypot(j.j01, j.j11)
      if c0.isFinite, c1.isFinite { scale = max(scale, c0, c1) }
    }
    // Capped: a plane seen nearly edge-on would ask for more pieces than pixels.
    return min(scale > 0 ? scale : 1, 1e4)
  }

  func validateShape(_ layer: ShapeLayer) throws(RenderError) {
    let name = layer.debugName
    if let path = layer.pathValue, !path.isFinite { throw .invalidPath(layer: name, property: "path") }
    if let path = layer.pathValue, path.exceeds(Limits.maxCoordinate) {
      throw .outOfRange(layer: name, property: "path", value: path.largestCoordinate, limit: Limits.maxCoordinate)
    }
    if abs(layer.lineWidth) > Limits.maxCoordinate {
      throw .outOfRange(layer: name, property: "lineWidth", value: layer.lineWidth, limit: Limits.maxCoordinate)
    }
    for (value, property) in [
      (layer.lineWidth, "lineWidth"), (layer.miterLimit, "miterLimit"), (layer.lineDashPhase, "lineDashPhase"),
      (layer.strokeStart, "strokeStart"), (layer.strokeEnd, "strokeEnd"),
    ] where !value.isFinite {
      throw .nonFiniteValue(layer: name, property: property)
    }
    if !(layer.fillColor?.isFinite ?? true) { throw .nonFiniteValue(layer: name, property: "fillColor") }
    if !(layer.strokeColor?.isFinite ?? true) { throw .nonFiniteValue(layer: name, property: "strokeColor") }
    if !(layer.lineDashPattern ?? []).allSatisfy(\.isFinite) {
      throw .nonFiniteValue(layer: name, property: "lineDashPattern")
    }
  }
}
