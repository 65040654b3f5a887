import Foundation
import LayerKit
import LayerKitMedia

/// The audio of a video, as ffmpeg inputs and a filter graph that the encoder runs: each clip's
/// sound placed at its item's start and cross-faded over the transitions at its ends, tracks
/// (music, voice) placed, cut, looped and ducked, and silence wherever nothing plays. LayerKit mixes nothing by
/// hand; ffmpeg's filters do.
public struct AudioMix: Sendable, Equatable {
  /// Argument lists, each ending in `-i FILE`, in order; they become ffmpeg inputs 1, 2, …
  public var inputs: [[String]]
  /// The filter graph (inputs referenced from 1), ending in `[outputLabel]`.
  public var filterGraph: String
  public var outputLabel: String

  public init(inputs: [[String]], filterGraph: String, outputLabel: String) {
    self.inputs = inputs
    self.filterGraph = filterGraph
    self.outputLabel = outputLabel
  }

  /// Checks that a music track exists, has sound, and holds all the data its index names
  /// (a file cut after its header would play short without a word), before anything is rendered.
  /// - Throws: `MediaError.fileNotFound`, or `VideoError.unreadableAudio` naming what it is: not
  ///   a regular file, text, not media, damaged or cut short, or without an audio stream.
  /// - Returns: the file's length in seconds (nil when its container does not say).
  @discardableResult
  public static func checkTrack(_ path: String) throws -> Double? {
    // A device or a FIFO would be read forever (/dev/zero never ends).
    if let kind = FileIO.irregularKind(path) {
      throw VideoError.unreadableAudio(path: path, reason: "\(kind), not a regular file")
    }
    guard FileIO.head(path, count: 1) != nil else { throw MediaError.fileNotFound(path: path) }
    if FileIO.looksLikeText(path) {
      throw VideoError.unreadableAudio(path: path, reason: "a text file, not a sound or a clip")
    }
    let probe = try FFmpeg.start(
      try FFmpeg.ffprobe(),
      [
        "-v", "error", "-select_streams", "a", "-show_entries", "stream=index:format=duration", "-of", "csv=p=0",
        "-i", path,
      ],
      stdin: false, stdout: .pipe)
    // One line per audio stream (its index), then the container's duration.
    let lines = String(decoding: probe.readAll(), as: UTF8.self).split(whereSeparator: \.isNewline)
    let found = lines.count > 1
    let status = probe.wait()
    if status != 0 {
      let detail = probe.errorTail(lines: 4)
      throw VideoError.unreadableAudio(
        path: path, reason: detail.isEmpty ? "ffprobe exit status \(status)" : FFmpeg.explain(detail, path: path))
    }
    if !found { throw VideoError.unreadableAudio(path: path, reason: "no audio stream to lay under the video") }
    // Every packet read (copied, not decoded: fast), any error fatal (-xerror): a file cut after
    // its index reads as "partial file" here.
    let demux = try FFmpeg.start(
      try FFmpeg.ffmpeg(),
      ["-nostdin", "-v", "error", "-xerror", "-i", path, "-map", "0:a:0", "-c", "copy", "-f", "null", "-"],
      stdin: false, stdout: .discard)
    if demux.wait() != 0 {
      let detail = demux.errorTail(lines: 4).lowercased()
      let cut = ["partial file", "corrupt input packet", "end of file"].contains(where: detail.contains)
      throw VideoError.unreadableAudio(
        path: path,
        reason: cut
          ? "truncated or damaged: its data ends before its index says it does"
          : "damaged: ffmpeg could not read its packets")
    }
    return lines.last.flatMap { Double($0) }.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
  }

  /// Each track checked (`checkTrack`: it exists, has sound, is whole) with its length learnt,
  /// each file probed once however many tracks lay it, before anything is rendered.
  /// - Throws: what `checkTrack` throws, and `VideoError.unreadableAudio` for a cut that starts
  ///   at or after the file's end (silence without a word).
  public static func checked(_ tracks: [Track]) throws -> [Track] {
    var lengths: [String: Double?] = [:]
    return try tracks.map { track in
      var track = track
      if lengths[track.path] == nil { lengths[track.path] = try checkTrack(track.path) }
      track.length = lengths[track.path] ?? nil
      if let length = track.length, track.cutFrom >= length {
        throw VideoError.unreadableAudio(
          path: track.path,
          reason:
            "it is \(Limits.format(length)) s long; the cut starts at \(Limits.format(track.cutFrom)) s, after its end")
      }
      return track
    }
  }

  /// The audio of one file, as it is.
  public static func track(_ path: String) -> AudioMix {
    AudioMix(inputs: [["-i", path]], filterGraph: "[1:a:0]anull[aout]", outputLabel: "aout")
  }

