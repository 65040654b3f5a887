import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

#if canImport(Glibc)
  import Glibc
#endif

/// What runs a render and can be stopped from another thread: a `VideoPipeline`, or a
/// `SmartRender` around several.
public protocol RenderJob: AnyObject, Sendable {
  func run(progress: VideoPipeline.Progress?) throws -> VideoPipeline.Summary
  func cancel(signal: Int32)
  func cancel(_ error: Error)
}

extension VideoPipeline: RenderJob {}

/// Smart rendering (issue 26): a timeline written to MP4 with the stretches its edit leaves alone
/// copied from the clips' own packets, GOP by GOP, and only the rest rendered and encoded.
///
/// 1. The `.encode` stretches of the `SmartPlan` run one after another through one
///    `VideoPipeline` (`StretchSource`) into one encoder, encoded as the clips are
///    (`SmartPlan.stretchArguments`: codec, profile, level, pixel format, colour tags), an IDR
///    picture forced at each stretch's start; the copied stretches are cut and the sound encoded
///    by children alongside.
/// 2. Each stretch, copied or encoded, is restamped into its place (ffmpeg's `setts`): frame k's
///    presentation time is k frames, and every packet's decode time is its place in the whole
///    stream's decode order less the largest reordering of any stretch (`SourcePackets.reorder`),
///    so decode times rise by one frame a packet across every seam and never pass a presentation
///    time. Copied packets get their parameter sets in band (`h264_mp4toannexb`).
/// 3. One ffmpeg joins the stretches (the concat protocol over MPEG-TS), lays the whole audio
///    mix under them, encoded once, and writes the MP4 with an `avc3` / `hev1` sample entry (the
///    parameter sets in band, where the copied and encoded stretches' differ), faststart, under a
///    temporary name until its frames are counted.
public final class SmartRender: RenderJob, @unchecked Sendable {
  public let timeline: Timeline
  /// The output, decided before the render was made.
  public let plan: OutputPlan
  public let smart: SmartPlan
  private let renderer: Renderer
  private let packets: [Int: SourcePackets]
  /// The sound copied where the edit leaves it alone (nil: the whole mix encoded).
  public let sound: SmartSound?
  /// The clips' codec, which the encoded stretches take too.
  private let codec: String

  /// What `cancel` reaches: the first failure, the pipeline encoding now, the ffmpeg children.
  private struct Running {
    var failure: Error?
    var pipeline: VideoPipeline?
    var children: [ObjectIdentifier: ChildProcess] = [:]
  }
  private let running = Locked(Running())

  /// - Parameters:
  ///   - plan: the output: an MP4 file (`SmartPlan.declines` said yes), its stretches' encoding
  ///     decided (`EncodingOptions.smartStretches`).
  ///   - timeline: the timeline, its clips' clean keyframes known (`SmartDecision`).
  ///   - smart: which frames are copied, from `packets[item]`'s clip.
  ///   - sound: the plan of the sound's copied and encoded pieces (nil: the mix of
  ///     `plan.options.audio`, encoded whole).
  public init(
    timeline: Timeline, renderer: Renderer, plan: OutputPlan, smart: SmartPlan, packets: [Int: SourcePackets],
    sound: SmartSound? = nil
  ) {
    self.sound = sound
    self.timeline = timeline
    self.renderer = renderer
    self.plan = plan
    self.smart = smart
    self.packets = packets
    codec = plan.options.smartStretches?.codec ?? "h264"
  }

  public func cancel(signal: Int32) { cancel(VideoError.interrupted(signal: signal)) }

  public func cancel(_ error: Error) {
    let (pipeline, children) = running.withLock { r in
      if r.failure == nil { r.failure = error }
      return (r.pipeline, Array(r.children.values))
    }
    pipeline?.cancel(error)
    for child in children { child.stop(grace: 1) }
  }

  private func checkCancelled() throws {
    if let failure = running.current.failure { throw failure }
  }

