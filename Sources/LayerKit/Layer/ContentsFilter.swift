/// How contents are sampled when drawn larger or smaller than their pixels
/// (CALayerContentsFilter): `Layer.magnificationFilter` and `Layer.minificationFilter`.
public enum ContentsFilter: String, CaseIterable, Sendable {
  /// Bilinear between the four nearest texels (the default).
  case linear
  /// The texel the pixel's centre falls in: hard pixel edges (pixel art scaled up).
  case nearest
  /// Core Animation's mipmapped filter for minification. LayerKit keeps no mipmaps: it samples
  /// as `linear`.
  case trilinear
}
