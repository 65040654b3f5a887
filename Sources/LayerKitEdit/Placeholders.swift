import Foundation

/// `{{ NAME }}` placeholders in an edit, merged with a row of values when it is rendered
/// (Shotstack's and Creatomate's merge fields; `layerkit batch`'s CSV columns; the render
/// server's templates): in any string of the edit a placeholder is replaced by its value's text,
/// and a string that is one placeholder alone takes the value itself, so `"duration": "{{ S }}"`
/// with S = 4 is the number 4.
public enum Placeholders {
  /// A placeholder's value.
  public enum Value: Sendable, Equatable {
    case text(String)
    case number(Double)
    case bool(Bool)

    /// A CSV cell's value: a JSON number or `true`/`false` as such (`1.5`, `-2`, not `007`),
    /// anything else as text.
    public init(cell: String) {
      let t = cell.trimmingCharacters(in: .whitespaces)
      if t == "true" || t == "false" {
        self = .bool(t == "true")
      } else if let n = Double(t),
        t.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil
      {
        self = .number(n)
      } else {
        self = .text(cell)
      }
    }

    /// The value inside a longer text.
    public var text: String {
      switch self {
      case .text(let s): s
      case .bool(let b): b ? "true" : "false"
      case .number(let n): n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
      }
    }

    var tree: EditFile.Tree {
      switch self {
      case .text(let s): .string(s)
      case .number(let n): .number(n)
      case .bool(let b): .bool(b)
      }
    }
  }

  /// A placeholder the values do not name, where it is.
  public struct Missing: Error, Equatable, Sendable {
    public var name: String
    /// The JSON path of the string it is in (`clips[0].layers[1].text`).
    public var path: String

    public init(name: String, path: String) {
      self.name = name
      self.path = path
    }
  }

  /// An edit with placeholders, read once and merged with as many rows as there are.
  public struct Template: Sendable {
    let tree: EditFile.Tree

    /// Reads the edit `data` (JSON or JSON5).
    /// - Throws: `EditFile.Error` (file `file`) when `data` is not JSON5 or JSON.
    public init(_ data: Data, file: String = "edit") throws(EditFile.Error) {
      tree = try EditFile.tree(data, file: file)
    }

    /// The names of its placeholders.
    public var names: Set<String> {
      var names = Set<String>()
      func walk(_ tree: EditFile.Tree) {
        switch tree {
        case .string(let s): for (name, _) in find(s) { names.insert(name) }
        case .array(let a): a.forEach(walk)
        case .object(let o): o.values.forEach(walk)
        default: break
        }
      }
      walk(tree)
      return names
    }

    /// The edit with its placeholders merged from `values`, as JSON.
    /// - Throws: `Missing` for the first placeholder `values` does not name, in document order;
    ///   `EncodingError` for a number JSON cannot write (JSON5's `NaN` or `Infinity`).
    public func merge(_ values: [String: Value]) throws -> Data {
      let merged = try Placeholders.merge(tree, values: values, at: "")
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      return try encoder.encode(merged)
    }
  }

  /// The edit `data` (JSON or JSON5) with its placeholders merged from `values`, as JSON.
  /// - Throws: `Missing` for the first placeholder `values` does not name, in document order;
  ///   `EditFile.Error` (file `file`) when `data` is not JSON5 or JSON.
  public static func merge(_ data: Data, values: [String: Value], file: String = "edit") throws -> Data {
    try Template(data, file: file).merge(values)
  }

  /// The names of the placeholders in `text`, each with its range.
  public static func find(_ text: String) -> [(name: String, range: Range<String.Index>)] {
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

  static func merge(_ tree: EditFile.Tree, values: [String: Value], at path: String) throws(Missing) -> EditFile.Tree {
    switch tree {
    case .string(let text):
      let found = find(text)
      guard !found.isEmpty else { return tree }
      for (name, _) in found where values[name] == nil { throw Missing(name: name, path: path) }
      if found.count == 1, found[0].range == text.startIndex..<text.endIndex { return values[found[0].name]!.tree }
      var merged = text
      for (name, range) in found.reversed() { merged.replaceSubrange(range, with: values[name]!.text) }
      return .string(merged)
    case .array(let array):
      var out: [EditFile.Tree] = []
      for (i, item) in array.enumerated() { out.append(try merge(item, values: values, at: "\(path)[\(i)]")) }
      return .array(out)
    case .object(let object):
      var out: [String: EditFile.Tree] = [:]
      for key in object.keys.sorted() {
        out[key] = try merge(object[key]!, values: values, at: path.isEmpty ? key : "\(path).\(key)")
      }
      return .object(out)
    default:
      return tree
    }
  }
}
