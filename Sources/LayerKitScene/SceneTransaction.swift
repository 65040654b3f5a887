import LayerKit

/// One entry of a scene file's `timeline`: changes made together, at a scene time, inside one
/// `Transaction` with the entry's settings, so their implicit animations and transitions happen
/// exactly as the same changes made in code would.
///
/// In the file: `{"time": 2, "duration": 0.8, "timingFunction": "easeInEaseOut",
/// "disableActions": false, "changes": [{"layer": "photo", "set": {"contents": "sunset"}}, …]}`.
public struct SceneTransaction {
  /// When the changes are made, in scene seconds.
  public var time: Double
  /// `Transaction.setAnimationDuration(_:)` (nil: the enclosing default, 0.25 s).
  public var duration: Double?
  /// `Transaction.setAnimationTimingFunction(_:)` (nil: the default timing function).
  public var timingFunction: MediaTimingFunction?
  /// `Transaction.setDisableActions(_:)` (nil: false).
  public var disableActions: Bool?
  /// The changes, made in order.
  public var changes: [SceneChange]

  public init(
    time: Double, duration: Double? = nil, timingFunction: MediaTimingFunction? = nil, disableActions: Bool? = nil,
    changes: [SceneChange]
  ) {
    self.time = time
    self.duration = duration
    self.timingFunction = timingFunction
    self.disableActions = disableActions
    self.changes = changes
  }

  /// Opens a transaction with the entry's settings, makes the changes, and commits it.
  /// - Parameters:
  ///   - layers: every layer the scene has had, attached or not, by name.
  ///   - path: where the entry is in the document, for errors.
  /// - Throws: the error of the first change that cannot be made; the transaction is committed
  ///   with the changes made before it.
  func apply(in layers: LayerDirectory, path: String) throws(SceneFileError) {
    Transaction.begin()
    defer { Transaction.commit() }
    if let duration { Transaction.setAnimationDuration(duration) }
    if let timingFunction { Transaction.setAnimationTimingFunction(timingFunction) }
    if let disableActions { Transaction.setDisableActions(disableActions) }
    for (i, change) in changes.enumerated() {
      try change.apply(in: layers, path: "\(SceneNode.join(path, "changes"))[\(i)]")
    }
  }
}

/// A layer named in a change: one already in the scene (by name), or a new one.
public enum LayerReference {
  case named(String)
  case new(Layer)
}

/// One change of a `SceneTransaction`, made to the layer named `layer`.
public enum SceneChange {
  /// Sets properties, in the order given (`{"layer": N, "set": {"opacity": 0}}`).
  case set(layer: String, [LayerProperty])
  /// Sets or clears the mask (`{"layer": N, "mask": LAYER | "name" | null}`).
  case setMask(layer: String, LayerReference?)
  /// `Layer.add(_:forKey:)` (`{"layer": N, "addAnimation": {…, "key": K}}`).
  case addAnimation(layer: String, Animation, key: String?)
  /// `Layer.removeAnimation(forKey:)` (`{"layer": N, "removeAnimation": K}`).
  case removeAnimation(layer: String, key: String)
  /// `Layer.removeAllAnimations()` (`{"layer": N, "removeAllAnimations": true}`).
  case removeAllAnimations(layer: String)
  /// `Layer.insertSublayer(_:at:)`, or `addSublayer` without an index
  /// (`{"layer": N, "addSublayer": LAYER | "name", "index": i}`).
  case addSublayer(layer: String, LayerReference, index: Int?)
  /// `Layer.removeFromSuperlayer()` (`{"layer": N, "removeFromSuperlayer": true}`).
  case removeFromSuperlayer(layer: String)

  /// The name of the layer the change is made to.
  public var layer: String {
    switch self {
    case .set(let l, _), .setMask(let l, _), .addAnimation(let l, _, _), .removeAnimation(let l, _),
      .removeAllAnimations(let l), .addSublayer(let l, _, _), .removeFromSuperlayer(let l):
      l
    }
  }

  static let actions = [
    "set", "mask", "addAnimation", "removeAnimation", "removeAllAnimations", "addSublayer", "removeFromSuperlayer",
  ]

