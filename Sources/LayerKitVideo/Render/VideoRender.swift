import Dispatch
import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// The library's one way from an edit to a video file: the edit (from flags, an edit file, or
/// made in code) and the output in; the sources opened, the edit played into a timeline and a
/// mix, the output planned once, smart rendering decided, and the frames rendered and encoded,
/// with progress, cancellation and the run's figures as values. The command-line tool and tests
/// call it alike:
///
/// ```swift
/// let file = try EditFile.read(path: "show.json5")
/// let render = try VideoRender(
///   editFile: file, output: try OutputTarget(path: "show.mp4"), encoding: EncodingOptions(),
///   backends: RenderBackends(renderer: ReferenceRenderer()))  // LayerKitReference
/// let summary = try render.run { done, total in print("\(done)/\(total)") }
/// ```
///
/// Made, it has decided everything (`plan`, `timeline`, `frames`, the renderer, whether frames
/// are copied); `run` only renders.
public final class VideoRender: RenderJob, @unchecked Sendable {
  /// How the output is written, decided once.
  public let plan: OutputPlan
  /// The edit's timeline; nil for frames a source draws (a scene file's).
  public let timeline: Timeline?
  public let width: Int
  public let height: Int
  public let rate: FrameRate
  /// The time of frame k, in seconds.
  private let time: (Int) -> Double
  /// The frames rendered, of the timeline's.
  public let frames: Range<Int>
  /// The renderer drawing the frames.
  public let renderer: Renderer
  /// The frames a contact sheet shows (kept while rendering: `keptFrames`).
  public let sheetFrames: [Int]
  /// Said about the render: why no frame is copied where smart rendering was wanted, or what a
  /// smart render copies.
  public let note: String?
  /// What a person should read before the render: an edit file's notes.
  public internal(set) var notes: [String] = []
  private let job: RenderJob
  private let pipeline: VideoPipeline?
  /// Seconds a frame may take before `run` stops the render (`RenderSettings.frameTimeLimit`).
  public let frameTimeLimit: Double
  /// Called once, from a timer's thread, when a frame has taken longer than `frameTimeLimit` and
  /// the render is being stopped with that error. A frame stuck inside a driver cannot be
  /// unwound, so `run` returns only when it ends; a program that will not wait may end itself
  /// here (the command line does, a few seconds later).
  public var frameTimeLimitReached: (@Sendable (VideoError) -> Void)?

  /// Plays `edit` and plans its render into `output`.
  /// - Parameters:
  ///   - sources: media already opened, by path (the rest of what the edit shows is opened here,
  ///     several at once). The edit's `random` transitions are chosen by its seed.
  /// - Throws: `RenderRequestError`, `TransitionError`, `VideoError` (an edit that cannot be
  ///   played, an output that would replace an input), `MediaError`, the backends' errors.
  public convenience init(
    edit: Edit, output: OutputTarget, encoding: EncodingOptions, settings: RenderSettings = RenderSettings(),
    backends: RenderBackends, sources opened: [String: MediaSource] = [:]
  ) throws {
    var byPath = opened
    let copies = settings.smart != .off && output.format == .mp4
    for source in try Self.open(edit.mediaPaths.filter { opened[$0] == nil }, readingPackets: copies) {
      byPath[source.path] = source
    }
    let sources = edit.picturePaths.compactMap { byPath[$0] }
    let played = try Self.play(edit, sources: byPath, settings: settings, backends: backends)
    try self.init(
      played: played, sources: sources, output: output, encoding: encoding, settings: settings, backends: backends)
  }

  /// `edit` played: its transitions resolved against `backends` (a `.glsl` file loaded into the
  /// GPU; `random` ones chosen by the edit's seed), every field checked.
  /// - Parameter sources: the opened media of `edit.mediaPaths`, by path.
  public static func play(
    _ edit: Edit, sources: [String: MediaSource], settings: RenderSettings, backends: RenderBackends
  ) throws -> PlayedEdit {
    var random = SeededRandom(seed: edit.seed ?? 1)
    let timing = MediaTimingFunction(name: settings.timing)
    return try edit.play(sources: sources, editly: settings.editly) { spec, duration, easing in
      try spec.resolve(
        duration: duration, timing: try easing.map { try MediaTimingFunction(easing: $0) } ?? timing,
        shaders: backends.shaders, random: &random)
    }
  }

