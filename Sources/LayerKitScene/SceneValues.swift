import Foundation
import LayerKit

// The value types of the format, each read from and written to one JSON shape:
//   point [x, y] · size [width, height] · rect [x, y, width, height]
//   colour "#RRGGBB", "#RRGGBBAA" or [r, g, b] / [r, g, b, a] with components in 0…1
//   transform: 16 numbers (m11 … m44, row by row, CATransform3D's layout) or a list of operations
//     applied to the layer in list order: {"translate": [x, y] | [x, y, z]}, {"translateX": n}…,
//     {"scale": n | [x, y] | [x, y, z]}, {"scaleX": n}…, {"rotate": radians | [radians, x, y, z]},
//     {"rotateX": radians}…, {"perspective": eye distance}, {"matrix": [16 numbers]}
//   path: SVG-like path data, absolute commands "M x y", "L x y", "Q cx cy x y",
//     "C c1x c1y c2x c2y x y", "Z"; or {"rect": rect}, {"ellipse": rect},
//     {"roundedRect": rect, "cornerRadius": n}
//   timing function: "linear", "easeIn", "easeOut", "easeInEaseOut", "default" or
//     [c1x, c1y, c2x, c2y]
//   filter: {"type": "gaussianBlur", "radius": 10, "name": "blur"} (see `filterKeys`)

extension SceneNode {
  func point() throws(SceneFileError) -> Point {
    let v = try numbers([2], expected: "a point [x, y]")
    return Point(x: v[0], y: v[1])
  }

  func size() throws(SceneFileError) -> Size {
    let v = try numbers([2], expected: "a size [width, height]")
    return Size(width: v[0], height: v[1])
  }

  func rect() throws(SceneFileError) -> Rect {
    let v = try numbers([4], expected: "a rectangle [x, y, width, height]")
    return Rect(x: v[0], y: v[1], width: v[2], height: v[3])
  }

  static let colorExpected = "a colour \"#RRGGBB\", \"#RRGGBBAA\" or [r, g, b(, a)] with components in 0…1"

  /// An array of colours.
  func colorList() throws(SceneFileError) -> [Color] {
    var out: [Color] = []
    for e in try array("an array of colours") { out.append(try e.color()) }
    return out
  }

  func color() throws(SceneFileError) -> Color {
    switch value {
    case .string(let s):
      let hex = s.hasPrefix("#") ? String(s.dropFirst()) : ""
      guard hex.count == 6 || hex.count == 8, hex.allSatisfy(\.isHexDigit), let v = UInt32(hex, radix: 16) else {
        throw invalid(SceneNode.colorExpected)
      }
      let rgba = hex.count == 6 ? v << 8 | 0xFF : v
      func c(_ shift: UInt32) -> Double { Double((rgba >> shift) & 0xFF) / 255 }
      return Color(red: c(24), green: c(16), blue: c(8), alpha: c(0))
    case .array:
      let v = try numbers([3, 4], expected: SceneNode.colorExpected)
      for (i, x) in v.enumerated() where !(0...1).contains(x) {
        throw SceneNode(.number(x), path: "\(path)[\(i)]").invalid("a colour component in 0…1")
      }
      return Color(red: v[0], green: v[1], blue: v[2], alpha: v.count == 4 ? v[3] : 1)
    default:
      throw invalid(SceneNode.colorExpected)
    }
  }

  static let transformExpected = "a transform: 16 numbers or a list of operations such as {\"rotateY\": 0.5}"
  static let transformOperations = [
    "translate", "translateX", "translateY", "translateZ", "scale", "scaleX", "scaleY", "scaleZ", "rotate",
    "rotateX", "rotateY", "rotateZ", "perspective", "matrix",
  ]

  func transform() throws(SceneFileError) -> Transform3D {
    guard case .array(let items) = value else { throw invalid(SceneNode.transformExpected) }
    if items.allSatisfy({ if case .number = $0 { true } else { false } }), !items.isEmpty {
      return Transform3D(matrix: try numbers([16], expected: "16 numbers (m11 … m44, row by row)"))
    }
    var t = Transform3D.identity
    for op in try array() {
      let object = try op.object("an operation such as {\"rotateY\": 0.5}", keys: SceneNode.transformOperations)
      guard object.members.count == 1, let key = object.keys.first, let arg = object[key] else {
        throw op.invalid("an object with exactly one operation, such as {\"translate\": [10, 0]}")
      }
      t = t.concatenating(try arg.operation(key))
    }
    return t
  }

