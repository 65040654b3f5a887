import Foundation
import LayerKit

extension Edit {
  /// The edit with editly's layer defaults where a layer says nothing (docs/EDIT_FILES.md,
  /// "editly's defaults"), on a frame of `width × height`: an image zooms in by 0.1 over its
  /// clip; a title is white, centred, a tenth of the frame's smaller side high, with no box and
  /// no fade, growing from 1 to 1.2 (editly's `zoomDirection: 'in'`, `zoomAmount: 0.2`).
  /// `zoomDirection: null` in a file reads as "none" (no zoom).
  public func withEditlyDefaults(width: Int, height: Int) -> Edit {
    var edit = self
    let (w, h) = (Double(max(width, 1)), Double(max(height, 1)))
    for i in edit.clips.indices {
      edit.clips[i].layers = edit.clips[i].layers.map { layer in
        switch layer {
        case .image(var image):
          if image.zoomDirection == nil { image.zoomDirection = "in" }
          return .image(image)
        case .title(var t):
          if t.zoomDirection == nil { t.zoomDirection = "in" }
          if t.zoomAmount == nil { t.zoomAmount = 0.2 }
          if t.position == nil { t.position = .named("center") }
          // editly's font size: round(0.1 × min(w, h)) pixels; LayerKit's, a fraction of the height.
          if t.fontSize == nil { t.fontSize = (0.1 * min(w, h)).rounded() / h }
          if t.box == nil { t.box = "none" }
          if t.fade == nil { t.fade = 0 }
          return .title(t)
        default: return layer
        }
      }
    }
    return edit
  }
}
