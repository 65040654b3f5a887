import LayerKit
import LayerKitMedia

/// Why a scene file could not be read, built, played or written. Every case about a value names
/// where it sits in the document as a path in the `a.b[2].c` form (`layers[2].animations[0]
/// .keyPath`), what was found there and what was expected, as jq and JSON Schema validators do.
///
/// Tests should match on the case and its `path`; the wording of `description` is for people.
public enum SceneFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be read at all.
  case unreadable(file: String, reason: String)
  /// The text is not JSON; line and column (from 1) of the first error.
  case invalidJSON(file: String, line: Int, column: Int, reason: String)
  /// A value of the wrong JSON type, or a value of the right type that is not allowed.
  case invalidValue(path: String, found: String, expected: String)
  /// A key the object does not have; `suggestion` is the nearest known key by edit distance.
  case unknownKey(path: String, key: String, suggestion: String?, known: [String])
  /// A key the object must have.
  case missingKey(path: String, key: String)
  /// A `media` name that no entry declares.
  case unknownMedia(path: String, name: String, suggestion: String?)
  /// A media file that does not exist, by the path it resolved to.
  case mediaNotFound(path: String, resolvedPath: String)
  /// A media file that exists but could not be decoded or probed.
  case unreadableMedia(path: String, resolvedPath: String, reason: String)
  /// A layer name that no layer has (in a timeline change).
  case unknownLayer(path: String, name: String, suggestion: String?)
  /// Two layers with the same name (names are how the timeline finds layers).
  case duplicateLayerName(path: String, name: String, firstPath: String)
  /// A layer placed inside itself, or in two places (a mask that is also a sublayer).
  case cycle(path: String, reason: String)
  /// LayerKit refused an animation the document describes (`Layer.add(_:forKey:)`).
  case animation(path: String, AnimationError)
  /// Writing: a value the format cannot express (an image that is not in `media`, a custom
  /// transition filter type, a non-finite number).
  case unencodable(path: String, reason: String)

  /// Where in the document the error is ("" for the whole file).
  public var path: String {
    switch self {
    case .unreadable, .invalidJSON: ""
    case .invalidValue(let p, _, _), .unknownKey(let p, _, _, _), .missingKey(let p, _), .unknownMedia(let p, _, _),
      .mediaNotFound(let p, _), .unreadableMedia(let p, _, _), .unknownLayer(let p, _, _),
      .duplicateLayerName(let p, _, _), .cycle(let p, _), .animation(let p, _), .unencodable(let p, _):
      p
    }
  }

  public var description: String {
    func at(_ p: String) -> String { p.isEmpty ? "the document" : p }
    switch self {
    case .unreadable(let f, let r): return "\(f): cannot read the scene file: \(r)"
    case .invalidJSON(let f, let l, let c, let r): return "\(f):\(l):\(c): not valid JSON: \(r)"
    case .invalidValue(let p, let found, let expected): return "\(at(p)): found \(found), expected \(expected)"
    case .unknownKey(let p, let k, let s, let known):
      let hint = s.map { "; did you mean \"\($0)\"?" } ?? "; known keys: \(known.joined(separator: ", "))"
      return "\(at(p)): unknown key \"\(SceneFileError.shortened(k))\"\(hint)"
    case .missingKey(let p, let k): return "\(at(p)): missing the required key \"\(k)\""
    case .unknownMedia(let p, let n, let s):
      return "\(at(p)): no media is named \"\(n)\"" + (s.map { "; did you mean \"\($0)\"?" } ?? "")
    case .mediaNotFound(let p, let r): return "\(at(p)): the media file \(r) does not exist"
    case .unreadableMedia(let p, let r, let reason): return "\(at(p)): cannot read the media file \(r): \(reason)"
    case .unknownLayer(let p, let n, let s):
      return "\(at(p)): no layer is named \"\(n)\"" + (s.map { "; did you mean \"\($0)\"?" } ?? "")
    case .duplicateLayerName(let p, let n, let first):
      return "\(at(p)): the layer name \"\(n)\" is already used by \(first); names must be unique"
    case .cycle(let p, let r): return "\(at(p)): \(r)"
    case .animation(let p, let e): return "\(at(p)): \(e)"
    case .unencodable(let p, let r): return "\(at(p)): cannot be written as a scene file: \(r)"
    }
  }

  /// The known word nearest to `word` by edit distance (Levenshtein, case-insensitive), if it is
  /// near enough to be a likely typo: at most a third of the longer word's letters, and at least 1.
  /// - Parameters:
  ///   - word: what was written.
  ///   - candidates: the words that would have been accepted.
  /// Text quoted in a message, cut to 60 characters (a key can be megabytes long).
  static func shortened(_ text: String) -> String {
    text.count <= 60 ? text : "\(text.prefix(57))… (\(text.utf8.count) bytes)"
  }

  public static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
    Spelling.nearest(to: word, among: candidates)
  }
}
