import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// An edit made ready to render: the timeline's items and transitions, what lies over them,
/// and the sound. Made by `Edit.play`; the frame size, rate and output are the caller's.
public struct PlayedEdit: Sendable {
  public var items: [TimelineItem]
  public var transitions: [TimelineTransition]
  public var overlays: [ImageOverlay]
  public var subtitles: Subtitles?
  public var tracks: [AudioMix.Track]
  public var clipAudio: Bool
  public var levels: AudioMix.Levels
  /// The edit's default resize mode (`defaults.layer.resizeMode`), or nil.
  public var fit: Fit?
  /// The files of the overlays (an output may name none of them).
  public var overlayPaths: [String]
  /// The edit's frame size and rate, where it gives them (else the caller's defaults: the first
  /// input's size, the first clip's rate).
  public var width: Int?
  public var height: Int?
  public var fps: Double?
  /// An edit file's sound by editly's rules (`AudioMix.editly`), in place of `clipAudio` and
  /// the clips' own sound; nil for the video commands' edits.
  public var editlySound: EditlySound?

  public init(
    items: [TimelineItem], transitions: [TimelineTransition], overlays: [ImageOverlay] = [],
    subtitles: Subtitles? = nil, tracks: [AudioMix.Track] = [], clipAudio: Bool = true,
    levels: AudioMix.Levels = AudioMix.Levels(), fit: Fit? = nil, overlayPaths: [String] = [],
    size: (width: Int?, height: Int?, fps: Double?) = (nil, nil, nil), editlySound: EditlySound? = nil
  ) {
    self.editlySound = editlySound
    (width, height, fps) = size
    self.items = items
    self.transitions = transitions
    self.overlays = overlays
    self.subtitles = subtitles
    self.tracks = tracks
    self.clipAudio = clipAudio
    self.levels = levels
    self.fit = fit
    self.overlayPaths = overlayPaths
  }
}

extension Edit {
  /// The files the clips' pictures are (video and image layers), in order, each once: the
  /// sources a command opens, the first giving the default size.
  public var picturePaths: [String] {
    var seen = Set<String>()
    return clips.flatMap { $0.layers.compactMap(\.picturePath) }.filter { seen.insert($0).inserted }
  }

  /// Every picture and clip path the edit's clips and overlays show, each once: what the caller
  /// opens (several at once) before `play`.
  public var mediaPaths: [String] {
    let overlaid = clips.flatMap { clip in
      clip.layers.compactMap { layer -> String? in if case .imageOverlay(let o) = layer { o.path } else { nil } }
    }
    var seen = Set<String>()
    return (picturePaths + overlaid + (overlays ?? []).map(\.path)).filter { seen.insert($0).inserted }
  }

