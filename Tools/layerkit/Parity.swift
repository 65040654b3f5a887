import ArgumentParser
import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitScene
import LayerKitVideo

/// `layerkit parity SCENE.json`: the scene at several times on the GPU and on the CPU, compared
/// under the parity contract; exit 0 when every frame is within it, 1 when one is not, 2 for bad
/// input.
struct Parity: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render a scene file on the GPU and on the CPU at several times and compare the frames.",
    discussion: """
      Each time's RenderList is rendered by both backends and compared: a frame passes when no \
      more than --max-fraction of its pixels have a channel off by more than --max-delta and its \
      PSNR is at least --min-psnr (by default LayerKit's GPU≡CPU contract: 2, 0.1 %, 45 dB). One \
      line per frame, then a summary naming the worst frame (failing, else the most pixels \
      beyond --max-delta) and the lowest PSNR. Frames outside the tolerance are \
      written as NAME.expected.png (CPU), NAME.actual.png (GPU) and NAME.diff.png to --artifacts.

      Exits 0 when every frame passes, 1 when one fails, 2 when the scene cannot be read or \
      rendered (the message says why).

      Examples:
        layerkit parity examples/scenes/composition.json
        layerkit parity examples/scenes/filters.json --times 0,1.5,3.2 --artifacts parity/
        layerkit parity examples/scenes/slideshow.json --every 30 --max-delta 1
      """)

  @Argument(help: "A scene file (JSON, docs/SCENE_FILES.md).") var scene: String
  @Option(help: "Comma-separated scene times in seconds (default: 5 frames spread over the duration, ends included).")
  var times: TimeList?
  @Option(parsing: .unconditional, help: "Compare every Nth frame of the video instead (frames 0, N, 2N, …).")
  var every: Int?
  @OptionGroup var limits: ToleranceOptions
  @Option(help: "Where images of failing frames go (default: a new temporary folder, named when used).")
  var artifacts: String?

  func validate() throws {
    try checkNamed([scene], "the scene file")
    guard times == nil || every == nil else { throw ValidationError("use --times or --every, not both") }
    if let every {
      guard every > 0 else { throw ValidationError("--every must be a whole number of frames ≥ 1, not \(every)") }
    }
  }

  func run() throws {
    let failed: Bool
    do {
      failed = try compare()
    } catch let error as SceneFileError where !error.namesTheFile {
      printError("layerkit parity: \(scene): \(commandLineMessage(error))")
      throw ExitCode(2)
    } catch let error as RenderError {
      // A layer's value beyond the limits, found as a frame is built: the scene file names it.
      printError("layerkit parity: \(scene): \(commandLineMessage(error))")
      throw ExitCode(2)
    } catch {
      printError("layerkit parity: \(commandLineMessage(error))")
      throw ExitCode(2)
    }
    if failed { throw ExitCode(1) }
  }

  /// Compares every time; true when a frame failed.
  func compare() throws -> Bool {
    reserveLargeBuffersWithMmap()
    let loaded = try SceneFile.load(URL(fileURLWithPath: scene))
    defer { loaded.stopClips() }
    let gpu = try GLRenderer()
    let cpu = ReferenceRenderer()
    let tolerance = limits.tolerance
    let name = URL(fileURLWithPath: scene).deletingPathExtension().lastPathComponent
    var folder: URL?
    var failures = 0
    var worst: (time: Double, comparison: ImageComparison)?
    var lowest: (time: Double, psnr: Double)?
    var seconds = (gpu: 0.0, cpu: 0.0)
    let times = self.times(of: loaded)
    for t in times {
      let list = try loaded.renderList(at: t)
      let (expected, cpuSeconds) = try timed { try cpu.render(list) }
      let (actual, gpuSeconds) = try timed { try gpu.render(list) }
      seconds.cpu += cpuSeconds
      seconds.gpu += gpuSeconds
      let comparison = try ImageComparison(expected: expected, actual: actual)
      let passed = comparison.passes(tolerance)
      var line = String(
        format: "t=%.3f s  max |Δ| %3d  beyond %d: %.4f%%  PSNR %@  %@", t, comparison.maxChannelDelta, limits.maxDelta,
        comparison.differingFraction(over: limits.maxDelta) * 100, Self.decibels(comparison.psnr),
        passed ? "pass" : "FAIL")
      if !passed {
        failures += 1
        let directory = try folder ?? makeArtifactsFolder(name)
        folder = directory
        let base = "\(name)-t\(String(format: "%.3f", t))".map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        for (suffix, image) in [
          ("expected", expected), ("actual", actual), ("diff", comparison.diffImage()),
        ] {
          try ImageFile.writePNG(image, to: directory.appendingPathComponent("\(String(base)).\(suffix).png"))
        }
        line += "  → \(directory.appendingPathComponent(String(base)).path).{expected,actual,diff}.png"
      }
      print(line)
      if worst == nil || worse(comparison, than: worst!.comparison, tolerance) { worst = (t, comparison) }
      if lowest == nil || comparison.psnr < lowest!.psnr { lowest = (t, comparison.psnr) }
    }
    let (w, l) = (worst!, lowest!)
    print(
      String(
        format: "%@: %d of %d frames within tolerance (|Δ| ≤ %d on ≥ %.2f%% of pixels, PSNR ≥ %@); worst t=%.3f s: "
          + "max |Δ| %d, beyond %d: %.4f%%, PSNR %@; lowest PSNR %@ at t=%.3f s; %d×%d, gpu (%@) %.2f s, cpu %.2f s",
        failures == 0 ? "passed" : "FAILED", times.count - failures, times.count, limits.maxDelta,
        (1 - limits.maxFraction) * 100,
        Self.decibels(limits.minPsnr), w.time, w.comparison.maxChannelDelta, limits.maxDelta,
        w.comparison.differingFraction(over: limits.maxDelta) * 100, Self.decibels(w.comparison.psnr),
        Self.decibels(l.psnr), l.time,
        loaded.settings.width, loaded.settings.height, gpu.info.renderer, seconds.gpu, seconds.cpu))
    return failures > 0
  }

  /// The times compared: --times, every --every-th frame, or 5 frames spread over the video.
  func times(of loaded: LoadedScene) -> [Double] {
    if let times { return times.values }
    let count = loaded.frameCount
    let frames = every.map { Array(stride(from: 0, to: count, by: $0)) } ?? VideoRender.spread(5, over: 0..<count)
    return frames.map { loaded.time(ofFrame: $0) }
  }

  func makeArtifactsFolder(_ name: String) throws -> URL {
    let url =
      artifacts.map { URL(fileURLWithPath: $0, isDirectory: true) }
      ?? FileManager.default.temporaryDirectory.appendingPathComponent(
        "layerkit-parity-\(name)-\(UUID().uuidString.prefix(8))", isDirectory: true)
    do {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    } catch {
      throw MediaError.writeFailed(
        path: url.path, reason: "cannot make the artifacts folder: \(error.localizedDescription)")
    }
    return url
  }

  /// The worse of two frames: a failing one, else the larger share of pixels beyond the delta
  /// (the contract's first rule), else the larger largest difference, else the lower PSNR.
  func worse(_ a: ImageComparison, than b: ImageComparison, _ tolerance: Tolerance) -> Bool {
    let keyA = (a.passes(tolerance) ? 0 : 1, a.differingPixels(over: limits.maxDelta), a.maxChannelDelta, -a.psnr)
    let keyB = (b.passes(tolerance) ? 0 : 1, b.differingPixels(over: limits.maxDelta), b.maxChannelDelta, -b.psnr)
    return keyA > keyB
  }

  static func decibels(_ value: Double) -> String {
    value.isInfinite ? "inf dB" : String(format: "%.2f dB", value)
  }

  func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = DispatchTime.now()
    let value = try body()
    return (value, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
  }
}

/// "0,0.5,1": scene times in seconds, each finite and ≥ 0.
struct TimeList: ExpressibleByArgument {
  var values: [Double]
  init?(argument: String) {
    let parts = argument.split(separator: ",", omittingEmptySubsequences: false).map {
      Double($0.trimmingCharacters(in: .whitespaces))
    }
    guard !parts.isEmpty, parts.allSatisfy({ $0 != nil && $0!.isFinite && $0! >= 0 }) else { return nil }
    values = parts.map { $0! }
  }
}