  /// A sound laid under a timeline: a music bed, a voice-over, an effect.
  public struct Track: Sendable, Equatable {
    public var path: String
    /// Seconds into the video it starts.
    public var start: Double = 0
    /// The part of the file played: from `cutFrom` to `cutTo` (nil: its end).
    public var cutFrom: Double = 0
    public var cutTo: Double?
    /// The file's length in seconds, when known (`checkTrack`): where a fade-out of a track
    /// that ends before the video goes, and the loop of a cut to its end.
    public var length: Double?
    /// The cut played over and over to the end of the video.
    public var loop = false
    /// A gain (1: as it is).
    public var volume: Double = 1
    public var fadeIn: Double = 0
    public var fadeOut: Double = 0
    /// A voice-over: the other tracks duck under it (with `Levels.duck`), never it.
    public var voice = false

    public init(path: String) { self.path = path }

    /// Seconds of the file the cut holds, when known.
    var cutLength: Double? { (cutTo ?? length).map { $0 - cutFrom } }
  }

  /// How loud the parts of a timeline's mix are: the clips' own sound as a gain (1: as it is),
  /// how far the tracks that are not voices drop, in dB, while a clip with sound or a voice
  /// plays (ducking: editly's and Remotion's users ask for it), easing down over `duckAttack`
  /// seconds before and back over `duckRelease` after; the loudness the whole is brought to, and
  /// a last gain.
  public struct Levels: Sendable, Equatable {
    public var clipVolume: Double
    /// dB below their level the ducked tracks are (0: not ducked).
    public var duck: Double
    public var duckAttack: Double
    public var duckRelease: Double
    /// The whole mix's integrated loudness, LUFS (EBU R128), or nil to leave it as it is:
    /// measured over the whole video, then applied as one gain (ffmpeg's two-pass `loudnorm`),
    /// so every shard of a render gets the same.
    public var loudness: Double?
    /// A gain over the whole mix, after the loudness.
    public var outputVolume: Double
    /// editly's `audioNorm`: the whole mix's level evened out over time (ffmpeg's `dynaudnorm`,
    /// frames of 500 ms smoothed over `gaussSize` of them, gain at most `maxGain`), before the
    /// loudness and the last gain.
    public var normalize: Normalize?

    public struct Normalize: Sendable, Equatable {
      public var gaussSize: Int
      public var maxGain: Double

      public init(gaussSize: Int = 5, maxGain: Double = 30) {
        self.gaussSize = gaussSize
        self.maxGain = maxGain
      }
    }

    public init(
      clipVolume: Double = 1, duck: Double = 0, duckAttack: Double = 0.3, duckRelease: Double = 0.3,
      loudness: Double? = nil, outputVolume: Double = 1
    ) {
      self.clipVolume = clipVolume
      self.duck = duck
      self.duckAttack = duckAttack
      self.duckRelease = duckRelease
      self.loudness = loudness
      self.outputVolume = outputVolume
    }
  }

  /// A track's input arguments and filter chain, placed in the video's time (nil when it
  /// starts after the video ends): cut, looped, trimmed to the video, faded, at its volume.
  package static func trackChain(_ track: Track, index: Int, total: Double) -> (input: [String], chain: [String])? {
    guard track.start < total else { return nil }
    let room = total - track.start
    var input = ["-i", track.path]
    var chain = ["[\(index):a:0]\(format)"]
    let wholeFile = track.cutFrom == 0 && track.cutTo == nil
    if track.loop && wholeFile {
      input = ["-stream_loop", "-1", "-i", track.path]
    } else if track.cutFrom > 0 || track.cutTo != nil {
      chain.append(
        "atrim=start=\(FFmpeg.seconds(track.cutFrom))" + (track.cutTo.map { ":end=\(FFmpeg.seconds($0))" } ?? ""))
      chain.append("asetpts=PTS-STARTPTS")
    }
    var plays = min(track.cutLength ?? room, room)
    if track.loop {
      if !wholeFile, let cut = track.cutLength, cut < room {
        let samples = Int((cut * 48000).rounded())
        chain += ["apad=whole_len=\(samples)", "aloop=loop=-1:size=\(samples)"]
      }
      plays = room
    }
    chain.append("atrim=duration=\(FFmpeg.seconds(plays))")
    if track.fadeIn > 0 { chain.append("afade=t=in:st=0:d=\(FFmpeg.seconds(min(track.fadeIn, plays)))") }
    if track.fadeOut > 0 {
      let fade = min(track.fadeOut, plays)
      chain.append("afade=t=out:st=\(FFmpeg.seconds(plays - fade)):d=\(FFmpeg.seconds(fade))")
    }
    if track.volume != 1 { chain.append("volume=\(track.volume)") }
    let delay = Int((track.start * 48000).rounded())
    if delay > 0 { chain.append("adelay=delays=\(delay)S:all=1") }
    return (input, chain)
  }

