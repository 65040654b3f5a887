// layerkit-bench --suite: the workloads users render, on both backends, at several sizes, and
// FFmpeg's xfade on the same inputs to the same sinks in the same run, with the ratio on every
// row and the exact FFmpeg command printed. Figures are medians over frames after a warm-up;
// the machine is shared and noisy, so only figures from one run are compared.

import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitSamples
import LayerKitText

/// One measured workload × backend × size.
struct FrameRow: Codable {
  var workload: String
  var backend: String
  var width: Int
  var height: Int
  var frames: Int
  /// Milliseconds a frame, all stages: median and 95th percentile.
  var medianMs: Double
  var p95Ms: Double
  /// Medians of the stages: list building (scene evaluation included), render (drawing and
  /// readback), of it (GPU only) the wait for the GPU to finish drawing and the readback's copy
  /// after it, and RGBA → 4:2:0 Y'CbCr.
  var buildMs: Double
  var renderMs: Double
  var drawWaitMs: Double?
  var readbackMs: Double?
  var convertMs: Double
  /// The bench process's peak resident memory once this row had run (it only grows, so a row's
  /// own peak is at most this).
  var peakRSSMiB: Double
  var framesPerSecond: Double { 1000 / medianMs }
}

/// One end-to-end run of 181 frames (a 3-second 60 fps transition) to a sink.
struct VideoRow: Codable {
  var workload: String
  var tool: String
  var sink: String
  var width: Int
  var height: Int
  var seconds: Double
  var framesPerSecond: Double
  /// The run's peak resident memory, when /usr/bin/time is there to tell it.
  var peakRSSMiB: Double?
  var command: String
}

struct SuiteReport: Codable {
  var machine: [String: String]
  var frames: [FrameRow]
  var videos: [VideoRow]
  var clips: [ClipRow] = []
  var scaling: [String: Double]
  var recommendations: [String]
}

struct Suite {
  let sizes: [(Int, Int)]
  let framesPerRow: Int
  let renderers: [String]
  let withFFmpeg: Bool
  let videoSizes: Set<String>
  /// Run the clip workloads (Suite+Clips.swift).
  var withClips = true
  /// Only the rows (frames, clips, the edit) whose workload name contains this, or one of its
  /// comma-separated parts (case-insensitive); nil runs all.
  var only: String?

  func selects(_ workload: String) -> Bool {
    guard let only else { return true }
    return only.lowercased().split(separator: ",").contains { workload.lowercased().contains($0) }
  }

  static let transitionFrames = 181