  /// Plans the render of an edit already played into `output`.
  /// - Parameter sources: the media the edit shows, in order (the first gives the default size
  ///   and rate).
  public init(
    played: PlayedEdit, sources: [MediaSource], output target: OutputTarget, encoding: EncodingOptions,
    settings: RenderSettings, backends: RenderBackends
  ) throws {
    try OutputIdentity.refuse(
      output: target.displayPath, inputs: sources.map(\.path) + played.tracks.map(\.path) + played.overlayPaths)
    if !played.tracks.isEmpty, !target.format.carriesSound {
      throw RenderRequestError.soundNotCarried(format: target.format)
    }
    // Options made in code are held to the allowlist an edit file's are.
    try OutputArguments.check(encoding.customArguments)
    if !encoding.customArguments.isEmpty, !target.format.needsFFmpeg {
      throw RenderRequestError.customArgumentsUnused(path: target.displayPath)
    }
    // With no media (colour layers only), the edit's size, else 640×360.
    let first = sources.first?.size ?? (width: 640, height: 360)
    let picture = (
      width: settings.width ?? played.width ?? first.width, height: settings.height ?? played.height ?? first.height
    )
    let size = try OutputPlan.frameSize(
      target: target, options: encoding, width: picture.width, height: picture.height, pad: settings.pad)
    var timeline = try Timeline(
      items: played.items, transitions: played.transitions, width: size.width, height: size.height,
      rate: try Self.rate(settings.fps ?? played.fps, sources: sources), fit: played.fit ?? settings.fit ?? .cover,
      background: settings.background, includesEnd: settings.includesEnd,
      pictureWidth: picture.width, pictureHeight: picture.height)
    timeline.subtitles = played.subtitles
    timeline.overlays = played.overlays
    let total = timeline.frameCount
    // Whether frames are copied, and which frames the render makes (a shard's boundaries off the
    // copied runs), decided before the sound and the part record that depend on the range.
    let smart = try SmartDecision.decide(
      timeline, target: target, options: encoding, settings: settings,
      frames: try settings.frames.frames(of: total))
    let range = smart.frames
    let renderer = try backends.renderer(for: played.transitions, paintsShaders: timeline.paintsShaders)
    // Everything the output is, decided here, once: the sound and the part it records included.
    var options = encoding
    options.part =
      settings.frames.isPartial
      ? PartRecord(
        plan: PartRecord.planID(canonical: settings.planWords, frameCount: total), frames: range, total: total) : nil
    if target.format.carriesSound {
      let timeline = timeline
      let tracks = target.format.needsFFmpeg ? try AudioMix.checked(played.tracks) : played.tracks
      options.audio = try VideoRender.audio(
        for: target, frames: range, of: total, shard: settings.frames.isShard, time: timeline.time(ofFrame:)
      ) { range in
        if let sound = played.editlySound {
          return try AudioMix.editly(
            try sound.checked(), timeline: timeline, tracks: tracks, levels: played.levels, range: range)
        }
        return try AudioMix.make(
          for: timeline, tracks: tracks, clipAudio: played.clipAudio, levels: played.levels, range: range)
      }
    }
    // The sound of a smart render: its clips' packets copied where the edit leaves them alone,
    // or the whole mix encoded, and why.
    var sound: Result<SmartSound, Refusal>?
    if smart.stretch != nil, options.audio != nil {
      sound = try SmartSound.decide(
        timeline, tracks: played.tracks, levels: played.levels, clipAudio: played.clipAudio,
        // An MP4 shard's parts carry the whole sound in the first (`audio(for:…)`), as the whole
        // does; a range, its own stretch of the mix.
        editly: played.editlySound != nil,
        whole: range == 0..<total || (target.format == .mp4 && settings.frames.isShard),
        files: smart.stretch?.files ?? [:])
    }
    if let stretch = smart.stretch {
      options.pixelFormat = options.pixelFormat ?? stretch.pixelFormat
      let first = stretch.streams.first
      options.smartStretches = SmartStretchEncoding(
        codec: first?.codec ?? "h264",
        arguments: SmartPlan.stretchArguments(stretch.streams, crf: options.crf, preset: options.preset),
        // Untagged clips are in the matrix their size implies (BT.601 for SD), and so the output.
        matrix: first.map { $0.colorSpace == "unknown" ? .untagged(width: $0.width, height: $0.height) : .bt709 }
          ?? .bt709)
    }
    plan = try OutputPlan(target: target, options: options)
    // The clips' keyframes the decision found, known to the timeline before anything renders.
    if let stretch = smart.stretch { timeline = stretch.marking(timeline) }
    self.timeline = timeline
    (width, height, rate) = (timeline.width, timeline.height, timeline.rate)
    time = timeline.time(ofFrame:)
    self.frames = range
    self.renderer = renderer
    sheetFrames = settings.contactSheetFrames > 0 ? Self.spread(settings.contactSheetFrames, over: range) : []
    frameTimeLimit = settings.frameTimeLimit
    if let stretch = smart.stretch {
      let copied = try? sound?.get()
      let smartRender = SmartRender(
        timeline: timeline, renderer: renderer, plan: plan, smart: stretch.plan, packets: stretch.packets,
        sound: copied)
      job = smartRender
      pipeline = nil
      let heard: String? =
        switch sound {
        case .success(let plan)?: plan.summary()
        case .failure(let refusal)?: "sound encoded whole: \(refusal.reason)"
        case nil: nil
        }
      note = ([stretch.plan.summary(rate: timeline.rate)] + [heard].compactMap { $0 }).joined(separator: "; ")
    } else {
      let pipeline = try VideoPipeline(
        timeline: timeline, renderer: renderer, plan: plan, frames: range, keepFrames: Set(sheetFrames))
      job = pipeline
      self.pipeline = pipeline
      note = smart.declined.map { "every frame encoded, none copied: \($0)" }
    }
  }