  /// Renders the encoded stretches, restamps and joins every stretch with the sound, and makes
  /// the MP4 appear under its name.
  /// - Throws: the first failure (`VideoError`, a render's error), or `.interrupted`; nothing is
  ///   left under the target's name or beside it.
  public func run(progress: VideoPipeline.Progress? = nil) throws -> VideoPipeline.Summary {
    guard case .file(let target) = plan.target.kind else {
      throw VideoError.unwritableOutput(path: plan.target.displayPath, reason: "a smart render is written to a file")
    }
    let started = Date()
    let cpuAtStart = VideoPipeline.cpuSeconds()
    let folder = try Splice.makeFolder(beside: target)
    defer { Splice.removeFolder(folder) }
    let total = smart.frames.count
    let origin = smart.frames.lowerBound
    // Decode times trail presentation times by the largest reordering of any stretch: the
    // copied ones' as read, the encoded ones' at most their B-frames (checked once encoded).
    let delay = smart.segments.reduce(Self.stretchBFrames) { d, segment in
      guard case .copy(let item, _, let sourceFrames) = segment else { return d }
      return max(d, packets[item]!.reorder[sourceFrames].max() ?? 0)
    }
    // The sound and the copied stretches are written by children of their own while the
    // encoded stretches are rendered.
    let side = DispatchGroup()
    let sideFailure = Locked<Error?>(nil)
    var audioPath: Splice.Sound?
    if let audio = plan.options.audio {
      let path = "\(folder)/sound" + (sound == nil ? ".m4a" : ".aac")
      audioPath = sound.map { .adts(path, sampleRate: $0.sampleRate) } ?? .copy(path)
      side.enter()
      DispatchQueue.global().async { [self] in
        defer { side.leave() }
        do {
          if let sound {
            try sound.write(to: path, folder: folder, run: runChild)
          } else {
            try encodeSound(audio, to: path)
          }
        } catch {
          sideFailure.withLock { $0 = $0 ?? error }
          cancel(error)
        }
      }
    }
    let pieces = smart.segments.indices.map { "\(folder)/\($0).ts" }
    for path in pieces { EmergencyStop.add(temporary: path) }
    side.enter()
    DispatchQueue.global().async { [self] in
      defer { side.leave() }
      do {
        let cuts = smart.segments.enumerated().compactMap { n, segment -> Splice.Cut? in
          guard case .copy(let item, let frames, let sourceFrames) = segment,
            case .clip(let info) = timeline.items[item].source
          else { return nil }
          return Splice.Cut(
            path: info.path, from: sourceFrames.lowerBound, count: frames.count, at: frames.lowerBound - origin,
            piece: pieces[n])
        }
        try Splice.cut(cuts, codec: codec, rate: timeline.rate, delay: delay, run: runChild)
        progress?(min(total, copiedDone.add(cuts.reduce(0) { $0 + $1.count })), total)
      } catch {
        sideFailure.withLock { $0 = $0 ?? error }
        cancel(error)
      }
    }
    var stages = VideoPipeline.Stages()
    do {
      stages = try encodeStretches(folder: folder, delay: delay, pieces: pieces, progress: progress)
    } catch {
      cancel(error)
      side.wait()
      throw error
    }
    // The copies and the mux draw no frames: a beat every 2 s tells the caller's frame-time
    // watchdog the render is alive while ffmpeg copies large stretches.
    let beat = DispatchSource.makeTimerSource(queue: .global())
    beat.schedule(deadline: .now() + 2, repeating: 2)
    beat.setEventHandler { [copiedDone] in progress?(min(total, copiedDone.value), total) }
    beat.resume()
    defer { beat.cancel() }
    side.wait()
    if let error = sideFailure.current { throw error }
    try checkCancelled()
    let bytes = try Splice.mux(
      pieces, codec: codec, sound: audioPath, frames: total, part: plan.options.part,
      target: target, displayPath: plan.target.displayPath, run: runChild)
    stages.cpu = VideoPipeline.cpuSeconds() - cpuAtStart
    var summary = VideoPipeline.Summary(
      frames: total, seconds: Date().timeIntervalSince(started), outputBytes: bytes, stages: stages)
    summary.copiedFrames = smart.copiedFrames
    summary.copiedSoundPackets = sound?.copiedPackets
    return summary
  }

