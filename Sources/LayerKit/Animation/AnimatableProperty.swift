import Foundation

// Key paths resolve once, when an animation is added, to a typed accessor; the track built from
// it holds typed values, so a frame evaluates closures on concrete types and never casts.

/// Typed access to one animatable property of a (presentation) layer.
struct PropertyAccessor<Value: Animatable>: Sendable {
  let get: @Sendable (Layer) -> Value
  let set: @Sendable (Layer, Value) -> Void
}

/// A key path, resolved: the value type's name (for messages) and how to build a track.
struct ResolvedProperty: Sendable {
  let keyPath: String
  let typeName: String
  let makeTrack: @Sendable (PropertyAnimation, Layer) throws(AnimationError) -> any AnimationTrack
  /// Untyped access, for actions (once per property change, never per frame).
  let getAny: @Sendable (Layer) -> any Animatable
  let setAny: @Sendable (Layer, any Animatable) -> Void
  /// Sets a value in any of the forms an animation takes (`[0, 0]`, NSNumber, CGFloat, …),
  /// converted to the property's type; false when it does not convert (key-value coding).
  let setConverted: @Sendable (Layer, any AnimationValue) -> Bool

  static func make<V: Animatable>(
    _ keyPath: String, _ get: @escaping @Sendable (Layer) -> V, _ set: @escaping @Sendable (Layer, V) -> Void
  ) -> ResolvedProperty {
    let accessor = PropertyAccessor(get: get, set: set)
    return ResolvedProperty(
      keyPath: keyPath, typeName: String(describing: V.self),
      makeTrack: { (animation, layer) throws(AnimationError) -> any AnimationTrack in
        switch animation {
        case let spring as SpringAnimation:
          return try BasicTrack(spring, accessor, model: layer)
        case let basic as BasicAnimation:
          return try BasicTrack(basic, accessor, model: layer)
        case let keyframes as KeyframeAnimation:
          return try KeyframeTrack(keyframes, accessor)
        default:
          throw .unsupported(keyPath: keyPath, reason: "\(type(of: animation)) is not a property animation kind")
        }
      },
      getAny: { get($0) },
      setAny: { layer, value in if let v = value as? V { set(layer, v) } },
      setConverted: { layer, value in
        guard let v = V.converted(from: value) else { return false }
        set(layer, v)
        return true
      })
  }
}

/// The animatable properties, by key path, as the Animatable Properties appendix lists them, with
/// the component paths people use.
enum AnimatableProperties {
  static func resolve(_ keyPath: String) -> ResolvedProperty? {
    if let p = table[keyPath] { return p }
    // filters.NAME.PARAM and backgroundFilters.NAME.PARAM
    let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    if parts.count == 3, parts[0] == "filters" || parts[0] == "backgroundFilters" {
      let background = parts[0] == "backgroundFilters"
      let (name, parameter) = (parts[1], parts[2])
      return .make(
        keyPath,
        { layer -> Double in
          let list = background ? layer.backgroundFilters : layer.filters
          return list.first { $0.name == name }?.parameters[parameter] ?? 0
        },
        { layer, value in
          var list = background ? layer.backgroundFilters : layer.filters
          if let i = list.firstIndex(where: { $0.name == name }) {
            try? list[i].setValue(value, forKey: parameter)
          }
          if background { layer.backgroundFilters = list } else { layer.filters = list }
        })
    }
    return nil
  }

  /// Every fixed key path (filter parameter paths are resolved by pattern).
  static var keyPaths: [String] { table.keys.sorted() }

