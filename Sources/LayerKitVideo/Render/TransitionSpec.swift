import Foundation
import LayerKit
import LayerKitMedia

/// A transition as an edit names it, typed: the effect (a built-in effect of the catalogue, a
/// `.glsl` file in the gl-transitions form, `none` or `random`), Core Animation's subtype, and
/// the parameters' values by name. Text is read once, where a person wrote it — a SPEC on the
/// command line (`push:fromRight`, `ripple:speed=30`), an edit file's `name` and `params` — and
/// the value travels from there; `resolve` makes it the timeline's transition.
public struct TransitionSpec: Sendable, Equatable {
  /// The effect's name or the shader file's path, as written.
  public var effect: String
  /// Core Animation's direction (`push:fromRight`), for the effects with a `direction`.
  public var subtype: TransitionSubtype?
  /// Values by parameter name; the effect's defaults for the rest.
  public var parameters: [String: Edit.Transition.Param]
  /// The text the spec was read from, for messages and labels.
  public var label: String

  public init(
    effect: String, subtype: TransitionSubtype? = nil, parameters: [String: Edit.Transition.Param] = [:],
    label: String? = nil
  ) {
    self.effect = effect
    self.subtype = subtype
    self.parameters = parameters
    self.label =
      label ?? ([effect] + (subtype.map { [$0.rawValue] } ?? [])).joined(separator: ":")
      + parameters.sorted { $0.key < $1.key }.map { ":\($0.key)=\($0.value.text)" }.joined()
  }

  /// A SPEC as a person writes it: `EFFECT[:SUBTYPE][:NAME=VALUE]…`.
  /// - Throws: `TransitionError` for an empty effect or a part that is neither a subtype nor
  ///   `NAME=VALUE`.
  public init(parsing spec: String) throws(TransitionError) {
    var parts = spec.components(separatedBy: ":")
    let head = parts.removeFirst()
    guard !head.isEmpty else { throw .noEffect(spec: spec) }
    var subtype: TransitionSubtype?
    var parameters: [String: Edit.Transition.Param] = [:]
    for part in parts {
      if let eq = part.firstIndex(of: "=") {
        let name = String(part[..<eq])
        let value = String(part[part.index(after: eq)...])
        guard !name.isEmpty else { throw .unnamedParameter(effect: head, text: value) }
        parameters[name] = Edit.Transition.Param(text: value)
      } else if let s = TransitionSubtype(rawValue: part) {
        subtype = s
      } else {
        throw .neitherSubtypeNorParameter(spec: spec, part: part)
      }
    }
    self.init(effect: head, subtype: subtype, parameters: parameters, label: spec)
  }

  /// Whether the effect is a shader file rather than a name of the catalogue.
  public var isFile: Bool { effect.hasSuffix(".glsl") || effect.contains("/") }

  /// A cut: no transition.
  public var isNone: Bool { effect == "none" }

  /// The built-in effects `random` picks from: all but `cut` (a cut halfway is no transition;
  /// editly's `random` neither picks its `dummy`).
  public static var randomChoices: [String] { TransitionEffects.all.keys.sorted().filter { $0 != "cut" } }

  /// A built-in effect picked by `random`, with a random subtype for those with a direction.
  public static func random(_ random: inout SeededRandom) -> TransitionSpec {
    let names = randomChoices
    let name = names[Int(random.next() % UInt64(names.count))]
    guard ["moveIn", "push", "reveal"].contains(name) else { return TransitionSpec(effect: name) }
    let subtypes: [TransitionSubtype] = [.fromLeft, .fromRight, .fromTop, .fromBottom]
    return TransitionSpec(effect: name, subtype: subtypes[Int(random.next() % 4)])
  }

  /// The largest transition shader file read (the built-ins are a few KiB each).
  public static let maxShaderSize = 64 << 10

