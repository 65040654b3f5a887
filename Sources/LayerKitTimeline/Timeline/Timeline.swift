import Foundation
import LayerKit
import LayerKitMedia
import LayerKitOutput

/// One item on a timeline: a source shown for `duration` seconds, starting `inPoint` seconds into
/// it (clips).
public struct TimelineItem: Sendable {
  public var source: MediaSource
  public var inPoint: Double
  public var duration: Double
  /// A title over the item while it is on screen.
  public var title: TimelineTitle?
  /// A slow zoom and pan over the item (Ken Burns).
  public var motion: KenBurns?
  /// A clip that plays `loopLength` seconds (of its own time) from `inPoint` over and over for
  /// its `duration` (nil: once, holding its last frame past its end).
  public var loopLength: Double?
  /// How fast a clip plays: its own seconds per second of the video (2: twice as fast, its sound
  /// kept in pitch).
  public var speed: Double
  /// The clip's own sound, as a gain (1: as it is; 0: silent).
  public var volume: Double
  /// How the item's picture fills the frame, when not as the timeline's `fit` says.
  public var fit: Fit?
  /// Drawn over the picture (and its title), in order, inside the item.
  public var layers: [ClipLayer] = []

  public init(
    source: MediaSource, inPoint: Double = 0, duration: Double, title: TimelineTitle? = nil, motion: KenBurns? = nil,
    loopLength: Double? = nil, speed: Double = 1, volume: Double = 1, fit: Fit? = nil
  ) {
    self.volume = volume
    self.fit = fit
    self.source = source
    self.inPoint = inPoint
    self.duration = duration
    self.title = title
    self.motion = motion
    self.loopLength = loopLength
    self.speed = speed
  }

  /// The clip's own time at `local` seconds into the item: from the in-point, at its speed,
  /// wrapped when the item loops.
  public func clipTime(_ local: Double) -> Double {
    let played = local * speed
    guard let loop = loopLength, loop > 0 else { return inPoint + played }
    // A hair of slack, as ClipDecoder's frame index has: t = k · loop lands on the loop's start.
    let wrapped = played - (played / loop + 1e-9).rounded(.down) * loop
    return inPoint + max(0, wrapped)
  }
}

/// A transition between two consecutive items, overlapping the end of the first with the start of
/// the second by `duration` seconds (as ffmpeg-concat and xfade's offset do).
public struct TimelineTransition: Sendable {
  /// A built-in effect name, or with `builtIn: false` a shader registered with the GPU backend.
  public var effect: String
  public var builtIn: Bool
  public var parameters: [String: TransitionValue]
  public var duration: Double
  public var timing: MediaTimingFunction
  public var startProgress: Double
  public var endProgress: Double
  /// How the transition is named in messages and summaries (the SPEC as written).
  public var label: String
  /// The shapes of the clips' sound fading out and in over it: ffmpeg's `afade` curves (tri,
  /// qsin, hsin, esin, log, ipar, qua, cub, squ, cbr, par, exp, …; tri, a straight line, when nil).
  public var audioOutCurve: String?
  public var audioInCurve: String?

  /// `afade`'s curve names in ffmpeg 5.1.
  public static let audioCurves: Set<String> = [
    "tri", "qsin", "esin", "hsin", "log", "ipar", "qua", "cub", "squ", "cbr", "par", "exp", "iqsin", "ihsin", "dese",
    "desi", "losi", "sinc", "isinc", "nofade",
  ]

  public init(
    effect: String, builtIn: Bool = true, parameters: [String: TransitionValue] = [:], duration: Double,
    timing: MediaTimingFunction = MediaTimingFunction(name: .linear), startProgress: Double = 0,
    endProgress: Double = 1, label: String? = nil
  ) {
    self.effect = effect
    self.builtIn = builtIn
    self.parameters = parameters
    self.duration = duration
    self.timing = timing
    self.startProgress = startProgress
    self.endProgress = endProgress
    self.label = label ?? effect
  }
}

