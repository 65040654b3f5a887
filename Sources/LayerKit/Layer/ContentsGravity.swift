/// How a layer's contents image is placed in its bounds (`contentsGravity`).
///
/// Directions are visual, in the iOS convention this package uses (y grows down): `.top` puts the
/// image against the top edge of the bounds.
public enum ContentsGravity: String, CaseIterable, Sendable {
  /// Stretch to fill the bounds (the default).
  case resize
  /// Scale to fit inside the bounds, keeping the aspect ratio, centred.
  case resizeAspect
  /// Scale to cover the bounds, keeping the aspect ratio, centred.
  case resizeAspectFill
  case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight

  /// The rectangle, in the layer's bounds space, that the (contentsRect part of the) image fills.
  /// - Parameters:
  ///   - bounds: the layer's bounds.
  ///   - imageSize: the natural size of the contents, in points.
  public func rect(in bounds: Rect, imageSize: Size) -> Rect {
    let (bw, bh) = (bounds.size.width, bounds.size.height)
    let (iw, ih) = (imageSize.width, imageSize.height)
    let (x0, y0) = (bounds.origin.x, bounds.origin.y)
    switch self {
    case .resize:
      return bounds
    case .resizeAspect, .resizeAspectFill:
      guard iw > 0, ih > 0 else { return bounds }
      let sx = bw / iw
      let sy = bh / ih
      let s = self == .resizeAspect ? min(sx, sy) : max(sx, sy)
      let w = iw * s
      let h = ih * s
      return Rect(x: x0 + (bw - w) / 2, y: y0 + (bh - h) / 2, width: w, height: h)
    default:
      // Natural size; horizontal then vertical placement.
      let fx: Double =
        switch self {
        case .left, .topLeft, .bottomLeft: 0
        case .right, .topRight, .bottomRight: 1
        default: 0.5
        }
      let fy: Double =
        switch self {
        case .top, .topLeft, .topRight: 0
        case .bottom, .bottomLeft, .bottomRight: 1
        default: 0.5
        }
      return Rect(x: x0 + (bw - iw) * fx, y: y0 + (bh - ih) * fy, width: iw, height: ih)
    }
  }
}
