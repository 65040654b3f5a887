import Foundation
import LayerKit

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
