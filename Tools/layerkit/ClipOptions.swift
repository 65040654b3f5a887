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
  @Option(
    parsing: .unconditionalSingleValue,
    help:
      "Seconds a clip lasts in the video, its transitions included: its cut sped or slowed to fit (0.25× to 4×, as editly fits a clip to its duration); once for all clips or once per input."
  )
  var clipDuration: [Double] = []

  func validate() throws {
    for s in speed { try checkRange(s, "--speed", 0.25...4) }
    for d in clipDuration { try checkRange(d, "--clip-duration", 0.001...Limits.maxSeconds, unit: "seconds") }
    if !clipDuration.isEmpty && !speed.isEmpty {
      throw ValidationError("--clip-duration sets each clip's speed; give it or --speed, not both")
    }
    for c in cut where c.from != nil && c.to != nil && !(c.to! > c.from!) {
      throw ValidationError("--cut \(c.text): the end must come after the start")
    }
  }

  /// The duration each clip is fitted to (nil: none; stills never).
  func fittedDurations(for sources: [MediaSource]) throws -> [Double?] {
    guard !clipDuration.isEmpty else { return sources.map { _ in nil } }
    guard clipDuration.count == 1 || clipDuration.count == sources.count else {
      throw ValidationError(
        "give one --clip-duration for all inputs, or one per input (\(sources.count)), not \(clipDuration.count)")
    }
    return sources.enumerated().map { i, source in
      guard case .clip = source else { return nil }
      return clipDuration.count == 1 ? clipDuration[0] : clipDuration[i]
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
  /// The cuts that end past their clip's end, each in one line: they end at its end instead
  /// (editly's rule for an edit file's cutTo, said the same way).
  func cutsPastTheEnd(for sources: [MediaSource]) -> [String] {
    guard cut.count == 1 || cut.count == sources.count else { return [] }
    return sources.enumerated().compactMap { i, source in
      let c = cut.count == 1 ? cut[0] : cut[i]
      guard case .clip(let info) = source, let to = c.to, to > info.duration + 0.5 / max(info.frameRate, 1) else {
        return nil
      }
      return "--cut \(c.text): \(source.path) is \(Limits.format(info.duration)) s long; the cut ends at its end"
    }
  }

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

/// The sound of `slideshow` and `concat`: the tracks (`--audio`, `--voice`) placed, cut, looped
/// and at their volumes; the clips' own sound; ducking; loudness and a last gain.
struct MixOptions: ParsableArguments {
  @Option(
    parsing: .unconditionalSingleValue,
    help: "The clips' own sound, as a gain (1: as it is; 0: silent); once for all clips or once per input.")
  var clipVolume: [Double] = []
  @Option(
    parsing: .unconditionalSingleValue,
    help:
      "The volume of the --audio track it follows, as a gain (1: as it is); before the first --audio, every track's.")
  var audioVolume: [Double] = []
  @Option(
    parsing: .unconditionalSingleValue,
    help: "Seconds into the video the --audio track it follows starts (0); before the first --audio, every track's.")
  var audioStart: [Double] = []
  @Option(
    parsing: .unconditionalSingleValue,
    help: ArgumentHelp(
      "The part of the --audio track it follows played, FROM:TO as --cut takes; before the first --audio, every track's.",
      valueName: "from:to")
  )
  var audioCut: [CutRange] = []
  @Flag(
    help:
      "Play the --audio track it follows (or its --audio-cut) over and over to the end of the video; before the first --audio, every track."
  )
  var audioLoop = false
  @Option(parsing: .unconditional, help: "Seconds each --audio track fades in over (0).") var audioFadeIn: Double = 0
  @Option(
    help:
      "A voice-over laid under the video from --voice-start (repeatable); with --duck the --audio tracks drop while it speaks."
  )
  var voice: [String] = []
  @Option(
    parsing: .unconditionalSingleValue,
    help: "Seconds into the video the --voice it follows starts (0); before the first --voice, every voice's.")
  var voiceStart: [Double] = []
  @Option(
    parsing: .unconditional,
    help: "Ducking: dB the --audio tracks drop while a clip with sound or a --voice plays; 0: none.")
  var duck: Double = 0
  @Option(parsing: .unconditional, help: "Seconds the ducked tracks take to go down (before the sound starts).")
  var duckAttack: Double = 0.3
  @Option(parsing: .unconditional, help: "Seconds the ducked tracks take to come back (after the sound stops).")
  var duckRelease: Double = 0.3
  @Option(
    parsing: .unconditional,
    help:
      "Normalize the whole mix to this integrated loudness, LUFS (EBU R128; -14 for streaming, -23 for broadcast), measured first then applied as one gain."
  )
  var loudness: Double?
  @Option(parsing: .unconditional, help: "A last gain over the whole mix (after --loudness).") var volume: Double = 1

  func validate() throws {
    try checkNamed(voice, "--voice")
    try checkRange(loudness, "--loudness", -70 ... -5, unit: "LUFS")
    for v in clipVolume { try checkRange(v, "--clip-volume", 0...16) }
    try checkRange(volume, "--volume", 0...16)
    try checkRange(audioFadeIn, "--audio-fade-in", 0...Limits.maxSeconds, unit: "seconds")
    for v in audioVolume { try checkRange(v, "--audio-volume", 0...16) }
    for v in audioStart + voiceStart {
      try checkRange(v, "--audio-start/--voice-start", 0...Limits.maxSeconds, unit: "seconds")
    }
    try checkRange(duck, "--duck", 0...60, unit: "dB")
    try checkRange(duckAttack, "--duck-attack", 0...10, unit: "seconds")
    try checkRange(duckRelease, "--duck-release", 0...10, unit: "seconds")
    for c in audioCut where c.from != nil && c.to != nil && !(c.to! > c.from!) {
      throw ValidationError("--audio-cut \(c.text): the end must come after the start")
    }
  }

  /// Refuses what would be ignored without a word: a track's setting with no track to set.
  func check(music: [String]) throws {
    for (name, count) in [
      ("--audio-volume", audioVolume.count), ("--audio-start", audioStart.count), ("--audio-cut", audioCut.count),
    ]
    where count > 0 {
      guard !music.isEmpty else { throw ValidationError("\(name) is for --audio, and none is given") }
    }
    if audioLoop && music.isEmpty { throw ValidationError("--audio-loop is for --audio, and none is given") }
    if audioFadeIn > 0 && music.isEmpty { throw ValidationError("--audio-fade-in is for --audio, and none is given") }
    if voiceStart.count > 0 && voice.isEmpty {
      throw ValidationError("--voice-start is for --voice, and none is given")
    }
    if duck > 0 && music.isEmpty { throw ValidationError("--duck lowers the --audio tracks, and none is given") }
  }

  /// Each value of a track's option, given to the tracks it is for, by where it stands on the
  /// command line: a track's options follow it (`--audio music.m4a --audio-loop --audio sting.wav
  /// --audio-start 12` loops the music and starts the sting at 12 s); given before the first
  /// track, an option is for every track; given once per track after the last one, the values
  /// go to the tracks in order. Returns one value (or nil) per track.
  /// - Throws: when one track is given the option twice.
  static func perTrack<T>(
    _ values: [T], option: String, track: String, tracks: Int, arguments: [String]
  ) throws -> [T?] {
    var result = [T?](repeating: nil, count: tracks)
    guard !values.isEmpty, tracks > 0 else { return result }
    let owners = owners(of: option, track: track, in: arguments)
    // A command line this reading does not follow (it should not happen): in order, one each.
    guard owners.count == values.count else {
      return (0..<tracks).map { values.count == 1 ? values[0] : $0 < values.count ? values[$0] : nil }
    }
    // One value per track, all after the last track: a list, in the tracks' order.
    if tracks > 1, values.count == tracks, owners.allSatisfy({ $0 == tracks - 1 }) { return values.map { $0 } }
    var given = [Bool](repeating: false, count: tracks)
    for (value, owner) in zip(values, owners) {
      guard let owner else {
        for i in 0..<tracks where !given[i] { result[i] = value }
        continue
      }
      guard owner < tracks else { continue }
      if given[owner] {
        throw ValidationError(
          "\(option) is given twice for the \(track) track \(owner + 1); a track's options follow it on the command "
            + "line (\(track) A \(option) X \(track) B \(option) Y), and given before the first \(track) they are "
            + "for every track")
      }
      given[owner] = true
      result[owner] = value
    }
    return result
  }

  /// For each time `option` is given in `arguments`, the number of the `track` option before it
  /// (nil: none yet); `--name=value` and `--name value` alike, up to a `--`.
  static func owners(of option: String, track: String, in arguments: [String]) -> [Int?] {
    var seen = -1
    var owners: [Int?] = []
    for argument in arguments {
      if argument == "--" { break }
      if argument == track || argument.hasPrefix(track + "=") {
        seen += 1
      } else if argument == option || argument.hasPrefix(option + "=") {
        owners.append(seen >= 0 ? seen : nil)
      }
    }
    return owners
  }

  /// The edit's audio: tracks, clips' sound, ducking, loudness, last gain.
  /// - Parameter arguments: the command line, for which track each track option follows.
  func apply(
    to edit: inout Edit, music: [String], fadeOut: Double, clipAudio: Bool,
    arguments: [String] = CommandLine.arguments
  ) throws {
    let n = music.count
    let volumes = try Self.perTrack(
      audioVolume, option: "--audio-volume", track: "--audio", tracks: n, arguments: arguments)
    let starts = try Self.perTrack(
      audioStart, option: "--audio-start", track: "--audio", tracks: n, arguments: arguments)
    let cuts = try Self.perTrack(audioCut, option: "--audio-cut", track: "--audio", tracks: n, arguments: arguments)
    let loopsGiven = Self.owners(of: "--audio-loop", track: "--audio", in: arguments).count
    let loops =
      !audioLoop
      ? [Bool?](repeating: nil, count: n)
      : loopsGiven == 0
        ? [Bool?](repeating: true, count: n)
        : try Self.perTrack(
          Array(repeating: true, count: loopsGiven), option: "--audio-loop", track: "--audio", tracks: n,
          arguments: arguments)
    let voiceStarts = try Self.perTrack(
      voiceStart, option: "--voice-start", track: "--voice", tracks: voice.count, arguments: arguments)
    var tracks = music.enumerated().map { i, path in
      var t = Edit.AudioTrack(path: path)
      t.mixVolume = volumes[i]
      t.start = starts[i]
      t.cutFrom = cuts[i]?.from
      t.cutTo = cuts[i]?.to
      t.loop = loops[i] == true ? true : nil
      t.fadeOut = fadeOut > 0 ? fadeOut : nil
      t.fadeIn = audioFadeIn > 0 ? audioFadeIn : nil
      return t
    }
    tracks += voice.enumerated().map { i, path in
      var t = Edit.AudioTrack(path: path)
      t.start = voiceStarts[i]
      t.voice = true
      return t
    }
    edit.audioTracks = tracks.isEmpty ? nil : tracks
    edit.keepSourceAudio = clipAudio
    // One for all is the clips' volume against the tracks; one per input is each clip's own.
    if clipVolume.count == 1 { edit.clipsAudioVolume = clipVolume[0] }
    if clipVolume.count > 1 {
      guard clipVolume.count == edit.clips.count else {
        throw ValidationError(
          "give one --clip-volume for all inputs, or one per input (\(edit.clips.count)), not \(clipVolume.count)")
      }
      for (i, volume) in clipVolume.enumerated() {
        edit.clips[i].layers = edit.clips[i].layers.map { layer in
          guard case .video(var v) = layer else { return layer }
          v.mixVolume = volume
          return .video(v)
        }
      }
    }
    edit.outputVolume = volume != 1 ? volume : nil
    if duck > 0 { edit.ducking = Edit.Ducking(amount: duck, attack: duckAttack, release: duckRelease) }
    edit.loudness = loudness
  }
}
