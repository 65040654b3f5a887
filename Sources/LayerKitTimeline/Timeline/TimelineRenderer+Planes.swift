import LayerKit
import LayerKitMedia
import LayerKitOutput

/// What stays still is drawn once: an item's title is drawn once and laid over the planes of its
/// frames at its opacity of the moment (`PlanarOverlay`), and a Ken Burns still is magnified in
/// the planes from its picture converted once (`PlanarZoom`), by the sink's workers. The long way
/// (every such frame drawn) is `shortcuts = false`; `VideoShortcutTests` holds these to it.
extension TimelineRenderer {
  /// Whether item i's title and Ken Burns move, if it has them, are laid in the output's planes.
  func laysInPlanes(_ i: Int) -> Bool {
    let item = timeline.items[i]
    // Clip layers change from frame to frame: drawn with the picture.
    if !item.layers.isEmpty { return false }
    if item.title != nil && planes == nil { return false }
    if item.motion != nil && !zoomsInPlanes(i) { return false }
    return true
  }

  /// Whether item i's picture in the planes is worked out frame by frame (a title laid, a still
  /// magnified) rather than taken as it is.
  func needsWork(_ i: Int) -> Bool { timeline.items[i].title != nil || timeline.items[i].motion != nil }

  /// Whether still item i's Ken Burns move is computed in the planes: an opaque still filling the
  /// frame (cover or stretch; contain or contain-blur of the frame's aspect — a contain-blur
  /// still fitted once is), for a Y'CbCr output. Decided once (it reads the still).
  func zoomsInPlanes(_ i: Int) -> Bool {
    if let known = zoomsInPlanes[i] { return known }
    var yes = false
    if shortcuts, planes != nil, picturesFillFrame, case .image(let still) = timeline.items[i].source,
      let image = try? stillImage(item: i, still)
    {
      yes =
        image.isOpaque
        && timeline.zoomMapping(item: i, local: 0, imageWidth: image.width, imageHeight: image.height) != nil
    }
    zoomsInPlanes[i] = yes
    return yes
  }

  /// Item i's title drawn once at full opacity over a transparent frame (nil without a title,
  /// or when it covers nothing).
  func titleOverlay(_ i: Int) throws -> PlanarOverlay? {
    if let made = titleOverlays[i] { return made }
    guard let title = timeline.items[i].title else { return nil }
    let layer = try title.style.layer(
      title.text, width: Double(timeline.pictureWidth), height: Double(timeline.pictureHeight), opacity: 1
    ) { Timeline.noteOnce("title: \($0)") }
    let made = PlanarOverlay(
      picture: try renderer.render(try RenderList(layer: layer, width: timeline.width, height: timeline.height)))
    titleOverlays[i] = .some(made)
    return made
  }

  /// Item i's picture at `local` seconds as a function the sink's workers call: its planes
  /// without the image overlays (a still converted once, a clip's decoded frame, a Ken Burns
  /// still magnified), its title laid over them at its opacity then, and with `overlays` the
  /// image overlays over everything — the order the long way draws them in. `full`: 4:4:4
  /// planes (for slides).
  func planarPicture(_ i: Int, local: Double, full: Bool, overlays: Bool) throws -> @Sendable () -> YUVPlanes {
    guard let output = planes?.layout else { throw VideoError.invalidTimeline("no Y'CbCr output to lay pictures in") }
    let item = timeline.items[i]
    let layout = full ? YUVFrameLayout(width: output.width, height: output.height, chroma: .yuv444) : output
    // One frame buffer a frame: the picture written into it (magnified, or copied from planes
    // held), then the title and the overlays laid over it in place.
    let fill: @Sendable (UnsafeMutableRawBufferPointer) -> Void
    var held: YUVPlanes?
    if item.motion != nil, case .image(let still) = item.source {
      let source = try zoomSource(i, still)
      guard
        let map = timeline.zoomMapping(
          item: i, local: local, imageWidth: source.layout.width, imageHeight: source.layout.height),
        let zoom = PlanarZoom(picture: source, scale: map.scale, offset: map.offset)
      else { throw VideoError.invalidTimeline("item \(i + 1): its move cannot be computed in the planes") }
      fill = { zoom.write(layout, into: $0) }
    } else {
      let p = try barePlanes(i, local: local, layout: layout)
      held = p
      fill = { buffer in p.withUnsafeBytes { buffer.copyMemory(from: $0) } }
    }
    var lays: [(PlanarOverlay.Laid, opacity: Double)] = []
    if let title = item.title, let laid = try laidTitle(i, layout) {
      lays.append((laid, title.style.opacity(at: local, start: 0, length: item.duration)))
    }
    if overlays, let laid = try laidOverlay(layout) { lays.append((laid, 1)) }
    // Planes held with nothing over them are the frame as they are.
    if lays.isEmpty, let held { return { held } }
    return { [lays] in
      YUVPlanes(layout: layout) { buffer in
        fill(buffer)
        for (laid, opacity) in lays { laid.lay(over: buffer, opacity: opacity) }
      }
    }
  }

  /// Item i's picture at `local` seconds without the image overlays, in `layout`: a still's
  /// converted once, a clip's decoded frame (4:4:4: each chroma sample repeated over its block,
  /// as the RGBA the long way draws from repeats it, `YUVPlanes.image()`).
  private func barePlanes(_ i: Int, local: Double, layout: YUVFrameLayout) throws -> YUVPlanes {
    guard case .image = timeline.items[i].source else {
      guard case .planes(let p) = try decoderPlanes(i, local: local) else {
        throw VideoError.invalidTimeline("\(timeline.items[i].source.path): not decoded as planes")
      }
      return layout.chroma == .yuv444 ? p.fullResolution() : p
    }
    if let p = bareStillPlanes[i]?[layout] { return p }
    guard let background = planes?.background else {
      throw VideoError.invalidTimeline("no Y'CbCr output to convert a still for")
    }
    let p = try YUVPlanes(try stillAlone(item: i, bare: true), chroma: layout.chroma, background: background)
    bareStillPlanes[i, default: [:]][layout] = p
    return p
  }

  /// Item i's title laid over planes of `layout`, worked out once per layout.
  private func laidTitle(_ i: Int, _ layout: YUVFrameLayout) throws -> PlanarOverlay.Laid? {
    if let laid = laidTitles[i]?[layout] { return laid }
    guard let overlay = try titleOverlay(i) else { return nil }
    let laid = overlay.laid(in: layout)
    laidTitles[i, default: [:]][layout] = laid
    return laid
  }

  /// Ken Burns still item i's picture (reduced once to cover the frame) as 4:4:4 planes.
  private func zoomSource(_ i: Int, _ still: Still) throws -> YUVPlanes {
    if let p = zoomSources[i] { return p }
    guard let planes else { throw VideoError.invalidTimeline("no Y'CbCr output to convert a still for") }
    let p = try YUVPlanes(try stillImage(item: i, still), chroma: .yuv444, background: planes.background)
    zoomSources[i] = p
    return p
  }
}
