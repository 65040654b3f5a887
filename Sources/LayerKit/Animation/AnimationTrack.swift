import Foundation

/// One property animation, compiled for a key path's value type.
protocol AnimationTrack {
  /// Sets the property on the presentation layer for local time `time` in [0, duration] of the
  /// current repeat `iteration`.
  func apply(to layer: Layer, time: Double, duration: Double, iteration: Int)
}

/// Casts (or converts, `Animatable.converted(from:)`) an animation's value to the key path's
/// type, once, when the animation is added.
func typed<V: Animatable>(
  _ value: Any?, as _: V.Type, keyPath: String, field: String
) throws(AnimationError) -> V? {
  guard let value else { return nil }
  guard let v = value as? V ?? (value as? any AnimationValue).flatMap(V.converted(from:)) else {
    throw .wrongValueType(
      keyPath: keyPath, field: field, expected: String(describing: V.self), actual: String(describing: type(of: value)))
  }
  // A value's distance to itself is 0 unless a component is NaN or infinite.
  guard v.distance(to: v) == 0 else { throw .nonFiniteValue(keyPath: keyPath, field: field) }
  return v
}

/// `b − a` with Animatable's operations.
func difference<V: Animatable>(_ b: V, _ a: V) -> V { V.add(b, V.scale(a, by: -1)) }

/// A basic or spring animation of one property.
struct BasicTrack<V: Animatable>: AnimationTrack {
  let accessor: PropertyAccessor<V>
  let from: V?
  let to: V?
  let by: V?
  /// The property's value when the animation was added (rule 7 of the from/to/by combinations).
  let captured: V
  let additive: Bool
  let cumulative: Bool
  let timingFunction: MediaTimingFunction?
  let spring: SpringSolver?

  init(_ a: BasicAnimation, _ accessor: PropertyAccessor<V>, model: Layer) throws(AnimationError) {
    self.accessor = accessor
    from = try typed(a.fromValue, as: V.self, keyPath: a.keyPath, field: "fromValue")
    to = try typed(a.toValue, as: V.self, keyPath: a.keyPath, field: "toValue")
    by = try typed(a.byValue, as: V.self, keyPath: a.keyPath, field: "byValue")
    captured = accessor.get(model)
    additive = a.isAdditive
    cumulative = a.isCumulative
    timingFunction = a.timingFunction
    if let s = a as? SpringAnimation {
      do {
        spring = try SpringSolver(
          mass: s.mass, stiffness: s.stiffness, damping: s.damping, initialVelocity: s.initialVelocity)
      } catch {
        throw .invalidSpring(keyPath: a.keyPath, error)
      }
    } else {
      spring = nil
    }
  }

  /// The start and end values for the current value of the property (the seven combinations).
  func ends(current: V) -> (V, V) {
    switch (from, to, by) {
    case (let f?, let t?, _): return (f, t)
    case (let f?, nil, let b?): return (f, V.add(f, b))
    case (nil, let t?, let b?): return (difference(t, b), t)
    case (let f?, nil, nil): return (f, current)
    case (nil, let t?, nil): return (current, t)
    case (nil, nil, let b?): return (current, V.add(current, b))
    case (nil, nil, nil): return (captured, current)
    }
  }

  func apply(to layer: Layer, time: Double, duration: Double, iteration: Int) {
    let current = accessor.get(layer)
    // An additive animation's values are offsets from the property's value.
    let (a, b) = additive ? ends(current: V.zero) : ends(current: current)
    let progress: Double
    if let spring {
      progress = spring.progress(at: time)
    } else {
      let x = duration > 0 ? time / duration : 1
      progress = timingFunction?.value(at: x) ?? x
    }
    var value = V.interpolate(a, b, progress)
    if cumulative && iteration > 0 {
      value = V.add(value, V.scale(difference(b, a), by: Double(iteration)))
    }
    accessor.set(layer, additive ? V.add(current, value) : value)
  }
}

