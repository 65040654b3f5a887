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

  /// An edit whose merged text would pass the bound it is merged under.
  public struct TooLarge: Error, Equatable, Sendable {
    /// The bound, in bytes of merged text.
    public var limit: Int
    /// The JSON path of the string that passed it.
    public var path: String
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

    /// The edit with its placeholders merged from `values`, as JSON, in time and memory linear
    /// in what it makes.
    /// - Parameter limit: the most bytes of text the merge may make (strings, values spliced
    ///   in); nil for no bound. A server's bound: a small body whose placeholders repeat a
    ///   long value would otherwise make gigabytes.
    /// - Throws: `Missing` for the first placeholder `values` does not name, in document order;
    ///   `TooLarge` past `limit`; `EncodingError` for a number JSON cannot write (JSON5's
    ///   `NaN` or `Infinity`).
    public func merge(_ values: [String: Value], limit: Int? = nil) throws -> Data {
      var budget = limit ?? Int.max
      let merged = try Placeholders.merge(tree, values: values, at: "", budget: &budget, limit: limit ?? Int.max)
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys]
      let data = try encoder.encode(merged)
      if let limit, data.count > limit { throw TooLarge(limit: limit, path: "") }
      return data
    }
  }

  /// The edit `data` (JSON or JSON5) with its placeholders merged from `values`, as JSON.
  /// - Throws: `Missing` for the first placeholder `values` does not name, in document order;
  ///   `EditFile.Error` (file `file`) when `data` is not JSON5 or JSON.
  public static func merge(_ data: Data, values: [String: Value], file: String = "edit", limit: Int? = nil) throws
    -> Data
  {
    try Template(data, file: file).merge(values, limit: limit)
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

  /// `tree` merged; `budget` is what is left of `limit`, spent by every string made.
  static func merge(
    _ tree: EditFile.Tree, values: [String: Value], at path: String, budget: inout Int, limit: Int
  ) throws -> EditFile.Tree {
    switch tree {
    case .string(let text):
      let found = find(text)
      guard !found.isEmpty else {
        budget -= text.utf8.count
        if budget < 0 { throw TooLarge(limit: limit, path: path) }
        return tree
      }
      for (name, _) in found where values[name] == nil { throw Missing(name: name, path: path) }
      if found.count == 1, found[0].range == text.startIndex..<text.endIndex {
        let value = values[found[0].name]!
        budget -= value.text.utf8.count
        if budget < 0 { throw TooLarge(limit: limit, path: path) }
        return value.tree
      }
      // Built front to back, each piece counted before it is appended.
      var merged = ""
      var at = text.startIndex
      for (name, range) in found {
        let piece = values[name]!.text
        budget -= text.utf8.distance(from: at, to: range.lowerBound) + piece.utf8.count
        if budget < 0 { throw TooLarge(limit: limit, path: path) }
        merged += text[at..<range.lowerBound]
        merged += piece
        at = range.upperBound
      }
      budget -= text.utf8.distance(from: at, to: text.endIndex)
      if budget < 0 { throw TooLarge(limit: limit, path: path) }
      merged += text[at...]
      return .string(merged)
    case .array(let array):
      var out: [EditFile.Tree] = []
      for (i, item) in array.enumerated() {
        out.append(try merge(item, values: values, at: "\(path)[\(i)]", budget: &budget, limit: limit))
      }
      return .array(out)
    case .object(let object):
      var out: [String: EditFile.Tree] = [:]
      for key in object.keys.sorted() {
        let at = path.isEmpty ? key : "\(path).\(key)"
        out[key] = try merge(object[key]!, values: values, at: at, budget: &budget, limit: limit)
      }
      return .object(out)
    default:
      return tree
    }
  }
}
