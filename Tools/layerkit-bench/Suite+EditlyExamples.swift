// layerkit-bench --editly-examples: the cost of every editly layer kind and default, each in an
// edit file of the bench's own (one kind a file, editly's form), rendered by `layerkit edit` to
// Y4M (the frames alone, no encoder) on each backend at each size, beside the ffmpeg filtergraph
// that does the same work in the same run where ffmpeg has one (each on its fastest path: a
// still decoded, fitted, converted and — for a still's blurred bars — blurred once, then looped
// in memory), with the ratio and the pipeline stage that took longest (`layerkit … --stats`).

import Foundation
import LayerKitMedia
import LayerKitVideo

/// One example at one size: `layerkit edit` on each renderer, then ffmpeg's filtergraph.
struct EditlyExampleRow: Codable {
  var example: String
  var width: Int
  var height: Int
  /// Frames asked for (every run's, LayerKit's as its stats say).
  var frames: Int
  var runs: [ClipRow]
  /// Why a run is missing (a failed command), by tool.
  var failures: [String: String] = [:]

  func run(_ tool: String) -> ClipRow? { runs.first { $0.tool == tool } }

  /// Frames a second of a run, wall time (the process's start and end included, as a user waits).
  func framesPerSecond(_ tool: String) -> Double? {
    guard let r = run(tool), r.seconds > 0 else { return nil }
    return Double(r.stats?.frames ?? frames) / r.seconds
  }

  /// LayerKit's frames a second ÷ ffmpeg's (above 1: LayerKit is faster).
  func ratio(_ tool: String) -> Double? {
    guard let ours = framesPerSecond(tool), let theirs = framesPerSecond("ffmpeg"), theirs > 0 else { return nil }
    return ours / theirs
  }

  /// The stage of a LayerKit run that took longest, and its seconds: one of the pipeline's, or
  /// `start`, the command's time outside the pipeline (reading the edit, probing the media,
  /// starting the renderer, and ending).
  func slowestStage(_ tool: String) -> (String, Double)? {
    guard let r = run(tool), let stats = r.stats else { return nil }
    let s = stats.stages
    let stages = [
      ("draw", s.draw), ("decode wait", s.decodeWait), ("prepare", s.prepare), ("write", s.write),
      ("finish", s.finish), ("start", max(0, r.seconds - stats.seconds)),
    ]
    return stages.max { $0.1 < $1.1 }
  }
}

extension Suite {
  /// The examples' media, made by ffmpeg from its test sources: a square still (editly's
  /// contain-blur shows bars at every size), a 16:9 still, a 1280×720 clip.
  struct EditlyExampleMedia {
    var square: String
    var wide: String
    var clip: String
  }

  static let editlyExampleRate = 30
  static let editlyExampleFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

  func makeEditlyExampleMedia(ffmpeg: String, seconds: Double, in dir: URL) throws -> EditlyExampleMedia {
    let square = dir.appendingPathComponent("square.jpg").path
    let wide = dir.appendingPathComponent("wide.jpg").path
    let clip = dir.appendingPathComponent("clip.mp4").path
    try Self.shell([
      ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "mandelbrot=size=1080x1080", "-frames:v", "1", square,
    ])
    try Self.shell([
      ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1920x1080", "-frames:v", "1", wide,
    ])
    try Self.shell([
      ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=\(Self.editlyExampleRate)", "-t",
      "\(seconds.rounded(.up) + 1)", "-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", clip,
    ])
    return EditlyExampleMedia(square: square, wide: wide, clip: clip)
  }

  /// One example: its name, its clips (JSON5), whether it needs the GPU, and ffmpeg's inputs and
  /// filtergraph doing the same work (nil where ffmpeg has none).
  struct EditlyExample {
    var name: String
    var clips: String
    var gpuOnly = false
    var ffmpeg: [String]?
  }