  /// The edit as a timeline's parts and a mix: durations and speeds by editly's rules, titles,
  /// Ken Burns, overlays (their pictures read), subtitles (the file read) and audio tracks.
  /// - Parameters:
  ///   - sources: the opened media of `mediaPaths`, by path.
  ///   - transition: a transition from its SPEC, duration and easing (parsed, and a shader
  ///     registered, by the caller, which knows the GPU).
  /// - Throws: `VideoError.invalidEdit` naming the field at fault; the errors of reading
  ///   overlays and subtitles.
  /// - Parameter clampingTransitions: editly's rule for edit files: each transition is at most
  ///   half of either clip beside it (the video commands refuse a transition longer than an
  ///   item can hold instead).
  /// - Parameter editly: editly's rules for edit files besides: the clamp, a cut fitted into any
  ///   clip duration (speeds 0.01 to 100, as `Timeline.speeds`), and `mixVolume`s and
  ///   `clipsAudioVolume` as weights shared out of one (amix's normalization), not gains.
  public func play(
    sources: [String: MediaSource], clampingTransitions: Bool = false, editly: Bool = false,
    transition: (_ spec: TransitionSpec, _ duration: Double, _ easing: String?) throws
      -> TimelineTransition
  ) throws -> PlayedEdit {
    guard !clips.isEmpty else { throw VideoError.invalidEdit(at: "clips", reason: "no clips: give at least one") }
    // Before any picture is made: 100 000 colour clips once took gigabytes before the first word.
    guard clips.count <= Self.maxClips else {
      throw VideoError.invalidEdit(
        at: "clips", reason: "\(clips.count) clips; an edit holds at most \(Self.maxClips) (split it into parts)")
    }
    let fit = try defaults?.layer?.resizeMode.map { try Self.fit($0, at: "defaults.layer.resizeMode") }
    var items: [TimelineItem] = []
    for (i, clip) in clips.enumerated() {
      items.append(try item(clip, at: "clips[\(i)]", sources: sources, editly: editly))
    }
    var transitions: [TimelineTransition] = []
    for (i, clip) in clips.dropLast().enumerated() {
      let at = "clips[\(i)].transition"
      let given: Transition?
      switch clip.transition {
      case .inherited: given = defaults?.transition
      case .none: given = nil
      case .given(let t): given = t
      }
      let name = given?.name ?? (given == nil ? "none" : defaults?.transition?.name ?? "fade")
      var duration = given?.duration ?? defaults?.transition?.duration ?? 0.5
      guard duration.isFinite, duration >= 0, duration <= Limits.maxSeconds else {
        throw VideoError.invalidEdit(at: at + ".duration", reason: "seconds from 0 to \(Int(Limits.maxSeconds))")
      }
      if clampingTransitions || editly { duration = min(duration, items[i].duration / 2, items[i + 1].duration / 2) }
      if name == "none" || duration == 0 {
        transitions.append(TimelineTransition(effect: "fade", duration: 0, label: "none"))
      } else {
        // The name may hold a subtype (`push:fromRight`); editly's params are values by name.
        let named = try TransitionSpec(parsing: name)
        let params = given?.params ?? (given?.name == nil ? defaults?.transition?.params : nil) ?? [:]
        let spec = TransitionSpec(
          effect: named.effect, subtype: named.subtype,
          parameters: named.parameters.merging(params) { _, given in given })
        var made = try transition(spec, duration, given?.easing ?? defaults?.transition?.easing)
        for (curve, key) in [(\Transition.audioOutCurve, "audioOutCurve"), (\Transition.audioInCurve, "audioInCurve")] {
          guard let value = given?[keyPath: curve] ?? defaults?.transition?[keyPath: curve] else { continue }
          guard TimelineTransition.audioCurves.contains(value) else {
            throw VideoError.invalidEdit(
              at: "\(at).\(key)",
              reason:
                "'\(value)': one of afade's curves (\(TimelineTransition.audioCurves.sorted().joined(separator: ", ")))"
            )
          }
          if key == "audioOutCurve" { made.audioOutCurve = value } else { made.audioInCurve = value }
        }
        transitions.append(made)
      }
    }
    var levels = AudioMix.Levels(clipVolume: editly ? 1 : try Self.gain(clipsAudioVolume, at: "clipsAudioVolume"))
    levels.outputVolume = try Self.gain(outputVolume, at: "outputVolume")
    if let ducking {
      guard ducking.amount.isFinite, (0...60).contains(ducking.amount) else {
        throw VideoError.invalidEdit(at: "ducking.amount", reason: "dB from 0 to 60")
      }
      levels.duck = ducking.amount
      levels.duckAttack = try Self.seconds(ducking.attack, at: "ducking.attack", within: 0...10) ?? levels.duckAttack
      levels.duckRelease =
        try Self.seconds(ducking.release, at: "ducking.release", within: 0...10) ?? levels.duckRelease
    }
    if let norm = audioNorm, norm.enable == true {
      let g = norm.gaussSize ?? 5
      guard (3...301).contains(g), g % 2 == 1 else {
        throw VideoError.invalidEdit(at: "audioNorm.gaussSize", reason: "an odd number from 3 to 301")
      }
      let m = norm.maxGain ?? 30
      guard m.isFinite, (1...100).contains(m) else {
        throw VideoError.invalidEdit(at: "audioNorm.maxGain", reason: "a gain from 1 to 100")
      }
      levels.normalize = AudioMix.Levels.Normalize(gaussSize: g, maxGain: m)
    }
    if let loudness {
      guard loudness.isFinite, (-70 ... -5).contains(loudness) else {
        throw VideoError.invalidEdit(at: "loudness", reason: "LUFS from -70 to -5")
      }
      levels.loudness = loudness
    }
    // The clips' own sounds and overlays, placed at their clips' starts.
    var edit = self
    var start = 0.0
    for (i, clip) in clips.enumerated() {
      let length = items[i].duration
      try edit.place(clip, at: "clips[\(i)]", start: start, length: length, sources: sources, editly: editly)
      if i < transitions.count { start += length - transitions[i].duration }
    }
    var sound: EditlySound?
    if editly {
      let tracks = edit.audioTracks ?? []
      sound = try edit.editlySound(items: items, tracks: tracks, sources: sources)
      // mixVolume is a weight of the mix (in `sound`): each track plays as it is.
      for i in tracks.indices { edit.audioTracks![i].mixVolume = nil }
    }
    return PlayedEdit(
      items: items, transitions: transitions, overlays: try edit.playOverlays(sources),
      subtitles: try playSubtitles(), tracks: try edit.playTracks(), clipAudio: keepSourceAudio ?? false,
      levels: levels, fit: fit, overlayPaths: (edit.overlays ?? []).map(\.path), size: try playSize(),
      editlySound: sound)
  }