  func apply(in layers: LayerDirectory, path: String) throws(SceneFileError) {
    let target = try layers.find(layer, path: SceneNode.join(path, "layer"))
    func resolve(_ r: LayerReference, _ p: String) throws(SceneFileError) -> Layer {
      switch r {
      case .new(let l):
        try layers.register(l, path: p)
        return l
      case .named(let n): return try layers.find(n, path: p)
      }
    }
    switch self {
    case .set(_, let properties):
      for p in properties { p.apply(to: target) }
    case .setMask(_, let r):
      guard let r else {
        target.mask = nil
        return
      }
      let p = SceneNode.join(path, "mask")
      let mask = try resolve(r, p)
      if mask === target || target.isDescendant(of: mask) {
        throw .cycle(path: p, reason: "the layer \"\(layer)\" cannot be masked by itself or by its own ancestor")
      }
      if mask.superlayer != nil {
        throw .cycle(
          path: p,
          reason:
            "the mask \(mask.name.map { "\"\($0)\"" } ?? "") is a sublayer of another layer; a mask must not be in a tree"
        )
      }
      target.mask = mask
      try layers.addPendingAnimations(of: mask)
    case .addAnimation(_, let a, let key):
      do {
        try target.addChecked(a, forKey: key)
      } catch {
        throw .animation(path: SceneNode.join(path, "addAnimation"), error)
      }
    case .removeAnimation(_, let key):
      target.removeAnimation(forKey: key)
    case .removeAllAnimations:
      target.removeAllAnimations()
    case .addSublayer(_, let r, let index):
      let p = SceneNode.join(path, "addSublayer")
      let sub = try resolve(r, p)
      if layers.isMask(sub) {
        throw .cycle(
          path: p, reason: "the layer \(sub.name.map { "\"\($0)\"" } ?? "") is a mask; a mask cannot also be a sublayer"
        )
      }
      guard target.insertSublayer(sub, at: index ?? target.sublayers?.count ?? 0) else {
        throw .cycle(
          path: p,
          reason: "adding \(sub.name.map { "\"\($0)\"" } ?? "the layer") to \"\(layer)\" would make it its own ancestor"
        )
      }
      try layers.addPendingAnimations(of: sub)
    case .removeFromSuperlayer:
      target.removeFromSuperlayer()
    }
  }
}

/// Every layer of a scene, by name: how timeline changes find their layers. Layers a change
/// removes stay listed (they may come back); layers a change adds are listed when it adds them.
final class LayerDirectory {
  private(set) var byName: [String: (layer: Layer, path: String)] = [:]
  private(set) var all: [Layer] = []
  /// The layers of `all`, for a check in constant time (a scene of 20 000 layers took 34 s).
  private var listed: Set<ObjectIdentifier> = []

  /// Lists `layer`, its mask and its sublayers, at any depth.
  /// - Throws: `.duplicateLayerName` for a name already listed, `.cycle` for a layer listed twice.
  /// - Parameter sublayers: where the document lists the layer's sublayers (`layers` for the
  ///   root), when not at `PATH.sublayers`.
  func register(_ layer: Layer, path: String, sublayers: String? = nil) throws(SceneFileError) {
    guard listed.insert(ObjectIdentifier(layer)).inserted else {
      throw .cycle(path: path, reason: "the layer \(layer.name.map { "\"\($0)\"" } ?? "") appears twice in the tree")
    }
    all.append(layer)
    if let name = layer.name {
      if let first = byName[name] { throw .duplicateLayerName(path: path, name: name, firstPath: first.path) }
      byName[name] = (layer, path)
    }
    if let mask = layer.mask { try register(mask, path: SceneNode.join(path, "mask")) }
    let list = sublayers ?? SceneNode.join(path, "sublayers")
    for (i, sub) in (layer.sublayers ?? []).enumerated() { try register(sub, path: "\(list)[\(i)]") }
  }

  func find(_ name: String, path: String) throws(SceneFileError) -> Layer {
    guard let l = byName[name]?.layer else {
      throw .unknownLayer(
        path: path, name: name, suggestion: SceneFileError.suggestion(for: name, among: byName.keys.sorted()))
    }
    return l
  }

  /// Animations a scene file gives layers, waiting until their layer is in the tree: a beginTime
  /// of 0 then means the moment the layer joins the scene, as for an animation added in code
  /// after `addSublayer`.
  var pendingAnimations: [ObjectIdentifier: [(animation: Animation, key: String?, path: String)]] = [:]

  /// Adds the waiting animations of `layer`, its mask and its sublayers, in that order.
  func addPendingAnimations(of layer: Layer) throws(SceneFileError) {
    for (a, key, path) in pendingAnimations.removeValue(forKey: ObjectIdentifier(layer)) ?? [] {
      do {
        try layer.addChecked(a, forKey: key)
      } catch {
        throw .animation(path: path, error)
      }
    }
    if let mask = layer.mask { try addPendingAnimations(of: mask) }
    for sub in layer.sublayers ?? [] { try addPendingAnimations(of: sub) }
  }

  /// Whether some layer of the scene has `layer` as its mask.
  func isMask(_ layer: Layer) -> Bool { all.contains { $0.mask === layer } }
}