  /// Plans the render of `frameCount` frames a source draws at `fps` (a scene file's, a
  /// presentation's) into `output`, with `sounds` where they play and `tracks` under everything.
  /// - Parameters:
  ///   - width: the frame size, one the output stores (`OutputPlan.frameSize`).
  ///   - renderer: the renderer `source` draws with.
  /// - Throws: `RenderRequestError` (a frame range past the end, tracks for an output without
  ///   sound), the tracks' `VideoError`s.
  public init(
    frames source: FrameSource, width: Int, height: Int, fps: Double, frameCount: Int, renderer: Renderer,
    output target: OutputTarget, encoding: EncodingOptions, settings: RenderSettings,
    sounds: [AudioMix.PlacedSound] = [], tracks: [AudioMix.Track] = [], what: String = "the video"
  ) throws {
    if !tracks.isEmpty, !target.format.carriesSound { throw RenderRequestError.soundNotCarried(format: target.format) }
    let range = try settings.frames.frames(of: frameCount, what: what)
    var options = encoding
    options.part =
      settings.frames.isPartial
      ? PartRecord(
        plan: PartRecord.planID(canonical: settings.planWords, frameCount: frameCount), frames: range,
        total: frameCount) : nil
    if target.format.carriesSound {
      let tracks = try AudioMix.checked(tracks)
      options.audio = Self.audio(
        for: target, frames: range, of: frameCount, shard: settings.frames.isShard, time: { Double($0) / fps }
      ) {
        AudioMix.placed(sounds, tracks: tracks, duration: Double(frameCount) / fps, range: $0)
      }
    }
    plan = try OutputPlan(target: target, options: options)
    timeline = nil
    (self.width, self.height, rate) = (width, height, try FrameRate(fps))
    time = { Double($0) / fps }
    frames = range
    self.renderer = renderer
    sheetFrames = settings.contactSheetFrames > 0 ? Self.spread(settings.contactSheetFrames, over: range) : []
    frameTimeLimit = settings.frameTimeLimit
    let pipeline = try VideoPipeline(
      source: source, width: width, height: height, rate: rate, frameCount: frameCount, plan: plan, frames: range,
      keepFrames: Set(sheetFrames))
    job = pipeline
    self.pipeline = pipeline
    note = nil
  }

  /// "1280×720, 30 fps, gpu": the render in a few words.
  public var description: String { "\(width)×\(height), \(rate) fps, \(renderer.name)" }

  /// Renders and encodes every frame of `frames`, calling `progress` after each one written.
  /// A frame that takes longer than `frameTimeLimit` (none written for that long) stops the
  /// render, as `cancel(_:)` does, with `VideoError.frameTimeLimit`.
  /// - Throws: the first error of any stage; `VideoError.interrupted` after `cancel(signal:)`,
  ///   `VideoError.frameTimeLimit` after a frame over the limit. Nothing is left under the
  ///   output's name after a failure.
  @discardableResult
  public func run(progress: VideoPipeline.Progress? = nil) throws -> VideoPipeline.Summary {
    let first = frames.lowerBound
    let reached = frameTimeLimitReached
    // Weak: the timer's handler is released by libdispatch on a worker thread, later; holding
    // the job there would tear a GL renderer down on that thread.
    let watchdog = FrameWatchdog(limit: frameTimeLimit, first: first) { [weak job] error in
      job?.cancel(error)
      reached?(error)
    }
    defer { watchdog.stop() }
    return try job.run { done, total in
      watchdog.progressed(done, first: first)
      progress?(done, total)
    }
  }

