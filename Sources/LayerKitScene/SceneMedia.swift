import Foundation
import LayerKit
import LayerKitMedia

/// A picture or a video clip a scene file names in its `media` object, for layers' `contents`
/// and image parameters of transition filters.
///
/// In the file: `"media": {"sunset": "photos/sunset.jpg", "zoom": {"video": "clips/zoom.mp4",
/// "start": 2, "loop": true}}`; a plain string, or `{"image": PATH}`, is a still. Relative paths
/// resolve against the scene file's folder.
public struct SceneMedia: Sendable {
  public enum Kind: Sendable, Equatable {
    /// A PNG or JPEG still.
    case image
    /// A clip whose frame at clip time (scene time − `start`, wrapped when `loop`) a layer shows.
    case video(start: Double, loop: Bool)
  }

  /// The name layers use (`"contents": "sunset"`).
  public var name: String
  /// The path as the file writes it.
  public var path: String
  public var kind: Kind
  /// The still; for a clip, a transparent stand-in of the clip's size that each presented frame
  /// replaces with the clip's picture.
  public var image: Image
  /// The clip, probed (nil for a still).
  public var clip: ClipInfo?

  /// A still held in memory, for writing a scene built in Swift.
  /// - Parameters:
  ///   - name: the name layers use.
  ///   - path: where the file will find it (relative to the scene file's folder, or absolute).
  ///   - image: the image layers show; `SceneFile.encode` names a layer's contents by it.
  public init(name: String, path: String, image: Image) {
    self.name = name
    self.path = path
    self.kind = .image
    self.image = image
  }

  init(name: String, path: String, kind: Kind, image: Image, clip: ClipInfo?) {
    self.name = name
    self.path = path
    self.kind = kind
    self.image = image
    self.clip = clip
  }

  /// Reads the `media` object: every still decoded once, every clip probed.
  static func readAll(_ node: SceneNode, folder: URL) throws(SceneFileError) -> [SceneMedia] {
    guard case .object(let members) = node.value else {
      throw node.invalid("an object of media by name, such as {\"sunset\": \"photos/sunset.jpg\"}")
    }
    var out: [SceneMedia] = []
    for (name, value) in members {
      let entry = SceneNode(value, path: SceneNode.join(node.path, name))
      guard !name.isEmpty else { throw entry.invalid("a non-empty media name") }
      var pathNode = entry
      var kind = Kind.image
      if case .object = value {
        let o = try entry.object(
          "a path, {\"image\": PATH} or {\"video\": PATH, \"start\": s, \"loop\": b}",
          keys: ["image", "video", "start", "loop"])
        if let image = o["image"], o.members.count == 1 {
          pathNode = image
        } else if let video = o["video"], !o.has("image") {
          pathNode = video
          // Where the clip starts on the scene's clock, within a day either side (Limits).
          let start = try o["start"]?.number(in: -Limits.maxSeconds...Limits.maxSeconds) ?? 0
          kind = .video(start: start, loop: try o["loop"]?.bool() ?? false)
        } else {
          throw entry.invalid("{\"image\": PATH} or {\"video\": PATH, \"start\": s, \"loop\": b}")
        }
      }
      let path = try pathNode.string("a file path")
      let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
      let resolved = url.standardizedFileURL.path
      guard FileManager.default.fileExists(atPath: resolved) else {
        throw .mediaNotFound(path: pathNode.path, resolvedPath: resolved)
      }
      switch kind {
      case .image:
        do {
          out.append(
            SceneMedia(name: name, path: path, kind: kind, image: try ImageFile.read(url), clip: nil))
        } catch {
          throw .unreadableMedia(path: pathNode.path, resolvedPath: resolved, reason: error.description)
        }
      case .video:
        let info: ClipInfo
        let standIn: Image
        do {
          info = try ClipInfo.probe(resolved)
          standIn = try Image(width: info.width, height: info.height, color: .clear)
        } catch {
          throw .unreadableMedia(path: pathNode.path, resolvedPath: resolved, reason: "\(error)")
        }
        out.append(SceneMedia(name: name, path: path, kind: kind, image: standIn, clip: info))
      }
    }
    return out
  }

  /// The JSON of the entry.
  var json: JSON {
    switch kind {
    case .image: return .string(path)
    case .video(let start, let loop):
      var b = ObjectBuilder()
      b.add("video", .string(path))
      if start != 0 { b.add("start", .number(start)) }
      if loop { b.add("loop", .bool(true)) }
      return b.json
    }
  }
}

/// The media of one scene, by name and by image.
struct SceneMediaTable {
  let entries: [SceneMedia]
  /// Where relative paths in the file start (font files as well as media).
  let folder: URL?

  init(_ entries: [SceneMedia], folder: URL? = nil) {
    self.entries = entries
    self.folder = folder
  }

  /// The image a node names.
  func image(_ node: SceneNode) throws(SceneFileError) -> Image {
    let name = try node.string("the name of a media entry, or null")
    guard let m = entries.first(where: { $0.name == name }) else {
      throw .unknownMedia(
        path: node.path, name: name, suggestion: SceneFileError.suggestion(for: name, among: entries.map(\.name)))
    }
    return m.image
  }

  /// The name of the entry holding `image` (the same image value, by `Image.id`).
  func name(of image: Image, path: String) throws(SceneFileError) -> JSON {
    guard let m = entries.first(where: { $0.image.id == image.id }) ?? entries.first(where: { $0.image == image })
    else {
      throw .unencodable(path: path, reason: "an image (\(image.width)×\(image.height)) that no media entry holds")
    }
    return .string(m.name)
  }
}