  private func operation(_ key: String) throws(SceneFileError) -> Transform3D {
    switch key {
    case "translate":
      let v = try numbers([2, 3], expected: "[x, y] or [x, y, z]")
      return Transform3D(translationX: v[0], y: v[1], z: v.count == 3 ? v[2] : 0)
    case "translateX": return Transform3D(translationX: try number(), y: 0, z: 0)
    case "translateY": return Transform3D(translationX: 0, y: try number(), z: 0)
    case "translateZ": return Transform3D(translationX: 0, y: 0, z: try number())
    case "scale":
      if case .number(let s) = value { return Transform3D(scaleX: s, y: s, z: s) }
      let v = try numbers([2, 3], expected: "a number, [x, y] or [x, y, z]")
      return Transform3D(scaleX: v[0], y: v[1], z: v.count == 3 ? v[2] : 1)
    case "scaleX": return Transform3D(scaleX: try number(), y: 1, z: 1)
    case "scaleY": return Transform3D(scaleX: 1, y: try number(), z: 1)
    case "scaleZ": return Transform3D(scaleX: 1, y: 1, z: try number())
    case "rotate":
      if case .number(let a) = value { return Transform3D(rotationAngle: a, x: 0, y: 0, z: 1) }
      let v = try numbers([4], expected: "an angle in radians, or [angle, x, y, z]")
      return Transform3D(rotationAngle: v[0], x: v[1], y: v[2], z: v[3])
    case "rotateX": return Transform3D(rotationAngle: try number("an angle in radians"), x: 1, y: 0, z: 0)
    case "rotateY": return Transform3D(rotationAngle: try number("an angle in radians"), x: 0, y: 1, z: 0)
    case "rotateZ": return Transform3D(rotationAngle: try number("an angle in radians"), x: 0, y: 0, z: 1)
    case "perspective":
      let d = try number("an eye distance > 0")
      guard d > 0 else { throw invalid("an eye distance > 0") }
      return .perspective(eyeDistance: d)
    default:  // "matrix"
      return Transform3D(matrix: try numbers([16], expected: "16 numbers (m11 … m44, row by row)"))
    }
  }

  static let pathExpected =
    "a path: \"M x y L x y Q cx cy x y C c1x c1y c2x c2y x y Z\", {\"rect\": […]}, {\"ellipse\": […]} or "
    + "{\"roundedRect\": […], \"cornerRadius\": r}"

  func bezierPath() throws(SceneFileError) -> Path {
    switch value {
    case .string(let s): return try SceneNode.parsePath(s, path: path)
    case .object:
      let o = try object(SceneNode.pathExpected, keys: ["rect", "ellipse", "roundedRect", "cornerRadius"])
      if let r = o["rect"], o.members.count == 1 { return Path(rect: try r.rect()) }
      if let r = o["ellipse"], o.members.count == 1 { return Path(ellipseIn: try r.rect()) }
      if let r = o["roundedRect"], o.members.count == 2 {
        return Path(roundedRect: try r.rect(), cornerRadius: try o.required("cornerRadius").number(atLeast: 0))
      }
      throw invalid(SceneNode.pathExpected)
    default: throw invalid(SceneNode.pathExpected)
    }
  }

