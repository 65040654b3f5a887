import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

extension Edit {
  /// A point's origin word as a fraction: left/top 0, center 0.5, right/bottom 1.
  static func origin(_ word: String?, across: Bool, at: String) throws -> Double {
    switch word {
    case nil: return 0
    case "center": return 0.5
    case "left" where across, "top" where !across: return 0
    case "right" where across, "bottom" where !across: return 1
    default:
      throw VideoError.invalidEdit(at: at, reason: across ? "left, center or right" : "top, center or bottom")
    }
  }

  /// Where a thing sits for a position: the point (fractions of the frame) and the thing's own
  /// point laid on it (fractions of its size). A named position keeps `margin` (a fraction of
  /// the frame's shorter side, in pixels of a `width`×`height` frame) from the edges.
  static func anchor(
    _ position: Position, margin: Double, width: Double, height: Double, at: String
  ) throws -> (x: Double, y: Double, originX: Double, originY: Double) {
    switch position {
    case .point(let p):
      guard p.x.isFinite, p.y.isFinite, abs(p.x) <= 10, abs(p.y) <= 10 else {
        throw VideoError.invalidEdit(at: at, reason: "x and y are fractions of the frame (0 to 1)")
      }
      return (
        p.x, p.y, try origin(p.originX, across: true, at: at + ".originX"),
        try origin(p.originY, across: false, at: at + ".originY")
      )
    case .named(let name):
      let a: (Double, Double)
      if name == "lower-third" {
        a = (0.5, 0.72)
        return (a.0, a.1, 0.5, 0.5)
      }
      guard let p = ImageOverlay.Position(rawValue: name) else {
        throw VideoError.invalidEdit(at: at, reason: "'\(name)': one of editly's nine positions, or {x, y}")
      }
      let (ax, ay) = p.anchor
      let m = margin * min(width, height)
      return ((m + (width - 2 * m) * ax) / width, (m + (height - 2 * m) * ay) / height, ax, ay)
    }
  }

  /// A layer's span in its clip, checked: from `start` (0) to `stop` (the clip's end).
  static func span(_ start: Double?, _ stop: Double?, at: String) throws -> (Double, Double?) {
    let from = try seconds(start, at: at + ".start") ?? 0
    let to = try seconds(stop, at: at + ".stop")
    if let to, to <= from { throw VideoError.invalidEdit(at: at + ".stop", reason: "it must come after start") }
    return (from, to)
  }

  /// A video or image layer's box, fractions of the frame: x, y, width, height.
  static func box(_ l: Placement, at: String) throws -> Rect {
    let (width, height, left, top, originX, originY) = (l.width, l.height, l.left, l.top, l.originX, l.originY)
    let (w, h) = (width ?? 1, height ?? 1)
    for (value, name) in [(w, "width"), (h, "height")] where !(value.isFinite && value > 0 && value <= 10) {
      throw VideoError.invalidEdit(at: "\(at).\(name)", reason: "a fraction of the frame above 0")
    }
    let (l, t) = (left ?? 0, top ?? 0)
    guard l.isFinite, t.isFinite, abs(l) <= 10, abs(t) <= 10 else {
      throw VideoError.invalidEdit(at: at + ".left", reason: "left and top are fractions of the frame")
    }
    let ox = try origin(originX, across: true, at: at + ".originX")
    let oy = try origin(originY, across: false, at: at + ".originY")
    return Rect(x: l - w * ox, y: t - h * oy, width: w, height: h)
  }

  /// Whether a layer is a picture over the whole frame for the whole clip: the item's picture
  /// when it comes first (a video or image unplaced, or still colours).
  static func isWholePicture(_ layer: Layer) -> Bool {
    switch layer {
    case .video(let v): return v.placement.fillsTheClip
    case .image(let i): return i.placement.fillsTheClip
    case .colors(let c): return c.kind != .rainbow && c.start == nil && c.stop == nil
    default: return false
    }
  }

  /// The index of a clip's picture layer: its first drawn layer when that is a whole picture.
  static func pictureIndex(_ clip: Clip) -> Int? {
    guard let first = clip.layers.firstIndex(where: { !$0.isSound }) else { return nil }
    return isWholePicture(clip.layers[first]) ? first : nil
  }
}
