// LayerKitScene: animated layer compositions described in JSON scene files.
//
// A scene file is a view of LayerKit's own model, not a second one: its layer objects become
// `Layer`s (every property by its Layer name), its animations `BasicAnimation`,
// `SpringAnimation`, `KeyframeAnimation`, `AnimationGroup` and `Transition` objects added with
// `Layer.add(_:forKey:)`, and its timeline entries `Transaction`s whose changes go through the
// layers' setters, so implicit animations and transitions happen as they do in code. Rendering
// is LayerKit's: a `LoadedScene` hands out presentation trees and RenderLists.
//
// What it does not do: render, encode video, or know any backend. It reads media files (stills
// through ImageFile, clips through ffprobe and ffmpeg) when a scene is loaded or played.
// Lifetime: a `LoadedScene` owns its layer tree, its decoded stills, and one decoder per clip
// that a frame has needed, until it is released.
//
// The document (Schemas/scene.schema.json is the same in JSON Schema):
//   {"width": 640, "height": 360, "fps": 30, "duration": 4, "background": "#000000",
//    "media": {"sunset": "photos/03-sunset.jpg"},
//    "root": {layer without "sublayers"},        the root layer, frame (0, 0, width, height)
//    "layers": [layer, …],                       the root's sublayers
//    "timeline": [{"time": 1, "duration": 0.5, "changes": [{"layer": "card", "set": {…}}]}]}
// A layer: {"name", every LayerProperty key, "mask": layer, "sublayers": [layer],
//           "animations": [animation], "actions": {key: animation | null}, "styleActions": {…}}.
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

/// The output a scene file describes: frame size in pixels, frame rate, length and background.
public struct SceneSettings: Equatable, Sendable {
  public var width: Int
  public var height: Int
  /// Frames per second.
  public var fps: Double
  /// Seconds.
  public var duration: Double
  /// Behind the root layer.
  public var background: Color

  public init(width: Int, height: Int, fps: Double = 30, duration: Double, background: Color = .clear) {
    self.width = width
    self.height = height
    self.fps = fps
    self.duration = duration
    self.background = background
  }
}

/// Reads and writes scene files.
public enum SceneFile {
  /// The keys of the document object.
  public static let documentKeys = [
    "$schema", "version", "width", "height", "fps", "duration", "background", "media", "root", "layers", "timeline",
  ]
  /// The largest scene file read (16 MiB).
  public static let maxFileSize = 16 << 20

  /// TextLayer's keys.
  static let textKeys = ["string", "font", "fontSize", "foregroundColor", "wrapped", "alignmentMode", "truncationMode"]
  /// ShapeLayer's keys.
  static let shapeKeys = [
    "path", "fillColor", "fillRule", "strokeColor", "lineWidth", "miterLimit", "lineCap", "lineJoin",
    "lineDashPattern", "lineDashPhase", "strokeStart", "strokeEnd",
  ]
  /// GradientLayer's keys.
  static let gradientKeys = ["colors", "locations", "startPoint", "endPoint", "type"]

  /// ReplicatorLayer's keys.
  static let replicatorKeys = [
    "instanceCount", "instanceTransform", "instanceDelay", "instanceColor", "instanceRedOffset", "instanceGreenOffset",
    "instanceBlueOffset", "instanceAlphaOffset", "preservesDepth",
  ]

  /// The keys of a layer object.
  public static let layerKeys =
    ["name", "kind"] + LayerProperty.keys + ["mask", "animations", "actions", "styleActions", "sublayers"]
    + emitterKeys.filter { !LayerProperty.keys.contains($0) }

  /// Loads a scene file: reads the JSON, decodes every still and probes every clip it names
  /// (relative paths against the file's folder), builds the layer tree and checks the whole
  /// timeline by playing it once on a copy.
  /// - Parameter url: the scene file.
  /// - Returns: the scene at time 0, ready to present at any time.
  /// - Throws: `SceneFileError`, naming the path of the offending value.
  public static func load(_ url: URL) throws(SceneFileError) -> LoadedScene {
    // A folder, a device or a FIFO is named, never read (a FIFO would wait forever).
    if let kind = MediaSource.irregularKind(url.path) {
      throw .unreadable(file: url.path, reason: "\(kind), not a regular file")
    }
    // Bounded before it is read or parsed: scene files are text describing layers, not data.
    if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int,
      size > maxFileSize
    {
      throw .unreadable(file: url.path, reason: "\(size) bytes; a scene file is at most \(maxFileSize) bytes")
    }
    guard let data = FileManager.default.contents(atPath: url.path) else {
      let exists = FileManager.default.fileExists(atPath: url.path)
      throw .unreadable(file: url.path, reason: exists ? "it cannot be read (permissions?)" : "no such file")
    }
    return try decode(data, folder: url.deletingLastPathComponent(), file: url.path)
  }

