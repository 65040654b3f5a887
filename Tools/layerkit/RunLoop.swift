import ArgumentParser
import CMalloc
import Dispatch
import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitScene
import LayerKitVideo

#if canImport(Glibc)
  import Glibc
#endif

/// What the video commands (transition, slideshow, concat) share: choosing the backend, reading

/// Running a pipeline: signals, the progress line, the summary, `--stats`, and errors reported
/// in the command line's words.
extension VideoJob {
  /// Runs a pipeline with SIGINT/SIGTERM handling and a progress line.
  func run(_ pipeline: VideoRender, frames: Int, describe: String, note: String? = nil) throws {
    try VideoJob.run(
      pipeline, frames: frames, describe: describe, output: options.output, run: options.run, note: note)
  }

  /// Runs a pipeline with SIGINT/SIGTERM handling, a progress line on a terminal and, unless
  /// `quiet`, a summary line naming `output` (and ending in `note`); `--stats` writes the run's
  /// figures.
  static func run(
    _ pipeline: VideoRender, frames: Int, describe: String, output: String, run: VideoRunOptions, note: String? = nil
  ) throws {
    let quiet = run.quiet
    // Weak: the watcher's handler is released by libdispatch on a worker thread, later; holding
    // the pipeline there would tear the GL renderer down on that thread while the main thread
    // exits (NVIDIA's driver crashes on it; found on an H100).
    let signals = SignalWatcher { [weak pipeline] signal in pipeline?.cancel(signal: signal) }
    defer { signals.stop() }
    // The library stops a frame over --frame-time-limit; one stuck inside the driver cannot be
    // unwound, so the process stops at once if the render has not ended a grace period later.
    pipeline.frameTimeLimitReached = { error in
      DispatchQueue.global().asyncAfter(deadline: .now() + Signals.grace) {
        EmergencyStop.stop(status: 1, message: "layerkit: \(commandLineMessage(error)); stopped at once")
      }
    }
    let progress = ProgressLine(total: frames, enabled: !quiet && isatty(2) != 0)
    let summary = try pipeline.run { done, total in progress.update(done) }
    progress.clear()
    if !quiet {
      let size = summary.outputBytes.map { ", \(formatBytes($0))" } ?? ""
      let fps = String(format: "%.1f", summary.framesPerSecond)
      let seconds = String(format: "%.2f", summary.seconds)
      printError(
        "wrote \(summary.frames) frames (\(describe)) in \(seconds) s, \(fps) fps, to \(output)\(size)"
          + (note.map { "; " + $0 } ?? ""))
    }
    if let path = run.stats { try RunStats(summary).write(to: path) }
  }
}

/// frames done / total, fps and ETA, rewritten in place on a terminal; nothing otherwise.
final class ProgressLine: @unchecked Sendable {
  let total: Int
  let enabled: Bool
  private let start = Date()
  private let last = Locked(Date.distantPast)

  init(total: Int, enabled: Bool) {
    self.total = total
    self.enabled = enabled
  }

  func update(_ done: Int) {
    guard enabled else { return }
    let now = Date()
    let due = last.withLock { last in
      guard now.timeIntervalSince(last) > 0.2 || done == total else { return false }
      last = now
      return true
    }
    guard due else { return }
    let elapsed = now.timeIntervalSince(start)
    let fps = elapsed > 0 ? Double(done) / elapsed : 0
    let eta = fps > 0 ? Double(total - done) / fps : 0
    let line = String(format: "\rframe %d/%d  %.1f fps  ETA %.0f s ", done, total, fps, eta)
    FileHandle.standardError.write(Data(line.utf8))
  }

  func clear() {
    guard enabled else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}

func formatBytes(_ n: Int64) -> String {
  if n >= 1 << 20 { return String(format: "%.1f MiB", Double(n) / Double(1 << 20)) }
  if n >= 1 << 10 { return String(format: "%.1f KiB", Double(n) / 1024) }
  return "\(n) bytes"
}

/// Runs a command body: one line on standard error for any failure, exit 1, or 128 + the signal
/// for an interrupted render.
func reportingErrors(_ command: String, _ body: () throws -> Void) throws {
  do {
    try body()
  } catch let error as ValidationError {
    throw error
  } catch let error as ExitCode {
    throw error
  } catch let error as RenderRequestError where error.isUsage {
    // The request the flags made is at fault: a usage error, in the flags' words.
    throw ValidationError(commandLineMessage(error))
  } catch let error as VideoError {
    printError("layerkit \(command): \(commandLineMessage(error))")
    guard case .interrupted(let signal, _, _) = error else { throw ExitCode(1) }
    throw ExitCode(128 + signal)
  } catch {
    // A Foundation file error is told in plain words, never as its domain, code and user info.
    printError("layerkit \(command): \(commandLineMessage(error))")
    throw ExitCode(1)
  }
}

/// `--stats FILE`: a render's figures as JSON, for the benchmark and for people asking where the
/// time went.
struct RunStats: Codable {
  var frames: Int
  var seconds: Double
  var framesPerSecond: Double
  var stages: VideoPipeline.Stages
  /// CPU seconds over (wall seconds × processors).
  var occupancy: Double
  /// Frames copied from the clips' packets by a smart render; absent when every frame was
  /// encoded.
  var copiedFrames: Int?
  /// Sound packets copied from the clips by a smart render; absent when the sound was encoded
  /// whole.
  var copiedSoundPackets: Int?

  init(_ summary: VideoPipeline.Summary) {
    frames = summary.frames
    seconds = summary.seconds
    framesPerSecond = summary.framesPerSecond
    stages = summary.stages
    occupancy = summary.stages.occupancy(over: summary.seconds)
    copiedFrames = summary.copiedFrames
    copiedSoundPackets = summary.copiedSoundPackets
  }

  func write(to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    do {
      try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      // Foundation's error text names its own domain and codes; the reason is its POSIX one.
      let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError)?.code
      throw VideoError.unwritableOutput(
        path: path, reason: code.map { String(cString: strerror(Int32($0))) } ?? "the stats file could not be written")
    }
  }
}
