import Foundation

// CALayer's coordinate conversions and hit testing, in the geometry the builder draws with
// (RenderList+Layer.swift): a point of a layer's bounds reaches its superlayer through
// T(−anchor) · transform · T(position, zPosition), and the superlayer's sublayerTransform about
// its anchor, each layer flattened into its superlayer's plane. With perspective, a point maps
// through the plane's homography, and back through its inverse.

extension Layer {
  /// `p`, a point in `layer`'s coordinate space, in this layer's (CALayer.convert(_:from:)).
  /// `nil` is the space the root layer is drawn into (the render target's points). A point that
  /// has no place in this layer's plane (a plane seen edge-on, or behind the eye) comes back as
  /// (nan, nan).
  public func convert(_ p: Point, from layer: Layer?) -> Point { place(p, from: layer) ?? Self.nowhere }

  /// `p`, a point in this layer's coordinate space, in `layer`'s (CALayer.convert(_:to:)).
  public func convert(_ p: Point, to layer: Layer?) -> Point { place(p, to: layer) ?? Self.nowhere }

  /// The bounding box of `r`'s corners converted from `layer`'s space (CALayer.convert(_:from:));
  /// `CGRect.null` when a corner has no place.
  public func convert(_ r: Rect, from layer: Layer?) -> Rect {
    Self.boundingBox(r) { place($0, from: layer) } ?? .null
  }

  /// The bounding box of `r`'s corners converted to `layer`'s space (CALayer.convert(_:to:)).
  public func convert(_ r: Rect, to layer: Layer?) -> Rect {
    Self.boundingBox(r) { place($0, to: layer) } ?? .null
  }

  /// What `convert` gives for a point with no place.
  private static let nowhere = Point(x: Double.nan, y: Double.nan)

  /// `p` from `layer`'s space into this layer's; nil when it has no place here.
  private func place(_ p: Point, from layer: Layer?) -> Point? {
    let inTarget = layer.map { Self.apply($0.planeToTarget, p) } ?? p
    guard let inTarget, let inverse = Self.inverse(planeToTarget) else { return nil }
    return Self.apply(inverse, inTarget)
  }

  /// `p` from this layer's space into `layer`'s; nil when it has no place there.
  private func place(_ p: Point, to layer: Layer?) -> Point? {
    guard let layer else { return Self.apply(planeToTarget, p) }
    return layer.place(p, from: self)
  }

  /// Whether `p`, in this layer's coordinate space, lies inside its bounds (CALayer.contains(_:)).
  public func contains(_ p: Point) -> Bool {
    p.x >= bounds.minX && p.x < bounds.maxX && p.y >= bounds.minY && p.y < bounds.maxY
  }

  /// The frontmost layer of this subtree containing `p`, a point in this layer's superlayer's
  /// coordinate space (CALayer.hitTest(_:)): hidden layers and what lies outside a layer's
  /// bounds are not hit; sublayers are tried front to back (by zPosition, then the last added
  /// first), and the layer itself last.
  public func hitTest(_ p: Point) -> Layer? {
    guard !isHidden, let local = superlayer.map({ place(p, from: $0) }) ?? place(p, from: nil), contains(local)
    else { return nil }
    let front = sublayerList.enumerated().sorted {
      ($0.element.zPosition, $0.offset) > ($1.element.zPosition, $1.offset)
    }
    for (_, sublayer) in front {
      if let hit = sublayer.hitTest(local) { return hit }
    }
    return self
  }

  /// This layer's plane (its bounds' coordinates) to the root's target space, as the builder
  /// composes it at scale 1, as a 3 × 3 homography (rows).
  var planeToTarget: [[Double]] { toTarget.planeHomography }

  /// The layer's 3D transform to the root's target space (at scale 1).
  var toTarget: Transform3D {
    localTransform.concatenating(
      superlayer.map { $0.sublayersParent($0.toTarget, flattening: $0.flattensSublayers) } ?? .flatten)
  }

  /// The anchor point in the bounds' coordinates.
  var anchorInBounds: Point {
    Point(x: bounds.origin.x + anchorOffset.x, y: bounds.origin.y + anchorOffset.y)
  }

  /// The layer's bounds to its superlayer's space:
  /// T(−anchor, −anchorPointZ) · transform · T(position, zPosition).
  /// With `isGeometryFlipped`, the bounds are first mirrored about their horizontal centre line.
  var localTransform: Transform3D {
    let anchor = anchorInBounds
    let placed = Transform3D(translationX: -anchor.x, y: -anchor.y, z: -anchorPointZ)
      .concatenating(transform)
      .concatenating(Transform3D(translationX: position.x, y: position.y, z: zPosition))
    guard isGeometryFlipped else { return placed }
    return Transform3D(scaleX: 1, y: -1)
      .concatenating(Transform3D(translationX: 0, y: bounds.minY + bounds.maxY))
      .concatenating(placed)
  }

  /// What the sublayers' local transforms are followed by, for this layer at `toTarget`: the
  /// sublayerTransform about the anchor, the flattening into this layer's plane (not for a
  /// TransformLayer's 3D space), then `toTarget`.
  func sublayersParent(_ toTarget: Transform3D, flattening: Bool = true) -> Transform3D {
    let t = aboutAnchor(sublayerTransform)
    return (flattening ? t.concatenating(.flatten) : t).concatenating(toTarget)
  }

  /// `t` applied about the anchor point: T(−anchor) · t · T(anchor).
  func aboutAnchor(_ t: Transform3D) -> Transform3D {
    let anchor = anchorInBounds
    return Transform3D(translationX: -anchor.x, y: -anchor.y)
      .concatenating(t)
      .concatenating(Transform3D(translationX: anchor.x, y: anchor.y))
  }

  /// H · (x, y, 1), divided by its w; nil behind the eye or at infinity.
  private static func apply(_ h: [[Double]], _ p: Point) -> Point? {
    let v = h.map { $0[0] * p.x + $0[1] * p.y + $0[2] }
    guard v[2] > 1e-12, v[2].isFinite else { return nil }
    return Point(x: v[0] / v[2], y: v[1] / v[2])
  }

  /// The inverse of a 3 × 3 matrix, nil when singular.
  private static func inverse(_ m: [[Double]]) -> [[Double]]? {
    let (a, b, c) = (m[0][0], m[0][1], m[0][2])
    let (d, e, f) = (m[1][0], m[1][1], m[1][2])
    let (g, h, i) = (m[2][0], m[2][1], m[2][2])
    let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    guard abs(det) > 1e-15, det.isFinite else { return nil }
    return [
      [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
      [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
      [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
    ]
  }

  private static func boundingBox(_ r: Rect, _ convert: (Point) -> Point?) -> Rect? {
    let corners = [
      Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY), Point(x: r.maxX, y: r.maxY),
      Point(x: r.minX, y: r.maxY),
    ].map(convert)
    guard let points = corners as? [Point] ?? nil else { return nil }
    let xs = points.map(\.x)
    let ys = points.map(\.y)
    return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
  }
}
