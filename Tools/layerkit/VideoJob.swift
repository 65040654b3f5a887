import ArgumentParser
import CMalloc
import Dispatch
import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitScene
import LayerKitVideo

#if canImport(Glibc)
  import Glibc
#endif

/// What the video commands (transition, slideshow, concat) share: choosing the backend, reading
/// transition specs, the frame size and rate, the output, shards, audio, signals and progress.
struct VideoJob {
  let options: VideoOptions
  let command: String
  /// The renderer `--renderer` names (for auto: the GPU when an EGL display can be made).
  let renderer: Renderer
  let gpu: GLRenderer?
  /// ffmpeg output options after LayerKit's own (editly's `customOutputArgs`).
  var customOutputArguments: [String] = []

  init(options: VideoOptions, command: String) throws {
    reserveLargeBuffersWithMmap()
    self.options = options
    self.command = command
    (renderer, gpu) = try VideoJob.makeRenderer(options.renderer, command: command, quiet: options.run.quiet)
  }

  /// The sound the encoder lays under `frames` of a video of `total` frames: `mix(seconds)` of
  /// the stretch rendered (nil: the whole video). GIF, Y4M and PNG frames carry none; of a sharded
  /// MKV or MP4 render (smart or not) the first part carries the whole video's, encoded once,
  /// which `layerkit join` lays under the joined video.
  static func audio(
    for target: OutputTarget, frames: Range<Int>, of total: Int, time: (Int) -> Double,
    _ mix: (ClosedRange<Double>?) throws -> AudioMix?
  ) rethrows -> AudioMix? {
    guard target.format.carriesSound else { return nil }
    let partial = frames != 0..<total
    if (target.format == .mkv || target.format == .mp4) && partial {
      return frames.lowerBound == 0 ? try mix(nil) : nil
    }
    return try mix(partial ? time(frames.lowerBound)...time(frames.upperBound) : nil)
  }

  /// The sound of a scene video of `count` frames at `fps` (render, present): clips' sounds where
  /// the scene plays them and the tracks under everything (checked before anything is
  /// rendered), where the output carries sound.
  static func sceneAudio(
    _ sounds: [AudioMix.PlacedSound], tracks: [AudioMix.Track], target: OutputTarget, frames: Range<Int>,
    of count: Int, fps: Double
  ) throws -> AudioMix? {
    try checkCarriesSound(tracks.map(\.path), target)
    guard target.format.carriesSound else { return nil }
    let tracks = try AudioMix.checked(tracks)
    return audio(for: target, frames: frames, of: count, time: { Double($0) / fps }) {
      AudioMix.placed(sounds, tracks: tracks, duration: Double(count) / fps, range: $0)
    }
  }

  /// Refuses sound tracks for an output that carries no sound (Y4M, PNG frames, GIF): they
  /// would be dropped without a word.
  static func checkCarriesSound(_ tracks: [String], _ target: OutputTarget) throws {
    guard !tracks.isEmpty, !target.format.carriesSound else { return }
    let what = target.format == .png ? "PNG frames carry" : "a .\(target.format.rawValue) carries"
    throw ValidationError("--audio: \(what) no sound; use .mp4, .webm, .mov or .mkv")
  }

  /// Renders `frames` of a scene video (render SCENE, present) through the pipeline with the
  /// video commands' progress, signals and summary, then the contact sheet `video` asks for.
  static func renderScene(
    _ source: SceneFrameSource, frames range: Range<Int>, plan: OutputPlan, video: VideoRunOptions, output: String
  ) throws {
    try video.checkOutputsDistinct(output: output, target: plan.target)
    for secondary in [video.contactSheet, video.stats].compactMap({ $0 }) {
      try OutputIdentity.checkWritable(secondary)
    }
    var plan = plan
    plan.options.part = video.partRecord(frames: range, of: source.frameCount)
    let sheetFrames = video.contactSheet.map { _ in ContactSheet.frames(in: range, count: 12) } ?? []
    let pipeline = try VideoPipeline(
      source: source, width: source.width, height: source.height, rate: source.rate, frameCount: source.frameCount,
      plan: plan, frames: range, keepFrames: Set(sheetFrames))
    try run(
      pipeline, frames: range.count,
      describe: "\(source.width)×\(source.height), \(source.rate) fps, \(source.renderer.name)", output: output,
      run: video)
    if let sheet = video.contactSheet {
      let images = sheetFrames.compactMap { k in pipeline.keptFrames[k].map { (source.time(ofFrame: k), $0) } }
      try ContactSheet.write(images, renderer: source.renderer, to: sheet)
      if !video.quiet { printError("contact sheet: \(sheet)") }
    }
  }

  /// The frame size `plan` stores for a picture `width`×`height`, padded with `--pad`; a size
  /// its pixel format cannot store is refused in the command line's words.
  static func frameSize(_ plan: OutputPlan, width: Int, height: Int, pad: Bool) throws -> (width: Int, height: Int) {
    do {
      return try plan.frameSize(width: width, height: height, pad: pad)
    } catch .oddSize(let w, let h, let sw, let sh, let format) {
      throw ParameterError(
        "\(w)×\(h) cannot be stored as \(format) (its chroma planes need whole blocks of pixels); use --size \(sw)x\(sh), "
          + "or --pad to add rows or columns of background")
    } catch {
      throw error
    }
  }

