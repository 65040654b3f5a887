// The geometry of a RenderList's draws (RenderList.swift): pixel rectangles, plane mappings, the
// shapes drawn and the clips, in target pixels.

import Foundation

/// A whole-pixel rectangle in target pixels.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
  public var x: Int
  public var y: Int
  public var width: Int
  public var height: Int

  public init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  public var maxX: Int { x + width }
  public var maxY: Int { y + height }
  public var isEmpty: Bool { width <= 0 || height <= 0 }

  public func intersection(_ o: PixelRect) -> PixelRect {
    let x0 = max(x, o.x)
    let y0 = max(y, o.y)
    let x1 = min(maxX, o.maxX)
    let y1 = min(maxY, o.maxY)
    return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }

  public func union(_ o: PixelRect) -> PixelRect {
    if isEmpty { return o }
    if o.isEmpty { return self }
    let x0 = min(x, o.x)
    let y0 = min(y, o.y)
    return PixelRect(x: x0, y: y0, width: max(maxX, o.maxX) - x0, height: max(maxY, o.maxY) - y0)
  }

  public var description: String { "[\(x), \(y), \(width)×\(height)]" }
}

/// A 3×3 matrix acting on column vectors (x, y, 1), stored as three rows.
public struct Matrix3: Hashable, Sendable {
  public var row0: SIMD3<Float>
  public var row1: SIMD3<Float>
  public var row2: SIMD3<Float>

  public init(row0: SIMD3<Float>, row1: SIMD3<Float>, row2: SIMD3<Float>) {
    self.row0 = row0
    self.row1 = row1
    self.row2 = row2
  }

  public static let identity = Matrix3(row0: [1, 0, 0], row1: [0, 1, 0], row2: [0, 0, 1])

  /// `M · v`.
  @inlinable @inline(__always) public func apply(_ v: SIMD3<Float>) -> SIMD3<Float> {
    SIMD3((row0 * v).sum(), (row1 * v).sum(), (row2 * v).sum())
  }

  /// The nine entries in column-major order, as `glUniformMatrix3fv` takes them untransposed.
  public var columnMajor: [Float] {
    [row0.x, row1.x, row2.x, row0.y, row1.y, row2.y, row0.z, row1.z, row2.z]
  }
}

/// How a shape's local plane maps to target pixels and back. Both directions are computed once by
/// the model, in Double, so the backends never invert a matrix themselves.
public struct PlaneMapping: Hashable, Sendable {
  /// local (x, y, 1) → target pixels (X, Y, W); the pixel is (X/W, Y/W). W > 0 is in front of the eye.
  public var toTarget: Matrix3
  /// target pixel (px, py, 1) → local (x, y, w); the local point is (x/w, y/w).
  public var fromTarget: Matrix3

  public init(toTarget: Matrix3, fromTarget: Matrix3) {
    self.toTarget = toTarget
    self.fromTarget = fromTarget
  }

  /// Local coordinates are target pixels.
  public static let identity = PlaneMapping(toTarget: .identity, fromTarget: .identity)

  /// Whether both directions are affine: row 2 of each matrix is exactly (0, 0, 1), so the
  /// homogeneous divisor is exactly 1 everywhere and backends may skip the division
  /// (RenderMath.unproject does, bit-for-bit the same result).
  @inlinable public var isAffine: Bool {
    toTarget.row2 == SIMD3(0, 0, 1) && fromTarget.row2 == SIMD3(0, 0, 1)
  }
}

/// A rectangle with rounded corners in a local plane; `bounds` is (minX, minY, maxX, maxY).
public struct RoundedRect: Hashable, Sendable {
  public var bounds: SIMD4<Float>
  /// Corner radius; clamped to half the shorter side when used.
  public var cornerRadius: Float
  /// Which corners the radius rounds (CACornerMask's bits: 1 min-x min-y — the top left, y
  /// down —, 2 max-x min-y, 4 min-x max-y, 8 max-x max-y); the others stay square. Bit 16
  /// (`RoundedRect.continuous`) makes the rounded ones continuous (CALayerCornerCurve): a
  /// superellipse of exponent `continuousExponent` over `continuousExtent` × the radius along
  /// each edge instead of a quarter circle (RenderMath.signedDistance).
  public var corners: UInt8