  /// Every example at one size, `frames` frames at 30 fps.
  static func editlyExamples(width w: Int, height h: Int, frames: Int, media: EditlyExampleMedia) -> [EditlyExample] {
    let rate = editlyExampleRate
    let d = Double(frames) / Double(rate)
    let m = min(w, h)
    let size = "\(w)x\(h)"
    let font = editlyExampleFont
    // editly's blur of a contain-blur background: a box of radius ⌊min(100, longer side / 10)⌋.
    let radius = min(100, max(w, h) / 10)
    func even(_ v: Double) -> Int { max(2, Int((v / 2).rounded()) * 2) }
    /// The picture's size fitted whole (contain) or filling the frame (cover).
    func fit(_ iw: Int, _ ih: Int, cover: Bool) -> (Int, Int) {
      let s =
        cover
        ? max(Double(w) / Double(iw), Double(h) / Double(ih)) : min(Double(w) / Double(iw), Double(h) / Double(ih))
      return (even(Double(iw) * s), even(Double(ih) * s))
    }
    /// A still held for `count` frames: decoded once, converted once, looped in memory.
    func held(_ count: Int) -> String { "format=yuv420p,loop=loop=\(count - 1):size=1,setpts=N/\(rate)/TB" }
    func coverStill(_ input: Int, _ iw: Int, _ ih: Int, _ count: Int) -> String {
      let (cw, ch) = fit(iw, ih, cover: true)
      return "[\(input):v]scale=\(cw):\(ch),crop=\(w):\(h),\(held(count))"
    }
    /// ffmpeg's zoom in by 0.1 over the clip, about the centre, of a picture of that size.
    func zoom(_ pw: Int, _ ph: Int) -> String {
      "zoompan=z='1+0.1*on/\(frames)':x='iw/2-iw/zoom/2':y='ih/2-ih/zoom/2':d=1:s=\(pw)x\(ph):fps=\(rate)"
    }
    func text(_ s: String, size: String, x: String, y: String, alpha: String = "1") -> String {
      "drawtext=fontfile=\(font):text='\(s)':fontcolor=white:fontsize='\(size)':x='\(x)':y='\(y)':alpha='\(alpha)'"
    }
    let black = "color=c=black:s=\(size):r=\(rate)"
    let still = "resizeMode: 'cover', zoomDirection: null"
    var out: [EditlyExample] = []

    // An image with editly's defaults: contain-blur, zoom in by 0.1. ffmpeg: the bars scaled and
    // blurred once, the picture fitted once and zoomed each frame, overlaid.
    let (fw, fh) = fit(1080, 1080, cover: false)
    out.append(
      EditlyExample(
        name: "image: contain-blur, zoom in (defaults)",
        clips: "[{ layers: [{ type: 'image', path: '\(media.square)' }] }]",
        ffmpeg: [
          "-i", media.square, "-filter_complex",
          "[0:v]split[a][b];[a]scale=\(w):\(h),format=yuv420p,boxblur=\(radius),\(held(frames))[bg];"
            + "[b]scale=\(fw):\(fh),\(held(frames)),\(zoom(fw, fh))[fg];[bg][fg]overlay=(W-w)/2:(H-h)/2",
        ]))
    // The same image filling the frame: Ken Burns (cover, zoom in).
    out.append(
      EditlyExample(
        name: "Ken Burns: image cover, zoom in",
        clips: "[{ layers: [{ type: 'image', path: '\(media.square)', resizeMode: 'cover', zoomDirection: 'in' }] }]",
        ffmpeg: ["-i", media.square, "-filter_complex", coverStill(0, 1080, 1080, frames) + "," + zoom(w, h)]))
    // A 1280×720 clip with editly's default contain-blur: its frame blurred behind it, each frame.
    let (vw, vh) = fit(1280, 720, cover: false)
    let videoGraph =
      vw == w && vh == h
      ? "[0:v]scale=\(w):\(h)"
      : "[0:v]split[a][b];[a]scale=\(w):\(h),boxblur=\(radius)[bg];[b]scale=\(vw):\(vh)[fg];[bg][fg]overlay=(W-w)/2:(H-h)/2"
    out.append(
      EditlyExample(
        name: "video: contain-blur (1280×720 clip)",
        clips: "[{ layers: [{ type: 'video', path: '\(media.clip)', cutFrom: 0, cutTo: \(d) }] }]",
        ffmpeg: ["-i", media.clip, "-filter_complex", videoGraph]))
    // Text over black (a clip whose first layer is text is black under it, as editly's canvas).
    out.append(
      EditlyExample(
        name: "title (grows 1 → 1.2)", clips: "[{ layers: [{ type: 'title', text: 'LayerKit' }] }]",
        ffmpeg: [
          "-f", "lavfi", "-i",
          black + ","
            + text(
              "LayerKit", size: "round(\(Double(m) * 0.1)*(1+0.2*t/\(d)))", x: "(w-text_w)/2", y: "(h-text_h)/2"),
        ]))
    let band = (even(Double(w) * 0.75), even(Double(m) * 0.1))
    out.append(
      EditlyExample(
        name: "news-title", clips: "[{ layers: [{ type: 'news-title', text: 'Breaking news from LayerKit' }] }]",
        ffmpeg: [
          "-f", "lavfi", "-i", black, "-f", "lavfi", "-i", "color=c=0xd02a42:s=\(band.0)x\(band.1):r=\(rate)",
          "-filter_complex",
          "[0:v][1:v]overlay=x='-w+w*min(1,3*t/\(d))':y=\(Int(Double(h) * 0.08)),"
            + text(
              "Breaking news from LayerKit", size: "\(Int(Double(m) * 0.05))",
              x: "\(Double(m) * 0.07)-w*0.1*(1-min(1,4*t/\(d)))", y: "\(Double(h) * 0.08 + Double(m) * 0.025)",
              alpha: "min(1,4*t/\(d))"),
        ]))
    out.append(
      EditlyExample(
        name: "subtitle",
        clips: "[{ layers: [{ type: 'subtitle', text: 'A subtitle at the foot of the frame, over a band' }] }]",
        ffmpeg: [
          "-f", "lavfi", "-i",
          black + ",drawbox=x=0:y=\(h - band.1):w=\(w):h=\(band.1):color=black@0.3:t=fill,"
            + text(
              "A subtitle at the foot of the frame, over a band", size: "\(Int(Double(m) * 0.05))",
              x: "\(Double(m) * 0.05)", y: "h-text_h-\(Double(m) * 0.05)-\(Double(m) * 0.05)*(1-min(1,5*t/\(d)))",
              alpha: "min(1,5*t/\(d))"),
        ]))
    out.append(
      EditlyExample(
        name: "slide-in-text", clips: "[{ layers: [{ type: 'slide-in-text', text: 'Slide in' }] }]",
        ffmpeg: [
          "-f", "lavfi", "-i",
          black + ","
            + text(
              "Slide in", size: "\(Int((Double(w) * 0.05).rounded()))",
              x: "(w-text_w)/2-0.1*w*(1-clip((t/\(d)-0.1)/0.2,0,1))", y: "(h-text_h)/2",
              alpha: "1-clip((t/\(d)-0.8)/0.1,0,1)"),
        ]))
    // Colours. ffmpeg 5.1's gradients source draws linear ones only (radial came in 6.1).
    out.append(
      EditlyExample(
        name: "linear-gradient", clips: "[{ layers: [{ type: 'linear-gradient', colors: ['#02aab0', '#00cdac'] }] }]",
        ffmpeg: [
          "-f", "lavfi", "-i", "gradients=s=\(size):r=\(rate):c0=0x02aab0:c1=0x00cdac:speed=0.01,format=yuv420p",
        ]))
    out.append(
      EditlyExample(
        name: "radial-gradient", clips: "[{ layers: [{ type: 'radial-gradient', colors: ['#282850', '#000000'] }] }]",
        ffmpeg: nil))
    out.append(
      EditlyExample(
        name: "fill-color", clips: "[{ layers: [{ type: 'fill-color', color: '#ff6600' }] }]",
        ffmpeg: ["-f", "lavfi", "-i", "color=c=0xff6600:s=\(size):r=\(rate),format=yuv420p"]))
    // Picture in picture: the clip in a 16:9 box 0.4 of the width at the top right, over a
    // photo (cover, still).
    let pip = (even(Double(w) * 0.4), even(Double(w) * 0.4 * 9 / 16))
    let (left, top) = (Int(Double(w) * 0.55), Int(Double(h) * 0.05))
    out.append(
      EditlyExample(
        name: "pip: a clip placed small over a photo",
        clips: "[{ layers: [{ type: 'image', path: '\(media.wide)', \(still) }, "
          + "{ type: 'video', path: '\(media.clip)', cutFrom: 0, cutTo: \(d), resizeMode: 'cover', "
          + "width: \(Double(pip.0) / Double(w)), height: \(Double(pip.1) / Double(h)), "
          + "left: \(Double(left) / Double(w)), top: \(Double(top) / Double(h)) }] }]",
        ffmpeg: [
          "-i", media.wide, "-i", media.clip, "-filter_complex",
          coverStill(0, 1920, 1080, frames) + "[bg];[1:v]scale=\(pip.0):\(pip.1)[p];[bg][p]overlay=\(left):\(top)",
        ]))
    // Two photos (cover, still), each 2/3 of the row's time, the transition half of each: the
    // row's frames, a third of them in the transition (editly's longest).
    let c = d * 2 / 3
    let held = Int((c * Double(rate)).rounded())
    let transitions: [(String, String, String, Bool)] = [
      ("transition: fade, two photos", "fade", "fade", false),
      ("transition: directional-left, two photos", "directional-left", "slideleft", false),
      (
        "transition: circle_open.glsl (gl), two photos",
        examples.appendingPathComponent("transitions/circle_open.glsl").path,
        "circleopen", true
      ),
    ]
    for (name, transition, xfade, gpuOnly) in transitions {
      out.append(
        EditlyExample(
          name: name,
          clips: "[{ duration: \(c), transition: { name: '\(transition)', duration: \(c / 2) }, "
            + "layers: [{ type: 'image', path: '\(media.square)', \(still) }] }, "
            + "{ duration: \(c), layers: [{ type: 'image', path: '\(media.wide)', \(still) }] }]",
          gpuOnly: gpuOnly,
          ffmpeg: [
            "-i", media.square, "-i", media.wide, "-filter_complex",
            coverStill(0, 1080, 1080, held) + "[a];" + coverStill(1, 1920, 1080, held) + "[b];"
              + "[a][b]xfade=transition=\(xfade):duration=\(c / 2):offset=\(c / 2)",
          ]))
    }
    return out
  }

