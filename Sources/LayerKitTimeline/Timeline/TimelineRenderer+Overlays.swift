import LayerKit
import LayerKitMedia
import LayerKitOutput

/// The image overlays over the whole video (a logo, a watermark): drawn once, then laid over
/// frames in the planes (a clip's frame as decoded, a crossfade, a slide) or over drawn frames
/// (which are drawn without them), by the sink's workers.
extension TimelineRenderer {
  /// The image overlays drawn once over a transparent frame (nil without any, or when they cover
  /// nothing).
  var planarOverlay: PlanarOverlay? {
    get throws {
      if let made = madeOverlay { return made }
      guard timeline.overlays.contains(where: \.isWhole) else { return nil }
      let root = Layer(frame: Rect(x: 0, y: 0, width: Double(timeline.width), height: Double(timeline.height)))
      for overlay in timeline.overlays where overlay.isWhole {
        root.addSublayer(overlay.layer(frameWidth: timeline.width, frameHeight: timeline.height))
      }
      let made = PlanarOverlay(
        picture: try renderer.render(try RenderList(layer: root, width: timeline.width, height: timeline.height)))
      madeOverlay = .some(made)
      return made
    }
  }

  /// The image overlays laid over frames of a layout, worked out once per layout (nil without
  /// any).
  func laidOverlay(_ layout: YUVFrameLayout) throws -> PlanarOverlay.Laid? {
    if let laid = laidOverlays[layout] { return laid }
    guard let overlay = try planarOverlay else { return nil }
    let laid = overlay.laid(in: layout)
    laidOverlays[layout] = laid
    return laid
  }

  /// A clip's frame as decoded with the image overlays laid over it.
  func overlaid(_ planes: YUVPlanes) throws -> YUVPlanes {
    guard let laid = try laidOverlay(planes.layout) else { return planes }
    return laid.over(planes)
  }

  /// Whether drawn frame k is drawn without the image overlays over the whole video, which are
  /// laid over it afterwards by the sink's workers (`overlaid(_:)`): when nothing is drawn above
  /// them (no subtitle, no overlay for part of the video or clip overlay), and the shortcuts are on.
  func laysOverlayAfter(_ k: Int) throws -> Bool {
    guard shortcuts, try planarOverlay != nil else { return false }
    let t = timeline.time(ofFrame: k)
    return !timeline.isDrawnOver(at: t)
  }

  /// A drawn frame with the image overlays laid over it, by the sink's workers: over RGBA as the
  /// draw composites them, over planes as the other frames in the planes get them.
  func overlaid(_ frame: VideoFrame) throws -> VideoFrame {
    guard let overlay = try planarOverlay else { return frame }
    switch frame {
    case .image(let image):
      return .deferred { (try? overlay.over(image)).map(VideoFrame.image) ?? .image(image) }
    case .planes(let p):
      guard let laid = try laidOverlay(p.layout) else { return frame }
      return .deferred { .planes(laid.over(p)) }
    default:
      return frame
    }
  }

  func overlaid(_ image: Image) throws -> Image {
    guard let overlay = try planarOverlay else { return image }
    return try overlay.over(image)
  }
}
