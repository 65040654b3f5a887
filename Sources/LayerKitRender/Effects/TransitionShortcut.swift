/// A simple form an effect's formula takes at every progress inside (0, 1), so that a backend (or
/// a video sink) may run it without evaluating the formula per pixel (TransitionEffect.shortcut).
public enum TransitionShortcut: Sendable, Equatable {
  /// `mix(from, to, progress)` texel by texel at the pixel's own uv.
  case crossfade
  /// One image read at uv shifted by the `direction` parameter × progress, the other at its own
  /// uv (moveIn, reveal) or shifted too (push): each row reads whole rows of texels.
  case slide(Slide)

  public enum Slide: Sendable, Equatable {
    /// The new content, shifted by −d × (1 − p), over the old.
    case moveIn
    /// The new content shifted by −d × (1 − p), the old by d × p.
    case push
    /// The old content, shifted by d × p, over the new.
    case reveal

    /// Whether the shifted read takes the old content (reveal) rather than the new.
    public var shiftsOldContent: Bool { self == .reveal }

    /// The CPU twins' coordinates (CPUEffects: move_in.glsl, push.glsl, reveal.glsl) at `uv`: q,
    /// read from the shifted image when it lies in [0, 1]², and r, read from the other image
    /// otherwise; one SIMD lane per axis, so each axis is computed alone, as there.
    @inlinable @inline(__always)
    public func coordinates(_ uv: SIMD2<Float>, direction d: SIMD2<Float>, progress p: Float) -> (
      q: SIMD2<Float>, r: SIMD2<Float>
    ) {
      switch self {
      case .moveIn: return (uv - d * (1 - p), uv)
      case .push: return (uv - d * (1 - p), uv + d * p)
      case .reveal: return (uv + d * p, uv)
      }
    }
  }
}

extension RenderMath {
  /// The uv of pixel (x, y) of a transition pass over `bounds` of `size` pixels, in gl-transitions'
  /// convention (y up), as every transition computes it: the pixel centre less the origin, over
  /// the size, y flipped.
  @inlinable @inline(__always)
  public static func transitionUV(_ x: Int, _ y: Int, bounds: PixelRect, size: SIMD2<Float>) -> SIMD2<Float> {
    let c = SIMD2(Float(x) + 0.5, Float(y) + 0.5) - SIMD2(Float(bounds.x), Float(bounds.y))
    return SIMD2(c.x / size.x, 1 - c.y / size.y)
  }
}
