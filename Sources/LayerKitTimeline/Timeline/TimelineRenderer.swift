import Foundation
import LayerKit
import LayerKitMedia
import LayerKitOutput

/// Renders a timeline's frames: stills decoded once, each clip item streamed by its own decoder,
/// starting at the first frame the range needs.
///
/// Frames cost what they must. A frame that only shows one picture 1:1 — an opaque clip frame or
/// still of the output's size, untransformed, outside any transition — is that picture, not drawn
/// (the draw would copy it byte for byte). For a Y'CbCr output (`willWrite(planes:)`), a clip
/// whose frames are BT.709 limited-range video of the output's aspect is decoded by ffmpeg
/// straight into the output's planes (scaled by its scaler when the size differs), which go to
/// the sink as they are; a still's frame is converted once; and a crossfade (fade, dissolve)
/// between two such pictures, or a slide (moveIn, push, reveal along an axis) between them, is
/// computed in the output's planes by the sink's workers (`VideoFrame.crossfade`,
/// `VideoFrame.slide`) instead of drawn in RGBA and converted. Everything else is drawn.
public final class TimelineRenderer: FrameSource {
  public let timeline: Timeline
  let renderer: Renderer
  /// One decoder per clip item, made up front (so `interruptible` can hand them all over) and
  /// dropped when the item is over. Everything here runs on the pipeline's calling thread.
  private var decoders: [Int: ClipDecoder] = [:]
  /// One decoder per clip overlay (picture-in-picture), by overlay, dropped when it goes off.
  private var overlayDecoders: [Int: ClipDecoder] = [:]
  /// One decoder per placed clip inside an item (`ClipLayer.clip`), by item and layer, dropped
  /// with its item.
  private var layerDecoders: [Int: [Int: ClipDecoder]] = [:]
  /// The frame of the still item shown alone last, reused while it holds.
  private var lastStill: (item: Int, frame: VideoFrame)?
  /// The decoded stills of the items on screen, by item.
  var stills: [Int: Image] = [:]
  /// The planes of still items' frames alone, by item (for crossfades in the output's format),
  /// and at full resolution (4:4:4, for slides).
  private var stillPlanes: [Int: YUVPlanes] = [:]
  /// Still items' pictures without the image overlays, converted once, by item and layout (what
  /// titles, slides and overlays are laid on in the planes).
  var bareStillPlanes: [Int: [YUVFrameLayout: YUVPlanes]] = [:]
  /// Ken Burns stills' pictures as 4:4:4 planes, converted once (`PlanarZoom` reads them), and
  /// whether each still item's move is computed in the planes, by item.
  var zoomSources: [Int: YUVPlanes] = [:]
  var zoomsInPlanes: [Int: Bool] = [:]
  /// Items' titles drawn once (opacity 1) over a transparent frame, and laid over planes of a
  /// layout, by item (nil: the title covers nothing).
  var titleOverlays: [Int: PlanarOverlay?] = [:]
  var laidTitles: [Int: [YUVFrameLayout: PlanarOverlay.Laid]] = [:]
  /// The image overlays over the whole video drawn once (`planarOverlay`), and laid over planes
  /// of a layout.
  var madeOverlay: PlanarOverlay??
  var laidOverlays: [YUVFrameLayout: PlanarOverlay.Laid] = [:]
  /// The sink's Y'CbCr, when it writes Y'CbCr.
  var planes: (layout: YUVFrameLayout, background: YUVConversion.Background)?

  /// Off: every frame is drawn from RGBA (the long way), for tests that hold the shortcuts to it.
  /// Set before the first frame.
  package var shortcuts = true {
    didSet {
      if !shortcuts { lookahead.planes = nil }
      makeDecoders()
    }
  }

  public init(timeline: Timeline, renderer: Renderer) {
    self.timeline = timeline
    self.renderer = renderer
    makeDecoders()
  }