  private static let table: [String: ResolvedProperty] = {
    var t: [String: ResolvedProperty] = [:]
    func add(_ p: ResolvedProperty) { t[p.keyPath] = p }
    add(.make("opacity", { $0.opacity }, { $0.opacity = $1 }))
    add(.make("zPosition", { $0.zPosition }, { $0.zPosition = $1 }))
    add(.make("anchorPointZ", { $0.anchorPointZ }, { $0.anchorPointZ = $1 }))
    add(.make("cornerRadius", { $0.cornerRadius }, { $0.cornerRadius = $1 }))
    add(.make("borderWidth", { $0.borderWidth }, { $0.borderWidth = $1 }))
    add(.make("shadowOpacity", { $0.shadowOpacity }, { $0.shadowOpacity = $1 }))
    add(.make("shadowRadius", { $0.shadowRadius }, { $0.shadowRadius = $1 }))
    add(.make("contentsScale", { $0.contentsScale }, { $0.contentsScale = $1 }))
    add(.make("hidden", { $0.isHidden }, { $0.isHidden = $1 }))
    add(.make("masksToBounds", { $0.masksToBounds }, { $0.masksToBounds = $1 }))
    add(.make("doubleSided", { $0.isDoubleSided }, { $0.isDoubleSided = $1 }))
    // A crossfade (Image+Animatable.swift); nil contents mix as transparent.
    add(.make("contents", { $0.contents ?? .zero }, { $0.contents = $1.id == Image.zero.id ? nil : $1 }))

    add(.make("position", { $0.position }, { $0.position = $1 }))
    add(.make("position.x", { Double($0.position.x) }, { $0.position.x = $1 }))
    add(.make("position.y", { Double($0.position.y) }, { $0.position.y = $1 }))
    add(.make("anchorPoint", { $0.anchorPoint }, { $0.anchorPoint = $1 }))
    add(.make("anchorPoint.x", { Double($0.anchorPoint.x) }, { $0.anchorPoint.x = $1 }))
    add(.make("anchorPoint.y", { Double($0.anchorPoint.y) }, { $0.anchorPoint.y = $1 }))
    add(.make("bounds", { $0.bounds }, { $0.bounds = $1 }))
    add(.make("bounds.origin", { $0.bounds.origin }, { $0.bounds.origin = $1 }))
    add(.make("bounds.origin.x", { Double($0.bounds.origin.x) }, { $0.bounds.origin.x = $1 }))
    add(.make("bounds.origin.y", { Double($0.bounds.origin.y) }, { $0.bounds.origin.y = $1 }))
    add(.make("bounds.size", { $0.bounds.size }, { $0.bounds.size = $1 }))
    add(.make("bounds.size.width", { Double($0.bounds.size.width) }, { $0.bounds.size.width = $1 }))
    add(.make("bounds.size.height", { Double($0.bounds.size.height) }, { $0.bounds.size.height = $1 }))
    add(.make("contentsRect", { $0.contentsRect }, { $0.contentsRect = $1 }))
    add(.make("contentsCenter", { $0.contentsCenter }, { $0.contentsCenter = $1 }))
    // GradientLayer's (a plain layer reads their defaults and ignores a value set).
    let gradient: @Sendable (Layer) -> GradientLayer? = { $0 as? GradientLayer }
    add(.make("colors", { gradient($0)?.colors ?? [] }, { gradient($0)?.colors = $1 }))
    add(
      .make(
        "locations", { GradientLayer.places(gradient($0)?.locations) },
        { gradient($0)?.locations = $1.map { NSNumber(value: $0) } }))
    add(
      .make("startPoint", { gradient($0)?.startPoint ?? Point(x: 0.5, y: 0) }, { gradient($0)?.startPoint = $1 }))
    add(.make("endPoint", { gradient($0)?.endPoint ?? Point(x: 0.5, y: 1) }, { gradient($0)?.endPoint = $1 }))
    // ShapeLayer's (a plain layer reads their defaults and ignores a value set).
    let shape: @Sendable (Layer) -> ShapeLayer? = { $0 as? ShapeLayer }
    add(.make("path", { shape($0)?.pathValue }, { shape($0)?.pathValue = $1 }))
    // A missing colour animates as transparent black, as a nil CGColor does.
    add(.make("fillColor", { shape($0)?.fillColor ?? .clear }, { shape($0)?.fillColor = $1 }))
    add(.make("strokeColor", { shape($0)?.strokeColor ?? .clear }, { shape($0)?.strokeColor = $1 }))
    add(.make("lineWidth", { shape($0)?.lineWidth ?? 1 }, { shape($0)?.lineWidth = $1 }))
    add(.make("miterLimit", { shape($0)?.miterLimit ?? 10 }, { shape($0)?.miterLimit = $1 }))
    add(.make("lineDashPhase", { shape($0)?.lineDashPhase ?? 0 }, { shape($0)?.lineDashPhase = $1 }))
    add(.make("strokeStart", { shape($0)?.strokeStart ?? 0 }, { shape($0)?.strokeStart = $1 }))
    add(.make("strokeEnd", { shape($0)?.strokeEnd ?? 1 }, { shape($0)?.strokeEnd = $1 }))
    // TextLayer's (a plain layer reads their defaults and ignores a value set).
    let text: @Sendable (Layer) -> TextLayer? = { $0 as? TextLayer }
    add(.make("fontSize", { text($0)?.fontSize ?? 36 }, { text($0)?.fontSize = $1 }))
    add(.make("foregroundColor", { text($0)?.foregroundColor ?? .white }, { text($0)?.foregroundColor = $1 }))
    // ReplicatorLayer's (a plain layer reads their defaults and ignores a value set).
    let replicator: @Sendable (Layer) -> ReplicatorLayer? = { $0 as? ReplicatorLayer }
    add(
      .make(
        "instanceTransform", { replicator($0)?.instanceTransform ?? .identity },
        { replicator($0)?.instanceTransform = $1 }))
    add(.make("instanceColor", { replicator($0)?.instanceColor ?? .white }, { replicator($0)?.instanceColor = $1 }))
    add(.make("instanceDelay", { replicator($0)?.instanceDelay ?? 0 }, { replicator($0)?.instanceDelay = $1 }))
    for (name, path) in [
      ("instanceRedOffset", \ReplicatorLayer.instanceRedOffset), ("instanceGreenOffset", \.instanceGreenOffset),
      ("instanceBlueOffset", \.instanceBlueOffset), ("instanceAlphaOffset", \.instanceAlphaOffset),
    ] {
      add(.make(name, { Double(replicator($0)?[keyPath: path] ?? 0) }, { replicator($0)?[keyPath: path] = Float($1) }))
    }
    add(.make("shadowOffset", { $0.shadowOffset }, { $0.shadowOffset = $1 }))
    add(.make("shadowOffset.width", { Double($0.shadowOffset.width) }, { $0.shadowOffset.width = $1 }))
    add(.make("shadowOffset.height", { Double($0.shadowOffset.height) }, { $0.shadowOffset.height = $1 }))

    // A missing background colour animates as transparent black, as a nil CGColor does.
    add(.make("backgroundColor", { $0.backgroundColor ?? .clear }, { $0.backgroundColor = $1 }))
    add(.make("borderColor", { $0.borderColor }, { $0.borderColor = $1 }))
    add(.make("shadowColor", { $0.shadowColor }, { $0.shadowColor = $1 }))
    add(.make("shadowPath", { $0.shadowPathValue }, { $0.shadowPathValue = $1 }))

    addTransform("transform", { $0.transform }, { $0.transform = $1 }, into: &t)
    addTransform("sublayerTransform", { $0.sublayerTransform }, { $0.sublayerTransform = $1 }, into: &t)
    return t
  }()
}

