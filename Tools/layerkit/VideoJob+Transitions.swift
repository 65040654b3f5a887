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

/// Transition SPECs read once: built-in effects, Core Animation's type:subtype, `.glsl` files
/// parsed and registered, `:NAME=VALUE` parameters.
extension VideoJob {
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
      return try transition(randomSpec(&random), duration: duration, timing: timing, gpu: gpu, random: &random)
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
        // A cut halfway is no transition to pick at random (editly's `random` neither picks `dummy`).
        let names = TransitionEffects.all.keys.sorted().filter { $0 != "cut" }
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

  /// A built-in effect picked by `random`, as a SPEC (`push:fromTop` for those with a direction).
  static func randomSpec(_ random: inout SeededRandom) -> String {
    // A cut halfway is no transition to pick at random (editly's `random` neither picks `dummy`).
    let names = TransitionEffects.all.keys.sorted().filter { $0 != "cut" }
    let name = names[Int(random.next() % UInt64(names.count))]
    guard ["moveIn", "push", "reveal"].contains(name) else { return name }
    let subtypes: [TransitionSubtype] = [.fromLeft, .fromRight, .fromTop, .fromBottom]
    return name + ":" + subtypes[Int(random.next() % 4)].rawValue
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