  /// Decodes a scene file's bytes.
  /// - Parameters:
  ///   - data: the JSON text.
  ///   - folder: where relative media paths start.
  ///   - file: how errors name the text.
  /// - Throws: `SceneFileError`.
  public static func decode(_ data: Data, folder: URL, file: String = "scene") throws(SceneFileError) -> LoadedScene {
    let json = try JSON.parse(data, file: file)
    return try LoadedScene(document: json, folder: folder)
  }

  /// Writes a layer tree built in Swift as a scene file.
  /// - Parameters:
  ///   - root: the root layer; its sublayers become `layers`, its own properties that differ
  ///     from a root of frame (0, 0, width, height) become `root`.
  ///   - settings: size, frame rate, length, background.
  ///   - media: every image the layers and animations show, with the path the file will use.
  ///   - timeline: changes to make over time.
  /// - Returns: indented JSON text, keys in a fixed order.
  /// - Throws: `.unencodable` for an image that is not in `media`, a transition filter value the
  ///   format cannot hold or a number that is not finite; `.cycle` for a mask that is also in
  ///   the tree or a layer that appears twice.
  public static func encode(
    root: Layer, settings: SceneSettings, media: [SceneMedia] = [], timeline: [SceneTransaction] = []
  ) throws(SceneFileError) -> Data {
    try encode(root: root, settings: settings, media: media, timeline: timeline, pending: [:])
  }

  /// `encode(root:settings:media:timeline:)`, with the animations of layers that a timeline
  /// change adds still waiting to be added (a `LoadedScene`'s).
  static func encode(
    root: Layer, settings: SceneSettings, media: [SceneMedia], timeline: [SceneTransaction],
    pending: [ObjectIdentifier: [(animation: Animation, key: String?, path: String)]]
  ) throws(SceneFileError) -> Data {
    let writer = SceneWriter(media: SceneMediaTable(media), pending: pending)
    var b = ObjectBuilder()
    b.add("width", .number(Double(settings.width)))
    b.add("height", .number(Double(settings.height)))
    b.add("fps", .number(settings.fps))
    b.add("duration", .number(settings.duration))
    if settings.background != .clear { b.add("background", SceneValueWriter.color(settings.background)) }
    if !media.isEmpty { b.add("media", .object(media.map { ($0.name, $0.json) })) }
    let reference = Layer(frame: Rect(x: 0, y: 0, width: Double(settings.width), height: Double(settings.height)))
    let rootJSON = try writer.layer(root, reference: reference, path: "root", sublayers: false)
    if case .object(let m) = rootJSON, !m.isEmpty { b.add("root", rootJSON) }
    var layers: [JSON] = []
    for (i, l) in (root.sublayers ?? []).enumerated() { layers.append(try writer.layer(l, path: "layers[\(i)]")) }
    b.add("layers", .array(layers))
    if !timeline.isEmpty {
      var entries: [JSON] = []
      for (i, t) in timeline.enumerated() { entries.append(try writer.transaction(t, path: "timeline[\(i)]")) }
      b.add("timeline", .array(entries))
    }
    try checkFinite(b.json, path: "")
    return Data(b.json.formatted().utf8)
  }

  /// Every number of a written document must be finite (JSON has no NaN or infinity).
  private static func checkFinite(_ json: JSON, path: String) throws(SceneFileError) {
    switch json {
    case .number(let n) where !n.isFinite: throw .unencodable(path: path, reason: "the number \(n) is not finite")
    case .array(let a):
      for (i, e) in a.enumerated() { try checkFinite(e, path: "\(path)[\(i)]") }
    case .object(let o):
      for (k, v) in o { try checkFinite(v, path: SceneNode.join(path, k)) }
    default: break
    }
  }
}

