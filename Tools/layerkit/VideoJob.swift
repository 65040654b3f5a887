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

/// What the video commands (transition, slideshow, concat, edit) share around the library's
/// render entry (`VideoRender`): the backends `--renderer` names, the settings the flags make,
/// and running the render with signals, progress, a summary and the secondary outputs.
struct VideoJob {
  let options: VideoOptions
  let command: String
  /// The backends `--renderer` names (for auto: the GPU when an EGL display can be made).
  let backends: RenderBackends

  init(options: VideoOptions, command: String) throws {
    reserveLargeBuffersWithMmap()
    self.options = options
    self.command = command
    backends = try VideoJob.makeBackends(options.renderer, command: command, quiet: options.run.quiet)
  }

  /// The GPU, when there is one: the backend that loads `.glsl` files.
  var gpu: GLRenderer? { backends.shaders as? GLRenderer }

  /// The render settings the flags make (`--size`, `--fps`, `--fit`, `--pad`, `--timing`,
  /// `--frames`/`--shard`, `--smart`, `--contact-sheet`, `--background`).
  func settings(editly: Bool = false, includesEnd: Bool = false) -> RenderSettings {
    var settings = options.run.settings
    settings.width = options.size?.width
    settings.height = options.size?.height
    settings.fps = options.fps
    settings.fit = options.fit
    settings.pad = options.pad
    settings.timing = options.timing
    settings.smart = options.smart
    settings.background = options.encoder.background?.color ?? .clear
    settings.editly = editly
    settings.includesEnd = includesEnd
    return settings
  }

  /// Whether the render may copy its clips' packets (a smart render's MP4): they are read for
  /// it as they are opened.
  var copiesPackets: Bool {
    options.smart != .off && (try? OutputTarget(path: options.output, format: options.encoder.format))?.format == .mp4
  }

  /// The output the flags name, and how it is encoded.
  func output() throws -> (OutputTarget, EncodingOptions) {
    let target = try OutputTarget(path: options.output, format: options.encoder.format)
    try options.encoder.check(for: target.format)
    return (target, options.encoder.encoding)
  }

  /// Renders `edit` through the library's entry, with progress, signals and a summary line.
  /// - Parameter encoding: the encoding, where it is not the flags' alone (an edit file's say).
  func render(_ edit: Edit, sources: [String: MediaSource], editly: Bool = false, encoding: EncodingOptions? = nil)
    throws
  {
    // An output naming an input is refused before its name is read as a format.
    try OutputIdentity.refuse(output: options.output, inputs: Array(sources.keys))
    let (target, given) = try output()
    let render = try VideoRender(
      edit: edit, output: target, encoding: encoding ?? given, settings: settings(editly: editly), backends: backends,
      sources: sources)
    try Self.run(render, target: target, run: options.run, output: options.output)
  }

  /// Renders an edit already played (the `transition` command's two items).
  func render(_ played: PlayedEdit, sources: [MediaSource], includesEnd: Bool) throws {
    try OutputIdentity.refuse(output: options.output, inputs: sources.map(\.path))
    let (target, encoding) = try output()
    let render = try VideoRender(
      played: played, sources: sources, output: target, encoding: encoding,
      settings: settings(includesEnd: includesEnd), backends: backends)
    try Self.run(render, target: target, run: options.run, output: options.output)
  }

  /// Runs a planned render: its secondary outputs checked first, then the frames with the
  /// video commands' progress, signals and summary, then the contact sheet `run` asks for.
  static func run(_ render: VideoRender, target: OutputTarget, run: VideoRunOptions, output: String) throws {
    // Secondary outputs are checked before anything is rendered, not found unwritable after.
    try run.checkOutputsDistinct(output: output, target: target)
    for secondary in [run.contactSheet, run.stats].compactMap({ $0 }) {
      try OutputIdentity.checkWritable(secondary)
    }
    try Self.run(
      render, frames: render.frames.count, describe: render.description, output: output, run: run,
      note: render.note)
    if let sheet = run.contactSheet {
      try ContactSheet.write(render.keptFrames, renderer: render.renderer, to: sheet)
      if !run.quiet { printError("contact sheet: \(sheet)") }
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

  /// `--frames` or `--shard`, else every frame.
  var selection: FrameSelection {
    if let f = frames { return .range(f.lower, f.upper) }
    if let s = shard { return .shard(s.index, of: s.count) }
    return .all
  }

  /// What these options set of a render: the frames, the contact sheet's, the frame time limit,
  /// and the words that identify a partial render's plan.
  var settings: RenderSettings {
    var settings = RenderSettings()
    settings.frames = selection
    settings.contactSheetFrames = contactSheet == nil ? 0 : 12
    settings.frameTimeLimit = frameTimeLimit
    settings.planWords = selection.isPartial ? planArguments(Array(CommandLine.arguments.dropFirst())) : []
    return settings
  }
}

/// Frame-sized buffers (megabytes each, made on one thread and freed on another) go straight to
/// mmap and back to the system when freed. glibc's default raises its mmap threshold to the
/// largest block freed, after which such buffers come from per-thread arenas that keep what they
/// once held: measured on a 1080p concat, the peak RSS fell from 1.86 GB to 0.98 GB.
func reserveLargeBuffersWithMmap() {
  _ = mallopt(M_MMAP_THRESHOLD, 256 << 10)
}
