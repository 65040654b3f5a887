import ArgumentParser
import Foundation
import LayerKit
import LayerKitVideo

/// What `slideshow` and `concat` take about the clips among their inputs: in and out points.
struct ClipOptions: ParsableArguments {
  @Option(
    parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "The part of a clip to use, FROM:TO in seconds or [hh:]mm:ss[.ms] (FROM..TO when the times have colons); "
        + "either end may be left out (5: or :10); once for all clips or once per input (: for a whole clip or a still).",
      valueName: "from:to"))
  var cut: [CutRange] = []
  @Option(
    parsing: .unconditionalSingleValue,
    help:
      "How fast clips play, 0.25 to 4 (2: twice as fast, sound kept in pitch); once for all clips or once per input.")
  var speed: [Double] = []

  func validate() throws {
    for s in speed { try checkRange(s, "--speed", 0.25...4) }
    for c in cut where c.from != nil && c.to != nil && !(c.to! > c.from!) {
      throw ValidationError("--cut \(c.text): the end must come after the start")
    }
  }

  /// The speed of each input: 1 for a still, else the one given for all or the input's own.
  func speeds(for sources: [MediaSource]) throws -> [Double] {
    guard !speed.isEmpty else { return sources.map { _ in 1 } }
    guard speed.count == 1 || speed.count == sources.count else {
      throw ValidationError("give one --speed for all inputs, or one per input (\(sources.count)), not \(speed.count)")
    }
    return sources.enumerated().map { i, source in
      guard case .clip = source else { return 1 }
      return speed.count == 1 ? speed[0] : speed[i]
    }
  }

  /// The in-point and the length of each input (nil for a still or a whole clip): from the cut
  /// that applies to it (the one given for all, or the input's own), within the clip.
  /// - Throws: a cut for a still, a cut that starts at or beyond the clip's end, or ends beyond it.
  func cuts(for sources: [MediaSource]) throws -> [(inPoint: Double, length: Double)?] {
    guard !cut.isEmpty else { return sources.map { _ in nil } }
    guard cut.count == 1 || cut.count == sources.count else {
      throw ValidationError("give one --cut for all inputs, or one per input (\(sources.count)), not \(cut.count)")
    }
    return try sources.enumerated().map { i, source in
      let c = cut.count == 1 ? cut[0] : cut[i]
      guard c.from != nil || c.to != nil else { return nil }
      guard case .clip(let info) = source else {
        if cut.count == 1 { return nil }  // one cut for all: the clips' alone
        throw ValidationError("--cut \(c.text): \(source.path) is a still; give ':' for it, and --hold for its time")
      }
      let from = c.from ?? 0
      let to = c.to ?? info.duration
      guard from < info.duration else {
        throw ValidationError(
          "--cut \(c.text): \(source.path) is \(Limits.format(info.duration)) s long; the cut starts at or after its end"
        )
      }
      guard to <= info.duration + 0.5 / info.frameRate else {
        throw ValidationError(
          "--cut \(c.text): \(source.path) is \(Limits.format(info.duration)) s long; the cut ends after it")
      }
      return (from, min(to, info.duration) - from)
    }
  }
}

/// `FROM:TO` (or `FROM..TO`): seconds or `[hh:]mm:ss[.ms]`, either end left out.
struct CutRange: ExpressibleByArgument {
  var text: String
  var from: Double?
  var to: Double?

  init?(argument: String) {
    text = argument
    let ends: [Substring]
    if argument.contains("..") {
      let parts = argument.components(separatedBy: "..")
      guard parts.count == 2 else { return nil }
      ends = parts.map { Substring($0) }
    } else {
      let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
      // With colons inside the times, FROM..TO says where one ends.
      guard parts.count == 2 else { return nil }
      ends = parts
    }
    func time(_ s: Substring) -> Double?? {
      if s.isEmpty { return .some(nil) }
      guard let t = CutRange.seconds(String(s)) else { return nil }
      return .some(t)
    }
    guard let f = time(ends[0]), let t = time(ends[1]) else { return nil }
    from = f
    to = t
  }

  /// Seconds from `ss[.ms]`, `mm:ss[.ms]` or `hh:mm:ss[.ms]` (ffmpeg's time duration syntax); nil
  /// for anything else, or a time beyond a day.
  static func seconds(_ s: String) -> Double? {
    let fields = s.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard (1...3).contains(fields.count) else { return nil }
    var total = 0.0
    for (i, field) in fields.enumerated() {
      let last = i == fields.count - 1
      guard let v = Double(field), v.isFinite, v >= 0, field.first?.isNumber == true else { return nil }
      // Minutes and seconds after the first field are below 60; only the last has a fraction.
      if i > 0 && v >= 60 { return nil }
      if !last && v != v.rounded() { return nil }
      total = total * 60 + v
    }
    return total <= Limits.maxSeconds ? total : nil
  }

  var defaultValueDescription: String { text }
}

/// How loud the clips' sound and the music are in `slideshow` and `concat`, and how far the music
/// drops under the clips' sound.
struct MixOptions: ParsableArguments {
  @Option(parsing: .unconditional, help: "The clips' own sound, as a gain (1: as it is; 0: silent).")
  var clipVolume: Double = 1
  @Option(parsing: .unconditional, help: "The --audio track's volume, as a gain (1: as it is).")
  var audioVolume: Double = 1
  @Option(
    parsing: .unconditional,
    help: "Ducking: dB the --audio track drops while a clip with sound plays (eased over 0.3 s either side); 0: none.")
  var duck: Double = 0
  @Option(
    parsing: .unconditional,
    help:
      "Normalize the whole mix to this integrated loudness, LUFS (EBU R128; -14 for streaming, -23 for broadcast), measured first then applied as one gain."
  )
  var loudness: Double?

  func validate() throws {
    try checkRange(loudness, "--loudness", -70 ... -5, unit: "LUFS")
    try checkRange(clipVolume, "--clip-volume", 0...16)
    try checkRange(audioVolume, "--audio-volume", 0...16)
    try checkRange(duck, "--duck", 0...60, unit: "dB")
  }

  /// Refuses a level for a music track that is not given (it would be ignored without a word).
  func check(music: String?) throws {
    guard music == nil else { return }
    if audioVolume != 1 { throw ValidationError("--audio-volume is for --audio, and none is given") }
    if duck > 0 { throw ValidationError("--duck lowers the --audio track, and none is given") }
  }

  var levels: AudioMix.Levels {
    AudioMix.Levels(clipVolume: clipVolume, musicVolume: audioVolume, duck: duck, loudness: loudness)
  }
}