  /// A clip's `audio` and `detached-audio` layers, and the sound of its videos after its picture
  /// (with `keepSourceAudio`, where they play at 1×), as tracks of the whole video, the clip
  /// starting at `start` seconds and lasting `length`. By editly's rules only `detached-audio`
  /// is a track; the rest is the clip's own sound (`EditlySound`).
  private mutating func place(
    _ clip: Clip, at path: String, start: Double, length: Double, sources: [String: MediaSource], editly: Bool
  ) throws {
    let picture = Self.pictureIndex(clip)
    for (j, layer) in clip.layers.enumerated() {
      let at = "\(path).layers[\(j)]"
      switch layer {
      case .audio where editly, .video where editly: continue
      case .audio(let a), .detachedAudio(let a):
        var track = AudioTrack(path: a.path)
        track.mixVolume = a.mixVolume
        track.cutFrom = a.cutFrom
        track.cutTo = a.cutTo
        let offset = try Self.seconds(a.start, at: at + ".start") ?? 0
        track.start = start + offset
        if case .audio = layer {
          // editly's audio layer sounds for its clip's length.
          let from = a.cutFrom ?? 0
          track.cutTo = min(a.cutTo ?? .infinity, from + length)
        }
        audioTracks = (audioTracks ?? []) + [track]
      case .video(let v) where j != picture && keepSourceAudio == true:
        // A video over the clip's picture sounds as it plays at its own speed: heard when it
        // plays at 1×, as a track from its start for its span.
        guard case .clip(let info)? = sources[v.path], info.hasAudio,
          let placed = try placedVideo(v, at: at, sources: sources, clipDuration: clip.duration).clip,
          abs(placed.speed - 1) < 1e-9
        else { continue }
        let (from, to) = try Self.span(v.start, v.stop, at: at)
        guard from < length else { continue }
        var track = AudioTrack(path: v.path)
        track.mixVolume = v.mixVolume
        track.cutFrom = placed.inPoint
        track.cutTo = placed.inPoint + min(to ?? length, length) - from
        track.start = start + from
        audioTracks = (audioTracks ?? []) + [track]
      case .video, .image, .title, .colors, .imageOverlay, .text, .gl: break
      }
    }
  }

