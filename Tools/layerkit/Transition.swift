import ArgumentParser
import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitVideo

/// `layerkit transition FROM TO -o OUT`: one transition between two images or clips.
struct TransitionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "transition",
    abstract: "Render a transition between two images or clips to a video or to PNG frames.",
    discussion: """
      Frames are rendered for t = 0, 1/fps, … duration (inclusive): the first shows FROM, the \
      last TO. A clip as FROM plays its last `duration` seconds, a clip as TO its first. Inputs \
      of another size than the output are fitted (--fit), not rejected.

      Examples:
        layerkit transition a.jpg b.jpg --type push --subtype fromRight --duration 1 -o push.mp4
        layerkit transition a.jpg b.jpg --filter ripple --param scale=0.15 -o frames/
        layerkit transition a.mp4 b.mp4 --shader my_effect.glsl -o out.webm
      """)

  @Argument(help: "What is shown at progress 0: an image (PNG, JPEG) or a clip.") var from: String
  @Argument(help: "What is shown at progress 1: an image or a clip.") var to: String
  @Option(help: "fade, moveIn, push or reveal.") var type: TransitionType = .fade
  @Option(help: "A built-in effect by name (see `layerkit list`); type and subtype are then ignored.")
  var filter: String?
  @Option(help: "A transition shader in the gl-transitions GLSL form, loaded unmodified (GPU only).")
  var shader: String?
  @Option(name: .customLong("param"), help: "NAME=VALUE for an effect parameter, e.g. direction=0,1 (repeatable).")
  var params: [String] = []
  @Option(help: "fromLeft, fromRight, fromTop or fromBottom (not for fade).") var subtype: TransitionSubtype = .fromLeft
  @Option(parsing: .unconditional, help: "Where the effect starts, 0…1.") var startProgress: Double = 0
  @Option(parsing: .unconditional, help: "Where the effect ends, startProgress…1.") var endProgress: Double = 1
  @Option(parsing: .unconditional, help: "Seconds.") var duration: Double = 1
  @OptionGroup var video: VideoOptions

  func validate() throws {
    try checkNamed([from, to], "an input")
    try checkNamed([shader], "--shader")
    try checkRange(startProgress, "--start-progress", 0...1)
    try checkRange(endProgress, "--end-progress", 0...1)
    guard endProgress >= startProgress else {
      throw ValidationError(
        "--end-progress \(endProgress) is before --start-progress \(startProgress): the end must be ≥ the start")
    }
    try checkRange(duration, "--duration", 0.001...Limits.maxSeconds, unit: "seconds")
    if case .failure(let problem) = Limits.frameCount(seconds: duration, fps: video.fps ?? 30, name: "--duration") {
      throw ValidationError(problem.description)
    }
    guard filter == nil || shader == nil else { throw ValidationError("use --filter or --shader, not both") }
    for p in params where !p.contains("=") { throw ValidationError("--param \(p): expected NAME=VALUE") }
  }

  func run() throws {
    try reportingErrors("transition") {
      let job = try VideoJob(options: video, command: "transition")
      let sources = try VideoRender.open([from, to])
      // The effect as a typed spec, read as every command reads effects and parameters.
      var spec = TransitionSpec(
        effect: shader ?? filter ?? type.rawValue,
        subtype: shader == nil && filter == nil && type != .fade ? subtype : nil)
      for p in params {
        let (name, value) = (String(p.prefix { $0 != "=" }), String(p.drop { $0 != "=" }.dropFirst()))
        guard !name.isEmpty else { throw TransitionError.unnamedParameter(effect: spec.effect, text: value) }
        spec.parameters[name] = Edit.Transition.Param(text: value)
      }
      var random = SeededRandom(seed: 1)
      var transition = try job.transition(spec, duration: duration, random: &random)
      transition.startProgress = startProgress
      transition.endProgress = endProgress
      transition.label = shader ?? filter ?? type.rawValue
      // FROM's last `duration` seconds over TO's first.
      let a = TimelineItem(
        source: sources[0], inPoint: max(0, (sources[0].duration ?? duration) - duration), duration: duration)
      if let length = sources[0].duration, length < duration {
        throw VideoError.itemTooShort(item: from, duration: length, needed: duration)
      }
      if let length = sources[1].duration, length < duration {
        throw VideoError.itemTooShort(item: to, duration: length, needed: duration)
      }
      let b = TimelineItem(source: sources[1], duration: duration)
      let played = PlayedEdit(
        items: [a, b], transitions: [transition], tracks: video.run.tracks, clipAudio: !video.noAudio)
      try job.render(played, sources: sources, includesEnd: true)
    }
  }
}

/// A bad effect name or parameter, in one line.
struct ParameterError: Error, CustomStringConvertible {
  let description: String
  init(_ d: String) { description = d }
}

extension TransitionType: ExpressibleByArgument {}
extension TransitionSubtype: ExpressibleByArgument {}
extension MediaTimingFunction.Name: ExpressibleByArgument {
  /// One of Core Animation's five names; another is refused (the type takes any string).
  public init?(argument: String) {
    guard let name = Self.allCases.first(where: { $0.rawValue == argument }) else { return nil }
    self = name
  }
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// `layerkit list`: every built-in effect with its parameters and defaults.
struct List: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List the built-in transition effects and their parameters.")

  @Option(help: "List the parameters and defaults of this gl-transitions-form shader instead.")
  var shader: String?

  func run() throws {
    if let shader {
      do {
        let text = try TransitionSpec.shaderText(shader, what: "--shader")
        let source = try GLTransitionSource(text: text, file: shader)
        let params = source.uniforms.map { u in "\(u.name) = \(u.default.map(describe) ?? "(no default)")" }
        print(params.isEmpty ? shader : "\(shader): \(params.joined(separator: ", "))")
      } catch {
        printError("layerkit list: \(commandLineMessage(error))")
        throw ExitCode(1)
      }
      return
    }
    for name in TransitionEffects.all.keys.sorted() {
      let effect = TransitionEffects.all[name]!
      let params = effect.parameters.map { "\($0.name) = \($0.default.map(describe) ?? "(image)")" }
      print(params.isEmpty ? name : "\(name): \(params.joined(separator: ", "))")
    }
  }

  func describe(_ v: TransitionValue) -> String {
    switch v {
    case .float(let f): "\(f)"
    case .int(let i): "\(i)"
    case .bool(let b): "\(b)"
    case .vec2(let v): "vec2(\(v.x), \(v.y))"
    case .vec3(let v): "vec3(\(v.x), \(v.y), \(v.z))"
    case .vec4(let v): "vec4(\(v.x), \(v.y), \(v.z), \(v.w))"
    case .ivec2(let v): "ivec2(\(v.x), \(v.y))"
    case .image(let image): "image \(image.width)×\(image.height)"
    }
  }
}
