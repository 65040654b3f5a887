import Foundation

// Transforms animate the way Core Animation (and WebKit, and CSS Transforms Level 2) animate them:
// each end is decomposed into translation, scale, skew, perspective and a rotation quaternion
// (the "unmatrix" algorithm of Graphics Gems II), the parts are interpolated independently (the
// quaternion by spherical linear interpolation) and the result is recomposed. Element-by-element
// interpolation would squash a rotation: halfway from 0° to 180° it would give the zero matrix.
//
// Layout: Transform3D is CATransform3D, row vectors, p' = p · M, translation in m41 m42 m43,
// perspective in m14 m24 m34. The CSS pseudo-code indexes `matrix[row][column]` with translation in
// `matrix[3][0...2]`, the same layout, so `matrix[i][j]` is `m(i+1)(j+1)` here. In row-vector
// order (leftmost applies first) a decomposed matrix is
//
//     M = Scale · Skew · Rotation · Translation · Perspective
//
// that is, a point is scaled, then skewed, rotated, translated, and last projected.

/// A `Transform3D` taken apart into the components that interpolate independently.
///
/// In row-vector order (the leftmost factor applies to a point first) the transform is
/// `scale · skew · rotation · translation · perspective`, where
/// - `scale` is `diag(scale.x, scale.y, scale.z)`;
/// - `skew` is the unit lower-triangular matrix with rows `(1, 0, 0)`, `(skew.x, 1, 0)`,
///   `(skew.y, skew.z, 1)`: `skew.x` is CSS's XY shear, `skew.y` XZ and `skew.z` YZ;
/// - `rotation` is the rotation of the unit `quaternion` `(x, y, z, w)`, with the meaning of
///   `Transform3D(rotationAngle:x:y:z:)`: `(sin(θ/2)·axis, cos(θ/2))` for `θ` radians about `axis`;
/// - `translation` moves the origin to `translation`;
/// - `perspective` `(x, y, z, w)` is the identity with its last column replaced by these four
///   values: `(0, 0, −1/d, 1)` for `Transform3D.perspective(eyeDistance: d)`.
public struct DecomposedTransform3D: Hashable, Sendable {
  /// Where the origin goes: `(m41, m42, m43)` of the recomposed matrix.
  public var translation: SIMD3<Double>
  /// Scale factors along x, y and z, applied first.
  public var scale: SIMD3<Double>
  /// Shear factors: `x` is XY, `y` is XZ, `z` is YZ (CSS's `skew[0]`, `skew[1]`, `skew[2]`).
  public var skew: SIMD3<Double>
  /// The last column of the perspective factor, applied last; `(0, 0, 0, 1)` for none.
  public var perspective: SIMD4<Double>
  /// The rotation as a unit quaternion `(x, y, z, w)`; `w ≥ 0` as decomposed.
  public var quaternion: SIMD4<Double>

  /// - Parameters:
  ///   - translation: Where the origin goes.
  ///   - scale: Scale factors along x, y, z.
  ///   - skew: XY, XZ and YZ shear factors.
  ///   - perspective: The last column of the perspective factor.
  ///   - quaternion: The rotation, `(x, y, z, w)`; normalized when recomposed.
  public init(
    translation: SIMD3<Double> = .zero, scale: SIMD3<Double> = .one, skew: SIMD3<Double> = .zero,
    perspective: SIMD4<Double> = SIMD4(0, 0, 0, 1), quaternion: SIMD4<Double> = SIMD4(0, 0, 0, 1)
  ) {
    self.translation = translation
    self.scale = scale
    self.skew = skew
    self.perspective = perspective
    self.quaternion = quaternion
  }

  /// The decomposition of the identity transform.
  public static let identity = DecomposedTransform3D()