  /// The timeline's transition: a built-in effect checked against the catalogue, or a shader
  /// file read and loaded into `shaders` (the GPU); the parameters checked against the
  /// effect's declared types (a user's shader checked again with them).
  /// - Parameter random: picks the effect of a `random` spec.
  /// - Throws: `TransitionError` naming the spec; `RenderError.gpuOnlyEffect` for a shader file
  ///   without a backend that runs GLSL; the backend's errors for a shader that does not compile.
  public func resolve(
    duration: Double, timing: MediaTimingFunction, shaders: (any TransitionShaderHost)?,
    random: inout SeededRandom
  ) throws -> TimelineTransition {
    if effect == "random" {
      return try Self.random(&random).resolve(duration: duration, timing: timing, shaders: shaders, random: &random)
    }
    var name = effect
    let declared: [(name: String, type: TransitionUniformType)]
    if isFile {
      let text = try Self.shaderText(effect, what: "transition \(label)")
      guard let shaders else { throw RenderError.gpuOnlyEffect(effect) }
      name = "shader:" + effect
      declared = try shaders.loadTransition(name: name, text: text, file: effect).map { ($0.name, $0.type) }
    } else {
      guard let builtIn = TransitionEffects.all[effect] else {
        let near = Self.randomChoices.min {
          Spelling.editDistance($0.lowercased(), effect.lowercased())
            < Spelling.editDistance($1.lowercased(), effect.lowercased())
        }
        throw TransitionError.unknownEffect(spec: label, effect: effect, nearest: near, known: Self.randomChoices)
      }
      declared = Array(zip(builtIn.parameters.map(\.name), builtIn.parameterTypes)).map { ($0.0, $0.1) }
    }
    var values: [String: TransitionValue] = [:]
    if let subtype {
      guard declared.contains(where: { $0.name == "direction" }) else {
        throw TransitionError.noDirection(spec: label, effect: effect)
      }
      values["direction"] = .vec2(TransitionEffects.direction(subtype))
    } else if ["moveIn", "push", "reveal"].contains(effect) {
      values["direction"] = .vec2(TransitionEffects.direction(.fromLeft))
    }
    for (key, param) in parameters.sorted(by: { $0.key < $1.key }) {
      guard let type = declared.first(where: { $0.name == key })?.type else {
        throw TransitionError.unknownParameter(effect: effect, name: key, known: declared.map(\.name))
      }
      values[key] = try Self.value(param, named: key, as: type)
    }
    // A user's shader was checked with its defaults when loaded; with the values given too.
    if isFile, !parameters.isEmpty, let shaders {
      try shaders.checkTransition(name: name, parameters: values, file: effect)
    }
    return TimelineTransition(
      effect: name, builtIn: !isFile, parameters: values, duration: duration, timing: timing, label: label)
  }

  /// A parameter's value as the effect declares its type: numbers for floats and vectors (one
  /// number fills a vector), whole numbers for ints, true or false, `@FILE` for an image.
  static func value(_ param: Edit.Transition.Param, named name: String, as type: TransitionUniformType)
    throws -> TransitionValue
  {
    if type == .sampler2D {
      guard case .image(let path) = param else { throw TransitionError.expectedImage(name: name) }
      return .image(try ImageFile.read(URL(fileURLWithPath: path)))
    }
    let wrong = TransitionError.wrongType(name: name, text: param.text, type: type)
    let numbers: [Double]
    switch param {
    case .bool(let b):
      guard type == .bool else { throw wrong }
      return .bool(b)
    case .number(let n): numbers = [n]
    case .numbers(let a): numbers = a
    case .image, .other: throw wrong
    }
    let n = type.componentCount
    guard numbers.allSatisfy(\.isFinite), numbers.count == 1 || numbers.count == n, type != .bool else { throw wrong }
    let filled = numbers.count == 1 ? Array(repeating: numbers[0], count: n) : numbers
    switch type {
    case .float: return .float(Float(filled[0]))
    case .vec2: return .vec2(SIMD2(Float(filled[0]), Float(filled[1])))
    case .vec3: return .vec3(SIMD3(Float(filled[0]), Float(filled[1]), Float(filled[2])))
    case .vec4: return .vec4(SIMD4(Float(filled[0]), Float(filled[1]), Float(filled[2]), Float(filled[3])))
    case .int, .ivec2:
      let ints = filled.compactMap { $0 == $0.rounded() ? Int32(exactly: $0) : nil }
      guard ints.count == filled.count else { throw wrong }
      return type == .int ? .int(ints[0]) : .ivec2(SIMD2(ints[0], ints[1]))
    case .bool, .sampler2D: throw wrong
    }
  }