  /// Makes the decoders, and works out how each transition is computed, for the output known
  /// so far (`planes`) and `shortcuts`.
  private func makeDecoders() {
    for d in decoders.values { d.stop() }
    decoders = [:]
    for (i, item) in timeline.items.enumerated() {
      if case .clip(let info) = item.source {
        let output: ClipDecoder.Output = decodesPlanes(i).map { .planes($0) } ?? .rgba
        decoders[i] = ClipDecoder(info, lastFrame: timeline.lastClipFrame(item: i), output: output)
      }
    }
    planarForms = timeline.transitions.indices.map(planarForm)
    for d in overlayDecoders.values { d.stop() }
    overlayDecoders = [:]
    for d in layerDecoders.values.flatMap(\.values) { d.stop() }
    layerDecoders = [:]
    for (i, item) in timeline.items.enumerated() {
      for (j, layer) in item.layers.enumerated() {
        guard let clip = layer.clip else { continue }
        let end = clip.clipTime(layer.end(itemDuration: item.duration) - layer.start)
        let last = min(clip.info.frameCount - 1, Int((end * clip.info.frameRate).rounded(.up)))
        layerDecoders[i, default: [:]][j] = ClipDecoder(clip.info, lastFrame: max(0, last), output: .rgba)
      }
    }
    for (o, overlay) in timeline.overlays.enumerated() {
      if let info = overlay.clip {
        overlayDecoders[o] = ClipDecoder(info, lastFrame: timeline.lastOverlayFrame(o), output: .rgba)
      }
    }
  }

  public func willWrite(planes layout: YUVFrameLayout, background: YUVConversion.Background) {
    planes = (layout, background)
    // Drawn frames too: a PlanarRenderer (the GPU) converts them before readback.
    if shortcuts { lookahead.planes = (layout, background) }
    makeDecoders()
  }

  public func interruptible(_ register: (@escaping () -> Void) -> Void) {
    // Weakly: a decoder whose item is over is released, frames and all, long before the end.
    for d in Array(decoders.values) + Array(overlayDecoders.values) + layerDecoders.values.flatMap(\.values) {
      register { [weak d] in d?.interrupt() }
    }
  }

  /// Draws frame k + 1 while frame k is read back, on the GPU.
  private lazy var lookahead = FrameLookahead(renderer: renderer)

  public func willRender(_ frames: Range<Int>) { lookahead.range = frames }

  /// Starts the decoders of the clips frame k shows, at their times for it, so that their
  /// start-up, seek and first frames run while something else is drawn or encoded (a smart
  /// render's next stretch, prepared during the one before it).
  public func prepare(frame k: Int) {
    let t = timeline.time(ofFrame: k)
    for (i, decoder) in decoders {
      let start = timeline.starts[i]
      guard t >= start - 1e-9, t < start + timeline.items[i].duration else { continue }
      decoder.start(at: timeline.items[i].clipTime(max(0, t - start)))
    }
  }

  /// Whether drawn frames are read back as planes (FrameLookahead.planarReadback), for tests
  /// that hold the two ways to each other.
  package var planarReadback: Bool? {
    get { lookahead.planarReadback }
    set { lookahead.planarReadback = newValue }
  }

  // MARK: - What a frame costs

  /// Whether the picture area is the whole frame.
  var picturesFillFrame: Bool {
    timeline.pictureWidth == timeline.width && timeline.pictureHeight == timeline.height
  }

  /// The planes layout clip item i is decoded into, when it goes to the Y'CbCr output as
  /// decoded: opaque BT.709 limited-range 4:2:0 video filling the frame at its aspect (or
  /// stretched), so that fitting it is scaling it.
  private func decodesPlanes(_ i: Int) -> YUVFrameLayout? {
    guard shortcuts, let planes, picturesFillFrame, case .clip(let info) = timeline.items[i].source,
      info.isBT709Video
    else {
      return nil
    }
    let (w, h) = (timeline.width, timeline.height)
    guard info.width * h == info.height * w || timeline.fit(ofItem: i) == .stretch else { return nil }
    return planes.layout
  }

  /// Whether clip item i's RGBA frames are the frame itself: opaque, of the frame's size.
  private func clipShownAsIs(_ i: Int) -> Bool {
    guard picturesFillFrame, case .clip(let info) = timeline.items[i].source else { return false }
    return info.isOpaque && info.width == timeline.width && info.height == timeline.height
  }

  /// Whether frame k is at hand without a render of its own: a still held (or converted once),
  /// a clip frame shown as decoded, a crossfade or a slide mixed in the output's planes — with
  /// its items' titles laid over it and a Ken Burns still magnified, in the planes.
  private func isAtHand(_ k: Int) -> Bool {
    guard shortcuts else { return false }
    // Subtitles and overlays for part of the video are drawn over the pictures.
    let t = timeline.time(ofFrame: k)
    if timeline.isDrawnOver(at: t) { return false }
    // Image overlays are drawn once into a held still (`stillAlone`) and laid over anything else
    // in the planes after it is made (a clip's frame, a crossfade, a slide under them).
    switch timeline.content(ofFrame: k) {
    case .item(let i, _):
      guard laysInPlanes(i) else { return false }
      if case .image = timeline.items[i].source { return true }
      return decodesPlanes(i) != nil || (clipShownAsIs(i) && timeline.items[i].title == nil)
    case .transition(let i, let progress, _, _):
      return laysInPlanes(i) && laysInPlanes(i + 1) && planarTransition(i, progress: progress) != nil
    }
  }