  /// B-frames the encoded stretches may have: their reordering is at most this.
  static let stretchBFrames = 3

  /// Frames done, copied and encoded, for the progress line (written from two threads).
  private let copiedDone = Counter()

  /// Every encoded stretch rendered by one pipeline into one file, each stretch starting on an
  /// IDR picture, then each cut out of it into its place.
  private func encodeStretches(folder: String, delay: Int, pieces: [String], progress: VideoPipeline.Progress?)
    throws -> VideoPipeline.Stages
  {
    let stretches = smart.segments.enumerated().compactMap { n, s -> (Int, Range<Int>)? in
      if case .encode(let frames) = s { (n, frames) } else { nil }
    }
    guard !stretches.isEmpty else { return VideoPipeline.Stages() }
    let path = "\(folder)/encoded.mp4"
    EmergencyStop.add(temporary: path)
    let source = StretchSource(timeline: timeline, renderer: renderer, stretches: stretches.map(\.1))
    let (starts, count) = (source.starts, source.frameCount)
    let pipeline = try VideoPipeline(
      source: source, width: timeline.width, height: timeline.height, rate: timeline.rate, frameCount: count,
      plan: plan.stretchPlan(path: path, keyframes: Array(starts.dropFirst())))
    running.withLock { $0.pipeline = pipeline }
    try checkCancelled()
    let summary = try pipeline.run { [copiedDone] sent, _ in
      progress?(min(self.smart.frames.count, copiedDone.value + sent), self.smart.frames.count)
    }
    running.withLock { $0.pipeline = nil }
    _ = copiedDone.add(count)
    let encoded = SourcePackets.scan(try SourceFile.probe(path), frameCount: count)
    if let why = encoded.unusable {
      throw ProcessError.programFailed(program: "ffmpeg", status: 0, detail: "the encoded stretches: \(why)")
    }
    let reorder = encoded.reorder.max() ?? 0
    guard reorder <= delay, Set(starts).isSubset(of: Set(encoded.keyframes)) else {
      throw ProcessError.programFailed(
        program: "ffmpeg", status: 0,
        detail:
          "the encoded stretches start at frames \(starts) but their IDR pictures are at \(encoded.keyframes), "
          + "or they reorder \(reorder) frames (at most \(delay))")
    }
    try checkCancelled()
    let cuts = zip(stretches, starts).map { stretch, start in
      Splice.Cut(
        path: path, from: start, count: stretch.1.count, at: stretch.1.lowerBound - smart.frames.lowerBound,
        piece: pieces[stretch.0])
    }
    try Splice.cut(cuts, codec: codec, rate: timeline.rate, delay: delay, run: runChild)
    return summary.stages
  }

  /// The whole mix, encoded once (AAC), into an MP4 of its own that the mux copies.
  private func encodeSound(_ audio: AudioMix, to path: String) throws {
    EmergencyStop.add(temporary: path)
    // The mix's graph counts its inputs from 1, after the video's place.
    var args = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "anullsrc"]
    for extra in audio.inputs { args += extra }
    args += ["-filter_complex", audio.filterGraph, "-map", "[\(audio.outputLabel)]", "-c:a", "aac", "-b:a", "192k"]
    try runChild(args + ["-f", "mp4", path])
  }

  /// Runs ffmpeg to its end, stoppable by `cancel`.
  private func runChild(_ args: [String]) throws {
    let process = try FFmpeg.start(try FFmpeg.ffmpeg(), args, stdin: false, stdout: .discard)
    running.withLock { $0.children[ObjectIdentifier(process)] = process }
    let status = process.wait()
    running.withLock { $0.children[ObjectIdentifier(process)] = nil }
    try checkCancelled()
    guard status == 0 else {
      let detail = process.errorTail()
      if let reason = FFmpeg.outputFailure(detail) {
        throw VideoError.unwritableOutput(path: plan.target.displayPath, reason: reason)
      }
      throw ProcessError.programFailed(program: "ffmpeg", status: status, detail: detail)
    }
  }
}