/// A video as a sequence of items joined by transitions, sampled at a fixed frame rate: frame k
/// shows time k / rate. Pure arithmetic and layer building; no decoding, no GPU, no clock.
///
/// Item i starts at `starts[i]`; transition i lies over the last `transitions[i].duration`
/// seconds of item i, which are the first seconds of item i + 1, so the video lasts the sum of the
/// items less the sum of the transitions.
public struct Timeline: Sendable {
  public var items: [TimelineItem]
  public var transitions: [TimelineTransition]
  public var width: Int
  public var height: Int
  /// The area pictures fill (the frame less padding, when `--pad` made the frame larger).
  public var pictureWidth: Int
  public var pictureHeight: Int
  public var rate: FrameRate
  public var fit: Fit
  /// The colour behind the pictures (letterboxing), or clear.
  public var background: Color
  /// Whether the frame at the very end (t = duration) is part of the video: true for a lone
  /// transition (its last frame is the end of the effect), false for a sequence.
  public var includesEnd: Bool
  /// Subtitles burned in over every frame, transitions included.
  public var subtitles: Subtitles?
  /// Pictures over the whole video, above the items and transitions, in order (a logo, a
  /// watermark), under the subtitles.
  public var overlays: [ImageOverlay] = []

  public private(set) var starts: [Double] = []

  /// - Throws: `.invalidTimeline` (no items, counts that do not match, bad durations),
  ///   `.itemTooShort` when an item is shorter than the transitions on its two ends.
  public init(
    items: [TimelineItem], transitions: [TimelineTransition], width: Int, height: Int, rate: FrameRate,
    fit: Fit = .cover, background: Color = .clear, includesEnd: Bool = false,
    pictureWidth: Int? = nil, pictureHeight: Int? = nil
  ) throws(VideoError) {
    guard !items.isEmpty else { throw .invalidTimeline("nothing to show: give at least one image or clip") }
    guard transitions.count == max(0, items.count - 1) else {
      throw .invalidTimeline(
        "\(items.count) items need \(max(0, items.count - 1)) transitions, not \(transitions.count)")
    }
    guard width > 0, height > 0, rate.numerator > 0, rate.denominator > 0 else {
      throw .invalidTimeline("the frame size and rate must be positive")
    }
    for (i, t) in transitions.enumerated() {
      // 0: a cut (an edit's `transition: null`).
      guard t.duration.isFinite, t.duration >= 0, t.duration <= Limits.maxSeconds else {
        throw .invalidTimeline(
          "transition \(i + 1) (\(t.label)): the duration must be a number of seconds from 0 to \(Int(Limits.maxSeconds))"
        )
      }
    }
    for (i, item) in items.enumerated() {
      guard item.speed.isFinite, Timeline.speeds.contains(item.speed) else {
        throw .invalidTimeline("\(item.source.path): the speed must be from 0.01 to 100, not \(item.speed)")
      }
      guard item.duration.isFinite, item.duration > 0, item.duration <= Limits.maxSeconds, item.inPoint.isFinite,
        item.inPoint >= 0, item.inPoint <= Limits.maxSeconds
      else {
        throw .invalidTimeline(
          "\(item.source.path): the duration must be a positive number of seconds, at most \(Int(Limits.maxSeconds))")
      }
      let needed = (i > 0 ? transitions[i - 1].duration : 0) + (i < transitions.count ? transitions[i].duration : 0)
      if item.duration + 1e-9 < needed {
        throw .itemTooShort(item: item.source.path, duration: item.duration, needed: needed)
      }
    }
    self.items = items
    self.transitions = transitions
    self.width = width
    self.height = height
    self.pictureWidth = pictureWidth ?? width
    self.pictureHeight = pictureHeight ?? height
    self.rate = rate
    self.fit = fit
    self.background = background
    self.includesEnd = includesEnd
    var t = 0.0
    for (i, item) in items.enumerated() {
      starts.append(t)
      t += item.duration - (i < transitions.count ? transitions[i].duration : 0)
    }
    let frames = (starts[starts.count - 1] + items[items.count - 1].duration) * rate.framesPerSecond
    guard frames <= Double(Limits.maxFrames) else {
      throw .invalidTimeline(
        "the video would have \(Int(frames)) frames; at most \(Limits.maxFrames) (\(Int(Limits.maxSeconds)) s at most an item)"
      )
    }
  }

