import Foundation
import LayerKit

/// An edit file: editly's edit spec as its users write it — JSON5 (comments, trailing commas,
/// unquoted keys, single-quoted strings) or JSON — read into an `Edit`, with LayerKit's own keys
/// beside editly's. Every key is checked: an unknown one is an error naming its JSON path and
/// the nearest known key; what LayerKit cannot do (JavaScript layers, editly's banner, URLs) is
/// refused by name and path, never dropped; a syntax error names its line and column. Relative
/// media paths are taken from the file's folder. editly's `fast` and `customOutputArgs` shape
/// the output and are kept beside the edit.
public struct EditFile: Sendable {
  public var edit: Edit
  /// editly's `outPath`, resolved against the file's folder; `-o` overrides it.
  public var outPath: String?
  /// editly's `fast`: a quick preview (about 250 pixels a side, 15 frames/s, x264's ultrafast).
  public var fast = false
  /// editly's `customOutputArgs`: ffmpeg output options after LayerKit's own, each an allowed
  /// one (`OutputArguments`).
  public var customOutputArgs: [String] = []
  /// What was left out of the file, a line each (editly's own banner), for the command to say.
  public var notes: [String] = []

  /// Why an edit file could not be read: where (a JSON path such as `clips[1].layers[0].type`)
  /// and what.
  public struct Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var path: String
    public var message: String

    public var description: String { "\(file): \(path.isEmpty ? "" : path + ": ")\(message)" }
  }
  /// Reads and checks the file at `path`.
  /// - Parameter seed: the seed of editly's random choices made while reading (a
  ///   title-background's kind), over the file's own `seed`; 1 when neither says.
  public static func read(path: String, seed: UInt64? = nil) throws(Error) -> EditFile {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw Error(file: path, path: "", message: "cannot be read (missing, or not a file)")
    }
    let folder = (path as NSString).deletingLastPathComponent
    return try parse(data, file: path, folder: folder.isEmpty ? "." : folder, seed: seed)
  }

  /// Reads and checks an edit file's bytes; relative paths are taken from `folder`.
  /// - Parameter confined: every path must name a file inside `folder` — no URL, absolute path,
  ///   `..` or link leading out (a render server's edits, which name files in its media folder).
  public static func parse(
    _ data: Data, file: String, folder: String, seed: UInt64? = nil, confined: Bool = false
  ) throws(Error) -> EditFile {
    let tree = try Self.tree(data, file: file)
    var reader = Reader(file: file, folder: folder, seed: seed, confined: confined)
    let (json, outPath) = try reader.edit(tree)
    do {
      let encoded = try JSONEncoder().encode(json)
      var read = EditFile(edit: try JSONDecoder().decode(Edit.self, from: encoded), outPath: outPath)
      (read.fast, read.customOutputArgs, read.notes) = (reader.fast, reader.customOutputArgs, reader.notes)
      return read
    } catch let error as DecodingError {
      let (path, message) = Self.located(error)
      throw Error(file: file, path: path, message: message)
    } catch {
      throw Error(file: file, path: "", message: "\(error)")
    }
  }

  /// The JSON5 or JSON of `data`, as read.
  static func tree(_ data: Data, file: String) throws(Error) -> Tree {
    if let deep = SyntaxScanner.tooDeep([UInt8](data)) {
      throw Error(file: file, path: "", message: "nested too deep: \(deep)")
    }
    let tree: Tree
    do {
      let decoder = JSONDecoder()
      decoder.allowsJSON5 = true
      tree = try decoder.decode(Tree.self, from: data)
    } catch {
      // Foundation's reader says no more than that the file is not valid: the scanner says where.
      let at = SyntaxScanner.locate([UInt8](data))
      throw Error(file: file, path: "", message: "not JSON5 or JSON: \(at ?? Self.reason(error))")
    }
    // JSON5 writes NaN and Infinity; no field of an edit takes them, and JSON cannot hold them.
    if let path = tree.nonFinite(at: "") {
      throw Error(file: file, path: path, message: "NaN or Infinity: expected a finite number")
    }
    return tree
  }

  static func reason(_ error: Swift.Error) -> String {
    if case DecodingError.dataCorrupted(let context) = error {
      let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
      return underlying ?? context.debugDescription
    }
    return "\(error)"
  }

  /// A decoding error's JSON path and what it says.
  static func located(_ error: DecodingError) -> (String, String) {
    switch error {
    case .typeMismatch(let type, let c): return (path(c.codingPath), "expected \(Self.name(of: type))")
    case .valueNotFound(let type, let c): return (path(c.codingPath), "expected \(Self.name(of: type)), found null")
    case .keyNotFound(let key, let c): return (path(c.codingPath), "the key \(key.stringValue) is missing")
    case .dataCorrupted(let c): return (path(c.codingPath), c.debugDescription)
    @unknown default: return ("", "\(error)")
    }
  }

  /// A coding path as a JSON path (`clips[0].duration`).
  static func path(_ keys: [CodingKey]) -> String {
    keys.reduce("") { p, k in
      k.intValue.map { "\(p)[\($0)]" } ?? (p.isEmpty ? k.stringValue : "\(p).\(k.stringValue)")
    }
  }

  static func name(of type: Any.Type) -> String {
    switch type {
    case is Double.Type, is Int.Type: "a number"
    case is String.Type: "a string"
    case is Bool.Type: "true or false"
    // The decoder names the container it wanted as a Swift type ("Dictionary<String, Any>"):
    // said in JSON's words.
    default:
      "\(type)".hasPrefix("Dictionary")
        ? "an object" : "\(type)".hasPrefix("Array") ? "an array" : "another kind of value"
    }
  }

  /// A JSON value, as read.
  enum Tree: Codable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([Tree])
    case object([String: Tree])

    init(from decoder: Decoder) throws {
      let c = try decoder.singleValueContainer()
      if c.decodeNil() {
        self = .null
      } else if let b = try? c.decode(Bool.self) {
        self = .bool(b)
      } else if let n = try? c.decode(Double.self) {
        self = .number(n)
      } else if let s = try? c.decode(String.self) {
        self = .string(s)
      } else if let a = try? c.decode([Tree].self) {
        self = .array(a)
      } else {
        self = .object(try c.decode([String: Tree].self))
      }
    }

    func encode(to encoder: Encoder) throws {
      var c = encoder.singleValueContainer()
      switch self {
      case .null: try c.encodeNil()
      case .bool(let b): try c.encode(b)
      case .number(let n): try c.encode(n)
      case .string(let s): try c.encode(s)
      case .array(let a): try c.encode(a)
      case .object(let o): try c.encode(o)
      }
    }

    /// The JSON path of the first number in it that is NaN or infinite, nil when none is.
    func nonFinite(at path: String) -> String? {
      switch self {
      case .number(let n): return n.isFinite ? nil : path
      case .array(let a):
        return a.indices.lazy.compactMap { a[$0].nonFinite(at: "\(path)[\($0)]") }.first
      case .object(let o):
        return o.keys.sorted().lazy.compactMap { o[$0]!.nonFinite(at: path.isEmpty ? $0 : "\(path).\($0)") }.first
      default: return nil
      }
    }

    var kind: String {
      switch self {
      case .null: "null"
      case .bool: "true or false"
      case .number: "a number"
      case .string: "a string"
      case .array: "an array"
      case .object: "an object"
      }
    }
  }
}
