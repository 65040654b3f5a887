import Foundation
import LayerKit
import LayerKitMedia

/// Something drawn over an item's picture, inside the item — so a transition carries it with
/// the picture, as editly draws every layer of a clip into the clip's frame: a title placed
/// anywhere, a subtitle, a news title, text sliding in, a picture placed and sized, colours.
/// A pure function of its time: frame k drawn alone, or on another shard, is the same frame.
public struct ClipLayer: Sendable {
  /// Seconds into the item it shows from (included) and to (excluded; nil: the item's end).
  public var start: Double
  public var stop: Double?
  /// The layer, `width`×`height` (the picture area), at `local` seconds after `start`, of
  /// `span` seconds it shows for.
  public var draw: @Sendable (_ local: Double, _ span: Double, _ width: Double, _ height: Double) throws -> Layer

  /// A picture a fragment shader paints (editly's `gl` layer), drawn by a renderer that is a
  /// `ShaderPainter` (the GPU), over the whole picture area; `draw` is not used.
  public var shader: PictureShader?

  /// editly's gl layer: its files, and `time` = its progress (0 → 1 over its span) × `speed`.
  public struct PictureShader: Sendable, Hashable {
    public var fragment: URL
    public var vertex: URL?
    public var speed: Double

    public init(fragment: URL, vertex: URL? = nil, speed: Double = 1) {
      self.fragment = fragment
      self.vertex = vertex
      self.speed = speed
    }
  }

  /// A shader's picture over the picture area.
  public init(start: Double = 0, stop: Double? = nil, shader: PictureShader) {
    self.start = start
    self.stop = stop
    self.shader = shader
    self.draw = { _, _, w, h in Layer(frame: Rect(x: 0, y: 0, width: w, height: h)) }
  }

  public init(
    start: Double = 0, stop: Double? = nil,
    draw: @escaping @Sendable (_ local: Double, _ span: Double, _ width: Double, _ height: Double) throws -> Layer
  ) {
    self.start = start
    self.stop = stop
    self.draw = draw
  }

  /// The layer at `local` seconds into an item of `duration` seconds, or nil outside its time.
  /// - Parameter paint: a shader's picture at a time and a pixel size (the renderer's).
  func layer(
    local: Double, itemDuration duration: Double, width: Double, height: Double, paint: Timeline.Paint?
  ) throws -> Layer? {
    let end = min(stop ?? duration, duration)
    guard local >= start - 1e-9, local < end else { return nil }
    guard let shader else { return try draw(local - start, end - start, width, height) }
    guard let paint else {
      throw VideoError.invalidTimeline(
        "\(shader.fragment.lastPathComponent): a shader's picture (editly's gl layer) is drawn by the GPU renderer")
    }
    let layer = Layer(frame: Rect(x: 0, y: 0, width: width, height: height))
    layer.contents = try paint(
      shader, (local - start) / (end - start) * shader.speed, Int(width.rounded()), Int(height.rounded()))
    layer.contentsGravity = .resize
    return layer
  }
}