  /// Seconds from the first frame to the end.
  /// How long item i's sound fades in (the transition before it) and out (the one after).
  package func soundFades(ofItem i: Int) -> (in: Double, out: Double) {
    (i > 0 ? transitions[i - 1].duration : 0, i < transitions.count ? transitions[i].duration : 0)
  }

  public var duration: Double {
    starts[starts.count - 1] + items[items.count - 1].duration
  }

  /// The number of frames.
  public var frameCount: Int {
    let exact = duration * rate.framesPerSecond
    if includesEnd { return Int((exact + 1e-6).rounded(.down)) + 1 }
    return max(1, Int((exact - 1e-6).rounded(.up)))
  }

  /// The time of frame `k`, in seconds.
  public func time(ofFrame k: Int) -> Double {
    Double(k) * Double(rate.denominator) / Double(rate.numerator)
  }

  /// What frame `k` shows.
  public enum Content: Equatable {
    /// Item `item` at `localTime` seconds into it.
    case item(Int, localTime: Double)
    /// Transition `index` (between items index and index + 1) at `progress`, with both items'
    /// local times.
    case transition(Int, progress: Double, fromTime: Double, toTime: Double)
  }

  public func content(ofFrame k: Int) -> Content {
    let t = time(ofFrame: k)
    for (i, transition) in transitions.enumerated() {
      let start = starts[i + 1]
      let end = start + transition.duration
      let atVeryEnd = includesEnd && i == transitions.count - 1 && abs(t - end) < 1e-9 && end >= duration - 1e-9
      if (t >= start - 1e-9 && t < end - 1e-9) || atVeryEnd {
        let fraction = min(max((t - start) / transition.duration, 0), 1)
        let eased = transition.timing.value(at: fraction)
        let progress = transition.startProgress + (transition.endProgress - transition.startProgress) * eased
        return .transition(i, progress: progress, fromTime: t - starts[i], toTime: t - start)
      }
    }
    var index = 0
    for i in items.indices where starts[i] <= t + 1e-9 { index = i }
    return .item(index, localTime: t - starts[index])
  }

  /// The last frame of each clip item that frames in `range` will ask for, at the clip's rate
  /// (for decoders, so they stop decoding there).
  func lastClipFrame(item i: Int) -> Int {
    guard case .clip(let info) = items[i].source else { return 0 }
    let end = items[i].inPoint + min(items[i].duration * items[i].speed, items[i].loopLength ?? .infinity)
    return min(info.frameCount - 1, Int((end * info.frameRate).rounded(.up)))
  }

  /// How item i's picture fills the frame: its own fit, else the timeline's.
  func fit(ofItem i: Int) -> Fit { items[i].fit ?? fit }

  /// Ken Burns item i at `local` seconds as a map from frame pixels to the pixels of its picture
  /// (`imageWidth`×`imageHeight`, as its layer shows it): I = P · scale + offset. nil unless the
  /// item moves and fills the frame: by cover or stretch, or by contain or contain-blur with a
  /// picture of the area's very aspect (a contain-blur still fitted once is the area's size);
  /// other bars are drawn.
  func zoomMapping(item i: Int, local: Double, imageWidth: Int, imageHeight: Int) -> (
    scale: SIMD2<Double>, offset: SIMD2<Double>
  )? {
    guard let motion = items[i].motion, pictureWidth == width, pictureHeight == height else { return nil }
    let size = SIMD2(Double(pictureWidth), Double(pictureHeight))
    let image = SIMD2(Double(imageWidth), Double(imageHeight))
    let k: SIMD2<Double>
    switch fit(ofItem: i) {
    case .cover: k = SIMD2(repeating: max(size.x / image.x, size.y / image.y))
    case .stretch: k = size / image
    case .contain, .containBlur:
      guard imageWidth * pictureHeight == imageHeight * pictureWidth else { return nil }
      k = size / image
    }
    // The layer: its contents at k pixels a picture pixel, centred; moved about its centre c by
    // P = c + s (L − c) + t. So L = P / s + c − (c + t) / s, and I = (L − origin) / k.
    let origin = (size - image * k) / 2
    let (s, pan) = motion.placement(at: local / items[i].duration, width: size.x)
    let c = size / 2
    let t = pan * size
    return (1 / (s * k), (c - (c + t) / s - origin) / k)
  }