/// A keyframe animation of one property, through values or along a path.
///
/// Through values, each calculation mode as CAAnimationCalculationMode documents it: linear and
/// cubic follow keyTimes and the per-segment timing functions; discrete shows each value in turn;
/// paced and cubicPaced ignore both and move at constant speed — paced along the straight
/// segments, cubicPaced along the spline, by its arc length (KeyframeTrack+Paced.swift).
///
/// Along a path ("the end point of a line-to or curve-to segment defines the keyframe value …
/// move-to segments do not define separate keyframe values"), each line, quadratic or cubic
/// element is one keyframe segment: linear and cubic give each element its share of time from
/// keyTimes (one per keyframe point) or evenly, eased by that element's timing function, and
/// move through it by the curve's own parameter; discrete jumps from element end point to element
/// end point; paced and cubicPaced move at constant speed by the path's arc length.
struct KeyframeTrack<V: Animatable>: AnimationTrack {
  let accessor: PropertyAccessor<V>
  let values: [V]
  let keyframes: KeyframeTiming
  /// The per-segment timing functions; nil in the paced modes, which ignore them.
  let functions: [MediaTimingFunction]?
  let tcb: [(tension: Double, continuity: Double, bias: Double)]
  let mode: KeyframeCalculationMode
  let additive: Bool
  let cumulative: Bool
  let timingFunction: MediaTimingFunction?
  let path: PathSampler?
  let rotationMode: RotationMode?
  /// cubicPaced through two or more values: the spline's arc length, measured once.
  let arc: CurveArcTable?

  init(_ a: KeyframeAnimation, _ accessor: PropertyAccessor<V>) throws(AnimationError) {
    self.accessor = accessor
    let mode = a.calculationMode
    self.mode = mode
    additive = a.isAdditive
    cumulative = a.isCumulative
    timingFunction = a.timingFunction
    // Paced modes: "keyTimes and timingFunction are ignored and keyframe times are automatically
    // generated to give the animation a constant velocity".
    let paced = mode == .paced || mode == .cubicPaced
    functions = paced ? nil : a.timingFunctions
    rotationMode = a.rotationMode
    let keyPath = a.keyPath
    if let p = a.path?.value {
      guard V.self == Point.self else {
        throw .unsupported(keyPath: keyPath, reason: "a path animates a point property only")
      }
      guard p.isFinite else { throw .nonFiniteValue(keyPath: keyPath, field: "path") }
      let sampler = try Self.keyframeChecked(keyPath) { () throws(KeyframeError) in try PathSampler(path: p) }
      path = sampler
      values = []
      tcb = []
      arc = nil
      // One key time per keyframe point: the path's start, then each element's end.
      keyframes = try Self.keyframeChecked(keyPath) { () throws(KeyframeError) in
        paced
          ? try KeyframeTiming(
            count: sampler.keyframeCount, calculationMode: .paced, segmentLengths: sampler.segmentLengths)
          : try KeyframeTiming(
            count: sampler.keyframeCount, keyTimes: a.keyTimes?.map(\.doubleValue), calculationMode: mode)
      }
      return
    }
    path = nil
    var list: [V] = []
    for (i, v) in (a.values ?? []).enumerated() {
      if let t = try typed(v, as: V.self, keyPath: keyPath, field: "values[\(i)]") { list.append(t) }
    }
    values = list
    let n = list.count
    if mode == .cubic || mode == .cubicPaced {
      try Self.keyframeChecked(keyPath) { () throws(KeyframeError) in
        try KeyframeTiming.validateCubicParameters(a.tensionValues, field: "tensionValues", count: n)
        try KeyframeTiming.validateCubicParameters(a.continuityValues, field: "continuityValues", count: n)
        try KeyframeTiming.validateCubicParameters(a.biasValues, field: "biasValues", count: n)
      }
    }
    let parameters = (0..<n).map { i in
      (a.tensionValues?[safe: i] ?? 0, a.continuityValues?[safe: i] ?? 0, a.biasValues?[safe: i] ?? 0)
    }
    tcb = parameters
    if mode == .cubicPaced, n > 1 {
      // Constant velocity along the spline: key times from the spline's arc length per segment.
      let table = CurveArcTable(segmentCount: n - 1, resolution: Self.cubicPacedResolution) { i, s in
        Self.hermite(list, parameters, i, s)
      }
      arc = table
      keyframes = try Self.keyframeChecked(keyPath) { () throws(KeyframeError) in
        try KeyframeTiming(count: n, calculationMode: .cubicPaced, segmentLengths: table.segmentLengths)
      }
    } else {
      arc = nil
      let lengths = zip(list, list.dropFirst()).map { $0.0.distance(to: $0.1) }
      keyframes = try Self.keyframeChecked(keyPath) { () throws(KeyframeError) in
        try KeyframeTiming(
          count: n, keyTimes: a.keyTimes?.map(\.doubleValue), calculationMode: mode, segmentLengths: lengths)
      }
    }
  }

