import ArgumentParser
import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitScene
import LayerKitVideo

/// `layerkit present A.json B.json … --transition sheet -o OUT`: scene files presented over one
/// another, navigation-style, with scene transitions (ScenePresentation).
struct Present: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Present scene files over one another with scene transitions (push forward, pop backward) as a video.",
    discussion: """
      The first scene file is shown, then each step: a push presents the next scene file with the \
      transition (forward), a pop dismisses the top one with the transition it came with \
      (backward). Forward (the default) starts with the first scene and pushes the others; \
      backward starts with every scene stacked and pops them; --sequence gives the steps. Every \
      scene plays at its own time from when it first shows. The video is --hold seconds before, \
      between and after the steps, plus the transitions; its size and rate are the first scene's.
      TRANSITION is sheet (a sheet rising over a dimmed scene), slide (navigation's push), fade, \
      or a SPEC as the video commands take it (push:fromRight, pageCurl, ripple:scale=30, a .glsl \
      file on the GPU), played backwards going backward.
      Examples:
        layerkit present examples/scenes/app-home.json examples/scenes/app-detail.json --sequence push,pop -o app.mp4
        layerkit present a.json b.json c.json --transition slide --sequence push,push,pop,pop -o nav.mp4
        layerkit present a.json b.json --transition pageCurl --direction backward -o curl.mp4
      """)

  @Argument(help: "Scene files (JSON, docs/SCENE_FILES.md), in the order pushes present them.") var scenes: [String]
  @Option(help: "sheet, slide, fade, or a SPEC (push:fromRight, pageCurl, a .glsl file).") var transition = "sheet"
  @Option(help: "forward (present) or backward (dismiss).") var direction: TransitionDirection = .forward
  @Option(help: "The steps, comma-separated: push and pop (default: one per extra scene, in --direction).")
  var sequence: String?
  @Option(
    parsing: .unconditional,
    help: "Seconds each transition lasts (default: the transition's own, 0.35 s; sheet 0.45 s).")
  var duration: Double?
  @Option(parsing: .unconditional, help: "Seconds before, between and after the steps.") var hold: Double = 1
  @Option(
    name: .shortAndLong,
    help: "Output: a .mp4/.webm/.gif/.webp/.apng/.mov/.mkv/.y4m file, a folder/ for PNG frames, or -.")
  var output: String
  @Option(
    help:
      "gpu, cpu, or auto: the GPU, but the CPU on a software rasterizer when the scenes and --transition run transitions and every one is fade/dissolve/moveIn/push/reveal."
  )
  var renderer: BackendChoice = .auto
  @OptionGroup var video: VideoRunOptions
  @OptionGroup var encoder: EncodingArguments

  func validate() throws {
    try checkNamed(scenes, "a scene file")
    guard scenes.count >= 2 else { throw ValidationError("give at least two scene files to present one over another") }
    try checkRange(duration, "--duration", 0.001...Limits.maxSeconds, unit: "seconds")
    try checkRange(hold, "--hold", 0...Limits.maxSeconds, unit: "seconds")
    _ = try steps()
  }

  /// The steps: --sequence, or one push (forward) or pop (backward) per extra scene.
  func steps() throws -> [ScenePresentation.Step] {
    guard let sequence else {
      return Array(repeating: direction == .forward ? .push : .pop, count: scenes.count - 1)
    }
    return try sequence.split(separator: ",").map { word in
      guard let step = ScenePresentation.Step(rawValue: word.trimmingCharacters(in: .whitespaces)) else {
        throw ValidationError("--sequence: '\(word)' is not a step; steps are push and pop, comma-separated")
      }
      return step
    }
  }

  func run() throws {
    try reportingErrors("present") {
      reserveLargeBuffersWithMmap()
      try OutputIdentity.refuse(output: output, inputs: scenes)
      let target = try OutputTarget(path: output, format: encoder.format)
      try encoder.check(for: target.format)
      var loaded: [LoadedScene] = []
      for path in scenes {
        do {
          loaded.append(try SceneFile.load(URL(fileURLWithPath: path)))
        } catch let error as SceneFileError {
          throw ParameterError(error.namesTheFile ? "\(error)" : "\(path): \(error)")
        }
      }
      defer { for scene in loaded { scene.stopClips() } }
      let backends = try VideoJob.makeBackends(self.renderer, command: "present", quiet: video.quiet)
      let (make, effect) = try sceneTransition(shaders: backends.shaders)
      let effects = loaded.reduce(into: Set(effect.map { [$0] } ?? [])) { $0.formUnion($1.transitionEffects) }
      let renderer = backends.renderer(forEffects: effects)
      let presentation: ScenePresentation
      do {
        presentation = try ScenePresentation(
          scenes: loaded, initialDepth: direction == .forward ? 1 : loaded.count, steps: try steps(),
          transition: { _ in make() }, hold: hold, stepsName: "--sequence")
      } catch let error as SceneFileError {
        throw ValidationError(error.description)
      }
      let settings = presentation.settings
      let fps = settings.fps
      let count: Int
      switch Limits.frameCount(seconds: presentation.duration, fps: fps, name: "the presentation") {
      case .success(let n): count = n
      case .failure(let problem): throw problem
      }
      let source = SceneFrameSource(
        width: settings.width, height: settings.height, rate: try FrameRate(fps), frameCount: count,
        renderer: renderer, time: { Double($0) / fps }, stop: { for scene in loaded { scene.stopClips() } }
      ) { t in try presentation.renderList(at: t) }
      _ = try OutputPlan.frameSize(
        target: target, options: encoder.encoding, width: settings.width, height: settings.height, pad: false)
      let render = try VideoRender(
        frames: source, width: settings.width, height: settings.height, fps: fps, frameCount: count,
        renderer: renderer, output: target, encoding: encoder.encoding, settings: video.settings,
        tracks: video.tracks)
      try VideoJob.run(render, target: target, run: video, output: output)
      // A participant that never said it ended is named (the built-ins always end).
      let unfinished = presentation.unfinishedParticipants
      if !unfinished.isEmpty {
        printError("layerkit present: never ended: \(unfinished.joined(separator: ", "))")
      }
    }
  }

  /// A maker of the scene transition --transition names (one object per scene that is pushed), and
  /// the transition effect it runs, if any.
  func sceneTransition(shaders: (any TransitionShaderHost)?) throws -> (() -> SceneTransition, String?) {
    let d = duration
    switch transition {
    case "sheet": return ({ SheetSceneTransition(duration: d ?? 0.45) }, nil)
    case "slide": return ({ SlideSceneTransition(duration: d ?? SceneTransitionContext.defaultDuration) }, nil)
    case "fade": return ({ FadeSceneTransition(duration: d ?? SceneTransitionContext.defaultDuration) }, nil)
    default:
      var random = SeededRandom(seed: 0)
      let spec = try TransitionSpec(parsing: transition).resolve(
        duration: d ?? SceneTransitionContext.defaultDuration, timing: MediaTimingFunction(name: .easeInEaseOut),
        shaders: shaders, random: &random)
      let make = {
        EffectSceneTransition(
          filter: EffectTransitionFilter(spec.effect, parameters: spec.parameters), duration: spec.duration,
          timing: spec.timing) as SceneTransition
      }
      return (make, spec.effect)
    }
  }
}

extension TransitionDirection: ExpressibleByArgument {}