/// A count several threads add to.
final class Counter: @unchecked Sendable {
  private let count = Locked(0)
  var value: Int { count.current }
  /// Adds `n`; the new value.
  func add(_ n: Int) -> Int {
    count.withLock {
      $0 += n
      return $0
    }
  }
}

/// The frames of a smart render's encoded stretches, one after another, for one pipeline: frame
/// i of the source is the timeline's frame in the stretch it falls in. Each stretch gets a
/// `TimelineRenderer` of its own, told the stretch's range, so its decoders start where the
/// stretch does (seeking) and look ahead no further than its end.
final class StretchSource: FrameSource {
  private let timeline: Timeline
  private let renderer: Renderer
  private let stretches: [Range<Int>]
  /// Where each stretch starts among the source's frames.
  let starts: [Int]
  /// The frames of every stretch.
  let frameCount: Int
  private var current: (index: Int, source: TimelineRenderer)?
  /// The next stretch's renderer, its decoders started while this stretch is encoded.
  private var upcoming: (index: Int, source: TimelineRenderer)?
  private var planes: (YUVFrameLayout, YUVConversion.Background)?
  private let interrupted = Locked(false)
  private let live = Locked<TimelineRenderer?>(nil)
  private var finishedWait = 0.0

  init(timeline: Timeline, renderer: Renderer, stretches: [Range<Int>]) {
    self.timeline = timeline
    self.renderer = renderer
    self.stretches = stretches
    var starts: [Int] = []
    var n = 0
    for s in stretches {
      starts.append(n)
      n += s.count
    }
    self.starts = starts
    frameCount = n
  }

  private func source(for i: Int) -> (TimelineRenderer, Int) {
    let s = starts.lastIndex(where: { $0 <= i }) ?? 0
    if current?.index != s {
      if let old = current?.source {
        finishedWait += old.decodeWaitSeconds
        old.stop()
      }
      let source = upcoming?.index == s ? upcoming!.source : renderer(for: s)
      upcoming = nil
      current = (s, source)
      live.withLock { $0 = source }
      if interrupted.current { interrupt() }
      // The next stretch's decoders start now: their start-up and seek run while this one is
      // drawn and encoded, instead of stalling the encoder at the seam.
      if s + 1 < stretches.count {
        let next = renderer(for: s + 1)
        next.prepare(frame: stretches[s + 1].lowerBound)
        upcoming = (s + 1, next)
      }
    }
    return (current!.source, stretches[s].lowerBound + i - starts[s])
  }

  /// A renderer of stretch `s`'s frames alone.
  private func renderer(for s: Int) -> TimelineRenderer {
    let source = TimelineRenderer(timeline: timeline, renderer: renderer)
    if let (layout, background) = planes { source.willWrite(planes: layout, background: background) }
    source.willRender(stretches[s])
    return source
  }

  func frame(_ index: Int) throws -> Image {
    let (source, k) = self.source(for: index)
    return try source.frame(k)
  }

  func videoFrame(_ index: Int) throws -> VideoFrame {
    let (source, k) = self.source(for: index)
    return try source.videoFrame(k)
  }

  func willWrite(planes layout: YUVFrameLayout, background: YUVConversion.Background) {
    planes = (layout, background)
  }

  var decodeWaitSeconds: Double { finishedWait + (current?.source.decodeWaitSeconds ?? 0) }

  func interruptible(_ register: (@escaping () -> Void) -> Void) {
    register { [weak self] in self?.interrupt() }
  }

  /// Wakes the stretch's renderer where it waits for a decoder (from any thread).
  private func interrupt() {
    interrupted.withLock { $0 = true }
    live.current?.interruptible { wake in wake() }
  }

  func stop() {
    current?.source.stop()
    upcoming?.source.stop()
    upcoming = nil
  }
}
