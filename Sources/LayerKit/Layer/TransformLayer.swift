/// A layer whose sublayers keep their 3D positions (CATransformLayer): they are not flattened
/// into its plane but share the 3D space it makes, through nested transform layers too, and are
/// drawn back to front by the depth of their centres (the cube recipe: six faces, rotating
/// together). It draws nothing of its own — background, contents, border and shadow are
/// ignored, as Core Animation ignores them, and so is `masksToBounds`; its opacity, when below 1,
/// fades its sublayers together, as a group.
///
/// Depth is each sublayer's centre after every transform down to the transform layer's
/// superlayer's `sublayerTransform` (where a perspective is put), as z / w; faces are sorted
/// whole, with no per-pixel depth test, so intersecting faces are not split: the one whose
/// centre is nearer is drawn over the other everywhere.
open class TransformLayer: Layer {
}

extension Layer {
  /// Whether the layer flattens its sublayers into its plane (every layer but a TransformLayer).
  var flattensSublayers: Bool { !(self is TransformLayer) }
}

extension Transform3D {
  /// The point (x, y, 0, 1) times the matrix (row vectors, as Core Animation composes): X, Y, Z, W.
  func homogeneous(_ p: Point) -> (x: Double, y: Double, z: Double, w: Double) {
    (
      p.x * m11 + p.y * m21 + m41, p.x * m12 + p.y * m22 + m42, p.x * m13 + p.y * m23 + m43,
      p.x * m14 + p.y * m24 + m44
    )
  }
}