// MARK: - Reading

/// Builds layers, animations and timeline entries from a document.
struct SceneReader {
  let media: SceneMediaTable
  var animations: SceneAnimations { SceneAnimations(media: media) }

  /// A layer and its subtree; its animations (and its subtree's) wait in `directory` until the
  /// layer is in the tree.
  func layer(
    _ node: SceneNode, into directory: LayerDirectory, keys: [String] = SceneFile.layerKeys, layer given: Layer? = nil
  )
    throws(SceneFileError) -> Layer
  {
    let o = try node.object("a layer object", keys: keys)
    // "kind": "transform" is a TransformLayer (CATransformLayer); a plain layer otherwise.
    let layer: Layer
    if let given {
      layer = given
    } else {
      switch try o["kind"]?.choice(names: ["layer", "transform", "replicator", "gradient", "shape", "text", "emitter"]) {
      case "emitter": layer = EmitterLayer()
      case "transform": layer = TransformLayer()
      case "replicator": layer = ReplicatorLayer()
      case "gradient": layer = GradientLayer()
      case "shape": layer = ShapeLayer()
      case "text": layer = TextLayer()
      default: layer = Layer()
      }
    }
    if !(layer is GradientLayer), let key = SceneFile.gradientKeys.first(where: { o[$0] != nil }) {
      throw o[key]!.invalid("\"kind\": \"gradient\" on the layer (\(key) is a GradientLayer's)")
    }
    if !(layer is TextLayer), let key = SceneFile.textKeys.first(where: { o[$0] != nil }) {
      throw o[key]!.invalid("\"kind\": \"text\" on the layer (\(key) is a TextLayer's)")
    }
    if !(layer is ShapeLayer), let key = SceneFile.shapeKeys.first(where: { o[$0] != nil }) {
      throw o[key]!.invalid("\"kind\": \"shape\" on the layer (\(key) is a ShapeLayer's)")
    }
    if !(layer is ReplicatorLayer), let key = SceneFile.replicatorKeys.first(where: { o[$0] != nil }),
      !(layer is EmitterLayer && key == "preservesDepth")
    {
      throw o[key]!.invalid("\"kind\": \"replicator\" on the layer (\(key) is a ReplicatorLayer's)")
    }
    if !(layer is EmitterLayer), let key = SceneFile.emitterKeys.first(where: { o[$0] != nil }) {
      throw o[key]!.invalid("\"kind\": \"emitter\" on the layer (\(key) is an EmitterLayer's)")
    }
    if let emitter = layer as? EmitterLayer { try readEmitter(o, into: emitter) }
    if let n = o["name"] { layer.name = try n.string("a layer name") }
    layer.sourceLabel = node.path
    for p in try LayerProperty.readAll(o, media: media) { p.apply(to: layer) }
    if let n = o["mask"] { layer.mask = try self.layer(n, into: directory) }
    if let n = o["sublayers"] {
      for item in try n.array("an array of layers") { layer.addSublayer(try self.layer(item, into: directory)) }
    }
    if let n = o["animations"] {
      var pending: [(Animation, String?, String)] = []
      for item in try n.array("an array of animations") {
        let (a, key) = try animations.read(item)
        pending.append((a, key, item.path))
      }
      directory.pendingAnimations[ObjectIdentifier(layer), default: []] += pending
    }
    for (key, set) in [
      ("actions", { (l: Layer, v: [String: any Action]) in l.actions = v }),
      ("styleActions", { $0.styleActions = $1 }),
    ] {
      guard let n = o[key] else { continue }
      guard case .object(let members) = n.value else {
        throw n.invalid("an object of actions by property key, each an animation or null")
      }
      var actions: [String: any Action] = [:]
      for (k, v) in members {
        let item = SceneNode(v, path: SceneNode.join(n.path, k))
        actions[k] = item.isNull ? NSNull() : try animations.read(item).animation
      }
      set(layer, actions)
    }
    return layer
  }

  static let entryKeys = ["time", "duration", "timingFunction", "disableActions", "changes"]

