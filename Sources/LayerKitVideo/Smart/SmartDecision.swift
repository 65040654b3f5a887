import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// Whether a render copies the stretches its clips are shown unchanged in (`RenderSettings.smart`),
/// and if so what: made once, before the output is planned, from the timeline, the output and
/// its options.
struct SmartDecision {
  /// What a smart render copies and how it encodes the rest.
  struct Stretches {
    var plan: SmartPlan
    var packets: [Int: SourcePackets]
    var streams: [SourceStream]
    /// Each clip file as probed, by path: what the sound's decision reads too.
    var files: [String: SourceFile]
    /// The pixel format the encoded stretches take: the first copied clip's.
    var pixelFormat: String

    /// `timeline` with its copied clips' clean keyframes known, so that their decoders start the
    /// encoded stretches at one without decoding the GOP before.
    func marking(_ timeline: Timeline) -> Timeline {
      var timeline = timeline
      for (i, p) in packets {
        if case .clip(var info) = timeline.items[i].source {
          info.cleanKeyframes = Set(p.keyframes)
          timeline.items[i].source = .clip(info)
        }
      }
      return timeline
    }
  }

  /// nil: every frame is encoded.
  var stretch: Stretches?
  /// The frames the render makes: the ones asked for, or for a shard of a smart render, its
  /// range with the boundaries moved off copied runs (`SmartPlan.shard`), so that its parts copy
  /// what the whole render copies.
  var frames: Range<Int>
  /// Why every frame is encoded, when smart rendering was wanted and could not be had (nil: it
  /// was not asked for, or the output is not one it writes).
  var declined: String?