  /// The text of a shader file, refused naming `what` asked for it and the file when it is
  /// missing, not a regular file, larger than a shader may be, or not UTF-8 text.
  public static func shaderText(_ path: String, what: String) throws(TransitionError) -> String {
    if let irregular = MediaSource.irregularKind(path) {
      throw .unreadableShader(what: what, path: path, reason: "is \(irregular), not a regular file")
    }
    if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maxShaderSize {
      throw .unreadableShader(what: what, path: path, reason: "is \(size) bytes; a shader is at most \(maxShaderSize)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      let missing = !FileManager.default.fileExists(atPath: path)
      throw .unreadableShader(what: what, path: path, reason: missing ? ": no such file" : ": cannot be read")
    }
    guard let text = String(data: data, encoding: .utf8), !text.contains("\0") else {
      throw .unreadableShader(what: what, path: path, reason: "is not a shader: not UTF-8 text")
    }
    return text
  }
}

/// A transition spec that cannot be made a transition, named by its text.
public enum TransitionError: AdvisedError, Equatable {
  case noEffect(spec: String)
  case neitherSubtypeNorParameter(spec: String, part: String)
  case unnamedParameter(effect: String, text: String)
  case unknownEffect(spec: String, effect: String, nearest: String?, known: [String])
  case noDirection(spec: String, effect: String)
  case unknownParameter(effect: String, name: String, known: [String])
  case wrongType(name: String, text: String, type: TransitionUniformType)
  case expectedImage(name: String)
  case unreadableShader(what: String, path: String, reason: String)
  /// A name that is neither an effect of the catalogue nor a gl-transitions file in `folder`.
  case unknownName(String, folder: String?)
  /// A gl-transitions folder that is not one.
  case notAFolder(String)
  /// An easing that is none of the timing functions' names nor editly's.
  case unknownEasing(String)

  public func message(_ words: (Setting) -> String) -> String {
    switch self {
    case .noEffect(let spec):
      "transition '\(spec)': no effect named; give fade, push:fromRight, a built-in effect (layerkit list) or a .glsl file"
    case .neitherSubtypeNorParameter(let spec, let part):
      "transition \(spec): '\(part)' is neither a subtype (fromLeft, fromRight, fromTop, fromBottom) nor NAME=VALUE"
    case .unnamedParameter(let effect, let text): "\(effect): '=\(text)' names no parameter; write NAME=VALUE"
    case .unknownEffect(let spec, let effect, let near, let known):
      "transition \(spec): no built-in effect \(effect)\(near.map { " (did you mean \($0)?)" } ?? ""); "
        + "there are: \(known.joined(separator: ", ")), or give a .glsl file"
    case .noDirection(let spec, let effect): "transition \(spec): \(effect) has no direction, so no subtype"
    case .unknownParameter(let effect, let name, let known):
      "\(effect) has no parameter \(name); it has: \(known.isEmpty ? "none" : known.joined(separator: ", "))"
    case .wrongType(let name, let text, let type): "\(name): \(text) is not a \(type.rawValue)"
    case .expectedImage(let name): "\(name): expected @IMAGE-FILE for a sampler2D"
    case .unreadableShader(let what, let path, let reason):
      "\(what): \(path)\(reason.hasPrefix(":") ? "" : " ")\(reason)"
    case .unknownName(let name, let folder):
      "transition \(name): neither a LayerKit effect (layerkit list) nor a gl-transitions file "
        + (folder.map { "in \($0)" }
          ?? "given: point \(words(.glTransitionsFolder)) at a folder holding \(name).glsl")
    case .notAFolder(let path): "\(words(.glTransitionsFolder)): \(path) is not a folder"
    case .unknownEasing(let easing):
      "easing \(easing): linear, easeIn, easeOut, easeInEaseOut, default, easeOutExpo or easeInOutCubic"
    }
  }
}