  /// A clip as a timeline item: its picture (its first layer, when that is a whole picture;
  /// else black), its length, speed and loop, Ken Burns, its first title, and the layers drawn
  /// over the picture.
  private func item(_ clip: Clip, at: String, sources: [String: MediaSource], editly: Bool) throws -> TimelineItem {
    if let d = clip.duration {
      guard d.isFinite, d > 0, d <= Limits.maxSeconds else {
        throw VideoError.invalidEdit(at: at + ".duration", reason: "seconds above 0, at most \(Int(Limits.maxSeconds))")
      }
    }
    let pictureIndex = Self.pictureIndex(clip)
    var item: TimelineItem
    var zoom: (String?, Double?, String?) = (nil, nil, nil)
    var resizeMode: String?
    let size = try playSize()
    let frameSize = (width: size.width ?? 640, height: size.height ?? 360)
    // The clip's length: its duration, else its first video's cut (at its speed), else the default.
    var length = clip.duration ?? defaults?.duration ?? 4
    if clip.duration == nil, let j = clip.layers.firstIndex(where: { if case .video = $0 { true } else { false } }),
      j != pictureIndex, case .video(let v) = clip.layers[j], case .clip(let info)? = sources[v.path]
    {
      length =
        try videoItem(v, info: info, source: .clip(info), duration: nil, at: "\(at).layers[\(j)]", editly: editly)
        .duration
    }
    switch pictureIndex.map({ clip.layers[$0] }) {
    case .video(let v):
      guard let source = sources[v.path], case .clip(let info) = source else {
        throw VideoError.invalidEdit(at: at + ".layers", reason: "\(v.path) is not a clip (a video layer plays one)")
      }
      item = try videoItem(v, info: info, source: source, duration: clip.duration, at: at, editly: editly)
      zoom = (v.zoomDirection, v.zoomAmount, v.panDirection)
      resizeMode = v.resizeMode
    case .image(let image):
      guard let source = sources[image.path] else {
        throw VideoError.invalidEdit(at: at + ".layers", reason: "\(image.path) was not opened")
      }
      item = TimelineItem(source: source, duration: length)
      zoom = (image.zoomDirection, image.zoomAmount, image.panDirection)
      resizeMode = image.resizeMode
    case .colors(let layer) where layer.kind != .fill && layer.kind != .pause:
      // Gradients move (editly's turn and growth) and rainbow-colors' blue changes: drawn each
      // frame, first, over black.
      item = TimelineItem(
        source: .image(Still(try LayerKit.Image(width: 16, height: 9, color: .black), name: "black")), duration: length)
      let place = "\(at).layers[\(pictureIndex ?? 0)]"
      if let drawn = try clipLayer(.colors(layer), at: place, sources: sources, size: frameSize, fit: .stretch) {
        item.layers.append(drawn)
      }
      resizeMode = "stretch"
    case .colors(let layer):
      item = TimelineItem(
        source: .image(
          Still(
            try Self.picture(layer, width: frameSize.width, height: frameSize.height, at: at, seed: seed ?? 1),
            name: "\(at): \(layer.kind.rawValue)"
          )),
        duration: length)
      resizeMode = "stretch"
    default:
      // No whole picture first: black under the layers, as editly's empty canvas.
      item = TimelineItem(
        source: .image(Still(try LayerKit.Image(width: 16, height: 9, color: .black), name: "black")), duration: length)
      resizeMode = "stretch"
    }
    item.fit = try resizeMode.map { try Self.fit($0, at: at + ".layers.resizeMode") }
    item.motion = try Self.motion(zoom.0, amount: zoom.1, pan: zoom.2, at: at)
    let fit =
      try item.fit ?? defaults?.layer?.resizeMode.map { try Self.fit($0, at: "defaults.layer.resizeMode") }
      ?? .containBlur
    for (j, layer) in clip.layers.enumerated() where j != pictureIndex && !layer.isSound {
      let path = "\(at).layers[\(j)]"
      // The first title at a preset place for the whole clip is the item's own (drawn once and
      // laid over the planes); the rest are drawn with the picture.
      if case .title(let title) = layer, item.title == nil, title.start == nil, title.stop == nil,
        title.zoomDirection == nil || title.zoomDirection == "none",
        title.position.map({ $0.name.flatMap(TextStyle.Position.init(rawValue:)) != nil }) ?? true,
        item.layers.isEmpty
      {
        item.title = TimelineTitle(AttributedText(title.text), style: try Self.style(title, at: path))
        continue
      }
      if case .video(let v) = layer {
        item.layers.append(try placedVideo(v, at: path, sources: sources, clipDuration: clip.duration))
        continue
      }
      if case .gl(let g) = layer {
        let (start, stop) = try Self.span(g.start, g.stop, at: path)
        let speed = g.speed ?? 1
        guard speed.isFinite, abs(speed) <= 1000 else {
          throw VideoError.invalidEdit(at: path + ".speed", reason: "a number, at most 1000")
        }
        item.layers.append(
          ClipLayer(
            start: start, stop: stop,
            shader: .init(
              fragment: URL(fileURLWithPath: g.fragmentPath), vertex: g.vertexPath.map(URL.init(fileURLWithPath:)),
              speed: speed)))
        continue
      }
      if let drawn = try clipLayer(layer, at: path, sources: sources, size: frameSize, fit: fit) {
        item.layers.append(drawn)
      }
    }
    return item
  }

