import Foundation
import LayerKit
import LayerKitEdit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitVideo
import ServiceLifecycle

/// Takes queued renders from the store, `configuration.renders` at a time, and renders each on a
/// thread of its own through the library's render entry (`VideoRender(editFile:…)`), its
/// progress written back as it goes. A render canceled over the API is stopped (its ffmpeg
/// children too) and leaves nothing; a server shut down puts what it was rendering back in the
/// queue, and one started again after it was killed does the same first. Each start of a render
/// is an `Attempt` the store fences: progress, the end and the video are kept only for the
/// attempt that holds the render, so a render is done once whichever server dies. A render past
/// its output size or wall time (`--limits`) is stopped and fails naming the limit.
final class RenderWorker: Service, Sendable {
  let store: any RenderStore
  let configuration: ServerConfiguration
  /// This server's name in the store: the renders it takes are marked with it.
  let owner: String
  /// The renders running here now, by id, until what they made is recorded.
  private let running = Locked<[String: Running]>([:])
  /// Bumped when renders are queued, so that the loop does not wait out its poll.
  private let queued = Locked(0)
  /// This server's renders, for `/metrics`.
  let metrics: ServerMetrics

  final class Running: Sendable {
    /// The start of the render this is: what the store fences its writes with.
    let attempt: Attempt
    let render = Locked<VideoRender?>(nil)
    /// Canceled over the API.
    let canceled = Locked(false)
    /// Stopped by the server's shutdown.
    let stopping = Locked(false)
    /// Stopped here for a reason of its own (a limit passed, the render taken by another).
    let stopped = Locked<LimitError?>(nil)
    /// The render has ended and what it made is recorded.
    let ended = Locked(false)

    init(attempt: Attempt) { self.attempt = attempt }

    /// Stops the render with `reason`.
    func stop(_ reason: LimitError) {
      stopped.withLock { if $0 == nil { $0 = reason } }
      render.withLock { $0?.cancel(reason) }
    }
  }

  init(store: any RenderStore, configuration: ServerConfiguration, owner: String, metrics: ServerMetrics) {
    self.store = store
    self.configuration = configuration
    self.owner = owner
    self.metrics = metrics
  }

  /// Tells the loop renders were queued.
  func wake() { queued.withLock { $0 += 1 } }

