// What a RenderList's draws are filled with (RenderList.swift): texture transforms, paints and
// gradients.

import Foundation

/// How local coordinates map to normalized texture coordinates: uv = q × scale + offset, where
/// uv (0, 0) is the top-left corner of the texture's top-left texel and (1, 1) the bottom-right
/// corner of its bottom-right texel.
public struct TextureTransform: Hashable, Sendable {
  public var scale: SIMD2<Float>
  public var offset: SIMD2<Float>
  /// The texel that contains uv (RenderMath.sampleNearest: Core Animation's `nearest` contents
  /// filter) instead of the bilinear sample.
  public var nearest: Bool
  /// Nine-slice stretching (CALayer.contentsCenter): three pieces along each axis, each its own
  /// `q × scale + offset`; nil is the one piece of `scale` and `offset`.
  public var slices: Slices?

  /// Per axis, the two local coordinates where the pieces meet and each piece's scale and
  /// offset: below `breaks.x` the first, from `breaks.x` below `breaks.y` the second, else the
  /// third.
  public struct Slices: Hashable, Sendable {
    public var breaksX: SIMD2<Float>
    public var scaleX: SIMD3<Float>
    public var offsetX: SIMD3<Float>
    public var breaksY: SIMD2<Float>
    public var scaleY: SIMD3<Float>
    public var offsetY: SIMD3<Float>

    public init(
      breaksX: SIMD2<Float>, scaleX: SIMD3<Float>, offsetX: SIMD3<Float>, breaksY: SIMD2<Float>,
      scaleY: SIMD3<Float>, offsetY: SIMD3<Float>
    ) {
      (self.breaksX, self.scaleX, self.offsetX) = (breaksX, scaleX, offsetX)
      (self.breaksY, self.scaleY, self.offsetY) = (breaksY, scaleY, offsetY)
    }
  }

  public init(scale: SIMD2<Float>, offset: SIMD2<Float>, nearest: Bool = false, slices: Slices? = nil) {
    self.scale = scale
    self.offset = offset
    self.nearest = nearest
    self.slices = slices
  }

  /// The normalized u of local x: `x × scale.x + offset.x`, or its piece's.
  @inlinable @inline(__always)
  public func u(_ x: Float) -> Float {
    guard let s = slices else { return x * scale.x + offset.x }
    let i = x < s.breaksX.x ? 0 : (x < s.breaksX.y ? 1 : 2)
    return x * s.scaleX[i] + s.offsetX[i]
  }

  /// The normalized v of local y, likewise.
  @inlinable @inline(__always)
  public func v(_ y: Float) -> Float {
    guard let s = slices else { return y * scale.y + offset.y }
    let i = y < s.breaksY.x ? 0 : (y < s.breaksY.y ? 1 : 2)
    return y * s.scaleY[i] + s.offsetY[i]
  }

  /// uv of a local point: `q × scale + offset`, or per piece.
  @inlinable @inline(__always)
  public func uv(_ q: SIMD2<Float>) -> SIMD2<Float> {
    guard slices != nil else { return q * scale + offset }
    return SIMD2(u(q.x), v(q.y))
  }
}

/// What a draw puts down where it covers.
public enum Paint: Hashable, Sendable {
  /// A premultiplied colour.
  case color(SIMD4<Float>)
  /// Texels, sampled bilinearly with clamp-to-edge (RenderMath.sampleBilinear), or the nearest
  /// texel (RenderMath.sampleNearest) when the transform says so.
  case texture(TextureSource, TextureTransform)
  /// A gradient between colour stops (RenderMath.gradientColor).
  case gradient(Gradient)
}

/// A gradient paint (CAGradientLayer's): premultiplied colour stops at ascending locations in
/// [0, 1], placed by the gradient's kind between `start` and `end` in local coordinates, and
/// interpolated as stored — premultiplied, sRGB-encoded, no linearisation (the parity contract's
/// blending space).
public struct Gradient: Hashable, Sendable {
  public enum Kind: Int32, Sendable {
    /// Along the line from start to end: t is the projection onto it.
    case axial
    /// An ellipse around start whose radii are end − start: t is the elliptical distance.
    case radial
    /// Around start, from the direction of end, clockwise on screen (y down): t is the angle
    /// over a turn.
    case conic
  }

  /// The most stops a gradient carries (the GPU's uniform arrays).
  public static let maxStops = 64

  public var kind: Kind
  public var start: SIMD2<Float>
  public var end: SIMD2<Float>
  /// Premultiplied colours, 0…1.
  public var colors: [SIMD4<Float>]
  /// One per colour, ascending.
  public var locations: [Float]

  public init(kind: Kind, start: SIMD2<Float>, end: SIMD2<Float>, colors: [SIMD4<Float>], locations: [Float]) {
    self.kind = kind
    self.start = start
    self.end = end
    self.colors = colors
    self.locations = locations
  }
}
