import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// The parts of an edit over the whole video, played: overlays, subtitles, the frame size and
/// rate, the audio tracks.
extension Edit {
  func playOverlays(_ sources: [String: MediaSource]) throws -> [ImageOverlay] {
    try (overlays ?? []).enumerated().map { i, o in
      let at = "overlays[\(i)]"
      var position: ImageOverlay.Position?
      var point: SIMD4<Double>?
      switch o.position {
      case .named(let name)?:
        guard let p = ImageOverlay.Position(rawValue: name) else {
          throw VideoError.invalidEdit(
            at: at + ".position", reason: "'\(name)': one of editly's nine positions, or {x, y}")
        }
        position = p
      case .point?:
        let a = try Self.anchor(o.position!, margin: 0, width: 1, height: 1, at: at + ".position")
        point = [a.x, a.y, a.originX, a.originY]
      case nil: break
      }
      for (value, name, range) in [
        (o.width, "width", 0.001...1.0), (o.height, "height", 0.001...1.0), (o.margin, "margin", 0...0.5),
        (o.opacity, "opacity", 0...1),
      ] {
        if let value, !(value.isFinite && range.contains(value)) {
          throw VideoError.invalidEdit(at: "\(at).\(name)", reason: "from \(range.lowerBound) to \(range.upperBound)")
        }
      }
      let start = try Self.seconds(o.start, at: at + ".start") ?? 0
      let stop = try Self.seconds(o.stop, at: at + ".stop")
      if let stop, stop <= start { throw VideoError.invalidEdit(at: at + ".stop", reason: "must come after start") }
      let cutFrom = try Self.seconds(o.cutFrom, at: at + ".cutFrom") ?? 0
      var overlay: ImageOverlay
      switch sources[o.path] {
      case .clip(let info):
        guard cutFrom < info.duration else {
          throw VideoError.invalidEdit(
            at: at + ".cutFrom", reason: "\(o.path) is \(Limits.format(info.duration)) s long; the cut starts after it")
        }
        overlay = try ImageOverlay.clip(
          info, clipStart: cutFrom, position: position ?? .bottomRight, width: o.width ?? 0.3,
          margin: o.margin ?? 0.03, opacity: o.opacity ?? 1, start: start, end: stop)
      case .image(let still):
        if o.cutFrom != nil { throw VideoError.invalidEdit(at: at + ".cutFrom", reason: "\(o.path) is a still") }
        overlay = ImageOverlay(
          image: try still.load(), position: position ?? .topRight, width: o.width ?? 0.15, margin: o.margin ?? 0.03,
          opacity: o.opacity ?? 1, start: start, end: stop)
      case nil:
        overlay = ImageOverlay(
          image: try ImageFile.read(URL(fileURLWithPath: o.path)), position: position ?? .topRight,
          width: o.width ?? 0.15, margin: o.margin ?? 0.03, opacity: o.opacity ?? 1, start: start, end: stop)
      }
      if let height = o.height {
        overlay.height = height
        if o.width == nil { overlay.width = 0 }
      }
      overlay.point = point
      if let mode = o.resizeMode { overlay.gravity = try Self.fit(mode, at: at + ".resizeMode").gravity }
      return overlay
    }
  }

  func playSubtitles() throws -> Subtitles? {
    guard let subtitles else { return nil }
    var style = TextStyle.subtitle
    if let font = subtitles.fontFamily { style.font = font }
    if let size = subtitles.fontSize {
      guard size.isFinite, size > 0, size <= 0.5 else {
        throw VideoError.invalidEdit(at: "subtitles.fontSize", reason: "a fraction of the height in (0, 0.5]")
      }
      style.size = size
    }
    if let color = subtitles.textColor { style.color = try Self.color(color, at: "subtitles.textColor") }
    if let box = subtitles.box { style.box = box == "none" ? nil : try Self.color(box, at: "subtitles.box") }
    return Subtitles(cues: try SubtitleFile.read(URL(fileURLWithPath: subtitles.path)), style: style)
  }

  /// The frame size and rate the edit gives, checked: both sides or neither, within the limits.
  func playSize() throws -> (width: Int?, height: Int?, fps: Double?) {
    if (width == nil) != (height == nil) {
      throw VideoError.invalidEdit(at: width == nil ? "width" : "height", reason: "give width and height, or neither")
    }
    if let width, let height {
      guard (1...LayerKit.Image.maxDimension).contains(width), (1...LayerKit.Image.maxDimension).contains(height) else {
        throw VideoError.invalidEdit(at: "width", reason: "sides from 1 to \(LayerKit.Image.maxDimension) pixels")
      }
    }
    if let fps, !(fps.isFinite && Limits.framesPerSecond.contains(fps)) {
      throw VideoError.invalidEdit(
        at: "fps",
        reason:
          "from \(Limits.format(Limits.framesPerSecond.lowerBound)) to \(Limits.format(Limits.framesPerSecond.upperBound))"
      )
    }
    return (width, height, fps)
  }

  func playTracks() throws -> [AudioMix.Track] {
    try (audioTracks ?? []).enumerated().map { i, t in
      let at = "audioTracks[\(i)]"
      var track = AudioMix.Track(path: t.path)
      track.volume = try Self.gain(t.mixVolume, at: at + ".mixVolume")
      track.start = try Self.seconds(t.start, at: at + ".start") ?? 0
      track.cutFrom = try Self.seconds(t.cutFrom, at: at + ".cutFrom") ?? 0
      track.cutTo = try Self.seconds(t.cutTo, at: at + ".cutTo")
      if let to = track.cutTo, to <= track.cutFrom {
        throw VideoError.invalidEdit(at: at + ".cutTo", reason: "the cut must end after it starts")
      }
      track.loop = t.loop ?? false
      track.fadeIn = try Self.seconds(t.fadeIn, at: at + ".fadeIn") ?? 0
      track.fadeOut = try Self.seconds(t.fadeOut, at: at + ".fadeOut") ?? 0
      track.voice = t.voice ?? false
      return track
    }
  }
}
