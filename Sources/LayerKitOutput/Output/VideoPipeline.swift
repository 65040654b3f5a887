import Foundation
import LayerKit
import LayerKitMedia

#if canImport(Glibc)
  import Glibc
#endif

/// Renders a timeline's frames to an output, streamed: clip decoders (one thread each) → render
/// and read back (the calling thread, which owns the backend's context) → colour conversion or
/// PNG compression (a pool of workers, several frames at once) → the writer (one thread, in
/// order, into the file, the encoder's pipe or the frame folder). Stages are joined by small
/// bounded queues, so memory does not grow with the video's length and the slowest stage sets
/// the pace; the disk holds nothing but the output.
///
/// One place stops everything: the first error in any stage, or `cancel(signal:)` from a signal
/// handler, cancels every queue, stops the decoders and the encoder, and removes the partial
/// output.
public final class VideoPipeline: @unchecked Sendable {
  public let width: Int
  public let height: Int
  public let rate: FrameRate
  /// How the output is written, decided before the pipeline was made.
  public let plan: OutputPlan
  public var target: OutputTarget { plan.target }
  public var options: EncodingOptions { plan.options }
  /// The frames rendered: all by default, or a shard's range of the whole video.
  public let frames: Range<Int>
  private let source: FrameSource

  /// Guards `failure`, `queues`, `sink`, `keptFrames`, `framesSent` and `stages`.
  private let lock = Locked(())
  private var failure: Error?
  private var queues: [() -> Void] = []
  private var sink: FrameSink?

  /// Frames that `contactSheet` keeps, by index; filled while rendering.
  public private(set) var keptFrames: [Int: Image] = [:]
  private let keep: Set<Int>

  /// A pipeline over any source of frames written to `target` as `options` say (their
  /// `OutputPlan` made here).
  public convenience init(
    source: FrameSource, width: Int, height: Int, rate: FrameRate, frameCount: Int, target: OutputTarget,
    options: EncodingOptions, frames: Range<Int>? = nil, keepFrames: Set<Int> = []
  ) throws(VideoError) {
    try self.init(
      source: source, width: width, height: height, rate: rate, frameCount: frameCount,
      plan: OutputPlan(target: target, options: options), frames: frames, keepFrames: keepFrames)
  }

  /// A pipeline over any source of frames (a timeline's renderer, or the parts of a sharded
  /// render being joined).
  public init(
    source: FrameSource, width: Int, height: Int, rate: FrameRate, frameCount: Int, plan: OutputPlan,
    frames: Range<Int>? = nil, keepFrames: Set<Int> = []
  ) throws(VideoError) {
    let all = 0..<frameCount
    let range = frames ?? all
    guard range.lowerBound >= 0, range.upperBound <= all.upperBound, !range.isEmpty else {
      throw .invalidTimeline(
        "frames \(range.lowerBound)..\(range.upperBound) are not within the video's \(all.upperBound) frames (0..\(all.upperBound))"
      )
    }
    self.source = source
    self.width = width
    self.height = height
    self.rate = rate
    self.plan = plan
    self.frames = range
    self.keep = keepFrames
    if let layout = plan.planeLayout(width: width, height: height) {
      source.willWrite(planes: layout, background: plan.options.background.tuple)
    }
    source.willRender(range)
  }

  /// What a finished render reports.
  public struct Summary: Sendable {
    public var frames: Int
    public var seconds: Double
    public var outputBytes: Int64?
    /// Where the time went, stage by stage.
    public var stages = Stages()
    /// Of `frames`, those copied from the clips' packets (a `SmartRender`); nil when every
    /// frame was encoded.
    public var copiedFrames: Int?
    /// Sound packets copied from the clips by a smart render (nil: the sound, if any, was
    /// encoded whole).
    public var copiedSoundPackets: Int?
    public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }

    package init(
      frames: Int, seconds: Double, outputBytes: Int64? = nil, stages: Stages = Stages(), copiedFrames: Int? = nil
    ) {
      (self.frames, self.seconds, self.outputBytes, self.stages, self.copiedFrames) =
        (frames, seconds, outputBytes, stages, copiedFrames)
    }
  }

  /// Seconds each stage spent, so the stage that bounds a render is visible (`layerkit … --stats`,
  /// `layerkit-bench --suite`). Stages run at once: their sum exceeds the wall time when they overlap.
  public struct Stages: Sendable, Codable {
    /// The rendering thread getting frames: waiting for clip decoders, and drawing.
    public var source = 0.0
    /// Of `source`, waiting for clip decoders (`FrameSource.decodeWaitSeconds`).
    public var decodeWait = 0.0
    /// The workers preparing frames (colour conversion, planes mixed, PNG compression), summed
    /// over workers.
    public var prepare = 0.0
    /// The writer writing frames: into a file, or into the encoder's pipe (where a slow encoder
    /// makes it wait).
    public var write = 0.0
    /// Waiting for the encoder to finish after the last frame.
    public var finish = 0.0
    /// CPU seconds (user + system) of this process and of its child processes (decoders,
    /// encoder) during the render.
    public var cpu = 0.0
    /// Processors of the machine.
    public var processors = ProcessInfo.processInfo.activeProcessorCount

    public init() {}

    /// Drawing (and everything else the rendering thread did but wait for decoders).
    public var draw: Double { source - decodeWait }

    /// The share of the machine's processors busy over `seconds` of wall time.
    public func occupancy(over seconds: Double) -> Double {
      seconds > 0 ? cpu / (seconds * Double(processors)) : 0
    }
  }

  /// Called by the writer after each frame: frames written, frames in all.
  public typealias Progress = @Sendable (Int, Int) -> Void

  /// Renders and writes every frame of `frames`, then makes the output appear under its name.
  /// - Throws: the first error of any stage (`VideoError`, `RenderError`, `MediaError`), or
  ///   `.interrupted` after `cancel(signal:)`; the partial output is removed first.
  @discardableResult
  public func run(progress: Progress? = nil) throws -> Summary {
    let started = Date()
    let cpuAtStart = VideoPipeline.cpuSeconds()
    let previousPipe = signal(SIGPIPE, SIG_IGN)  // a dead encoder is an error, not our death
    defer { signal(SIGPIPE, previousPipe) }

    let sink = try makeSink(plan, width: width, height: height, rate: rate)
    let early = lock.withLock { _ in
      self.sink = sink
      return failure
    }
    if let early {
      sink.abort()
      throw early
    }

    let (workers, depth, waiting) = Self.queues(
      processors: ProcessInfo.processInfo.activeProcessorCount, frameBytes: width * height * 4)
    let jobs = BoundedQueue<Slot>(capacity: depth)
    let ordered = BoundedQueue<Slot>(capacity: waiting)
    register {
      jobs.cancel(); ordered.cancel()
    }

    // Workers: prepare frames (conversion, compression), any order.
    let group = DispatchGroup()
    for w in 0..<workers {
      group.enter()
      let thread = Thread { [self] in
        defer { group.leave() }
        while let slot = jobs.pop() {
          let t0 = DispatchTime.now().uptimeNanoseconds
          defer { self.addTime(\.prepare, since: t0) }
          do {
            slot.fulfil(.success(try sink.prepare(slot.frame!, index: slot.index)))
          } catch {
            slot.fulfil(.failure(error))
            fail(error)
          }
        }
      }
      thread.name = "prepare \(w)"
      thread.start()
    }
    // The writer: in frame order.
    let total = frames.count
    source.interruptible { [self] cancel in register(cancel) }
    group.enter()
    let writer = Thread { [self] in
      defer { group.leave() }
      var done = 0
      while let slot = ordered.pop() {
        guard case .success(let bytes)? = slot.wait(unless: { self.currentFailure() != nil }) else { break }
        let t0 = DispatchTime.now().uptimeNanoseconds
        do {
          try sink.write(bytes, index: slot.index)
        } catch {
          fail(error)
          break
        }
        addTime(\.write, since: t0)
        done += 1
        self.lock.withLock { _ in self.framesSent = done }
        progress?(done, total)
      }
    }
    writer.name = "write"
    writer.start()

    // Rendering, on this thread.
    do {
      try renderFrames(jobs: jobs, ordered: ordered)
    } catch {
      fail(error)
    }
    jobs.close()
    ordered.close()
    // On a failure the writer may be blocked on an encoder's pipe: stop the encoder first. Every
    // stage ends before the output is touched (never removed under a thread still writing it).
    if currentFailure() != nil { sink.interrupt() }
    group.wait()
    if let error = currentFailure() {
      sink.abort()
      throw streamed(error)
    }
    let finishing = DispatchTime.now().uptimeNanoseconds
    do {
      try sink.finish()
      addTime(\.finish, since: finishing)
    } catch {
      sink.abort()
      // A signal during finish stops the encoder, which then fails: the signal is the reason.
      throw streamed(currentFailure() ?? error)
    }
    var size: Int64?
    if case .file(let path) = target.kind, let attributes = try? FileManager.default.attributesOfItem(atPath: path) {
      size = (attributes[.size] as? NSNumber)?.int64Value
    }
    var stages = currentStages()
    stages.decodeWait = source.decodeWaitSeconds
    stages.cpu = VideoPipeline.cpuSeconds() - cpuAtStart
    return Summary(frames: total, seconds: Date().timeIntervalSince(started), outputBytes: size, stages: stages)
  }

  private var stages = Stages()

  /// The workers, the depth of the queue to them and of the writer's queue, so that the frames
  /// in flight — the one being drawn, those waiting in the writer's queue (which holds every
  /// frame handed over and not yet taken by the writer, those at the workers too) and the one
  /// being written — fit `Limits.frameMemory`: at 1080p (8 MiB a frame) two frames a worker
  /// wait and up to four workers convert; at the largest target (16 384 × 4 096, 256 MiB) two
  /// frames wait (at two workers at most) while the next is drawn and the last written.
  package static func queues(processors: Int, frameBytes: Int) -> (workers: Int, depth: Int, waiting: Int) {
    // Of the frames that fit, one is being drawn and one written; the rest may wait.
    let waiting = max(1, Limits.framesInFlight(frameBytes: frameBytes) - 2)
    let workers = max(1, min(4, processors, waiting))
    let depth = max(1, min(workers * 2, waiting))
    return (workers, depth, max(depth, min(depth + 2, waiting)))
  }
  /// Frames the writer has handed to the sink (under `lock`).
  private var framesSent = 0

  /// `error` as it reads for this target: a stop (a signal, the frame time limit) leaves nothing
  /// of a file, but what went to a stream (standard output, a FIFO, a device) stays sent.
  private func streamed(_ error: Error) -> Error {
    let stream: String
    switch target.kind {
    case .standardOutput: stream = "standard output"
    case .writeThrough(let path): stream = path
    default: return error
    }
    let sent = lock.withLock { _ in framesSent }
    switch error {
    case VideoError.interrupted(let signal, _, _):
      return VideoError.interrupted(signal: signal, stream: stream, framesSent: sent)
    case VideoError.frameTimeLimit(let frame, let seconds, _):
      return VideoError.frameTimeLimit(frame: frame, seconds: seconds, stream: stream)
    default: return error
    }
  }

  private func addTime(_ stage: WritableKeyPath<Stages, Double>, since start: UInt64) {
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    lock.withLock { _ in stages[keyPath: stage] += seconds }
  }

  private func currentStages() -> Stages {
    lock.withLock { _ in stages }
  }

  /// User + system CPU seconds of this process and of its children waited for so far.
  package static func cpuSeconds() -> Double {
    var total = 0.0
    for who in [RUSAGE_SELF.rawValue, RUSAGE_CHILDREN.rawValue] {
      var usage = rusage()
      getrusage(who, &usage)
      for t in [usage.ru_utime, usage.ru_stime] { total += Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    }
    return total
  }

  /// Stops the render from any thread (a signal handler's queue): the run throws `.interrupted`.
  public func cancel(signal: Int32) {
    fail(VideoError.interrupted(signal: signal))
  }

  /// Stops the render from any thread with `error` (a watchdog's): as `cancel(signal:)`.
  public func cancel(_ error: Error) {
    fail(error)
  }

  private func renderFrames(jobs: BoundedQueue<Slot>, ordered: BoundedQueue<Slot>) throws {
    defer { source.stop() }
    var previous: Slot?
    for k in frames {
      if currentFailure() != nil { return }
      let t0 = DispatchTime.now().uptimeNanoseconds
      let frame = try source.videoFrame(k)
      addTime(\.source, since: t0)
      if keep.contains(k) {
        let image = try frame.image()
        lock.withLock { _ in keptFrames[k] = image }
      }
      // The same frame as the one before (a still held on): its prepared bytes are reused.
      if let previous, let id = frame.id, previous.frameID == id {
        let slot = Slot(index: k, sameAs: previous)
        guard ordered.push(slot) else { return }
        continue
      }
      let slot = Slot(index: k, frame: frame)
      previous = slot
      guard ordered.push(slot), jobs.push(slot) else { return }
    }
  }

  private func register(_ cancel: @escaping () -> Void) {
    let already = lock.withLock { _ in
      if failure != nil { return true }
      queues.append(cancel)
      return false
    }
    if already { cancel() }
  }

  private func fail(_ error: Error) {
    let first = lock.withLock { _ -> (cancels: [() -> Void], sink: FrameSink?)? in
      guard failure == nil else { return nil }
      failure = error
      return (queues, self.sink)
    }
    guard let (cancels, sink) = first else { return }
    for c in cancels { c() }
    // A writer blocked on a full pipe is freed by stopping the encoder.
    if let e = error as? VideoError {
      switch e {
      case .interrupted, .frameTimeLimit: sink?.interrupt()
      default: break
      }
    }
  }

  private func currentFailure() -> Error? {
    lock.withLock { _ in failure }
  }
}

