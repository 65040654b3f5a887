import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

extension Edit {
  /// The edit's sound by editly's rules (`EditlySound`): with `keepSourceAudio`, each clip's
  /// `audio` layers and the videos among its layers that start with it and run to its end (and
  /// have sound), each at the speed its picture plays; the weights of the clips' sound
  /// (`clipsAudioVolume`) and of `tracks` (`mixVolume`), each from 0 to 1000.
  /// - Parameter items: the clips as the timeline plays them (the picture's cut and speed).
  func editlySound(
    items: [TimelineItem], tracks: [AudioTrack], sources: [String: MediaSource]
  ) throws -> EditlySound {
    var clips: [[EditlySound.Part]] = []
    for (i, clip) in self.clips.enumerated() {
      var parts: [EditlySound.Part] = []
      let picture = Self.pictureIndex(clip)
      for (j, layer) in clip.layers.enumerated() where keepSourceAudio == true {
        let at = "clips[\(i)].layers[\(j)]"
        switch layer {
        case .audio(let a):
          var track = AudioMix.Track(path: a.path)
          track.cutFrom = try Self.seconds(a.cutFrom, at: at + ".cutFrom") ?? 0
          track.cutTo = try Self.seconds(a.cutTo, at: at + ".cutTo")
          if let to = track.cutTo, to <= track.cutFrom {
            throw VideoError.invalidEdit(at: at + ".cutTo", reason: "the cut must end after it starts")
          }
          parts.append(
            EditlySound.Part(track: track, fitsClip: true, weight: try Self.weight(a.mixVolume, at: at + ".mixVolume")))
        case .video(let v):
          // editly hears a video that starts with its clip and runs to its end.
          guard (v.start ?? 0) == 0, v.stop == nil, case .clip(let info)? = sources[v.path], info.hasAudio else {
            continue
          }
          var track = AudioMix.Track(path: v.path)
          var tempo = items[i].speed
          if j == picture {
            track.cutFrom = items[i].inPoint
          } else if let placed = try placedVideo(v, at: at, sources: sources, clipDuration: clip.duration).clip {
            track.cutFrom = placed.inPoint
            tempo = placed.speed
          }
          parts.append(
            EditlySound.Part(
              track: track, fitsClip: false, tempo: tempo, weight: try Self.weight(v.mixVolume, at: at + ".mixVolume")))
        case .image, .title, .detachedAudio, .imageOverlay, .colors, .text, .gl: break
        }
      }
      clips.append(parts)
    }
    return EditlySound(
      clips: clips, clipsWeight: try Self.weight(clipsAudioVolume, at: "clipsAudioVolume"),
      trackWeights: try tracks.enumerated().map { try Self.weight($1.mixVolume, at: "audioTracks[\($0)].mixVolume") })
  }

  /// An amix weight (editly's `mixVolume`, `clipsAudioVolume`): 1 unsaid, from 0 to 1000.
  static func weight(_ value: Double?, at: String) throws -> Double {
    guard let value else { return 1 }
    guard value.isFinite, (0...1000).contains(value) else {
      throw VideoError.invalidEdit(at: at, reason: "a weight from 0 to 1000, not \(value)")
    }
    return value
  }
}
