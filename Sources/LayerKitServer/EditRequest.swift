import Foundation
import LayerKitEdit

/// A render asked for over HTTP: its edit (editly's form), the values of its placeholders and a
/// callback, read and checked before it is queued, with the limits and the messages `layerkit
/// edit` has for a file, and every path confined to the media folder.
enum EditRequest {
  /// The edit of `body` (at JSON path `at`) merged with `values`, read and checked against the
  /// server's limits: the text that is queued.
  /// - Throws: `APIError` 400 naming the JSON path of the field at fault and, for a limit, the
  ///   limit; 413 for an edit whose merged text passes `--limits merged-bytes`.
  static func edit(
    _ edit: Any?, values: [String: Placeholders.Value], at path: String, configuration: ServerConfiguration
  ) throws(APIError) -> String {
    guard let edit = edit as? [String: Any],
      let written = try? JSONSerialization.data(withJSONObject: edit, options: [.sortedKeys])
    else {
      throw APIError(.badRequest, "expected an edit in editly's form (an object)", path: path)
    }
    let data: Data
    do {
      data = try Placeholders.merge(written, values: values, limit: configuration.limits.mergedBytes)
    } catch let error as Placeholders.Missing {
      throw APIError(.badRequest, "placeholder {{ \(error.name) }} has no value", path: join(path, error.path))
    } catch let error as Placeholders.TooLarge {
      throw APIError(
        .contentTooLarge, "merged, the edit passes \(error.limit) bytes (--limits merged-bytes)",
        path: join(path, error.path))
    } catch {
      throw APIError(.badRequest, "\(error)", path: path)
    }
    let file: EditFile
    do {
      file = try EditFile.parse(data, file: "edit", folder: configuration.media, confined: true)
    } catch {
      throw APIError(.badRequest, error.message, path: join(path, error.path))
    }
    do {
      try configuration.limits.check(file)
    } catch {
      throw APIError(.badRequest, error.message + " (--limits)", path: join(path, error.path))
    }
    return String(decoding: data, as: UTF8.self)
  }

  /// `callback` checked: an http or https URL to a host and port `--callback-host` names.
  static func callback(_ value: Any?, at path: String, configuration: ServerConfiguration) throws(APIError)
    -> String?
  {
    guard let value else { return nil }
    guard let text = value as? String, text.count <= 2048, let url = URL(string: text),
      let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
    else { throw APIError(.badRequest, "expected an http or https URL", path: path) }
    guard Callbacks.allows(url, targets: configuration.callbackTargets) else {
      throw APIError(
        .badRequest,
        "callbacks go only to the hosts and ports --callback-host names; \(url.host!):\(url.port ?? (scheme == "https" ? 443 : 80)) is not one",
        path: path)
    }
    return text
  }

  /// The placeholder values at `path`: an object of names to strings, numbers or booleans.
  static func values(_ value: Any?, at path: String) throws(APIError) -> [String: Placeholders.Value] {
    guard let value else { return [:] }
    guard let object = value as? [String: Any] else {
      throw APIError(.badRequest, "expected an object of placeholder values", path: path)
    }
    var values: [String: Placeholders.Value] = [:]
    for key in object.keys.sorted() {
      switch object[key]! {
      case let s as String: values[key] = .text(s)
      case let n as NSNumber where String(cString: n.objCType) == "c": values[key] = .bool(n.boolValue)
      case let n as NSNumber: values[key] = .number(n.doubleValue)
      default: throw APIError(.badRequest, "expected a string, number or boolean", path: join(path, key))
      }
    }
    return values
  }

  static func join(_ a: String, _ b: String) -> String {
    a.isEmpty ? b : b.isEmpty ? a : b.hasPrefix("[") ? a + b : "\(a).\(b)"
  }
}
