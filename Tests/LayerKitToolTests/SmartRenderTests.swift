import Foundation
import XCTest

/// Smart rendering held to ffmpeg and to a real player, over a matrix of sources: every output
/// decodes with `ffmpeg -xerror` without a word, has the frames and timestamps of the `--smart
/// off` render and its sound, shows the copied frames bit for bit as the source decodes
/// them (framemd5), the rest within 35 dB PSNR of the `--smart off` render, and plays to its end
/// in chromium (H.264; Debian's chromium plays no HEVC).
final class SmartRenderTests: XCTestCase {
  private static let player = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Player/serve.py").path
  private static let tags = [
    "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
  ]

  private static func x264(_ profile: String, gop: Int, bframes: Int = 3, _ extra: String = "") -> [String] {
    [
      "-c:v", "libx264", "-profile:v", profile, "-pix_fmt", profile == "high10" ? "yuv420p10le" : "yuv420p",
      "-x264-params", "keyint=\(gop):min-keyint=\(gop):scenecut=0:bframes=\(bframes)\(extra)",
    ]
  }

  private static func x265(gop: Int, open: Bool) -> [String] {
    [
      "-c:v", "libx265", "-pix_fmt", "yuv420p",
      "-x265-params", "keyint=\(gop):min-keyint=\(gop):scenecut=0:open-gop=\(open ? 1 : 0):log-level=error",
    ]
  }

