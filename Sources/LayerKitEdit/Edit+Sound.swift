import Foundation
import LayerKit

extension Edit {
  /// Whether the edit has any sound: tracks, sound layers, or the clips' own.
  public var hasSound: Bool {
    !(audioTracks ?? []).isEmpty || keepSourceAudio == true
      || clips.contains { $0.layers.contains(where: \.isSound) }
  }

  /// The edit without its sound.
  public var withoutSound: Edit {
    var edit = self
    edit.audioTracks = nil
    edit.keepSourceAudio = false
    edit.ducking = nil
    edit.loudness = nil
    edit.audioNorm = nil
    for i in edit.clips.indices {
      edit.clips[i].layers.removeAll(where: \.isSound)
    }
    return edit
  }
}