  /// A video after a clip's picture, as a clip layer: its cut in its box, sped as editly fits
  /// it to the clip's duration (or at its `speed`), filled as its `resizeMode` says (contain).
  func placedVideo(_ v: Video, at: String, sources: [String: MediaSource], clipDuration: Double?) throws -> ClipLayer {
    guard case .clip(let info)? = sources[v.path] else {
      throw VideoError.invalidEdit(at: at + ".path", reason: "\(v.path) is not a clip (a video layer plays one)")
    }
    let from = v.cutFrom ?? 0
    let to = min(v.cutTo ?? info.duration, info.duration)
    guard from.isFinite, from >= 0, from < info.duration, to.isFinite, to > from else {
      throw VideoError.invalidEdit(
        at: at + ".cutFrom", reason: "\(v.path) is \(Limits.format(info.duration)) s long; cut from 0 to it")
    }
    var speed = 1.0
    if let s = v.speed {
      guard s.isFinite, (0.25...4).contains(s) else {
        throw VideoError.invalidEdit(at: at + ".speed", reason: "from 0.25 to 4, not \(s)")
      }
      speed = s
    } else if let clipDuration {
      speed = min(max((to - from) / clipDuration, Timeline.speeds.lowerBound), Timeline.speeds.upperBound)
    }
    let box = try Self.box(v.placement, at: at)
    let fit = try Self.fit(v.resizeMode ?? defaults?.layer?.resizeMode ?? "contain", at: at + ".resizeMode")
    let (start, stop) = try Self.span(v.start, v.stop, at: at)
    return ClipLayer(
      start: start, stop: stop,
      clip: .init(info: info, inPoint: from, speed: speed, box: box, gravity: fit.gravity, bars: fit == .containBlur))
  }

  /// A video layer's item: editly's rule (a clip duration with a cut and no speed speeds the cut
  /// to fit), `speed` otherwise, `loop` filling the duration with the cut again and again.
  private func videoItem(
    _ v: Video, info: ClipInfo, source: MediaSource, duration: Double?, at: String, editly: Bool = false
  ) throws -> TimelineItem {
    let fits = editly ? Timeline.speeds : 0.25...4
    let from = v.cutFrom ?? 0
    let to = min(v.cutTo ?? info.duration, info.duration)
    guard from.isFinite, from >= 0, from < info.duration else {
      throw VideoError.invalidEdit(
        at: at + ".layers.cutFrom",
        reason: "\(v.path) is \(Limits.format(info.duration)) s long; the cut starts after it")
    }
    guard to.isFinite, to > from else {
      throw VideoError.invalidEdit(at: at + ".layers.cutTo", reason: "the cut must end after it starts")
    }
    let cut = to - from
    if let speed = v.speed, !(speed.isFinite && (0.25...4).contains(speed)) {
      throw VideoError.invalidEdit(at: at + ".layers.speed", reason: "from 0.25 to 4, not \(speed)")
    }
    var item = TimelineItem(source: source, inPoint: from, duration: cut, volume: try Self.gain(v.mixVolume, at: at))
    if v.loop == true {
      item.speed = v.speed ?? 1
      item.duration = duration ?? cut / item.speed
      if item.duration * item.speed > cut + 1e-9 { item.loopLength = cut }
    } else if let duration, v.speed == nil {
      // editly's fit: the cut sped or slowed to last the clip's duration.
      item.speed = cut / duration
      item.duration = duration
      guard (fits.lowerBound - 1e-9...fits.upperBound + 1e-9).contains(item.speed) else {
        throw VideoError.invalidEdit(
          at: at + ".duration",
          reason:
            "fitting the \(Limits.format(cut)) s cut into \(Limits.format(duration)) s needs speed \(Limits.format(item.speed)); speeds go from \(Limits.format(fits.lowerBound)) to \(Limits.format(fits.upperBound))"
        )
      }
      item.speed = min(max(item.speed, fits.lowerBound), fits.upperBound)
    } else {
      item.speed = v.speed ?? 1
      // A clip duration shorter than the cut at its speed ends the clip early.
      item.duration = min(cut / item.speed, duration ?? .infinity)
    }
    return item
  }