  /// A clip of ffmpeg's test pictures and a tone, tagged BT.709 limited range.
  private func clip(
    _ h: ToolHarness, _ name: String, fps: String = "30", seconds: Double = 2, size: String = "128x72",
    video: [String], filter: [String] = []
  ) throws -> String {
    let out = h.path(name)
    let args =
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(size):r=\(fps):d=\(seconds)", "-f", "lavfi", "-i",
        "sine=f=440:d=\(seconds):r=48000",
      ] + filter + video + Self.tags + ["-c:a", "aac", "-shortest", out]
    let r = try ToolHarness.run(ToolHarness.which("ffmpeg"), args)
    XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
    return out
  }

  private struct Case {
    var name: String
    var a: [String]
    var b: [String]
    var fps = "30"
    /// Frames copied, when the case knows exactly (closed GOPs); otherwise only "some" or none.
    var copied: Int?
    var copies = true
    var plays = true
    var bFilter: [String] = []
  }

  func testEveryOutputOfTheMatrixDecodesCleanlyMatchesAndPlays() throws {
    let h = try ToolHarness.make("smart")
    defer { h.cleanUp() }
    let highB = Self.x264("high", gop: 15)
    let cases = [
      // 2 s at 30 fps, GOPs of 0.5 s, a 0.5 s fade: 45 frames of each clip outside the fade's GOPs.
      Case(name: "h264-high-bframes-gop0.5s", a: highB, b: highB, copied: 90),
      Case(
        name: "h264-main-25fps", a: Self.x264("main", gop: 25, bframes: 2), b: Self.x264("main", gop: 25, bframes: 2),
        fps: "25"),
      // Baseline: no B-frames, so every frame may end a copied run; 60 fps, GOPs of 1 s: the first
      // clip up to the fade (90 frames, its second GOP cut short), the second from its second GOP
      // (60).
      Case(
        name: "h264-baseline-60fps", a: Self.x264("baseline", gop: 60, bframes: 0),
        b: Self.x264("baseline", gop: 60, bframes: 0), fps: "60", copied: 150),
      Case(name: "h264-high-29.97fps", a: Self.x264("high", gop: 30), b: Self.x264("high", gop: 30), fps: "30000/1001"),
      // A GOP of 10 s: no whole GOP outside the fade; the first clip is copied from its keyframe
      // up to the last frame before the fade that ends a mini-GOP, the second (no keyframe after
      // the fade) is encoded.
      Case(name: "h264-gop10s", a: Self.x264("high", gop: 300), b: Self.x264("high", gop: 300)),
      // The second clip's GOPs are open: only the first clip's are copied.
      Case(name: "h264-open-gop", a: highB, b: Self.x264("high", gop: 15, ":open-gop=1"), copied: 45),
      Case(name: "h264-high10", a: Self.x264("high10", gop: 15), b: Self.x264("high10", gop: 15), copied: 90),
      // A frame dropped from the second clip: its frames are not evenly spaced; only the first is copied.
      Case(
        name: "h264-vfr", a: highB, b: highB, copied: 45,
        bFilter: ["-vf", "select='not(eq(n\\,20))'", "-fps_mode", "vfr"]),
      Case(
        name: "hevc-closed", a: Self.x265(gop: 15, open: false), b: Self.x265(gop: 15, open: false), copied: 90,
        plays: false),
      // HEVC's open GOPs (CRA with RASL pictures): only the first clip's opening IDR run is
      // copied, up to the last frame before its first CRA that ends a mini-GOP.
      Case(
        name: "hevc-open-gop", a: Self.x265(gop: 15, open: true), b: Self.x265(gop: 15, open: true), plays: false),
    ]
    for c in cases {
      let a = try clip(h, "\(c.name)-a.mp4", fps: c.fps, video: c.a)
      let b = try clip(h, "\(c.name)-b.mp4", fps: c.fps, video: c.b, filter: c.bFilter)
      try check(h, c, a, b)
    }
  }

  private func check(_ h: ToolHarness, _ c: Case, _ a: String, _ b: String) throws {
    let smart = h.path("\(c.name).mp4")
    let plain = h.path("\(c.name)-off.mp4")
    let stats = h.path("\(c.name).json")
    let common = ["concat", a, b, "--transition", "fade", "--transition-duration", "0.5", "--renderer", "cpu"]
    let r = try h.run(common + ["-o", smart, "--stats", stats])
    XCTAssertEqual(r.status, 0, "\(c.name): \(r.stderr)")
    // At the encoded stretches' quality (CRF 18), so the two differ by their encodes alone.
    let off = try h.run(common + ["--smart", "off", "--crf", "18", "--quiet", "-o", plain])
    XCTAssertEqual(off.status, 0, "\(c.name): \(off.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
    let copied = json?["copiedFrames"] as? Int ?? 0
    if let expected = c.copied { XCTAssertEqual(copied, expected, c.name) }
    XCTAssertEqual(copied > 0, c.copies, "\(c.name): \(r.stderr)")
    XCTAssertEqual(r.stderr.contains("every frame encoded, none copied: "), !c.copies, "\(c.name): \(r.stderr)")

    // Decoded whole, errors fatal, not a warning.
    let decode = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "warning", "-xerror", "-i", smart, "-f", "null", "-"])
    XCTAssertEqual(decode.status, 0, "\(c.name): \(decode.stderr)")
    XCTAssertEqual(decode.stderr, "", c.name)
    // The frames and their times are the --smart off render's; so is the sound, as long and with
    // no step larger than its largest (its packets copied where one clip is heard alone:
    // SmartSoundTests holds the seams).
    XCTAssertEqual(try frameTimes(smart), try frameTimes(plain), c.name)
    let (sa, sb) = (try SoundCheck.samples(smart, in: h.folder.path), try SoundCheck.samples(plain, in: h.folder.path))
    XCTAssertEqual(sa.count, sb.count, c.name)
    XCTAssertLessThanOrEqual(SoundCheck.largestStep(sa), SoundCheck.largestStep(sb) * 1.05 + 0.001, c.name)
    // Copied frames are the sources' frames bit for bit: frame k is clip a's frame k before the
    // fade and clip b's frame k − (a's frames − the fade's) after it.
    let out = try frameHashes(smart)
    let (ha, hb) = (try frameHashes(a), try frameHashes(b))
    let fade = ha.count + hb.count - out.count
    var same = Set<Int>()
    for (k, hash) in out.enumerated() {
      if k < ha.count - fade, hash == ha[k] { same.insert(k) }
      if k >= ha.count, k - ha.count + fade < hb.count, hash == hb[k - ha.count + fade] { same.insert(k) }
    }
    XCTAssertGreaterThanOrEqual(same.count, copied, "\(c.name): copied frames differ from the sources'")
    // Every frame encoded (not the source's own) within 35 dB of the --smart off render's at the
    // same CRF.
    let psnr = try framePSNR(smart, plain)
    XCTAssertEqual(psnr.count, out.count, c.name)
    let worst = psnr.enumerated().filter { !same.contains($0.offset) }.map(\.element).min() ?? .infinity
    print("smart \(c.name): copied \(copied) of \(out.count) frames; encoded frames' worst PSNR \(worst) dB")
    if c.copies { XCTAssertGreaterThanOrEqual(worst, 35, c.name) }
    if c.plays && c.copies { try play(smart, frames: out.count, c.name) }
  }

  /// A sharded smart render: MP4 parts, their boundaries moved off copied runs so together they
  /// copy what the whole render copies, joined by their packets into the frames of a whole one — the same count, times and sound, the copied
  /// frames the same bit for bit, the encoded ones within 35 dB — decoding cleanly and playing.
  func testShardsJoinToTheFramesOfAWholeRender() throws {
    let h = try ToolHarness.make("smart-shards")
    defer { h.cleanUp() }
    let video = Self.x264("high", gop: 15)
    let a = try clip(h, "a.mp4", video: video)
    let b = try clip(h, "b.mp4", video: video)
    let common = ["concat", a, b, a, "--transition", "fade", "--transition-duration", "0.5", "--renderer", "cpu"]
    let whole = h.path("whole.mp4")
    let stats = h.path("whole.json")
    XCTAssertEqual(try h.run(common + ["-o", whole, "--stats", stats]).status, 0)
    var parts: [String] = []
    var partsCopied = 0
    for i in 0..<3 {
      let part = h.path("part\(i).mp4")
      let partStats = h.path("part\(i).json")
      let r = try h.run(common + ["--shard", "\(i)/3", "-o", part, "--stats", partStats])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(r.stderr.contains("from the sources"), r.stderr)
      let figures = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: partStats)))
      partsCopied += (figures as? [String: Any])?["copiedFrames"] as? Int ?? 0
      parts.append(part)
    }
    let joined = h.path("joined.mp4")
    let j = try h.run(["join"] + parts + ["-o", joined])
    XCTAssertEqual(j.status, 0, j.stderr)
    let decode = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "warning", "-xerror", "-i", joined, "-f", "null", "-"])
    XCTAssertEqual(decode.status, 0, decode.stderr)
    XCTAssertEqual(decode.stderr, "")
    XCTAssertEqual(try frameTimes(joined), try frameTimes(whole))
    XCTAssertEqual(try audioHash(joined), try audioHash(whole), "the first part carries the whole sound")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
    let copied = try XCTUnwrap(json?["copiedFrames"] as? Int)
    XCTAssertEqual(partsCopied, copied, "the parts copy what the whole render copies (boundaries off copied runs)")
    let (hw, hj) = (try frameHashes(whole), try frameHashes(joined))
    XCTAssertGreaterThanOrEqual(zip(hw, hj).filter { $0 == $1 }.count, copied)
    XCTAssertGreaterThanOrEqual(try framePSNR(joined, whole).min() ?? 0, 35)
    try play(joined, frames: hw.count, "joined")
    // Parts of another render are refused by name.
    let other = h.path("other.mp4")
    XCTAssertEqual(try h.run(["concat", a, b, "--renderer", "cpu", "--shard", "1/3", "-o", other]).status, 0)
    let mixed = try h.run(["join", parts[0], other, parts[2], "-o", h.path("mixed.mp4")])
    XCTAssertNotEqual(mixed.status, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("mixed.mp4")))
  }

  /// SD clips that do not say their colours (players take BT.601 for their size) are copied
  /// into an output that keeps their matrix: untagged, its encoded stretches converted to BT.601
  /// too, so that read by ffmpeg (as players read it) it shows the colours of the `--smart off`
  /// render, which is tagged BT.709.
  func testUntaggedSDClipsAreCopiedKeepingTheirMatrix() throws {
    let h = try ToolHarness.make("smart-sd")
    defer { h.cleanUp() }
    var clips: [String] = []
    for (name, source) in [("a.mp4", "testsrc2"), ("b.mp4", "smptebars")] {
      let out = h.path(name)
      let r = try ToolHarness.run(
        ToolHarness.which("ffmpeg"),
        [
          "-v", "error", "-y", "-f", "lavfi", "-i", "\(source)=s=128x72:r=30:d=2", "-f", "lavfi", "-i",
          "sine=f=440:d=2:r=48000", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "15", "-c:a", "aac", "-shortest",
          out,
        ])
      XCTAssertEqual(r.status, 0, r.stderr)
      clips.append(out)
    }
    let common = ["concat"] + clips + ["--transition", "fade", "--transition-duration", "0.5", "--renderer", "cpu"]
    let (smart, plain, stats) = (h.path("smart.mp4"), h.path("off.mp4"), h.path("smart.json"))
    let r = try h.run(common + ["-o", smart, "--stats", stats])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stderr.contains("from the sources"), r.stderr)
    XCTAssertEqual(try h.run(common + ["--smart", "off", "--crf", "18", "--quiet", "-o", plain]).status, 0)
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
    XCTAssertEqual(json?["copiedFrames"] as? Int, 90, "both clips outside the fade's GOPs")
    let decode = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "warning", "-xerror", "-i", smart, "-f", "null", "-"])
    XCTAssertEqual(decode.status, 0, decode.stderr)
    XCTAssertEqual(try h.probe(smart).first?["color_space"] ?? "unknown", "unknown", "untagged, as the clips are")
    // Frame by frame in RGB, each file read in its own matrix.
    let psnr = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      [
        "-v", "error", "-i", smart, "-i", plain, "-lavfi",
        "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr=stats_file=-",
        "-f", "null", "-",
      ])
    let values = psnr.stdout.split(whereSeparator: \.isNewline).compactMap { line in
      line.split(separator: " ").first { $0.hasPrefix("psnr_avg:") }.flatMap { Double($0.dropFirst(9)) ?? .infinity }
    }
    XCTAssertEqual(values.count, 105)
    // Measured: 32.9–43.7 dB (the plain render's own re-encode of the sharp test pattern is the
    // floor); the same output read as BT.709 — the matrix mistaken — is at 26 dB.
    XCTAssertGreaterThanOrEqual(
      values.min() ?? 0, 32, "every frame, copied or encoded, in the colours of the plain render")
  }

  /// `--smart on` refuses what it cannot copy, naming why, and writes nothing; `auto` says why
  /// once and encodes everything.
  func testMismatchedInputsAreEncodedWholeOrRefused() throws {
    let h = try ToolHarness.make("smart-mismatch")
    defer { h.cleanUp() }
    let video = Self.x264("high", gop: 15)
    let a = try clip(h, "a.mp4", video: video)
    let mismatches = [
      ("size.mp4", try clip(h, "size.mp4", size: "160x90", video: video), "size.mp4 is 160×90, the output 128×72"),
      ("rate.mp4", try clip(h, "rate.mp4", fps: "25", video: video), "rate.mp4 runs at 25/1 fps, the output at 30/1"),
      ("codec.mp4", try clip(h, "codec.mp4", video: ["-c:v", "mpeg4"]), "codec.mp4 is mpeg4, the output h264"),
    ]
    for (name, b, reason) in mismatches {
      let common = ["concat", a, b, "--transition", "fade", "--transition-duration", "0.5", "--renderer", "cpu"]
      let out = h.path("auto-\(name)")
      let r = try h.run(common + ["-o", out])
      XCTAssertEqual(r.status, 0, r.stderr)
      let said = r.stderr.components(separatedBy: "every frame encoded, none copied: \(reason)").count - 1
      XCTAssertEqual(said, 1, "\(name): \(r.stderr)")
      XCTAssertFalse(r.stderr.contains("from the sources"), r.stderr)
      let on = try h.run(common + ["--smart", "on", "-o", h.path("on-\(name)")])
      XCTAssertNotEqual(on.status, 0)
      XCTAssertTrue(on.stderr.contains("--smart on: \(reason)"), "\(name): \(on.stderr)")
      XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("on-\(name)")))
    }
    XCTAssertEqual(h.leftovers(), [])
  }

  private func frameTimes(_ path: String) throws -> [String] {
    let r = try ToolHarness.run(
      ToolHarness.which("ffprobe"),
      ["-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pts_time", "-of", "csv=p=0", path])
    XCTAssertEqual(r.status, 0, r.stderr)
    return r.stdout.split(whereSeparator: \.isNewline).map {
      String(format: "%.3f", Double($0.filter { $0 != "," }) ?? -1)
    }
  }

  private func frameHashes(_ path: String) throws -> [String] {
    let r = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
    XCTAssertEqual(r.status, 0, r.stderr)
    return r.stdout.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.compactMap {
      $0.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
  }

  private func audioHash(_ path: String) throws -> String {
    let r = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "error", "-i", path, "-map", "0:a", "-f", "md5", "-"])
    XCTAssertEqual(r.status, 0, r.stderr)
    return r.stdout
  }

  /// Each frame's PSNR of `a` against the same frame of `b` (infinity for identical frames).
  private func framePSNR(_ a: String, _ b: String) throws -> [Double] {
    let r = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      ["-v", "error", "-i", a, "-i", b, "-lavfi", "[0:v][1:v]psnr=stats_file=-", "-f", "null", "-"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let values = r.stdout.split(whereSeparator: \.isNewline).compactMap { line in
      line.split(separator: " ").first { $0.hasPrefix("psnr_avg:") }.flatMap { Double($0.dropFirst(9)) ?? .infinity }
    }
    XCTAssertFalse(values.isEmpty)
    return values
  }

  private func play(_ path: String, frames: Int, _ name: String) throws {
    let played = try ToolHarness.run(ToolHarness.which("python3"), [Self.player, path, "60"])
    let line = played.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertEqual(played.status, 0, "\(name): chromium reported '\(line)'")
    // ended CURRENT DURATION PRESENTED DECODED DROPPED
    let f = line.split(separator: " ")
    guard f.count == 6, let current = Double(f[1]), let duration = Double(f[2]), let presented = Int(f[3]),
      let decoded = Int(f[4])
    else { return XCTFail("\(name): chromium reported '\(line)'") }
    XCTAssertEqual(current, duration, accuracy: 0.05, name)
    XCTAssertEqual(decoded, frames, "\(name): frames chromium decoded")
    XCTAssertGreaterThan(presented, frames / 2, "\(name): frames chromium presented")
  }
}