  /// The bit of `corners` that makes the corners continuous.
  public static let continuous: UInt8 = 16
  /// How far along each edge a continuous corner curves, in radii (Core Animation's continuous
  /// corners start bending about 1.528 radii from the corner).
  public static let continuousExtent: Float = 1.528
  /// The superellipse's exponent: with `continuousExtent` it passes through the circular
  /// corner's 45° point, 0.293 radii in from the corner along each axis.
  public static let continuousExponent: Float = 3.26

  public init(bounds: SIMD4<Float>, cornerRadius: Float = 0, corners: UInt8 = 0b1111) {
    self.bounds = bounds
    self.cornerRadius = cornerRadius
    self.corners = corners
  }
}

/// A filled outline made of straight segments in a local plane (curves are flattened by the
/// model), with its fill rule. Coverage: RenderMath.coverage(LocalPoint, PathGeometry).
public struct PathGeometry: Hashable, Sendable {
  /// (x0, y0, x1, y1) per segment, closed contours, in local coordinates.
  public var segments: [SIMD4<Float>]
  /// Even-odd instead of non-zero winding.
  public var evenOdd: Bool

  public init(segments: [SIMD4<Float>], evenOdd: Bool = false) {
    self.segments = segments
    self.evenOdd = evenOdd
  }
}

/// Coverage given pixel by pixel: one byte per target pixel over `bounds`, rows top-down, made
/// by the model (a ShapeLayer's fill or stroke, rasterized once on the CPU so that both backends
/// read the very same coverage). The coverage at target pixel centre p is
/// `Float(byte) / 255` of the byte at (floor(p.x) − bounds.x, floor(p.y) − bounds.y), and 0
/// outside `bounds` (RenderMath.coverage(SIMD2<Float>, CoverageMask)).
public struct CoverageMask: Hashable, Sendable {
  public var bounds: PixelRect
  /// `bounds.width × bounds.height` bytes.
  public var bytes: [UInt8]

  public init(bounds: PixelRect, bytes: [UInt8]) {
    precondition(bytes.count == max(bounds.width, 0) * max(bounds.height, 0), "one byte per pixel of the bounds")
    self.bounds = bounds
    self.bytes = bytes
  }
}

/// The coverage mask of a draw, in its local plane.
public struct Shape: Hashable, Sendable {
  /// The rounded rectangle, or (with `path`) the path's bounding box.
  public var rect: RoundedRect
  /// 0 fills the rounded rectangle; a positive width draws only a ring of that width inside it
  /// (a border: the outer shape minus the shape inset by `borderWidth` with radius
  /// `max(cornerRadius − borderWidth, 0)`).
  public var borderWidth: Float
  /// When set, the shape is this path, filled; `rect` then only bounds it and `borderWidth` is 0.
  public var path: PathGeometry?
  /// When set, the shape is this per-pixel coverage, in target pixels: `rect`, `borderWidth`
  /// and `path` are not read (the draw's plane still decides where it is in front of the eye).
  public var coverage: CoverageMask?

  public init(rect: RoundedRect, borderWidth: Float = 0, path: PathGeometry? = nil, coverage: CoverageMask? = nil) {
    self.rect = rect
    self.borderWidth = borderWidth
    self.path = path
    self.coverage = coverage
  }
}

/// A clip applied to a draw: the draw's coverage is multiplied by this shape's coverage.
public struct Clip: Hashable, Sendable {
  public var mapping: PlaneMapping
  public var rect: RoundedRect

  public init(mapping: PlaneMapping, rect: RoundedRect) {
    self.mapping = mapping
    self.rect = rect
  }
}


extension Matrix3 {
  var isFinite: Bool {
    [row0, row1, row2].allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }
  }
}

extension PlaneMapping {
  var isFinite: Bool { toTarget.isFinite && fromTarget.isFinite }
}

extension RoundedRect {
  var isFinite: Bool {
    bounds.x.isFinite && bounds.y.isFinite && bounds.z.isFinite && bounds.w.isFinite
      && cornerRadius.isFinite
  }
}