  /// The last frame of clip overlay o that the video will ask for, at the clip's rate.
  func lastOverlayFrame(_ o: Int) -> Int {
    guard let info = overlays[o].clip else { return 0 }
    let end = overlays[o].clipTime(at: overlays[o].end ?? duration)
    return max(0, min(info.frameCount - 1, Int((end * info.frameRate).rounded(.up))))
  }

  /// A layer showing `image` over the picture area, fitted as `fit` says.
  func picture(_ image: Image, fit: Fit) -> Layer {
    let (w, h) = (Double(pictureWidth), Double(pictureHeight))
    let layer = Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    layer.contents = image
    layer.masksToBounds = true
    layer.contentsGravity = fit.gravity
    guard fit == .containBlur, let bars = Fit.bars(image, width: w, height: h) else { return layer }
    bars.addSublayer(layer)
    return bars
  }

  /// A frame of `image` alone, with the image overlays over it: what a held still shows on
  /// every one of its frames, drawn once.
  func pictureWithOverlays(_ image: Image, item i: Int) -> Layer {
    let whole = overlays.filter(\.isWhole)
    guard !whole.isEmpty else { return picture(image, fit: fit(ofItem: i)) }
    let root = Layer(frame: Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
    root.addSublayer(picture(image, fit: fit(ofItem: i)))
    for overlay in whole { root.addSublayer(overlay.layer(frameWidth: width, frameHeight: height)) }
    return root
  }

  /// The speeds an item plays at: from a hundredth to a hundred times (editly fits a cut of any
  /// length into its clip; the commands' own `--speed` and an edit's `speed` keep to 0.25…4).
  public static let speeds = 0.01...100.0

  /// A shader's picture at a time (`ClipLayer.PictureShader`) and a pixel size.
  public typealias Paint = (_ shader: ClipLayer.PictureShader, _ time: Double, _ width: Int, _ height: Int) throws ->
    Image

  /// Whether an item has a layer a shader paints (drawn by the GPU only).
  public var paintsShaders: Bool { items.contains { $0.layers.contains { $0.shader != nil } } }

  /// Item i's picture at `local` seconds into it: the image, moved by the item's Ken Burns, and
  /// the item's title and layers over it.
  /// A placed clip's frame: of item i's layer j, at a time of the clip.
  public typealias LayerFrame = (_ item: Int, _ layer: Int, _ time: Double) throws -> Image

  func picture(
    _ image: Image, item i: Int, local: Double, paint: Paint? = nil, layerFrame: LayerFrame? = nil
  ) throws -> Layer {
    let item = items[i]
    guard item.title != nil || item.motion != nil || !item.layers.isEmpty else {
      return picture(image, fit: fit(ofItem: i))
    }
    let (w, h) = (Double(pictureWidth), Double(pictureHeight))
    let frame = Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    frame.masksToBounds = true
    let shown = picture(image, fit: fit(ofItem: i))
    shown.masksToBounds = false
    if let motion = item.motion { shown.transform = motion.transform(at: local / item.duration, width: w, height: h) }
    frame.addSublayer(shown)
    if let title = item.title {
      let opacity = title.style.opacity(at: local, start: 0, length: item.duration)
      frame.addSublayer(
        try title.style.layer(title.text, width: w, height: h, opacity: opacity) { Timeline.noteOnce("title: \($0)") })
    }
    for (j, layer) in item.layers.enumerated() {
      let frameOf = layerFrame.map { f in { (time: Double) in try f(i, j, time) } }
      if let drawn = try layer.layer(
        local: local, itemDuration: item.duration, width: w, height: h, paint: paint, clipFrame: frameOf)
      {
        frame.addSublayer(drawn)
      }
    }
    return frame
  }

  /// Whether something is drawn over the pictures at `t` seconds that must be drawn with them: a
  /// subtitle, or an overlay shown for part of the video (a clip overlay is never whole).
  func isDrawnOver(at t: Double) -> Bool {
    if overlays.contains(where: { !$0.isWhole && $0.shows(at: t) }) { return true }
    if let subtitles, !subtitles.cues(at: t).isEmpty { return true }
    return false
  }

  /// Whether frame k shows more than its pictures as they are: a title, a Ken Burns move or a
  /// subtitle, or an image overlay shown for part of the video (such frames are drawn, never
  /// taken at hand). Image overlays over the whole video are not counted: a still held is drawn
  /// once with them (`pictureWithOverlays`).
  public func hasOverlay(frame k: Int) -> Bool {
    if isDrawnOver(at: time(ofFrame: k)) { return true }
    switch content(ofFrame: k) {
    case .item(let i, _): return items[i].title != nil || items[i].motion != nil || !items[i].layers.isEmpty
    case .transition(let i, _, _, _):
      return [i, i + 1].contains { items[$0].title != nil || items[$0].motion != nil || !items[$0].layers.isEmpty }
    }
  }

  /// The frame as a render list, given the pictures of the items it shows.
  /// - Parameters:
  ///   - picture: the image of item i at a local time.
  ///   - overlayFrame: the frame of clip overlay o at a time of the video.
  ///   - wholeOverlays: false to leave out the image overlays over the whole video (laid over the
  ///     frame afterwards, in the planes).
  public func renderList(
    frame k: Int, wholeOverlays: Bool = true, paint: Paint? = nil, layerFrame: LayerFrame? = nil,
    picture image: (Int, Double) throws -> Image,
    overlayFrame: (Int, Double) throws -> Image = { _, _ in throw VideoError.invalidTimeline("no clip overlay frames") }
  ) throws -> RenderList {
    var list: RenderList
    switch content(ofFrame: k) {
    case .item(let i, let local):
      list = try RenderList(
        layer: picture(image(i, local), item: i, local: local, paint: paint, layerFrame: layerFrame),
        width: width, height: height,
        background: background)
    case .transition(let i, let progress, let fromTime, let toTime):
      let transition = transitions[i]
      list = try RenderList(
        transitionFrom: picture(image(i, fromTime), item: i, local: fromTime, paint: paint, layerFrame: layerFrame),
        to: picture(image(i + 1, toTime), item: i + 1, local: toTime, paint: paint, layerFrame: layerFrame),
        width: width, height: height,
        effect: transition.effect, parameters: transition.parameters, progress: progress, background: background,
        builtIn: transition.builtIn)
    }
    for (o, overlay) in overlays.enumerated() where overlay.shows(at: time(ofFrame: k)) {
      if overlay.isWhole && !wholeOverlays { continue }
      let shown = overlay.clip == nil ? nil : try overlayFrame(o, time(ofFrame: k))
      list = list.appending(
        try RenderList(
          layer: overlay.layer(frameWidth: width, frameHeight: height, showing: shown), width: width, height: height))
    }
    let t = time(ofFrame: k)
    if let subtitles, case let cues = subtitles.cues(at: t), !cues.isEmpty {
      // Cues that overlap show together, one above the other, in one box.
      var runs: [AttributedText.Run] = []
      for (n, cue) in cues.enumerated() {
        if n > 0 { runs.append(AttributedText.Run("\n")) }
        runs += cue.text.runs
      }
      let start = cues.map(\.start).max()!
      let end = cues.map(\.end).min()!
      let style = subtitles.style
      let overlay = try style.layer(
        AttributedText(runs: runs), width: Double(width), height: Double(height),
        opacity: style.opacity(at: t, start: start, length: end - start)
      ) { Timeline.noteOnce("subtitle at line \(cues[0].line): \($0)") }
      list = list.appending(try RenderList(layer: overlay, width: width, height: height))
    }
    return list
  }

  /// Says a line on standard error the first time only.
  package static func noteOnce(_ line: String) {
    let first = noted.withLock { $0.insert(line).inserted }
    if first { FileHandle.standardError.write(Data("layerkit: \(line)\n".utf8)) }
  }
  private static let noted = Locked(Set<String>())
}