  /// Component-wise linear interpolation of translation, scale, skew and perspective, and
  /// spherical linear interpolation of the rotation along the shorter arc (CSS Transforms 2,
  /// "Interpolation of decomposed 3D matrix values"). When the two rotations are nearly equal
  /// slerp is ill-conditioned and a normalized linear interpolation is used instead (the two
  /// agree to ~1e-18 there). `t` outside [0, 1] extrapolates, the rotation along the same great
  /// circle.
  /// - Parameters:
  ///   - from: The components at `t == 0`.
  ///   - to: The components at `t == 1`.
  ///   - t: The progress.
  public static func interpolate(
    _ from: DecomposedTransform3D, _ to: DecomposedTransform3D, _ t: Double
  ) -> DecomposedTransform3D {
    DecomposedTransform3D(
      translation: .interpolate(from.translation, to.translation, t),
      scale: .interpolate(from.scale, to.scale, t),
      skew: .interpolate(from.skew, to.skew, t),
      perspective: .interpolate(from.perspective, to.perspective, t),
      quaternion: slerp(from.quaternion, to.quaternion, t))
  }

  /// The rotation as angles about x, then y, then z (radians), applied to a point in that order:
  /// `rotationX(x).concatenating(rotationY(y)).concatenating(rotationZ(z))` is the rotation
  /// (Tait–Bryan angles; `R = Rz · Ry · Rx` for column vectors). `x` and `z` are in [−π, π], `y` in
  /// [−π/2, π/2]. For a rotation about z alone, `z` is its angle and `x == y == 0`: that is the
  /// reading `transform.rotation.z` gives. Setting it replaces the quaternion.
  public var eulerAngles: SIMD3<Double> {
    get {
      let q = quaternion / (quaternion * quaternion).sum().squareRoot()
      let (x, y, z, w) = (q.x, q.y, q.z, q.w)
      let ax = atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y))
      let ay = asin(min(max(2 * (w * y - z * x), -1), 1))
      let az = atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z))
      return SIMD3(ax, ay, az)
    }
    set {
      let (cx, sx) = (cos(newValue.x / 2), sin(newValue.x / 2))
      let (cy, sy) = (cos(newValue.y / 2), sin(newValue.y / 2))
      let (cz, sz) = (cos(newValue.z / 2), sin(newValue.z / 2))
      var q = SIMD4(
        sx * cy * cz - cx * sy * sz,
        cx * sy * cz + sx * cy * sz,
        cx * cy * sz - sx * sy * cz,
        cx * cy * cz + sx * sy * sz)
      if q.w < 0 { q = -q }
      quaternion = q
    }
  }

  /// The angle (radians, in [0, π]) of the rotation, about its own axis.
  public var rotationAngle: Double {
    let q = quaternion
    return 2 * atan2((q.x * q.x + q.y * q.y + q.z * q.z).squareRoot(), abs(q.w))
  }
}

// MARK: - Decomposition