  /// Runs `body`, reporting a keyframe error as `invalidKeyframes` for `keyPath`.
  private static func keyframeChecked<T>(
    _ keyPath: String, _ body: () throws(KeyframeError) -> T
  ) throws(AnimationError) -> T {
    do {
      return try body()
    } catch {
      throw .invalidKeyframes(keyPath: keyPath, error)
    }
  }

  func apply(to layer: Layer, time: Double, duration: Double, iteration: Int) {
    let x = duration > 0 ? time / duration : 1
    let progress = timingFunction?.value(at: x) ?? x
    if let path, let pointAccessor = accessor as? PropertyAccessor<Point> {
      applyPath(path, pointAccessor, to: layer, progress: progress, iteration: iteration)
      return
    }
    guard !values.isEmpty else { return }
    let current = accessor.get(layer)
    let (i, f) = keyframes.segment(at: progress)
    let i1 = min(i + 1, values.count - 1)
    var value: V
    switch mode {
    case .discrete:
      value = values[i]
    case .linear, .paced:
      value = V.interpolate(values[i], values[i1], functions?[safe: i]?.value(at: f) ?? f)
    case .cubic:
      value = Self.hermite(values, tcb, i, functions?[safe: i]?.value(at: f) ?? f)
    case .cubicPaced:
      // f is the fraction of segment i's arc length; the table turns it into the curve parameter.
      value = Self.hermite(values, tcb, i, arc?.parameter(segment: i, arcFraction: f) ?? f)
    }
    if cumulative && iteration > 0, let first = values.first, let last = values.last {
      value = V.add(value, V.scale(difference(last, first), by: Double(iteration)))
    }
    accessor.set(layer, additive ? V.add(current, value) : value)
  }

  /// The point and direction of travel along the path at `progress`, then the layer's rotation
  /// for rotationMode.
  private func applyPath(
    _ path: PathSampler, _ pointAccessor: PropertyAccessor<Point>, to layer: Layer, progress: Double, iteration: Int
  ) {
    let current = pointAccessor.get(layer)
    var point: Point
    let angle: Double
    switch mode {
    case .paced, .cubicPaced:
      point = path.point(atArcFraction: progress)
      angle = path.tangentAngle(atArcFraction: progress)
    case .discrete:
      // Keyframe 0 is the path's start, keyframe k the end point of element k − 1: those are
      // the values a discrete animation shows in turn. The heading is the element's at that end.
      let k = keyframes.segment(at: progress).index
      let (segment, fraction) = k == 0 ? (0, 0.0) : (k - 1, 1.0)
      point = path.point(segment: segment, fraction: fraction)
      angle = path.tangentAngle(segment: segment, fraction: fraction)
    case .linear, .cubic:
      let (i, f) = keyframes.segment(at: progress)
      let fraction = functions?[safe: i]?.value(at: f) ?? f
      point = path.point(segment: i, fraction: fraction)
      angle = path.tangentAngle(segment: i, fraction: fraction)
    }
    if cumulative && iteration > 0, let first = path.keyframePoints.first, let last = path.keyframePoints.last {
      point = Point.add(point, Point.scale(difference(last, first), by: Double(iteration)))
    }
    pointAccessor.set(layer, additive ? Point.add(current, point) : point)
    if let rotationMode {
      layer.transform = layer.transform.settingRotation(z: angle + (rotationMode == .autoReverse ? .pi : 0))
    }
  }
}

extension Array {
  subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