  /// How transition i at `progress` is computed in the output's planes, if it is: a built-in
  /// crossfade inside [0, 1], or a slide along an axis, between two items that have planes
  /// (stills, converted once; clips decoded as planes).
  private enum PlanarTransition {
    case crossfade
    case slide(TransitionShortcut.Slide, direction: SIMD2<Float>)
  }

  /// Per transition, its form in the planes (before the progress test), made with the decoders.
  private var planarForms: [PlanarTransition?] = []

  private func planarTransition(_ i: Int, progress: Double) -> PlanarTransition? {
    guard shortcuts, let form = planarForms[i] else { return nil }
    // A crossfade outside [0, 1] extrapolates: the RGBA path's clamping decides those.
    if case .crossfade = form, !(progress >= 0 && progress <= 1) { return nil }
    return form
  }

  private func planarForm(_ i: Int) -> PlanarTransition? {
    let t = timeline.transitions[i]
    guard shortcuts, planes != nil, t.builtIn, let effect = TransitionEffects.all[t.effect],
      let shortcut = effect.shortcut
    else { return nil }
    let isStill = { (item: Int) -> Bool in
      if case .image = self.timeline.items[item].source { return true }
      return false
    }
    switch shortcut {
    case .crossfade:
      guard [i, i + 1].allSatisfy({ isStill($0) || decodesPlanes($0) != nil }) else { return nil }
      return .crossfade
    case .slide(let kind):
      guard [i, i + 1].allSatisfy({ isStill($0) || decodesPlanes($0) != nil }), picturesFillFrame,
        let values = try? effect.uniforms.resolve(t.parameters, effect: t.effect),
        let index = effect.parameters.firstIndex(where: { $0.name == "direction" }),
        case .vec2(let d)? = values[index], d.x == 0 || d.y == 0
      else { return nil }
      return .slide(kind, direction: d)
    }
  }

  // MARK: - Frames

  public func frame(_ k: Int) throws -> Image {
    try videoFrame(k).image()
  }

  public func videoFrame(_ k: Int) throws -> VideoFrame {
    let frame: VideoFrame
    if isAtHand(k) {
      frame = try frameAtHand(k)
    } else {
      drawnFrames += 1
      let drawn = try lookahead.videoFrame(k, drawAhead: { !self.isAtHand($0) }) { .list(try self.renderList($0)) }
      frame = try laysOverlayAfter(k) ? overlaid(drawn) : drawn
    }
    // Stills and decoders of items that are over are let go, and their processes stopped.
    let next = timeline.time(ofFrame: k + 1)
    let over = { (i: Int) in next >= self.timeline.starts[i] + self.timeline.items[i].duration + 1e-9 }
    for i in stills.keys where over(i) { stills[i] = nil }
    for i in stillPlanes.keys where over(i) { stillPlanes[i] = nil }
    for i in bareStillPlanes.keys where over(i) { bareStillPlanes[i] = nil }
    for i in zoomSources.keys where over(i) { zoomSources[i] = nil }
    // A title's picture is frame-sized: let go with its item, as the stills are.
    for i in titleOverlays.keys where over(i) { titleOverlays[i] = nil }
    for i in laidTitles.keys where over(i) { laidTitles[i] = nil }
    for (i, decoder) in decoders where over(i) {
      finishedDecodeWait += decoder.waitSeconds
      decoder.stop()
      decoders[i] = nil
    }
    for (i, byLayer) in layerDecoders where over(i) {
      for decoder in byLayer.values {
        finishedDecodeWait += decoder.waitSeconds
        decoder.stop()
      }
      layerDecoders[i] = nil
    }
    for (o, decoder) in overlayDecoders where next >= (timeline.overlays[o].end ?? .infinity) {
      finishedDecodeWait += decoder.waitSeconds
      decoder.stop()
      overlayDecoders[o] = nil
    }
    startDecoders(after: k)
    return frame
  }

