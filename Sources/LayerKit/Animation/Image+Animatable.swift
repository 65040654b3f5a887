/// Contents crossfade. An animation of `contents` presents `Image(crossfading:to:weight:)`: the two
/// images and the weight, which the builder draws as `TextureSource.crossfade` and the backends
/// mix texel by texel (RenderMath.crossfade on the premultiplied bytes); its bytes are made on the
/// CPU only if someone reads them. Images of different sizes cannot be mixed texel by texel: the
/// mix is then a cut at p = 0.5. A missing image (nil contents) mixes as transparent.
extension Image: Animatable {
  /// A 1×1 transparent image: the additive identity, and what nil contents mix as.
  public static let zero: Image = {
    do {
      return try Image(width: 1, height: 1, pixels: [0, 0, 0, 0])
    } catch {
      preconditionFailure("a 1×1 image is always valid")
    }
  }()

  public static func interpolate(_ from: Image, _ to: Image, _ t: Double) -> Image {
    let p = min(max(t, 0), 1)
    if p == 0 { return from }
    if p == 1 { return to }
    // Transparent stands in for the missing side, at the other side's size.
    let a = from.id == zero.id ? nil : from
    let b = to.id == zero.id ? nil : to
    guard a != nil || b != nil else { return from }
    if let a, let b, a.width != b.width || a.height != b.height { return p < 0.5 ? a : b }
    return Image(crossfading: a, to: b, weight: Float(p)) ?? to
  }

  /// Contents do not add: the later image replaces the earlier one.
  public static func add(_ a: Image, _ b: Image) -> Image { b.id == zero.id ? a : b }

  /// Contents do not scale.
  public static func scale(_ a: Image, by k: Double) -> Image { a }

  /// 0 for the same pixels, 1 otherwise (paced keyframes of contents step evenly).
  public func distance(to other: Image) -> Double { self == other ? 0 : 1 }
}
