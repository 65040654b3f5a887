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

  init(options: VideoOptions, command: String) throws {
    reserveLargeBuffersWithMmap()
    self.options = options
    self.command = command
    (renderer, gpu) = try VideoJob.makeRenderer(options.renderer, command: command, quiet: options.run.quiet)
  }

  /// The sound the encoder lays under `frames` of a video of `total` frames: `mix(seconds)` of
  /// the stretch rendered (nil: the whole video). GIF, Y4M and PNG frames carry none; of a sharded
  /// MKV render the first part carries the whole video's, which `layerkit join` lays under the
  /// joined video.
  static func audio(
    for target: OutputTarget, frames: Range<Int>, of total: Int, time: (Int) -> Double,
    _ mix: (ClosedRange<Double>?) throws -> AudioMix?
  ) rethrows -> AudioMix? {
    guard target.format.carriesSound else { return nil }
    let partial = frames != 0..<total
    if target.format == .mkv && partial { return frames.lowerBound == 0 ? try mix(nil) : nil }
    return try mix(partial ? time(frames.lowerBound)...time(frames.upperBound) : nil)
  }

  /// The sound of a scene video of `count` frames at `fps` (render, present): clips' sounds where
  /// the scene plays them and a music track under everything (checked before anything is
  /// rendered), where the output carries sound.
  static func sceneAudio(
    _ sounds: [AudioMix.PlacedSound], music: String?, fadeOut: Double, target: OutputTarget, frames: Range<Int>,
    of count: Int, fps: Double
  ) throws -> AudioMix? {
    try checkCarriesSound(music, target)
    guard target.format.carriesSound else { return nil }
    if let music { try AudioMix.checkTrack(music) }
    return audio(for: target, frames: frames, of: count, time: { Double($0) / fps }) {
      AudioMix.placed(sounds, music: music, duration: Double(count) / fps, fadeOut: fadeOut, range: $0)
    }
  }

  /// Refuses `--audio` for an output that carries no sound (Y4M, PNG frames, GIF): the track
  /// would be dropped without a word.
  static func checkCarriesSound(_ music: String?, _ target: OutputTarget) throws {
    guard music != nil, !target.format.carriesSound else { return }
    let what = target.format == .png ? "PNG frames carry" : "a .\(target.format.rawValue) carries"
    throw ValidationError("--audio: \(what) no sound; use .mp4, .webm, .mov or .mkv")
  }

  /// Renders `frames` of a scene video (render SCENE, present) through the pipeline with the
  /// video commands' progress, signals and summary, then the contact sheet `video` asks for.
  static func renderScene(
    _ source: SceneFrameSource, frames range: Range<Int>, plan: OutputPlan, video: VideoRunOptions, output: String
  ) throws {
    try video.checkOutputsDistinct(output: output, target: plan.target)
    for secondary in [video.contactSheet, video.stats].compactMap({ $0 }) { try OutputIdentity.checkWritable(secondary) }
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

  /// The renderer `--renderer` names; for auto the GPU when an EGL display can be made, else the
  /// CPU, with a note unless `quiet`. Also the GPU renderer, when there is one.
  static func makeRenderer(_ choice: BackendChoice, command: String, quiet: Bool) throws -> (Renderer, GLRenderer?) {
    /// The commands render every frame on the main thread: the context stays current there.
    func makeGPU() throws -> GLRenderer {
      let gpu = try GLRenderer()
      gpu.keepsContextCurrent = true
      return gpu
    }
    switch choice {
    case .gpu:
      let gpu = try makeGPU()
      return (gpu, gpu)
    case .cpu:
      return (ReferenceRenderer(), nil)
    case .auto:
      do {
        let gpu = try makeGPU()
        return (gpu, gpu)
      } catch {
        if !quiet { printError("layerkit \(command): no GPU backend (\(error)); rendering on the CPU") }
        return (ReferenceRenderer(), nil)
      }
    }
  }

  /// The renderer of a video with `transitions`. `--renderer auto` on a software rasterizer
  /// (Mesa's llvmpipe, softpipe) takes the CPU when every transition has a shortcut in the
  /// catalogue (`TransitionEffect.shortcut`: a crossfade or a slide, which the CPU runs a row at a
  /// time): there the CPU renders such videos faster end to end (`layerkit-bench --suite`: fade and push, 720p
  /// and 1080p, Y4M and MP4), while llvmpipe wins on everything else; on a hardware GPU, the GPU.
  func renderer(for transitions: [TimelineTransition]) -> Renderer {
    guard options.renderer == .auto, let gpu, transitions.allSatisfy(\.builtIn),
      Self.cpuIsFaster(than: gpu, effects: transitions.map(\.effect))
    else { return renderer }
    return ReferenceRenderer()
  }

  /// Whether the CPU renders work whose transitions run `effects` (built-in names) faster than
  /// `gpu`, as `layerkit-bench --suite` recommends: on a software rasterizer when there are
  /// transitions and every one has a shortcut; the GPU for filter transitions and for layer
  /// scenes without transitions (the 50- and 500-layer rows).
  static func cpuIsFaster(than gpu: GLRenderer, effects: some Collection<String>) -> Bool {
    guard gpu.info.isSoftwareRasterizer else { return false }
    return !effects.isEmpty && effects.allSatisfy { TransitionEffects.all[$0]?.shortcut != nil }
  }

  /// Reads every input, several at once (stills decoded, clips probed); the first failure in
  /// the inputs' order is the one reported.
  func open(_ paths: [String]) throws -> [MediaSource] {
    // Each input writes its own slot; concurrentPerform returns once every one has (a lock
    // here was Synchronization's Mutex, which ThreadSanitizer cannot see into).
    let results = UnsafeMutableBufferPointer<Result<MediaSource, Error>>.allocate(capacity: paths.count)
    defer {
      _ = results.deinitialize()
      results.deallocate()
    }
    nonisolated(unsafe) let slots = results
    DispatchQueue.concurrentPerform(iterations: paths.count) { i in
      (slots.baseAddress! + i).initialize(to: Result { try MediaSource.open(paths[i]) })
    }
    return try results.map { try $0.get() }
  }

  /// The frame rate: --fps, else the first clip's, else 30.
  func rate(for sources: [MediaSource]) throws -> FrameRate {
    if let fps = options.fps { return try FrameRate(fps) }
    for s in sources { if case .clip(let info) = s { return try FrameRate(info.frameRate) } }
    return try FrameRate(30)
  }

  /// A transition from its SPEC: `fade`, `push:fromRight`, a built-in effect name, or a `.glsl`
  /// file in the gl-transitions form, each optionally followed by `:NAME=VALUE` parameters.
  func transition(_ spec: String, duration: Double, random: inout SeededRandom) throws -> TimelineTransition {
    try Self.transition(
      spec, duration: duration, timing: MediaTimingFunction(name: options.timing), gpu: gpu, random: &random)
  }

  /// As `transition(_:duration:random:)`, for commands without VideoOptions: a `.glsl` file is
  /// registered with `gpu` (and refused without one).
  static func transition(
    _ spec: String, duration: Double, timing: MediaTimingFunction, gpu: GLRenderer?, random: inout SeededRandom
  ) throws -> TimelineTransition {
    if spec == "random" {
      let names = TransitionEffects.all.keys.sorted()
      let name = names[Int(random.next() % UInt64(names.count))]
      var parameters: [String: TransitionValue] = [:]
      var label = name
      if ["moveIn", "push", "reveal"].contains(name) {
        let subtypes: [TransitionSubtype] = [.fromLeft, .fromRight, .fromTop, .fromBottom]
        let subtype = subtypes[Int(random.next() % 4)]
        parameters["direction"] = .vec2(TransitionEffects.direction(subtype))
        label += ":\(subtype.rawValue)"
      }
      return TimelineTransition(
        effect: name, parameters: parameters, duration: duration, timing: timing, label: label)
    }
    var parts = spec.components(separatedBy: ":")
    let head = parts.removeFirst()
    var subtype: TransitionSubtype?
    var assignments: [(String, String)] = []
    for part in parts {
      if let eq = part.firstIndex(of: "=") {
        assignments.append((String(part[..<eq]), String(part[part.index(after: eq)...])))
      } else if let s = TransitionSubtype(rawValue: part) {
        subtype = s
      } else {
        throw ParameterError(
          "transition \(spec): '\(part)' is neither a subtype (fromLeft, fromRight, fromTop, fromBottom) nor NAME=VALUE"
        )
      }
    }
    var effect = head
    var builtIn = true
    var declared: [(String, TransitionUniformType)]
    if head.isEmpty {
      throw ParameterError(
        "transition '\(spec)': no effect named; give fade, push:fromRight, a built-in effect (layerkit list) "
          + "or a .glsl file")
    }
    if head.hasSuffix(".glsl") || head.contains("/") {
      let text = try shaderText(head, what: "transition \(spec)")
      let source = try GLTransitionSource(text: text, file: head)
      guard let gpu else { throw RenderError.gpuOnlyEffect(head) }
      effect = "shader:" + head
      builtIn = false
      try gpu.registerTransition(name: effect, source: source)
      declared = source.uniforms.map { ($0.name, $0.type) }
    } else {
      guard let builtInEffect = TransitionEffects.all[head] else {
        let names = TransitionEffects.all.keys.sorted()
        let near = names.min {
          editDistance($0.lowercased(), head.lowercased()) < editDistance($1.lowercased(), head.lowercased())
        }
        throw ParameterError(
          "transition \(spec): no built-in effect \(head)\(near.map { " (did you mean \($0)?)" } ?? ""); "
            + "there are: \(names.joined(separator: ", ")), or give a .glsl file")
      }
      declared = Array(zip(builtInEffect.parameters.map(\.name), builtInEffect.parameterTypes))
    }
    var parameters: [String: TransitionValue] = [:]
    if let subtype {
      guard declared.contains(where: { $0.0 == "direction" }) else {
        throw ParameterError("transition \(spec): \(head) has no direction, so no subtype")
      }
      parameters["direction"] = .vec2(TransitionEffects.direction(subtype))
    } else if ["moveIn", "push", "reveal"].contains(head) {
      parameters["direction"] = .vec2(TransitionEffects.direction(.fromLeft))
    }
    for (name, text) in assignments {
      parameters[name] = try parseParameter(name: name, text: text, declared: declared, effect: head)
    }
    // A user's shader was checked with its defaults when registered; with the values given too.
    if !builtIn, !assignments.isEmpty, let gpu {
      try gpu.checkTransition(name: effect, parameters: parameters, file: head)
    }
    return TimelineTransition(
      effect: effect, builtIn: builtIn, parameters: parameters, duration: duration, timing: timing, label: spec)
  }

  /// The text of a transition shader file, refused in one line naming `what` and the file when
  /// it is missing, not a regular file, larger than a shader may be, or not UTF-8 text.
  static func shaderText(_ path: String, what: String) throws -> String {
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
      size > GLRenderer.maxShaderSize
    {
      throw ParameterError("\(what): \(path) is \(size) bytes; a shader is at most \(GLRenderer.maxShaderSize)")
    }
    return try textFile(path, what: what, kind: "a shader")
  }

  /// Builds the timeline, the output and the pipeline, then renders, with progress, signals and
  /// a summary line.
  func render(
    items: [TimelineItem], transitions: [TimelineTransition], sources: [MediaSource], includesEnd: Bool,
    subtitles: Subtitles? = nil, overlays: [ImageOverlay] = [], levels: AudioMix.Levels = AudioMix.Levels()
  ) throws {
    let first = sources[0].size
    var width = options.size?.width ?? first.width
    var height = options.size?.height ?? first.height
    try OutputIdentity.refuse(output: options.output, inputs: sources.map(\.path) + [options.run.audio].compactMap { $0 })
    let target = try OutputTarget(path: options.output, format: options.encoder.format)
    try options.encoder.check(for: target.format)
    try Self.checkCarriesSound(options.run.audio, target)
    var plan = try OutputPlan(target: target, options: options.encoder.encoding)
    let (pictureWidth, pictureHeight) = (width, height)
    (width, height) = try Self.frameSize(plan, width: width, height: height, pad: options.pad)
    let background = options.encoder.background?.color ?? .clear
    var timeline = try Timeline(
      items: items, transitions: transitions, width: width, height: height, rate: try rate(for: sources),
      fit: options.fit, background: background, includesEnd: includesEnd, pictureWidth: pictureWidth,
      pictureHeight: pictureHeight)
    timeline.subtitles = subtitles
    timeline.overlays = overlays
    let total = timeline.frameCount
    let range = try selectedFrames(options.run.frames, options.run.shard, count: total)
    plan.options.part = options.run.partRecord(frames: range, of: total)
    if let music = options.run.audio, target.format.needsFFmpeg {
      try AudioMix.checkTrack(music)
    }
    if !options.noAudio {
      plan.options.audio = try Self.audio(for: target, frames: range, of: total, time: timeline.time(ofFrame:)) {
        try AudioMix.make(
          for: timeline, music: options.run.audio, musicFadeOut: options.run.audioFade, levels: levels, range: $0)
      }
    }
    // Secondary outputs are checked before anything is rendered, not found unwritable after.
    try options.run.checkOutputsDistinct(output: options.output, target: target)
    for secondary in [options.run.contactSheet, options.run.stats].compactMap({ $0 }) {
      try OutputIdentity.checkWritable(secondary)
    }
    let sheetFrames = options.run.contactSheet.map { _ in ContactSheet.frames(in: range, count: 12) } ?? []
    let renderer = self.renderer(for: transitions)
    let pipeline = try VideoPipeline(
      timeline: timeline, renderer: renderer, plan: plan, frames: range, keepFrames: Set(sheetFrames))
    try run(pipeline, frames: range.count, describe: "\(width)×\(height), \(timeline.rate) fps, \(renderer.name)")
    if let sheet = options.run.contactSheet {
      let images = sheetFrames.compactMap { k in pipeline.keptFrames[k].map { (timeline.time(ofFrame: k), $0) } }
      try ContactSheet.write(images, renderer: renderer, to: sheet)
      if !options.run.quiet { printError("contact sheet: \(sheet)") }
    }
  }

  /// Runs a pipeline with SIGINT/SIGTERM handling and a progress line.
  func run(_ pipeline: VideoPipeline, frames: Int, describe: String) throws {
    try VideoJob.run(pipeline, frames: frames, describe: describe, output: options.output, run: options.run)
  }

  /// Runs a pipeline with SIGINT/SIGTERM handling, a progress line on a terminal and, unless
  /// `quiet`, a summary line naming `output`; `--stats` writes the run's figures.
  static func run(_ pipeline: VideoPipeline, frames: Int, describe: String, output: String, run: VideoRunOptions)
    throws
  {
    let quiet = run.quiet
    // Weak: the watcher's handler is released by libdispatch on a worker thread, later; holding
    // the pipeline there would tear the GL renderer down on that thread while the main thread
    // exits (NVIDIA's driver crashes on it; found on an H100).
    let signals = SignalWatcher { [weak pipeline] signal in pipeline?.cancel(signal: signal) }
    defer { signals.stop() }
    let watchdog = FrameWatchdog(limit: run.frameTimeLimit) { [weak pipeline] error in
      pipeline?.cancel(error)
    }
    defer { watchdog.stop() }
    let progress = ProgressLine(total: frames, enabled: !quiet && isatty(2) != 0)
    let summary = try pipeline.run { done, total in
      watchdog.progressed(done)
      progress.update(done)
    }
    progress.clear()
    if !quiet {
      let size = summary.outputBytes.map { ", \(formatBytes($0))" } ?? ""
      let fps = String(format: "%.1f", summary.framesPerSecond)
      let seconds = String(format: "%.2f", summary.seconds)
      printError(
        "wrote \(summary.frames) frames (\(describe)) in \(seconds) s, \(fps) fps, to \(output)\(size)")
    }
    if let path = run.stats { try RunStats(summary).write(to: path) }
  }

}

