// layerkit-bench --suite, the clip workloads: the jobs users bring to ffmpeg-concat, editly and
// xfade — clips joined by a transition (Y4M, and MP4 with sound), clip frames shown alone, a
// slideshow of stills with holds, a 4K clip fitted to 1080p — each run by the `layerkit` binary
// and by the FFmpeg command that does the same job, in the same run, with the ratio. LayerKit's
// rows carry the pipeline's stages (`layerkit … --stats`), so the stage that bounds each is visible.

import Foundation
import LayerKitMedia
import LayerKitVideo

/// One clip workload run end to end by one tool.
struct ClipRow: Codable {
  var workload: String
  var tool: String
  var seconds: Double
  /// LayerKit's pipeline figures (nil for FFmpeg).
  var stats: ClipStats?
  var command: String
}

/// What `layerkit … --stats` writes.
struct ClipStats: Codable {
  var frames: Int
  var seconds: Double
  var occupancy: Double
  var stages: VideoPipeline.Stages
  /// Frames a smart render copied from the clips (nil: every frame encoded).
  var copiedFrames: Int?
  /// Sound packets a smart render copied from the clips (nil: the sound encoded whole).
  var copiedSoundPackets: Int?
}

extension Suite {
  /// The media the clip workloads use, made by ffmpeg from its test sources (untagged H.264, as
  /// ffmpeg and most editors write it; LayerKit takes untagged HD as BT.709).
  struct ClipInputs {
    var a: String
    var b: String
    var big: String
    var stills: [String]
  }

  func makeClipInputs(ffmpeg: String, stills: [URL], in dir: URL) throws -> ClipInputs {
    func clip(_ name: String, _ source: String, size: String, seconds: Int) throws -> String {
      let path = dir.appendingPathComponent(name).path
      try Self.shell([
        ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "\(source)=size=\(size):rate=30", "-f", "lavfi", "-i",
        "sine=frequency=\(source == "testsrc2" ? 440 : 660):sample_rate=48000", "-t", "\(seconds)", "-c:v", "libx264",
        "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", path,
      ])
      return path
    }
    return ClipInputs(
      a: try clip("a.mp4", "testsrc2", size: "1920x1080", seconds: 5),
      b: try clip("b.mp4", "testsrc", size: "1920x1080", seconds: 5),
      big: try clip("big.mp4", "testsrc2", size: "3840x2160", seconds: 3),
      stills: stills.map(\.path) + stills.map(\.path))
  }

  /// Every clip workload, LayerKit (each renderer) then FFmpeg.
  func clipWorkloads(_ inputs: ClipInputs, ffmpeg: String, in dir: URL) throws -> [ClipRow] {
    let layerkit = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("layerkit").path
    guard FileManager.default.isExecutableFile(atPath: layerkit) else { return [] }
    let out = dir.appendingPathComponent("out.mp4").path
    let y4m = ["-f", "yuv4mpegpipe", "-"]
    let x264 = ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p"]
    let xfade = "[0:v][1:v]xfade=transition=fade:duration=0.5:offset=4.5"
    // Slideshow: 4 stills, each alone for 2 s, 0.8 s fades between, 30 fps (10.4 s, 312 frames).
    let hold = 2.0
    let fade = 0.8
    let durations = inputs.stills.indices.map { hold + fade * Double($0 == 0 || $0 == inputs.stills.count - 1 ? 1 : 2) }
    var graph: [String] = []
    for (i, d) in durations.enumerated() {
      graph.append("[\(i):v]format=yuv420p,loop=loop=\(Int((d * 30).rounded()) - 1):size=1,setpts=N/30/TB[s\(i)]")
    }
    var last = "s0"
    var offset = 0.0
    for i in 1..<durations.count {
      offset += durations[i - 1] - fade
      let label = i == durations.count - 1 ? "" : "[x\(i)]"
      graph.append("[\(last)][s\(i)]xfade=transition=fade:duration=\(fade):offset=\(offset)\(label)")
      last = "x\(i)"
    }
    let stillInputs = inputs.stills.flatMap { ["-framerate", "30", "-i", $0] }

    let jobs: [(name: String, ours: [String], theirs: [String])] = [
      (
        "concat 2×5 s 1080p fade → y4m",
        ["concat", inputs.a, inputs.b, "--transition", "fade", "--transition-duration", "0.5", "-o", "-"],
        ["-i", inputs.a, "-i", inputs.b, "-filter_complex", xfade] + y4m
      ),
      (
        "concat 2×5 s 1080p fade → mp4 + sound",
        [
          "concat", inputs.a, inputs.b, "--transition", "fade", "--transition-duration", "0.5", "--preset", "veryfast",
          "--overwrite", "-o", out,
        ],
        ["-i", inputs.a, "-i", inputs.b, "-filter_complex", xfade + "[v];[0:a][1:a]acrossfade=d=0.5[a]"]
          + ["-map", "[v]", "-map", "[a]"] + x264 + ["-c:a", "aac", "-b:a", "192k", "-y", out]
      ),
      ("clip frames alone 5 s 1080p → y4m", ["slideshow", inputs.a, "-o", "-"], ["-i", inputs.a] + y4m),
      (
        "slideshow 4 stills 1080p, holds → y4m",
        ["slideshow"] + inputs.stills + [
          "--hold", "\(hold)", "--transition", "fade", "--transition-duration", "\(fade)", "--fps", "30", "-o", "-",
        ],
        stillInputs + ["-filter_complex", graph.joined(separator: ";")] + y4m
      ),
      (
        "4K clip fitted to 1080p → y4m", ["slideshow", inputs.big, "--size", "1920x1080", "-o", "-"],
        ["-i", inputs.big, "-vf", "scale=1920:1080"] + y4m
      ),
    ]
    var rows: [ClipRow] = []
    for job in jobs where selects(job.name) {
      rows += try runBoth(
        job.name, layerkit: [layerkit] + job.ours, ffmpeg: [ffmpeg, "-v", "error"] + job.theirs, in: dir)
      try? FileManager.default.removeItem(atPath: out)
    }
    return rows
  }