  func timeline(_ node: SceneNode, into directory: LayerDirectory) throws(SceneFileError) -> [SceneTransaction] {
    var out: [SceneTransaction] = []
    for item in try node.array("an array of timeline entries") {
      let o = try item.object("a timeline entry such as {\"time\": 1, \"changes\": […]}", keys: Self.entryKeys)
      // Within a day (Limits.maxSeconds), as the scene's other times are: an entry at 1e300 s
      // was accepted and never played.
      var t = SceneTransaction(time: try o.required("time").number(in: 0...Limits.maxSeconds), changes: [])
      if let n = o["duration"] { t.duration = try n.number(in: 0...Limits.maxSeconds) }
      if let n = o["timingFunction"] { t.timingFunction = try n.timingFunction() }
      if let n = o["disableActions"] { t.disableActions = try n.bool() }
      for c in try o.required("changes").array("an array of changes") {
        t.changes.append(try change(c, into: directory))
      }
      if let last = out.last, last.time > t.time {
        throw item.invalid("an entry at time ≥ \(JSON.format(last.time)) (entries are in time order)")
      }
      out.append(t)
    }
    return out
  }

  private func change(_ node: SceneNode, into directory: LayerDirectory) throws(SceneFileError) -> SceneChange {
    let o = try node.object(
      "a change such as {\"layer\": \"card\", \"set\": {\"opacity\": 0}}",
      keys: ["layer", "index"] + SceneChange.actions)
    let layer = try o.required("layer").string("a layer name")
    let actions = o.keys.filter(SceneChange.actions.contains)
    guard actions.count == 1, let action = actions.first, let n = o[action] else {
      throw node.invalid("a change with exactly one of \(SceneChange.actions.joined(separator: ", "))")
    }
    if o.has("index"), action != "addSublayer" {
      throw .unknownKey(path: node.path, key: "index", suggestion: nil, known: ["layer", action])
    }
    func reference(_ n: SceneNode) throws(SceneFileError) -> LayerReference {
      if case .string(let name) = n.value { return .named(name) }
      return .new(try self.layer(n, into: directory))
    }
    func yes(_ n: SceneNode) throws(SceneFileError) {
      guard try n.bool() else { throw n.invalid("true") }
    }
    switch action {
    case "set":
      let s = try n.object("an object of layer properties", keys: LayerProperty.keys)
      return .set(layer: layer, try LayerProperty.readAll(s, media: media))
    case "mask":
      return .setMask(layer: layer, n.isNull ? nil : try reference(n))
    case "addAnimation":
      let (a, key) = try animations.read(n)
      return .addAnimation(layer: layer, a, key: key)
    case "removeAnimation":
      return .removeAnimation(layer: layer, key: try n.string("an animation key"))
    case "removeAllAnimations":
      try yes(n)
      return .removeAllAnimations(layer: layer)
    case "addSublayer":
      return .addSublayer(layer: layer, try reference(n), index: try o["index"]?.integer(atLeast: 0))
    default:
      try yes(n)
      return .removeFromSuperlayer(layer: layer)
    }
  }
}

// MARK: - Writing

/// Writes layers, animations and timeline entries.
struct SceneWriter {
  let media: SceneMediaTable
  var animations: SceneAnimations { SceneAnimations(media: media) }
  private let visited = Visited()
  /// Animations of layers not yet in the tree, written with their layers.
  let pending: [ObjectIdentifier: [(animation: Animation, key: String?, path: String)]]

  init(media: SceneMediaTable, pending: [ObjectIdentifier: [(animation: Animation, key: String?, path: String)]] = [:])
  {
    self.media = media
    self.pending = pending
  }

  private final class Visited { var layers: [ObjectIdentifier: String] = [:] }

