// Transform3D's Animatable conformance: decomposed interpolation, concatenation as addition, distance.

import Foundation

extension Transform3D: Animatable {
  /// The additive identity, which for transforms is `identity` (concatenation is their "add").
  public static var zero: Transform3D { .identity }

  /// A `Transform3D`, or one boxed by `NSValue(caTransform3D:)`.
  public static func converted(from value: any AnimationValue) -> Transform3D? {
    (value as? Transform3D) ?? (value as? NSValue)?.boxedTransform
  }

  /// Core Animation's transform interpolation: both ends decomposed, components interpolated
  /// (rotation by slerp along the shorter arc), the result recomposed. So 0° → 180° about z passes
  /// through a pure 90° rotation, and a translation and a rotation animate independently.
  ///
  /// `t == 0` and `t == 1` return `from` and `to` exactly, so a held or filled end is bit for bit
  /// the model value. If either end is singular (a scale to zero, a flattening `m33 = 0`), there
  /// is no decomposition and the matrices are interpolated element by element instead, which is
  /// exact for the common case (a scale to or from zero about the origin shrinks linearly).
  /// - Parameters:
  ///   - from: The transform at `t == 0`.
  ///   - to: The transform at `t == 1`.
  ///   - t: The progress; extrapolates outside [0, 1].
  public static func interpolate(_ from: Transform3D, _ to: Transform3D, _ t: Double) -> Transform3D {
    if t == 0 || from == to { return from }
    if t == 1 { return to }
    if let a = from.decomposed(), let b = to.decomposed() {
      return Transform3D(DecomposedTransform3D.interpolate(a, b, t))
    }
    return elementwise(from, to) { Double.interpolate($0, $1, t) }
  }

  /// `b` applied on top of `a`: `b.concatenating(a)`, that is `CATransform3DConcat(b, a)`.
  ///
  /// Core Animation documents additive animation as "the value specified by the animation is
  /// added to the current render tree value", the addition being concatenation for transforms.
  /// The added transform acts in the layer's own space, inside the underlying one, as
  /// `CATransform3DRotate(a, …)` and the transform value functions do and as CSS's additive
  /// composition of transform lists does (`a`'s functions followed by `b`'s): an additive
  /// rotation of a translated layer turns it about its anchor point where it stands. `byValue`
  /// follows the same rule: `to = add(from, by)`.
  /// - Parameters:
  ///   - a: The underlying transform (the model value, or `from` for `byValue`).
  ///   - b: The transform added on top of it.
  public static func add(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
    b.concatenating(a)
  }

  /// `a` concatenated with itself `k` times, the accumulation that repeat `k` of a cumulative
  /// animation needs (`scale(a, by: 2) == add(a, a)`). A whole `k` gives the exact matrix power (a
  /// negative one, the inverse's, when `a` is invertible); any other `k` (or an inverse that does
  /// not exist) interpolates from the identity to `a` at `k`: a decomposed rotation of `k·θ`,
  /// translation `k·t` and so on.
  /// - Parameters:
  ///   - a: The transform to accumulate.
  ///   - k: How many times.
  public static func scale(_ a: Transform3D, by k: Double) -> Transform3D {
    if k == 0 { return .identity }
    if k == 1 { return a }
    if k == k.rounded(), abs(k) <= 0x1p31, let base = k > 0 ? a : inverse(a) {
      var n = Int(abs(k))
      var result = Transform3D.identity
      var power = base
      while n > 0 {
        if n & 1 == 1 { result = result.concatenating(power) }
        n >>= 1
        if n > 0 { power = power.concatenating(power) }
      }
      return result
    }
    if let d = a.decomposed() {
      return Transform3D(DecomposedTransform3D.interpolate(.identity, d, k))
    }
    return elementwise(.identity, a) { Double.interpolate($0, $1, k) }
  }

  /// The Euclidean distance between the two decompositions, the space `interpolate` moves
  /// through: translation, scale, skew and perspective components, plus the angle (radians) of
  /// the rotation from one orientation to the other, each as one coordinate. So a pure
  /// translation measures its length and a pure rotation about one axis its angle (up to π, the
  /// shorter arc). If either end is singular, the Euclidean distance over the 16 elements.
  /// - Parameter other: The transform to measure to.
  public func distance(to other: Transform3D) -> Double {
    guard let a = decomposed(), let b = other.decomposed() else {
      var sum = 0.0
      _ = Transform3D.elementwise(self, other) { x, y in
        sum += (y - x) * (y - x)
        return 0
      }
      return sum.squareRoot()
    }
    var q1 = b.quaternion
    if DecompositionMath.dot(a.quaternion, q1) < 0 { q1 = -q1 }
    // The quaternions' 4D angle is half the rotation angle between the orientations.
    let angle = 2 * DecompositionMath.angle(a.quaternion, q1)
    let parts = [
      a.translation.distance(to: b.translation), a.scale.distance(to: b.scale),
      a.skew.distance(to: b.skew), a.perspective.distance(to: b.perspective), angle,
    ]
    return parts.reduce(0) { $0 + $1 * $1 }.squareRoot()
  }

  private static func elementwise(
    _ a: Transform3D, _ b: Transform3D, _ f: (Double, Double) -> Double
  ) -> Transform3D {
    let (ra, rb) = (a.rows, b.rows)
    return Transform3D(rows: (0..<4).map { i in (0..<4).map { j in f(ra[i][j], rb[i][j]) } })
  }

  /// The inverse by Gauss–Jordan elimination with partial pivoting, or nil when singular.
  static func inverse(_ m: Transform3D) -> Transform3D? {
    var a = m.rows
    var inv = Transform3D.identity.rows
    let scale = a.flatMap { $0 }.map(abs).max() ?? 0
    guard scale > 0, scale.isFinite else { return nil }
    for c in 0..<4 {
      let pivot = (c..<4).max { abs(a[$0][c]) < abs(a[$1][c]) }!
      guard abs(a[pivot][c]) > 1e-14 * scale else { return nil }
      a.swapAt(c, pivot)
      inv.swapAt(c, pivot)
      let p = a[c][c]
      for j in 0..<4 {
        a[c][j] /= p
        inv[c][j] /= p
      }
      for r in 0..<4 where r != c {
        let f = a[r][c]
        guard f != 0 else { continue }
        for j in 0..<4 {
          a[r][j] -= f * a[c][j]
          inv[r][j] -= f * inv[c][j]
        }
      }
    }
    return Transform3D(rows: inv)
  }
}