  public func cancel(signal: Int32) { job.cancel(signal: signal) }
  public func cancel(_ error: Error) { job.cancel(error) }

  /// The frames kept for the contact sheet, with their times, after `run`.
  public var keptFrames: [(time: Double, image: Image)] {
    sheetFrames.compactMap { k in pipeline?.keptFrames[k].map { (time(k), $0) } }
  }

  /// `count` frames spread evenly over `range`, the first and the last included.
  public static func spread(_ count: Int, over range: Range<Int>) -> [Int] {
    let n = min(count, range.count)
    guard n > 1 else { return [range.lowerBound] }
    return (0..<n).map { range.lowerBound + Int((Double($0) * Double(range.count - 1) / Double(n - 1)).rounded()) }
  }

  /// Opens every path, several at once and each file once (stills decoded, clips probed); the
  /// first failure in the paths' order is the one reported, after the first path that is not a
  /// regular file (a FIFO, a folder, a device), which is refused before anything is read.
  /// - Throws: `ProcessError.unreadableClip` for a path that is not a regular file; what
  ///   `MediaSource.open` throws.
  /// - Parameter readingPackets: the clips are also read as a smart render reads them
  ///   (`SourceFile`), at the same time, for an output that may copy their packets.
  public static func open(_ paths: [String], readingPackets: Bool = false) throws -> [MediaSource] {
    var unique: [String] = []
    var index: [String: Int] = [:]
    for path in paths where index[path] == nil {
      index[path] = unique.count
      unique.append(path)
    }
    let files = unique
    // Every path is a regular file, or no input, before any child process opens one: ffprobe
    // waits on a FIFO for a writer forever (the read-ahead below runs it on `.mp4` names before
    // `MediaSource.open` would look), and reads a device without end.
    for path in files {
      if let kind = MediaSource.irregularKind(path) {
        throw ProcessError.unreadableClip(path: path, reason: "\(kind), not a regular file")
      }
    }
    // Opened outside the lock, each result stored under it (Locked: a lock ThreadSanitizer sees).
    let results = Locked([Result<MediaSource, Error>?](repeating: nil, count: files.count))
    // Clips in the containers smart rendering copies from, by their names (a guess: a wrong one
    // costs one ffprobe run, or leaves one for later).
    let copyable =
      readingPackets
      ? files.filter { ["mp4", "mov", "m4v"].contains(($0 as NSString).pathExtension.lowercased()) } : []
    let readingAhead = SourceFile.readAhead(copyable)
    DispatchQueue.concurrentPerform(iterations: files.count) { i in
      let opened = Result { try MediaSource.open(files[i]) }
      results.withLock { $0[i] = opened }
    }
    readingAhead.wait()
    let opened = results.current
    return try paths.map { try opened[index[$0]!]!.get() }
  }

  /// The frame rate: `fps`, else the first clip's, else 30.
  public static func rate(_ fps: Double?, sources: [MediaSource]) throws -> FrameRate {
    if let fps { return try FrameRate(fps) }
    for s in sources { if case .clip(let info) = s { return try FrameRate(info.frameRate) } }
    return try FrameRate(30)
  }

  /// The sound the encoder lays under `frames` of a video of `total` frames: `mix(seconds)` of
  /// the stretch rendered (nil: the whole video). GIF, Y4M and PNG frames carry none; a range
  /// carries the sound of its own frames' time, as long as its pictures. Of a sharded (`shard`)
  /// MKV or MP4 render (smart or not) the first part carries the whole video's — as long as the
  /// video, encoded once — which `layerkit join` lays under the joined video, and the others none.
  public static func audio(
    for target: OutputTarget, frames: Range<Int>, of total: Int, shard: Bool, time: (Int) -> Double,
    _ mix: (ClosedRange<Double>?) throws -> AudioMix?
  ) rethrows -> AudioMix? {
    guard target.format.carriesSound else { return nil }
    let partial = frames != 0..<total
    if (target.format == .mkv || target.format == .mp4) && partial && shard {
      return frames.lowerBound == 0 ? try mix(nil) : nil
    }
    return try mix(partial ? time(frames.lowerBound)...time(frames.upperBound) : nil)
  }
}