  /// Runs a workload with `layerkit` (its arguments, on each renderer, with its stats) and with
  /// ffmpeg, timing each; the rows, each printed as it comes.
  /// - Parameter again: run LayerKit a second time on the same inputs, its answers about them
  ///   remembered (a smart render's decode checks: `LAYERKIT_CACHE_DIR`, kept in `dir`), as a
  ///   render of the same footage runs after the first.
  func runBoth(_ workload: String, layerkit: [String], ffmpeg: [String], in dir: URL, again: Bool = false) throws
    -> [ClipRow]
  {
    var rows: [ClipRow] = []
    let stats = dir.appendingPathComponent("stats.json")
    let cache = dir.appendingPathComponent("cache-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: cache) }
    for renderer in renderers {
      for run in again ? ["", ", again"] : [""] {
        let command = layerkit + ["--renderer", renderer, "--quiet", "--stats", stats.path]
        let (seconds, _) = try Self.time(["/usr/bin/env", "LAYERKIT_CACHE_DIR=\(cache.path)"] + command)
        let figures = try? JSONDecoder().decode(ClipStats.self, from: Data(contentsOf: stats))
        rows.append(
          ClipRow(
            workload: workload, tool: "layerkit \(renderer)\(run)", seconds: seconds, stats: figures,
            command: command.dropLast(2).joined(separator: " ")))
        print(Self.describe(rows.last!))
      }
    }
    // No ffmpeg command: a workload only LayerKit runs here (the peer's row is its own).
    guard !ffmpeg.isEmpty else { return rows }
    let (seconds, _) = try Self.time(ffmpeg)
    rows.append(
      ClipRow(
        workload: workload, tool: "ffmpeg", seconds: seconds, stats: nil,
        command: ffmpeg.map { $0.contains(" ") || $0.contains(";") ? "'\($0)'" : $0 }.joined(separator: " ")))
    print(Self.describe(rows.last!))
    return rows
  }

  static func describe(_ r: ClipRow) -> String {
    var line = pad(r.workload, 40) + " " + pad(r.tool, 14) + String(format: "%6.2f s", r.seconds)
    if let s = r.stats {
      let g = s.stages
      line += String(
        format:
          "  decode wait %5.2f  draw %5.2f  prepare %5.2f  write %5.2f  finish %5.2f  cpu %5.2f s  occupancy %3.0f %%",
        g.decodeWait, g.draw, g.prepare, g.write, g.finish, g.cpu, s.occupancy * 100)
      if let copied = s.copiedFrames, s.frames > 0 {
        line += String(format: "  copied %.1f %%", 100 * Double(copied) / Double(s.frames))
        line += s.copiedSoundPackets.map { "  sound packets copied \($0)" } ?? ""
      }
    }
    return line
  }

  /// The clip rows with the ratio to FFmpeg (its seconds ÷ ours: above 1, LayerKit is faster).
  static func clipTable(_ rows: [ClipRow]) -> String {
    var out =
      "\n\nclips end to end (seconds, median of one run each; ratio: FFmpeg's seconds ÷ LayerKit's)\n"
    for r in rows {
      let ffmpeg = rows.first { $0.tool == "ffmpeg" && $0.workload == r.workload }
      let moviepy = rows.first { $0.tool == "moviepy" && $0.workload == r.workload }
      var ratio = r.tool == "ffmpeg" ? "" : ffmpeg.map { String(format: "  × %.2f", $0.seconds / r.seconds) } ?? ""
      if r.tool.hasPrefix("layerkit"), let moviepy {
        ratio += String(format: "  × %.2f MoviePy", moviepy.seconds / r.seconds)
      }
      out += describe(r) + ratio + "\n"
    }
    out += "\nFFmpeg commands:\n" + rows.filter { $0.tool == "ffmpeg" }.map(\.command).joined(separator: "\n")
    return out
  }
}