  /// Where a voice track speaks, in seconds of the video: its chain run through ffmpeg's
  /// `silencedetect` (below −35 dBFS for 0.25 s is a pause), the pauses' complement; stretches
  /// less than a ramp apart are one.
  package static func voiceActivity(_ track: Track, total: Double) throws -> [ClosedRange<Double>] {
    guard var (input, chain) = trackChain(track, index: 0, total: total) else { return [] }
    // The placement's delay is added below; silencedetect reads the track's own time.
    chain.removeAll { $0.hasPrefix("adelay") }
    let plays = total - track.start
    // Padded with silence to the video's end: a voice shorter than its room ends in a pause that
    // silencedetect sees, instead of a stream that stops mid-word and counts as speech to the end.
    chain.append("apad=whole_dur=\(FFmpeg.seconds(plays))")
    let process = try FFmpeg.start(
      try FFmpeg.ffmpeg(),
      ["-nostdin", "-hide_banner", "-v", "info"] + input
        + ["-filter_complex", (chain + ["silencedetect=n=-35dB:d=0.25"]).joined(separator: ",") + "[out]"]
        + ["-map", "[out]", "-f", "null", "-"], stdin: false, stdout: .discard)
    let status = process.wait()
    let text = process.errorTail(lines: 100_000)
    guard status == 0 else {
      throw VideoError.unreadableAudio(
        path: track.path, reason: "its pauses could not be found: " + FFmpeg.explainFailure(text))
    }
    var speech: [ClosedRange<Double>] = []
    var from: Double? = 0
    for line in text.split(whereSeparator: \.isNewline) {
      func value(after key: String) -> Double? {
        guard let r = line.range(of: key) else { return nil }
        return Double(line[r.upperBound...].prefix { !$0.isWhitespace && $0 != "|" })
      }
      if let start = value(after: "silence_start: ") {
        if let f = from, start > f { speech.append(f...start) }
        from = nil
      } else if let end = value(after: "silence_end: ") {
        from = end
      }
    }
    // A pause that runs to the end is closed there (silencedetect says so at the stream's end);
    // what is left after the last one, if anything, is speech.
    if let f = from, f < plays - 0.25 { speech.append(f...plays) }
    var merged: [ClosedRange<Double>] = []
    for r in speech {
      if let last = merged.last, r.lowerBound - last.upperBound < 0.6 {
        merged[merged.count - 1] = last.lowerBound...r.upperBound
      } else {
        merged.append(r)
      }
    }
    return merged.map { (track.start + $0.lowerBound)...(track.start + $0.upperBound) }
  }

  /// What loudnorm's first pass measures of this mix: its integrated loudness (LUFS) and true
  /// peak (dBTP).
  package struct Loudness {
    package var integrated: Double
    package var truePeak: Double
  }

  package func measureLoudness(target: Double) throws -> Loudness {
    let graph = filterGraph + ";[\(outputLabel)]loudnorm=I=\(target):TP=-1.5:LRA=11:print_format=json[measured]"
    let process = try FFmpeg.start(
      try FFmpeg.ffmpeg(),
      // Input 0 stands in for the encoder's video pipe: the graph numbers its inputs from 1.
      ["-nostdin", "-hide_banner", "-v", "info", "-f", "lavfi", "-t", "0.1", "-i", "anullsrc"] + inputs.flatMap { $0 }
        + ["-filter_complex", graph, "-map", "[measured]", "-f", "null", "-"], stdin: false, stdout: .discard)
    let status = process.wait()
    let text = process.errorTail(lines: 40)
    func value(_ key: String) -> Double? {
      guard let r = text.range(of: "\"\(key)\" : \"") else { return nil }
      let rest = text[r.upperBound...]
      return rest.firstIndex(of: "\"").flatMap { Double(rest[..<$0]) }
    }
    guard status == 0 else {
      throw ProcessError.programFailed(program: "ffmpeg", status: status, detail: text)
    }
    // Silence measures as -inf: there is nothing to bring to a loudness.
    guard let i = value("input_i"), let tp = value("input_tp"), i.isFinite, tp.isFinite else {
      throw VideoError.invalidEdit(
        at: "loudness",
        reason: "the mix is silent, so it has no loudness to bring to \(String(format: "%g", target)) LUFS; "
          + "leave the loudness out, or give the video sound")
    }
    return Loudness(integrated: i, truePeak: tp)
  }

