import Foundation
import LayerKit
import LayerKitMedia
import LayerKitOutput

/// A timeline's sound: its clips' own where they play, and tracks under everything.
extension AudioMix {
  /// The mix for a timeline, or nil when there is nothing to hear.
  /// - Parameters:
  ///   - tracks: sounds laid under the video, each trimmed to it.
  ///   - clipAudio: whether the clips' own sound is heard.
  ///   - levels: the clips' volume, the ducking, the loudness and the last gain.
  ///   - range: the stretch of the video (seconds) that is being rendered; the whole video
  ///     by default.
  /// - Throws: `VideoError` when a measurement (a voice's pauses, the loudness: ffmpeg runs over
  ///   the sound) fails.
  public static func make(
    for timeline: Timeline, tracks: [Track] = [], clipAudio: Bool = true, levels: Levels = Levels(),
    range: ClosedRange<Double>? = nil
  ) throws -> AudioMix? {
    let total = timeline.duration
    var inputs: [[String]] = []
    var graph: [String] = []
    var labels: [String] = []
    // Where clips with sound play (whatever their volume): the tracks duck there.
    var under: [ClosedRange<Double>] = []
    if clipAudio {
      for (i, item) in timeline.items.enumerated() {
        guard case .clip(let info) = item.source, info.hasAudio else { continue }
        under.append(timeline.starts[i]...(timeline.starts[i] + item.duration))
        let index = inputs.count + 1
        var chain: [String]
        // The clip's own seconds the item plays, and atempo's steps for its speed (each 0.5…2,
        // as ffmpeg 5.1's atempo takes; pitch kept).
        let played = item.duration * item.speed
        var tempo: [String] = []
        var left = item.speed
        while left > 2 + 1e-9 { tempo.append("atempo=2"); left /= 2 }
        while left < 0.5 - 1e-9 { tempo.append("atempo=0.5"); left /= 0.5 }
        if abs(left - 1) > 1e-9 { tempo.append("atempo=\(left)") }
        // atempo (ffmpeg 5.1) stamps its output from its input's times, which a seek leaves
        // off zero: amix then waits for samples at times that never come, and the encoder
        // never ends (a hang at --speed 4). Restamped from the sample count, the chain is
        // contiguous from 0.
        if !tempo.isEmpty { tempo.append("asetpts=N/SR/TB") }
        if let loop = item.loopLength, loop > 0, loop < played {
          // The stretch from the in-point, over and over (aloop repeats a block of samples).
          inputs.append(["-i", info.path])
          let samples = Int((loop * 48000).rounded())
          chain =
            [
              "[\(index):a:0]\(format)",
              "atrim=start=\(FFmpeg.seconds(item.inPoint)):end=\(FFmpeg.seconds(item.inPoint + loop))",
              "asetpts=PTS-STARTPTS", "apad=whole_len=\(samples)", "aloop=loop=-1:size=\(samples)",
              "atrim=duration=\(FFmpeg.seconds(played))",
            ] + tempo + ["atrim=duration=\(FFmpeg.seconds(item.duration))"]
        } else {
          inputs.append(["-ss", FFmpeg.seconds(item.inPoint), "-t", FFmpeg.seconds(played), "-i", info.path])
          chain = ["[\(index):a:0]\(format)"] + tempo + ["apad", "atrim=duration=\(FFmpeg.seconds(item.duration))"]
        }
        chain += clipLevels(timeline, item: i, volume: levels.clipVolume * item.volume)
        let delay = Int((timeline.starts[i] * 48000).rounded())
        if delay > 0 { chain.append("adelay=delays=\(delay)S:all=1") }
        graph.append(chain.joined(separator: ",") + "[c\(i)]")
        labels.append("[c\(i)]")
      }
    }
    if levels.duck > 0 {
      for track in tracks where track.voice { under += try voiceActivity(track, total: total) }
    }
    for (n, track) in tracks.enumerated() {
      let index = inputs.count + 1
      guard let (input, chain) = trackChain(track, index: index, total: total) else { continue }
      var full = chain
      if levels.duck > 0, !track.voice, !under.isEmpty {
        full.append(duckFilter(under, db: levels.duck, attack: levels.duckAttack, release: levels.duckRelease))
      }
      inputs.append(input)
      graph.append(full.joined(separator: ",") + "[t\(n)]")
      labels.append("[t\(n)]")
    }
    let even = levels.normalize.map { "dynaudnorm=g=\($0.gaussSize):m=\($0.maxGain)" }
    let volume = levels.outputVolume != 1 ? "volume=\(levels.outputVolume)" : nil
    guard let target = levels.loudness else {
      let last = [even, volume].compactMap { $0 }
      return mix(
        inputs, graph, labels, total: total, range: range, finish: last.isEmpty ? nil : last.joined(separator: ","))
    }
    // Two passes: the whole mix measured (loudnorm's first pass), then one gain over all of it
    // that brings it to the target. loudnorm's own second pass falls back to its dynamic mode
    // whenever that gain would lift a peak over its ceiling, and its gain then wanders with the
    // music; here the gain stays one number, and only the peaks it would lift over −1.5 dBTP are
    // held down, by a limiter that is silent elsewhere.
    guard let whole = mix(inputs, graph, labels, total: total, range: nil, finish: even) else { return nil }
    let loud = try whole.loudnessFilters(target: target)
    let finish = ([even].compactMap { $0 } + loud + [volume].compactMap { $0 }).joined(separator: ",")
    return mix(inputs, graph, labels, total: total, range: range, finish: finish)
  }

  /// Clip item i's sound faded in over the transition before it and out over the one after
  /// (with their sound curves), at `volume`: the filters of its chain, whose time 0 is the
  /// item's start, or `cut` seconds into the item where the chain starts later.
  package static func clipLevels(_ timeline: Timeline, item i: Int, volume: Double, cut: Double = 0) -> [String] {
    let fades = timeline.soundFades(ofItem: i)
    var filters: [String] = []
    if fades.in > 0 {
      let curve = timeline.transitions[i - 1].audioInCurve.map { ":curve=\($0)" } ?? ""
      filters.append("afade=t=in:st=0:d=\(FFmpeg.seconds(fades.in))\(curve)")
    }
    if fades.out > 0 {
      let curve = timeline.transitions[i].audioOutCurve.map { ":curve=\($0)" } ?? ""
      let start = timeline.items[i].duration - fades.out - cut
      filters.append("afade=t=out:st=\(FFmpeg.seconds(max(0, start))):d=\(FFmpeg.seconds(fades.out))\(curve)")
    }
    if volume != 1 { filters.append("volume=\(volume)") }
    return filters
  }

  /// The true peak (dBTP) a mix brought to a loudness is held under.
  static let truePeakCeiling = -1.5

  /// The filters that bring this mix to `target` LUFS: its loudness measured, then one gain,
  /// and a limiter only where that gain would lift a peak over `truePeakCeiling`.
  package func loudnessFilters(target: Double) throws -> [String] {
    let measured = try measureLoudness(target: target)
    let gain = target - measured.integrated
    var loud = ["volume=\(String(format: "%.3f", gain))dB"]
    if measured.truePeak + gain > Self.truePeakCeiling {
      // alimiter holds sample peaks; a little under the ceiling stands in for the true peak.
      let limit = pow(10, (Self.truePeakCeiling - 0.5) / 20)
      loud.append("alimiter=limit=\(String(format: "%.5f", limit)):attack=5:release=50:level=0:asc=0")
    }
    return loud
  }
}
