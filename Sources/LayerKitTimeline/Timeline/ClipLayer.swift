import Foundation
import LayerKit
import LayerKitMedia
import LayerKitOutput

/// Something drawn over an item's picture, inside the item — so a transition carries it with
/// the picture, as editly draws every layer of a clip into the clip's frame: a title placed
/// anywhere, a subtitle, a news title, text sliding in, a picture placed and sized, colours.
/// A pure function of its time: frame k drawn alone, or on another shard, is the same frame.
public struct ClipLayer: Sendable {
  /// Seconds into the item it shows from (included) and to (excluded; nil: the item's end).
  public var start: Double
  public var stop: Double?
  public var content: Content

  /// What the layer shows.
  public enum Content: Sendable {
    /// The layer, `width`×`height` (the picture area), at `local` seconds after `start`, of
    /// `span` seconds it shows for.
    case drawn(@Sendable (_ local: Double, _ span: Double, _ width: Double, _ height: Double) throws -> Layer)
    /// A clip played in a box over the picture (editly's video layers after a clip's picture:
    /// picture-in-picture, a mosaic), decoded by the item's renderer.
    case clip(PlacedClip)
    /// A picture a fragment shader paints (editly's `gl` layer), drawn by a renderer that is a
    /// `ShaderPainter` (the GPU), over the whole picture area.
    case shader(PictureShader)
  }

  /// The placed clip, for a clip layer.
  public var clip: PlacedClip? { if case .clip(let c) = content { c } else { nil } }
  /// The shader, for a shader's picture.
  public var shader: PictureShader? { if case .shader(let p) = content { p } else { nil } }

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

  /// A clip in a box: from `inPoint` at `speed`, holding its last frame past its end.
  public struct PlacedClip: Sendable {
    public var info: ClipInfo
    public var inPoint: Double
    public var speed: Double
    /// Fractions of the picture area: x, y, width, height.
    public var box: Rect
    public var gravity: ContentsGravity
    /// contain-blur: the bars of the box filled with the frame stretched and blurred.
    public var bars: Bool

    public init(
      info: ClipInfo, inPoint: Double = 0, speed: Double = 1, box: Rect, gravity: ContentsGravity, bars: Bool = false
    ) {
      self.info = info
      self.inPoint = inPoint
      self.speed = speed
      self.box = box
      self.gravity = gravity
      self.bars = bars
    }

    /// The clip's own time `local` seconds after the layer's start.
    public func clipTime(_ local: Double) -> Double { inPoint + max(0, local) * speed }
  }

  /// A clip in a box over the picture area.
  public init(start: Double = 0, stop: Double? = nil, clip: PlacedClip) {
    (self.start, self.stop, content) = (start, stop, .clip(clip))
  }

  /// A shader's picture over the picture area.
  public init(start: Double = 0, stop: Double? = nil, shader: PictureShader) {
    (self.start, self.stop, content) = (start, stop, .shader(shader))
  }

  public init(
    start: Double = 0, stop: Double? = nil,
    draw: @escaping @Sendable (_ local: Double, _ span: Double, _ width: Double, _ height: Double) throws -> Layer
  ) {
    (self.start, self.stop, content) = (start, stop, .drawn(draw))
  }

  /// Where it ends in an item of `duration` seconds.
  func end(itemDuration duration: Double) -> Double { min(stop ?? duration, duration) }

  /// The layer at `local` seconds into an item of `duration` seconds, or nil outside its time.
  /// - Parameters:
  ///   - paint: a shader's picture at a time and a pixel size (the renderer's).
  ///   - clipFrame: a placed clip's frame at a time of the clip (the renderer's decoder).
  func layer(
    local: Double, itemDuration duration: Double, width: Double, height: Double, paint: Timeline.Paint?,
    clipFrame: ((Double) throws -> Image)? = nil
  ) throws -> Layer? {
    let end = end(itemDuration: duration)
    guard local >= start - 1e-9, local < end else { return nil }
    let shader: PictureShader
    switch content {
    case .drawn(let draw): return try draw(local - start, end - start, width, height)
    case .clip(let clip):
      guard let clipFrame else { throw VideoError.invalidTimeline("\(clip.info.path): no decoder for a placed clip") }
      let image = try clipFrame(clip.clipTime(local - start))
      return Self.picture(image, in: clip.box, gravity: clip.gravity, bars: clip.bars, width: width, height: height)
    case .shader(let s): shader = s
    }
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

  /// A layer the size of the picture area with `image` in `box` (fractions of the area), filled
  /// as `gravity` says, moved by Ken Burns at `progress` (0 to 1) inside the box.
  /// With `bars` (contain-blur), the box's bars are the picture stretched over the box and
  /// blurred (`Fit.bars`).
  package static func picture(
    _ image: Image, in box: Rect, gravity: ContentsGravity, bars: Bool = false, motion: KenBurns? = nil,
    progress: Double = 0, width w: Double, height h: Double
  ) -> Layer {
    let root = Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    let frame = Rect(x: box.origin.x * w, y: box.origin.y * h, width: box.size.width * w, height: box.size.height * h)
    let area = Layer(frame: frame)
    area.masksToBounds = true
    if bars, let under = Fit.bars(image, width: frame.size.width, height: frame.size.height) {
      area.addSublayer(under)
    }
    let shown = Layer(frame: Rect(x: 0, y: 0, width: frame.size.width, height: frame.size.height))
    shown.contents = image
    shown.contentsGravity = gravity
    if let motion {
      shown.transform = motion.transform(at: progress, width: frame.size.width, height: frame.size.height)
    }
    area.addSublayer(shown)
    root.addSublayer(area)
    return root
  }
}