  func run() throws -> SuiteReport {
    FontStack.install()
    let opening = Self.now()
    let gpu: GLRenderer? = renderers.contains("gpu") ? try GLRenderer() : nil
    let opened = Self.now() - opening
    // Every frame renders on this thread, as in the video commands.
    gpu?.keepsContextCurrent = true
    let cpu: ReferenceRenderer? = renderers.contains("cpu") ? ReferenceRenderer() : nil
    var machine: [String: String] = [
      "cpus": "\(ProcessInfo.processInfo.activeProcessorCount)",
      "cpu threads (CPU backend)": "\(cpu?.threadCount ?? 0)",
    ]
    if let gpu {
      machine["gpu"] = gpu.info.renderer
      // The display opened, the context made and every program built: what each GPU run of a
      // video command pays before its first frame.
      machine["gpu renderer start"] = String(format: "%.0f ms", opened)
      machine["egl"] = "\(gpu.info.platform) (\(gpu.info.eglVendor))"
    }
    let ffmpeg = withFFmpeg ? FFmpeg.locate("ffmpeg") : nil
    machine["ffmpeg"] = ffmpeg ?? "not found: the xfade rows are left out"
    let shader = Self.examples.appendingPathComponent("transitions/circle_open.glsl")
    if let gpu { try gpu.registerTransition(name: "circle_open", file: shader) }

    let work = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-bench-\(getpid())")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }

    var frames: [FrameRow] = []
    var videos: [VideoRow] = []
    var clips: [ClipRow] = []
    if withClips, let ffmpeg {
      let (a, b) = try inputs(width: 1920, height: 1080, ffmpeg: ffmpeg, in: work)
      clips = try clipWorkloads(try makeClipInputs(ffmpeg: ffmpeg, stills: [a, b], in: work), ffmpeg: ffmpeg, in: work)
      if selects(Self.editName) || selects(Self.editlyName) || selects(Self.editlyY4MName) {
        let edit = try makeEditInputs(ffmpeg: ffmpeg, in: work)
        if selects(Self.editName) { clips += try editWorkload(edit, ffmpeg: ffmpeg, in: work) }
        clips += try editlyWorkload(edit, ffmpeg: ffmpeg, in: work)
      }
      clips += try smartWorkloads(ffmpeg: ffmpeg, in: work)
    }
    for (w, h) in sizes {
      let (a, b) = try inputs(width: w, height: h, ffmpeg: ffmpeg, in: work)
      let pictures = (Self.picture(a), Self.picture(b))
      var workloads: [(String, (Int) throws -> RenderList)] = []
      func transition(_ effect: String, _ parameters: [String: TransitionValue] = [:], builtIn: Bool = true) -> (
        Int
      ) throws -> RenderList {
        { k in
          try RenderList(
            transitionFrom: pictures.0, to: pictures.1, width: w, height: h, effect: effect, parameters: parameters,
            progress: Double(k) / Double(Self.transitionFrames - 1), builtIn: builtIn)
        }
      }
      workloads.append(("fade", transition("fade")))
      workloads.append(("push fromRight", transition("push", ["direction": .vec2([1, 0])])))
      workloads.append(("pageCurlWithShadow", transition("pageCurlWithShadow")))
      workloads.append(("circle_open.glsl", transition("circle_open", builtIn: false)))
      // A full-frame gradient (GradientLayer) whose start point moves, and a replicated spinner.
      workloads.append(
        (
          "gradient full frame",
          { k in
            let g = GradientLayer()
            g.frame = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
            g.colors = [Color(red: 0.1, green: 0.2, blue: 0.6), Color(red: 0.9, green: 0.5, blue: 0.2), .white]
            g.startPoint = Point(x: Double(k) / Double(Self.transitionFrames), y: 0)
            g.endPoint = Point(x: 1, y: 1)
            return try RenderList(layer: g, width: w, height: h)
          }
        ))
      // 20 lines of text (TextLayer) that change every frame: laid out and rasterized anew.
      workloads.append(
        (
          "20 text lines",
          { k in
            try RenderList(
              layer: SampleScene.textLines(count: 20, frame: k, width: Double(w), height: Double(h)), width: w,
              height: h)
          }
        ))
      // 200 progress rings (ShapeLayer): stroked, half of them dashed, strokeEnd animating, so
      // every frame rasterizes 400 coverage masks (fill and stroke) in the build step.
      let rings = try SampleScene.animatedShapes(count: 200, width: Double(w), height: Double(h))
      workloads.append(
        (
          "200 shape layers",
          { k in try RenderList(layer: rings.presentation(at: Double(k) / 60), width: w, height: h) }
        ))
      // A fountain of 2 000 particles (EmitterLayer), from 2 s on: the particles worked out from
      // the seed and the time, each a layer, every frame.
      let fountain = try SampleScene.fountain(particles: 2_000, width: Double(w), height: Double(h))
      workloads.append(
        (
          "2000 particles",
          { k in try RenderList(layer: fountain.presentation(at: 2 + Double(k) / 60), width: w, height: h) }
        ))
      for count in [50, 500] {
        let grid = try SampleScene.animatedGrid(count: count, width: Double(w), height: Double(h))
        workloads.append(
          (
            "\(count) layers",
            { k in try RenderList(layer: grid.presentation(at: Double(k) / 60), width: w, height: h) }
          ))
      }
      for (name, make) in workloads where selects(name) {
        for renderer in [gpu as Renderer?, cpu as Renderer?].compactMap({ $0 }) {
          if name.hasSuffix(".glsl") && renderer.name == "cpu" { continue }
          frames.append(try measure(name, renderer, width: w, height: h, make: make))
          print(Self.describe(frames.last!))
          if let planar = renderer as? PlanarRenderer {
            frames.append(try measureOverlapped(name, planar, width: w, height: h, make: make))
            print(Self.describe(frames.last!))
          }
        }
      }
      if videoSizes.contains("\(w)x\(h)") {
        videos += try endToEnd(a, b, width: w, height: h, ffmpeg: ffmpeg, renderers: renderers)
      }
    }
    return SuiteReport(
      machine: machine, frames: frames, videos: videos, clips: clips, scaling: Self.scaling(frames),
      recommendations: Self.recommend(frames, videos))
  }

