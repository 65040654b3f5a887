import Foundation

/// A 4×4 homogeneous transform with Core Animation's layout and conventions (CATransform3D):
/// points are row vectors, `p' = p · M`, so `m41 m42 m43` hold the translation and `m34` is the
/// perspective term (`m34 = -1/d` for an eye at distance `d`). `a.concatenating(b)` applies `a`
/// first, then `b`, as `CATransform3DConcat(a, b)` does.
public struct Transform3D: Hashable, Sendable {
  public var m11: Double, m12: Double, m13: Double, m14: Double
  public var m21: Double, m22: Double, m23: Double, m24: Double
  public var m31: Double, m32: Double, m33: Double, m34: Double
  public var m41: Double, m42: Double, m43: Double, m44: Double

  public init(
    m11: Double, m12: Double, m13: Double, m14: Double,
    m21: Double, m22: Double, m23: Double, m24: Double,
    m31: Double, m32: Double, m33: Double, m34: Double,
    m41: Double, m42: Double, m43: Double, m44: Double
  ) {
    (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
    (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
    (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
    (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
  }

  public static let identity = Transform3D(
    m11: 1, m12: 0, m13: 0, m14: 0,
    m21: 0, m22: 1, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1)

  public var isIdentity: Bool { self == .identity }

  /// `CATransform3DMakeTranslation`.
  public init(translationX tx: Double, y ty: Double, z tz: Double = 0) {
    self = .identity
    (m41, m42, m43) = (tx, ty, tz)
  }

  /// `CATransform3DMakeScale`.
  public init(scaleX sx: Double, y sy: Double, z sz: Double = 1) {
    self = .identity
    (m11, m22, m33) = (sx, sy, sz)
  }

  /// `CATransform3DMakeRotation`: `angle` radians about the axis `(x, y, z)`. With y growing
  /// down, a positive angle about z turns clockwise on screen, as on iOS. A zero axis gives the
  /// identity.
  public init(rotationAngle angle: Double, x: Double, y: Double, z: Double) {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite else {
      self = .identity
      return
    }
    let (ux, uy, uz) = (x / length, y / length, z / length)
    let c = cos(angle)
    let s = sin(angle)
    let t = 1 - c
    // Rodrigues' rotation matrix, transposed for row vectors.
    self.init(
      m11: t * ux * ux + c, m12: t * ux * uy + s * uz, m13: t * ux * uz - s * uy, m14: 0,
      m21: t * ux * uy - s * uz, m22: t * uy * uy + c, m23: t * uy * uz + s * ux, m24: 0,
      m31: t * ux * uz + s * uy, m32: t * uy * uz - s * ux, m33: t * uz * uz + c, m34: 0,
      m41: 0, m42: 0, m43: 0, m44: 1)
  }

  /// A pure perspective transform: `m34 = -1 / eyeDistance`.
  public static func perspective(eyeDistance d: Double) -> Transform3D {
    var t = Transform3D.identity
    t.m34 = -1 / d
    return t
  }

  /// `self` first, then `other` (`CATransform3DConcat(self, other)`).
  public func concatenating(_ other: Transform3D) -> Transform3D {
    let a = rows
    let b = other.rows
    var r = [[Double]](repeating: [0, 0, 0, 0], count: 4)
    for i in 0..<4 {
      for j in 0..<4 {
        r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j] + a[i][3] * b[3][j]
      }
    }
    return Transform3D(rows: r)
  }

  /// `CATransform3DTranslate`: a translation applied before `self`.
  public func translatedBy(x: Double, y: Double, z: Double = 0) -> Transform3D {
    Transform3D(translationX: x, y: y, z: z).concatenating(self)
  }

  /// `CATransform3DScale`: a scale applied before `self`.
  public func scaledBy(x: Double, y: Double, z: Double = 1) -> Transform3D {
    Transform3D(scaleX: x, y: y, z: z).concatenating(self)
  }

  /// `CATransform3DRotate`: a rotation applied before `self`.
  public func rotated(by angle: Double, x: Double, y: Double, z: Double) -> Transform3D {
    Transform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
  }

  /// Whether the transform is a 2D affine one (`CATransform3DIsAffine`).
  public var isAffine: Bool {
    m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 && m31 == 0 && m32 == 0 && m33 == 1
      && m34 == 0 && m43 == 0 && m44 == 1
  }

  public var isFinite: Bool { rows.allSatisfy { $0.allSatisfy(\.isFinite) } }

  /// The matrix as four rows.
  public var rows: [[Double]] {
    [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
  }

  init(rows r: [[Double]]) {
    self.init(
      m11: r[0][0], m12: r[0][1], m13: r[0][2], m14: r[0][3],
      m21: r[1][0], m22: r[1][1], m23: r[1][2], m24: r[1][3],
      m31: r[2][0], m32: r[2][1], m33: r[2][2], m34: r[2][3],
      m41: r[3][0], m42: r[3][1], m43: r[3][2], m44: r[3][3])
  }
}