/// One frame travelling through the last stages: the frame, then the prepared bytes.
private final class Slot: @unchecked Sendable {
  let index: Int
  let frameID: UInt64?
  private(set) var frame: VideoFrame?
  /// A frame whose bytes are those of an earlier slot.
  private let original: Slot?
  private let result = Awaitable<Result<PreparedFrame, Error>?>(nil)

  init(index: Int, frame: VideoFrame) {
    self.index = index
    self.frame = frame
    frameID = frame.id
    original = nil
  }

  init(index: Int, sameAs original: Slot) {
    self.index = index
    frameID = original.frameID
    self.original = original
  }

  func fulfil(_ r: Result<PreparedFrame, Error>) {
    result.withLock {
      $0 = r
      frame = nil
    }
  }

  /// The prepared frame, waiting for it; nil when `stopped` says the pipeline failed before the
  /// slot was fulfilled (its job may have been dropped with a cancelled queue).
  func wait(unless stopped: () -> Bool) -> Result<PreparedFrame, Error>? {
    if let original { return original.wait(unless: stopped) }
    while true {
      if let done = result.wait(until: { $0 != nil }, deadline: Date().addingTimeInterval(0.05), { $0 }) {
        return done
      }
      if stopped() { return nil }
    }
  }
}

/// Where a pipeline's frames come from, asked for in increasing order on the pipeline's calling
/// thread.
public protocol FrameSource: AnyObject {
  func frame(_ index: Int) throws -> Image
  /// Frame `index` in the form the pipeline hands the sink: by default `frame(index)`.
  func videoFrame(_ index: Int) throws -> VideoFrame
  /// Told once, before `willRender`, when the sink writes Y'CbCr in `layout` (translucent pixels
  /// over `background`): a source may then hand over frames as planes of that layout.
  func willWrite(planes layout: YUVFrameLayout, background: YUVConversion.Background)
  /// Seconds `frame` / `videoFrame` spent waiting for clip decoders so far.
  var decodeWaitSeconds: Double { get }
  /// Hands the pipeline a way to wake a source that is waiting (for a decoder), from any thread.
  func interruptible(_ register: (@escaping () -> Void) -> Void)
  /// Releases decoders and processes; called once, at the end.
  func stop()
  /// The frames the pipeline will ask for, in order, told once before the first: a source may
  /// start frame k + 1 while frame k is read back, but only inside them.
  func willRender(_ frames: Range<Int>)
}

extension FrameSource {
  /// Nothing to prepare.
  public func willRender(_ frames: Range<Int>) {}
  /// RGBA, rendered.
  public func videoFrame(_ index: Int) throws -> VideoFrame { .image(try frame(index)) }
  /// Every frame is RGBA.
  public func willWrite(planes layout: YUVFrameLayout, background: YUVConversion.Background) {}
  /// No decoders.
  public var decodeWaitSeconds: Double { 0 }
}
