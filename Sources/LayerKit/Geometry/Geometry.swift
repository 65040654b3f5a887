import Foundation

// Geometry in Core Animation's terms, with the iOS convention: origin at the top left, y grows
// down, one point is one pixel unless a render scale says otherwise.
//
// LayerKit's geometry is Core Graphics' own: `Point`, `Size` and `Rect` are Foundation's
// `CGPoint`, `CGSize` and `CGRect`, so ported code writes `layer.frame = CGRect(…)` as it always
// did. Their numbers are `CGFloat` (a Double on every 64-bit platform); Swift converts between
// CGFloat and Double implicitly, so LayerKit's own Double arithmetic reads them directly. The
// RenderList narrows to Float once, where the backends need it.

/// A point in a layer's coordinate space (CGPoint).
public typealias Point = CGPoint
/// A width and a height (CGSize).
public typealias Size = CGSize
/// A rectangle: an origin and a size (CGRect). A negative size is allowed in the value but
/// rejected where a layer needs a real extent.
public typealias Rect = CGRect

extension CGPoint {
  public var isFinite: Bool { x.isFinite && y.isFinite }
}

extension CGSize {
  public var isFinite: Bool { width.isFinite && height.isFinite }
}

extension CGRect {
  /// The unit rectangle, the default `contentsRect`.
  public static let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
  public var isFinite: Bool { origin.isFinite && size.isFinite }
}