extension AnimatableProperties {
  /// A transform key path and its component paths (transform.rotation.z, transform.scale.x,
  /// transform.translation, …). Components read the decomposed transform and write one component
  /// back into it, leaving the others as they are (how Core Animation's value functions treat the
  /// model transform).
  static func addTransform(
    _ name: String, _ get: @escaping @Sendable (Layer) -> Transform3D,
    _ set: @escaping @Sendable (Layer, Transform3D) -> Void,
    into t: inout [String: ResolvedProperty]
  ) {
    let plain = ResolvedProperty.make(name, get, set)
    // With a value function the values are numbers: a SIMD3 track that writes the function's
    // transform (a single number n stands for (n, n, n)).
    t[name] = ResolvedProperty(
      keyPath: name, typeName: plain.typeName,
      makeTrack: { (animation, layer) throws(AnimationError) -> any AnimationTrack in
        guard let function = animation.valueFunction else { return try plain.makeTrack(animation, layer) }
        let additive = animation.isAdditive
        let vector = ResolvedProperty.make(
          name, { _ in SIMD3<Double>(repeating: function.identityValue) },
          { layer, v in
            let m = function.transform(v)
            set(layer, additive ? m.concatenating(get(layer)) : m)
          })
        guard let copy = animation.copy() as? PropertyAnimation else {
          throw .unsupported(keyPath: name, reason: "not a property animation")
        }
        copy.isAdditive = false
        if let basic = copy as? BasicAnimation {
          basic.fromValue = basic.fromValue.map(ValueFunction.vector)
          basic.toValue = basic.toValue.map(ValueFunction.vector)
          basic.byValue = basic.byValue.map(ValueFunction.vector)
        }
        if let keyframes = copy as? KeyframeAnimation {
          keyframes.values = keyframes.values?.map(ValueFunction.vector)
        }
        return try vector.makeTrack(copy, layer)
      }, getAny: plain.getAny, setAny: plain.setAny, setConverted: plain.setConverted)
    func scalar(
      _ suffix: String, _ read: @escaping @Sendable (Transform3D) -> Double,
      _ write: @escaping @Sendable (Transform3D, Double) -> Transform3D
    ) {
      let path = "\(name).\(suffix)"
      t[path] = .make(path, { read(get($0)) }, { layer, v in set(layer, write(get(layer), v)) })
    }
    scalar("translation.x", { $0.translation.x }, { $0.settingTranslation(x: $1) })
    scalar("translation.y", { $0.translation.y }, { $0.settingTranslation(y: $1) })
    scalar("translation.z", { $0.translation.z }, { $0.settingTranslation(z: $1) })
    scalar("scale.x", { $0.scale.x }, { $0.settingScale(x: $1) })
    scalar("scale.y", { $0.scale.y }, { $0.settingScale(y: $1) })
    scalar("scale.z", { $0.scale.z }, { $0.settingScale(z: $1) })
    scalar("scale", { ($0.scale.x + $0.scale.y) / 2 }, { $0.settingScale(x: $1, y: $1, z: $1) })
    scalar("rotation.x", { $0.rotationX }, { $0.settingRotation(x: $1) })
    scalar("rotation.y", { $0.rotationY }, { $0.settingRotation(y: $1) })
    scalar("rotation.z", { $0.rotationZ }, { $0.settingRotation(z: $1) })
    scalar("rotation", { $0.rotationZ }, { $0.settingRotation(z: $1) })
    let translation = "\(name).translation"
    t[translation] = .make(
      translation, { l -> Size in Size(width: get(l).translation.x, height: get(l).translation.y) },
      { l, v in set(l, get(l).settingTranslation(x: v.width, y: v.height)) })
  }
}

extension ValueFunction {
  /// The number that gives the identity transform.
  var identityValue: Double {
    switch self {
    case .scale, .scaleX, .scaleY, .scaleZ: 1
    default: 0
    }
  }

  /// A number n (in any of its forms) becomes (n, n, n), three numbers (`[1, 1, 1]`, as
  /// CAValueFunction's examples write them) a vector; vectors pass through.
  static func vector(_ v: Any) -> Any {
    if let v = v as? any AnimationValue, let n = AnimationValues.numbers(v) {
      if n.count == 1 { return SIMD3(n[0], n[0], n[0]) }
      if n.count == 3 { return SIMD3(n[0], n[1], n[2]) }
    }
    return v
  }
}