  func run() async throws {
    try? FileManager.default.createDirectory(atPath: configuration.outputs, withIntermediateDirectories: true)
    await cancelWhenGracefulShutdown {
      var (beat, heard, swept) = (Date.distantPast, Date(), Date.distantPast)
      while !Task.isCancelled {
        let now = Date()
        // What this server renders, said every few seconds: a server that falls silent (killed)
        // leaves its renders to the others once the lease runs out.
        if now.timeIntervalSince(beat) >= self.configuration.lease / 4 {
          beat = now
          if let held = try? await self.store.heartbeat(owner: self.owner) {
            heard = now
            self.keepOnly(held)
          } else if now.timeIntervalSince(heard) > self.configuration.lease / 2 {
            // The store cannot be told: another server may take these renders soon, so they stop.
            self.stopAll(LimitError("this server could not reach its queue for \(Int(self.configuration.lease / 2)) s"))
          }
        }
        if now.timeIntervalSince(swept) >= min(2, self.configuration.limits.keep / 4) {
          swept = now
          await self.sweep()
        }
        let busy = self.running.withLock { $0.count }
        if busy < self.configuration.renders,
          let record = try? await self.store.claim(
            owner: self.owner, lease: self.configuration.lease, running: self.configuration.limits.running,
            attempts: self.configuration.limits.attempts)
        {
          let job = Running(attempt: Attempt(owner: self.owner, number: record.attempts))
          self.running.withLock { $0[record.id] = job }
          Task { await self.render(record, job) }
          continue
        }
        let seen = self.queued.withLock { $0 }
        // Polled (other servers may queue into a shared store), and woken by this one's queue.
        for _ in 0..<5 where !Task.isCancelled && self.queued.withLock({ $0 }) == seen {
          try? await Task.sleep(for: .milliseconds(20))
        }
      }
    }
    // Shut down: what is rendering stops, and goes back in the queue for the next start.
    let left = running.withLock { Array($0.values) }
    for job in left {
      job.stopping.withLock { $0 = true }
      job.render.withLock { $0?.cancel(CancellationError()) }
    }
    for job in left {
      while !job.ended.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(20)) }
    }
    _ = try? await store.requeue(owner: owner)
  }

  /// Stops the renders running here that the store no longer says are this server's attempts
  /// (canceled, or taken by another server after this one fell silent).
  private func keepOnly(_ held: Set<Attempt.Number>) {
    let lost = running.withLock { jobs in
      jobs.filter { !held.contains(Attempt.Number(id: $0.key, attempt: $0.value.attempt.number)) }.map(\.value)
    }
    for job in lost { job.stop(LimitError("another server holds the render now")) }
  }

  /// Stops every render running here, its attempt given up.
  private func stopAll(_ reason: LimitError) {
    for job in running.withLock({ Array($0.values) }) { job.stop(reason) }
  }

  /// Removes the videos kept their time, and what renders that have ended left half-written
  /// (a server killed while writing, whose render then failed or was canceled).
  private func sweep() async {
    let folder = configuration.outputs
    for name in (try? await store.expire(keep: configuration.limits.keep)) ?? [] {
      try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(name))
    }
    for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where file.hasPrefix(".") {
      // `.ID-N.EXT.tmp-…`: an id is a UUID's 36 characters.
      let id = String(file.dropFirst().prefix(36))
      guard running.withLock({ $0[id] == nil }), let r = try? await store.render(id), r.status.isFinal else { continue }
      try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(file))
    }
  }

  /// Stops render `id` if it is running here (the store says canceled already).
  func cancel(_ id: String) {
    guard let job = running.withLock({ $0[id] }) else { return }
    job.canceled.withLock { $0 = true }
    job.render.withLock { $0?.cancel(CancellationError()) }
  }

  /// Renders `record` on a thread of its own, then says how it ended.
  private func render(_ record: RenderRecord, _ job: Running) async {
    let made = Self.outputName(record, job)
    let watch = Task { [configuration] in await Self.watch(job, writing: made, configuration: configuration) }
    let outcome = await withCheckedContinuation { (done: CheckedContinuation<Outcome, Never>) in
      let thread = Thread { [self] in done.resume(returning: self.renderNow(record, job, writing: made)) }
      // Frames and the filters' stacks are large.
      thread.stackSize = 8 << 20
      thread.start()
    }
    watch.cancel()
    defer {
      running.withLock { $0[record.id] = nil }
      job.ended.withLock { $0 = true }
    }
    let outputs = configuration.outputs
    func discard() {
      if let output = outcome.output {
        try? FileManager.default.removeItem(atPath: (outputs as NSString).appendingPathComponent(output))
      }
    }
    // Canceled: the store says so already; stopped by a shutdown: it goes back in the queue.
    if job.canceled.withLock({ $0 }) { metrics.ended(.canceled) }
    guard !job.canceled.withLock({ $0 }), !job.stopping.withLock({ $0 }) else { return discard() }
    let kept = try? await store.finish(
      record.id, output: outcome.output, error: outcome.failure?.message, path: outcome.failure?.path,
      attempt: job.attempt)
    // Taken by another server, or canceled elsewhere as it ended: nothing of this attempt is kept.
    guard kept == true else { return discard() }
    metrics.ended(outcome.failure == nil ? .done : .failed, seconds: outcome.seconds, frames: outcome.frames)
    if let callback = record.callback, let url = URL(string: callback), let secret = configuration.callbackSecret,
      Callbacks.allows(url, targets: configuration.callbackTargets),
      let body = try? JSONSerialization.data(withJSONObject: Self.told(record, outcome), options: [.sortedKeys])
    {
      // Told apart from the queue: a receiver that is slow or away does not hold up the next render.
      Task.detached { _ = await Callbacks.deliver(body, to: url, secret: secret) }
    }
  }

  /// Watches a running render's wall time and the bytes of its video, and stops it past either
  /// limit.
  static func watch(_ job: Running, writing name: String, configuration: ServerConfiguration) async {
    let limits = configuration.limits
    let started = Date()
    while !Task.isCancelled {
      try? await Task.sleep(for: .milliseconds(250))
      if Date().timeIntervalSince(started) > limits.renderSeconds {
        job.stop(
          LimitError(
            "the render took more than \(ServerLimits.number(limits.renderSeconds)) s (--limits render-seconds)"))
      }
      if bytesWritten(name, in: configuration.outputs) > limits.outputBytes {
        job.stop(LimitError("the video passed \(limits.outputBytes) bytes (--limits output-bytes)"))
      }
    }
  }

  /// A render whose frame passed `--limits frame-seconds`: stopped by the library; if the frame
  /// is stuck inside the renderer (a shader that never ends on the GPU), nothing can unwind it, so
  /// after a grace the render is failed here with the reason and the server ends itself — its
  /// service manager starts it again and its other renders go back in the queue.
  static func stuck(_ id: String, _ job: Running, _ error: VideoError, store: any RenderStore) {
    DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
      guard !job.ended.withLock({ $0 }) else { return }
      let said = DispatchSemaphore(value: 0)
      Task {
        _ = try? await store.finish(id, output: nil, error: words(error), path: nil, attempt: job.attempt)
        said.signal()
      }
      _ = said.wait(timeout: .now() + 10)
      EmergencyStop.stop(
        status: 70,
        message: "layerkit-server: render \(id): \(words(error)); the frame is stuck in the renderer, "
          + "so the server stops (its other renders go back in the queue)")
    }
  }

  /// A library error in the server's words: its settings named as `--limits` names them.
  static func words(_ error: VideoError) -> String {
    error.message { setting in
      switch setting {
      case .frameTimeLimit: "--limits frame-seconds"
      case .raiseFrameTimeLimit: "raise --limits frame-seconds"
      default: setting.libraryWords
      }
    }
  }

  /// What a callback is told: the render's id and status, why it failed or where its video is.
  static func told(_ record: RenderRecord, _ outcome: Outcome) -> [String: Any] {
    var body: [String: Any] = ["id": record.id, "status": outcome.failure == nil ? "done" : "failed"]
    if let failure = outcome.failure { body["error"] = failure.message }
    if outcome.output != nil { body["output"] = "/v1/renders/\(record.id)/output" }
    return body
  }

  /// The file an attempt writes: a name of its own, so that an attempt overtaken by another
  /// never writes over the video the other keeps.
  static func outputName(_ record: RenderRecord, _ job: Running) -> String {
    let kind = Self.kind(ofEdit: record.edit)
    return "\(record.id)-\(job.attempt.number).\(kind)"
  }

  /// The container an edit's `outPath` asks for, among those the server writes (MP4 otherwise).
  static func kind(ofEdit edit: String) -> String {
    let asked = (try? JSONSerialization.jsonObject(with: Data(edit.utf8)) as? [String: Any])?["outPath"] as? String
    let kind = asked.map { ($0 as NSString).pathExtension.lowercased() } ?? ""
    return ["mp4", "webm", "mov", "mkv", "gif"].contains(kind) ? kind : "mp4"
  }

  /// Removes what earlier attempts of render `id` left in `folder`: the temporary file of a
  /// server killed while writing, a video an overtaken attempt finished.
  static func removeEarlierAttempts(of id: String, in folder: String) {
    for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    where file.hasPrefix(id + "-") || file.hasPrefix("." + id + "-") {
      try? FileManager.default.removeItem(atPath: (folder as NSString).appendingPathComponent(file))
    }
  }

  /// Bytes written so far under `name` in `folder`: the file, and the temporary dot-name it is
  /// written under until it is whole.
  static func bytesWritten(_ name: String, in folder: String) -> Int {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return files.filter { $0 == name || ($0.hasPrefix(".") && $0.contains(name)) }.reduce(0) { sum, file in
      let path = (folder as NSString).appendingPathComponent(file)
      return sum + ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int ?? 0)
    }
  }

  struct Outcome: Sendable {
    var output: String?
    var failure: (message: String, path: String?)?
    var seconds = 0.0
    var frames = 0
  }

  /// The render itself, on its thread: through the library's entry into the outputs folder.
  private func renderNow(_ record: RenderRecord, _ job: Running, writing made: String) -> Outcome {
    do {
      let file = try EditFile.parse(Data(record.edit.utf8), file: "edit", folder: configuration.media, confined: true)
      let path = (configuration.outputs as NSString).appendingPathComponent(made)
      Self.removeEarlierAttempts(of: record.id, in: configuration.outputs)
      var settings = RenderSettings()
      settings.frameTimeLimit = configuration.limits.frameSeconds
      let render = try VideoRender(
        editFile: file, output: try OutputTarget(path: path), encoding: EncodingOptions(), settings: settings,
        backends: try backends(), glTransitions: configuration.glTransitions)
      render.frameTimeLimitReached = { [store] error in Self.stuck(record.id, job, error, store: store) }
      // The plan's exact size, rate and length, held to the limits before a frame is drawn.
      do {
        try configuration.limits.check(
          width: render.width, height: render.height, fps: render.rate.framesPerSecond, frames: render.frames.count)
      } catch {
        return Outcome(failure: (error.message + " (--limits)", error.path.isEmpty ? nil : "edit." + error.path))
      }
      job.render.withLock { $0 = render }
      if let reason = job.stopped.withLock({ $0 }) { throw reason }
      if job.canceled.withLock({ $0 }) || job.stopping.withLock({ $0 }) { throw CancellationError() }
      let last = Locked(-1.0)
      let (store, id, attempt) = (store, record.id, job.attempt)
      let summary = try render.run { done, total in
        let value = total > 0 ? Double(done) / Double(total) : 0
        let due = last.withLock { p in
          guard value - p >= 0.01 else { return false }
          p = value
          return true
        }
        // A render canceled, or taken by another server, is stopped here.
        if due {
          Task {
            if (try? await store.progress(id, min(value, 0.999), attempt: attempt)) == false {
              job.stop(LimitError("the render is no longer this attempt's (canceled, or taken by another server)"))
            }
          }
        }
      }
      // The last bytes may have come after the watch's last look.
      if Self.bytesWritten(made, in: configuration.outputs) > configuration.limits.outputBytes {
        try? FileManager.default.removeItem(atPath: path)
        throw LimitError("the video passed \(configuration.limits.outputBytes) bytes (--limits output-bytes)")
      }
      return Outcome(output: made, seconds: summary.seconds, frames: summary.frames)
    } catch let error as EditFile.Error {
      return Outcome(failure: (error.message, error.path.isEmpty ? nil : "edit." + error.path))
    } catch let error as VideoError {
      return Outcome(failure: (Self.words(error), nil))
    } catch let error as LimitError {
      return Outcome(failure: ((job.stopped.withLock { $0 } ?? error).message, nil))
    } catch {
      if let reason = job.stopped.withLock({ $0 }) { return Outcome(failure: (reason.message, nil)) }
      return Outcome(failure: ("\(error)", nil))
    }
  }

  /// The renderer `--renderer` names, made on the render's thread (a GL context is current on
  /// the thread that made it).
  private func backends() throws -> RenderBackends {
    switch configuration.renderer {
    case "cpu": return RenderBackends(renderer: ReferenceRenderer(), cpuChosen: true)
    case "gpu":
      let gpu = try GLRenderer()
      gpu.keepsContextCurrent = true
      return RenderBackends(renderer: gpu, shaders: gpu)
    default:
      guard let gpu = try? GLRenderer() else { return RenderBackends(renderer: ReferenceRenderer()) }
      gpu.keepsContextCurrent = true
      return RenderBackends(renderer: gpu, shaders: gpu, fasterCPU: ReferenceRenderer())
    }
  }
}

/// Why a server stopped a render of its own accord: a limit it passed, or the render given up.
struct LimitError: Error, Sendable, Equatable, CustomStringConvertible {
  var message: String
  init(_ message: String) { self.message = message }
  var description: String { message }
}
