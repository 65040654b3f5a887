import Foundation
import LayerKit
import LayerKitOutput
import LayerKitTimeline

/// The sound of a smart render, copied where the edit leaves it alone (issue 39): where one
/// clip's sound is heard alone, at its own level and speed, outside any fade, its AAC packets
/// are copied into the output; only the rest — the crossfades, silence, the start and the end,
/// with a margin of packets on each side — is mixed and encoded (`SmartSound+Splice.swift` does
/// it). Pure arithmetic over the timeline and the sources' packets.
///
/// The output's packets are slots of 1024 samples: slot s holds samples (s − 1)·1024 … s·1024 of
/// the sound as it plays, slot 0 the encoder's delay that an edit list cuts. A clip's packets
/// fall on slots only where its sound is placed a whole number of packets from the output's
/// grid; so each clip's sound is moved to the nearest such place (`Placed.shift`, at most 512
/// samples: 10.7 ms at 48 kHz), in the copied and the encoded stretches alike, so the two meet
/// sample for sample. The stretch encoded before a copied run is mixed from two packets before
/// its first slot and encoded with them (then dropped), and the one after from two packets
/// after: the packets that overlap a seam (AAC's frames overlap by half) are coded from the same
/// sound on both sides.
public struct SmartSound: Sendable, Equatable {
  /// A clip item's sound in the mix the encoded stretches are cut from: its source from sample
  /// `from` on, `length` samples, at output sample `at`, faded and at its level as in the whole
  /// mix (`levels`: `AudioMix.clipLevels`, as `AudioMix.make` has them).
  struct Placed: Sendable, Equatable {
    var item: Int
    /// Index into `sources`.
    var source: Int
    var from: Int
    var length: Int
    var at: Int
    var levels: [String]
    /// Samples the sound is moved from where the video puts it.
    var shift: Int
  }

  /// A run of the output's slots.
  enum Piece: Sendable, Equatable {
    /// Source `source`'s packets `packets`, in slots `slots`.
    case copy(source: Int, packets: Range<Int>, slots: Range<Int>)
    /// The mix's samples `input` encoded, the first `skip` packets dropped (the encoder's delay
    /// and the margin), then one packet a slot of `slots`; the last piece keeps every packet
    /// after the skipped ones.
    case encode(slots: Range<Int>, input: Range<Int>, skip: Int)

    var slots: Range<Int> {
      switch self {
      case .copy(_, _, let slots), .encode(let slots, _, _): slots
      }
    }
  }

  var sources: [SourceSound]
  var placed: [Placed]
  var pieces: [Piece]
  var sampleRate: Int
  var layout: String
  var bitRate: Int
  /// The video's length in samples.
  var totalSamples: Int

  static let frame = SourceSound.frameSamples
  /// Packets each side of a seam coded from the same sound on both sides.
  static let margin = 2
  /// The shortest run of packets worth copying (its seams cost an encoder run).
  static let shortestRun = 8

  /// Packets copied, of the whole sound's.
  var copiedPackets: Int {
    pieces.reduce(0) { n, p in if case .copy(_, let packets, _) = p { n + packets.count } else { n } }
  }