  static func parsePath(_ text: String, path: String) throws(SceneFileError) -> Path {
    let tokens = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\n" || $0 == "\t" }).map(String.init)
    var p = Path()
    var i = 0
    var started = false
    func fail(_ expected: String) -> SceneFileError {
      let found = i < tokens.count ? "\"\(tokens[i])\" (token \(i + 1))" : "the end of the path data"
      return .invalidValue(path: path, found: found, expected: expected)
    }
    func points(_ n: Int, _ command: String) throws(SceneFileError) -> [Point] {
      var out: [Point] = []
      for _ in 0..<n {
        guard i + 1 < tokens.count, let x = Double(tokens[i]), let y = Double(tokens[i + 1]), x.isFinite, y.isFinite
        else { throw fail("\(2 * n) numbers after \(command)") }
        out.append(Point(x: x, y: y))
        i += 2
      }
      return out
    }
    while i < tokens.count {
      let command = tokens[i]
      if command != "M", !started { throw fail("a path that starts with M") }
      i += 1
      switch command {
      case "M": p.move(to: try points(1, "M")[0])
      case "L": p.addLine(to: try points(1, "L")[0])
      case "Q":
        let q = try points(2, "Q")
        p.addQuadCurve(to: q[1], control: q[0])
      case "C":
        let c = try points(3, "C")
        p.addCurve(to: c[2], control1: c[0], control2: c[1])
      case "Z": p.closeSubpath()
      default:
        i -= 1
        throw fail("a path command M, L, Q, C or Z (absolute coordinates)")
      }
      started = true
    }
    return p
  }

  static let timingFunctionExpected =
    "a timing function: \"linear\", \"easeIn\", \"easeOut\", \"easeInEaseOut\", \"default\" or [c1x, c1y, c2x, c2y]"

  func timingFunction() throws(SceneFileError) -> MediaTimingFunction {
    switch value {
    case .string:
      return MediaTimingFunction(name: try choice(MediaTimingFunction.Name.self))
    case .array:
      let v = try numbers([4], expected: SceneNode.timingFunctionExpected)
      do {
        return try MediaTimingFunction(checkedControlPoints: v[0], v[1], v[2], v[3])
      } catch {
        throw invalid("control points with x in 0…1 (\(error))")
      }
    default: throw invalid(SceneNode.timingFunctionExpected)
    }
  }

  /// A repeat count: a number ≥ 0 or "infinity".
  func repeatCount() throws(SceneFileError) -> Double {
    if case .string("infinity") = value { return .infinity }
    guard case .number(let n) = value, n >= 0 else { throw invalid("a number ≥ 0 or \"infinity\"") }
    return n
  }
}

/// The keys of CAMediaTiming, which a layer's `timing` object and every animation have.
let timingKeys = [
  "beginTime", "duration", "speed", "timeOffset", "repeatCount", "repeatDuration", "autoreverses", "fillMode",
]

extension SceneObject {
  /// Reads the timing keys present into `timing`.
  func readTiming(into timing: inout MediaTiming) throws(SceneFileError) {
    // Within LayerKit's Limits: times within a day either way, a duration of 0 (the default)
    // or at least a microsecond, a speed within ±1000.
    let day = Limits.maxSeconds
    if let n = self["beginTime"] { timing.beginTime = try n.number(in: -day...day) }
    if let n = self["duration"] {
      timing.duration = try n.number(in: 0...day)
      if timing.duration > 0 && timing.duration < 1e-6 { throw n.invalid("0, or a duration of at least 0.000001 s") }
    }
    if let n = self["speed"] { timing.speed = try n.number(in: -1000...1000) }
    if let n = self["timeOffset"] { timing.timeOffset = try n.number(in: -day...day) }
    if let n = self["repeatCount"] { timing.repeatCount = try n.repeatCount() }
    if let n = self["repeatDuration"] { timing.repeatDuration = try n.number(in: 0...day) }
    if let n = self["autoreverses"] { timing.autoreverses = try n.bool() }
    if let n = self["fillMode"] { timing.fillMode = try n.choice(FillMode.self) }
  }
}

extension Transform3D {
  /// From 16 numbers, row by row.
  init(matrix v: [Double]) {
    self.init(
      m11: v[0], m12: v[1], m13: v[2], m14: v[3], m21: v[4], m22: v[5], m23: v[6], m24: v[7],
      m31: v[8], m32: v[9], m33: v[10], m34: v[11], m41: v[12], m42: v[13], m43: v[14], m44: v[15])
  }
}

// MARK: - Writing

/// The JSON forms of the value types (the inverse of the readers above). Numbers are written as
/// they are; `SceneFile.encode` checks afterwards that every one is finite.
enum SceneValueWriter {
  static func point(_ p: Point) -> JSON { .array([.number(p.x), .number(p.y)]) }
  static func size(_ s: Size) -> JSON { .array([.number(s.width), .number(s.height)]) }
  static func rect(_ r: Rect) -> JSON {
    .array([.number(r.origin.x), .number(r.origin.y), .number(r.size.width), .number(r.size.height)])
  }

