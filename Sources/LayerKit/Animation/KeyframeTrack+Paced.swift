import Foundation

// cubicPaced, as CAAnimationCalculationMode documents it: "Cubic keyframe values are
// interpolated to produce an even pace throughout the animation" — the values are joined by the
// Kochanek–Bartels spline of `.cubic`, keyTimes and the per-segment timing functions are ignored,
// and key times are generated for constant velocity. Constant velocity along the spline means
// measuring the spline's arc length, not the chords between keyframes, and reparametrizing each
// segment by arc length, so the speed is constant inside a segment and not only on average over
// it.
//
// A value type is known only through `Animatable`, so the arc length is measured in its
// `distance` metric over a dense, evenly spaced sampling of the spline's parameter, once, when the
// animation is added. A frame then costs a binary search in the table and one spline evaluation.

/// The cumulative arc length of a piecewise curve at evenly spaced parameters of each segment,
/// and its inverse (segment arc fraction → curve parameter).
struct CurveArcTable: Sendable {
  /// Samples per segment: the parameter step is `1 / resolution`.
  let resolution: Int
  /// `segmentCount × (resolution + 1)` entries: for each segment, the arc length from its start
  /// at parameters k / resolution, k = 0 … resolution (so the first is 0 and the last its length).
  let cumulative: [Double]
  /// Each segment's arc length.
  let segmentLengths: [Double]

  /// Measures a curve by the polyline through `resolution + 1` samples per segment.
  ///
  /// - Parameters:
  ///   - segmentCount: the number of segments.
  ///   - resolution: samples per segment, at least 1. The polyline underestimates the arc
  ///     length and the linear inverse misplaces a point by O(1 / resolution²) of the segment.
  ///   - curve: the curve's value in `segment` at `parameter` in [0, 1].
  init<V: Animatable>(segmentCount: Int, resolution: Int, curve: (_ segment: Int, _ parameter: Double) -> V) {
    let r = max(resolution, 1)
    self.resolution = r
    var cumulative: [Double] = []
    cumulative.reserveCapacity(segmentCount * (r + 1))
    var lengths: [Double] = []
    lengths.reserveCapacity(segmentCount)
    for i in 0..<segmentCount {
      var previous = curve(i, 0)
      var s = 0.0
      cumulative.append(0)
      for k in 1...r {
        let next = curve(i, Double(k) / Double(r))
        s += previous.distance(to: next)
        cumulative.append(s)
        previous = next
      }
      lengths.append(s)
    }
    self.cumulative = cumulative
    segmentLengths = lengths
  }

  /// The curve parameter of segment `segment` at `fraction` of its arc length.
  ///
  /// - Parameters:
  ///   - segment: 0 ≤ segment < segment count.
  ///   - fraction: in [0, 1] (clamped; NaN reads as 0).
  /// - Returns: the parameter in [0, 1]; `fraction` itself for a segment without length (it
  ///   stays on one value, so any parameter gives the same point).
  func parameter(segment: Int, arcFraction fraction: Double) -> Double {
    let f = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
    let length = segmentLengths[segment]
    guard length > 0, length.isFinite else { return f }
    let target = f * length
    let base = segment * (resolution + 1)
    // The last sample at or before the target, among the first `resolution` of the segment, so
    // that the step [k, k + 1] always exists.
    var (lo, hi) = (0, resolution)  // answer in [lo, hi)
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if cumulative[base + mid] <= target { lo = mid } else { hi = mid }
    }
    let (a, b) = (cumulative[base + lo], cumulative[base + lo + 1])
    let within = b > a ? min(max((target - a) / (b - a), 0), 1) : 1
    return min((Double(lo) + within) / Double(resolution), 1)
  }
}

extension KeyframeTrack {
  /// Samples per spline segment for cubicPaced: enough that arc positions are within a few
  /// 1e-5 of a segment's length on ordinary curves (KeyframeModesTests measures it), and only
  /// `128 × (values − 1)` spline evaluations when the animation is added.
  static var cubicPacedResolution: Int { 128 }

  /// The Kochanek–Bartels spline through `values` between keyframes `i` and `i + 1` at parameter
  /// `s`, end points repeated, in Animatable's terms: Hermite basis functions applied with
  /// `scale` and `add` to the keyframes and to tangents built from their differences.
  ///
  /// - Parameters:
  ///   - values: the keyframe values (at least one).
  ///   - tcb: tension, continuity and bias per keyframe.
  ///   - i: the segment, 0 ≤ i ≤ values.count − 2 (or 0 for a single value).
  ///   - s: the curve parameter in the segment.
  static func hermite(
    _ values: [V], _ tcb: [(tension: Double, continuity: Double, bias: Double)], _ i: Int, _ s: Double
  ) -> V {
    let n = values.count
    let p0 = values[max(i - 1, 0)]
    let p1 = values[i]
    let p2 = values[min(i + 1, n - 1)]
    let p3 = values[min(i + 2, n - 1)]
    let (t1, c1, b1) = tcb[i]
    let (t2, c2, b2) = tcb[min(i + 1, n - 1)]
    return KeyframeTiming.hermite(
      p0: p0, p1: p1, p2: p2, p3: p3, fraction: s,
      start: .init(tension: t1, continuity: c1, bias: b1), end: .init(tension: t2, continuity: c2, bias: b2))
  }
}
