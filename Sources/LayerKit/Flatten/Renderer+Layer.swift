// Rendering a layer tree directly: flatten (RenderList(layer:…)), then execute.

extension Renderer {
  /// Flattens `layer` at its current model values and renders it.
  /// - Parameters:
  ///   - layer: the root of the tree; its frame is placed in the target's point space.
  ///   - width: target width in pixels.
  ///   - height: target height in pixels.
  ///   - scale: pixels per point.
  ///   - background: the colour behind the tree.
  public func render(
    _ layer: Layer, width: Int, height: Int, scale: Double = 1, background: Color = .clear
  ) throws -> Image {
    try render(RenderList(layer: layer, width: width, height: height, scale: scale, background: background))
  }
}