extension Transform3D {
  /// The transform taken apart into translation, scale, skew, perspective and rotation, or `nil`
  /// when its linear part (the upper-left 3×3) is singular, as CSS Transforms 2 decomposes a
  /// `matrix3d` (Graphics Gems II, "unmatrix"). `Transform3D(decomposed)` gives the matrix back
  /// to rounding error.
  ///
  /// Two deliberate differences from the CSS pseudo-code, neither of which changes the
  /// decomposition of a matrix with `m44 == 1` and a positive determinant (every rotation, scale,
  /// translation and perspective Core Animation's constructors make):
  /// - The matrix is not divided by `m44` first. The perspective component carries `m44`
  ///   (`perspective.w = m44 − translation · perspective.xyz`), so the recomposition is the same
  ///   matrix rather than a multiple of it, a z translation before a perspective
  ///   (`m44 = 1 − z/d`) comes apart as that translation and that perspective, and `m44 == 0`
  ///   is no obstacle.
  /// - A coordinate-system flip (negative determinant) negates one axis, the one whose basis
  ///   vector points most backwards (as CSS's own 2D decomposition does), not all three: a
  ///   horizontal flip `scale(x: -1, y: 1)` decomposes as scale (−1, 1, 1) and no rotation, and
  ///   so animates from the identity as a squeeze through zero width, not a half turn about x.
  ///   The matrix is the same either way; only the interpolation path differs.
  ///
  /// The quaternion is extracted with Shepperd's method (branching on the largest component),
  /// which is exact where CSS's sign comparisons are ambiguous (half turns, `w ≈ 0`).
  public func decomposed() -> DecomposedTransform3D? {
    typealias V = DecompositionMath
    guard isFinite else { return nil }
    var r0 = SIMD3(m11, m12, m13)
    var r1 = SIMD3(m21, m22, m23)
    var r2 = SIMD3(m31, m32, m33)
    let translation = SIMD3(m41, m42, m43)

    // Singularity of the linear part, relative to its rows' lengths so that a small uniform
    // scale (a legitimate animation end) is not mistaken for a singular matrix.
    let det = V.dot(r0, V.cross(r1, r2))
    let volume = V.length(r0) * V.length(r1) * V.length(r2)
    guard volume > 0, volume.isFinite, abs(det) > 1e-12 * volume else { return nil }

    // Perspective: M = N · P with N = [[A, 0], [t, 1]] and P the identity with last column p.
    // So A · p.xyz = (m14, m24, m34) and t · p.xyz + p.w = m44. A⁻¹'s columns are the rows'
    // cross products over det.
    var perspective = SIMD4<Double>(0, 0, 0, m44)
    if m14 != 0 || m24 != 0 || m34 != 0 {
      let p =
        (m14 * V.cross(r1, r2) + m24 * V.cross(r2, r0) + m34
          * V.cross(r0, r1)) / det
      perspective = SIMD4(p.x, p.y, p.z, m44 - V.dot(translation, p))
    }

    // Scale and skew by Gram–Schmidt on the rows: A = diag(scale) · Skew · U, U orthonormal.
    var scale = SIMD3<Double>.zero
    var skew = SIMD3<Double>.zero
    scale.x = V.length(r0)
    r0 /= scale.x
    skew.x = V.dot(r0, r1)
    r1 -= skew.x * r0
    scale.y = V.length(r1)
    r1 /= scale.y
    skew.x /= scale.y
    skew.y = V.dot(r0, r2)
    r2 -= skew.y * r0
    skew.z = V.dot(r1, r2)
    r2 -= skew.z * r1
    scale.z = V.length(r2)
    r2 /= scale.z
    skew.y /= scale.z
    skew.z /= scale.z

    // A flip: with D = diag(±1), A = diag(scale·d) · (D·Skew·D) · (D·U). Negating axis i negates
    // its scale and basis row and the shears that pair it with another axis.
    if V.dot(r0, V.cross(r1, r2)) < 0 {
      let diagonal = SIMD3(r0.x, r1.y, r2.z)
      let axis = diagonal.x <= diagonal.y && diagonal.x <= diagonal.z ? 0 : (diagonal.y <= diagonal.z ? 1 : 2)
      switch axis {
      case 0:
        r0 = -r0
        skew.x = -skew.x
        skew.y = -skew.y
      case 1:
        r1 = -r1
        skew.x = -skew.x
        skew.z = -skew.z
      default:
        r2 = -r2
        skew.y = -skew.y
        skew.z = -skew.z
      }
      scale[axis] = -scale[axis]
    }

    return DecomposedTransform3D(
      translation: translation, scale: scale, skew: skew, perspective: perspective,
      quaternion: quaternionFromRows(r0, r1, r2))
  }