  // MARK: - Inputs

  static var examples: URL {
    // The package root: Tools/layerkit-bench/Suite.swift → ../../examples.
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples")
  }

  /// Two photos at the target size as PNG files (scaled by ffmpeg), or two test images.
  func inputs(width w: Int, height h: Int, ffmpeg: String?, in dir: URL) throws -> (URL, URL) {
    var urls: [URL] = []
    for (i, photo) in ["01-mandelbrot.jpg", "02-spiral.jpg"].enumerated() {
      let out = dir.appendingPathComponent("\(i)-\(w)x\(h).png")
      if let ffmpeg {
        try Self.shell(
          [
            ffmpeg, "-v", "error", "-y", "-i", Self.examples.appendingPathComponent("photos/\(photo)").path,
            "-vf", "scale=\(w):\(h),format=rgba", out.path,
          ])
      } else {
        try ImageFile.writePNG(try SampleScene.testImage(width: w, height: h, hue: Double(i) * 0.5), to: out)
      }
      urls.append(out)
    }
    return (urls[0], urls[1])
  }

  static func picture(_ url: URL) -> Layer {
    let image = (try? ImageFile.read(url)) ?? Image.zero
    let layer = Layer(frame: Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)))
    layer.contents = image
    return layer
  }

  // MARK: - End to end, against FFmpeg

  /// `layerkit transition` and FFmpeg's xfade, 181 frames at 60 fps, to the same sinks.
  func endToEnd(_ a: URL, _ b: URL, width w: Int, height h: Int, ffmpeg: String?, renderers: [String]) throws
    -> [VideoRow]
  {
    var rows: [VideoRow] = []
    let layerkit = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("layerkit")
    let pairs: [(String, [String], String)] = [
      ("fade", ["--type", "fade"], "fade"),
      ("push fromRight", ["--type", "push", "--subtype", "fromRight"], "slideleft"),
    ]
    for (name, spec, twin) in pairs {
      let sinks: [(String, [String], [String])] = [
        ("y4m → /dev/null", ["-o", "-"], ["-f", "yuv4mpegpipe", "-"]),
        (
          "x264 veryfast mp4", ["-o", "OUT.mp4", "--preset", "veryfast"],
          ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-y", "OUT.mp4"]
        ),
      ]
      for (sink, ours, theirs) in sinks {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-bench-\(getpid()).mp4").path
        if FileManager.default.isExecutableFile(atPath: layerkit.path) {
          for renderer in renderers {
            let command =
              [layerkit.path, "transition", a.path, b.path] + spec + [
                "--duration", "3", "--fps", "60", "--renderer", renderer, "--quiet", "--overwrite",
              ] + ours.map { $0 == "OUT.mp4" ? out : $0 }
            if ffmpeg == nil && sink.hasPrefix("x264") { continue }
            let (seconds, rss) = try Self.time(command)
            rows.append(
              VideoRow(
                workload: name, tool: "layerkit \(renderer)", sink: sink, width: w, height: h, seconds: seconds,
                framesPerSecond: Double(Self.transitionFrames) / seconds, peakRSSMiB: rss,
                command: command.joined(separator: " ")))
            print(Self.describe(rows.last!))
          }
        }
        if let ffmpeg {
          // Each photo decoded once, converted once to 4:2:0 and looped in memory (the loop
          // filter), so xfade runs on its fastest path, in yuv420p: the strongest baseline. The
          // rate said (fps, passing every frame) as well, which ffmpeg 7's xfade requires.
          let graph =
            "[0:v]format=yuv420p,loop=loop=\(Self.transitionFrames):size=1,setpts=N/60/TB,fps=60[a];"
            + "[1:v]format=yuv420p,loop=loop=\(Self.transitionFrames):size=1,setpts=N/60/TB,fps=60[b];"
            + "[a][b]xfade=transition=\(twin):duration=3:offset=0"
          let command =
            [
              ffmpeg, "-v", "error", "-i", a.path, "-i", b.path, "-filter_complex", graph, "-frames:v",
              "\(Self.transitionFrames)",
            ] + theirs.map { $0 == "OUT.mp4" ? out : $0 }
          let (seconds, rss) = try Self.time(command)
          rows.append(
            VideoRow(
              workload: name, tool: "ffmpeg xfade \(twin)", sink: sink, width: w, height: h, seconds: seconds,
              framesPerSecond: Double(Self.transitionFrames) / seconds, peakRSSMiB: rss,
              command: command.map { $0.contains(" ") || $0.contains(";") ? "'\($0)'" : $0 }.joined(separator: " ")))
          print(Self.describe(rows.last!))
        }
        try? FileManager.default.removeItem(atPath: out)
      }
    }
    return rows
  }

  // MARK: - Analysis

  /// Per workload and backend, the slope of log(frames/s) against log(pixels) across the sizes
  /// (−1: time grows with the pixel count), and the 500-layer / 50-layer time ratio per size.
  static func scaling(_ rows: [FrameRow]) -> [String: Double] {
    var out: [String: Double] = [:]
    let groups = Dictionary(grouping: rows) { "\($0.workload) \($0.backend)" }
    for (key, group) in groups where Set(group.map(\.width)).count > 1 {
      let xs = group.map { log(Double($0.width * $0.height)) }
      let ys = group.map { log($0.framesPerSecond) }
      let mx = xs.reduce(0, +) / Double(xs.count)
      let my = ys.reduce(0, +) / Double(ys.count)
      let num = zip(xs, ys).map { ($0 - mx) * ($1 - my) }.reduce(0, +)
      let den = xs.map { ($0 - mx) * ($0 - mx) }.reduce(0, +)
      if den > 0 { out["fps vs pixels slope: \(key)"] = num / den }
    }
    for r in rows where r.workload == "500 layers" {
      if let small = rows.first(where: {
        $0.workload == "50 layers" && $0.backend == r.backend && $0.width == r.width
      }) {
        out["500/50 layers time ratio: \(r.backend) \(r.width)x\(r.height)"] = r.medianMs / small.medianMs
      }
    }
    return out
  }

  static func recommend(_ frames: [FrameRow], _ videos: [VideoRow]) -> [String] {
    var lines: [String] = []
    let groups = Dictionary(grouping: frames) { "\($0.workload) \($0.width)x\($0.height)" }
    for key in groups.keys.sorted() {
      let rows = groups[key]!
      guard let best = rows.min(by: { $0.medianMs < $1.medianMs }) else { continue }
      let others = rows.filter { $0.backend != best.backend }
      let margin = others.map { String(format: " (%.2f× the %@)", $0.medianMs / best.medianMs, $0.backend) }
        .joined()
      lines.append("\(key): \(best.backend)\(margin)")
    }
    return lines
  }

  // MARK: - Output

  static func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : s + String(repeating: " ", count: n - s.count) }

  static func describe(_ r: FrameRow) -> String {
    pad(r.workload, 19) + " " + r.backend + " " + pad("\(r.width)×\(r.height)", 10)
      + String(
        format: "%7.1f fps  median %7.2f ms  p95 %7.2f  build %6.2f  render %7.2f", r.framesPerSecond, r.medianMs,
        r.p95Ms, r.buildMs, r.renderMs)
      + (r.readbackMs.map { String(format: " (GPU wait %.2f, readback %.2f)", r.drawWaitMs ?? 0, $0) } ?? "")
      + String(format: "  yuv %6.2f  rss ≤ %.0f MiB", r.convertMs, r.peakRSSMiB)
  }

  static func describe(_ r: VideoRow) -> String {
    pad(r.workload, 15) + " " + pad(r.tool, 23) + " " + pad(r.sink, 18) + " " + pad("\(r.width)×\(r.height)", 10)
      + String(format: "%7.1f fps  %6.2f s", r.framesPerSecond, r.seconds)
      + (r.peakRSSMiB.map { String(format: "  rss %.0f MiB", $0) } ?? "")
  }

  /// The table: frames in process, then the end-to-end runs with the LayerKit / FFmpeg ratio.
  static func table(_ report: SuiteReport) -> String {
    var out =
      "machine: " + report.machine.keys.sorted().map { "\($0) = \(report.machine[$0]!)" }.joined(separator: "; ")
    out += "\n\nframes in process (median over frames after a warm-up; ms a frame)\n"
    out += report.frames.map(describe).joined(separator: "\n")
    if !report.videos.isEmpty {
      out += "\n\nend to end, 181 frames of a 3 s 60 fps transition (ratio: frames/s ÷ FFmpeg's on the same row)\n"
      for r in report.videos {
        let ffmpeg = report.videos.first {
          $0.tool.hasPrefix("ffmpeg") && $0.workload == r.workload && $0.sink == r.sink && $0.width == r.width
        }
        let ratio = ffmpeg.map { String(format: "  × %.2f", r.framesPerSecond / $0.framesPerSecond) } ?? ""
        out += describe(r) + (r.tool.hasPrefix("ffmpeg") ? "" : ratio) + "\n"
      }
      out +=
        "\nFFmpeg commands:\n"
        + Set(report.videos.filter { $0.tool.hasPrefix("ffmpeg") }.map(\.command)).sorted()
        .joined(separator: "\n")
    }
    if !report.clips.isEmpty { out += clipTable(report.clips) }
    out +=
      "\n\nscaling\n"
      + report.scaling.keys.sorted().map { String(format: "%@: %.2f", $0, report.scaling[$0]!) }
      .joined(separator: "\n")
    out +=
      "\n\nrecommendation (faster backend, by workload and size)\n" + report.recommendations.joined(separator: "\n")
    return out
  }

  // MARK: - Helpers

  static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

  static func median(_ v: [Double]) -> Double { percentile(v, 0.5) }

  static func percentile(_ v: [Double], _ q: Double) -> Double {
    let s = v.sorted()
    return s.isEmpty ? 0 : s[min(s.count - 1, Int((Double(s.count - 1) * q).rounded()))]
  }

  /// This process's peak resident memory so far.
  static func peakRSSMiB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024  // kilobytes on Linux
  }

  static let timeProgram = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

  /// Runs a command (its output to /dev/null) and returns its wall time in seconds and, through
  /// /usr/bin/time when it is installed, its peak resident memory.
  static func time(_ command: [String]) throws -> (Double, Double?) {
    let report = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-bench-rss-\(getpid())")
    defer { try? FileManager.default.removeItem(at: report) }
    let wrapped = timeProgram.map { [$0, "-f", "%M", "-o", report.path] + command } ?? command
    let start = now()
    try shell(wrapped)
    let seconds = (now() - start) / 1000
    let kilobytes = (try? String(contentsOf: report, encoding: .utf8))?.split(whereSeparator: \.isNewline).last
      .flatMap { Double($0) }
    return (seconds, kilobytes.map { $0 / 1024 })
  }

  static func shell(_ command: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: command[0])
    process.arguments = Array(command.dropFirst())
    process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
    // Woken when the child ends: Foundation's waitUntilExit polls every 50 ms on Linux, which
    // rounded every timed command up to the next 50 ms.
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    try process.run()
    ended.wait()
    guard process.terminationStatus == 0 else {
      throw SuiteError.failed(command.joined(separator: " "), process.terminationStatus)
    }
  }
}

enum SuiteError: Error, CustomStringConvertible {
  case failed(String, Int32)
  case missing(String)

  var description: String {
    switch self {
    case .failed(let command, let status): "\(command) exited with \(status)"
    case .missing(let what): "missing: \(what)"
    }
  }
}
