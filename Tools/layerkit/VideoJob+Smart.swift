import ArgumentParser
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

/// `--smart`: whether a render copies the stretches its clips are shown unchanged in.
extension VideoJob {
  enum SmartDecision {
    case render(SmartRender)
    /// Every frame is encoded; the reason is said when smart rendering was wanted and could not
    /// be had (nil: it was not asked for, or the output is not one it writes).
    case declined(String?)
  }

  /// A smart render of `timeline` into `plan`'s MP4 where `--smart` allows it and the clips can
  /// be copied; otherwise why not. `--smart on` refuses what it cannot do, naming the reason.
  func smartRender(_ timeline: Timeline, renderer: Renderer, plan: OutputPlan, range: Range<Int>) throws
    -> SmartDecision
  {
    let choice = options.smart
    guard choice != .off else { return .declined(nil) }
    // Only an MP4 is spliced; for any other output auto says nothing (it is not what was asked).
    guard plan.target.format == .mp4 || choice == .on else { return .declined(nil) }
    func decline(_ reason: String) throws -> SmartDecision {
      if choice == .on { throw ValidationError("--smart on: \(reason)") }
      return .declined(reason)
    }
    var clips: [Int: ClipInfo] = [:]
    for (i, item) in timeline.items.enumerated() {
      if case .clip(let info) = item.source { clips[i] = info }
    }
    guard !clips.isEmpty else { return choice == .on ? try decline("no clip is shown") : .declined(nil) }
    if options.run.contactSheet != nil { return try decline("a contact sheet is drawn from rendered frames") }
    if !plan.options.customArguments.isEmpty { return try decline("custom output arguments change the encoder") }
    // x264 is lossless only in its High 4:4:4 Predictive profile, which no copied stretch of a
    // yuv420p clip is in: its encoder for the stretches between would not open.
    if options.encoder.crf == 0 {
      return try decline("--crf 0 is lossless H.264 (High 4:4:4 Predictive), a profile the copied packets are not in")
    }
    guard case .file = plan.target.kind else { return try decline("a stream or a device is written as it is encoded") }
    var streams: [String: SourceStream] = [:]
    for info in clips.values where streams[info.path] == nil {
      streams[info.path] = try SourceStream.probe(info.path)
    }
    let ordered = clips.keys.sorted().map { streams[clips[$0]!.path]! }
    // Without --codec, the clips' own: HEVC clips make an HEVC output.
    let encoder = options.encoder.codec ?? SmartPlan.encoder(for: ordered[0].codec)
    if let reason = SmartPlan.declines(
      ordered, format: plan.target.format, encoder: encoder, pixelFormat: options.encoder.pixFmt,
      width: timeline.width, height: timeline.height, rate: timeline.rate)
    {
      return try decline(reason)
    }
    var scanned: [String: SourcePackets] = [:]
    var packets: [Int: SourcePackets] = [:]
    var unusable: [String] = []
    for (i, info) in clips.sorted(by: { $0.key < $1.key }) {
      if scanned[info.path] == nil {
        scanned[info.path] = try SourcePackets.scan(streams[info.path]!, frameCount: info.frameCount)
      }
      let p = scanned[info.path]!
      if let why = p.unusable {
        unusable.append("\((info.path as NSString).lastPathComponent): \(why)")
      } else {
        packets[i] = p
      }
    }
    var smart = SmartPlan.make(timeline, keyframes: packets.mapValues(\.keyframes), frames: range)
    // Only packets that decode cleanly are copied: a damaged clip's frames are drawn from what
    // its decoder conceals, and encoded.
    if smart.copiedFrames > 0 {
      var faults: [String: String?] = [:]
      for (i, p) in packets {
        if faults[p.path] == nil { faults[p.path] = try SourcePackets.decodeFault(p.path) }
        if let fault = faults[p.path] ?? nil {
          packets[i] = nil
          unusable.append("\((p.path as NSString).lastPathComponent) does not decode cleanly (\(fault))")
        }
      }
      if faults.values.contains(where: { $0 != nil }) {
        smart = SmartPlan.make(timeline, keyframes: packets.mapValues(\.keyframes), frames: range)
      }
    }
    guard smart.copiedFrames > 0 else {
      return try decline(
        unusable.first ?? "no whole GOP of a clip is shown unchanged (a transition, title, overlay, move or "
          + "speed touches every one, or the cuts fall between keyframes)")
    }
    var stretchPlan = plan
    stretchPlan.options.pixelFormat = stretchPlan.options.pixelFormat ?? ordered[0].pixelFormat
    return .render(
      SmartRender(
        timeline: timeline, renderer: renderer, plan: stretchPlan, smart: smart, packets: packets, streams: ordered))
  }
}