  /// "#RRGGBB(AA)" when every component is a whole number of 255ths, else [r, g, b, a].
  static func color(_ c: Color) -> JSON {
    let components = [c.red, c.green, c.blue, c.alpha]
    let bytes = components.map { ($0 * 255).rounded() }
    if zip(components, bytes).allSatisfy({ (0...255).contains($1) && $1 / 255 == $0 }) {
      let hex = bytes.prefix(c.alpha == 1 ? 3 : 4).map { String(format: "%02X", Int($0)) }.joined()
      return .string("#" + hex)
    }
    return .array(components.map(JSON.number))
  }

  /// One operation where one reads back as exactly the same matrix, else the 16 numbers.
  static func transform(_ t: Transform3D) -> JSON {
    var candidates: [JSON] = []
    if t == Transform3D(translationX: t.m41, y: t.m42, z: t.m43) {
      let v = t.m43 == 0 ? [t.m41, t.m42] : [t.m41, t.m42, t.m43]
      candidates.append(.object([("translate", .array(v.map(JSON.number)))]))
    }
    if t == Transform3D(scaleX: t.m11, y: t.m22, z: t.m33) {
      let v = t.m33 == 1 ? [t.m11, t.m22] : [t.m11, t.m22, t.m33]
      candidates.append(.object([("scale", .array(v.map(JSON.number)))]))
    }
    if t.m34 != 0 { candidates.append(.object([("perspective", .number(-1 / t.m34))])) }
    for (key, angle) in [
      ("rotate", atan2(t.m12, t.m11)), ("rotateX", atan2(t.m23, t.m22)), ("rotateY", atan2(t.m31, t.m11)),
    ] {
      candidates.append(.object([(key, .number(angle))]))
    }
    for c in candidates {
      if let back = try? SceneNode(.array([c]), path: "").transform(), back == t { return .array([c]) }
    }
    return .array(t.rows.joined().map(JSON.number))
  }

  static func path(_ p: Path) -> JSON {
    func f(_ pt: Point) -> String { "\(JSON.format(pt.x)) \(JSON.format(pt.y))" }
    let parts = p.elements.map { e -> String in
      switch e {
      case .move(let to): "M \(f(to))"
      case .line(let to): "L \(f(to))"
      case .quadCurve(let to, let c): "Q \(f(c)) \(f(to))"
      case .curve(let to, let c1, let c2): "C \(f(c1)) \(f(c2)) \(f(to))"
      case .closeSubpath: "Z"
      }
    }
    return .string(parts.joined(separator: " "))
  }

  static func timingFunction(_ f: MediaTimingFunction) -> JSON {
    if let name = MediaTimingFunction.Name.allCases.first(where: { MediaTimingFunction(name: $0) == f }) {
      return .string(name.rawValue)
    }
    return .array([f.c1x, f.c1y, f.c2x, f.c2y].map(JSON.number))
  }

  /// The timing keys whose values differ from Core Animation's defaults.
  static func timing(_ t: MediaTiming, into b: inout ObjectBuilder) {
    let d = MediaTiming()
    if t.beginTime != d.beginTime { b.add("beginTime", .number(t.beginTime)) }
    if t.duration != d.duration { b.add("duration", .number(t.duration)) }
    if t.speed != d.speed { b.add("speed", .number(t.speed)) }
    if t.timeOffset != d.timeOffset { b.add("timeOffset", .number(t.timeOffset)) }
    if t.repeatCount != d.repeatCount {
      b.add("repeatCount", t.repeatCount == .infinity ? .string("infinity") : .number(t.repeatCount))
    }
    if t.repeatDuration != d.repeatDuration { b.add("repeatDuration", .number(t.repeatDuration)) }
    if t.autoreverses != d.autoreverses { b.add("autoreverses", .bool(t.autoreverses)) }
    if t.fillMode != d.fillMode { b.add("fillMode", .string(t.fillMode.rawValue)) }
  }
}