  static func fit(_ name: String, at: String) throws -> Fit {
    guard let fit = Fit(rawValue: name) else {
      throw VideoError.invalidEdit(at: at, reason: "'\(name)': cover, contain, contain-blur or stretch")
    }
    return fit
  }

  static func gain(_ value: Double?, at: String) throws -> Double {
    guard let value else { return 1 }
    guard value.isFinite, (0...16).contains(value) else {
      throw VideoError.invalidEdit(at: at, reason: "a gain from 0 to 16, not \(value)")
    }
    return value
  }

  static func seconds(_ value: Double?, at: String, within range: ClosedRange<Double> = 0...Limits.maxSeconds) throws
    -> Double?
  {
    guard let value else { return nil }
    guard value.isFinite, range.contains(value) else {
      throw VideoError.invalidEdit(
        at: at, reason: "seconds from \(Limits.format(range.lowerBound)) to \(Limits.format(range.upperBound))")
    }
    return value
  }

  /// Ken Burns from editly's `zoomDirection` (in, out, left, right) and LayerKit's `panDirection`.
  static func motion(_ direction: String?, amount: Double?, pan: String?, at: String) throws -> KenBurns? {
    let pans: [String: SIMD2<Double>] = ["left": [-1, 0], "right": [1, 0], "up": [0, -1], "down": [0, 1]]
    var zoom = KenBurns.Zoom.none
    var direction2 = SIMD2<Double>.zero
    switch direction {
    case nil, "none": break
    case "in": zoom = .in
    case "out": zoom = .out
    case "left": direction2 = [-1, 0]
    case "right": direction2 = [1, 0]
    default:
      throw VideoError.invalidEdit(at: at + ".layers.zoomDirection", reason: "in, out, left, right or none")
    }
    if let pan, pan != "none" {
      guard let p = pans[pan] else {
        throw VideoError.invalidEdit(at: at + ".layers.panDirection", reason: "left, right, up, down or none")
      }
      direction2 = p
    }
    guard zoom != .none || direction2 != .zero else { return nil }
    let amount = amount ?? 0.1
    guard amount.isFinite, (0...1).contains(amount) else {
      throw VideoError.invalidEdit(at: at + ".layers.zoomAmount", reason: "from 0 to 1")
    }
    // editly's left and right: its own scale and a shift in pixels (KenBurns.editlyPan), unless
    // LayerKit's panDirection says how.
    let editlyPan = (direction == "left" || direction == "right") && (pan == nil || pan == "none")
    return KenBurns(zoom: zoom, pan: direction2, amount: amount, editlyPan: editlyPan)
  }

  /// A title's style from its fields over the title defaults.
  static func style(_ title: Title, at: String) throws -> TextStyle {
    var style = TextStyle.title
    if let font = title.fontPath ?? title.fontFamily { style.font = font }
    if let size = title.fontSize {
      guard size.isFinite, size > 0, size <= 0.5 else {
        throw VideoError.invalidEdit(at: at + ".fontSize", reason: "a fraction of the height in (0, 0.5]")
      }
      style.size = size
    }
    if let color = title.textColor { style.color = try Self.color(color, at: at + ".textColor") }
    // A preset place; any other (editly's nine, a point) is the clip layer's to lay.
    if let p = title.position?.name.flatMap(TextStyle.Position.init(rawValue:)) { style.position = p }
    if let box = title.box { style.box = box == "none" ? nil : try Self.color(box, at: at + ".box") }
    if let fade = try seconds(title.fade, at: at + ".fade", within: 0...60) { style.fade = fade }
    return style
  }

  static func color(_ text: String, at: String) throws -> Color {
    guard let color = Color(name: text) else {
      throw VideoError.invalidEdit(at: at, reason: "'\(text)' is not a colour: a name or #RRGGBB[AA]")
    }
    return color
  }
}