  /// Reads every input, several at once (stills decoded, clips probed); the first failure in
  /// the inputs' order is the one reported.
  func open(_ paths: [String]) throws -> [MediaSource] {
    // Opened outside the lock, each result stored under it (Locked: a lock ThreadSanitizer sees).
    let results = Locked([Result<MediaSource, Error>?](repeating: nil, count: paths.count))
    DispatchQueue.concurrentPerform(iterations: paths.count) { i in
      let opened = Result { try MediaSource.open(paths[i]) }
      results.withLock { $0[i] = opened }
    }
    return try results.current.map { try $0!.get() }
  }

  /// The frame rate: --fps, else the edit's, else the first clip's, else 30.
  func rate(for sources: [MediaSource], edit: Double? = nil) throws -> FrameRate {
    if let fps = options.fps ?? edit { return try FrameRate(fps) }
    for s in sources { if case .clip(let info) = s { return try FrameRate(info.frameRate) } }
    return try FrameRate(30)
  }

  /// Builds the timeline, the output and the pipeline from a played edit, then renders, with
  /// progress, signals and a summary line.
  /// - Parameter sources: the media the edit shows, in order (the first gives the default size).
  func render(_ played: PlayedEdit, sources: [MediaSource], includesEnd: Bool) throws {
    // With no media (colour layers only), the edit's size, else 640×360.
    let first = sources.first?.size ?? (width: 640, height: 360)
    var width = options.size?.width ?? played.width ?? first.width
    var height = options.size?.height ?? played.height ?? first.height
    try OutputIdentity.refuse(
      output: options.output,
      inputs: sources.map(\.path) + played.tracks.map(\.path) + played.overlayPaths)
    let target = try OutputTarget(path: options.output, format: options.encoder.format)
    try options.encoder.check(for: target.format)
    try Self.checkCarriesSound(played.tracks.map(\.path), target)
    var plan = try OutputPlan(target: target, options: options.encoder.encoding)
    if !customOutputArguments.isEmpty {
      guard target.format.needsFFmpeg else {
        throw ValidationError("customOutputArgs: \(options.output) is not written by ffmpeg")
      }
      plan.options.customArguments = customOutputArguments
    }
    let (pictureWidth, pictureHeight) = (width, height)
    (width, height) = try Self.frameSize(plan, width: width, height: height, pad: options.pad)
    let background = options.encoder.background?.color ?? .clear
    var timeline = try Timeline(
      items: played.items, transitions: played.transitions, width: width, height: height,
      rate: try rate(for: sources, edit: played.fps), fit: played.fit ?? options.fit, background: background,
      includesEnd: includesEnd,
      pictureWidth: pictureWidth, pictureHeight: pictureHeight)
    timeline.subtitles = played.subtitles
    timeline.overlays = played.overlays
    let total = timeline.frameCount
    let range = try selectedFrames(options.run.frames, options.run.shard, count: total)
    plan.options.part = options.run.partRecord(frames: range, of: total)
    let tracks = target.format.needsFFmpeg ? try AudioMix.checked(played.tracks) : played.tracks
    // Secondary outputs are checked before anything is rendered, not found unwritable after.
    try options.run.checkOutputsDistinct(output: options.output, target: target)
    for secondary in [options.run.contactSheet, options.run.stats].compactMap({ $0 }) {
      try OutputIdentity.checkWritable(secondary)
    }
    let sheetFrames = options.run.contactSheet.map { _ in ContactSheet.frames(in: range, count: 12) } ?? []
    let renderer = try self.renderer(for: played.transitions, paintsShaders: timeline.paintsShaders)
    let describe = "\(width)×\(height), \(timeline.rate) fps, \(renderer.name)"
    let smart = try smartRender(timeline, renderer: renderer, plan: plan, range: range)
    if target.format.carriesSound {
      plan.options.audio = try Self.audio(
        for: target, frames: range, of: total, time: timeline.time(ofFrame:)
      ) { range in
        if let sound = played.editlySound {
          return try AudioMix.editly(
            try sound.checked(), timeline: timeline, tracks: tracks, levels: played.levels, range: range)
        }
        return try AudioMix.make(
          for: timeline, tracks: tracks, clipAudio: played.clipAudio, levels: played.levels, range: range)
      }
    }
    var note: String?
    switch smart {
    case .render(let smart):
      smart.plan.options.audio = plan.options.audio
      try run(smart, frames: range.count, describe: describe, note: smart.smart.summary(rate: timeline.rate))
      return
    case .declined(let reason?): note = "every frame encoded, none copied: \(reason)"
    case .declined(nil): break
    }
    let pipeline = try VideoPipeline(
      timeline: timeline, renderer: renderer, plan: plan, frames: range, keepFrames: Set(sheetFrames))
    try run(pipeline, frames: range.count, describe: describe, note: note)
    if let sheet = options.run.contactSheet {
      let images = sheetFrames.compactMap { k in pipeline.keptFrames[k].map { (timeline.time(ofFrame: k), $0) } }
      try ContactSheet.write(images, renderer: renderer, to: sheet)
      if !options.run.quiet { printError("contact sheet: \(sheet)") }
    }
  }
}

extension VideoRunOptions {
  /// The `--audio` tracks: each from the video's start, faded out over `--audio-fade`.
  var tracks: [AudioMix.Track] {
    audio.map { path in
      var track = AudioMix.Track(path: path)
      track.fadeOut = audioFade
      return track
    }
  }
}

/// Frame-sized buffers (megabytes each, made on one thread and freed on another) go straight to
/// mmap and back to the system when freed. glibc's default raises its mmap threshold to the
/// largest block freed, after which such buffers come from per-thread arenas that keep what they
/// once held: measured on a 1080p concat, the peak RSS fell from 1.86 GB to 0.98 GB.
func reserveLargeBuffersWithMmap() {
  _ = mallopt(M_MMAP_THRESHOLD, 256 << 10)
}
