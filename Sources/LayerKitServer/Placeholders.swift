import Foundation

/// `{{ NAME }}` placeholders in an edit, merged with a row of values when a render is asked for
/// (Shotstack's and Creatomate's merge fields): in any string of the edit, a placeholder is
/// replaced by its value's text; a string that is one placeholder alone takes the value itself,
/// so `"duration": "{{ SECONDS }}"` with `{"SECONDS": 4}` is the number 4.
public enum Placeholders {
  /// A placeholder that the values do not name, where it is.
  public struct Missing: Error, Equatable, Sendable {
    public var name: String
    /// The JSON path of the string it is in (`clips[0].layers[1].text`).
    public var path: String
  }

  /// The names of the placeholders in `text`, each with its range.
  static func find(_ text: String) -> [(name: String, range: Range<String.Index>)] {
    var found: [(String, Range<String.Index>)] = []
    var at = text.startIndex
    while let open = text.range(of: "{{", range: at..<text.endIndex),
      let close = text.range(of: "}}", range: open.upperBound..<text.endIndex)
    {
      let name = text[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
      if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }) {
        found.append((name, open.lowerBound..<close.upperBound))
      }
      at = close.upperBound
    }
    return found
  }

  /// `tree` (JSONSerialization's objects) with its placeholders merged from `values`.
  /// - Throws: `Missing` for the first placeholder `values` does not name, in document order.
  public static func merge(_ tree: Any, values: [String: Any], at path: String = "") throws(Missing) -> Any {
    switch tree {
    case let text as String:
      let found = find(text)
      guard !found.isEmpty else { return text }
      for (name, _) in found where values[name] == nil || values[name] is NSNull {
        throw Missing(name: name, path: path)
      }
      if found.count == 1, found[0].range == text.startIndex..<text.endIndex { return values[found[0].name]! }
      var merged = text
      for (name, range) in found.reversed() { merged.replaceSubrange(range, with: Self.text(values[name]!)) }
      return merged
    case let array as [Any]:
      var out: [Any] = []
      for (i, item) in array.enumerated() { out.append(try merge(item, values: values, at: "\(path)[\(i)]")) }
      return out
    case let object as [String: Any]:
      var out: [String: Any] = [:]
      for key in object.keys.sorted() {
        out[key] = try merge(object[key]!, values: values, at: path.isEmpty ? key : "\(path).\(key)")
      }
      return out
    default:
      return tree
    }
  }

  /// A value as text inside a longer string.
  static func text(_ value: Any) -> String {
    switch value {
    case let s as String: return s
    case let n as NSNumber:
      if String(cString: n.objCType) == "c" { return n.boolValue ? "true" : "false" }
      return n.stringValue
    default:
      let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys])
      return data.map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }
  }
}
