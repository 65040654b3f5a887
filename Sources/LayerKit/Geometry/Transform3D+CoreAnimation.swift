import Foundation

// Core Animation's CATransform3D functions under their names less the CA prefix, so ported code
// keeps its lines: `layer.transform = Transform3DMakeRotation(.pi / 4, 0, 0, 1)`. Each is one of
// Transform3D's own initialisers or methods.

/// `CATransform3DIdentity`.
public let Transform3DIdentity = Transform3D.identity

/// `CATransform3DMakeTranslation`.
public func Transform3DMakeTranslation(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
  Transform3D(translationX: tx, y: ty, z: tz)
}

/// `CATransform3DMakeScale`.
public func Transform3DMakeScale(_ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
  Transform3D(scaleX: sx, y: sy, z: sz)
}

/// `CATransform3DMakeRotation`: `angle` radians about the axis (x, y, z).
public func Transform3DMakeRotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
  Transform3D(rotationAngle: angle, x: x, y: y, z: z)
}

/// `CATransform3DTranslate`: a translation applied before `t`.
public func Transform3DTranslate(_ t: Transform3D, _ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
  t.translatedBy(x: tx, y: ty, z: tz)
}

/// `CATransform3DScale`: a scale applied before `t`.
public func Transform3DScale(_ t: Transform3D, _ sx: Double, _ sy: Double, _ sz: Double) -> Transform3D {
  t.scaledBy(x: sx, y: sy, z: sz)
}

/// `CATransform3DRotate`: a rotation applied before `t`.
public func Transform3DRotate(_ t: Transform3D, _ angle: Double, _ x: Double, _ y: Double, _ z: Double)
  -> Transform3D
{
  t.rotated(by: angle, x: x, y: y, z: z)
}

/// `CATransform3DConcat`: `a` then `b`.
public func Transform3DConcat(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
  a.concatenating(b)
}

/// `CATransform3DInvert`: the inverse, or `t` itself when it has none (as Core Animation returns
/// the original matrix for a singular one).
public func Transform3DInvert(_ t: Transform3D) -> Transform3D {
  Transform3D.inverse(t) ?? t
}

/// `CATransform3DIsIdentity`.
public func Transform3DIsIdentity(_ t: Transform3D) -> Bool { t.isIdentity }

/// `CATransform3DEqualToTransform`.
public func Transform3DEqualToTransform(_ a: Transform3D, _ b: Transform3D) -> Bool { a == b }

/// `CATransform3DIsAffine`: whether the transform maps the plane z = 0 to itself without
/// perspective (CGAffineTransform's six entries carry it).
public func Transform3DIsAffine(_ t: Transform3D) -> Bool {
  t.m13 == 0 && t.m23 == 0 && t.m31 == 0 && t.m32 == 0 && t.m33 == 1 && t.m34 == 0 && t.m43 == 0
    && t.m14 == 0 && t.m24 == 0 && t.m44 == 1
}

/// `CATransform3DMakeAffineTransform`: the affine transform in the plane z = 0.
public func Transform3DMakeAffineTransform(_ m: AffineTransform) -> Transform3D {
  var t = Transform3D.identity
  (t.m11, t.m12, t.m21, t.m22, t.m41, t.m42) = (m.m11, m.m12, m.m21, m.m22, m.tX, m.tY)
  return t
}

/// `CATransform3DGetAffineTransform`: the transform's affine part (its x and y rows and
/// translation), exact when `Transform3DIsAffine`.
public func Transform3DGetAffineTransform(_ t: Transform3D) -> AffineTransform {
  AffineTransform(m11: t.m11, m12: t.m12, m21: t.m21, m22: t.m22, tX: t.m41, tY: t.m42)
}
