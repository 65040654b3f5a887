import ArgumentParser
import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitSamples
import LayerKitScene
import LayerKitVideo

/// `layerkit render SCENE.json -o OUT`: a scene file to a video, PNG frames or one PNG;
/// `layerkit render --sample -o out.png`: the sample scene to a PNG.
struct Render: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render a scene file to a video or PNG frames, or the sample layer tree to a PNG.",
    discussion: """
      A scene file (docs/SCENE_FILES.md) gives the size, the frame rate and the duration: frame k \
      shows the scene at k / fps, for round(duration × fps) frames. Outputs and encoding options \
      are those of the video commands (`layerkit slideshow --help`). --time T with a .png output \
      writes the one frame at T seconds.

      Examples:
        layerkit render examples/scenes/slideshow.json -o slideshow.mp4
        layerkit render examples/scenes/filters.json -o frames/ --renderer cpu --frames 0..30
        layerkit render examples/scenes/composition.json --time 1.5 -o still.png
        layerkit render --sample -o sample.png --renderer gpu --size 1920x1080
      """)

  @Argument(help: "A scene file (JSON, docs/SCENE_FILES.md).") var scene: String?
  @Flag(help: "Render the built-in sample scene (ten layers: 3D cards, clipping, group opacity) to a PNG.")
  var sample = false
  @Flag(help: "With --sample: add effects (a 20-point shadow, a 10-point blur, a frosted panel).")
  var effects = false
  @Option(
    name: .shortAndLong,
    help:
      "Output: a .mp4/.webm/.gif/.webp/.apng/.mov/.mkv/.y4m file, a folder/ for PNG frames, - (Y4M on standard output), or a .png with --time or --sample."
  )
  var output: String
  @Option(
    help:
      "gpu (headless EGL + OpenGL ES 3), cpu (the reference renderer), or auto (scene files only): the GPU, but the CPU on a software rasterizer for scenes that run transitions, every one fade/dissolve/moveIn/push/reveal. Default: auto for scene files, gpu for --sample."
  )
  var renderer: BackendChoice?
  @Option(
    parsing: .unconditional,
    help:
      "Output size WIDTHxHEIGHT: for a scene file its size times one scale, to within a pixel (the same aspect); for --sample default 1280x720."
  )
  var size: PixelSize?
  @Option(parsing: .unconditional, help: "Frames per second instead of the scene file's (the motion keeps its pace).")
  var fps: Double?
  @Option(parsing: .unconditional, help: "Write the one frame at this scene time (seconds) to the .png output.")
  var time: Double?
  @OptionGroup var video: VideoRunOptions
  @Flag(help: "No audio: drop the scene's clips' sound.") var noAudio = false
  @Flag(help: "Pad an odd size to even with the scene's background instead of refusing it (4:2:0).") var pad = false
  @OptionGroup var encoder: EncodingArguments

  func validate() throws {
    try checkNamed([scene], "the scene file")
    if sample {
      guard scene == nil else { throw ValidationError("give a scene file or --sample, not both") }
      let videoOnly: [(String, Bool)] = [
        ("--fps", fps != nil), ("--time", time != nil), ("--frames", video.frames != nil),
        ("--shard", video.shard != nil), ("--contact-sheet", video.contactSheet != nil), ("--pad", pad),
        ("--format", encoder.format != nil), ("--audio", !video.audio.isEmpty),
      ]
      if let (name, _) = videoOnly.first(where: { $0.1 }) {
        throw ValidationError("\(name) is for scene files; --sample writes one PNG")
      }
      guard renderer != .auto else { throw ValidationError("--sample takes --renderer gpu or cpu") }
      guard (output as NSString).pathExtension.lowercased() == "png" else {
        throw ValidationError("--sample writes one PNG; -o \(output) is not a .png file")
      }
      try checkSize(size)
      try encoder.check(for: .png)
      return
    }
    if noAudio && !video.audio.isEmpty { throw ValidationError("use --audio or --no-audio, not both") }
    guard scene != nil else {
      throw ValidationError("nothing to render: give a scene file (layerkit render SCENE.json -o OUT) or --sample")
    }
    try checkRange(fps, "--fps", Limits.framesPerSecond)
    try checkSize(size)
    if let time {
      guard time.isFinite, time >= 0 else { throw ValidationError("--time must be a number of seconds ≥ 0") }
      guard (output as NSString).pathExtension.lowercased() == "png" else {
        throw ValidationError("--time writes one frame to a .png file; -o \(output) is not one")
      }
      let videoOnly: [(String, Bool)] = [
        ("--fps", fps != nil), ("--frames", video.frames != nil), ("--shard", video.shard != nil),
        ("--contact-sheet", video.contactSheet != nil), ("--format", encoder.format != nil),
        ("--audio", !video.audio.isEmpty),
      ]
      if let (name, _) = videoOnly.first(where: { $0.1 }) {
        throw ValidationError("\(name) is for videos, not for the one frame --time writes")
      }
    } else if (output as NSString).pathExtension.lowercased() == "png" && encoder.format == nil {
      throw ValidationError(
        "-o \(output): a .png file holds one frame: give --time SECONDS, or a folder/ for every frame")
    }
  }

  func run() throws {
    if let scene {
      try reportingErrors("render") {
        do {
          try render(scene: scene)
        } catch let error as SceneFileError where !error.namesTheFile {
          // The error names the value's place in the document; this names the document.
          throw ParameterError("\(scene): \(error)")
        } catch let error as RenderError {
          // A layer's value beyond the limits, found as the frame is built: named by the layer.
          throw ParameterError("\(scene): \(error)")
        }
      }
      return
    }
    do {
      let size = size ?? PixelSize(argument: "1280x720")!
      let (w, h) = (Double(size.width), Double(size.height))
      let tree = try effects ? SampleScene.effects(width: w, height: h) : SampleScene.cards(width: w, height: h)
      let backend: Renderer = renderer == .cpu ? ReferenceRenderer() : try GLRenderer()
      let start = DispatchTime.now()
      let image = try backend.render(tree, width: size.width, height: size.height)
      let ms = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
      try ImageFile.writePNG(image, to: URL(fileURLWithPath: output))
      print("wrote \(output) (\(size.width)×\(size.height), \(backend.name), \(String(format: "%.1f", ms)) ms)")
    } catch {
      printError("layerkit render: \(commandLineMessage(error))")
      throw ExitCode(1)
    }
  }

  /// The scene file's frames to the output, through the video pipeline (or one frame, --time).
  func render(scene path: String) throws {
    reserveLargeBuffersWithMmap()
    // The output is checked before the scene is loaded and anything rendered.
    let target = time == nil ? try OutputTarget(path: output, format: encoder.format) : nil
    try encoder.check(for: target?.format ?? .png)
    try OutputIdentity.refuse(output: output, inputs: [path])
    let loaded = try SceneFile.load(URL(fileURLWithPath: path))
    defer { loaded.stopClips() }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    try OutputIdentity.refuse(
      output: output,
      inputs: loaded.media.map { $0.path.hasPrefix("/") ? $0.path : folder.appendingPathComponent($0.path).path })
    let settings = loaded.settings
    let scale = try self.scale(for: settings)
    let backends = try VideoJob.makeBackends(self.renderer ?? .auto, command: "render", quiet: video.quiet)
    let renderer = backends.renderer(forEffects: loaded.transitionEffects)
    var width = size?.width ?? settings.width
    var height = size?.height ?? settings.height

    if let time {
      let start = DispatchTime.now()
      let list = try RenderList(
        layer: loaded.presentation(at: time), width: width, height: height, scale: scale,
        background: settings.background)
      let image = try renderer.render(list)
      let ms = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
      try ImageFile.writePNG(image, to: URL(fileURLWithPath: output))
      if !video.quiet {
        printError(
          "wrote \(output) (\(width)×\(height), t = \(time) s, \(renderer.name), \(String(format: "%.1f", ms)) ms)")
      }
      return
    }
    guard let target else { return }
    (width, height) = try OutputPlan.frameSize(
      target: target, options: encoder.encoding, width: width, height: height, pad: pad)
    let fps = self.fps ?? settings.fps
    let count: Int
    switch Limits.frameCount(seconds: settings.duration, fps: fps, name: "the scene's duration") {
    case .success(let n): count = n
    case .failure(let problem): throw ValidationError("--fps \(Limits.format(fps)): \(problem)")
    }
    // The scene is laid out at its own size (times the scale) from the top-left corner; --pad adds
    // a row or column of its background.
    let source = SceneFrameSource(
      width: width, height: height, rate: try FrameRate(fps), frameCount: count, renderer: renderer,
      time: { Double($0) / fps }, stop: { loaded.stopClips() }
    ) { [width, height] t in
      try RenderList(
        layer: loaded.presentation(at: t), width: width, height: height, scale: scale,
        background: settings.background)
    }
    let render = try VideoRender(
      frames: source, width: width, height: height, fps: fps, frameCount: count, renderer: renderer,
      output: target, encoding: encoder.encoding, settings: video.settings,
      sounds: noAudio ? [] : loaded.sounds, tracks: video.tracks, what: "the scene")
    try VideoJob.run(render, target: target, run: video, output: output)
  }

  /// Pixels per point: 1, or what --size asks for when it is the scene's size times one scale to
  /// within a pixel (480×270 at 0.5 is 240x135, or 240x136 with a row of background below, an
  /// even size for 4:2:0).
  func scale(for settings: SceneSettings) throws -> Double {
    guard let size else { return 1 }
    let (w, h) = (Double(settings.width), Double(settings.height))
    let byWidth = Double(size.width) / w
    let byHeight = Double(size.height) / h
    if abs(h * byWidth - Double(size.height)) <= 1 { return min(byWidth, byHeight) }
    if abs(w * byHeight - Double(size.width)) <= 1 { return min(byWidth, byHeight) }
    let nearest = "\(size.width)x\(Int((h * byWidth).rounded()))"
    throw ValidationError(
      "--size \(size.width)x\(size.height) does not keep the scene's aspect (\(settings.width)×\(settings.height)); "
        + "give the scene's size times one scale, such as \(nearest)")
  }

}

extension SceneFileError {
  /// Whether the message names the file already (it could not be read, or is not JSON); the
  /// others name a place in the document ("layers[2].opacity", "the document"), and the command
  /// names the file before them.
  var namesTheFile: Bool {
    switch self {
    case .unreadable, .invalidJSON: true
    default: false
    }
  }
}
