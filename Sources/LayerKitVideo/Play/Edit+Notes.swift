import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// What an edit says that a person should read before it renders.
extension Edit {
  /// The cuts that end past their clip's end, each in one line naming its place in the edit:
  /// they end at the clip's end instead (editly's rule, which LayerKit keeps and says).
  public func cutsPastTheEnd(sources: [String: MediaSource]) -> [String] {
    var notes: [String] = []
    for (c, clip) in clips.enumerated() {
      for (l, layer) in clip.layers.enumerated() {
        guard case .video(let v) = layer, let to = v.cutTo, case .clip(let info)? = sources[v.path],
          to > info.duration + 0.5 / max(info.frameRate, 1)
        else { continue }
        notes.append(
          "clips[\(c)].layers[\(l)].cutTo: \(v.path) is \(Limits.format(info.duration)) s long; the cut ends at its "
            + "end, not at \(Limits.format(to)) s")
      }
    }
    return notes
  }
}
