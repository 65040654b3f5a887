import LayerKit

// "kind": "emitter": an EmitterLayer (CAEmitterLayer) — emitterPosition, emitterZPosition,
// emitterSize, emitterDepth, emitterShape, emitterMode, renderMode, the multipliers birthRate,
// lifetime, velocity, scale, spin, a seed — and its "emitterCells": cell objects with
// CAEmitterCell's keys ("enabled" for isEnabled, "contents" a picture as a layer's), nested by
// their own "emitterCells".
extension SceneFile {
  static let emitterKeys = [
    "emitterPosition", "emitterZPosition", "emitterSize", "emitterDepth", "emitterShape", "emitterMode", "renderMode",
    "emitterCells", "birthRate", "lifetime", "velocity", "scale", "spin", "seed",
  ]
  static let cellKeys = [
    "name", "enabled", "birthRate", "lifetime", "lifetimeRange", "emissionLatitude", "emissionLongitude",
    "emissionRange", "velocity", "velocityRange", "xAcceleration", "yAcceleration", "zAcceleration", "scale",
    "scaleRange", "scaleSpeed", "spin", "spinRange", "color", "redRange", "greenRange", "blueRange", "alphaRange",
    "redSpeed", "greenSpeed", "blueSpeed", "alphaSpeed", "contents", "contentsScale", "beginTime", "emitterCells",
  ]
  /// How deep cells nest.
  static let maxCellDepth = 4

  /// The emitter's multipliers and where each goes (made when asked: key paths are not Sendable).
  static var emitterFloats: [(String, ReferenceWritableKeyPath<EmitterLayer, Float>)] {
    [
      ("birthRate", \.birthRate), ("lifetime", \.lifetime), ("velocity", \.velocity), ("scale", \.scale),
      ("spin", \.spin),
    ]
  }
}

extension SceneReader {
  /// An emitter's own keys, and its cells.
  func readEmitter(_ o: SceneObject, into e: EmitterLayer) throws(SceneFileError) {
    if let n = o["emitterPosition"] { e.emitterPosition = try n.point() }
    if let n = o["emitterZPosition"] { e.emitterZPosition = try n.number(in: -1e6...1e6) }
    if let n = o["emitterSize"] { e.emitterSize = try n.size() }
    if let n = o["emitterDepth"] { e.emitterDepth = try n.number(in: 0...1e6) }
    if let n = o["emitterShape"] { e.emitterShape = try n.choice(EmitterLayer.EmitterShape.self) }
    if let n = o["emitterMode"] { e.emitterMode = try n.choice(EmitterLayer.EmitterMode.self) }
    if let n = o["renderMode"] { e.renderMode = try n.choice(EmitterLayer.RenderMode.self) }
    for (key, path) in SceneFile.emitterFloats {
      if let n = o[key] { e[keyPath: path] = Float(try n.number(in: 0...1e6)) }
    }
    if let n = o["seed"] {
      // CAEmitterLayer's seed is a 32-bit unsigned number: all of it, not integer()'s usual 1e9 cap.
      let expected = "a whole number from 0 to \(UInt32.max)"
      let seed = try n.number(expected)
      guard seed == seed.rounded(), seed >= 0, seed <= Double(UInt32.max) else { throw n.invalid(expected) }
      e.seed = UInt32(seed)
    }
    if let n = o["emitterCells"] { e.emitterCells = try cells(n, depth: 1) }
  }

  private func cells(_ node: SceneNode, depth: Int) throws(SceneFileError) -> [EmitterCell] {
    guard depth <= SceneFile.maxCellDepth else {
      throw node.invalid("cells nested at most \(SceneFile.maxCellDepth) deep")
    }
    var made: [EmitterCell] = []
    for item in try node.array("an array of emitter cells") {
      let o = try item.object("an emitter cell", keys: SceneFile.cellKeys)
      let cell = EmitterCell()
      if let n = o["name"] { cell.name = try n.string("a cell name") }
      if let n = o["enabled"] { cell.isEnabled = try n.bool() }
      for (key, path) in EmitterCell.numberProperties {
        if let n = o[key] { cell[keyPath: path] = try n.number(in: -1e6...1e6) }
      }
      for (key, path) in EmitterCell.floatProperties {
        if let n = o[key] {
          let low: Double = key.hasSuffix("Speed") ? -1e6 : 0
          cell[keyPath: path] = Float(try n.number(in: low...1e6))
        }
      }
      if let n = o["color"] { cell.color = try n.color() }
      if let n = o["contents"] { cell.contents = n.isNull ? nil : try media.image(n) }
      if let n = o["contentsScale"] { cell.contentsScale = try n.number(in: 0.01...100) }
      if let n = o["emitterCells"] { cell.emitterCells = try cells(n, depth: depth + 1) }
      made.append(cell)
    }
    return made
  }
}

extension SceneWriter {
  /// An emitter's keys that differ from CA's defaults, and its cells.
  func emitter(_ e: EmitterLayer, into b: inout ObjectBuilder, path: String) throws(SceneFileError) {
    typealias W = SceneValueWriter
    let d = EmitterLayer()
    b.add("kind", .string("emitter"))
    if e.emitterPosition != d.emitterPosition { b.add("emitterPosition", W.point(e.emitterPosition)) }
    if e.emitterZPosition != 0 { b.add("emitterZPosition", .number(e.emitterZPosition)) }
    if e.emitterSize != d.emitterSize { b.add("emitterSize", W.size(e.emitterSize)) }
    if e.emitterDepth != 0 { b.add("emitterDepth", .number(e.emitterDepth)) }
    if e.emitterShape != d.emitterShape { b.add("emitterShape", .string(e.emitterShape.rawValue)) }
    if e.emitterMode != d.emitterMode { b.add("emitterMode", .string(e.emitterMode.rawValue)) }
    if e.renderMode != d.renderMode { b.add("renderMode", .string(e.renderMode.rawValue)) }
    for (key, keyPath) in SceneFile.emitterFloats where e[keyPath: keyPath] != 1 {
      b.add(key, .number(Double(e[keyPath: keyPath])))
    }
    if e.seed != 0 { b.add("seed", .number(Double(e.seed))) }
    if let cells = e.emitterCells {
      b.add("emitterCells", try self.cells(cells, path: SceneNode.join(path, "emitterCells")))
    }
  }

  private func cells(_ cells: [EmitterCell], path: String) throws(SceneFileError) -> JSON {
    let d = EmitterCell()
    var out: [JSON] = []
    for (i, cell) in cells.enumerated() {
      let at = "\(path)[\(i)]"
      var b = ObjectBuilder()
      b.add("name", cell.name.map(JSON.string))
      if !cell.isEnabled { b.add("enabled", .bool(false)) }
      for (key, p) in EmitterCell.floatProperties where cell[keyPath: p] != d[keyPath: p] {
        b.add(key, .number(Double(cell[keyPath: p])))
      }
      for (key, p) in EmitterCell.numberProperties where cell[keyPath: p] != d[keyPath: p] {
        b.add(key, .number(cell[keyPath: p]))
      }
      if cell.color != d.color { b.add("color", SceneValueWriter.color(cell.color)) }
      if let image = cell.contents {
        b.add("contents", try media.name(of: image, path: SceneNode.join(at, "contents")))
      }
      if cell.contentsScale != 1 { b.add("contentsScale", .number(cell.contentsScale)) }
      if let sub = cell.emitterCells {
        b.add("emitterCells", try self.cells(sub, path: SceneNode.join(at, "emitterCells")))
      }
      out.append(b.json)
    }
    return .array(out)
  }
}