  func layer(_ l: Layer, reference: Layer = Layer(), path: String, sublayers: Bool = true) throws(SceneFileError)
    -> JSON
  {
    if let first = visited.layers[ObjectIdentifier(l)] {
      throw .cycle(path: path, reason: "the same layer is already written at \(first)")
    }
    visited.layers[ObjectIdentifier(l)] = path
    var b = ObjectBuilder()
    b.add("name", l.name.map(JSON.string))
    if l is TransformLayer { b.add("kind", .string("transform")) }
    if l is ReplicatorLayer { b.add("kind", .string("replicator")) }
    if l is GradientLayer { b.add("kind", .string("gradient")) }
    if l is ShapeLayer { b.add("kind", .string("shape")) }
    if l is TextLayer { b.add("kind", .string("text")) }
    if let emitter = l as? EmitterLayer { try self.emitter(emitter, into: &b, path: path) }
    for p in LayerProperty.changed(in: l, from: reference) {
      b.add(p.key, try p.json(media: media, path: SceneNode.join(path, p.key)))
    }
    if let mask = l.mask {
      if mask.superlayer != nil {
        throw .cycle(path: SceneNode.join(path, "mask"), reason: "the mask is also a sublayer of a layer")
      }
      b.add("mask", try layer(mask, path: SceneNode.join(path, "mask")))
    }
    var added = (l.animationKeys() ?? []).compactMap { key in l.animation(forKey: key).map { (animation: $0, key: Optional(key)) }
    }
    added += (pending[ObjectIdentifier(l)] ?? []).map { ($0.animation, $0.key) }
    if !added.isEmpty {
      var list: [JSON] = []
      for (i, (a, key)) in added.enumerated() {
        list.append(try animations.json(a, key: key, path: "\(SceneNode.join(path, "animations"))[\(i)]"))
      }
      b.add("animations", .array(list))
    }
    b.add("actions", try actions(l.actions, path: SceneNode.join(path, "actions")))
    b.add("styleActions", try actions(l.styleActions, path: SceneNode.join(path, "styleActions")))
    if sublayers, let subs = l.sublayers {
      var list: [JSON] = []
      for (i, s) in subs.enumerated() {
        list.append(try layer(s, path: "\(SceneNode.join(path, "sublayers"))[\(i)]"))
      }
      b.add("sublayers", .array(list))
    } else if !sublayers, l.sublayers != nil, path != "root" {
      throw .unencodable(path: path, reason: "sublayers where none may be")
    }
    return b.json
  }

  private func actions(_ actions: [String: any Action]?, path: String) throws(SceneFileError) -> JSON? {
    guard let actions, !actions.isEmpty else { return nil }
    var b = ObjectBuilder()
    for (key, action) in actions.sorted(by: { $0.key < $1.key }) {
      switch action {
      case is NSNull: b.add(key, .null)
      case let a as Animation: b.add(key, try animations.json(a, key: nil, path: SceneNode.join(path, key)))
      default:
        throw .unencodable(
          path: SceneNode.join(path, key), reason: "an action of its own (\(type(of: action))), neither an animation nor null")
      }
    }
    return b.json
  }

  func transaction(_ t: SceneTransaction, path: String) throws(SceneFileError) -> JSON {
    var b = ObjectBuilder()
    b.add("time", .number(t.time))
    b.add("duration", t.duration.map(JSON.number))
    b.add("timingFunction", t.timingFunction.map(SceneValueWriter.timingFunction))
    b.add("disableActions", t.disableActions.map(JSON.bool))
    var changes: [JSON] = []
    for (i, c) in t.changes.enumerated() {
      let p = "\(SceneNode.join(path, "changes"))[\(i)]"
      var cb = ObjectBuilder()
      cb.add("layer", .string(c.layer))
      func reference(_ r: LayerReference, _ key: String) throws(SceneFileError) -> JSON {
        switch r {
        case .named(let n): .string(n)
        case .new(let l): try layer(l, path: SceneNode.join(p, key))
        }
      }
      switch c {
      case .set(_, let properties):
        var sb = ObjectBuilder()
        for prop in properties {
          sb.add(prop.key, try prop.json(media: media, path: SceneNode.join(p, "set.\(prop.key)")))
        }
        cb.add("set", sb.json)
      case .setMask(_, let r):
        cb.add("mask", try r.map { (r) throws(SceneFileError) -> JSON in try reference(r, "mask") } ?? .null)
      case .addAnimation(_, let a, let key):
        cb.add("addAnimation", try animations.json(a, key: key, path: SceneNode.join(p, "addAnimation")))
      case .removeAnimation(_, let key): cb.add("removeAnimation", .string(key))
      case .removeAllAnimations: cb.add("removeAllAnimations", .bool(true))
      case .addSublayer(_, let r, let index):
        cb.add("addSublayer", try reference(r, "addSublayer"))
        cb.add("index", index.map { .number(Double($0)) })
      case .removeFromSuperlayer: cb.add("removeFromSuperlayer", .bool(true))
      }
      changes.append(cb.json)
    }
    b.add("changes", .array(changes))
    return b.json
  }
}
