import Foundation
import LayerKit

// Animations: {"kind": K, "key": KEY, timing keys, "timingFunction", "removedOnCompletion", …}
//   basic     keyPath, from, to, by, additive, cumulative, valueFunction
//   spring    the basic keys + mass, stiffness, damping, initialVelocity — or perceptualDuration
//             and bounce instead of mass, stiffness and damping
//   keyframe  keyPath, values | path, keyTimes, timingFunctions, calculationMode, tensionValues,
//             continuityValues, biasValues, rotationMode, additive, cumulative, valueFunction
//   group     animations
//   transition  type, subtype, startProgress, endProgress, reversesEffect,
//               filter {"effect": NAME, "parameters": {…}}
// Values take the JSON form of the key path's type (a number for opacity, a point for position, a
// transform for transform, a media name for contents …); with a valueFunction, numbers or [x, y, z].

/// The JSON type of the values of each animatable key path.
enum SceneValueKind: String {
  case number, bool, point, size, rect, color, transform, image, path, colors, numbers

  /// The kind of `keyPath`'s values; nil for a key path LayerKit does not animate.
  static func of(_ keyPath: String) -> SceneValueKind? {
    if let k = table[keyPath] { return k }
    let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false)
    if parts.count == 3, parts[0] == "filters" || parts[0] == "backgroundFilters", !parts[1].isEmpty,
      !parts[2].isEmpty
    {
      return .number
    }
    return nil
  }

  /// Every fixed key path (filter parameters, "filters.NAME.PARAM", come by pattern).
  static let table: [String: SceneValueKind] = {
    var t: [String: SceneValueKind] = [:]
    for k in [
      "opacity", "zPosition", "anchorPointZ", "instanceDelay", "instanceRedOffset", "instanceGreenOffset",
      "instanceBlueOffset", "instanceAlphaOffset", "cornerRadius", "borderWidth", "shadowOpacity", "shadowRadius",
      "contentsScale",
      "position.x", "position.y", "anchorPoint.x", "anchorPoint.y", "bounds.origin.x", "bounds.origin.y",
      "bounds.size.width", "bounds.size.height", "shadowOffset.width", "shadowOffset.height",
    ] {
      t[k] = .number
    }
    for k in ["hidden", "masksToBounds", "doubleSided"] { t[k] = .bool }
    for k in ["position", "anchorPoint", "bounds.origin"] { t[k] = .point }
    for k in ["bounds.size", "shadowOffset", "transform.translation", "sublayerTransform.translation"] { t[k] = .size }
    for k in ["bounds", "contentsRect", "contentsCenter"] { t[k] = .rect }
    for k in ["backgroundColor", "borderColor", "shadowColor", "instanceColor"] { t[k] = .color }
    t["instanceTransform"] = .transform
    for k in ["startPoint", "endPoint"] { t[k] = .point }
    t["colors"] = .colors
    t["locations"] = .numbers
    t["contents"] = .image
    t["shadowPath"] = .path
    t["path"] = .path
    for k in ["fillColor", "strokeColor", "foregroundColor"] { t[k] = .color }
    t["fontSize"] = .number
    for k in ["lineWidth", "miterLimit", "lineDashPhase", "strokeStart", "strokeEnd"] { t[k] = .number }
    for base in ["transform", "sublayerTransform"] {
      t[base] = .transform
      for c in [
        "translation.x", "translation.y", "translation.z", "scale.x", "scale.y", "scale.z", "scale", "rotation.x",
        "rotation.y", "rotation.z", "rotation",
      ] {
        t["\(base).\(c)"] = .number
      }
    }
    return t
  }()
}

/// Reads and writes animations.
struct SceneAnimations {
  let media: SceneMediaTable

  static let kinds = ["basic", "spring", "keyframe", "group", "transition"]
  static let common = ["kind", "key", "timingFunction", "removedOnCompletion"] + timingKeys
  static let property = ["keyPath", "additive", "cumulative", "valueFunction"]