/// Frame-sized buffers (megabytes each, made on one thread and freed on another) go straight to
/// mmap and back to the system when freed. glibc's default raises its mmap threshold to the
/// largest block freed, after which such buffers come from per-thread arenas that keep what they
/// once held: measured on a 1080p concat, the peak RSS fell from 1.86 GB to 0.98 GB.
func reserveLargeBuffersWithMmap() {
  _ = mallopt(M_MMAP_THRESHOLD, 256 << 10)
}

/// Reads a `--param`-style value against the effect's declared parameters.
func parseParameter(
  name: String, text: String, declared: [(String, TransitionUniformType)], effect: String
) throws -> TransitionValue {
  guard !name.isEmpty else { throw ParameterError("\(effect): '=\(text)' names no parameter; write NAME=VALUE") }
  guard let type = declared.first(where: { $0.0 == name })?.1 else {
    let known = declared.map(\.0)
    throw ParameterError(
      "\(effect) has no parameter \(name); it has: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
  }
  if type == .sampler2D {
    guard text.hasPrefix("@") else { throw ParameterError("\(name): expected @IMAGE-FILE for a sampler2D") }
    return .image(try ImageFile.read(URL(fileURLWithPath: String(text.dropFirst()))))
  }
  guard let value = TransitionValue(parsing: text, as: type) else {
    throw ParameterError("\(name): \(text) is not a \(type.rawValue)")
  }
  return value
}

/// Levenshtein distance, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  var row = Array(0...b.count)
  for i in 1...max(1, a.count) where !a.isEmpty {
    var previous = row[0]
    row[0] = i
    for j in 1...max(1, b.count) where !b.isEmpty {
      let old = row[j]
      row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
      previous = old
    }
  }
  return a.isEmpty ? b.count : row[b.count]
}


