import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// The sound of an edit file by editly's rules (docs/EDIT_FILES.md, "Sound"): what each clip
/// plays, and the weights of the mix over them. `AudioMix.editly` turns it into ffmpeg's
/// filters, the ones editly's audio.ts runs, in its order:
/// 1. each clip's sound: silence unless `keepSourceAudio`; else its heard layers — `audio`
///    layers fitted to the clip's length (`atempo`), videos at the speed their picture plays —
///    one used as it is, several mixed by `amix` with their `mixVolume`s as weights;
/// 2. the clips joined by `acrossfade` over each transition, with its curves (`tri` unsaid);
/// 3. only when there are tracks (`audioFilePath`, `audioTracks`, `detached-audio`): one `amix`
///    of the clips' sound (weight `clipsAudioVolume`) and the tracks (weights `mixVolume`), each
///    track padded so the weights hold to the end, then `audioNorm` and `outputVolume`.
public struct EditlySound: Sendable, Equatable {
  /// One sound a clip plays.
  public struct Part: Sendable, Equatable {
    /// The file and its cut (`cutTo` nil: to the clip's length, or the file's end).
    public var track: AudioMix.Track
    /// An `audio` layer, fitted to its clip's length (editly's SF); else a video's sound, played
    /// at `tempo`.
    public var fitsClip: Bool
    /// How fast a video's sound plays (its picture's speed).
    public var tempo: Double
    /// Its `mixVolume`: a weight among the clip's parts.
    public var weight: Double

    public init(track: AudioMix.Track, fitsClip: Bool, tempo: Double = 1, weight: Double = 1) {
      self.track = track
      self.fitsClip = fitsClip
      self.tempo = tempo
      self.weight = weight
    }
  }

  /// Each clip's heard parts, in the clip's layer order (empty: silence).
  public var clips: [[Part]]
  /// `clipsAudioVolume`: the clips' sound's weight in the mix with tracks.
  public var clipsWeight: Double
  /// The weight (`mixVolume`, `backgroundAudioVolume`) of each of the edit's tracks, in order.
  public var trackWeights: [Double]

  public init(clips: [[Part]], clipsWeight: Double = 1, trackWeights: [Double] = []) {
    self.clips = clips
    self.clipsWeight = clipsWeight
    self.trackWeights = trackWeights
  }

  /// The parts' files checked (they exist, have sound, are whole) with their lengths learnt.
  public func checked() throws -> EditlySound {
    var copy = self
    let flat = try AudioMix.checked(clips.flatMap { $0.map(\.track) })
    var k = 0
    for i in copy.clips.indices {
      for j in copy.clips[i].indices {
        copy.clips[i][j].track = flat[k]
        k += 1
      }
    }
    return copy
  }
}

extension AudioMix {
  /// The slowest and fastest editly fits a layer's sound to its clip (`atempo`'s range); a
  /// layer outside is left unheard, as editly leaves it.
  static let editlyTempos = 0.5...100.0