  /// ffmpeg's `volume` filter with a gain that is `db` dB down inside each of `ranges` (seconds
  /// of the video) and 1 outside, easing linearly down over `attack` seconds before each and back
  /// up over `release` after:
  /// gain(t) = 1 − (1 − g) · max_i(min(clip((t − a_i + A) / A), clip((b_i + R − t) / R))).
  package static func duckFilter(_ ranges: [ClosedRange<Double>], db: Double, attack: Double, release: Double) -> String
  {
    let g = pow(10, -db / 20)
    let (a, r) = (max(attack, 0.001), max(release, 0.001))
    // Times may be negative here (a ramp before the video starts): not FFmpeg.seconds's clamp.
    func s(_ v: Double) -> String { String(format: "%.6f", v) }
    let terms = ranges.map { range in
      let down = "clip((t-\(s(range.lowerBound - a)))/\(s(a)),0,1)"
      let up = "clip((\(s(range.upperBound + r))-t)/\(s(r)),0,1)"
      return "min(\(down),\(up))"
    }
    let inside = terms.dropFirst().reduce(terms[0]) { "max(\($0),\($1))" }
    return "volume=eval=frame:volume='1-\(1 - g)*\(inside)'"
  }

  /// A clip's sound in a video that is not a timeline (a scene file's): from `start` seconds into
  /// the video, the clip's own length, or with `loop` over and over to the end.
  public struct PlacedSound: Sendable, Equatable {
    public var path: String
    public var start: Double
    public var loop: Bool
    /// The clip's length in seconds.
    public var length: Double

    public init(path: String, start: Double, loop: Bool, length: Double) {
      self.path = path
      self.start = start
      self.loop = loop
      self.length = length
    }
  }

  /// The sound of a video of `duration` seconds (a scene file's): clips' sounds placed at their
  /// times and tracks under everything, trimmed to the video, silence elsewhere; nil when there
  /// is nothing to hear.
  /// - Parameter range: the stretch of the video (seconds) that is being rendered; the whole
  ///   video by default.
  public static func placed(
    _ sounds: [PlacedSound], tracks: [Track] = [], duration: Double, range: ClosedRange<Double>? = nil
  ) -> AudioMix? {
    var (inputs, graph, labels): ([[String]], [String], [String]) = ([], [], [])
    for (i, sound) in sounds.enumerated() where sound.start < duration {
      let index = inputs.count + 1
      inputs.append((sound.loop ? ["-stream_loop", "-1"] : []) + ["-i", sound.path])
      let plays = sound.loop ? duration - max(sound.start, 0) : min(sound.length, duration - max(sound.start, 0))
      // A clip that started before the video: its sound from where the video comes in.
      var chain = ["[\(index):a:0]\(format)"]
      if sound.start < 0 { chain.append("atrim=start=\(FFmpeg.seconds(-sound.start)),asetpts=PTS-STARTPTS") }
      chain.append("atrim=duration=\(FFmpeg.seconds(plays))")
      let delay = Int((max(sound.start, 0) * 48000).rounded())
      if delay > 0 { chain.append("adelay=delays=\(delay)S:all=1") }
      graph.append(chain.joined(separator: ",") + "[p\(i)]")
      labels.append("[p\(i)]")
    }
    for (n, track) in tracks.enumerated() {
      guard let (input, chain) = trackChain(track, index: inputs.count + 1, total: duration) else { continue }
      inputs.append(input)
      graph.append(chain.joined(separator: ",") + "[t\(n)]")
      labels.append("[t\(n)]")
    }
    return mix(inputs, graph, labels, total: duration, range: range)
  }

  package static let format = "aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=stereo"

  /// The labelled streams mixed over silence the length of the video (or nil when there are
  /// none), cut to `range`.
  package static func mix(
    _ inputs: [[String]], _ graph: [String], _ labels: [String], total: Double, range: ClosedRange<Double>?,
    finish: String? = nil
  ) -> AudioMix? {
    var graph = graph
    guard !labels.isEmpty else { return nil }
    // Silence the length of the video first, so the mix lasts exactly as long as the pictures.
    graph.append("anullsrc=r=48000:cl=stereo,atrim=duration=\(FFmpeg.seconds(total))[silence]")
    var tail =
      "[silence]\(labels.joined())amix=inputs=\(labels.count + 1):duration=first:dropout_transition=0:normalize=0"
    // Over the whole mix, before a shard's stretch is cut from it.
    if let finish { tail += "," + finish }
    if let range {
      tail +=
        ",atrim=start=\(FFmpeg.seconds(range.lowerBound)):end=\(FFmpeg.seconds(range.upperBound)),asetpts=PTS-STARTPTS"
    }
    graph.append(tail + "[aout]")
    return AudioMix(inputs: inputs, filterGraph: graph.joined(separator: ";"), outputLabel: "aout")
  }
}
