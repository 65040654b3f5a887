import Foundation
import LayerKit
import LayerKitMedia
import LayerKitSamples
import LayerKitVideo
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Findings of a hostile run of the command line, each held to its fix through the built
/// `layerkit`: a frame range's sound, a signal during a frame folder's first frame, the frame
/// memory of the largest frames, and the MP4 parts of a smart render of Constrained Baseline
/// clips. (A FIFO named as a clip is a corpus case: cli/slideshow-fifo-clip.)
final class HostileRunTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("hostile") }
  override func tearDownWithError() throws { h.cleanUp() }

  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Seconds of a file's first stream of `kind` (v, a), by ffprobe; nil when it has none.
  func duration(_ file: String, _ kind: String) throws -> Double? {
    let r = try ToolHarness.run(
      ToolHarness.which("ffprobe"),
      ["-v", "error", "-select_streams", "\(kind):0", "-show_entries", "stream=duration", "-of", "csv=p=0", file])
    XCTAssertEqual(r.status, 0, r.stderr)
    return Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// A range (`--frames`) carries the sound of its own frames, as long as its pictures — not the
  /// whole video's (20.8 s under 0.5 s of pictures, exit 0), nor none (a range not from frame 0),
  /// and a range of a 48-hour slideshow does not build 48 hours of sound first (over a minute).
  func testARangeCarriesTheSoundOfItsOwnFrames() throws {
    let clip = try h.clip("clip.mp4", width: 64, height: 36, fps: 10, seconds: 2)
    let other = try h.clip("other.mp4", width: 64, height: 36, fps: 10, seconds: 2, frequency: 660)
    let still = try h.write(try SampleScene.testImage(width: 64, height: 36, hue: 0.3), "a.png")
    let cases: [(String, [String])] = [
      ("looped.mp4", ["slideshow", clip, still, "--hold", "10", "--loop", "--frames", "0..5"]),
      ("start.mp4", ["concat", clip, other, "--frames", "0..5"]),
      ("middle.mp4", ["concat", clip, other, "--frames", "10..15"]),
      ("matroska.mkv", ["concat", clip, other, "--frames", "3..8"]),
    ]
    for (name, args) in cases {
      let out = h.path(name)
      let r = try h.run(args + ["--renderer", "cpu", "--quiet", "-o", out])
      XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
      // Matroska gives no stream durations: there they are read from the packets.
      let mkv = name.hasSuffix(".mkv")
      let pictures = try XCTUnwrap(mkv ? try end(out, "v") : try duration(out, "v"), name)
      XCTAssertEqual(pictures, 0.5, accuracy: 0.001, name)
      let sound = try XCTUnwrap(mkv ? try end(out, "a") : try duration(out, "a"), "\(name) has no sound")
      XCTAssertEqual(sound, pictures, accuracy: 0.03, "\(name): \(sound) s of sound under \(pictures) s of pictures")
    }
    // Ranges, each with its own sound, are not joined under one part's: refused, naming the
    // parts, unless the joined video is given its own sound or none.
    let parts = [h.path("r0.mkv"), h.path("r1.mkv")]
    for (range, part) in zip(["0..5", "5.."], parts) {
      let r = try h.run(["concat", clip, other, "--frames", range, "--renderer", "cpu", "--quiet", "-o", part])
      XCTAssertEqual(r.status, 0, r.stderr)
    }
    let refused = try h.run(["join"] + parts + ["-o", h.path("joined.mp4")])
    XCTAssertEqual(refused.status, 1, refused.stderr)
    XCTAssertTrue(refused.stderr.contains("r1.mkv carries sound as"), refused.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("joined.mp4")))
    XCTAssertEqual(try h.run(["join"] + parts + ["--no-audio", "--quiet", "-o", h.path("joined.mp4")]).status, 0)
    let started = Date()
    let out = h.path("long.mp4")
    let r = try h.run(
      [
        "slideshow", clip, still, "--hold", "86000", "--loop", "--frames", "0..5", "--renderer", "cpu", "--quiet", "-o",
        out,
      ])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertLessThan(Date().timeIntervalSince(started), 20)
    XCTAssertEqual(try XCTUnwrap(try duration(out, "a")), 0.5, accuracy: 0.03)
  }

  /// The end of the last packet of a file's first stream of `kind` (v, a), in seconds.
  func end(_ file: String, _ kind: String) throws -> Double? {
    let r = try ToolHarness.run(
      ToolHarness.which("ffprobe"),
      [
        "-v", "error", "-select_streams", "\(kind):0", "-show_entries", "packet=pts_time,duration_time", "-of",
        "csv=p=0",
        file,
      ])
    XCTAssertEqual(r.status, 0, r.stderr)
    return r.stdout.split(separator: "\n").compactMap { line -> Double? in
      let f = line.split(separator: ",").compactMap { Double($0) }
      return f.count == 2 ? f[0] + f[1] : nil
    }.max()
  }

  /// SIGINT while a frame folder's first frame is drawn — a frame that outlasts the 5 s grace, so
  /// the process is stopped at once — leaves no folder it made (an empty `fr/` was left, the
  /// message saying nothing was written), and a folder that was there as it was.
  func testASignalLeavesNoFrameFolderItMade() throws {
    let scene = Self.repositoryRoot.appendingPathComponent("examples/scenes/filters.json").path
    let existing = h.path("existing")
    try FileManager.default.createDirectory(atPath: existing, withIntermediateDirectories: true)
    try Data("mine\n".utf8).write(to: URL(fileURLWithPath: existing + "/notes.txt"))
    // A debug build draws the scene's frame in about half a minute on two cores; a shader that
    // never ends holds its first frame however fast the machine is.
    let endless = Self.repositoryRoot.appendingPathComponent("Tests/LayerKitToolTests/Fixtures/endless.glsl").path
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let scenes = ["render", scene, "--renderer", "cpu", "--size", "7680x4320", "-o"]
    let shader = [
      "transition", a, b, "--shader", endless, "--frame-time-limit", "0", "--renderer", "gpu", "--size", "320x180",
      "-o",
    ]
    let cases: [([String], String, [String]?)] = [
      (scenes, h.path("fr"), nil), (scenes, existing, ["notes.txt"]), (shader, h.path("stuck"), nil),
    ]
    for (command, folder, before) in cases {
      let process = try h.start(command + [folder + "/"])
      let deadline = Date().addingTimeInterval(30)
      while before == nil && !FileManager.default.fileExists(atPath: folder) && Date() < deadline {
        Thread.sleep(forTimeInterval: 0.05)
      }
      Thread.sleep(forTimeInterval: before == nil ? 0.5 : 2)
      kill(process.processIdentifier, SIGINT)
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 128 + SIGINT, folder)
      if let before {
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), before)
      } else {
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder), "\(folder) was left")
      }
    }
    XCTAssertEqual(h.leftovers(), [])
  }

  /// The frame memory of the largest frames (16384×4096, 256 MiB each) is bounded by
  /// `Limits.frameMemory`: fewer frames in flight, none drawn ahead. A GPU transition at that
  /// size peaked at 2.0 GiB — the GPU read back through its ring of two 256 MiB buffers and drew
  /// a frame ahead; now at most the renderer's three surfaces (the two pictures and the target),
  /// two frames in flight (the one read back and the one converted: drawing is the slow stage
  /// here) and 256 MiB for the program. (To an MP4, libx264 adds its own, about 3 GiB at that
  /// size, in its own process.)
  func testTheLargestFramesStayWithinTheFrameMemoryBudget() throws {
    let frame = 16384 * 4096 * 4
    let queues = VideoPipeline.queues(processors: 16, frameBytes: frame)
    // The one drawn, those waiting (at the workers too) and the one written.
    XCTAssertLessThanOrEqual((1 + queues.waiting + 1) * frame, Limits.frameMemory)
    XCTAssertEqual(VideoPipeline.queues(processors: 16, frameBytes: 1920 * 1080 * 4).workers, 4)
    let time = "/usr/bin/time"
    try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: time), "no \(time) to measure the peak")
    let a = try h.write(try SampleScene.testImage(width: 64, height: 36, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 64, height: 36, hue: 0.6), "b.png")
    let out = h.path("big.y4m")
    let r = try ToolHarness.run(
      time,
      [
        "-v", try ToolHarness.binary().path, "transition", a, b, "--filter", "ripple", "--size", "16384x4096",
        "--duration", "0.1", "--fps", "20", "--renderer", "gpu", "--quiet", "-o", out,
      ])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try Y4MReader(path: out).readAllFrames().count, 3)
    let line = try XCTUnwrap(r.stderr.split(separator: "\n").first { $0.contains("Maximum resident set size") })
    let peak = try XCTUnwrap(Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces))) * 1024
    let bound = 3 * frame + 2 * frame + (256 << 20)
    XCTAssertLessThanOrEqual(peak, bound, "peak \(peak >> 20) MiB, bound \(bound >> 20) MiB")
    print("16384×4096 ripple, 3 frames: peak \(peak >> 20) MiB of \(bound >> 20) MiB")
  }

  /// The MP4 shards of a smart render of ultrafast clips (Constrained Baseline) join: the
  /// encoded stretches were Main (B-frames asked of x264 after the profile), so a part that began
  /// on one was refused by the join ("part-1.mp4 is h264 Main, part-0.mp4 Constrained Baseline").
  func testSmartShardsOfBaselineClipsJoin() throws {
    var clips: [String] = []
    for (name, hue) in [("a.mp4", 0), ("b.mp4", 90)] {
      let out = h.path(name)
      let r = try ToolHarness.run(
        ToolHarness.which("ffmpeg"),
        [
          "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=4,hue=h=\(hue)", "-c:v", "libx264",
          "-preset", "ultrafast", "-pix_fmt", "yuv420p", out,
        ])
      XCTAssertEqual(r.status, 0, r.stderr)
      clips.append(out)
    }
    XCTAssertEqual(try h.probe(clips[0]).first?["profile"], "Constrained Baseline")
    let common = ["concat"] + clips + ["--transition", "fade", "--renderer", "cpu", "--quiet"]
    var parts: [String] = []
    for i in 0..<2 {
      let part = h.path("part-\(i).mp4")
      let r = try h.run(common + ["--shard", "\(i)/2", "-o", part])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(try h.probe(part).first?["profile"], "Constrained Baseline", part)
      parts.append(part)
    }
    let joined = h.path("joined.mp4")
    let join = try h.run(["join"] + parts + ["-o", joined, "--quiet"])
    XCTAssertEqual(join.status, 0, join.stderr)
    let decode = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "error", "-xerror", "-i", joined, "-f", "null", "-"])
    XCTAssertEqual(decode.status, 0, decode.stderr)
    XCTAssertEqual(decode.stderr, "")
    let whole = h.path("whole.mp4")
    XCTAssertEqual(try h.run(common + ["-o", whole]).status, 0)
    let count = try XCTUnwrap(try h.probe(whole).first?["nb_read_frames"])
    XCTAssertEqual(try h.probe(joined).first?["nb_read_frames"], count)
    XCTAssertEqual(count, "188")
  }
}