  /// Starts the decoders of the clips that come on screen within `decoderLead` seconds after
  /// frame k, at their first frame: the program's start-up and its first frames overlap the
  /// frames before instead of stalling the first frame of the clip.
  private func startDecoders(after k: Int) {
    let now = timeline.time(ofFrame: k)
    let rate = timeline.rate.framesPerSecond
    for (i, decoder) in decoders {
      let start = timeline.starts[i]
      guard start > now, start <= now + TimelineRenderer.decoderLead else { continue }
      let first = max(k + 1, Int((start * rate - 1e-6).rounded(.up)))
      decoder.start(at: timeline.items[i].clipTime(max(0, timeline.time(ofFrame: first) - start)))
    }
    for (i, byLayer) in layerDecoders {
      for (j, decoder) in byLayer {
        let layer = timeline.items[i].layers[j]
        let start = timeline.starts[i] + layer.start
        guard start > now, start <= now + TimelineRenderer.decoderLead, let clip = layer.clip else { continue }
        let first = max(k + 1, Int((start * rate - 1e-6).rounded(.up)))
        decoder.start(at: clip.clipTime(timeline.time(ofFrame: first) - start))
      }
    }
  }

  static let decoderLead = 1.0

  /// How many frames were drawn (not at hand), for tests that check a shortcut is taken.
  package private(set) var drawnFrames = 0

  /// Decoders' waits of items that are over.
  private var finishedDecodeWait = 0.0

  public var decodeWaitSeconds: Double {
    finishedDecodeWait
      + (Array(decoders.values) + Array(overlayDecoders.values) + layerDecoders.values.flatMap(\.values)).reduce(0) {
        $0 + $1.waitSeconds
      }
  }

  private func frameAtHand(_ k: Int) throws -> VideoFrame {
    switch timeline.content(ofFrame: k) {
    case .item(let i, let local):
      if needsWork(i) {
        let picture = try planarPicture(i, local: local, full: false, overlays: true)
        return .deferred { .planes(picture()) }
      }
      if case .image = timeline.items[i].source { return try stillFrame(item: i) }
      let decoded = try decoder(i).decoded(at: timeline.items[i].clipTime(local))
      switch decoded {
      case .planes(let p):
        // The image overlays laid over the clip's frame here: this thread mostly waits for the
        // decoder, while the sink's workers share the cores with the encoder.
        return .planes(try overlaid(p))
      case .image(let image): return .image(try overlaid(image))
      }
    case .transition(let i, let progress, let fromTime, let toTime):
      let overlay = try planarOverlay != nil
      switch planarTransition(i, progress: progress) {
      case .slide(let kind, let direction):
        // The pictures slide without the image overlays, which are laid over the result: they
        // stay where they are, above the transition.
        let from = try planarPicture(i, local: fromTime, full: true, overlays: false)
        let to = try planarPicture(i + 1, local: toTime, full: true, overlays: false)
        // Laid per pixel at full resolution, before the output's chroma is made (a 4:2:0 sample
        // is the mean of a block where the overlay's edge meets the pictures).
        guard let output = planes?.layout else { throw VideoError.invalidTimeline("no Y'CbCr output to slide in") }
        let full = YUVFrameLayout(width: output.width, height: output.height, chroma: .yuv444)
        let laid = try laidOverlay(full)
        let make = { @Sendable () -> VideoFrame in
          let a = from()
          guard let slide = PlanarSlide(from: a, to: to(), kind: kind, direction: direction, progress: Float(progress))
          else { return .planes(a) }
          guard let laid else { return .slide(slide) }
          let over = YUVPlanes(layout: full) { buffer in
            slide.write(full, into: buffer)
            laid.lay(over: buffer)
          }
          return .planes(output.chroma == .yuv444 ? over : over.chromaHalved())
        }
        if needsWork(i) || needsWork(i + 1) || overlay { return .deferred(make) }
        return make()
      default:
        let stills = [i, i + 1].allSatisfy { if case .image = timeline.items[$0].source { true } else { false } }
        guard needsWork(i) || needsWork(i + 1) || (overlay && !stills) else {
          return .crossfade(
            try itemPlanes(i, local: fromTime), try itemPlanes(i + 1, local: toTime), progress: progress)
        }
        let from = try planarPicture(i, local: fromTime, full: false, overlays: true)
        let to = try planarPicture(i + 1, local: toTime, full: false, overlays: true)
        return .deferred { .crossfade(from(), to(), progress: progress) }
      }
    }
  }

  /// Still item i shown alone: the still itself when it fills the frame opaquely,
  /// else drawn once; as planes for a Y'CbCr output, converted once.
  private func stillFrame(item i: Int) throws -> VideoFrame {
    if let held = lastStill, held.item == i { return held.frame }
    let frame: VideoFrame
    if let planes {
      frame = .planes(try stillPlanes(item: i))
    } else {
      frame = .image(try stillAlone(item: i))
    }
    lastStill = (i, frame)
    return frame
  }