  static func keys(of kind: String) -> [String] {
    switch kind {
    case "basic": common + property + ["from", "to", "by"]
    case "spring":
      common + property + [
        "from", "to", "by", "mass", "stiffness", "damping", "initialVelocity", "perceptualDuration", "bounce",
      ]
    case "keyframe":
      common + property + [
        "values", "path", "keyTimes", "timingFunctions", "calculationMode", "tensionValues", "continuityValues",
        "biasValues", "rotationMode",
      ]
    case "group": common + ["animations"]
    default: common + ["type", "subtype", "startProgress", "endProgress", "reversesEffect", "filter"]
    }
  }

  /// Reads one animation and the key to add it under.
  func read(_ node: SceneNode) throws(SceneFileError) -> (animation: Animation, key: String?) {
    let expected = "an animation object such as {\"kind\": \"basic\", \"keyPath\": \"opacity\", \"to\": 0}"
    guard case .object = node.value else { throw node.invalid(expected) }
    guard let kindValue = node.value["kind"] else { throw .missingKey(path: node.path, key: "kind") }
    let kindNode = SceneNode(kindValue, path: SceneNode.join(node.path, "kind"))
    let kind = try kindNode.string()
    guard Self.kinds.contains(kind) else {
      let hint = SceneFileError.suggestion(for: kind, among: Self.kinds).map { " (did you mean \"\($0)\"?)" } ?? ""
      throw kindNode.invalid("one of \(Self.kinds.map { "\"\($0)\"" }.joined(separator: ", "))\(hint)")
    }
    let o = try node.object(keys: Self.keys(of: kind))
    let animation: Animation
    switch kind {
    case "basic", "spring", "keyframe":
      animation = try readProperty(o, kind: kind)
    case "group":
      let group = AnimationGroup()
      for child in try o.required("animations").array("an array of animations") {
        let (a, key) = try read(child)
        if key != nil {
          throw .unknownKey(path: child.path, key: "key", suggestion: nil, known: ["a group's children have no key"])
        }
        group.animations.append(a)
      }
      animation = group
    default:
      animation = try readTransition(o)
    }
    try o.readTiming(into: &animation.timing)
    if let n = o["timingFunction"] { animation.timingFunction = try n.timingFunction() }
    if let n = o["removedOnCompletion"] { animation.isRemovedOnCompletion = try n.bool() }
    return (animation, try o["key"]?.string())
  }

  private func readProperty(_ o: SceneObject, kind: String) throws(SceneFileError) -> PropertyAnimation {
    let keyPathNode = try o.required("keyPath")
    let keyPath = try keyPathNode.string("an animatable key path such as \"opacity\"")
    guard var valueKind = SceneValueKind.of(keyPath) else {
      let known = SceneValueKind.table.keys.sorted()
      throw .invalidValue(
        path: keyPathNode.path, found: keyPathNode.value.kindDescription,
        expected: "an animatable key path"
          + (SceneFileError.suggestion(for: keyPath, among: known).map { " (did you mean \"\($0)\"?)" } ?? ""))
    }
    var valueFunction: ValueFunction?
    if let n = o["valueFunction"] {
      let f = try n.choice(ValueFunction.self)
      guard valueKind == .transform else {
        throw n.invalid("no value function: only \"transform\" and \"sublayerTransform\" take one")
      }
      valueFunction = f
      valueKind = .number
    }
    func value(_ n: SceneNode) throws(SceneFileError) -> any Animatable {
      if valueFunction != nil, case .array = n.value {
        let v = try n.numbers([3], expected: "a number or [x, y, z] for the value function")
        return SIMD3(v[0], v[1], v[2])
      }
      return try read(n, as: valueKind)
    }
    let a: PropertyAnimation
    switch kind {
    case "keyframe":
      let k = KeyframeAnimation(keyPath: keyPath)
      if let n = o["values"] {
        var values: [any Animatable] = []
        for v in try n.array("an array of values") { values.append(try value(v)) }
        k.values = values
      }
      if let n = o["path"] { k.pathValue = try n.bezierPath() }
      if k.values == nil, k.path == nil { throw .missingKey(path: o.path, key: "values") }
      if let n = o["keyTimes"] { k.keyTimes = try n.numberList().map { NSNumber(value: $0) } }
      if let n = o["timingFunctions"] {
        var fs: [MediaTimingFunction] = []
        for f in try n.array("an array of timing functions") { fs.append(try f.timingFunction()) }
        k.timingFunctions = fs
      }
      if let n = o["calculationMode"] { k.calculationMode = try n.choice(KeyframeCalculationMode.self) }
      if let n = o["tensionValues"] { k.tensionValues = try n.numberList() }
      if let n = o["continuityValues"] { k.continuityValues = try n.numberList() }
      if let n = o["biasValues"] { k.biasValues = try n.numberList() }
      if let n = o["rotationMode"] {
        k.rotationMode = RotationMode(rawValue: try n.choice(names: ["auto", "autoReverse"]))
      }
      a = k
    default:
      let b: BasicAnimation
      if kind == "spring" {
        let s = SpringAnimation(keyPath: keyPath)
        if o.has("perceptualDuration") || o.has("bounce") {
          if let clash = ["mass", "stiffness", "damping"].first(where: o.has) {
            throw .invalidValue(
              path: SceneNode.join(o.path, clash), found: "\"\(clash)\" with perceptualDuration/bounce",
              expected: "either perceptualDuration and bounce, or mass, stiffness and damping")
          }
          let d = try o.required("perceptualDuration").number()
          let bounce = try o["bounce"]?.number() ?? 0
          do {
            let p = try SpringAnimation(keyPath: keyPath, perceptualDuration: d, bounce: bounce)
            (s.mass, s.stiffness, s.damping) = (p.mass, p.stiffness, p.damping)
          } catch {
            // Named by the key at fault: a bounce out of range is the bounce's.
            var key = "perceptualDuration"
            if case .outOfRange("bounce", _, _) = error { key = "bounce" }
            throw .invalidValue(
              path: SceneNode.join(o.path, key), found: "\(JSON.format(d)), bounce \(bounce)",
              expected: "a spring that can move (\(error))")
          }
        }
        if let n = o["mass"] { s.mass = try n.number() }
        if let n = o["stiffness"] { s.stiffness = try n.number() }
        if let n = o["damping"] { s.damping = try n.number() }
        if let n = o["initialVelocity"] { s.initialVelocity = try n.number() }
        b = s
      } else {
        b = BasicAnimation(keyPath: keyPath)
      }
      if let n = o["from"] { b.fromValue = try value(n) }
      if let n = o["to"] { b.toValue = try value(n) }
      if let n = o["by"] { b.byValue = try value(n) }
      a = b
    }
    a.valueFunction = valueFunction
    if let n = o["additive"] { a.isAdditive = try n.bool() }
    if let n = o["cumulative"] { a.isCumulative = try n.bool() }
    return a
  }

  private func read(_ n: SceneNode, as kind: SceneValueKind) throws(SceneFileError) -> any Animatable {
    switch kind {
    case .number: try n.number()
    case .bool: try n.bool()
    case .point: try n.point()
    case .size: try n.size()
    case .rect: try n.rect()
    case .color: try n.color()
    case .transform: try n.transform()
    case .image: n.isNull ? Image.zero : try media.image(n)
    case .path: n.isNull ? Path?.none : Path?.some(try n.bezierPath())
    case .colors: try n.colorList()
    case .numbers: try n.numberList()
    }
  }

  private func readTransition(_ o: SceneObject) throws(SceneFileError) -> Transition {
    let t = Transition()
    if let n = o["type"] { t.type = try n.choice(TransitionType.self) }
    if let n = o["subtype"] { t.subtype = try n.choice(TransitionSubtype.self) }
    if let n = o["startProgress"] { t.startProgress = try n.number() }
    if let n = o["endProgress"] { t.endProgress = try n.number() }
    if let n = o["reversesEffect"] { t.reversesEffect = try n.bool() }
    if let n = o["filter"] {
      let f = try n.object("a filter such as {\"effect\": \"ripple\"}", keys: ["effect", "parameters"])
      let effectNode = try f.required("effect")
      let effect = try effectNode.string("the name of a built-in effect")
      guard let entry = TransitionEffects.all[effect] else {
        let names = TransitionEffects.all.keys.sorted()
        let hint = SceneFileError.suggestion(for: effect, among: names).map { " (did you mean \"\($0)\"?)" } ?? ""
        throw effectNode.invalid("a built-in effect: \(names.joined(separator: ", "))\(hint)")
      }
      var parameters: [String: TransitionValue] = [:]
      if let p = f["parameters"] {
        let names = entry.parameters.map(\.name)
        let po = try p.object(keys: names)
        for (name, _) in po.members {
          let node = po[name]!
          let type = entry.parameterTypes[names.firstIndex(of: name)!]
          parameters[name] = try transitionValue(node, type)
        }
      }
      t.filter = EffectTransitionFilter(effect, parameters: parameters)
    }
    return t
  }

  private func transitionValue(
    _ n: SceneNode, _ type: TransitionUniformType
  ) throws(SceneFileError) -> TransitionValue {
    func floats(_ count: Int) throws(SceneFileError) -> [Float] {
      try n.numbers([count], expected: "\(count) numbers").map { Float($0) }
    }
    switch type {
    case .float: return .float(Float(try n.number()))
    case .int:
      let v = try n.number("a whole number")
      guard v == v.rounded(), abs(v) < 1e9 else { throw n.invalid("a whole number") }
      return .int(Int32(v))
    case .bool: return .bool(try n.bool())
    case .vec2: return .vec2(SIMD2(try floats(2)))
    case .vec3: return .vec3(SIMD3(try floats(3)))
    case .vec4: return .vec4(SIMD4(try floats(4)))
    case .ivec2:
      let v = try n.numbers([2], expected: "2 whole numbers")
      guard v.allSatisfy({ $0 == $0.rounded() && abs($0) < 1e9 }) else { throw n.invalid("2 whole numbers") }
      return .ivec2(SIMD2(Int32(v[0]), Int32(v[1])))
    case .sampler2D: return .image(try media.image(n))
    }
  }

  // MARK: Writing

  func json(_ a: Animation, key: String?, path: String) throws(SceneFileError) -> JSON {
    var b = ObjectBuilder()
    switch a {
    case let k as KeyframeAnimation:
      b.add("kind", .string("keyframe"))
      b.add("key", key.map(JSON.string))
      try property(k, into: &b, path: path)
      if let v = k.values { b.add("values", .array(try values(v, k, path: SceneNode.join(path, "values")))) }
      if let p = k.pathValue { b.add("path", SceneValueWriter.path(p)) }
      if let v = k.keyTimes { b.add("keyTimes", .array(v.map { JSON.number($0.doubleValue) })) }
      if let v = k.timingFunctions { b.add("timingFunctions", .array(v.map(SceneValueWriter.timingFunction))) }
      if k.calculationMode != .linear { b.add("calculationMode", .string(k.calculationMode.rawValue)) }
      if let v = k.tensionValues { b.add("tensionValues", .array(v.map(JSON.number))) }
      if let v = k.continuityValues { b.add("continuityValues", .array(v.map(JSON.number))) }
      if let v = k.biasValues { b.add("biasValues", .array(v.map(JSON.number))) }
      if let v = k.rotationMode { b.add("rotationMode", .string(v.rawValue)) }
    case let s as BasicAnimation:
      let spring = s as? SpringAnimation
      b.add("kind", .string(spring == nil ? "basic" : "spring"))
      b.add("key", key.map(JSON.string))
      try property(s, into: &b, path: path)
      for (name, v) in [("from", s.fromValue), ("to", s.toValue), ("by", s.byValue)] as [(String, Any?)] {
        if let v { b.add(name, try values([v], s, path: SceneNode.join(path, name))[0]) }
      }
      if let spring {
        b.add("mass", .number(spring.mass))
        b.add("stiffness", .number(spring.stiffness))
        b.add("damping", .number(spring.damping))
        if spring.initialVelocity != 0 { b.add("initialVelocity", .number(spring.initialVelocity)) }
      }
    case let g as AnimationGroup:
      b.add("kind", .string("group"))
      b.add("key", key.map(JSON.string))
      var children: [JSON] = []
      for (i, c) in g.animations.enumerated() {
        children.append(try json(c, key: nil, path: "\(SceneNode.join(path, "animations"))[\(i)]"))
      }
      b.add("animations", .array(children))
    case let t as Transition:
      b.add("kind", .string("transition"))
      b.add("key", key.map(JSON.string))
      b.add("type", .string(t.type.rawValue))
      if let s = t.subtype { b.add("subtype", .string(s.rawValue)) }
      if t.startProgress != 0 { b.add("startProgress", .number(t.startProgress)) }
      if t.endProgress != 1 { b.add("endProgress", .number(t.endProgress)) }
      if t.reversesEffect { b.add("reversesEffect", .bool(true)) }
      if let f = t.filter {
        var fb = ObjectBuilder()
        fb.add("effect", .string(f.effect))
        if !f.parameters.isEmpty {
          var pb = ObjectBuilder()
          for (name, v) in f.parameters.sorted(by: { $0.key < $1.key }) {
            pb.add(name, try transitionJSON(v, path: SceneNode.join(path, "filter.parameters.\(name)")))
          }
          fb.add("parameters", pb.json)
        }
        b.add("filter", fb.json)
      }
    default:
      throw .unencodable(path: path, reason: "\(type(of: a)) is not an animation kind the format has")
    }
    SceneValueWriter.timing(a.timing, into: &b)
    if let f = a.timingFunction { b.add("timingFunction", SceneValueWriter.timingFunction(f)) }
    if !a.isRemovedOnCompletion { b.add("removedOnCompletion", .bool(false)) }
    return b.json
  }

  private func property(_ a: PropertyAnimation, into b: inout ObjectBuilder, path: String) throws(SceneFileError) {
    b.add("keyPath", .string(a.keyPath))
    if let f = a.valueFunction { b.add("valueFunction", .string(f.rawValue)) }
    if a.isAdditive { b.add("additive", .bool(true)) }
    if a.isCumulative { b.add("cumulative", .bool(true)) }
  }

  private func values(_ vs: [Any], _ a: PropertyAnimation, path: String) throws(SceneFileError)
    -> [JSON]
  {
    var out: [JSON] = []
    for (i, v) in vs.enumerated() {
      let p = vs.count == 1 && !(a is KeyframeAnimation) ? path : "\(path)[\(i)]"
      switch v {
      case let d as Double: out.append(.number(d))
      case let b as Bool: out.append(.bool(b))
      case let p as Point: out.append(SceneValueWriter.point(p))
      case let s as Size: out.append(SceneValueWriter.size(s))
      case let r as Rect: out.append(SceneValueWriter.rect(r))
      case let c as Color: out.append(SceneValueWriter.color(c))
      case let t as Transform3D: out.append(SceneValueWriter.transform(t))
      case let v as SIMD3<Double>: out.append(.array([v.x, v.y, v.z].map(JSON.number)))
      case let image as Image: out.append(image.id == Image.zero.id ? .null : try media.name(of: image, path: p))
      case let path as Path: out.append(SceneValueWriter.path(path))
      case let path as CGPath: out.append(SceneValueWriter.path(path.value))
      case let colors as [Color]: out.append(.array(colors.map(SceneValueWriter.color)))
      case let path as Path?: out.append(path.map(SceneValueWriter.path) ?? .null)
      default:
        // The forms Core Animation code writes (NSNumber, CGFloat, CGPoint, [0, 0], …): numbers,
        // written as a scene file writes points, sizes and rects.
        guard let v = v as? any AnimationValue, let n = AnimationValues.numbers(v) else {
          throw .unencodable(path: p, reason: "a value of type \(type(of: v))")
        }
        out.append(n.count == 1 ? .number(n[0]) : .array(n.map(JSON.number)))
      }
    }
    return out
  }

  private func transitionJSON(_ v: TransitionValue, path: String) throws(SceneFileError) -> JSON {
    // A Float written by its own shortest text (0.3, not 0.30000001192092896) reads back as itself.
    func f(_ x: Float) -> JSON { .number(Double("\(x)") ?? Double(x)) }
    return switch v {
    case .float(let x): f(x)
    case .int(let i): .number(Double(i))
    case .bool(let b): .bool(b)
    case .vec2(let v): .array([v.x, v.y].map(f))
    case .vec3(let v): .array([v.x, v.y, v.z].map(f))
    case .vec4(let v): .array([v.x, v.y, v.z, v.w].map(f))
    case .ivec2(let v): .array([v.x, v.y].map { .number(Double($0)) })
    case .image(let image): try media.name(of: image, path: path)
    }
  }
}
