import Foundation
import LayerKit
import LayerKitEdit
import LayerKitGL
import LayerKitReference
import LayerKitVideo
import ServiceLifecycle

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Takes queued renders from the store, `configuration.renders` at a time, and renders each on a
/// thread of its own through the library's render entry (`VideoRender(editFile:…)`), its
/// progress written back as it goes. A render canceled over the API is stopped (its ffmpeg
/// children too) and leaves nothing; a server shut down puts what it was rendering back in the
/// queue, and one started again after it was killed does the same first.
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
    let render = Locked<VideoRender?>(nil)
    /// Canceled over the API.
    let canceled = Locked(false)
    /// Stopped by the server's shutdown.
    let stopping = Locked(false)
    /// The render has ended and what it made is recorded.
    let ended = Locked(false)
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
      var beat = Date.distantPast
      while !Task.isCancelled {
        let now = Date()
        // What this server renders, said every few seconds: a server that falls silent (killed)
        // leaves its renders to the others once the lease runs out.
        if now.timeIntervalSince(beat) >= self.configuration.lease / 4 {
          try? await self.store.heartbeat(owner: self.owner, now: now.timeIntervalSince1970)
          beat = now
        }
        let busy = self.running.withLock { $0.count }
        if busy < self.configuration.renders,
          let record = try? await self.store.claim(
            owner: self.owner, now: now.timeIntervalSince1970, lease: self.configuration.lease)
        {
          let job = Running()
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

  /// Stops render `id` if it is running here (the store says canceled already).
  func cancel(_ id: String) {
    guard let job = running.withLock({ $0[id] }) else { return }
    job.canceled.withLock { $0 = true }
    job.render.withLock { $0?.cancel(CancellationError()) }
  }

  /// Renders `record` on a thread of its own, then says how it ended.
  private func render(_ record: RenderRecord, _ job: Running) async {
    let outcome = await withCheckedContinuation { (done: CheckedContinuation<Outcome, Never>) in
      let thread = Thread { [self] in done.resume(returning: self.renderNow(record, job)) }
      // Frames and the filters' stacks are large.
      thread.stackSize = 8 << 20
      thread.start()
    }
    defer {
      running.withLock { $0[record.id] = nil }
      job.ended.withLock { $0 = true }
    }
    // Canceled: the store says so already; stopped by a shutdown: it goes back in the queue.
    if job.canceled.withLock({ $0 }) { metrics.ended(.canceled) }
    guard !job.canceled.withLock({ $0 }), !job.stopping.withLock({ $0 }) else { return }
    metrics.ended(
      outcome.failure == nil ? .done : .failed, seconds: outcome.seconds, frames: outcome.frames)
    try? await store.finish(
      record.id, output: outcome.output, error: outcome.failure?.message, path: outcome.failure?.path,
      now: Date().timeIntervalSince1970)
    // Canceled elsewhere as it ended: nothing of it is kept.
    if let output = outcome.output, (try? await store.render(record.id))?.status == .canceled {
      try? FileManager.default.removeItem(atPath: (configuration.outputs as NSString).appendingPathComponent(output))
      return
    }
    if let callback = record.callback, let url = URL(string: callback) { await notify(url, id: record.id) }
  }

  struct Outcome: Sendable {
    var output: String?
    var failure: (message: String, path: String?)?
    var seconds = 0.0
    var frames = 0
  }

  /// The render itself, on its thread: through the library's entry into the outputs folder.
  private func renderNow(_ record: RenderRecord, _ job: Running) -> Outcome {
    do {
      let file = try EditFile.parse(Data(record.edit.utf8), file: "edit", folder: configuration.media, confined: true)
      let kind = file.outPath.map { ($0 as NSString).pathExtension.lowercased() } ?? ""
      let made = "\(record.id).\(["mp4", "webm", "mov", "mkv", "gif"].contains(kind) ? kind : "mp4")"
      let path = (configuration.outputs as NSString).appendingPathComponent(made)
      // A render run again after its server was killed may find what it wrote then.
      try? FileManager.default.removeItem(atPath: path)
      let render = try VideoRender(
        editFile: file, output: try OutputTarget(path: path), encoding: EncodingOptions(), backends: try backends(),
        glTransitions: configuration.glTransitions)
      job.render.withLock { $0 = render }
      if job.canceled.withLock({ $0 }) || job.stopping.withLock({ $0 }) { throw CancellationError() }
      let last = Locked(-1.0)
      let (store, id) = (store, record.id)
      let summary = try render.run { done, total in
        let value = total > 0 ? Double(done) / Double(total) : 0
        let due = last.withLock { p in
          guard value - p >= 0.01 else { return false }
          p = value
          return true
        }
        // A render canceled through another server sharing the queue is stopped here.
        if due {
          Task { [weak self] in
            if (try? await store.progress(id, min(value, 0.999))) == false { self?.cancel(id) }
          }
        }
      }
      return Outcome(output: made, seconds: summary.seconds, frames: summary.frames)
    } catch let error as EditFile.Error {
      return Outcome(failure: (error.message, error.path.isEmpty ? nil : "edit." + error.path))
    } catch {
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

  /// POSTs the render's state to its callback (once, ten seconds at most; a callback that
  /// fails is not retried).
  private func notify(_ url: URL, id: String) async {
    guard let record = try? await store.render(id) else { return }
    var request = URLRequest(url: url, timeoutInterval: 10)
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    var body: [String: Any] = ["id": id, "status": record.status.rawValue]
    if let error = record.error { body["error"] = error }
    if record.output != nil { body["output"] = "/v1/renders/\(id)/output" }
    request.httpBody = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
    URLSession.shared.dataTask(with: request) { _, _, _ in }.resume()
  }
}
