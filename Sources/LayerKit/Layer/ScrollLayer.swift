import Foundation

/// A layer that shows part of content larger than its bounds (CAScrollLayer): scrolling moves
/// the bounds' origin, so the sublayers, laid out in the bounds' coordinates, move the other way.
/// It has no scrollers and takes no events, as Core Animation's has none; `masksToBounds` is
/// left as a layer's (off), so set it to show only what is scrolled into view.
open class ScrollLayer: Layer {
  /// CAScrollLayerScrollMode: the axes scrolling may move.
  public enum ScrollMode: String, CaseIterable, Sendable {
    case none, horizontally, vertically, both
  }

  /// Which axes `scroll(to:)` moves (Core Animation's default: both).
  open var scrollMode: ScrollMode = .both

  override func copyModelValues(from o: Layer) {
    super.copyModelValues(from: o)
    guard let s = o as? ScrollLayer else { return }
    scrollMode = s.scrollMode
  }

  /// CAScrollLayer.scroll(to:) with a point: the bounds' origin becomes `p` on the axes
  /// `scrollMode` allows.
  open func scroll(to p: CGPoint) {
    var origin = bounds.origin
    if scrollMode == .horizontally || scrollMode == .both { origin.x = p.x }
    if scrollMode == .vertically || scrollMode == .both { origin.y = p.y }
    bounds.origin = origin
  }

  /// CAScrollLayer.scroll(to:) with a rectangle: the least scroll that shows `r` (its top or
  /// left edge first where it is larger than the bounds).
  open func scroll(to r: CGRect) {
    func axis(_ low: Double, _ high: Double, shown: Double, size: Double) -> Double {
      if low < shown || high - low > size { return low }
      if high > shown + size { return high - size }
      return shown
    }
    scroll(
      to: CGPoint(
        x: axis(r.minX, r.maxX, shown: bounds.origin.x, size: bounds.width),
        y: axis(r.minY, r.maxY, shown: bounds.origin.y, size: bounds.height)))
  }
}

extension Layer {
  /// The closest ancestor scroll layer, the layer itself not counted.
  var enclosingScrollLayer: ScrollLayer? {
    var node = superlayer
    while let n = node {
      if let s = n as? ScrollLayer { return s }
      node = n.superlayer
    }
    return nil
  }

  /// CALayer.scroll(_:): the closest ancestor scroll layer scrolls so that `p`, in this layer's
  /// coordinates, lies at its origin. Nothing happens outside a scroll layer.
  public func scroll(_ p: CGPoint) {
    guard let s = enclosingScrollLayer else { return }
    s.scroll(to: convert(p, to: s))
  }

  /// CALayer.scrollRectToVisible(_:): the closest ancestor scroll layer scrolls so that `r`, in
  /// this layer's coordinates, is shown. Nothing happens outside a scroll layer.
  public func scrollRectToVisible(_ r: CGRect) {
    guard let s = enclosingScrollLayer else { return }
    s.scroll(to: convert(r, to: s))
  }

  /// CALayer.visibleRect: the part of the bounds the closest ancestor scroll layer shows, in
  /// this layer's coordinates (the whole bounds outside a scroll layer; `CGRect.null` when none
  /// of it is shown).
  public var visibleRect: CGRect {
    guard let s = enclosingScrollLayer else { return bounds }
    return bounds.intersection(s.convert(s.bounds, to: self))
  }
}

/// A layer whose drawing Core Animation makes tile by tile, at levels of detail, as it is
/// scrolled and zoomed (CATiledLayer). Offscreen a frame is drawn whole: `draw(in:)` is asked
/// once for the whole bounds (`boundingBoxOfClipPath` is the bounds), as any layer's; the tile
/// size and levels of detail are kept.
open class TiledLayer: Layer {
  /// CATiledLayer.fadeDuration(): how long a newly drawn tile fades in on screen. Offscreen
  /// every tile is there at once.
  open class func fadeDuration() -> CFTimeInterval { 0.25 }

  /// The size of a tile (Core Animation's default 256 × 256).
  open var tileSize = CGSize(width: 256, height: 256)
  /// How many levels of detail the drawing keeps (Core Animation's default 1).
  open var levelsOfDetail = 1
  /// How many of them are for magnification (Core Animation's default 0).
  open var levelsOfDetailBias = 0

  override func copyModelValues(from o: Layer) {
    super.copyModelValues(from: o)
    guard let t = o as? TiledLayer else { return }
    (tileSize, levelsOfDetail, levelsOfDetailBias) = (t.tileSize, t.levelsOfDetail, t.levelsOfDetailBias)
  }
}

/// CAScrollLayerScrollMode.
public typealias ScrollLayerScrollMode = ScrollLayer.ScrollMode