  /// The transform a decomposition describes: `scale · skew · rotation · translation ·
  /// perspective` in row-vector order (see `DecomposedTransform3D`). The quaternion is normalized
  /// first; a zero quaternion means no rotation.
  /// - Parameter d: The components.
  public init(_ d: DecomposedTransform3D) {
    typealias V = DecompositionMath
    let (u0, u1, u2) = rotationRows(d.quaternion)
    let a0 = d.scale.x * u0
    let a1 = d.scale.y * (d.skew.x * u0 + u1)
    let a2 = d.scale.z * (d.skew.y * u0 + d.skew.z * u1 + u2)
    let p = SIMD3(d.perspective.x, d.perspective.y, d.perspective.z)
    let t = d.translation
    self.init(
      m11: a0.x, m12: a0.y, m13: a0.z, m14: V.dot(a0, p),
      m21: a1.x, m22: a1.y, m23: a1.z, m24: V.dot(a1, p),
      m31: a2.x, m32: a2.y, m33: a2.z, m34: V.dot(a2, p),
      m41: t.x, m42: t.y, m43: t.z, m44: V.dot(t, p) + d.perspective.w)
  }
}

// MARK: - Value-function building blocks and component readers

extension Transform3D {
  /// A rotation of `angle` radians about the x axis (the `rotateX` value function).
  public static func rotationX(_ angle: Double) -> Transform3D {
    Transform3D(rotationAngle: angle, x: 1, y: 0, z: 0)
  }

  /// A rotation of `angle` radians about the y axis (the `rotateY` value function).
  public static func rotationY(_ angle: Double) -> Transform3D {
    Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0)
  }

  /// A rotation of `angle` radians about the z axis (the `rotateZ` value function); with y
  /// growing down, positive angles turn clockwise on screen.
  public static func rotationZ(_ angle: Double) -> Transform3D {
    Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
  }

  /// `CATransform3DMakeScale` (the `scale` value functions).
  public static func scale(x: Double, y: Double, z: Double = 1) -> Transform3D {
    Transform3D(scaleX: x, y: y, z: z)
  }

  /// `CATransform3DMakeTranslation` (the `translate` value functions).
  public static func translation(x: Double, y: Double, z: Double = 0) -> Transform3D {
    Transform3D(translationX: x, y: y, z: z)
  }

  /// `transform.translation`: `(m41, m42, m43)`, where the origin goes. This is the decomposed
  /// translation, and it is defined for singular matrices too.
  public var translation: SIMD3<Double> { SIMD3(m41, m42, m43) }

  /// `transform.scale`: the decomposed scale factors (signed: a horizontal flip reads
  /// `(-1, 1, 1)`). For a singular matrix, which has no decomposition, the lengths of the images
  /// of the three unit vectors (`(m11, m12, m13)` and so on), which is the same reading for any
  /// unskewed matrix without a flip, and reads 0 along a collapsed axis.
  public var scale: SIMD3<Double> {
    if let d = decomposed() { return d.scale }
    return SIMD3(
      DecompositionMath.length(SIMD3(m11, m12, m13)), DecompositionMath.length(SIMD3(m21, m22, m23)),
      DecompositionMath.length(SIMD3(m31, m32, m33)))
  }

  /// `transform.rotation.x`: the x angle of the decomposed rotation's Euler angles (see
  /// `DecomposedTransform3D.eulerAngles`); 0 for a singular matrix.
  public var rotationX: Double { decomposed()?.eulerAngles.x ?? 0 }

  /// `transform.rotation.y`: the y angle of the decomposed rotation's Euler angles (see
  /// `DecomposedTransform3D.eulerAngles`); 0 for a singular matrix.
  public var rotationY: Double { decomposed()?.eulerAngles.y ?? 0 }

  /// `transform.rotation.z` (and `transform.rotation`): the z angle, in [−π, π], of the decomposed
  /// rotation's Euler angles (x, then y, then z; see `DecomposedTransform3D.eulerAngles`). For a
  /// rotation about z alone it is that rotation's angle, `atan2(m12, m11)`; scale and skew do not
  /// change it. For a singular matrix, `atan2(m12, m11)`, the angle of the image of the x axis.
  public var rotationZ: Double {
    if let d = decomposed() { return d.eulerAngles.z }
    return atan2(m12, m11)
  }
}

// MARK: - Helpers