  /// Whether a smart render of `timeline` copies its sound, and if so the plan: its clips' sound
  /// read (`SourceSound`) from their files as the video's decision probed them, then `make`.
  /// - Parameters:
  ///   - whole: the render's sound is the whole video's (the whole render, or an MP4 shard's
  ///     first part); a range carries only its own stretch of the mix.
  ///   - editly: the sound is mixed by editly's rules (`AudioMix.editly`).
  /// - Returns: the plan, or why the whole sound is encoded.
  /// - Throws: `ProcessError` when ffprobe cannot read a clip.
  static func decide(
    _ timeline: Timeline, tracks: [AudioMix.Track], levels: AudioMix.Levels, clipAudio: Bool, editly: Bool,
    whole: Bool, files: [String: SourceFile]
  ) throws -> Result<SmartSound, Refusal> {
    // What makes the sound change everywhere, so that nothing of it can be copied.
    let everywhere: [(Bool, String)] = [
      (editly, "an editly edit's sound is mixed by editly's rules"),
      (!whole, "a range of the video carries its own stretch of the mix"),
      (!tracks.isEmpty, "music or a voice plays under the video"),
      (levels.loudness != nil, "a loudness target is met over the whole mix"),
      (levels.normalize != nil, "the whole mix is evened out (audioNorm)"),
      (levels.outputVolume != 1, "a gain is set over the whole mix"),
      (!clipAudio, "the clips' own sound is left out"),
    ]
    if let (_, reason) = everywhere.first(where: { $0.0 }) { return .failure(Refusal(reason)) }
    var paths: [Int: String] = [:]
    for (i, item) in timeline.items.enumerated() {
      if case .clip(let info) = item.source, info.hasAudio { paths[i] = info.path }
    }
    // Each file once, files side by side.
    let known = files
    let files = Set(paths.values).sorted()
    let probed = Locked<[String: Result<Result<SourceSound, Refusal>, Error>]>([:])
    DispatchQueue.concurrentPerform(iterations: files.count) { k in
      let result = Result { try SourceSound.make(try known[files[k]] ?? SourceFile.probe(files[k])) }
      probed.withLock { $0[files[k]] = result }
    }
    var sounds: [Int: Result<SourceSound, Refusal>] = [:]
    for file in files {
      let sound = try probed.current[file]!.get()
      for (i, path) in paths where path == file { sounds[i] = sound }
    }
    return make(timeline, sounds: sounds, clipVolume: levels.clipVolume)
  }

  /// The plan for `timeline`'s clips' own sound at `levels` (tracks, loudness, evening out and a
  /// last gain are not copied: the caller refuses them), each clip item's sound known
  /// (`sounds[i]`, or why it cannot be copied).
  /// - Returns: the plan, or why the whole sound is encoded.
  static func make(
    _ timeline: Timeline, sounds: [Int: Result<SourceSound, Refusal>], clipVolume: Double
  ) -> Result<SmartSound, Refusal> {
    // Every clip's sound is in the mix the encoded stretches are cut from, so each must be one
    // the copied packets can sit beside.
    var usable: [(Int, SourceSound)] = []
    for i in sounds.keys.sorted() {
      switch sounds[i]! {
      case .success(let sound): usable.append((i, sound))
      case .failure(let refusal): return .failure(refusal)
      }
      // The encoded stretches' mix places each sound as it plays, neither sped up nor looped.
      let item = timeline.items[i]
      if item.speed != 1 || item.loopLength != nil {
        let name = (timeline.items[i].source.path as NSString).lastPathComponent
        return .failure(Refusal("\(name)'s sound plays at another speed or loops"))
      }
    }
    guard let first = usable.first?.1 else { return .failure(Refusal("no clip has sound")) }
    for (_, s) in usable where s.sampleRate != first.sampleRate || s.layout != first.layout {
      return .failure(
        Refusal(
          "the clips' sound differs (\(first.sampleRate) Hz \(first.layout), \(s.sampleRate) Hz \(s.layout)): "
            + "one stream cannot hold both"))
    }
    let rate = Double(first.sampleRate)
    let n = frame
    let total = Int((timeline.duration * rate).rounded())
    var sources: [SourceSound] = []
    var sourceIndex: [String: Int] = [:]
    var placed: [Placed] = []
    // Each placed sound and, where it may be copied, the samples it is heard alone in.
    var alone: [Int: (lo: Int, hi: Int)] = [:]
    for (i, sound) in usable {
      let item = timeline.items[i]
      let start = Int((timeline.starts[i] * rate).rounded())
      let from = Int((item.inPoint * rate).rounded())
      // The shift that puts packet starts on the output's grid: start − from + p₀ + shift ≡ 0.
      let r = ((start - from + sound.firstTime) % n + n) % n
      let shift = r == 0 ? 0 : (r <= n / 2 ? -r : n - r)
      let length = Int((item.duration * rate).rounded())
      // A sound moved before the video's start loses what falls before it.
      let cut = max(0, -(start + shift))
      let (fadeIn, fadeOut) = timeline.soundFades(ofItem: i)
      if sourceIndex[sound.path] == nil {
        sourceIndex[sound.path] = sources.count
        sources.append(sound)
      }
      let volume = clipVolume * item.volume
      placed.append(
        Placed(
          item: i, source: sourceIndex[sound.path]!, from: from + cut, length: length - cut, at: start + shift + cut,
          levels: AudioMix.clipLevels(timeline, item: i, volume: volume, cut: Double(cut) / rate), shift: shift))
      // At its own level (its speed and loop were refused above).
      if volume == 1 {
        alone[placed.count - 1] = (
          start + shift + Int((fadeIn * rate).rounded()),
          start + shift + Int(((item.duration - fadeOut) * rate).rounded())
        )
      }
    }
    // Where another sound plays, the clip is not alone.
    for (p, window) in alone {
      var (lo, hi) = window
      for (o, other) in placed.enumerated() where o != p {
        let (a, b) = (other.at, other.at + other.length)
        if a <= lo, b > lo { lo = b }
        if a < hi, b >= hi { hi = a }
        if a > lo, b < hi { hi = a }
      }
      alone[p] = (lo, min(hi, total))
    }
    var copies: [Piece] = []
    for (p, window) in alone.sorted(by: { $0.key < $1.key }) {
      let sound = placed[p]
      let source = sources[sound.source]
      // Slot s holds samples (s − 1)·n …; the first slot starts `margin` packets in, the last
      // ends `margin` packets before the window's end.
      var first = (window.lo + n - 1).floorDiv(n) + margin + 1
      var last = window.hi.floorDiv(n) - margin
      // Its source packet: output sample m is source sample m − at + from. Not the source's
      // first packet (its delay) nor its last (padded).
      func packet(_ slot: Int) -> Int { ((slot - 1) * n - sound.at + sound.from - source.firstTime).floorDiv(n) }
      while first <= last, packet(first) < 1 { first += 1 }
      while last >= first, packet(last) > source.sizes.count - 2 { last -= 1 }
      guard last - first + 1 >= shortestRun else { continue }
      copies.append(
        .copy(source: sound.source, packets: packet(first)..<packet(last) + 1, slots: first..<last + 1))
    }
    guard !copies.isEmpty else {
      return .failure(
        Refusal("no clip's sound plays alone, at its own level and speed, for a stretch long enough to copy"))
    }
    copies.sort { $0.slots.lowerBound < $1.slots.lowerBound }
    var pieces: [Piece] = []
    var next = 0
    for copy in copies {
      pieces.append(encoded(next..<copy.slots.lowerBound, total: total))
      pieces.append(copy)
      next = copy.slots.upperBound
    }
    pieces.append(encoded(next..<next, total: total, last: true))
    // The whole mix's rate (192 kb/s) at least: below it ffmpeg's encoder smears a tone's onset
    // (0.1 of full scale at 128 kb/s mono, 0.005 at 192), more where the source's own rate is higher.
    let bitRate = max(192_000, ((usable.compactMap { $0.1.bitRate }.max() ?? 0) + 31_999) / 32_000 * 32_000)
    return .success(
      SmartSound(
        sources: sources, placed: placed, pieces: pieces, sampleRate: first.sampleRate, layout: first.layout,
        bitRate: bitRate, totalSamples: total))
  }