  /// The mix an edit file makes by editly's rules (`EditlySound`), over the timeline its
  /// pictures make; nil when nothing is heard (every clip silent and no track).
  /// - Parameters:
  ///   - tracks: the edit's tracks, checked, in the order of `sound.trackWeights`; their
  ///     `volume` is a gain on top of the weight (1 in an edit file).
  ///   - levels: the ducking and the loudness (LayerKit's), `normalize` (editly's `audioNorm`)
  ///     and `outputVolume`; editly applies the last two only where it mixes tracks.
  ///   - range: the stretch of the video (seconds) being rendered; the whole by default.
  public static func editly(
    _ sound: EditlySound, timeline: Timeline, tracks: [Track], levels: Levels, range: ClosedRange<Double>? = nil
  ) throws -> AudioMix? {
    let heard = sound.clips.indices.map { i in
      sound.clips[i].contains { editlyPart($0, clipLength: timeline.items[i].duration) != nil }
    }
    guard heard.contains(true) || !tracks.isEmpty else { return nil }
    var inputs: [[String]] = []
    var graph: [String] = []
    // 1. Each clip's sound, exactly its length (what plays short is padded with silence).
    for (i, parts) in sound.clips.enumerated() {
      let length = timeline.items[i].duration
      var labels: [String] = []
      var weights: [Double] = []
      for (k, part) in parts.enumerated() {
        guard let (input, chain) = editlyPart(part, clipLength: length) else { continue }
        inputs.append(input)
        graph.append("[\(inputs.count):a:0]" + chain.joined(separator: ",") + "[c\(i)p\(k)]")
        labels.append("[c\(i)p\(k)]")
        weights.append(part.weight)
      }
      let fit = "apad,atrim=duration=\(FFmpeg.seconds(length))"
      switch labels.count {
      case 0: graph.append("anullsrc=r=48000:cl=stereo,atrim=duration=\(FFmpeg.seconds(length))[c\(i)]")
      case 1: graph.append("\(labels[0])\(fit)[c\(i)]")
      default:
        graph.append(
          labels.joined() + "amix=inputs=\(labels.count):duration=longest:weights='\(weightList(weights))',"
            + "\(fit)[c\(i)]")
      }
    }
    // 2. Joined over the transitions.
    var joined = "[c0]"
    for (i, transition) in timeline.transitions.enumerated() {
      let overlap = max(0.0001, transition.duration)
      graph.append(
        "\(joined)[c\(i + 1)]acrossfade=d=\(FFmpeg.seconds(overlap)):c1=\(transition.audioOutCurve ?? "tri")"
          + ":c2=\(transition.audioInCurve ?? "tri")[j\(i + 1)]")
      joined = "[j\(i + 1)]"
    }
    let total = timeline.duration
    // The joined sound, the video's length (a cut's overlap of 0.1 ms eats 5 samples).
    graph.append("\(joined)apad,atrim=duration=\(FFmpeg.seconds(total))[clips]")
    var last = "[clips]"
    var finish: [String] = []
    // 3. The mix with tracks, only where there are tracks.
    if !tracks.isEmpty {
      var labels = ["[clips]"]
      var weights = [sound.clipsWeight]
      var under: [ClosedRange<Double>] = []
      for i in heard.indices where heard[i] {
        under.append(timeline.starts[i]...(timeline.starts[i] + timeline.items[i].duration))
      }
      if levels.duck > 0 {
        for track in tracks where track.voice { under += try voiceActivity(track, total: total) }
      }
      for (n, track) in tracks.enumerated() {
        guard let (input, chain) = trackChain(track, index: inputs.count + 1, total: total) else { continue }
        var full = chain
        if levels.duck > 0, !track.voice, !under.isEmpty {
          full.append(duckFilter(under, db: levels.duck, attack: levels.duckAttack, release: levels.duckRelease))
        }
        // Padded: an input that ended would drop out of amix, and the others' gains would rise.
        full.append("apad")
        inputs.append(input)
        graph.append(full.joined(separator: ",") + "[t\(n)]")
        labels.append("[t\(n)]")
        weights.append(sound.trackWeights.indices.contains(n) ? sound.trackWeights[n] : 1)
      }
      graph.append(
        labels.joined() + "amix=inputs=\(labels.count):duration=first:dropout_transition=0:weights='"
          + weightList(weights) + "'[mixed]")
      last = "[mixed]"
      if let n = levels.normalize { finish.append("dynaudnorm=g=\(n.gaussSize):m=\(n.maxGain)") }
    }
    if let target = levels.loudness {
      // LayerKit's loudness: the whole mix measured, then one gain (AudioMix.make's two passes).
      let whole = AudioMix(
        inputs: inputs,
        filterGraph: (graph + ["\(last)\((finish + ["anull"]).joined(separator: ","))[aout]"])
          .joined(separator: ";"), outputLabel: "aout")
      finish += try whole.loudnessFilters(target: target)
    }
    if !tracks.isEmpty, levels.outputVolume != 1 { finish.append("volume=\(levels.outputVolume)") }
    if let range {
      finish.append(
        "atrim=start=\(FFmpeg.seconds(range.lowerBound)):end=\(FFmpeg.seconds(range.upperBound))")
      finish.append("asetpts=PTS-STARTPTS")
    }
    graph.append("\(last)\((finish.isEmpty ? ["anull"] : finish).joined(separator: ","))[aout]")
    return AudioMix(inputs: inputs, filterGraph: graph.joined(separator: ";"), outputLabel: "aout")
  }

  /// amix's `weights`, space-separated.
  private static func weightList(_ weights: [Double]) -> String {
    weights.map { String(format: "%g", $0) }.joined(separator: " ")
  }

  /// A clip part's input arguments and filter chain (without the input label), cut and fitted
  /// as editly fits it to a clip of `clipLength` seconds; nil when editly leaves it unheard
  /// (a fit outside `editlyTempos`).
  static func editlyPart(_ part: EditlySound.Part, clipLength: Double) -> (input: [String], chain: [String])? {
    let track = part.track
    let from = track.cutFrom
    let played: Double
    let tempo: Double
    if part.fitsClip {
      // editly's audio layer: cutTo defaults to the clip's length from cutFrom, clamped to the
      // file; SF = clip / cut, so the cut lasts the clip exactly.
      let to = min(track.cutTo ?? from + clipLength, track.length ?? .infinity)
      played = to - from
      guard played > 0 else { return nil }
      tempo = played / clipLength
    } else {
      tempo = part.tempo
      played = clipLength * tempo
    }
    guard tempo.isFinite, editlyTempos.contains(tempo) || abs(tempo - 1) <= 0.01 else { return nil }
    var chain = ["aformat=sample_fmts=fltp:sample_rates=48000"]
    // editly fits only what is more than 1 % off.
    if abs(1 / tempo - 1) > 0.01 {
      // Restamped from the sample count: atempo stamps from its input's times, which a seek
      // leaves off zero (a mix then waits for samples that never come).
      chain += ["atempo=\(tempo)", "asetpts=N/SR/TB"]
    }
    return (["-ss", FFmpeg.seconds(from), "-t", FFmpeg.seconds(played), "-i", track.path], chain)
  }
}