/// Small vector helpers, namespaced so they cannot collide with the module's other files.
enum DecompositionMath {
  static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
  static func dot(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> Double { (a * b).sum() }
  static func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }
  static func length(_ a: SIMD4<Double>) -> Double { dot(a, a).squareRoot() }
  static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
  }
  /// The angle between two unit 4-vectors, in [0, π]: 2·atan2(|a − b|, |a + b|), accurate at
  /// any separation (acos of the dot product is not, near 0).
  static func angle(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> Double {
    2 * atan2(length(a - b), length(a + b))
  }
}

/// The quaternion of the rotation whose row-vector matrix has rows `u0 u1 u2`. That matrix is
/// the transpose of the usual column-vector one, `R[i][j] = u_j[i]`; Shepperd's method reads the
/// largest component from the diagonal and the others from sums and differences of off-diagonal
/// pairs, so it stays exact near half turns. Returned with `w ≥ 0`.
private func quaternionFromRows(_ u0: SIMD3<Double>, _ u1: SIMD3<Double>, _ u2: SIMD3<Double>) -> SIMD4<Double> {
  let (r00, r01, r02) = (u0.x, u1.x, u2.x)
  let (r10, r11, r12) = (u0.y, u1.y, u2.y)
  let (r20, r21, r22) = (u0.z, u1.z, u2.z)
  let trace = r00 + r11 + r22
  var q: SIMD4<Double>
  if trace > 0 {
    let s = 2 * (1 + trace).squareRoot()  // 4w
    q = SIMD4((r21 - r12) / s, (r02 - r20) / s, (r10 - r01) / s, s / 4)
  } else if r00 >= r11 && r00 >= r22 {
    let s = 2 * (1 + r00 - r11 - r22).squareRoot()  // 4x
    q = SIMD4(s / 4, (r01 + r10) / s, (r02 + r20) / s, (r21 - r12) / s)
  } else if r11 >= r22 {
    let s = 2 * (1 + r11 - r00 - r22).squareRoot()  // 4y
    q = SIMD4((r01 + r10) / s, s / 4, (r12 + r21) / s, (r02 - r20) / s)
  } else {
    let s = 2 * (1 + r22 - r00 - r11).squareRoot()  // 4z
    q = SIMD4((r02 + r20) / s, (r12 + r21) / s, s / 4, (r10 - r01) / s)
  }
  if q.w < 0 { q = -q }
  return q / DecompositionMath.length(q)
}

/// The rows of the row-vector rotation matrix of quaternion `q` (normalized here): the transpose
/// of the column-vector matrix CSS Transforms 2 writes out, so that `(sin(θ/2)·axis, cos(θ/2))`
/// gives `Transform3D(rotationAngle: θ, …axis)`.
private func rotationRows(_ q: SIMD4<Double>) -> (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
  let n = DecompositionMath.length(q)
  guard n > 0, n.isFinite else { return (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)) }
  let (x, y, z, w) = (q.x / n, q.y / n, q.z / n, q.w / n)
  // Column-vector matrix R; row i of the row-vector matrix is column i of R.
  return (
    SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
    SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
    SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
  )
}

/// Spherical linear interpolation along the shorter arc; normalized lerp when the ends are
/// within 1e-6 rad of each other (where slerp's 1/sin Ω is ill-conditioned and nlerp's error
/// is ~Ω³). The ends are normalized first.
private func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ t: Double) -> SIMD4<Double> {
  let a = a / DecompositionMath.length(a)
  var b = b / DecompositionMath.length(b)
  if DecompositionMath.dot(a, b) < 0 { b = -b }
  let omega = DecompositionMath.angle(a, b)  // in [0, π/2] after the sign flip
  if omega < 1e-6 {
    let q = (1 - t) * a + t * b
    let n = DecompositionMath.length(q)
    return n > 0 ? q / n : a
  }
  let s = sin(omega)
  return (sin((1 - t) * omega) / s) * a + (sin(t * omega) / s) * b
}
