import Foundation
import LayerKitScene

/// A validator for the subset of JSON Schema (draft 2020-12) that Schemas/scene.schema.json
/// uses: type (one or a list, "integer" included), properties, required, additionalProperties
/// (false or a schema), items, enum, oneOf, anyOf, $ref to "#/$defs/NAME", minimum, maximum,
/// exclusiveMinimum, minItems, maxItems and pattern. Annotations ($schema, $id, title,
/// description) are ignored; any other keyword is an error, so the schema cannot use one this
/// validator would silently skip.
struct SchemaValidator {
  struct Failure: Error, CustomStringConvertible {
    var path: String
    var message: String
    var description: String { "\(path.isEmpty ? "the document" : path): \(message)" }
  }

  let root: JSON
  static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]
  static let keywords: Set<String> = [
    "type", "properties", "required", "additionalProperties", "items", "enum", "oneOf", "anyOf", "$ref", "minimum",
    "maximum", "exclusiveMinimum", "minItems", "maxItems", "pattern",
  ]

  init(schema: JSON) { root = schema }

  /// Every failure of `value` against the schema (empty: valid).
  func validate(_ value: JSON) -> [Failure] {
    var out: [Failure] = []
    check(value, against: root, path: "", into: &out)
    return out
  }

  private func resolve(_ ref: String) -> JSON? {
    guard ref.hasPrefix("#/$defs/") else { return nil }
    return root["$defs"]?[String(ref.dropFirst("#/$defs/".count))]
  }

  private func typeName(_ v: JSON) -> [String] {
    switch v {
    case .null: ["null"]
    case .bool: ["boolean"]
    case .number(let n): n == n.rounded() ? ["number", "integer"] : ["number"]
    case .string: ["string"]
    case .array: ["array"]
    case .object: ["object"]
    }
  }

  private func check(_ value: JSON, against schema: JSON, path: String, into out: inout [Failure]) {
    guard case .object(let keywords) = schema else {
      out.append(Failure(path: path, message: "the schema here is not an object"))
      return
    }
    func fail(_ m: String) { out.append(Failure(path: path, message: m)) }
    for (keyword, argument) in keywords {
      if Self.annotations.contains(keyword) { continue }
      guard Self.keywords.contains(keyword) else {
        fail("the schema uses \(keyword), which this validator does not implement")
        continue
      }
      switch (keyword, argument) {
      case ("$ref", .string(let ref)):
        guard let target = resolve(ref) else {
          fail("unresolvable $ref \(ref)")
          continue
        }
        check(value, against: target, path: path, into: &out)
      case ("type", .string(let t)):
        if !typeName(value).contains(t) { fail("\(value.kindDescription) is not of type \(t)") }
      case ("type", .array(let ts)):
        let names = ts.compactMap { if case .string(let s) = $0 { s } else { nil } }
        if Set(names).isDisjoint(with: typeName(value)) { fail("\(value.kindDescription) is not of type \(names)") }
      case ("enum", .array(let options)):
        if !options.contains(value) { fail("\(value.kindDescription) is not one of \(options)") }
      case ("minimum", .number(let m)):
        if case .number(let n) = value, n < m { fail("\(n) is less than the minimum \(m)") }
      case ("maximum", .number(let m)):
        if case .number(let n) = value, n > m { fail("\(n) is more than the maximum \(m)") }
      case ("exclusiveMinimum", .number(let m)):
        if case .number(let n) = value, n <= m { fail("\(n) is not more than \(m)") }
      case ("minItems", .number(let m)):
        if case .array(let a) = value, Double(a.count) < m { fail("fewer than \(Int(m)) items") }
      case ("maxItems", .number(let m)):
        if case .array(let a) = value, Double(a.count) > m { fail("more than \(Int(m)) items") }
      case ("pattern", .string(let p)):
        if case .string(let s) = value, s.range(of: p, options: .regularExpression) == nil {
          fail("\"\(s)\" does not match \(p)")
        }
      case ("required", .array(let names)):
        if case .object = value {
          for case .string(let name) in names where value[name] == nil {
            fail("the required key \"\(name)\" is missing")
          }
        }
      case ("properties", .object(let properties)):
        if case .object(let members) = value {
          for (k, v) in members {
            if let sub = properties.first(where: { $0.key == k })?.value {
              check(v, against: sub, path: path.isEmpty ? k : "\(path).\(k)", into: &out)
            }
          }
        }
      case ("additionalProperties", let rule):
        guard case .object(let members) = value else { continue }
        let known = Set(
          schema["properties"].map { p -> [String] in
            if case .object(let m) = p { m.map(\.key) } else { [] }
          } ?? [])
        for (k, v) in members where !known.contains(k) {
          if case .bool(false) = rule {
            fail("the key \"\(k)\" is not allowed")
          } else {
            check(v, against: rule, path: path.isEmpty ? k : "\(path).\(k)", into: &out)
          }
        }
      case ("items", let itemSchema):
        if case .array(let a) = value {
          for (i, e) in a.enumerated() { check(e, against: itemSchema, path: "\(path)[\(i)]", into: &out) }
        }
      case ("anyOf", .array(let options)), ("oneOf", .array(let options)):
        var passing = 0
        var best: [Failure]?
        for o in options {
          var f: [Failure] = []
          check(value, against: o, path: path, into: &f)
          if f.isEmpty { passing += 1 } else if best == nil || f.count < best!.count { best = f }
        }
        if passing == 0 {
          fail("matches none of the \(keyword) alternatives")
          out += best ?? []
        } else if keyword == "oneOf", passing > 1 {
          fail("matches \(passing) of the oneOf alternatives, not exactly one")
        }
      default:
        fail("the schema's \(keyword) has an argument of the wrong type")
      }
    }
  }
}
