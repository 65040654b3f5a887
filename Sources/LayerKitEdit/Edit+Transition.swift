import Foundation
import LayerKit

extension Edit {
  /// The transition at the end of a clip, into the next (the last clip's is not used).
  public struct Transition: Codable, Sendable, Equatable {
    /// A transition SPEC: `fade`, `push:fromRight`, a built-in effect with `:NAME=VALUE`
    /// parameters, a `.glsl` file in the gl-transitions form, or `none` (a cut).
    public var name: String?
    public var duration: Double?
    /// linear, easeIn, easeOut, easeInEaseOut or default (editly's names too).
    public var easing: String?
    /// editly's: the shapes of the clips' sound fading out of and into it (ffmpeg's `afade`
    /// curves; tri by default).
    public var audioOutCurve: String?
    public var audioInCurve: String?
    /// editly's: the effect's parameters by name (numbers, arrays of them, true or false), as
    /// `:NAME=VALUE` after a SPEC gives them.
    public var params: [String: Param]?

    /// A parameter's value as JSON writes it: a number, an array of numbers (a vector), true or
    /// false, or a string: `"@FILE"` for an image (a `sampler2D`), anything else kept to be
    /// refused by name when the effect's parameter types are known.
    public enum Param: Codable, Sendable, Equatable {
      case number(Double)
      case numbers([Double])
      case bool(Bool)
      /// The image file of a `sampler2D` parameter (`@FILE` in text).
      case image(String)
      /// A value that is none of the above, as written.
      case other(String)

      public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let b = try? c.decode(Bool.self) {
          self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
          self = .number(n)
        } else if let s = try? c.decode(String.self) {
          self = Param(text: s)
        } else {
          self = .numbers(try c.decode([Double].self))
        }
      }

      public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .number(let n): try c.encode(n)
        case .numbers(let a): try c.encode(a)
        case .bool(let b): try c.encode(b)
        case .image, .other: try c.encode(text)
        }
      }

      /// A value as `:NAME=VALUE` writes it: `0.5`, `1,0` or `vec2(1, 0)`, `true`, `@FILE`.
      public init(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("@") {
          self = .image(String(trimmed.dropFirst()))
          return
        }
        if let b = Bool(trimmed) {
          self = .bool(b)
          return
        }
        var body = trimmed
        if let open = body.firstIndex(of: "("), body.hasSuffix(")") {
          body = String(body[body.index(after: open)..<body.index(before: body.endIndex)])
        }
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
          .map { $0.trimmingCharacters(in: .whitespaces) }
        let numbers = parts.compactMap(Double.init)
        if !parts.isEmpty, numbers.count == parts.count {
          self = numbers.count == 1 && body == trimmed ? .number(numbers[0]) : .numbers(numbers)
        } else {
          self = .other(text)
        }
      }

      /// As `:NAME=VALUE` writes it: `0.5`, `1,0`, `true`, `@FILE`.
      public var text: String {
        switch self {
        case .number(let n): Self.format(n)
        case .numbers(let a): a.map(Self.format).joined(separator: ",")
        case .bool(let b): "\(b)"
        case .image(let path): "@" + path
        case .other(let text): text
        }
      }

      private static func format(_ n: Double) -> String {
        n.isFinite && n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
      }
    }

    public init(
      name: String? = nil, duration: Double? = nil, easing: String? = nil, params: [String: Param]? = nil
    ) {
      self.name = name
      self.duration = duration
      self.easing = easing
      self.params = params
    }
  }
}
