import ArgumentParser
import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference

/// `layerkit transition FROM TO -o frames/`: numbered PNG frames of a transition between two
/// images.
struct TransitionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "transition",
    abstract: "Render a transition between two images to numbered PNG frames.",
    discussion: """
      Frames are written as frame_00000.png, frame_00001.png, … for t = 0, 1/fps, … duration \
      (inclusive). Images of another size than the output are fitted (--fit), not rejected.
      """)

  @Argument(help: "The image shown at progress 0 (PNG or JPEG).") var from: String
  @Argument(help: "The image shown at progress 1 (PNG or JPEG).") var to: String
  @Option(help: "fade, moveIn, push or reveal.") var type: TransitionType = .fade
  @Option(help: "A built-in effect by name (see `layerkit list`); type and subtype are then ignored.")
  var filter: String?
  @Option(help: "A transition shader in the gl-transitions GLSL form, loaded unmodified (GPU only).")
  var shader: String?
  @Option(name: .customLong("param"), help: "NAME=VALUE for an effect parameter, e.g. direction=0,1 (repeatable).")
  var params: [String] = []
  @Option(help: "fromLeft, fromRight, fromTop or fromBottom (not for fade).") var subtype: TransitionSubtype = .fromLeft
  @Option(help: "Where the effect starts, 0…1.") var startProgress: Double = 0
  @Option(help: "Where the effect ends, startProgress…1.") var endProgress: Double = 1
  @Option(help: "linear, easeIn, easeOut, easeInEaseOut or default.") var timing: MediaTimingFunction.Name = .linear
  @Option(help: "Seconds.") var duration: Double = 1
  @Option(help: "Frames per second.") var fps: Double = 30
  @Option(help: "Output size WIDTHxHEIGHT (default: the FROM image's size).") var size: PixelSize?
  @Option(help: "cover, contain or stretch: how images of another aspect fill the frame.") var fit: Fit = .cover
  @Option(help: "gpu (headless EGL) or cpu.") var renderer: Backend = .gpu
  @Option(name: .shortAndLong, help: "The folder for the frames (created if missing).") var output: String

  enum Fit: String, ExpressibleByArgument, CaseIterable {
    case cover, contain, stretch
  }

  func validate() throws {
    guard (0...1).contains(startProgress), (0...1).contains(endProgress), endProgress >= startProgress else {
      throw ValidationError("--start-progress and --end-progress must lie in 0…1, end ≥ start")
    }
    guard duration.isFinite, duration > 0 else { throw ValidationError("--duration must be a positive number") }
    guard fps.isFinite, fps > 0, duration * fps <= 100_000 else {
      throw ValidationError("--fps must be positive, and duration × fps at most 100000 frames")
    }
    guard filter == nil || shader == nil else { throw ValidationError("use --filter or --shader, not both") }
    for p in params where !p.contains("=") { throw ValidationError("--param \(p): expected NAME=VALUE") }
  }

  func run() throws {
    do {
      let a = try ImageFile.read(URL(fileURLWithPath: from))
      let b = try ImageFile.read(URL(fileURLWithPath: to))
      let (w, h) = (size?.width ?? a.width, size?.height ?? a.height)
      let gpu = renderer == .gpu ? try GLRenderer() : nil
      let backend: Renderer = gpu ?? ReferenceRenderer()
      // The effect and the types of its parameters.
      let effect: String
      var declared: [(String, TransitionUniformType)]
      var parameters: [String: TransitionValue] = [:]
      if let shader {
        guard let gpu else { throw RenderError.gpuOnlyEffect(shader) }
        effect = "shader"
        let source = try gpu.registerTransition(name: effect, file: URL(fileURLWithPath: shader))
        declared = source.uniforms.map { ($0.name, $0.type) }
      } else {
        effect = filter ?? type.rawValue
        guard let builtIn = TransitionEffects.all[effect] else {
          throw ParameterError(
            "no built-in effect \(effect); there are: \(TransitionEffects.all.keys.sorted().joined(separator: ", "))")
        }
        declared = Array(zip(builtIn.parameters.map(\.name), builtIn.parameterTypes))
        if filter == nil && type != .fade { parameters["direction"] = .vec2(TransitionEffects.direction(subtype)) }
      }
      for p in params {
        let name = String(p[..<p.firstIndex(of: "=")!])
        let text = String(p[p.index(after: p.firstIndex(of: "=")!)...])
        guard let type = declared.first(where: { $0.0 == name })?.1 else {
          let known = declared.map(\.0)
          throw ParameterError(
            "\(effect) has no parameter \(name); it has: \(known.isEmpty ? "none" : known.joined(separator: ", "))")
        }
        if type == .sampler2D {
          // An extra texture: --param NAME=@image.png
          guard text.hasPrefix("@") else {
            throw ParameterError("--param \(name): expected @IMAGE-FILE for a sampler2D")
          }
          parameters[name] = .image(try ImageFile.read(URL(fileURLWithPath: String(text.dropFirst()))))
          continue
        }
        guard let value = TransitionValue(parsing: text, as: type) else {
          throw ParameterError("--param \(name): \(text) is not a \(type.rawValue)")
        }
        parameters[name] = value
      }
      let folder = URL(fileURLWithPath: output, isDirectory: true)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let function = MediaTimingFunction(name: timing)
      let count = Int((duration * fps).rounded(.down)) + 1
      for i in 0..<count {
        let t = min(Double(i) / fps / duration, 1)
        let progress = startProgress + (endProgress - startProgress) * function.value(at: t)
        let list = try RenderList(
          transitionFrom: picture(a, w, h), to: picture(b, w, h), width: w, height: h, effect: effect,
          parameters: parameters, progress: progress, builtIn: shader == nil)
        let image = try backend.render(list)
        let name = String(format: "frame_%05d.png", i)
        try ImageFile.writePNG(image, to: folder.appendingPathComponent(name))
      }
      print("wrote \(count) frames (\(w)×\(h), \(shader ?? effect), \(backend.name)) to \(output)")
    } catch {
      printError("layerkit transition: \(error)")
      throw ExitCode(1)
    }
  }

  /// The image as the contents of a layer filling the frame, fitted as asked.
  func picture(_ image: LayerKit.Image, _ w: Int, _ h: Int) -> Layer {
    let layer = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
    layer.contents = image
    layer.masksToBounds = true
    layer.contentsGravity =
      switch fit {
      case .cover: .resizeAspectFill
      case .contain: .resizeAspect
      case .stretch: .resize
      }
    return layer
  }
}

/// A bad effect name or parameter, in one line.
struct ParameterError: Error, CustomStringConvertible {
  let description: String
  init(_ d: String) { description = d }
}

extension TransitionType: ExpressibleByArgument {}
extension TransitionSubtype: ExpressibleByArgument {}
extension MediaTimingFunction.Name: ExpressibleByArgument {}

/// `layerkit list`: every built-in effect with its parameters and defaults.
struct List: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "List the built-in transition effects and their parameters.")

  @Option(help: "List the parameters and defaults of this gl-transitions-form shader instead.")
  var shader: String?

  func run() throws {
    if let shader {
      do {
        let text = try String(contentsOf: URL(fileURLWithPath: shader), encoding: .utf8)
        let source = try GLTransitionSource(text: text, file: shader)
        let params = source.uniforms.map { u in "\(u.name) = \(u.default.map(describe) ?? "(no default)")" }
        print(params.isEmpty ? shader : "\(shader): \(params.joined(separator: ", "))")
      } catch {
        printError("layerkit list: \(error)")
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
