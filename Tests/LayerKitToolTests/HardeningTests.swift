import Foundation
import LayerKit
import LayerKitMedia
import LayerKitSamples
import XCTest

/// Bad numbers and outputs that would destroy inputs, refused up front with one line naming the
/// option or the file and the bound (issue 19's first cases).
final class HardeningTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("hardening") }
  override func tearDownWithError() throws { h.cleanUp() }

  /// Finite numbers beyond the documented bounds (once traps) are usage errors naming the
  /// option, the range and the value.
  func testHugeNumbersAreRefusedWithTheirBounds() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let out = h.path("out.y4m")
    let cases: [([String], String)] = [
      (
        ["slideshow", a, b, "--hold", "1e300", "-o", out], "--hold must be a number from 0 to 86400 seconds, not 1e+300"
      ),
      (
        ["slideshow", a, b, "--transition-duration", "1e300", "-o", out],
        "--transition-duration must be a number from 0.001 to 86400 seconds"
      ),
      (["concat", a, b, "--hold", "-5", "-o", out], "--hold must be a number from 0.001 to 86400 seconds, not -5"),
      (["transition", a, b, "--duration", "1e300", "-o", out], "--duration must be a number from 0.001 to 86400"),
      (["slideshow", a, b, "--fps", "1e9", "-o", out], "--fps must be a number from 0.001 to 1000"),
      (["slideshow", a, b, "--audio-fade", "nan", "-o", out], "--audio-fade must be a number from 0 to 86400"),
      (
        ["slideshow", a, b, "--size", "99999x99999", "-o", out],
        "--size 99999x99999 is too large: at most 16384 pixels a side"
      ),
      (
        ["slideshow", a, b, "--frame-time-limit", "-1", "-o", out],
        "--frame-time-limit must be a number from 0 to 86400"
      ),
    ]
    for (arguments, message) in cases {
      let run = try h.run(arguments)
      XCTAssertEqual(run.status, 64, "\(arguments)")
      XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
      XCTAssertFalse(run.stderr.contains("Fatal error"), run.stderr)
      XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }
  }

  /// `-o` naming an input — directly, through a symlink, or a hard link — is refused and the
  /// input is left as it was; so is `compare --diff` over an image it compares.
  func testAnOutputNeverReplacesAnInput() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let clip = h.path("clip.y4m")
    XCTAssertEqual(try h.run(["transition", a, b, "--duration", "0.2", "-o", clip]).status, 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: clip))
    try FileManager.default.createSymbolicLink(atPath: h.path("link.y4m"), withDestinationPath: clip)
    try FileManager.default.linkItem(atPath: clip, toPath: h.path("hard.y4m"))
    for output in [clip, h.path("link.y4m"), h.path("hard.y4m"), h.folder.path + "/./clip.y4m"] {
      let run = try h.run(["concat", clip, a, "--hold", "0.5", "-o", output])
      XCTAssertEqual(run.status, 1, output)
      XCTAssertTrue(
        run.stderr.contains("is also an input") || run.stderr.contains("would overwrite the input"), run.stderr)
      XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: clip)), before, "the input is untouched")
    }
    let original = try Data(contentsOf: URL(fileURLWithPath: a))
    let compare = try h.run(["compare", a, b, "--diff", a])
    XCTAssertEqual(compare.status, 2)
    XCTAssertTrue(compare.stderr.contains("is also an input"), compare.stderr)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: a)), original)
  }

  /// A scene file cannot be rendered over itself or over its own media.
  func testARenderNeverReplacesItsSceneOrMedia() throws {
    let picture = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.3), "p.png")
    let scene = h.path("s.json")
    try Data(
      #"{"version": 1, "width": 32, "height": 18, "duration": 0.1, "media": {"p": "p.png"}, "root": {"contents": "p"}}"#
        .utf8
    ).write(to: URL(fileURLWithPath: scene))
    let sceneBytes = try Data(contentsOf: URL(fileURLWithPath: scene))
    let pictureBytes = try Data(contentsOf: URL(fileURLWithPath: picture))
    try FileManager.default.createSymbolicLink(atPath: h.path("link.png"), withDestinationPath: scene)
    for output in [picture, h.path("link.png")] {
      let run = try h.run(["render", scene, "-o", output, "--time", "0"])
      XCTAssertNotEqual(run.status, 0, output)
      XCTAssertTrue(run.stderr.contains("input"), run.stderr)
    }
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: scene)), sceneBytes)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: picture)), pictureBytes)
  }

  /// An encoder that exits 0 but leaves a file that is not the video (as ffmpeg 5.1 does on a
  /// full disk) is an error, and nothing is left under the target's name; one that says "Error
  /// writing trailer" likewise.
  func testAnOutputIsVerifiedBeforeItIsCalledWritten() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let bin = h.path("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    // A stand-in ffmpeg: swallows the frames, writes 8 KiB of nothing to its last argument,
    // says what ffmpeg says on a full disk, and exits 0. ffprobe stays the real one.
    let fake = """
      #!/bin/sh
      for last; do :; done
      cat > /dev/null
      head -c 8192 /dev/zero > "$last"
      echo "[mp4 @ 0x0] Error writing trailer of $last: No space left on device" >&2
      exit 0
      """
    try Data(fake.utf8).write(to: URL(fileURLWithPath: bin + "/ffmpeg"))
    chmod(bin + "/ffmpeg", 0o755)
    try FileManager.default.createSymbolicLink(atPath: bin + "/ffprobe", withDestinationPath: "/usr/bin/ffprobe")
    let out = h.path("out.mp4")
    let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    let run = try h.run(["transition", a, b, "--duration", "0.2", "-o", out], environment: ["PATH": path])
    XCTAssertEqual(run.status, 1, run.stderr)
    // In plain words, naming the output (ffmpeg's own line is "Error writing trailer of …").
    XCTAssertTrue(
      run.stderr.contains("out.mp4: cannot write the output: the disk is full (no space left on device)"), run.stderr)
    XCTAssertFalse(run.stderr.contains("wrote "), run.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing under the target's name")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: h.folder.path).filter { $0.contains("out.mp4") }
    XCTAssertEqual(leftovers, [], "no temporary file left either")
    // Silent, but the file is not a video: probed, and refused.
    try Data(fake.replacingOccurrences(of: "echo", with: ": echo").utf8).write(
      to: URL(fileURLWithPath: bin + "/ffmpeg"))
    let quiet = try h.run(["transition", a, b, "--duration", "0.2", "-o", out], environment: ["PATH": path])
    XCTAssertEqual(quiet.status, 1, quiet.stderr)
    XCTAssertTrue(quiet.stderr.contains("does not read back as a video"), quiet.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out))
  }

  /// A FIFO, a directory or a device given as an input is refused at once, naming what it is
  /// (a FIFO once left ffprobe waiting forever).
  func testNonRegularInputsAreRefusedAtOnce() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let fifo = h.path("pipe.mp4")
    XCTAssertEqual(mkfifo(fifo, 0o644), 0)
    for (input, kind) in [(fifo, "a FIFO"), (h.folder.path, "a directory"), ("/dev/zero", "a character device")] {
      let start = Date()
      let run = try h.run(["concat", a, input, "--hold", "0.5", "-o", h.path("out.y4m")])
      XCTAssertEqual(run.status, 1, input)
      XCTAssertTrue(
        run.stderr.contains("\(input): cannot read as an image or a clip: \(kind), not a regular file"), run.stderr)
      XCTAssertLessThan(Date().timeIntervalSince(start), 20, "answered at once")
    }
  }

  /// A contact sheet (or stats file) whose folder is missing is found before the render, not
  /// after it; no video is written.
  func testSecondaryOutputsAreCheckedFirst() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let out = h.path("out.y4m")
    let run = try h.run(["slideshow", a, "--hold", "0.2", "-o", out, "--contact-sheet", h.path("missing/sheet.png")])
    XCTAssertEqual(run.status, 1)
    XCTAssertTrue(run.stderr.contains("sheet.png: cannot write the output: the folder"), run.stderr)
    XCTAssertFalse(run.stderr.contains("wrote "), run.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out))
  }

  /// Huge inputs are bounded before they are parsed or compiled: a scene file over 16 MiB, a
  /// shader over 64 KiB (a 1.2 MB one-line shader crashed Mesa's compiler), and an unknown key
  /// of a megabyte is named in a few dozen characters (it was echoed whole, after minutes).
  func testHugeInputsAreBoundedBeforeTheyAreParsed() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let shader = h.path("big.glsl")
    try Data(repeating: UInt8(ascii: " "), count: 1_200_000).write(to: URL(fileURLWithPath: shader))
    let run = try h.run(["transition", a, b, "--shader", shader, "-o", h.path("o.y4m"), "--renderer", "gpu"])
    XCTAssertNotEqual(run.status, 0)
    XCTAssertTrue(run.stderr.contains("1200000 bytes"), run.stderr)
    XCTAssertFalse(run.stderr.contains("Fatal error"), run.stderr)
    let big = h.path("big.json")
    try Data(repeating: UInt8(ascii: " "), count: (16 << 20) + 1).write(to: URL(fileURLWithPath: big))
    let scene = try h.run(["render", big, "-o", h.path("o.png"), "--time", "0"])
    XCTAssertEqual(scene.status, 1)
    XCTAssertTrue(scene.stderr.contains("a scene file is at most 16777216 bytes"), scene.stderr)
    let key = String(repeating: "k", count: 1_000_000)
    let doc = h.path("key.json")
    try Data(#"{"version": 1, "width": 8, "height": 8, "duration": 1, "\#(key)": 1}"#.utf8).write(
      to: URL(fileURLWithPath: doc))
    let start = Date()
    let unknown = try h.run(["render", doc, "-o", h.path("o.png"), "--time", "0"])
    XCTAssertEqual(unknown.status, 1)
    XCTAssertTrue(unknown.stderr.contains("(1000000 bytes)"), String(unknown.stderr.prefix(300)))
    XCTAssertLessThan(unknown.stderr.utf8.count, 2000, "the key is not echoed whole")
    XCTAssertLessThan(Date().timeIntervalSince(start), 30)
  }

  /// `join` takes only parts that tile one render exactly once, in order — MKV, Y4M and PNG
  /// folders alike — and names what is wrong: a missing middle or last part, parts out of order
  /// or given twice, a part of another render (other inputs, another frame rate), a part cut
  /// short; `--unchecked` joins parts without records in the order given.
  func testJoinTakesOnlyPartsThatTileOneRender() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let common = ["slideshow", a, b, "--hold", "0.4", "--transition-duration", "0.2", "--renderer", "cpu", "--quiet"]
    for (ext, fps) in [("mkv", "10"), ("y4m", "10"), ("", "10")] {
      func part(_ i: Int, _ n: Int = 3, fps: String = fps, extra: [String] = []) throws -> String {
        let path =
          ext.isEmpty ? h.path("p\(i)of\(n)-\(fps)\(extra.count)/") : h.path("p\(i)of\(n)-\(fps)\(extra.count).\(ext)")
        let run = try h.run(common + ["--fps", fps, "--shard", "\(i)/\(n)", "-o", path] + extra)
        XCTAssertEqual(run.status, 0, run.stderr)
        return path
      }
      let (p0, p1, p2) = (try part(0), try part(1), try part(2))
      let out = h.path("joined.y4m")
      let cases: [([String], String)] = [
        // 10 frames: shards 0..<3, 3..<6, 6..<10.
        ([p0, p2], "frames 3..<6 of 10 are missing between \(p0) and \(p2)"),
        ([p0, p1], "frames 6..<10 of 10 are missing after \(p1)"),
        ([p1, p2], "frames 0..<3 of 10 are missing before \(p1)"),
        ([p1, p0, p2], "the parts are out of order"),
        ([p0, p1, p1, p2], "part 3 (\(p1)) holds frames 3..<6, which part 2 (\(p1)) already holds"),
        ([p0, try part(1, fps: "20"), p2], "belongs to another render than \(p0)"),
        // Shard 1 of 2 of the same render: frames 5..<10.
        ([p0, try part(1, 2), p2], "frames 3..<5 of 10 are missing between \(p0)"),
        ([p0, try part(1, extra: ["--background", "red"]), p2], "belongs to another render"),
      ]
      for (parts, message) in cases {
        let run = try h.run(["join"] + parts + ["-o", out])
        XCTAssertEqual(run.status, 1, "\(ext) \(parts)")
        XCTAssertTrue(run.stderr.contains(message), "\(ext): \(run.stderr)")
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
      }
      XCTAssertEqual(try h.run(["join", p0, p1, p2, "-o", out, "--quiet"]).status, 0, ext)
      try FileManager.default.removeItem(atPath: out)
    }
    // A part cut short (a truncated MKV whose frames ffprobe still counts) and parts without
    // records (an MKV made by ffmpeg), which --unchecked joins.
    let mkv = (0..<2).map { h.path("m\($0).mkv") }
    for (i, path) in mkv.enumerated() {
      XCTAssertEqual(try h.run(common + ["--fps", "10", "--shard", "\(i)/2", "-o", path]).status, 0)
    }
    let short = h.path("short.mkv")
    XCTAssertEqual(
      try ToolHarness.run(
        "/usr/bin/ffmpeg", ["-v", "error", "-i", mkv[1], "-frames:v", "4", "-c", "copy", "-map_metadata", "0", short]
      ).status, 0)
    let cut = try h.run(["join", mkv[0], short, "-o", h.path("cut.y4m")])
    XCTAssertEqual(cut.status, 1)
    XCTAssertTrue(cut.stderr.contains("\(short) holds 4 frames; its record says 5"), cut.stderr)
    let foreign = h.path("foreign.mkv")
    XCTAssertEqual(
      try ToolHarness.run(
        "/usr/bin/ffmpeg",
        ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=32x18:r=10:d=0.5", "-c:v", "ffv1", foreign]
      ).status, 0)
    let unrecorded = try h.run(["join", mkv[0], mkv[1], foreign, "-o", h.path("f.y4m")])
    XCTAssertEqual(unrecorded.status, 1)
    XCTAssertTrue(unrecorded.stderr.contains("\(foreign) has no LAYERKIT_PART tag"), unrecorded.stderr)
    let joined = try h.run(["join", mkv[0], mkv[1], foreign, "--unchecked", "-o", h.path("f.y4m"), "--quiet"])
    XCTAssertEqual(joined.status, 0, joined.stderr)
    XCTAssertEqual(try Y4MReader(path: h.path("f.y4m")).readAllFrames().count, 10 + 5)
  }

  /// The sound of a sharded render joined into an MP4 is the sound of the whole render, sample
  /// for sample (the MKV parts carry the mix as 32-bit float; FLAC's 16-bit rounding made the two
  /// differ).
  func testJoinedAudioEqualsTheWholeRendersAudio() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let music = h.path("m.wav")
    XCTAssertEqual(
      try ToolHarness.run("/usr/bin/ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=3", music]).status, 0)
    let common = [
      "slideshow", a, b, a, "--hold", "0.5", "--transition-duration", "0.3", "--fps", "10", "--audio", music,
      "--audio-fade", "0.4", "--renderer", "cpu", "--quiet",
    ]
    XCTAssertEqual(try h.run(common + ["-o", h.path("whole.mp4")]).status, 0)
    let parts = (0..<3).map { h.path("s\($0).mkv") }
    for (i, part) in parts.enumerated() {
      XCTAssertEqual(try h.run(common + ["--shard", "\(i)/3", "-o", part]).status, 0)
    }
    XCTAssertEqual(try h.run(["join"] + parts + ["-o", h.path("joined.mp4"), "--quiet"]).status, 0)
    func samples(_ file: String) throws -> Data {
      try ToolHarness.run("/usr/bin/ffmpeg", ["-v", "error", "-i", file, "-map", "0:a", "-f", "f32le", "-"]).data
    }
    let whole = try samples(h.path("whole.mp4"))
    XCTAssertGreaterThan(whole.count, 44_100 * 4)
    XCTAssertEqual(try samples(h.path("joined.mp4")), whole)
  }

  private static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Fixtures")

  /// Processes whose command line names `text` (children of a layerkit that must not outlive it).
  private func processes(naming text: String) -> [String] {
    let ids = (try? FileManager.default.contentsOfDirectory(atPath: "/proc"))?.filter { Int($0) != nil } ?? []
    return ids.compactMap { id in
      guard let data = FileManager.default.contents(atPath: "/proc/\(id)/cmdline") else { return nil }
      let line = String(decoding: data.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
      return line.contains(text) ? line : nil
    }
  }

  /// A user shader that takes minutes a frame ends the render with a clear error once no frame
  /// has come for --frame-time-limit seconds — the frame cannot be unwound from inside the
  /// driver, so the process stops at once: no output, no temporary file, no ffmpeg left running.
  func testAShaderThatDoesNotEndMeetsTheFrameTimeLimit() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let shader = Self.fixtures.appendingPathComponent("endless.glsl").path
    let out = h.path("endless.mp4")
    let start = Date()
    let run = try h.run([
      "transition", a, b, "--shader", shader, "--duration", "0.5", "--fps", "10", "--size", "640x360",
      "--frame-time-limit", "1", "--renderer", "gpu", "-o", out,
    ])
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("frame 0 took over 1 s (--frame-time-limit)"), run.stderr)
    XCTAssertLessThan(Date().timeIntervalSince(start), 30)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: h.folder.path).sorted(), ["a.png", "b.png"])
    XCTAssertEqual(processes(naming: h.folder.path), [])
  }

  /// SIGTERM is answered within seconds even inside a frame that takes minutes, and whenever it
  /// comes (before the render starts, too): exit 128 + 15, no output or temporary file, and no
  /// child (ffmpeg) outlives layerkit.
  func testSIGTERMIsAnsweredInsideALongFrameAndNothingOutlivesIt() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let shader = Self.fixtures.appendingPathComponent("endless.glsl").path
    for delay in [0.05, 3.0] {
      let process = try h.start([
        "transition", a, b, "--shader", shader, "--duration", "0.5", "--fps", "10", "--size", "640x360",
        "--frame-time-limit", "0", "--renderer", "gpu", "-o", h.path("stuck.mp4"),
      ])
      Thread.sleep(forTimeInterval: delay)
      let signalled = Date()
      process.terminate()
      process.waitUntilExit()
      XCTAssertLessThan(Date().timeIntervalSince(signalled), 15, "after \(delay) s")
      // 143 once layerkit watches signals; a signal before that (a slow start, under a
      // sanitizer) ends it the default way, before it has started anything.
      let early = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM
      XCTAssertTrue(
        early || process.terminationStatus == 128 + SIGTERM, "after \(delay) s: status \(process.terminationStatus)")
      XCTAssertEqual(
        try FileManager.default.contentsOfDirectory(atPath: h.folder.path).sorted(), ["a.png", "b.png"],
        "after \(delay) s")
      XCTAssertEqual(processes(naming: h.folder.path), [], "after \(delay) s")
    }
  }

  /// A shader whose colour is NaN for part of the transition is refused before anything is
  /// rendered, naming the file, the progress and a pixel — not written as black frames.
  func testAShaderThatGivesNaNIsRefusedNotDrawnBlack() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let shader = Self.fixtures.appendingPathComponent("nan.glsl").path
    let out = h.path("nan.mp4")
    let run = try h.run(["transition", a, b, "--shader", shader, "--duration", "0.5", "--renderer", "gpu", "-o", out])
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("nan.glsl: the shader's colour is NaN"), run.stderr)
    XCTAssertTrue(run.stderr.contains("at progress 0.6"), run.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out))
  }

  /// A render to standard output stopped by SIGINT says how much of the stream went out and that
  /// it ends there — not "no output was left" after hundreds of megabytes were sent.
  func testAStreamStoppedBySIGINTSaysWhatWentOut() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let process = Process()
    process.executableURL = try ToolHarness.binary()
    process.arguments = [
      "slideshow", a, b, "--hold", "600", "--size", "320x180", "--renderer", "cpu", "-o", "-",
    ]
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read until some frames (86 400 bytes each, 4:2:0) have gone out, then interrupt.
    var received = 0
    while received < 2_000_000 {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      received += chunk.count
    }
    kill(process.processIdentifier, SIGINT)
    while !out.fileHandleForReading.availableData.isEmpty {}
    process.waitUntilExit()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertEqual(process.terminationStatus, 128 + SIGINT, stderr)
    XCTAssertGreaterThan(received, 1_000_000)
    XCTAssertTrue(stderr.contains("stopped by SIGINT after"), stderr)
    XCTAssertTrue(stderr.contains("had gone to standard output: the stream ends there, cut short"), stderr)
    XCTAssertFalse(stderr.contains("no output was left"), stderr)
  }

  /// A closed standard output (`>&-`) is named as such before anything is rendered, not reported
  /// as "-: Invalid argument" after the descriptor was reused for another file.
  func testAClosedStandardOutputIsNamed() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let binary = try ToolHarness.binary().path
    let run = try ToolHarness.run(
      "/bin/sh", ["-c", "exec \"$0\" \"$@\" >&-", binary, "transition", a, b, "--renderer", "cpu", "-o", "-"])
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertTrue(run.stderr.contains("standard output: cannot write the output: it is closed"), run.stderr)
  }

  /// ffmpeg's failures reach the user as one line in plain words: a file that is not media, an
  /// MP4 cut off before its index, damaged clip data, a damaged WebP or BMP still, a file
  /// without video — never ffmpeg's `[mov,mp4,… @ 0x…]` lines.
  func testFFmpegFailuresAreToldInPlainWords() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    func ffmpeg(_ arguments: [String]) throws {
      XCTAssertEqual(try ToolHarness.run("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments).status, 0)
    }
    try Data("garbage".utf8).write(to: URL(fileURLWithPath: h.path("garbage.mp4")))
    try ffmpeg(["-f", "lavfi", "-i", "testsrc2=s=64x36:d=2", "-c:v", "libx264", h.path("whole.mp4")])
    try Data(try Data(contentsOf: URL(fileURLWithPath: h.path("whole.mp4"))).prefix(3000)).write(
      to: URL(fileURLWithPath: h.path("cut.mp4")))
    try ffmpeg(["-f", "lavfi", "-i", "color=red:s=16x16", "-frames:v", "1", h.path("whole.webp")])
    try Data(try Data(contentsOf: URL(fileURLWithPath: h.path("whole.webp"))).prefix(30)).write(
      to: URL(fileURLWithPath: h.path("still.webp")))
    try Data("BM".utf8 + [UInt8](repeating: 0x78, count: 40)).write(to: URL(fileURLWithPath: h.path("still.bmp")))
    try ffmpeg(["-f", "lavfi", "-i", "sine", "-t", "1", h.path("sound.m4a")])
    let cases: [(String, String)] = [
      ("garbage.mp4", "not a media file ffmpeg can read"),
      ("cut.mp4", "truncated: an MP4/MOV cut off before its index (moov) was written"),
      ("still.webp", "damaged or truncated: ffmpeg could not decode it"),
      ("still.bmp", "invalid header size"),
      ("sound.m4a", "no video stream"),
    ]
    for (name, message) in cases {
      let run = try h.run(["slideshow", a, h.path(name), "--renderer", "cpu", "-o", h.path("o.y4m")])
      XCTAssertEqual(run.status, 1, name)
      XCTAssertTrue(run.stderr.contains("\(h.path(name)): cannot read as an image or a clip: \(message)"), run.stderr)
      XCTAssertFalse(run.stderr.contains("@ 0x"), run.stderr)
      XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
    }
  }

  /// A text layer's string is bounded before it is shaped: 2 000 000 characters took over five
  /// minutes to lay out; now the scene is refused at once, naming the layer and the bound.
  func testAHugeTextIsRefusedBeforeItIsLaidOut() throws {
    let text = String(repeating: "word ", count: 400_000)
    let doc = h.path("text.json")
    try Data(
      #"{"version": 1, "width": 32, "height": 18, "duration": 1, "layers": [{"kind": "text", "bounds": [0, 0, 32, 18], "string": "\#(text)"}]}"#
        .utf8
    ).write(to: URL(fileURLWithPath: doc))
    let start = Date()
    let run = try h.run(["render", doc, "-o", h.path("o.png"), "--time", "0", "--renderer", "cpu"])
    XCTAssertEqual(run.status, 1)
    XCTAssertTrue(run.stderr.contains("layers[0].string"), String(run.stderr.prefix(300)))
    XCTAssertTrue(
      run.stderr.contains("a text of at most 20000 characters (this one has 2000000)"), String(run.stderr.prefix(300)))
    XCTAssertLessThan(run.stderr.utf8.count, 1000)
    XCTAssertLessThan(Date().timeIntervalSince(start), 30)
  }
}
