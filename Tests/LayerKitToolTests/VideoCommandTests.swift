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

#if canImport(Glibc)
  import Glibc
#endif

/// `layerkit transition | slideshow | concat | join` writing videos, run as a user runs them:
/// decoded back with ffprobe / LayerKit's own Y4M reader and compared frame for frame.
final class VideoCommandTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("video") }
  override func tearDownWithError() throws { h.cleanUp() }

  /// Two small pictures of another size each.
  func pictures() throws -> (String, String) {
    (
      try h.write(try SampleScene.testImage(width: 64, height: 36, hue: 0.1), "a.png"),
      try h.write(try SampleScene.testImage(width: 80, height: 40, hue: 0.6), "b.png")
    )
  }

  // MARK: Y4M, the PNG frames converted

  /// The Y4M frames are the PNG frames converted: byte for byte where a still is shown alone;
  /// within one level during the push, which the Y4M output computes in its own planes (a slide
  /// between stills, PlanarSlide) where the PNG frames are drawn in RGBA.
  func testY4MHoldsTheRenderedFramesConverted() throws {
    let (a, b) = try pictures()
    let common = [
      a, b, "--transition", "push:fromRight", "--hold", "0.2", "--transition-duration", "0.3", "--fps", "10",
    ]
    for renderer in ["cpu", "gpu"] {
      let y4m = h.path("\(renderer).y4m")
      let frames = h.path("\(renderer)-frames/")
      XCTAssertEqual(try h.run(["slideshow"] + common + ["--renderer", renderer, "-o", y4m, "--quiet"]).status, 0)
      let png = try h.run(["slideshow"] + common + ["--renderer", renderer, "-o", frames, "--quiet"])
      XCTAssertEqual(png.status, 0, png.stderr)
      let reader = try Y4MReader(path: y4m)
      XCTAssertEqual(reader.header.width, 64)
      XCTAssertEqual(reader.header.height, 36)
      XCTAssertEqual(reader.header.frameRate.description, "10/1")
      XCTAssertEqual(reader.header.chroma, .yuv420)
      XCTAssertTrue(String(decoding: reader.headerLine, as: UTF8.self).contains("XCOLORRANGE=LIMITED"))
      let decoded = try reader.readAllFrames()
      // 0.2 + 0.3 + 0.2 (the first still, the push, the second) = 0.7 s plus a hold: 2·0.2 + 0.3 = 0.7 s.
      XCTAssertEqual(decoded.count, 7)
      let names = try FileManager.default.contentsOfDirectory(atPath: frames).sorted()
      XCTAssertEqual(names.count, decoded.count)
      for (i, name) in names.enumerated() {
        let image = try ImageFile.read(URL(fileURLWithPath: frames + "/" + name))
        // An SD Y4M holds BT.601, the matrix its readers assume for the size.
        XCTAssertEqual(reader.header.matrix, .bt601)
        var expected = try YUVConversion.convert(image, chroma: .yuv420)
        expected.withUnsafeMutableBytes { YCbCrRematrix.bt709To601.apply($0, layout: reader.header.layout) }
        // Frames 2, 3 and 4 (0.2 s, 0.3 s, 0.4 s) are the push.
        if (2...4).contains(i) {
          let worst = zip(decoded[i], expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
          // The push is drawn in planes (a level off RGB's conversion), two once in BT.601.
          XCTAssertLessThanOrEqual(worst, 2, "\(renderer) frame \(i)")
        } else {
          XCTAssertEqual(decoded[i], expected, "\(renderer) frame \(i)")
        }
      }
    }
  }

  func testY4MToStandardOutputAnd444() throws {
    let (a, b) = try pictures()
    let r = try h.run([
      "transition", a, b, "--duration", "0.2", "--fps", "10", "--pix-fmt", "yuv444p", "--renderer", "cpu", "-o", "-",
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let reader = try Y4MReader(data: r.data)
    XCTAssertEqual(reader.header.chroma, .yuv444)
    XCTAssertEqual(try reader.readAllFrames().count, 3)
  }

  func testAutoTakesTheCPUOnLlvmpipeOnlyForTransitionsWithRowKernels() throws {
    // CI and this machine render the GPU backend with Mesa's llvmpipe (a software rasterizer); on
    // a hardware GPU auto always takes the GPU.
    let info = try h.run(["info"])
    let software = info.stdout.contains("llvmpipe") || info.stdout.contains("softpipe")
    let (a, b) = try pictures()
    for (spec, expected) in [(["--type", "push"], software ? "cpu" : "gpu"), (["--filter", "pageCurl"], "gpu")] {
      let r = try h.run(
        ["transition", a, b] + spec + [
          "--duration", "0.2", "--fps", "10", "--renderer", "auto", "-o", h.path("auto.y4m"),
        ])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(r.stderr.contains(", \(expected)) in"), "\(spec): \(r.stderr)")
    }
  }

  // MARK: encoded formats

  func testEncodedFormatsDecodeBackWithTheirCodecsSizesCountsAndTags() throws {
    let (a, b) = try pictures()
    let cases: [(String, String, String?)] = [
      ("mp4", "h264", "yuv420p"), ("webm", "vp9", "yuv420p"), ("gif", "gif", nil), ("mov", "prores", "yuva444p12le"),
      ("mkv", "ffv1", "bgra"),
    ]
    for (ext, codec, pix) in cases {
      let out = h.path("out.\(ext)")
      let r = try h.run([
        "transition", a, b, "--type", "reveal", "--subtype", "fromTop", "--duration", "1", "--fps", "12",
        "--renderer", "cpu", "-o", out,
      ])
      XCTAssertEqual(r.status, 0, "\(ext): \(r.stderr)")
      let streams = try h.probe(out)
      let video = try XCTUnwrap(streams.first { $0["codec_type"] == "video" }, ext)
      XCTAssertEqual(video["codec_name"], codec, ext)
      XCTAssertEqual(video["width"], "64", ext)
      XCTAssertEqual(video["height"], "36", ext)
      XCTAssertEqual(video["nb_read_frames"], "13", ext)
      if let pix { XCTAssertEqual(video["pix_fmt"], pix, ext) }
      let seconds = try ToolHarness.run(
        ToolHarness.which("ffprobe"), ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out])
      let duration = Double(seconds.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
      XCTAssertEqual(duration, 13.0 / 12, accuracy: 0.09, ext)  // 13 frames at 12 fps (GIF: 1/100 s ticks)
      if ext == "mp4" || ext == "webm" || ext == "mov" {
        XCTAssertEqual(video["color_space"], "bt709", ext)
        XCTAssertEqual(video["color_range"], "tv", ext)
        XCTAssertEqual(video["color_primaries"], "bt709", ext)
        XCTAssertEqual(video["color_transfer"], "bt709", ext)
      }
      if ext == "mp4" {
        // +faststart: the moov box comes before mdat.
        let data = try Data(contentsOf: URL(fileURLWithPath: out))
        let moov = data.range(of: Data("moov".utf8))!.lowerBound
        let mdat = data.range(of: Data("mdat".utf8))!.lowerBound
        XCTAssertLessThan(moov, mdat)
      }
    }
    XCTAssertEqual(h.leftovers(), [])
  }

  func testOddSizesUnder420AreRefusedWithTheNearestEvenSizeOrPadded() throws {
    let a = try h.write(try Image(width: 33, height: 21, color: .red), "odd.png")
    let r = try h.run(["transition", a, a, "--duration", "0.1", "--renderer", "cpu", "-o", h.path("o.mp4")])
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.contains("34×22: give that --size"), r.stderr)
    XCTAssertEqual(r.stderr.split(separator: "\n").count, 1, r.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("o.mp4")))
    let y4m = try h.run(["transition", a, a, "--duration", "0.1", "--renderer", "cpu", "-o", h.path("o.y4m")])
    XCTAssertEqual(y4m.status, 1)
    let padded = try h.run([
      "transition", a, a, "--duration", "0.1", "--fps", "10", "--renderer", "cpu", "--pad", "--background", "blue",
      "-o",
      h.path("p.y4m"),
    ])
    XCTAssertEqual(padded.status, 0, padded.stderr)
    let reader = try Y4MReader(path: h.path("p.y4m"))
    XCTAssertEqual([reader.header.width, reader.header.height], [34, 22])
    let frame = try YUVConversion.image(fromPlanes: try XCTUnwrap(reader.readFrame()), layout: reader.header.layout)
    XCTAssertGreaterThan(frame.pixel(x: 2, y: 2)[0], 240)  // red inside
    XCTAssertLessThan(frame.pixel(x: 2, y: 2)[2], 20)
    // The padding corner is blue; its 2×2 chroma block shares one red pixel, hence the margin.
    let corner = frame.pixel(x: 33, y: 21)
    XCTAssertGreaterThan(Int(corner[2]), Int(corner[0]) + 100)
    // 4:2:2 needs an even width only: --pad adds a column, and the encoder takes the frames (the
    // padding and the sink once disagreed, and --pad failed too).
    let p422 = try h.run([
      "transition", a, a, "--duration", "0.1", "--fps", "10", "--renderer", "cpu", "--pix-fmt", "yuv422p", "--pad",
      "-o", h.path("p422.mp4"),
    ])
    XCTAssertEqual(p422.status, 0, p422.stderr)
    let probe = try ToolHarness.run(
      "/usr/bin/ffprobe",
      ["-v", "error", "-show_entries", "stream=width,height,pix_fmt", "-of", "csv=p=0", h.path("p422.mp4")])
    XCTAssertEqual(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "34,21,yuv422p")
    let refused = try h.run([
      "transition", a, a, "--duration", "0.1", "--renderer", "cpu", "--pix-fmt", "yuv422p", "-o", h.path("r.mp4"),
    ])
    XCTAssertEqual(refused.status, 1)
    XCTAssertTrue(refused.stderr.contains("cannot be stored as yuv422p"), refused.stderr)
    XCTAssertTrue(refused.stderr.contains("34×21: give that --size"), refused.stderr)
  }

  /// Animated WebP and APNG, and WebM with alpha (VP9 yuva420p): every frame written, alpha kept
  /// where the picture is transparent, looping forever (WebP, APNG).
  func testAnimatedWebPAPNGAndWebMWithAlphaKeepTheFramesAndTheirAlpha() throws {
    let clear = try h.write(try Image(width: 64, height: 36, color: .clear), "clear.png")
    let (a, _) = try pictures()
    func run(_ out: String, _ extra: [String] = []) throws {
      let r = try h.run(
        ["transition", clear, a, "--duration", "0.5", "--fps", "10", "--renderer", "cpu", "-o", h.path(out)] + extra)
      XCTAssertEqual(r.status, 0, "\(out): \(r.stderr)")
    }
    func firstPixel(_ arguments: [String]) throws -> [UInt8] {
      let r = try ToolHarness.run(
        ToolHarness.which("ffmpeg"),
        ["-v", "error"] + arguments + ["-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
      XCTAssertEqual(r.status, 0, r.stderr)
      return Array(r.data.prefix(4))
    }
    // WebP: RIFF/WEBP with VP8X flags for alpha and animation, an ANIM chunk looping forever, one
    // ANMF chunk a frame (Debian's ffmpeg 5.1 cannot read animated WebP back).
    try run("x.webp")
    let webp = [UInt8](try Data(contentsOf: URL(fileURLWithPath: h.path("x.webp"))))
    XCTAssertEqual(String(decoding: webp[0..<4], as: UTF8.self), "RIFF")
    XCTAssertEqual(String(decoding: webp[8..<16], as: UTF8.self), "WEBPVP8X")
    XCTAssertEqual(webp[20] & 0x12, 0x12, "alpha and animation flags")
    XCTAssertEqual(FFmpegSink.webPAnimation(h.path("x.webp"))?.frames, 6)
    let anim = try XCTUnwrap(Data(webp).range(of: Data("ANIM".utf8))).lowerBound
    XCTAssertEqual(webp[anim + 12] | webp[anim + 13], 0, "loop count 0: forever")
    // APNG: six frames, RGBA, the first transparent.
    try run("x.apng")
    let apng = try XCTUnwrap(try h.probe(h.path("x.apng")).first)
    XCTAssertEqual(apng["codec_name"], "apng")
    XCTAssertEqual(apng["nb_read_frames"], "6")
    XCTAssertEqual(try firstPixel(["-i", h.path("x.apng")])[3], 0)
    // WebM with alpha: VP9 tagged alpha_mode 1; decoded with libvpx, the first frame is transparent.
    try run("xa.webm", ["--pix-fmt", "yuva420p"])
    let tags = try ToolHarness.run(
      ToolHarness.which("ffprobe"),
      ["-v", "error", "-show_entries", "stream_tags=alpha_mode", "-of", "csv=p=0", h.path("xa.webm")])
    XCTAssertEqual(tags.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "1")
    XCTAssertEqual(try firstPixel(["-c:v", "libvpx-vp9", "-i", h.path("xa.webm")])[3], 0)
    // Without it, WebM is opaque: alpha composited over the background.
    try run("x.webm")
    XCTAssertEqual(try firstPixel(["-c:v", "libvpx-vp9", "-i", h.path("x.webm")])[3], 255)
    XCTAssertEqual(h.leftovers(), [])
  }

  func testConcatOfTwoClipsOverlapsThemAndCrossFadesTheirAudio() throws {
    // Different rates, sizes and aspects: converted to the first's.
    let c1 = try h.clip("c1.mp4", width: 160, height: 120, fps: 30, seconds: 1.0, frequency: 440)
    let c2 = try h.clip("c2.mp4", width: 192, height: 108, fps: 25, seconds: 1.2, frequency: 880)
    let out = h.path("joined.mp4")
    let r = try h.run(["concat", c1, c2, "--transition", "fade", "--transition-duration", "0.4", "-o", out, "--quiet"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let streams = try h.probe(out)
    let video = try XCTUnwrap(streams.first { $0["codec_type"] == "video" })
    XCTAssertEqual(video["width"], "160")
    XCTAssertEqual(video["height"], "120")
    // 1.0 + 1.2 − 0.4 = 1.8 s at 30 fps.
    XCTAssertEqual(video["nb_read_frames"], "54")
    let audio = try XCTUnwrap(streams.first { $0["codec_type"] == "audio" })
    XCTAssertEqual(Double(audio["duration"] ?? "") ?? 0, 1.8, accuracy: 0.05)
  }

  func testSlideshowOfStillsAndAClipKeepsAudioOfTheWholeLength() throws {
    let (a, b) = try pictures()
    let clip = try h.clip("c.mp4", width: 64, height: 36, fps: 20, seconds: 1.0)
    let out = h.path("show.webm")
    let r = try h.run([
      "slideshow", a, clip, b, "--transition", "fade", "--transition", "push:fromBottom", "--hold", "0.5",
      "--transition-duration", "0.25", "--renderer", "cpu", "-o", out, "--quiet",
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let streams = try h.probe(out)
    // a: 0.5 + 0.25, clip: min(1, 0.5 + 0.5), b: 0.5 + 0.25 → 2.5 − 0.5 = 2 s at the clip's 20 fps.
    XCTAssertEqual(streams.first { $0["codec_type"] == "video" }?["nb_read_frames"], "40")
    let audio = try XCTUnwrap(streams.first { $0["codec_type"] == "audio" })
    XCTAssertEqual(audio["codec_name"], "opus")
    let seconds = try ToolHarness.run(
      ToolHarness.which("ffprobe"), ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", out])
    XCTAssertEqual(Double(seconds.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0, 2.0, accuracy: 0.06)
  }

  func testMusicTrackAndNoAudio() throws {
    let (a, b) = try pictures()
    let music = h.path("music.wav")
    let m = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "error", "-f", "lavfi", "-i", "sine=f=330:d=5", music])
    XCTAssertEqual(m.status, 0, m.stderr)
    let out = h.path("m.mp4")
    let r = try h.run([
      "slideshow", a, b, "--hold", "0.5", "--transition-duration", "0.5", "--audio", music, "--audio-fade", "0.5",
      "--renderer", "cpu", "-o", out, "--quiet",
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let audio = try XCTUnwrap(try h.probe(out).first { $0["codec_type"] == "audio" })
    XCTAssertEqual(Double(audio["duration"] ?? "") ?? 0, 1.5, accuracy: 0.06)  // trimmed to the video: 1 + 1 − 0.5 s
    let clip = try h.clip("c.mp4", width: 64, height: 36, fps: 10, seconds: 1)
    let silent = h.path("s.mp4")
    XCTAssertEqual(try h.run(["concat", clip, clip, "--no-audio", "-o", silent, "--quiet"]).status, 0)
    XCTAssertNil(try h.probe(silent).first { $0["codec_type"] == "audio" })
    // A "music track" without sound: refused before anything is rendered.
    let mute = try h.run(["slideshow", a, b, "--audio", a, "--renderer", "cpu", "-o", h.path("n.mp4")])
    XCTAssertEqual(mute.status, 1)
    XCTAssertTrue(mute.stderr.contains("no audio stream"), mute.stderr)
  }

  func testFrameRangesOutsideTheVideoAreUsageErrors() throws {
    let (a, b) = try pictures()
    for bad in [["--frames", "500.."], ["--frames", "3..900"], ["--shard", "5/3"], ["--frames", "4..2"]] {
      let r = try h.run(["slideshow", a, b, "--hold", "0.2", "--renderer", "cpu", "-o", h.path("r.y4m")] + bad)
      XCTAssertEqual(r.status, 64, "\(bad): \(r.stderr)")
      XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("r.y4m")))
    }
  }

  func testATransitionBetweenTwoClipsPlaysTheEndOfOneOverTheStartOfTheOther() throws {
    let c1 = try h.clip("c1.mp4", width: 64, height: 36, fps: 10, seconds: 2.0, frequency: 440)
    let c2 = try h.clip("c2.mp4", width: 64, height: 36, fps: 10, seconds: 2.0, frequency: 660)
    // Frames of the two clips alone, to compare with: c1's frame 10 (1.0 s) is the first frame of
    // a 1-second transition at its end; c2's frame 10 its last.
    let out = h.path("t.y4m")
    let r = try h.run(["transition", c1, c2, "--duration", "1", "--renderer", "cpu", "-o", out, "--quiet"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let frames = try Y4MReader(path: out).readAllFrames()
    XCTAssertEqual(frames.count, 11)  // 1 s at the clips' 10 fps, both ends included
    XCTAssertEqual(try h.run(["concat", c1, "--renderer", "cpu", "--quiet", "-o", h.path("a.y4m")]).status, 0)
    XCTAssertEqual(try h.run(["concat", c2, "--renderer", "cpu", "--quiet", "-o", h.path("b.y4m")]).status, 0)
    let a = try Y4MReader(path: h.path("a.y4m")).readAllFrames()
    let b = try Y4MReader(path: h.path("b.y4m")).readAllFrames()
    XCTAssertEqual(frames[0], a[10], "the transition starts on FROM's frame at 1 s")
    XCTAssertEqual(frames[10], b[10], "and ends on TO's frame at 1 s")
    XCTAssertNotEqual(frames[5], a[15])
    let mp4 = h.path("t.mp4")
    XCTAssertEqual(
      try h.run(["transition", c1, c2, "--duration", "1", "--renderer", "cpu", "-o", mp4, "--quiet"]).status, 0)
    let audio = try XCTUnwrap(try h.probe(mp4).first { $0["codec_type"] == "audio" })
    XCTAssertEqual(Double(audio["duration"] ?? "") ?? 0, 1.0, accuracy: 0.1)
  }

  func testAClipShorterThanItsTransitionsIsAClearError() throws {
    let clip = try h.clip("short.mp4", width: 64, height: 36, fps: 10, seconds: 0.3)
    let r = try h.run(["concat", clip, clip, clip, "--transition-duration", "0.2", "-o", h.path("x.mp4")])
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.contains("shorter than the 0.4 s its transitions need"), r.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("x.mp4")))
  }

  // MARK: shards

  func testShardsJoinedEqualAWholeRender() throws {
    let (a, b) = try pictures()
    let clip = try h.clip("c.mp4", width: 64, height: 36, fps: 10, seconds: 1.0)
    let common = [
      "slideshow", a, clip, b, "--transition", "random", "--seed", "7", "--hold", "0.3", "--transition-duration", "0.3",
      "--renderer", "cpu", "--quiet",
    ]
    XCTAssertEqual(try h.run(common + ["-o", h.path("whole.y4m")]).status, 0)
    let whole = try Data(contentsOf: URL(fileURLWithPath: h.path("whole.y4m")))
    // --shard I/N into Y4M, MKV and PNG-folder parts; --frames into Y4M.
    var y4m: [String] = []
    var mkv: [String] = []
    var folders: [String] = []
    for i in 0..<3 {
      for (ext, into) in [("y4m", 0), ("mkv", 1)] {
        let part = h.path("part-\(i).\(ext)")
        let r = try h.run(common + ["--shard", "\(i)/3", "-o", part])
        XCTAssertEqual(r.status, 0, r.stderr)
        if into == 0 { y4m.append(part) } else { mkv.append(part) }
      }
      let folder = h.path("part-\(i)/")
      XCTAssertEqual(try h.run(common + ["--shard", "\(i)/3", "-o", folder]).status, 0)
      folders.append(folder)
    }
    for (parts, name) in [(y4m, "j1.y4m"), (mkv, "j2.y4m")] {
      let r = try h.run(["join"] + parts + ["-o", h.path(name)])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: h.path(name))), whole, name)
    }
    let r = try h.run(["join"] + folders + ["--fps", "10", "-o", h.path("j3.y4m")])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: h.path("j3.y4m"))), whole)
    // --frames A..B pieces, joined, too.
    let total = try Y4MReader(path: h.path("whole.y4m")).readAllFrames().count
    XCTAssertEqual(try h.run(common + ["--frames", "0..5", "-o", h.path("f0.y4m")]).status, 0)
    XCTAssertEqual(try h.run(common + ["--frames", "5..", "-o", h.path("f1.y4m")]).status, 0)
    XCTAssertEqual(try Y4MReader(path: h.path("f1.y4m")).readAllFrames().count, total - 5)
    XCTAssertEqual(try h.run(["join", h.path("f0.y4m"), h.path("f1.y4m"), "-o", h.path("j4.y4m")]).status, 0)
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: h.path("j4.y4m"))), whole)
    // Y4M parts into an MP4 of their own pixel format; into a GIF, a clear refusal.
    let fromY4M = h.path("y4m-joined.mp4")
    XCTAssertEqual(try h.run(["join"] + y4m + ["-o", fromY4M, "--quiet"]).status, 0)
    XCTAssertEqual(try h.probe(fromY4M).first { $0["codec_type"] == "video" }?["nb_read_frames"], String(total))
    let gif = try h.run(["join"] + y4m + ["-o", h.path("j.gif")])
    XCTAssertEqual(gif.status, 1)
    XCTAssertTrue(gif.stderr.contains("render .mkv parts"), gif.stderr)
    // MKV parts carry the whole video's audio in the first part; the joined MP4 has it all.
    let mp4 = h.path("joined.mp4")
    XCTAssertEqual(try h.run(["join"] + mkv + ["-o", mp4, "--quiet"]).status, 0)
    let streams = try h.probe(mp4)
    XCTAssertEqual(streams.first { $0["codec_type"] == "video" }?["nb_read_frames"], String(total))
    let audio = try XCTUnwrap(streams.first { $0["codec_type"] == "audio" })
    XCTAssertEqual(Double(audio["duration"] ?? "") ?? 0, Double(total) / 10, accuracy: 0.06)
  }

  // MARK: paths, signals, failures

  func testOutputPathsAsUsersGiveThem() throws {
    let (a, b) = try pictures()
    let base = [a, b, "--duration", "0.2", "--fps", "10", "--renderer", "cpu", "--quiet"]
    // A device is written through, never replaced.
    XCTAssertEqual(try h.run(["transition"] + base + ["-o", "/dev/null"]).status, 0)
    var info = stat()
    XCTAssertEqual(stat("/dev/null", &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR)
    // A symlink is written through to its target; the link stays a link.
    let target = h.path("real.y4m")
    let link = h.path("link.y4m")
    try Data("old".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real.y4m")
    XCTAssertEqual(try h.run(["transition"] + base + ["-o", link]).status, 0)
    XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), "real.y4m")
    XCTAssertEqual(try Y4MReader(path: target).readAllFrames().count, 3)
    // A FIFO: the frames stream through it.
    let fifo = h.path("pipe.y4m")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    final class Box: @unchecked Sendable { var data = Data() }
    let received = Box()
    let reader = Thread {
      if let handle = FileHandle(forReadingAtPath: fifo) { received.data = handle.readDataToEndOfFile() }
    }
    reader.start()
    XCTAssertEqual(try h.run(["transition"] + base + ["-o", fifo]).status, 0)
    while reader.isExecuting || !reader.isFinished { usleep(10_000) }
    XCTAssertEqual(try Y4MReader(data: received.data).readAllFrames().count, 3)
    // A frame folder that holds frames is refused without --overwrite.
    let folder = h.path("frames/")
    XCTAssertEqual(try h.run(["transition"] + base + ["-o", folder]).status, 0)
    let again = try h.run(["transition"] + base + ["-o", folder])
    XCTAssertEqual(again.status, 1)
    XCTAssertTrue(again.stderr.contains("--overwrite"), again.stderr)
    XCTAssertEqual(try h.run(["transition"] + base + ["-o", folder, "--overwrite"]).status, 0)
    // An unwritable place: one clear line.
    let bad = try h.run(["transition"] + base.dropLast() + ["-o", "/nonexistent/folder/out.mp4"])
    XCTAssertEqual(bad.status, 1)
    XCTAssertEqual(bad.stderr.split(separator: "\n").count, 1, bad.stderr)
    XCTAssertTrue(bad.stderr.contains("/nonexistent/folder"), bad.stderr)
  }

  func testWithoutFFmpegEncodedFormatsSayWhatToInstallAndY4MStillWorks() throws {
    let (a, b) = try pictures()
    let empty = h.path("empty-bin")
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
    let env = ["PATH": empty]
    let mp4 = try h.run(["transition", a, b, "--renderer", "cpu", "-o", h.path("x.mp4")], environment: env)
    XCTAssertEqual(mp4.status, 1)
    XCTAssertEqual(
      mp4.stderr,
      "layerkit transition: ffmpeg was not found on PATH; install Debian's ffmpeg package (apt-get install ffmpeg)\n")
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("x.mp4")))
    XCTAssertEqual(h.leftovers(), [])
    let y4m = try h.run(
      ["transition", a, b, "--duration", "0.2", "--renderer", "cpu", "--quiet", "-o", h.path("x.y4m")], environment: env
    )
    XCTAssertEqual(y4m.status, 0, y4m.stderr)
  }

  func testAnEncoderThatDiesMidRenderGivesItsErrorAndNoFile() throws {
    let (a, b) = try pictures()
    // A stand-in ffmpeg that reads a little, complains and exits.
    let bin = h.path("fake-bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    let script = """
      #!/bin/sh
      head -c 20000 >/dev/null
      echo "Conversion failed: disk quota exceeded (fake encoder)" >&2
      exit 1
      """
    try Data(script.utf8).write(to: URL(fileURLWithPath: bin + "/ffmpeg"))
    chmod(bin + "/ffmpeg", 0o755)
    let out = h.path("dies.mp4")
    let r = try h.run(
      ["transition", a, b, "--duration", "2", "--fps", "30", "--renderer", "cpu", "-o", out],
      environment: ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")])
    XCTAssertEqual(r.status, 1)
    // Named as the output's failure, in plain words.
    XCTAssertTrue(r.stderr.contains("dies.mp4: cannot write the output: the disk quota is exceeded"), r.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    XCTAssertEqual(h.leftovers(), [])
  }

  func testSIGINTAndSIGTERMStopTheRenderAndLeaveNoFile() throws {
    let (a, b) = try pictures()
    for (signal, status) in [(SIGINT, Int32(130)), (SIGTERM, Int32(143))] {
      let out = h.path("long-\(signal).mp4")
      let process = try h.start([
        "slideshow", a, b, "--hold", "600", "--transition-duration", "1", "--fps", "30", "--renderer", "cpu", "-o", out,
      ])
      // Wait until the encoder's temporary file exists: the render is under way.
      let deadline = Date().addingTimeInterval(20)
      while h.leftovers().isEmpty && Date() < deadline && process.isRunning { usleep(20_000) }
      XCTAssertFalse(h.leftovers().isEmpty, "the render never started")
      usleep(300_000)
      kill(process.processIdentifier, signal)
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, status)
      XCTAssertFalse(FileManager.default.fileExists(atPath: out))
      XCTAssertEqual(h.leftovers(), [])
    }
  }

  func testContactSheet() throws {
    let (a, b) = try pictures()
    let sheet = h.path("sheet.png")
    let r = try h.run([
      "transition", a, b, "--duration", "1", "--fps", "10", "--renderer", "cpu", "--quiet", "-o", h.path("t.y4m"),
      "--contact-sheet", sheet,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let image = try ImageFile.read(URL(fileURLWithPath: sheet))
    // 11 frames → 11 cells, 4 a row: 3 rows of 320-wide thumbnails.
    XCTAssertEqual(image.width, 8 + 4 * 328)
    XCTAssertEqual(image.height, 8 + 3 * (180 + 22 + 8))
  }
}