  /// The edit file of an example.
  static func editlySpec(_ example: EditlyExample, width: Int, height: Int, frames: Int) -> String {
    """
    // layerkit-bench --editly-examples: \(example.name)
    {
      width: \(width), height: \(height), fps: \(editlyExampleRate),
      defaults: { duration: \(Double(frames) / Double(editlyExampleRate)), transition: null,
                  layer: { fontPath: '\(editlyExampleFont)' } },
      clips: \(example.clips),
    }
    """
  }

  /// Every example (those `only` selects) at every size, `frames` frames each.
  func editlyExampleRows(frames: Int) throws -> [EditlyExampleRow] {
    let layerkit = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("layerkit").path
    guard FileManager.default.isExecutableFile(atPath: layerkit) else {
      throw SuiteError.missing("the layerkit binary beside layerkit-bench (swift build -c release --product layerkit)")
    }
    guard let ffmpegPath = FFmpeg.locate("ffmpeg") else { throw SuiteError.missing("ffmpeg, which makes the media") }
    let ffmpeg = withFFmpeg ? ffmpegPath : nil
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-bench-\(getpid())")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    let media = try makeEditlyExampleMedia(
      ffmpeg: ffmpegPath, seconds: Double(frames) / Double(Self.editlyExampleRate), in: work)
    let stats = work.appendingPathComponent("stats.json")
    var rows: [EditlyExampleRow] = []
    for (w, h) in sizes {
      for example in Self.editlyExamples(width: w, height: h, frames: frames, media: media) where selects(example.name)
      {
        var row = EditlyExampleRow(example: example.name, width: w, height: h, frames: frames, runs: [])
        let spec = work.appendingPathComponent("example.json5")
        try Self.editlySpec(example, width: w, height: h, frames: frames).write(
          to: spec, atomically: true, encoding: .utf8)
        for renderer in renderers where !(example.gpuOnly && renderer == "cpu") {
          // Y4M to standard output, which the bench discards: the frames alone.
          let command = [
            layerkit, "edit", spec.path, "-o", "-", "--renderer", renderer, "--quiet", "--stats", stats.path,
          ]
          do {
            try? FileManager.default.removeItem(at: stats)
            let (seconds, _) = try Self.time(command)
            let figures = try? JSONDecoder().decode(ClipStats.self, from: Data(contentsOf: stats))
            row.runs.append(
              ClipRow(
                workload: example.name, tool: "layerkit \(renderer)", seconds: seconds, stats: figures,
                command: command.dropLast(2).joined(separator: " ")))
          } catch {
            row.failures["layerkit \(renderer)"] = "\(error)"
          }
        }
        if let ffmpeg, let theirs = example.ffmpeg {
          let command =
            [ffmpeg, "-v", "error"] + theirs + [
              "-frames:v", "\(frames)", "-pix_fmt", "yuv420p", "-f", "yuv4mpegpipe", "-",
            ]
          do {
            let (seconds, _) = try Self.time(command)
            row.runs.append(
              ClipRow(
                workload: example.name, tool: "ffmpeg", seconds: seconds, stats: nil,
                command: command.map { $0.contains(" ") || $0.contains(";") ? "\"\($0)\"" : $0 }.joined(
                  separator: " ")))
          } catch {
            row.failures["ffmpeg"] = "\(error)"
          }
        }
        print(Self.describe(row, renderers: renderers))
        rows.append(row)
      }
    }
    return rows
  }

  static func describe(_ row: EditlyExampleRow, renderers: [String]) -> String {
    var line = pad(row.example, 46) + " " + pad("\(row.width)×\(row.height)", 10)
    for renderer in renderers {
      let tool = "layerkit \(renderer)"
      if let fps = row.framesPerSecond(tool) {
        line += String(format: "  %@ %6.1f fps", renderer, fps)
        if let (stage, seconds) = row.slowestStage(tool) { line += String(format: " (%@ %.2f s)", stage, seconds) }
      } else if let failure = row.failures[tool] {
        line += "  \(renderer) failed: \(failure)"
      }
    }
    if let fps = row.framesPerSecond("ffmpeg") { line += String(format: "  ffmpeg %6.1f fps", fps) }
    if let failure = row.failures["ffmpeg"] { line += "  ffmpeg failed: \(failure)" }
    return line
  }

  /// The rows as a Markdown table, the rows short of the targets, and ffmpeg's commands.
  static func editlyExampleTable(_ rows: [EditlyExampleRow], renderers: [String]) -> String {
    let label = ["cpu": "CPU", "gpu": "GPU"]
    var out =
      "editly examples → Y4M (wall time of each command, one run each; ratio: LayerKit's frames/s ÷ ffmpeg's, "
      + "above 1 LayerKit is faster; stage: the pipeline's longest, seconds; prepare is summed over its workers)\n\n"
    var header = "| example | size | frames |"
    var rule = "|---|---|---|"
    for r in renderers {
      header += " \(label[r] ?? r) fps |"
      rule += "---|"
    }
    header += " ffmpeg fps |"
    rule += "---|"
    for r in renderers {
      header += " \(label[r] ?? r) ÷ ffmpeg |"
      rule += "---|"
    }
    for r in renderers {
      header += " slowest stage (\(label[r] ?? r)) |"
      rule += "---|"
    }
    out += header + "\n" + rule + "\n"
    func cell(_ v: Double?, _ format: String) -> String { v.map { String(format: format, $0) } ?? "—" }
    for row in rows {
      let frames = row.runs.compactMap { $0.stats?.frames }.first ?? row.frames
      var line = "| \(row.example) | \(row.width)×\(row.height) | \(frames) |"
      for r in renderers { line += " \(cell(row.framesPerSecond("layerkit \(r)"), "%.1f")) |" }
      line += " \(cell(row.framesPerSecond("ffmpeg"), "%.1f")) |"
      for r in renderers { line += " \(cell(row.ratio("layerkit \(r)"), "× %.2f")) |" }
      for r in renderers {
        let stage = row.slowestStage("layerkit \(r)").map { String(format: "%@ %.2f", $0.0, $0.1) } ?? "—"
        let occupancy = row.run("layerkit \(r)")?.stats.map {
          String(format: ", %.0f %% of the cores", $0.occupancy * 100)
        }
        line += " \(stage)\(occupancy ?? "") |"
      }
      out += line + "\n"
    }
    let portrait = rows.filter { $0.width == 1080 && $0.height == 1920 }
    let slow = portrait.filter { ($0.framesPerSecond("layerkit cpu") ?? .infinity) < 25 }
    if renderers.contains("cpu"), !portrait.isEmpty {
      out +=
        "\nbelow 25 frames/s at 1080×1920 on the CPU backend: "
        + (slow.isEmpty
          ? "none"
          : slow.map { String(format: "%@ (%.1f)", $0.example, $0.framesPerSecond("layerkit cpu")!) }.joined(
            separator: "; ")) + "\n"
    }
    for r in renderers {
      let behind = rows.filter { ($0.ratio("layerkit \(r)") ?? .infinity) < 1 }
      out +=
        "slower than ffmpeg's filtergraph on the \(label[r] ?? r) backend: "
        + (behind.isEmpty
          ? "none"
          : behind.map {
            String(format: "%@ %d×%d (× %.2f)", $0.example, $0.width, $0.height, $0.ratio("layerkit \(r)")!)
          }
          .joined(separator: "; ")) + "\n"
    }
    let failed = rows.filter { !$0.failures.isEmpty }
    if !failed.isEmpty {
      out +=
        "\nfailed:\n"
        + failed.map { row in
          "\(row.example) \(row.width)×\(row.height): "
            + row.failures.keys.sorted().map { "\($0): \(row.failures[$0]!)" }.joined(separator: "; ")
        }.joined(separator: "\n") + "\n"
    }
    let commands = rows.compactMap { $0.run("ffmpeg")?.command }
    if !commands.isEmpty {
      out +=
        "\nffmpeg commands (the media are made by the bench in a folder it removes):\n"
        + commands.joined(separator: "\n") + "\n"
    }
    return out
  }
}
