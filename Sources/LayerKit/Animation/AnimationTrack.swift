import Foundation

/// One property animation, compiled for a key path's value type.
protocol AnimationTrack {
  /// Sets the property on the presentation layer for local time `time` in [0, duration] of the
  /// current repeat `iteration`.
  func apply(to layer: Layer, time: Double, duration: Double, iteration: Int)
}

/// Casts an animation's value to the key path's type, once, when the animation is added.
func typed<V: Animatable>(
  _ value: (any Animatable)?, as _: V.Type, keyPath: String, field: String
) throws(AnimationError) -> V? {
  guard let value else { return nil }
  guard let v = value as? V else {
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
struct KeyframeTrack<V: Animatable>: AnimationTrack {
  let accessor: PropertyAccessor<V>
  let values: [V]
  let keyframes: KeyframeTiming
  let functions: [MediaTimingFunction]?
  let tcb: [(tension: Double, continuity: Double, bias: Double)]
  let mode: KeyframeCalculationMode
  let additive: Bool
  let cumulative: Bool
  let timingFunction: MediaTimingFunction?
  let path: PathSampler?
  let rotationMode: RotationMode?

  init(_ a: KeyframeAnimation, _ accessor: PropertyAccessor<V>) throws(AnimationError) {
    self.accessor = accessor
    mode = a.calculationMode
    additive = a.isAdditive
    cumulative = a.isCumulative
    timingFunction = a.timingFunction
    functions = a.timingFunctions
    rotationMode = a.rotationMode
    if let p = a.path {
      guard V.self == Point.self else {
        throw .unsupported(keyPath: a.keyPath, reason: "a path animates a point property only")
      }
      guard p.isFinite else { throw .nonFiniteValue(keyPath: a.keyPath, field: "path") }
      do {
        path = try PathSampler(path: p)
      } catch {
        throw .invalidKeyframes(keyPath: a.keyPath, error)
      }
      values = []
      do {
        keyframes = try KeyframeTiming(count: 2, keyTimes: nil, calculationMode: .linear, segmentLengths: nil)
      } catch {
        throw .invalidKeyframes(keyPath: a.keyPath, error)
      }
    } else {
      path = nil
      var list: [V] = []
      for (i, v) in (a.values ?? []).enumerated() {
        if let t = try typed(v, as: V.self, keyPath: a.keyPath, field: "values[\(i)]") { list.append(t) }
      }
      values = list
      let lengths = zip(list, list.dropFirst()).map { $0.0.distance(to: $0.1) }
      do {
        keyframes = try KeyframeTiming(
          count: list.count, keyTimes: a.keyTimes, calculationMode: a.calculationMode, segmentLengths: lengths)
      } catch {
        throw .invalidKeyframes(keyPath: a.keyPath, error)
      }
    }
    let n = values.count
    tcb = (0..<n).map { i in
      (a.tensionValues?[safe: i] ?? 0, a.continuityValues?[safe: i] ?? 0, a.biasValues?[safe: i] ?? 0)
    }
  }

  func apply(to layer: Layer, time: Double, duration: Double, iteration: Int) {
    let x = duration > 0 ? time / duration : 1
    let progress = timingFunction?.value(at: x) ?? x
    let current = accessor.get(layer)
    var value: V
    if let path, let pointAccessor = accessor as? PropertyAccessor<Point> {
      let p = path.point(atArcFraction: progress)
      pointAccessor.set(layer, p)
      if let rotationMode {
        let angle = path.tangentAngle(atArcFraction: progress) + (rotationMode == .autoReverse ? .pi : 0)
        layer.transform = layer.transform.settingRotation(z: angle)
      }
      return
    }
    guard !values.isEmpty else { return }
    let (i, f) = keyframes.segment(at: progress)
    let fraction = functions?[safe: i]?.value(at: f) ?? f
    let i1 = min(i + 1, values.count - 1)
    switch mode {
    case .discrete:
      value = values[i]
    case .linear, .paced:
      value = V.interpolate(values[i], values[i1], fraction)
    case .cubic, .cubicPaced:
      value = hermite(i, fraction)
    }
    if cumulative && iteration > 0, let first = values.first, let last = values.last {
      value = V.add(value, V.scale(difference(last, first), by: Double(iteration)))
    }
    accessor.set(layer, additive ? V.add(current, value) : value)
  }

  /// Kochanek–Bartels between keyframes i and i + 1, end points repeated, in Animatable's terms.
  func hermite(_ i: Int, _ s: Double) -> V {
    let n = values.count
    let p0 = values[max(i - 1, 0)]
    let p1 = values[i]
    let p2 = values[min(i + 1, n - 1)]
    let p3 = values[min(i + 2, n - 1)]
    let (t1, c1, b1) = tcb[i]
    let (t2, c2, b2) = tcb[min(i + 1, n - 1)]
    // Outgoing tangent at p1 and incoming tangent at p2.
    let w1a: Double = (1 - t1) * (1 + b1) * (1 + c1) / 2
    let w1b: Double = (1 - t1) * (1 - b1) * (1 - c1) / 2
    let w2a: Double = (1 - t2) * (1 + b2) * (1 - c2) / 2
    let w2b: Double = (1 - t2) * (1 - b2) * (1 + c2) / 2
    let d1: V = V.add(V.scale(difference(p1, p0), by: w1a), V.scale(difference(p2, p1), by: w1b))
    let d2: V = V.add(V.scale(difference(p2, p1), by: w2a), V.scale(difference(p3, p2), by: w2b))
    let s2 = s * s
    let s3 = s2 * s
    let h00 = 2 * s3 - 3 * s2 + 1
    let h10 = s3 - 2 * s2 + s
    let h01 = -2 * s3 + 3 * s2
    let h11 = s3 - s2
    let left: V = V.add(V.scale(p1, by: h00), V.scale(d1, by: h10))
    let right: V = V.add(V.scale(p2, by: h01), V.scale(d2, by: h11))
    return V.add(left, right)
  }
}

extension Array {
  subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
