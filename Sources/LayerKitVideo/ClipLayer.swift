import LayerKit

/// Something drawn over an item's picture, inside the item — so a transition carries it with
/// the picture, as editly draws every layer of a clip into the clip's frame: a title placed
/// anywhere, a subtitle, a news title, text sliding in, a picture placed and sized, colours.
/// A pure function of its time: frame k drawn alone, or on another shard, is the same frame.
public struct ClipLayer: Sendable {
  /// Seconds into the item it shows from (included) and to (excluded; nil: the item's end).
  public var start: Double
  public var stop: Double?
  /// The layer, `width`×`height` (the picture area), at `local` seconds after `start`, of
  /// `span` seconds it shows for.
  public var draw: @Sendable (_ local: Double, _ span: Double, _ width: Double, _ height: Double) throws -> Layer

  public init(
    start: Double = 0, stop: Double? = nil,
    draw: @escaping @Sendable (_ local: Double, _ span: Double, _ width: Double, _ height: Double) throws -> Layer
  ) {
    self.start = start
    self.stop = stop
    self.draw = draw
  }

  /// The layer at `local` seconds into an item of `duration` seconds, or nil outside its time.
  func layer(local: Double, itemDuration duration: Double, width: Double, height: Double) throws -> Layer? {
    let end = min(stop ?? duration, duration)
    guard local >= start - 1e-9, local < end else { return nil }
    return try draw(local - start, end - start, width, height)
  }
}