/// frames done / total, fps and ETA, rewritten in place on a terminal; nothing otherwise.
final class ProgressLine: @unchecked Sendable {
  let total: Int
  let enabled: Bool
  private let start = Date()
  private let last = Locked(Date.distantPast)

  init(total: Int, enabled: Bool) {
    self.total = total
    self.enabled = enabled
  }

  func update(_ done: Int) {
    guard enabled else { return }
    let now = Date()
    let due = last.withLock { last in
      guard now.timeIntervalSince(last) > 0.2 || done == total else { return false }
      last = now
      return true
    }
    guard due else { return }
    let elapsed = now.timeIntervalSince(start)
    let fps = elapsed > 0 ? Double(done) / elapsed : 0
    let eta = fps > 0 ? Double(total - done) / fps : 0
    let line = String(format: "\rframe %d/%d  %.1f fps  ETA %.0f s ", done, total, fps, eta)
    FileHandle.standardError.write(Data(line.utf8))
  }

  func clear() {
    guard enabled else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}

func formatBytes(_ n: Int64) -> String {
  if n >= 1 << 20 { return String(format: "%.1f MiB", Double(n) / Double(1 << 20)) }
  if n >= 1 << 10 { return String(format: "%.1f KiB", Double(n) / 1024) }
  return "\(n) bytes"
}

/// Runs a command body: one line on standard error for any failure, exit 1, or 128 + the signal
/// for an interrupted render.
func reportingErrors(_ command: String, _ body: () throws -> Void) throws {
  do {
    try body()
  } catch let error as ValidationError {
    throw error
  } catch let error as ExitCode {
    throw error
  } catch let error as VideoError {
    printError("layerkit \(command): \(commandLineMessage(error))")
    guard case .interrupted(let signal, _, _) = error else { throw ExitCode(1) }
    throw ExitCode(128 + signal)
  } catch {
    // A Foundation file error is told in plain words, never as its domain, code and user info.
    printError("layerkit \(command): \(commandLineMessage(error))")
    throw ExitCode(1)
  }
}

/// `--stats FILE`: a render's figures as JSON, for the benchmark and for people asking where the
/// time went.
struct RunStats: Codable {
  var frames: Int
  var seconds: Double
  var framesPerSecond: Double
  var stages: VideoPipeline.Stages
  /// CPU seconds over (wall seconds × processors).
  var occupancy: Double

  init(_ summary: VideoPipeline.Summary) {
    frames = summary.frames
    seconds = summary.seconds
    framesPerSecond = summary.framesPerSecond
    stages = summary.stages
    occupancy = summary.stages.occupancy(over: summary.seconds)
  }

  func write(to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
      try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      // Foundation's error text names its own domain and codes; the reason is its POSIX one.
      let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
      throw VideoError.unwritableOutput(
        path: path, reason: code.map { String(cString: strerror(Int32($0))) } ?? "the stats file could not be written")
    }
  }
}