  /// The encoded piece for `slots` (the last: from `slots.lowerBound` to the end): its input
  /// runs from `margin` packets before its first slot to `margin` after its last.
  private static func encoded(_ slots: Range<Int>, total: Int, last: Bool = false) -> Piece {
    let n = frame
    let start = slots.lowerBound == 0 ? 0 : (slots.lowerBound - 1 - margin) * n
    let end = last ? total : min(total, (slots.upperBound - 1 + margin) * n)
    return .encode(slots: slots, input: start..<end, skip: slots.lowerBound == 0 ? 0 : margin + 1)
  }

  /// For the summary line: the share of the sound copied.
  func summary() -> String {
    let all = max(1, (totalSamples + Self.frame - 1) / Self.frame + 1)
    let share = Int((100 * Double(copiedPackets) / Double(all)).rounded())
    let seconds = Double(copiedPackets * Self.frame) / Double(sampleRate)
    let moved = placed.map { abs($0.shift) }.max() ?? 0
    return String(format: "sound: copied %.1f s (%d %%) of the clips' packets", seconds, share)
      + (moved > 0
        ? String(format: ", each clip's sound within %.1f ms of its place", 1000 * Double(moved) / Double(sampleRate))
        : "")
  }
}

extension Int {
  /// Division rounding towards −∞.
  fileprivate func floorDiv(_ d: Int) -> Int { self >= 0 ? self / d : -((-self + d - 1) / d) }
}
