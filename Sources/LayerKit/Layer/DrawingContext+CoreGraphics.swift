import Foundation

// CGContext's other spellings, as layer code writes them in `draw(in:)`: colours by components,
// shadows, the current path as a CGPath.

extension DrawingContext {
  /// CGContext.setFillColor(red:green:blue:alpha:).
  public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    setFillColor(Color(red: red, green: green, blue: blue, alpha: alpha))
  }
  /// CGContext.setFillColor(gray:alpha:).
  public func setFillColor(gray: CGFloat, alpha: CGFloat) { setFillColor(Color(white: gray, alpha: alpha)) }
  /// CGContext.setStrokeColor(red:green:blue:alpha:).
  public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    setStrokeColor(Color(red: red, green: green, blue: blue, alpha: alpha))
  }
  /// CGContext.setStrokeColor(gray:alpha:).
  public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { setStrokeColor(Color(white: gray, alpha: alpha)) }

  /// CGContext.setShadow(offset:blur:color:): what is drawn afterwards (until the graphics state
  /// is restored) casts a shadow of `color`, moved by `offset` (in the layer's space: y down) and
  /// blurred as a layer's shadow of radius `blur / 2` is; nil or a clear colour turns it off.
  public func setShadow(offset: CGSize, blur: CGFloat, color: Color?) {
    guard let color, color.alpha > 0 else { return setShadowState(nil) }
    setShadowState((offset, max(0, Double(blur)), color))
  }

  /// CGContext.setShadow(offset:blur:): black at a third alpha, Core Graphics' default.
  public func setShadow(offset: CGSize, blur: CGFloat) {
    setShadow(offset: offset, blur: blur, color: Color(white: 0, alpha: 1.0 / 3))
  }

  /// CGContext.path: a copy of the current path (in the bounds' coordinates); nil when empty.
  public var path: CGPath? { currentPath.elements.isEmpty ? nil : CGPath(currentPath) }

  /// CGContext.boundingBoxOfPath: the current path's box; `CGRect.null` when empty.
  public var boundingBoxOfPath: CGRect { currentPath.elements.isEmpty ? .null : currentPath.boundingBoxOfPath }

  /// CGContext.currentPointOfPath: where the current path goes on from; (0, 0) when empty.
  public var currentPointOfPath: CGPoint { currentPath.currentPoint ?? .zero }
}