  /// The planes of still item i shown alone, converted once over the sink's background.
  private func stillPlanes(item i: Int) throws -> YUVPlanes {
    if let p = stillPlanes[i] { return p }
    guard let planes else { throw VideoError.invalidTimeline("no Y'CbCr output to convert a still for") }
    let p = try YUVPlanes(try stillAlone(item: i), chroma: planes.layout.chroma, background: planes.background)
    stillPlanes[i] = p
    return p
  }

  /// Still item i shown alone: the still itself when it is opaque and of the frame's
  /// size (the draw would copy it), else drawn.
  /// - Parameter bare: without the image overlays.
  func stillAlone(item i: Int, bare: Bool = false) throws -> Image {
    guard case .image(let still) = timeline.items[i].source else {
      throw VideoError.invalidTimeline("item \(i + 1) is not a still")
    }
    let image = try stillImage(item: i, still)
    if bare || !timeline.overlays.contains(where: \.isWhole), picturesFillFrame, image.width == timeline.width,
      image.height == timeline.height,
      image.isOpaque
    {
      return image
    }
    let layer =
      bare ? timeline.picture(image, fit: timeline.fit(ofItem: i)) : timeline.pictureWithOverlays(image, item: i)
    let list = try RenderList(
      layer: layer, width: timeline.width, height: timeline.height, background: timeline.background)
    return try renderer.render(list)
  }

  /// Item i's picture at a local time as planes: a clip's decoded planes, a still's converted once
  /// (each with the image overlays, when there are any).
  func itemPlanes(_ i: Int, local: Double) throws -> YUVPlanes {
    if case .image = timeline.items[i].source { return try stillPlanes(item: i) }
    guard case .planes(let p) = try decoder(i).decoded(at: timeline.items[i].clipTime(local)) else {
      throw VideoError.invalidTimeline("\(timeline.items[i].source.path): not decoded as planes")
    }
    return try overlaid(p)
  }

  /// Clip item i's frame at a local time, as decoded.
  func decoderPlanes(_ i: Int, local: Double) throws -> ClipDecoder.Frame {
    try decoder(i).decoded(at: timeline.items[i].clipTime(local))
  }

  private func decoder(_ i: Int) throws -> ClipDecoder {
    guard let decoder = decoders[i] else {
      throw VideoError.invalidTimeline(
        "\(timeline.items[i].source.path): asked for after its item ended (frames out of order)")
    }
    return decoder
  }

  /// Frame k's list, drawn by the renderer.
  private func renderList(_ k: Int) throws -> RenderList {
    try timeline.renderList(
      frame: k, wholeOverlays: !laysOverlayAfter(k), paint: paint,
      layerFrame: { i, j, time in
        guard let decoder = self.layerDecoders[i]?[j] else {
          throw VideoError.invalidTimeline(
            "item \(i + 1), layer \(j + 1): asked for after its item ended (frames out of order)")
        }
        return try decoder.frame(at: time)
      },
      picture: { i, local in
        switch timeline.items[i].source {
        case .image(let still): return try stillImage(item: i, still)
        case .clip: return try decoder(i).frame(at: timeline.items[i].clipTime(local))
        }
      },
      overlayFrame: { o, t in
        guard let decoder = overlayDecoders[o] else {
          throw VideoError.invalidTimeline("overlay \(o + 1): asked for after it went off (frames out of order)")
        }
        return try decoder.frame(at: timeline.overlays[o].clipTime(at: t))
      })
  }

  /// A shader's picture, painted by the renderer (the GPU), its program made once.
  private var paint: Timeline.Paint? {
    guard let painter = renderer as? ShaderPainter else { return nil }
    return { shader, time, width, height in
      let handle = try painter.makePictureShader(fragment: shader.fragment, vertex: shader.vertex)
      return try painter.paintPicture(handle, width: width, height: height, time: time)
    }
  }

  public func stop() {
    lookahead.drop()
    stills.removeAll()
    stillPlanes.removeAll()
    bareStillPlanes.removeAll()
    zoomSources.removeAll()
    titleOverlays.removeAll()
    laidTitles.removeAll()
    lastStill = nil
    for d in decoders.values {
      finishedDecodeWait += d.waitSeconds
      d.stop()
    }
    decoders.removeAll()
    for d in overlayDecoders.values {
      finishedDecodeWait += d.waitSeconds
      d.stop()
    }
    overlayDecoders.removeAll()
    for d in layerDecoders.values.flatMap(\.values) {
      finishedDecodeWait += d.waitSeconds
      d.stop()
    }
    layerDecoders.removeAll()
  }
}
