// Layout as CALayer has it: a layer marked as needing layout — by `setNeedsLayout()`, a change of
// its bounds' size, a sublayer added or removed — runs `layoutSublayers()` before it is next
// presented, superlayers before their sublayers, so a subclass (or a delegate's
// `layoutSublayers(of:)`) places its sublayers for its current size. Layout runs with implicit
// actions off: where the sublayers go is part of the frame being drawn, not an animation of it
// (Core Animation would animate the changes of a layer already on screen; wrap them in an
// animation to have one).

extension Layer {
  /// CALayer.setNeedsLayout(): lays the sublayers out again before the next presentation.
  public func setNeedsLayout() { layoutPending = true }

  /// CALayer.needsLayout().
  public func needsLayout() -> Bool { layoutPending }

  /// CALayer.layoutIfNeeded(): lays out now where marked, this layer then its sublayers.
  public func layoutIfNeeded() {
    if layoutPending { runLayout() }
    for sub in sublayerList { sub.layoutIfNeeded() }
  }

  /// Runs `layoutSublayers()` once, with implicit actions off.
  func runLayout() {
    layoutPending = false
    Transaction.begin()
    Transaction.setDisableActions(true)
    layoutSublayers()
    Transaction.commit()
  }
}
