import Foundation
import LayerKit
import LayerKitMedia

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
/// 1. Each `.encode` stretch of the `SmartPlan` runs through a `VideoPipeline` of its frames into
///    an MPEG-TS of its own, encoded as the clips are (`SmartPlan.stretchArguments`: codec,
///    profile, level, pixel format, colour tags), starting on an IDR picture.
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
  public let plan: OutputPlan
  public let smart: SmartPlan
  private let renderer: Renderer
  private let packets: [Int: SourcePackets]
  private let codec: String
  private let arguments: [String]

  private let lock = NSLock()
  private var failure: Error?
  private var pipeline: VideoPipeline?
  private var child: ChildProcess?

  /// - Parameters:
  ///   - plan: the output: an MP4 file (`SmartPlan.declines` said yes).
  ///   - smart: which frames are copied, from `packets[item]`'s clip.
  ///   - streams: the clips' streams, the first giving the encoded stretches' form.
  public init(
    timeline: Timeline, renderer: Renderer, plan: OutputPlan, smart: SmartPlan, packets: [Int: SourcePackets],
    streams: [SourceStream]
  ) {
    self.timeline = timeline
    self.renderer = renderer
    self.plan = plan
    self.smart = smart
    self.packets = packets
    codec = streams.first?.codec ?? "h264"
    arguments = SmartPlan.stretchArguments(streams, crf: plan.options.crf, preset: plan.options.preset)
  }

  public func cancel(signal: Int32) { cancel(VideoError.interrupted(signal: signal)) }

  public func cancel(_ error: Error) {
    lock.lock()
    if failure == nil { failure = error }
    let (pipeline, child) = (self.pipeline, self.child)
    lock.unlock()
    pipeline?.cancel(error)
    child?.stop(grace: 1)
  }

  private func checkCancelled() throws {
    lock.lock()
    defer { lock.unlock() }
    if let failure { throw failure }
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
    let folder = try Self.makeFolder(beside: target)
    defer { Self.removeFolder(folder) }
    let total = timeline.frameCount
    var stages = VideoPipeline.Stages()
    var done = 0
    var delay = 0
    var raw: [Int: String] = [:]
    for (n, segment) in smart.segments.enumerated() {
      try checkCancelled()
      switch segment {
      case .copy(let item, _, let sourceFrames):
        delay = max(delay, packets[item]!.reorder[sourceFrames].max() ?? 0)
      case .encode(let frames):
        let path = "\(folder)/\(n).encoded.ts"
        EmergencyStop.add(temporary: path)
        var options = plan.options
        (options.audio, options.part, options.stretch) = (nil, nil, arguments)
        let pipeline = try VideoPipeline(
          timeline: timeline, renderer: renderer,
          plan: OutputPlan(target: OutputTarget(path: path, format: .mp4), options: options), frames: frames)
        lock.lock()
        self.pipeline = pipeline
        lock.unlock()
        try checkCancelled()
        let base = done
        let summary = try pipeline.run { sent, _ in progress?(base + sent, total) }
        lock.lock()
        self.pipeline = nil
        lock.unlock()
        stages.add(summary.stages)
        let encoded = try SourcePackets.scan(
          Self.stream(path, codec: codec, rate: timeline.rate), frameCount: frames.count)
        if let why = encoded.unusable {
          throw VideoError.programFailed(program: "ffmpeg", status: 0, detail: "an encoded stretch: \(why)")
        }
        delay = max(delay, encoded.reorder.max() ?? 0)
        raw[n] = path
        done += frames.count
      }
    }
    // Every stretch into its place, then one mux with the sound.
    var pieces: [String] = []
    let base = delay + 1
    for (n, segment) in smart.segments.enumerated() {
      try checkCancelled()
      let path = "\(folder)/\(n).ts"
      EmergencyStop.add(temporary: path)
      var args = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
      let filters: String
      switch segment {
      case .copy(let item, let frames, let sourceFrames):
        guard case .clip(let info) = timeline.items[item].source else { continue }
        if sourceFrames.lowerBound > 0 {
          // Half a frame past the keyframe: the demuxer seeks back to it, and no further.
          args += ["-ss", FFmpeg.seconds((Double(sourceFrames.lowerBound) + 0.5) / info.frameRate)]
        }
        args += ["-i", info.path, "-frames:v", String(frames.count)]
        filters = (codec == "hevc" ? "hevc_mp4toannexb," : "h264_mp4toannexb,") + restamp(frames, base, delay)
      case .encode(let frames):
        args += ["-i", raw[n]!]
        filters = restamp(frames, base, delay)
      }
      args += ["-map", "0:v:0", "-c", "copy", "-bsf:v", filters, "-f", "mpegts", "-muxdelay", "0", "-muxpreload", "0"]
      try runChild(args + [path])
      pieces.append(path)
      if case .copy(_, let frames, _) = segment {
        done += frames.count
        progress?(done, total)
      }
    }
    for path in raw.values { Self.remove(path) }
    try checkCancelled()
    let bytes = try mux(pieces, to: target)
    stages.cpu = VideoPipeline.cpuSeconds() - cpuAtStart
    var summary = VideoPipeline.Summary(
      frames: total, seconds: Date().timeIntervalSince(started), outputBytes: bytes, stages: stages)
    summary.copiedFrames = smart.copiedFrames
    return summary
  }

  /// setts expressions putting a stretch's packets at `frames`: presentation at the frame's
  /// index, decode at the packet's place in the whole stream's decode order less `delay`, both
  /// `base` frames on (so that none is negative), in MPEG-TS's 90 kHz ticks.
  private func restamp(_ frames: Range<Int>, _ base: Int, _ delay: Int) -> String {
    let (num, den) = (timeline.rate.numerator, timeline.rate.denominator)
    let tick = "90000*\(den)/\(num)"
    let start = base + frames.lowerBound
    let index = "round((PTS-STARTPTS)*\(num)/(90000*\(den)))"
    return "setts=pts=round((\(start)+\(index))*\(tick)):dts=round((\(start)+N-\(delay))*\(tick))"
  }

  /// The stretches joined, the sound mixed and encoded once, the MP4 written beside `target`,
  /// its frames counted, renamed over it. Returns its size.
  private func mux(_ pieces: [String], to target: String) throws -> Int64? {
    let temporary = try TemporaryFile(beside: target)
    try temporary.closeDescriptor()
    var args = [
      "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", "concat:" + pieces.joined(separator: "|"),
    ]
    var audioLabel: String?
    if let audio = plan.options.audio {
      for extra in audio.inputs { args += extra }
      args += ["-filter_complex", audio.filterGraph]
      audioLabel = audio.outputLabel
    }
    args += ["-map", "0:v:0"]
    if let audioLabel { args += ["-map", "[\(audioLabel)]", "-c:a", "aac", "-b:a", "192k"] }
    args += ["-c:v", "copy", "-tag:v", codec == "hevc" ? "hev1" : "avc3", "-movflags", "+faststart", "-f", "mp4"]
    do {
      try runChild(args + [temporary.path])
      let frames = try Self.countFrames(temporary.path)
      guard frames == timeline.frameCount else {
        throw VideoError.unwritableOutput(
          path: plan.target.displayPath,
          reason: "the spliced video holds \(frames) frames, not the \(timeline.frameCount) of the edit")
      }
      let size = (try? FileManager.default.attributesOfItem(atPath: temporary.path)[.size] as? NSNumber)?.int64Value
      try temporary.commit()
      return size
    } catch {
      temporary.discard()
      throw error
    }
  }

  /// Runs ffmpeg to its end, stoppable by `cancel`.
  private func runChild(_ args: [String]) throws {
    let process = try FFmpeg.start(try FFmpeg.ffmpeg(), args, stdin: false, stdout: .discard)
    lock.lock()
    child = process
    lock.unlock()
    let status = process.wait()
    lock.lock()
    child = nil
    lock.unlock()
    try checkCancelled()
    guard status == 0 else {
      let detail = process.errorTail()
      if let reason = FFmpeg.outputFailure(detail) {
        throw VideoError.unwritableOutput(path: plan.target.displayPath, reason: reason)
      }
      throw VideoError.programFailed(program: "ffmpeg", status: status, detail: detail)
    }
  }

  /// The video packets of a file, counted by ffprobe (no decoding).
  static func countFrames(_ path: String) throws(VideoError) -> Int {
    let probe = try FFmpeg.start(
      try FFmpeg.ffprobe(),
      [
        "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of",
        "csv=p=0", path,
      ], stdin: false, stdout: .pipe)
    let text = String(decoding: probe.readAll(), as: UTF8.self)
    guard probe.wait() == 0, let n = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw .unreadableClip(path: path, reason: FFmpeg.explain(probe.errorTail(lines: 4), path: path))
    }
    return n
  }

  /// An encoded stretch as a stream whose packets can be scanned: MPEG-TS's 90 kHz.
  static func stream(_ path: String, codec: String, rate: FrameRate) -> SourceStream {
    var s = SourceStream(
      path: path, codec: codec, profile: "", pixelFormat: "", width: 0, height: 0,
      frameRate: "\(rate.numerator)/\(rate.denominator)")
    s.timeBase = "1/90000"
    return s
  }

  /// A fresh folder for the stretches beside the target (same disk), named so a person who
  /// finds one after a crash knows whose it is.
  static func makeFolder(beside target: String) throws(VideoError) -> String {
    let dir = (target as NSString).deletingLastPathComponent
    let base = (target as NSString).lastPathComponent
    var template = Array(((dir.isEmpty ? "" : dir + "/") + ".\(base).smart-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw .unwritableOutput(path: target, reason: String(cString: strerror(errno)))
    }
    return String(cString: made)
  }

  static func remove(_ path: String) {
    unlink(path)
    EmergencyStop.remove(temporary: path)
  }

  static func removeFolder(_ folder: String) {
    if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
      for name in names { remove(folder + "/" + name) }
    }
    rmdir(folder)
  }
}

extension VideoPipeline.Stages {
  /// Adds another run's seconds (a smart render's encoded stretches, one after another).
  mutating func add(_ other: Self) {
    source += other.source
    decodeWait += other.decodeWait
    prepare += other.prepare
    write += other.write
    finish += other.finish
  }
}
