import Foundation
import LayerKit
import LayerKitMedia
import LayerKitSamples
import XCTest

@testable import LayerKitEdit
@testable import LayerKitOutput
@testable import LayerKitTimeline
@testable import LayerKitVideo
@testable import layerkit

/// The edit around the transitions, run as a user runs it and held to ffmpeg's own filters and
/// analysers: cuts (`-ss/-to`), speed (`setpts`), loops, fits, Ken Burns on clips, overlays,
/// audio tracks, ducking (`astats`), loudness (`ebur128`), and `--print-edit`.
final class EditCommandTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("edit") }
  override func tearDownWithError() throws { h.cleanUp() }

  /// Two small pictures of another size each.
  func pictures() throws -> (String, String) {
    (
      try h.write(try SampleScene.testImage(width: 64, height: 36, hue: 0.1), "a.png"),
      try h.write(try SampleScene.testImage(width: 80, height: 40, hue: 0.6), "b.png")
    )
  }

  /// `--fit contain-blur`: the picture as `contain` places it, over bars that are a blurred,
  /// darkened copy of it — neither flat nor black — on both backends alike.
  func testContainBlurFillsTheBarsWithTheBlurredPicture() throws {
    let wide = try h.write(try SampleScene.testImage(width: 160, height: 90, hue: 0.3), "wide.png")
    func frame(_ fit: String, _ renderer: String) throws -> Image {
      let folder = h.path("\(fit)-\(renderer)") + "/"
      let r = try h.run([
        "slideshow", wide, "--size", "90x160", "--fit", fit, "--hold", "0.1", "--renderer", renderer, "-o", folder,
        "--quiet",
      ])
      XCTAssertEqual(r.status, 0, r.stderr)
      return try ImageFile.read(URL(fileURLWithPath: folder + "frame_00000.png"))
    }
    let blurred = try frame("contain-blur", "cpu")
    let plain = try frame("contain", "cpu")
    // The picture: rows 55…104 (90 × 160, the 16:9 picture 50 rows high, centred) as contain has them.
    for y in [60, 80, 100] {
      for x in [5, 45, 85] { XCTAssertEqual(blurred.pixel(x: x, y: y), plain.pixel(x: x, y: y), "(\(x), \(y))") }
    }
    // The bars: opaque, not black, not one flat colour, darker than the picture above them.
    let bar = (0..<50).flatMap { y in (0..<90).map { x in blurred.pixel(x: x, y: y) } }
    XCTAssertEqual(bar.map { $0[3] }.min(), 255, "opaque: \(bar.filter { $0[3] != 255 }.count) pixels are not")
    let luma = bar.map { 0.2126 * Double($0[0]) + 0.7152 * Double($0[1]) + 0.0722 * Double($0[2]) }
    let mean = luma.reduce(0, +) / Double(luma.count)
    let spread = luma.max()! - luma.min()!
    XCTAssertGreaterThan(mean, 20, "not black")
    XCTAssertGreaterThan(spread, 4, "not flat")
    XCTAssertEqual(plain.pixel(x: 45, y: 10), [0, 0, 0, 0], "contain leaves the bars to the background")
    // GPU ≡ CPU.
    let gpu = try frame("contain-blur", "gpu")
    let comparison = try ImageComparison(expected: blurred, actual: gpu)
    XCTAssertLessThanOrEqual(comparison.maxChannelDelta, 2)
  }

  /// `--overlay`: a logo stays at the same pixels over a held frame and over a transition frame,
  /// at its position, size and margin, on both backends, while the pictures change under it.
  func testAnOverlayStaysPutThroughTheTransitions() throws {
    let (a, b) = try pictures()
    let logo = try h.write(try Image(width: 40, height: 20, color: .red), "logo.png")
    func frames(_ renderer: String) throws -> [Image] {
      let folder = h.path("overlay-\(renderer)") + "/"
      let r = try h.run([
        "slideshow", a, b, "--size", "160x90", "--hold", "0.2", "--transition-duration", "0.4", "--overlay", logo,
        "--overlay-position", "bottom-left", "--overlay-size", "0.25", "--overlay-margin", "0.1", "--renderer",
        renderer, "-o", folder, "--quiet",
      ])
      XCTAssertEqual(r.status, 0, r.stderr)
      return try [0, 9, 17].map { try ImageFile.read(URL(fileURLWithPath: folder + PNGFolderSink.frameName($0))) }
    }
    // 160 × 90: the logo 40 × 20 at a margin of 9 from the left and the bottom: x 9…48, y 61…80.
    for renderer in ["cpu", "gpu"] {
      let shown = try frames(renderer)
      for frame in shown {
        for (x, y) in [(10, 62), (29, 70), (47, 79)] {
          XCTAssertEqual(frame.pixel(x: x, y: y), [255, 0, 0, 255], "\(renderer) (\(x), \(y))")
        }
        for (x, y) in [(7, 70), (50, 70), (29, 59), (29, 82)] {
          XCTAssertNotEqual(frame.pixel(x: x, y: y), [255, 0, 0, 255], "\(renderer) (\(x), \(y)) is not the logo's")
        }
      }
      // Under it, the pictures change: held, mid-transition, the second held.
      XCTAssertNotEqual(shown[0].pixel(x: 100, y: 30), shown[1].pixel(x: 100, y: 30), renderer)
      XCTAssertNotEqual(shown[1].pixel(x: 100, y: 30), shown[2].pixel(x: 100, y: 30), renderer)
    }
    // For part of the video only (a lower third): on from 0.3 s to 0.6 s, drawn there, absent
    // from the held frames around it.
    let timed = h.path("timed") + "/"
    let r = try h.run([
      "slideshow", a, b, "--size", "160x90", "--hold", "0.2", "--transition-duration", "0.4", "--overlay", logo,
      "--overlay-position", "bottom-left", "--overlay-size", "0.25", "--overlay-margin", "0.1", "--overlay-from",
      "0.3", "--overlay-to", "0.6", "--renderer", "cpu", "-o", timed, "--quiet",
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    for (k, shown) in [(0, false), (8, false), (9, true), (17, true), (18, false), (23, false)] {
      let frame = try ImageFile.read(URL(fileURLWithPath: timed + PNGFolderSink.frameName(k)))
      XCTAssertEqual(frame.pixel(x: 29, y: 70) == [255, 0, 0, 255], shown, "frame \(k) at \(Double(k) / 30) s")
    }
    let missing = try h.run(["slideshow", a, "--overlay-size", "0.2", "-o", h.path("x.y4m")])
    XCTAssertEqual(missing.status, 64)
    XCTAssertTrue(missing.stderr.contains("--overlay-size is for --overlay, and none is given"), missing.stderr)
  }

  // MARK: clips and audio

  /// `--loop`: a clip shorter than its slot plays again and again to fill it — the same frame a
  /// loop later, its sound on through the second loop (astats), and the video as long as the slots.
  func testLoopFillsAClipsSlotWithItsPicturesAndSound() throws {
    let (a, b) = try pictures()
    let clip = try h.clip("loop.mp4", width: 64, height: 36, fps: 25, seconds: 2, frequency: 880)
    let folder = h.path("loop") + "/"
    let common = ["slideshow", a, clip, b, "--hold", "4", "--transition-duration", "0.2", "--loop", "--fps", "25"]
    XCTAssertEqual(try h.run(common + ["--renderer", "cpu", "-o", folder, "--quiet"]).status, 0)
    // The clip's slot starts at 4.0 s: frames 112 (0.5 s into it) and 162 (a loop later) are one.
    let read = { (k: Int) in try ImageFile.read(URL(fileURLWithPath: folder + PNGFolderSink.frameName(k))) }
    XCTAssertEqual(try read(112).pixels, try read(162).pixels)
    XCTAssertNotEqual(try read(112).pixels, try read(120).pixels)
    let out = h.path("looped.mp4")
    XCTAssertEqual(try h.run(common + ["--renderer", "cpu", "-o", out, "--quiet"]).status, 0)
    let seconds = try ToolHarness.run(
      ToolHarness.which("ffprobe"), ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out])
    XCTAssertEqual(Double(seconds.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 12.4, accuracy: 0.05)
    let first = try ToolHarness.rms(out, 4.5, 5.5)
    let second = try ToolHarness.rms(out, 6.5, 7.5)
    XCTAssertGreaterThan(second, -60, "the sound goes on in the second loop")
    XCTAssertEqual(first, second, accuracy: 0.5)
    let refused = try h.run(["slideshow", a, clip, "--loop", "-o", h.path("x.mp4")])
    XCTAssertEqual(refused.status, 64)
    XCTAssertTrue(refused.stderr.contains("--loop fills each clip's --hold: give --hold"), refused.stderr)
  }

  /// Ken Burns on a clip: a `--zoom` given once per input moves the clip it names (a zoom in:
  /// its last frame magnified, its first as it is); given once for all, it moves the stills alone.
  func testKenBurnsMovesAClipNamedPerInput() throws {
    let (a, _) = try pictures()
    let clip = try h.clip("kb.mp4", width: 64, height: 36, fps: 10, seconds: 1, audio: false)
    func frames(_ extra: [String], _ name: String) throws -> (first: Image, last: Image) {
      let folder = h.path(name) + "/"
      let r = try h.run(
        [
          "concat", a, clip, "--hold", "0.5", "--transition-duration", "0.1", "--renderer", "cpu", "-o", folder,
          "--quiet",
        ]
          + extra)
      XCTAssertEqual(r.status, 0, r.stderr)
      let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
      // The clip's first frame alone (after the transition) and its last.
      let read = { (n: String) in try ImageFile.read(URL(fileURLWithPath: folder + n)) }
      return (try read(names[names.count - 9]), try read(names[names.count - 1]))
    }
    let plain = try frames([], "plain")
    let moved = try frames(["--zoom", "none", "--zoom", "in"], "moved")
    let stillsOnly = try frames(["--zoom", "in"], "stills")
    XCTAssertEqual(stillsOnly.last.pixels, plain.last.pixels, "one --zoom for all leaves the clip as it is")
    XCTAssertNotEqual(moved.last.pixels, plain.last.pixels, "the clip is zoomed into by its end")
    let early = try ImageComparison(expected: plain.first, actual: moved.first)
    let late = try ImageComparison(expected: plain.last, actual: moved.last)
    XCTAssertGreaterThan(early.psnr, late.psnr, "the zoom grows over the clip's time")
  }

  /// `--duck DB`: the music is DB lower while a clip with sound plays, by ffmpeg's own `astats`
  /// (RMS of the mix with the clip muted by `--clip-volume 0`, so only the music is heard);
  /// `--audio-volume` scales it everywhere; both refused without `--audio`.
  func testDuckingLowersTheMusicUnderClipsBytheAskedDecibels() throws {
    let (a, b) = try pictures()
    let clip = try h.clip("snd.mp4", width: 64, height: 36, fps: 25, seconds: 2, frequency: 880)
    let music = h.path("music.m4a")
    let made = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:d=10", "-c:a", "aac", music])
    XCTAssertEqual(made.status, 0, made.stderr)
    // a.png 0…1.7 s, the clip 1.5…3.5 s, b.png 3.3…5 s (holds of 1.5 s, transitions of 0.2 s).
    let common = [
      "slideshow", a, clip, b, "--hold", "1.5", "--transition-duration", "0.2", "--audio", music, "--clip-volume", "0",
      "--renderer", "cpu", "--quiet",
    ]
    let ducked = h.path("duck.mp4")
    XCTAssertEqual(try h.run(common + ["--duck", "12", "-o", ducked]).status, 0)
    let before = try rms(ducked, 0.3, 1.0)
    let under = try rms(ducked, 2.2, 3.0)
    XCTAssertEqual(before - under, 12, accuracy: 0.5, "the music under the clip, by astats")
    let quiet = h.path("quiet.mp4")
    XCTAssertEqual(try h.run(common + ["--audio-volume", "0.5", "-o", quiet]).status, 0)
    XCTAssertEqual(before - (try rms(quiet, 0.3, 1.0)), 20 * log10(2), accuracy: 0.3, "--audio-volume 0.5")
    XCTAssertEqual(try rms(quiet, 0.3, 1.0), try rms(quiet, 2.2, 3.0), accuracy: 0.3, "not ducked without --duck")
    // --loudness: measured over the whole mix, applied as one gain; ffmpeg's ebur128 reads the
    // result within 0.5 LU of the target.
    let loud = h.path("loud.mp4")
    XCTAssertEqual(
      try h.run(common.filter { $0 != "--clip-volume" && $0 != "0" } + ["--loudness", "-20", "-o", loud]).status, 0)
    let r128 = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "info", "-nostats", "-i", loud, "-af", "ebur128", "-f", "null", "-"])
    let summary = try XCTUnwrap(r128.stderr.range(of: "Integrated loudness:"), r128.stderr)
    let iLine = try XCTUnwrap(r128.stderr[summary.upperBound...].split(separator: "\n").first { $0.contains("I:") })
    let integrated = try XCTUnwrap(Double(iLine.split(separator: " ").dropFirst().first ?? ""), String(iLine))
    XCTAssertEqual(integrated, -20, accuracy: 0.5, "integrated loudness by ebur128")
    let refused = try h.run(["slideshow", a, clip, "--duck", "6", "-o", h.path("x.mp4")])
    XCTAssertEqual(refused.status, 64)
    XCTAssertTrue(refused.stderr.contains("--duck lowers the --audio tracks, and none is given"), refused.stderr)
  }

  /// `--cut FROM:TO` plays the stretch of a clip that ffmpeg's own `-ss FROM -to TO` decodes: the
  /// same number of frames, each closest to ffmpeg's frame at the same place (and not to its
  /// neighbours), and the whole clip elsewhere.
  func testACutPlaysTheFramesFFmpegsSeekDecodes() throws {
    let clip = try h.clip("c.mp4", width: 64, height: 48, fps: 10, seconds: 3, audio: false)
    let out = h.path("cut.y4m")
    let r = try h.run(["concat", clip, "--cut", "1.2:2.4", "--renderer", "cpu", "-o", out, "--quiet"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let ours = try ffmpegFrames(["-i", out], pixelFormat: "rgb24", bytes: 64 * 48 * 3)
    let theirs = try ffmpegFrames(["-ss", "1.2", "-to", "2.4", "-i", clip], pixelFormat: "rgb24", bytes: 64 * 48 * 3)
    XCTAssertEqual(ours.count, 12)
    assertFramesMatch(ours, theirs, from: 0, psnr: 30)
    // A cut that leaves the clip, or ends before it starts, is refused by name.
    let late = try h.run(["concat", clip, "--cut", "4:", "--renderer", "cpu", "-o", h.path("x.y4m")])
    XCTAssertEqual(late.status, 64)
    XCTAssertTrue(late.stderr.contains("c.mp4 is 3 s long; the cut starts at or after its end"), late.stderr)
    let reversed = try h.run(["concat", clip, "--cut", "2:1", "--renderer", "cpu", "-o", h.path("x.y4m")])
    XCTAssertEqual(reversed.status, 64)
    XCTAssertTrue(reversed.stderr.contains("the end must come after the start"), reversed.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("x.y4m")))
  }

  /// Every frame ffmpeg decodes with `arguments`, as raw `pixelFormat` frames of `bytes` bytes.
  func ffmpegFrames(_ arguments: [String], pixelFormat: String, bytes: Int) throws -> [[UInt8]] {
    let run = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "error"] + arguments + ["-f", "rawvideo", "-pix_fmt", pixelFormat, "-"])
    XCTAssertEqual(run.status, 0, run.stderr)
    return stride(from: 0, to: run.data.count - bytes + 1, by: bytes).map { Array(run.data[$0..<$0 + bytes]) }
  }

  /// As many frames, and from `first` on each frame within `psnr` dB of ffmpeg's at the same
  /// place and closer to it than to its neighbours: the same frames, in the same order.
  func assertFramesMatch(
    _ ours: [[UInt8]], _ theirs: [[UInt8]], from first: Int, psnr minimum: Double, line: UInt = #line
  ) {
    XCTAssertEqual(ours.count, theirs.count, line: line)
    func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
      let mse = zip(a, b).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) } / Double(a.count)
      return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
    for k in first..<min(ours.count, theirs.count) {
      let same = psnr(ours[k], theirs[k])
      XCTAssertGreaterThan(same, minimum, "frame \(k)", line: line)
      for j in [k - 1, k + 1] where theirs.indices.contains(j) {
        XCTAssertGreaterThan(same, psnr(ours[k], theirs[j]), "frame \(k) is closer to ffmpeg's frame \(j)", line: line)
      }
    }
  }

  /// `--speed 2` plays a clip twice as fast: its frames, one by one, closest to ffmpeg's own
  /// `setpts=0.5*PTS,fps=25` of the same clip (and not to their neighbours), its sound as long as
  /// the pictures (atempo, pitch kept).
  func testSpeedTwoIsFFmpegsSetptsFrameForFrame() throws {
    // mandelbrot changes every frame (testsrc2 holds some for two or three).
    let clip = h.path("s.mp4")
    let made = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "mandelbrot=s=64x48:r=25", "-f", "lavfi", "-i", "sine=f=440:r=48000",
        "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "10", "-colorspace", "bt709", "-color_primaries",
        "bt709", "-color_trc", "bt709", "-color_range", "tv", "-c:a", "aac", "-shortest", clip,
      ])
    XCTAssertEqual(made.status, 0, made.stderr)
    let out = h.path("fast.y4m")
    XCTAssertEqual(try h.run(["concat", clip, "--speed", "2", "--renderer", "cpu", "-o", out, "--quiet"]).status, 0)
    // RGB as ffmpeg makes it of each (the clip tagged BT.709; the SD Y4M in BT.601, the matrix
    // its size implies). ffmpeg's fps filter repeats the first frame once after
    // setpts (it gives source frames 0, 0, 4, 6, 8, …); from frame 2 on, frame k is source frame
    // 2k on both sides.
    let ours = try ffmpegFrames(["-i", out], pixelFormat: "rgb24", bytes: 64 * 48 * 3)
    let theirs = try ffmpegFrames(
      ["-i", clip, "-vf", "setpts=0.5*PTS,fps=25"], pixelFormat: "rgb24", bytes: 64 * 48 * 3)
    XCTAssertEqual(ours.count, 25)
    assertFramesMatch(ours, theirs, from: 2, psnr: 35)
    let mp4 = h.path("fast.mp4")
    XCTAssertEqual(try h.run(["concat", clip, "--speed", "2", "--renderer", "cpu", "-o", mp4, "--quiet"]).status, 0)
    let streams = try h.probe(mp4)
    let audio = try XCTUnwrap(streams.first { $0["codec_type"] == "audio" })
    XCTAssertEqual(Double(audio["duration"] ?? "") ?? 0, 1, accuracy: 0.06, "the sound as long as the pictures")
    let slow = try h.run(["concat", clip, "--speed", "8", "-o", h.path("x.y4m")])
    XCTAssertEqual(slow.status, 64)
    XCTAssertTrue(slow.stderr.contains("--speed must be a number from 0.25 to 4"), slow.stderr)
  }

  /// Times as ffmpeg writes them: seconds, mm:ss and hh:mm:ss with a fraction on the last field,
  /// FROM..TO where the times hold colons, and either end left out.
  func testCutTimesReadAsFFmpegWritesThem() {
    XCTAssertEqual(CutRange.seconds("90.5"), 90.5)
    XCTAssertEqual(CutRange.seconds("1:30.25"), 90.25)
    XCTAssertEqual(CutRange.seconds("01:00:02"), 3602)
    XCTAssertNil(CutRange.seconds("1:75"))
    XCTAssertNil(CutRange.seconds("-3"))
    XCTAssertNil(CutRange.seconds("1.5:20"))
    XCTAssertNil(CutRange.seconds("nan"))
    let a = CutRange(argument: "1:30..2:05.5")
    XCTAssertEqual(a?.from, 90)
    XCTAssertEqual(a?.to, 125.5)
    let b = CutRange(argument: "5:")
    XCTAssertEqual(b?.from, 5)
    XCTAssertNil(b?.to ?? nil)
    let whole = CutRange(argument: ":")
    XCTAssertNil(whole?.from ?? nil)
    XCTAssertNil(whole?.to ?? nil)
    XCTAssertNil(CutRange(argument: "1:30:2:00"), "ambiguous: FROM..TO says where one time ends")
  }

  // MARK: audio tracks, voices, fitting, the printed edit

  /// RMS level (dB) of `file` from `from` to `to` seconds by ffmpeg's `astats`, after `filter`.
  func rms(_ file: String, _ from: Double, _ to: Double, filter: String? = nil) throws -> Double {
    try ToolHarness.rms(file, from, to, filter: filter)
  }

  /// A tone of `seconds` at `frequency`, then `silence` seconds of nothing, as WAV.
  func tone(_ name: String, frequency: Int, seconds: Double, silence: Double = 0) throws -> String {
    let path = h.path(name)
    let made = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=\(frequency):d=\(seconds)", "-af", "apad=pad_dur=\(silence)",
        path,
      ])
    XCTAssertEqual(made.status, 0, made.stderr)
    return path
  }

  /// `--audio` twice: the first silenced by its `--audio-volume 0`, the second placed at 2 s
  /// (`--audio-start`), cut to its first half second (`--audio-cut`) — heard from 2 to 2.5 s
  /// alone, or with `--audio-loop` over and over to the end; by `astats`.
  func testSeveralTracksArePlacedCutAndLooped() throws {
    let (a, _) = try pictures()
    let bed = try tone("bed.wav", frequency: 220, seconds: 10)
    let bell = try tone("bell.wav", frequency: 1000, seconds: 3)
    let common = [
      "slideshow", a, "--hold", "4", "--audio", bed, "--audio", bell, "--audio-volume", "0", "--audio-volume", "1",
      "--audio-start", "0", "--audio-start", "2", "--audio-cut", "0:0.5", "--renderer", "cpu", "--quiet",
    ]
    let once = h.path("once.mp4")
    XCTAssertEqual(try h.run(common + ["-o", once]).status, 0)
    XCTAssertLessThan(try rms(once, 0.2, 1.8), -60, "nothing before the second track starts")
    XCTAssertGreaterThan(try rms(once, 2.1, 2.4), -30, "the cut, placed at 2 s")
    XCTAssertLessThan(try rms(once, 2.7, 3.8), -60, "and over after its half second")
    let looped = h.path("looped.mp4")
    XCTAssertEqual(try h.run(common + ["--audio-loop", "-o", looped]).status, 0)
    XCTAssertLessThan(try rms(looped, 0.2, 1.8), -60)
    XCTAssertGreaterThan(try rms(looped, 2.7, 3.8), -30, "the cut again and again to the end")
    let bad = try h.run([
      "slideshow", a, "--audio", bed, "--audio-start", "1", "--audio-start", "2", "-o", h.path("x.mp4"),
    ])
    XCTAssertEqual(bad.status, 64)
    XCTAssertTrue(
      bad.stderr.contains("--audio-start is given twice for the --audio track 1"), bad.stderr)
    let late = try h.run(["slideshow", a, "--hold", "4", "--audio", bed, "--audio-cut", "20:", "-o", h.path("x.mp4")])
    XCTAssertEqual(late.status, 1)
    XCTAssertTrue(late.stderr.contains("the cut starts at 20 s, after its end"), late.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("x.mp4")))
  }

  /// `--voice` with `--duck 12`: the music drops 12 dB where the voice speaks (found by
  /// silencedetect), not where it pauses; the voice is not ducked. The music (220 Hz) is read
  /// through two low-pass filters that take the voice (3 kHz) 60 dB down.
  func testTheMusicDucksUnderAVoiceWhereItSpeaks() throws {
    let (a, _) = try pictures()
    let music = try tone("music.wav", frequency: 220, seconds: 10)
    let voice = try tone("voice.wav", frequency: 3000, seconds: 1, silence: 2)
    let out = h.path("voice.mp4")
    let r = try h.run([
      "slideshow", a, "--hold", "5", "--audio", music, "--voice", voice, "--voice-start", "1.5", "--duck", "12",
      "--duck-attack", "0.2", "--duck-release", "0.4", "--renderer", "cpu", "--quiet", "-o", out,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let lowpass = "lowpass=f=500,lowpass=f=500"
    let before = try rms(out, 0.2, 1.2, filter: lowpass)
    let under = try rms(out, 1.6, 2.4, filter: lowpass)
    let after = try rms(out, 3.2, 4.5, filter: lowpass)
    XCTAssertGreaterThanOrEqual(before - under, 12 - 0.3, "ducked at least the asked dB while the voice speaks")
    XCTAssertEqual(before, after, accuracy: 0.5, "back up once the voice pauses (after the release)")
    XCTAssertGreaterThan(
      try rms(out, 1.6, 2.4, filter: "highpass=f=2000,highpass=f=2000"), -30, "the voice, not ducked")
  }

  /// `--clip-duration 1.5` fits a 3 s clip into 1.5 s: the frames of `--speed 2`, byte for byte.
  func testClipDurationFitsTheClipBySpeed() throws {
    let clip = try h.clip("c.mp4", width: 64, height: 48, fps: 10, seconds: 3, audio: false)
    let fitted = h.path("fitted.y4m")
    let fast = h.path("fast.y4m")
    XCTAssertEqual(try h.run(["concat", clip, "--clip-duration", "1.5", "--renderer", "cpu", "-o", fitted]).status, 0)
    XCTAssertEqual(try h.run(["concat", clip, "--speed", "2", "--renderer", "cpu", "-o", fast]).status, 0)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: fitted)), try Data(contentsOf: URL(fileURLWithPath: fast)))
    let tooFast = try h.run(["concat", clip, "--clip-duration", "0.5", "--renderer", "cpu", "-o", h.path("x.y4m")])
    XCTAssertEqual(tooFast.status, 1)
    XCTAssertTrue(tooFast.stderr.contains("needs speed 6; speeds go from 0.25 to 4"), tooFast.stderr)
  }

  /// `--print-edit` prints the edit the flags make, in editly's shape, and writes nothing.
  func testPrintEditPrintsTheEditAndRendersNothing() throws {
    let (a, b) = try pictures()
    let clip = try h.clip("c.mp4", width: 64, height: 48, fps: 10, seconds: 3)
    let music = try tone("m.wav", frequency: 440, seconds: 5)
    let out = h.path("x.mp4")
    let r = try h.run([
      "slideshow", a, clip, b, "--hold", "1", "--transition-duration", "0.3", "--cut", ":", "--cut", "0.5:2.5", "--cut",
      ":", "--speed", "1",
      "--speed", "2", "--speed", "1", "--transition", "push:fromRight", "--transition", "random", "--title", "One",
      "--zoom", "in", "--overlay", a, "--overlay-position", "bottom-left", "--audio", music, "--duck", "6",
      "--loudness", "-16", "--fit", "contain-blur", "--clip-volume", "1", "--clip-volume", "0.5", "--clip-volume", "1",
      "--print-edit", "-o", out,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    let edit = try JSONDecoder().decode(Edit.self, from: Data(r.stdout.utf8))
    XCTAssertEqual(edit.clips.count, 3)
    XCTAssertEqual(edit.clips[0].layers.count, 2, "the image and its title")
    guard case .given(let first) = edit.clips[0].transition, case .given(let second) = edit.clips[1].transition else {
      return XCTFail(r.stdout)
    }
    XCTAssertEqual(first.name, "push:fromRight")
    XCTAssertNotEqual(second.name, "random", "random is chosen when the edit is made")
    XCTAssertEqual(edit.clips[2].transition, .none)
    guard case .video(let video) = edit.clips[1].layers[0] else { return XCTFail(r.stdout) }
    XCTAssertEqual(video.cutFrom, 0.5)
    XCTAssertEqual(video.speed, 2)
    XCTAssertEqual(video.mixVolume, 0.5, "--clip-volume once per input: each clip's own")
    XCTAssertEqual(edit.defaults?.layer?.resizeMode, "contain-blur")
    XCTAssertEqual(edit.overlays?.first?.position, .named("bottom-left"))
    XCTAssertEqual(edit.audioTracks?.first?.path, music)
    XCTAssertEqual(edit.ducking?.amount, 6)
    XCTAssertEqual(edit.loudness, -16)
    XCTAssertEqual(edit.keepSourceAudio, true)
  }

  /// `--overlay CLIP`: picture-in-picture. A clip overlay the size of the frame over a held still
  /// shows the clip's own frames, one by one, as ffmpeg decodes them (in RGB, and closer to the
  /// same frame than to its neighbours); it is silent, and goes off at `--overlay-to`.
  func testAClipOverlayPlaysTheClipsFramesOverTheVideo() throws {
    let (a, _) = try pictures()
    let clip = h.path("pip.mp4")
    let made = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "mandelbrot=s=64x36:r=10,trim=start=20,setpts=PTS-STARTPTS", "-t",
        "3", "-c:v", "libx264", "-pix_fmt",
        "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv",
        clip,
      ])
    XCTAssertEqual(made.status, 0, made.stderr)
    let out = h.path("pip.y4m")
    let r = try h.run([
      "slideshow", a, "--hold", "2", "--fps", "10", "--overlay", clip, "--overlay-size", "1", "--overlay-margin", "0",
      "--overlay-to", "1.5", "--renderer", "cpu", "--quiet", "-o", out,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let ours = try ffmpegFrames(["-i", out], pixelFormat: "rgb24", bytes: 64 * 36 * 3)
    let theirs = try ffmpegFrames(["-t", "1.5", "-i", clip], pixelFormat: "rgb24", bytes: 64 * 36 * 3)
    XCTAssertEqual(ours.count, 20)
    assertFramesMatch(Array(ours.prefix(15)), theirs, from: 0, psnr: 30)
    XCTAssertEqual(ours[16], ours[19], "the still alone once the overlay is off")
    XCTAssertNotEqual(ours[16], ours[14])
  }
}

/// `layerkit edit`: an edit file rendered; `slideshow --print-edit` writes one that renders to
/// the same frames.
final class EditFileCommandTests: XCTestCase {
  func testAPrintedEditRendersToTheSameFrames() throws {
    let h = try ToolHarness.make("edit-file")
    defer { h.cleanUp() }
    let clip = try h.clip("c.mp4", width: 64, height: 36, fps: 25, seconds: 2)
    let still = try h.write(try SampleScene.testImage(width: 64, height: 36, hue: 0.3), "s.png")
    let flags = [
      "slideshow", still, clip, "--hold", "1", "--transition", "push:fromRight", "--transition-duration", "0.4",
      "--title", "Hello", "--renderer", "cpu", "--quiet",
    ]
    let direct = h.path("direct.y4m")
    XCTAssertEqual(try h.run(flags + ["-o", direct]).status, 0)
    let printed = try h.run(flags + ["--print-edit", "-o", h.path("unused.y4m")])
    XCTAssertEqual(printed.status, 0, printed.stderr)
    let spec = h.path("show.json")
    try printed.stdout.write(toFile: spec, atomically: true, encoding: .utf8)
    let fromFile = h.path("edit.y4m")
    let r = try h.run(["edit", spec, "-o", fromFile, "--renderer", "cpu", "--quiet"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(
      FileManager.default.contents(atPath: fromFile), FileManager.default.contents(atPath: direct),
      "the same frames, byte for byte")
  }

  /// editly's JSON5, its outPath taken from the file's folder; a typo refused with its path,
  /// nothing written.
  func testAJSON5SpecRendersAndATypoIsNamed() throws {
    let h = try ToolHarness.make("edit-json5")
    defer { h.cleanUp() }
    _ = try h.clip("a.mp4", width: 64, height: 36, fps: 25, seconds: 2)
    let spec = h.path("show.json5")
    try """
    // editly's form
    {
      outPath: 'show.mp4', fps: 25,
      defaults: { transition: { name: 'fade', duration: 0.4 } },
      clips: [
        { duration: 1, layers: [{ type: 'video', path: 'a.mp4', cutFrom: 0, cutTo: 1 }] },
        { duration: 1, layers: [{ type: 'video', path: 'a.mp4', cutFrom: 1, cutTo: 2 }, { type: 'title', text: 'B' }] },
      ],
    }
    """.write(toFile: spec, atomically: true, encoding: .utf8)
    let r = try h.run(["edit", spec, "--renderer", "cpu", "--quiet"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let streams = try h.probe(h.path("show.mp4"))
    XCTAssertEqual(streams.first?["nb_read_frames"], "40", "2 s less the 0.4 s fade at 25 fps")
    let typo = h.path("typo.json5")
    try "{ outPath: 'typo.mp4', clips: [{ layers: [{ type: 'video', path: 'a.mp4', cutTo: 1, mixVolme: 0.5 }] }] }"
      .write(toFile: typo, atomically: true, encoding: .utf8)
    let bad = try h.run(["edit", typo])
    XCTAssertEqual(bad.status, 1)
    XCTAssertTrue(
      bad.stderr.contains("clips[0].layers[0].mixVolme: unknown key (did you mean \"mixVolume\"?)"), bad.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("typo.mp4")))
  }

  /// editly's clip-level layers: `image-overlay` over its part of the clip, `detached-audio`
  /// from `start` seconds into its clip, `audio` under its clip.
  func testClipLayersArePlacedAtTheirClipsStart() throws {
    let h = try ToolHarness.make("edit-layers")
    defer { h.cleanUp() }
    _ = try h.clip("a.mp4", width: 64, height: 36, fps: 25, seconds: 3, audio: false)
    let ffmpeg = ToolHarness.which("ffmpeg")
    XCTAssertEqual(
      try ToolHarness.run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=f=330:d=3", h.path("tone.m4a")]).status, 0)
    XCTAssertEqual(
      try ToolHarness.run(
        ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "color=c=red:s=16x16", "-frames:v", "1", h.path("logo.png")]
      ).status, 0)
    let spec = h.path("layers.json5")
    try """
    {
      outPath: 'layers.mp4', fps: 25, defaults: { duration: 2, transition: { name: 'fade', duration: 0.4 } },
      clips: [
        { layers: [{ type: 'video', path: 'a.mp4', cutFrom: 0, cutTo: 2 },
                   { type: 'image-overlay', path: 'logo.png', position: 'top-right', width: 0.25, start: 0.8, stop: 1.6 }] },
        { layers: [{ type: 'video', path: 'a.mp4', cutFrom: 1, cutTo: 3 }, { type: 'detached-audio', path: 'tone.m4a', start: 0.5 }] },
      ],
    }
    """.write(toFile: spec, atomically: true, encoding: .utf8)
    let r = try h.run(["edit", spec, "--renderer", "cpu", "--quiet"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let out = h.path("layers.mp4")
    // The second clip starts at 1.6 s (2 s less the fade): the tone from 2.1 s.
    func rms(_ range: String) throws -> String {
      let a = try ToolHarness.run(
        ffmpeg,
        [
          "-v", "error", "-i", out, "-af",
          "atrim=\(range),astats=metadata=1,ametadata=print:key=lavfi.astats.Overall.RMS_level:file=-",
          "-f", "null", "-",
        ])
      return a.stdout.split(separator: "\n").last.map(String.init) ?? ""
    }
    let before = try rms("0:1.9")
    XCTAssertTrue(before.hasSuffix("=-inf"), before)
    let level = Double(try rms("2.3:2.9").split(separator: "=").last ?? "") ?? -200
    XCTAssertGreaterThan(level, -40)
    // The logo is over the top-right corner at 1.2 s, not at 0.4 s.
    func corner(_ t: String) throws -> [UInt8] {
      let png = h.path("corner-\(t).png")
      let f = try ToolHarness.run(
        ffmpeg, ["-v", "error", "-ss", t, "-i", out, "-frames:v", "1", "-vf", "crop=4:4:56:2,scale=1:1", png])
      XCTAssertEqual(f.status, 0, f.stderr)
      return Array(try ImageFile.read(URL(fileURLWithPath: png)).pixels.prefix(3))
    }
    XCTAssertGreaterThan(try corner("1.2").first ?? 0, 200, "red over the corner")
    XCTAssertLessThan(try corner("0.4").first ?? 255, 200)
  }

  /// `--gl-transitions DIR` (or `$LAYERKIT_GL_TRANSITIONS`): a transition name that is no
  /// built-in effect is the gl-transitions file of that name, matched case-insensitively.
  func testTransitionNamesAreLookedUpInAGLTransitionsFolder() throws {
    let h = try ToolHarness.make("edit-gl")
    defer { h.cleanUp() }
    let folder = h.path("gl")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let shader = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("examples/transitions/circle_open.glsl")
    try FileManager.default.copyItem(atPath: shader.path, toPath: folder + "/CircleOpen.glsl")
    let spec = h.path("gl.json5")
    try """
    { width: 64, height: 36, fps: 25, defaults: { duration: 1, transition: { name: 'circleopen', duration: 0.4 } },
      clips: [{ layers: [{ type: 'fill-color', color: 'red' }] }, { layers: [{ type: 'fill-color', color: 'blue' }] }] }
    """.write(toFile: spec, atomically: true, encoding: .utf8)
    let withFlag = try h.run(["edit", spec, "--gl-transitions", folder, "--renderer", "gpu", "-o", h.path("a.y4m")])
    XCTAssertEqual(withFlag.status, 0, withFlag.stderr)
    let withEnv = try h.run(
      ["edit", spec, "--renderer", "gpu", "-o", h.path("b.y4m")], environment: ["LAYERKIT_GL_TRANSITIONS": folder])
    XCTAssertEqual(withEnv.status, 0, withEnv.stderr)
    XCTAssertEqual(
      FileManager.default.contents(atPath: h.path("a.y4m")), FileManager.default.contents(atPath: h.path("b.y4m")))
    let without = try h.run(["edit", spec, "--renderer", "gpu", "-o", h.path("c.y4m")])
    XCTAssertEqual(without.status, 1)
    XCTAssertTrue(without.stderr.contains("circleopen"), without.stderr)
  }

  /// editly's `audioNorm`: a quiet track is brought up by ffmpeg's dynaudnorm over the mix.
  func testAudioNormEvensOutTheMix() throws {
    let h = try ToolHarness.make("edit-norm")
    defer { h.cleanUp() }
    let ffmpeg = ToolHarness.which("ffmpeg")
    XCTAssertEqual(
      try ToolHarness.run(ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:d=4", h.path("tone.wav")]).status, 0)
    func level(_ norm: String) throws -> Double {
      let spec = h.path("n\(norm.count).json5")
      try """
      { width: 64, height: 36, fps: 25, audioTracks: [{ path: 'tone.wav', mixVolume: 0.05 }], \(norm)
        clips: [{ duration: 3, layers: [{ type: 'fill-color', color: 'black' }] }] }
      """.write(toFile: spec, atomically: true, encoding: .utf8)
      let out = h.path("n\(norm.count).mp4")
      let r = try h.run(["edit", spec, "--renderer", "cpu", "--quiet", "-o", out])
      XCTAssertEqual(r.status, 0, r.stderr)
      let a = try ToolHarness.run(
        ffmpeg,
        [
          "-v", "error", "-i", out, "-af",
          "atrim=1:2.5,astats=metadata=1,ametadata=print:key=lavfi.astats.Overall.RMS_level:file=-",
          "-f", "null", "-",
        ])
      return Double(a.stdout.split(separator: "\n").last?.split(separator: "=").last ?? "") ?? -200
    }
    let plain = try level("")
    let evened = try level("audioNorm: { enable: true, maxGain: 30 },")
    XCTAssertGreaterThan(evened, plain + 10, "dynaudnorm lifts a track 26 dB down by more than 10 dB")
  }
}