  /// - Throws: `RenderRequestError.smartDeclined` where smart rendering is required and the
  ///   reason it cannot be had; the errors of probing and scanning the clips.
  static func decide(
    _ timeline: Timeline, target: OutputTarget, options: EncodingOptions, settings: RenderSettings,
    frames range: Range<Int>
  ) throws -> SmartDecision {
    let choice = settings.smart
    guard choice != .off else { return SmartDecision(frames: range) }
    // Only an MP4 is spliced; for any other output auto says nothing (it is not what was asked).
    guard target.format == .mp4 || choice == .on else { return SmartDecision(frames: range) }
    func decline(_ reason: String) throws -> SmartDecision {
      if choice == .on { throw RenderRequestError.smartDeclined(reason) }
      return SmartDecision(frames: range, declined: reason)
    }
    var clips: [Int: ClipInfo] = [:]
    for (i, item) in timeline.items.enumerated() {
      if case .clip(let info) = item.source { clips[i] = info }
    }
    guard !clips.isEmpty else {
      return choice == .on ? try decline("no clip is shown") : SmartDecision(frames: range)
    }
    if settings.contactSheetFrames > 0 { return try decline("a contact sheet is drawn from rendered frames") }
    if !options.customArguments.isEmpty { return try decline("custom output arguments change the encoder") }
    // x264 is lossless only in its High 4:4:4 Predictive profile, which no copied stretch of a
    // yuv420p clip is in: its encoder for the stretches between would not open.
    if options.crf == 0 {
      return try decline(
        "a CRF of 0 is lossless H.264 (High 4:4:4 Predictive), a profile the copied packets are not in")
    }
    guard case .file = target.kind else { return try decline("a stream or a device is written as it is encoded") }
    // Each file's streams and packets read by one ffprobe run, files side by side (each run
    // costs tens of milliseconds before it reads a byte).
    let paths = Set(clips.values.map(\.path)).sorted()
    let read = Locked<[String: Result<SourceFile, Error>]>([:])
    DispatchQueue.concurrentPerform(iterations: paths.count) { k in
      let file = Result { try SourceFile.probe(paths[k]) }
      read.withLock { $0[paths[k]] = file }
    }
    var files: [String: SourceFile] = [:]
    for path in paths { files[path] = try read.current[path]!.get() }
    let ordered = clips.keys.sorted().map { files[clips[$0]!.path]!.stream }
    // Without a codec named, the clips' own: HEVC clips make an HEVC output.
    let encoder = options.codec ?? SmartPlan.encoder(for: ordered[0].codec)
    if let reason = SmartPlan.declines(
      ordered, format: target.format, encoder: encoder, pixelFormat: options.pixelFormat,
      width: timeline.width, height: timeline.height, rate: timeline.rate)
    {
      return try decline(reason)
    }
    var scanned: [String: SourcePackets] = [:]
    var packets: [Int: SourcePackets] = [:]
    var unusable: [String] = []
    for (i, info) in clips.sorted(by: { $0.key < $1.key }) {
      if scanned[info.path] == nil {
        scanned[info.path] = SourcePackets.scan(files[info.path]!, frameCount: info.frameCount)
      }
      let p = scanned[info.path]!
      if let why = p.unusable {
        unusable.append("\((info.path as NSString).lastPathComponent): \(why)")
      } else {
        packets[i] = p
      }
    }
    // A shard's boundaries move off the whole render's copied runs; a shard of a render that
    // copies is written in the smart render's form even where it copies nothing itself, so that
    // its parts join by their packets (one codec form, one matrix).
    func plan(_ packets: [Int: SourcePackets]) -> (SmartPlan, Range<Int>, wholeCopies: Bool) {
      let (keys, ends) = (packets.mapValues(\.keyframes), packets.mapValues(\.ends))
      if case .shard(let index, let count) = settings.frames {
        let whole = SmartPlan.make(timeline, keyframes: keys, ends: ends)
        if let snapped = whole.shard(index, of: count, total: timeline.frameCount) {
          return (whole.restricted(to: snapped), snapped, whole.copiedFrames > 0)
        }
        let part = SmartPlan.make(timeline, keyframes: keys, ends: ends, frames: range)
        return (part, range, whole.copiedFrames > 0)
      }
      let made = SmartPlan.make(timeline, keyframes: keys, ends: ends, frames: range)
      return (made, range, made.copiedFrames > 0)
    }
    var (smart, frames, wholeCopies) = plan(packets)
    // Only packets that decode cleanly are copied: a damaged clip's frames are drawn from what
    // its decoder conceals, and encoded.
    if wholeCopies {
      // Each file decoded once, its sound with its pictures (the sound's packets may be copied
      // too), files side by side (a decode's start and its end leave a core idle).
      let checkedPaths = Set(packets.values.map(\.path)).sorted()
      let soundful = Set(files.values.filter { $0.sound != nil }.map(\.stream.path))
      let checked = Locked<[String: Result<String?, Error>]>([:])
      DispatchQueue.concurrentPerform(iterations: checkedPaths.count) { k in
        let path = checkedPaths[k]
        let streams: [DecodeVerdicts.Stream] = soundful.contains(path) ? [.video, .sound] : [.video]
        let fault = Result { try DecodeVerdicts.faults(path, streams: streams)[.video] ?? nil }
        checked.withLock { $0[path] = fault }
      }
      var faults: [String: String?] = [:]
      for path in checkedPaths { faults[path] = try checked.current[path]!.get() }
      // In the items' order, so that the summary names the same clip every time.
      for (i, p) in packets.sorted(by: { $0.key < $1.key }) {
        if let fault = faults[p.path] ?? nil {
          packets[i] = nil
          unusable.append("\((p.path as NSString).lastPathComponent) does not decode cleanly (\(fault))")
        }
      }
      if faults.values.contains(where: { $0 != nil }) { (smart, frames, wholeCopies) = plan(packets) }
    }
    guard wholeCopies else {
      return try decline(
        unusable.first ?? "no whole GOP of a clip is shown unchanged (a transition, title, overlay, move or "
          + "speed touches every one, or the cuts fall between keyframes)")
    }
    return SmartDecision(
      stretch: Stretches(
        plan: smart, packets: packets, streams: ordered, files: files, pixelFormat: ordered[0].pixelFormat),
      frames: frames, declined: nil)
  }
}
