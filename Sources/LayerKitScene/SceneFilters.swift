import LayerKit

// Filters (Layer.filters, backgroundFilters): {"type": T, "name": N, parameters…}, with the
// parameters of each type under short names and Core Image's defaults:
//   gaussianBlur: radius (10) · colorControls: saturation (1), brightness (0), contrast (1)
//   colorMatrix: r, g, b, a, bias (4 numbers each; identity) · hueRotation: angle (0)
//   sepia: intensity (1) · invert
// "name" (default: the type) is what key paths use: "filters.NAME.inputRadius".

enum SceneFilters {
  static let types = ["gaussianBlur", "colorControls", "colorMatrix", "hueRotation", "sepia", "invert"]

  static func parameterKeys(_ type: String) -> [String] {
    switch type {
    case "gaussianBlur": ["radius"]
    case "colorControls": ["saturation", "brightness", "contrast"]
    case "colorMatrix": ["r", "g", "b", "a", "bias"]
    case "hueRotation": ["angle"]
    case "sepia": ["intensity"]
    default: []
    }
  }

  static func read(_ node: SceneNode) throws(SceneFileError) -> Filter {
    let expected = "a filter object such as {\"type\": \"gaussianBlur\", \"radius\": 4}"
    guard case .object = node.value else { throw node.invalid(expected) }
    guard let typeValue = node.value["type"] else { throw .missingKey(path: node.path, key: "type") }
    let type = try SceneNode(typeValue, path: SceneNode.join(node.path, "type")).string()
    guard types.contains(type) else {
      let hint = SceneFileError.suggestion(for: type, among: types).map { " (did you mean \"\($0)\"?)" } ?? ""
      throw .invalidValue(
        path: SceneNode.join(node.path, "type"), found: typeValue.kindDescription,
        expected: "one of \(types.map { "\"\($0)\"" }.joined(separator: ", "))\(hint)")
    }
    let o = try node.object(keys: ["type", "name"] + parameterKeys(type))
    func n(_ key: String, _ d: Double) throws(SceneFileError) -> Double { try o[key]?.number() ?? d }
    func v(_ key: String, _ d: SIMD4<Double>) throws(SceneFileError) -> SIMD4<Double> {
      guard let node = o[key] else { return d }
      let x = try node.numbers([4], expected: "4 numbers")
      return SIMD4(x[0], x[1], x[2], x[3])
    }
    let effect: Filter.Effect
    switch type {
    case "gaussianBlur":
      let r = try o["radius"]?.number(atLeast: 0) ?? 10
      effect = .gaussianBlur(radius: r)
    case "colorControls":
      effect = .colorControls(
        saturation: try n("saturation", 1), brightness: try n("brightness", 0), contrast: try n("contrast", 1))
    case "colorMatrix":
      effect = .colorMatrix(
        r: try v("r", [1, 0, 0, 0]), g: try v("g", [0, 1, 0, 0]), b: try v("b", [0, 0, 1, 0]),
        a: try v("a", [0, 0, 0, 1]), bias: try v("bias", .zero))
    case "hueRotation": effect = .hueRotation(angle: try n("angle", 0))
    case "sepia": effect = .sepia(intensity: try n("intensity", 1))
    default: effect = .invert
    }
    return Filter(name: try o["name"]?.string(), effect)
  }

  static func readList(_ node: SceneNode) throws(SceneFileError) -> [Filter] {
    var out: [Filter] = []
    var names: [String: String] = [:]
    for item in try node.array("an array of filters") {
      let f = try read(item)
      if let first = names[f.name] {
        throw .invalidValue(
          path: item.path, found: "a second filter named \"\(f.name)\" (the first is \(first))",
          expected: "filters with different names (set \"name\")")
      }
      names[f.name] = item.path
      out.append(f)
    }
    return out
  }

  static func write(_ f: Filter) -> JSON {
    var b = ObjectBuilder()
    func v(_ x: SIMD4<Double>) -> JSON { .array([x.x, x.y, x.z, x.w].map(JSON.number)) }
    let type: String
    var parameters: [(String, JSON)] = []
    switch f.effect {
    case .gaussianBlur(let r):
      type = "gaussianBlur"
      parameters = [("radius", .number(r))]
    case .colorControls(let s, let br, let c):
      type = "colorControls"
      parameters = [("saturation", .number(s)), ("brightness", .number(br)), ("contrast", .number(c))]
    case .colorMatrix(let r, let g, let bl, let a, let bias):
      type = "colorMatrix"
      parameters = [("r", v(r)), ("g", v(g)), ("b", v(bl)), ("a", v(a)), ("bias", v(bias))]
    case .hueRotation(let a):
      type = "hueRotation"
      parameters = [("angle", .number(a))]
    case .sepia(let i):
      type = "sepia"
      parameters = [("intensity", .number(i))]
    case .invert:
      type = "invert"
    }
    b.add("type", .string(type))
    if f.name != type { b.add("name", .string(f.name)) }
    for (k, j) in parameters { b.add(k, j) }
    return b.json
  }
}
