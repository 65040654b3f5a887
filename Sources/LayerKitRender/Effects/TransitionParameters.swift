// The parameters of transition effects, as the gl-transitions form declares them: uniform types,
// values, declarations, and how a pass's values are checked against an effect's declarations.
// Shared by the catalogue of built-in effects (TransitionEffects), both backends, and the GLSL
// reader of LayerKitGL (GLTransitionSource), which makes these from a shader's text.

import Foundation

/// The uniform types a gl-transitions parameter may have.
public enum TransitionUniformType: String, Hashable, Sendable, CaseIterable {
  case float, int, bool, vec2, vec3, vec4, ivec2
  /// An extra texture; it has no default and no `TransitionValue`.
  case sampler2D

  /// How many components a constructor of this type takes (1 for scalars and samplers).
  public var componentCount: Int {
    switch self {
    case .vec2, .ivec2: 2
    case .vec3: 3
    case .vec4: 4
    default: 1
    }
  }
}

extension TransitionValue {
  /// The uniform type a value of this case sets.
  public var uniformType: TransitionUniformType {
    switch self {
    case .float: .float
    case .int: .int
    case .bool: .bool
    case .vec2: .vec2
    case .vec3: .vec3
    case .vec4: .vec4
    case .ivec2: .ivec2
    case .image: .sampler2D
    }
  }
}

/// One parameter of a transition shader: a uniform other than the reserved ones.
public struct TransitionUniform: Hashable, Sendable {
  public var name: String
  public var type: TransitionUniformType
  /// The value in the declaration's `= …` comment; nil when it has none (and always for samplers).
  public var `default`: TransitionValue?
  /// The 1-based line of the declaration in the shader file.
  public var line: Int

  public init(name: String, type: TransitionUniformType, default: TransitionValue?, line: Int) {
    self.name = name
    self.type = type
    self.default = `default`
    self.line = line
  }
}

/// Why a transition shader could not be read. Lines are 1-based lines of `file`.
public enum TransitionSourceError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A `uniform` declaration that is not `uniform TYPE name[, name…];` with a supported type.
  case malformedUniform(file: String, line: Int, reason: String)
  /// A `= …` default comment whose value is not a literal or constructor of the uniform's type.
  case malformedDefault(file: String, line: Int, name: String, text: String)
  /// No `vec4 transition(vec2 uv)` function.
  case missingTransitionFunction(file: String)
  /// A preprocessor directive GLSL ES 3.00 does not have (`#include`): the file is one
  /// self-contained shader.
  case unsupportedDirective(file: String, line: Int, directive: String)
  /// A function the host defines around the file (`main`, `getFromColor`, `getToColor`).
  case hostFunction(file: String, line: Int, name: String)

  public var description: String {
    switch self {
    case .malformedUniform(let file, let line, let reason): "\(file):\(line): malformed uniform: \(reason)"
    case .malformedDefault(let file, let line, let name, let text):
      "\(file):\(line): default of uniform '\(name)' is not a value of its type: '\(text)'"
    case .missingTransitionFunction(let file):
      "\(file): no 'vec4 transition(vec2 uv)' function (gl-transitions form)"
    case .unsupportedDirective(let file, let line, let directive) where directive == "include":
      "\(file):\(line): '#include' is not supported: a gl-transitions shader is one self-contained file; paste the included code into it"
    case .hostFunction(let file, let line, let name):
      "\(file):\(line): defines \(name)(), which the host gives every transition: a gl-transitions file defines "
        + "vec4 transition(vec2 uv) and its own helpers, under other names"
    case .unsupportedDirective(let file, let line, let directive):
      "\(file):\(line): '#\(directive)' is not a GLSL ES 3.00 directive"
    }
  }
}

/// Why a transition pass's parameters do not fit its effect.
public enum TransitionParameterError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No effect of that name; `available` lists those that exist.
  case unknownEffect(String, available: [String])
  /// The effect declares no parameter `name`; `available` lists those it declares, in order.
  case unknownParameter(name: String, effect: String, available: [String])
  /// The value's type is not the uniform's.
  case wrongType(name: String, effect: String, expected: TransitionUniformType, got: TransitionUniformType)

  public var description: String {
    switch self {
    case .unknownEffect(let name, let available):
      "no transition effect '\(name)'; effects: \(available.joined(separator: ", "))"
    case .unknownParameter(let name, let effect, let available):
      "transition '\(effect)' has no parameter '\(name)'; parameters: "
        + (available.isEmpty ? "none" : available.joined(separator: ", "))
    case .wrongType(let name, let effect, let expected, let got):
      "transition '\(effect)': parameter '\(name)' is \(expected.rawValue), got a \(got.rawValue)"
    }
  }
}

extension [TransitionUniform] {
  /// Resolves a pass's parameters against these declarations.
  /// - Parameters:
  ///   - parameters: values by name.
  ///   - effect: the effect's name, for errors.
  /// - Returns: for each declaration in order, the given value or its default (nil: neither;
  ///   samplers without an image).
  /// - Throws: `TransitionParameterError.unknownParameter` naming the parameters that exist, or
  ///   `.wrongType`.
  public func resolve(_ parameters: [String: TransitionValue], effect: String) throws(TransitionParameterError)
    -> [TransitionValue?]
  {
    for name in parameters.keys.sorted() where !contains(where: { $0.name == name }) {
      throw .unknownParameter(name: name, effect: effect, available: map(\.name))
    }
    return try map { (u: TransitionUniform) throws(TransitionParameterError) -> TransitionValue? in
      guard let given = parameters[u.name] else { return u.default }
      guard given.uniformType == u.type else {
        throw .wrongType(name: u.name, effect: effect, expected: u.type, got: given.uniformType)
      }
      return given
    }
  }
}

extension TransitionValue {
  /// A value written as on a command line, read as `type`: "0.5", "3", "true", "0.5,1" or
  /// "vec2(0.5, 1)". nil when the text is not a value of that type.
  public init?(parsing text: String, as type: TransitionUniformType) {
    var body = text.trimmingCharacters(in: .whitespaces)
    if let open = body.firstIndex(of: "("), body.hasSuffix(")") {
      body = String(body[body.index(after: open)..<body.index(before: body.endIndex)])
    }
    let parts = body.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    let floats = parts.compactMap { Float($0) }.filter(\.isFinite)
    switch type {
    case .float:
      guard parts.count == 1, let v = floats.first else { return nil }
      self = .float(v)
    case .int:
      guard parts.count == 1, let v = Int32(parts[0]) else { return nil }
      self = .int(v)
    case .bool:
      guard parts.count == 1, let v = Bool(parts[0]) else { return nil }
      self = .bool(v)
    case .vec2, .vec3, .vec4:
      let n = type.componentCount
      guard floats.count == parts.count, parts.count == n || parts.count == 1 else { return nil }
      let v = parts.count == 1 ? Array(repeating: floats[0], count: n) : floats
      switch type {
      case .vec2: self = .vec2(SIMD2(v[0], v[1]))
      case .vec3: self = .vec3(SIMD3(v[0], v[1], v[2]))
      default: self = .vec4(SIMD4(v[0], v[1], v[2], v[3]))
      }
    case .ivec2:
      let ints = parts.compactMap { Int32($0) }
      guard ints.count == parts.count, parts.count == 2 || parts.count == 1 else { return nil }
      self = .ivec2(parts.count == 1 ? SIMD2(repeating: ints[0]) : SIMD2(ints[0], ints[1]))
    case .sampler2D:
      return nil
    }
  }
}
