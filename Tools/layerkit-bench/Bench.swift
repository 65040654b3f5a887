// layerkit-bench: times LayerKit's backends side by side on the same scene in one run, so the
// figures are comparable on a shared, noisy machine: iterations alternate between backends, and
// the report gives medians (and the spread) rather than means.
import ArgumentParser
import Foundation
import LayerKit
import LayerKitGL
import LayerKitReference
import LayerKitSamples

@main
struct Bench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layerkit-bench",
    abstract: "Time one frame of the sample scene on the GPU and CPU backends, side by side.")

  @Option(help: "Target size, WIDTHxHEIGHT.") var size: String = "1920x1080"
  @Option(help: "Timed frames per backend (after one untimed warm-up frame).") var iterations: Int = 15
  @Option(help: "gpu, cpu or both.") var renderer: String = "both"
  @Option(
    help:
      "sample (the 10-layer scene), effects (it with a 20-pt shadow, a 10-pt blur, a background blur), backdrop (one full-target layer), or a transition effect's name (sample → effects at progress 0.5)."
  )
  var scene: String = "sample"

  @Flag(
    help:
      "Run the suite instead: fade, push, pageCurlWithShadow, a gl-transitions file, 50 and 500 animated layers, at each --sizes, both backends, with a stage breakdown; and 181-frame transitions end to end against FFmpeg's xfade (Y4M and x264 MP4) at --video-sizes."
  )
  var suite = false
  @Option(
    help:
      "Suite: target sizes, comma-separated (1280x720,1920x1080; --editly-examples: 720x1280,1080x1920,1920x1080)."
  )
  var sizes: String?
  @Option(help: "Suite: sizes of the end-to-end runs against FFmpeg (none: skip them).") var videoSizes: String =
    "1920x1080"
  @Option(
    help:
      "Suite: timed frames per row (after a quarter of a second of warm-up frames; 9). --editly-examples: frames each example renders (60, at 30 fps)."
  )
  var frames: Int?
  @Flag(help: "Suite: leave FFmpeg out even when it is installed.") var noFfmpeg = false
  @Flag(help: "Suite: leave out the clip workloads (concat, clip frames alone, slideshow, 4K fitted).")
  var noClips = false
  @Option(
    help:
      "Suite: only the rows (frames, clips, the edit) whose workload contains this text or one of several, comma-separated (\"shape\", \"fade,push\", \"edit\", …)."
  )
  var only: String?
  @Option(help: "Suite: also write the report as JSON to this file.") var json: String?
  @Option(help: "Suite: also write a chart (SVG) to this file.") var plot: String?
  @Flag(
    help:
      "Run the editly examples instead: one edit file of the bench's own per editly layer kind and default (image contain-blur and zoom, Ken Burns, video contain-blur, title, news-title, subtitle, slide-in-text, gradients, fill, pip, transitions) rendered by `layerkit edit` to Y4M at each --sizes on each --renderer, beside the ffmpeg filtergraph doing the same work, with the ratio and each row's slowest pipeline stage; --only and --frames apply."
  )
  var editlyExamples = false
  @Flag(
    help:
      "Run the soak instead: the example scenes played in turn for --soak-frames frames through the video pipeline (Y4M to /dev/null) on each --renderer, reporting resident memory and the GPU's live GL objects at frame 100 and every tenth."
  )
  var soak = false
  @Option(
    help:
      "Run the server bench instead: this many short edits queued at once on layerkit-server at --renders 1 and 2, against layerkit edit one after another (renders a minute, time to the first byte of each video). 0: not run."
  )
  var server = 0
  @Option(help: "Soak: frames to render.") var soakFrames: Int = 10_000
  @Option(help: "Soak: the scene files played in turn (default: examples/scenes layer-kinds, text, composition).")
  var soakScenes: [String] = []

  func validate() throws {
    guard iterations > 0 else { throw ValidationError("--iterations must be positive") }
    guard ["gpu", "cpu", "both"].contains(renderer) else { throw ValidationError("--renderer: gpu, cpu or both") }
    guard parsedSize != nil else { throw ValidationError("--size must look like 1920x1080") }
    guard ["sample", "effects", "backdrop"].contains(scene) || TransitionEffects.all[scene] != nil else {
      throw ValidationError("--scene: sample, effects, backdrop, or a transition effect from `layerkit list`")
    }
  }

  /// --sizes parsed: even WIDTHxHEIGHT pairs.
  func parsedSizes(default fallback: String) throws -> [(Int, Int)] {
    let parsed = (sizes ?? fallback).split(separator: ",").map {
      $0.lowercased().split(separator: "x").compactMap { Int($0) }
    }
    guard !parsed.isEmpty,
      parsed.allSatisfy({ $0.count == 2 && $0[0] > 0 && $0[1] > 0 && $0[0] % 2 == 0 && $0[1] % 2 == 0 })
    else { throw ValidationError("--sizes: even sizes like 1280x720,1920x1080") }
    return parsed.map { ($0[0], $0[1]) }
  }

  func runEditlyExamples() throws {
    let count = frames ?? 60
    guard count >= 2 else { throw ValidationError("--frames: at least 2") }
    let suite = Suite(
      sizes: try parsedSizes(default: "720x1280,1080x1920,1920x1080"), framesPerRow: count,
      renderers: renderer == "both" ? ["cpu", "gpu"] : [renderer], withFFmpeg: !noFfmpeg, videoSizes: [],
      withClips: false, only: only)
    let rows = try suite.editlyExampleRows(frames: count)
    print("\n" + Suite.editlyExampleTable(rows, renderers: suite.renderers))
    if let json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(rows).write(to: URL(fileURLWithPath: json))
      print("json: \(json)")
    }
  }

  func runSuite() throws {
    let suite = Suite(
      sizes: try parsedSizes(default: "1280x720,1920x1080"), framesPerRow: frames ?? 9,
      renderers: renderer == "both" ? ["gpu", "cpu"] : [renderer], withFFmpeg: !noFfmpeg,
      videoSizes: Set(videoSizes.split(separator: ",").map { $0.lowercased() }), withClips: !noClips, only: only)
    let report = try suite.run()
    print("\n" + Suite.table(report))
    if let json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(report).write(to: URL(fileURLWithPath: json))
      print("json: \(json)")
    }
    if let plot {
      try Plot.svg(report).write(toFile: plot, atomically: true, encoding: .utf8)
      print("chart: \(plot)")
    }
  }

  var parsedSize: (Int, Int)? {
    let p = size.lowercased().split(separator: "x").compactMap { Int($0) }
    return p.count == 2 && p[0] > 0 && p[1] > 0 ? (p[0], p[1]) : nil
  }

  func runSoak() throws {
    guard soakFrames > 0 else { throw ValidationError("--soak-frames must be positive") }
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples/scenes")
    let scenes =
      soakScenes.isEmpty
      ? ["layer-kinds.json", "text.json", "composition.json"].map { examples.appendingPathComponent($0) }
      : soakScenes.map { URL(fileURLWithPath: $0) }
    let soak = Soak(frames: soakFrames, renderers: renderer == "both" ? ["gpu", "cpu"] : [renderer], scenes: scenes)
    let results = try soak.run()
    print(Soak.table(results))
    if let json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(results).write(to: URL(fileURLWithPath: json))
      print("json: \(json)")
    }
  }

  func run() throws {
    if suite { return try runSuite() }
    if editlyExamples { return try runEditlyExamples() }
    if soak { return try runSoak() }
    if server > 0 { return try ServerBench(renders: server, renderer: renderer == "both" ? "cpu" : renderer).run() }
    let (w, h) = parsedSize!
    let (dw, dh) = (Double(w), Double(h))
    // Building the list is part of a frame: flatten + render + read back.
    let makeList: () throws -> RenderList
    switch scene {
    case "sample":
      let root = try SampleScene.cards(width: dw, height: dh)
      makeList = { try RenderList(layer: root, width: w, height: h) }
    case "effects":
      let root = try SampleScene.effects(width: dw, height: dh)
      makeList = { try RenderList(layer: root, width: w, height: h) }
    case _ where TransitionEffects.all[scene] != nil:
      let from = try SampleScene.cards(width: dw, height: dh)
      let to = try SampleScene.effects(width: dw, height: dh)
      let params: [String: TransitionValue] = scene == "push" ? ["direction": .vec2([1, 0])] : [:]
      makeList = {
        try RenderList(
          transitionFrom: from, to: to, width: w, height: h, effect: scene, parameters: params, progress: 0.5)
      }
    default:
      let root = Layer(frame: Rect(x: 0, y: 0, width: dw, height: dh))
      root.backgroundColor = Color(red: 0.2, green: 0.3, blue: 0.4)
      makeList = { try RenderList(layer: root, width: w, height: h) }
    }
    var backends: [Renderer] = []
    if renderer != "cpu" {
      let gpu = try GLRenderer()
      gpu.keepsContextCurrent = true  // every frame renders on this thread, as in the video commands
      print("gpu: \(gpu.info.renderer)")
      backends.append(gpu)
    }
    if renderer != "gpu" { backends.append(ReferenceRenderer()) }
    let list = try makeList()
    print("scene: \(scene) (\(list.drawCount) draws), \(w)×\(h), \(iterations) frames per backend, interleaved")

    var times: [String: [Double]] = [:]
    for b in backends { _ = try b.render(makeList()) }  // warm-up: uploads, pools
    for _ in 0..<iterations {
      for b in backends {
        let t0 = DispatchTime.now().uptimeNanoseconds
        _ = try b.render(makeList())
        let t1 = DispatchTime.now().uptimeNanoseconds
        times[b.name, default: []].append(Double(t1 - t0) / 1e6)
      }
    }
    for b in backends {
      let s = times[b.name]!.sorted()
      let median = s[s.count / 2]
      print(
        String(
          format: "%@: median %.2f ms  min %.2f ms  p90 %.2f ms  (%.1f frames/s)", b.name, median, s[0],
          s[min(s.count - 1, s.count * 9 / 10)], 1000 / median))
    }
    if let g = times["gpu"]?.sorted(), let c = times["cpu"]?.sorted() {
      print(String(format: "cpu/gpu median ratio: %.2f", c[c.count / 2] / g[g.count / 2]))
    }
  }
}
