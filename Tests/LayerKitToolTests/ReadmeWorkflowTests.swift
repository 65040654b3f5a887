import Foundation
import LayerKit
import LayerKitSamples
import XCTest

@testable import LayerKitEdit
@testable import LayerKitOutput
@testable import LayerKitTimeline
@testable import LayerKitVideo

#if canImport(Glibc)
  import Glibc
#endif

/// The README's workflows as a newcomer runs them, and what a hostile rerun found in them (issue
/// 35): shards of an MP4 render joined, `--print-edit` then `edit`, a WebP of repeated frames, a
/// duck that lets go, a track's options following it, one loudness gain, a clip sped up four
/// times, SIGTERM while the encoder hangs, and smart rendering that never copies damage. Each runs
/// the built `layerkit`.
final class ReadmeWorkflowTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("readme") }
  override func tearDownWithError() throws { h.cleanUp() }

  private func ffmpeg(_ arguments: [String]) throws -> ToolHarness.Run {
    try ToolHarness.run(ToolHarness.which("ffmpeg"), ["-nostdin", "-hide_banner"] + arguments)
  }

  /// Seconds of a file's stream (`a` or `v`), as ffprobe reads it.
  private func duration(_ file: String, _ stream: String) throws -> Double {
    let r = try ToolHarness.run(
      ToolHarness.which("ffprobe"),
      ["-v", "error", "-select_streams", "\(stream):0", "-show_entries", "stream=duration", "-of", "csv=p=0", file])
    return Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
  }

  /// The RMS level (dBFS) of a file's sound from `from` to `to` seconds, through a band-pass at
  /// `hz` (a track's tone apart from the others), by ffmpeg's astats.
  private func level(_ file: String, from: Double, to: Double, hz: Int) throws -> Double {
    let r = try ffmpeg([
      "-v", "info", "-i", file, "-af",
      "atrim=\(from):\(to),bandpass=f=\(hz):width_type=q:w=8,astats=measure_overall=RMS_level:measure_perchannel=0",
      "-f", "null", "-",
    ])
    let line = r.stderr.split(separator: "\n").last { $0.contains("RMS level dB:") } ?? ""
    return Double(line.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") ?? .nan
  }

  /// A tone `seconds` long at `hz`, at `volume` (WAV).
  private func tone(_ name: String, hz: Int, seconds: Double, volume: Double = 0.5) throws -> String {
    let out = h.path(name)
    let r = try ffmpeg([
      "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=\(hz):d=\(seconds):r=48000,volume=\(volume)", out,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    return out
  }

  /// `concat a.mp4 b.mp4 --shard 0/2` and `1/2` to MP4, then `join`: the parts carry their
  /// records even when every frame is encoded, and the first carries the whole video's sound.
  func testMP4ShardsJoinWhenEveryFrameIsEncoded() throws {
    let a = try h.clip("a.mp4", width: 64, height: 36, fps: 25, seconds: 2, frequency: 440)
    let b = try h.clip("b.mp4", width: 64, height: 36, fps: 25, seconds: 2, frequency: 660)
    let common = ["concat", a, b, "--transition", "fade", "--smart", "off", "--renderer", "cpu", "--quiet"]
    var parts: [String] = []
    for i in 0..<2 {
      let part = h.path("part-\(i).mp4")
      let r = try h.run(common + ["--shard", "\(i)/2", "-o", part])
      XCTAssertEqual(r.status, 0, r.stderr)
      parts.append(part)
    }
    let whole = h.path("whole.mp4")
    XCTAssertEqual(try h.run(common + ["-o", whole]).status, 0)
    let joined = h.path("joined.mp4")
    let j = try h.run(["join"] + parts + ["-o", joined])
    XCTAssertEqual(j.status, 0, j.stderr)
    let (pw, pj) = (try h.probe(whole), try h.probe(joined))
    XCTAssertEqual(
      pj.first { $0["codec_type"] == "video" }?["nb_read_frames"],
      pw.first { $0["codec_type"] == "video" }?["nb_read_frames"])
    XCTAssertEqual(try duration(joined, "a"), try duration(whole, "a"), accuracy: 0.05, "the whole sound, once")
    XCTAssertEqual(try ffmpeg(["-v", "error", "-xerror", "-i", joined, "-f", "null", "-"]).status, 0)
  }

  /// `--print-edit -o x.mp4 > edit.json` then `edit edit.json`: the printed edit keeps the output.
  func testPrintedEditRendersWhereItsCommandWould() throws {
    let clip = try h.clip("talk.mp4", width: 64, height: 36, fps: 25, seconds: 2)
    let out = h.path("x.mp4")
    let printed = try h.run(["concat", clip, "--cut", "0:2", "--clip-duration", "1", "--print-edit", "-o", out])
    XCTAssertEqual(printed.status, 0, printed.stderr)
    let edit = h.path("edit.json")
    try Data(printed.stdout.utf8).write(to: URL(fileURLWithPath: edit))
    XCTAssertTrue(printed.stdout.contains("\"outPath\" : \"\(out)\""), printed.stdout)
    let r = try h.run(["edit", edit, "--renderer", "cpu"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try duration(out, "v"), 1, accuracy: 0.05)
  }

  /// libwebp merges a run of identical frames into one longer frame: a slideshow's held stills
  /// write, and the file lasts as long as the frames written.
  func testAWebPOfRepeatedFramesLastsItsFullDuration() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let out = h.path("w.webp")
    let r = try h.run([
      "slideshow", a, b, "--hold", "1", "--transition", "fade", "--transition-duration", "0.5", "--fps", "30",
      "--renderer", "cpu", "-o", out,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let animation = try XCTUnwrap(FFmpegSink.webPAnimation(out))
    XCTAssertLessThan(animation.frames, 75, "held frames merged")
    // 1 + 0.5 + 1 s: 75 frames at 30 fps.
    XCTAssertEqual(Double(animation.milliseconds), 2500, accuracy: 2)
  }

  /// A voice of 1 s at 1 s ducks the music by 12 dB while it speaks, and the music comes back
  /// after it (it once stayed down to the end).
  func testDuckingLetsGoWhenTheVoiceEnds() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let music = try tone("music.wav", hz: 330, seconds: 12)
    let voice = try tone("voice.wav", hz: 1500, seconds: 1)
    let out = h.path("d.mp4")
    let r = try h.run([
      "slideshow", a, b, "--hold", "3", "--audio", music, "--voice", voice, "--voice-start", "1", "--duck", "12",
      "--renderer", "cpu", "--quiet", "-o", out,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let before = try level(out, from: 0.1, to: 0.6, hz: 330)
    let under = try level(out, from: 1.3, to: 1.8, hz: 330)
    let after = try level(out, from: 3, to: 6, hz: 330)
    XCTAssertGreaterThan(before - under, 10, "ducked under the voice (\(before), \(under))")
    XCTAssertEqual(after, before, accuracy: 0.5, "back up after the voice")
  }

  /// A track's options follow it: the README's sound example loops and turns down the music
  /// only, and starts only the sting late; an option given twice for one track is refused.
  func testATracksOptionsFollowIt() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let music = try tone("music.wav", hz: 330, seconds: 2)
    let sting = try tone("sting.wav", hz: 880, seconds: 1)
    let r = try h.run([
      "slideshow", a, "--hold", "20", "--audio", music, "--audio-loop", "--audio-volume", "0.8", "--audio", sting,
      "--audio-start", "12", "--print-edit", "-o", h.path("x.mp4"),
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let edit = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    let tracks = try XCTUnwrap(edit?["audioTracks"] as? [[String: Any]])
    XCTAssertEqual(tracks.count, 2)
    XCTAssertEqual(tracks[0]["loop"] as? Bool, true)
    XCTAssertEqual(tracks[0]["mixVolume"] as? Double, 0.8)
    XCTAssertNil(tracks[0]["start"])
    XCTAssertNil(tracks[1]["loop"])
    XCTAssertNil(tracks[1]["mixVolume"])
    XCTAssertEqual(tracks[1]["start"] as? Double, 12)
    // Before the first --audio: every track's.
    let all = try h.run([
      "slideshow", a, "--audio-volume", "0.5", "--audio", music, "--audio", sting, "--print-edit", "-o",
      h.path("x.mp4"),
    ])
    XCTAssertEqual(all.stdout.components(separatedBy: "\"mixVolume\" : 0.5").count - 1, 2, all.stdout)
    // Once per track after the last: a list, in order.
    let list = try h.run([
      "slideshow", a, "--audio", music, "--audio", sting, "--audio-start", "1", "--audio-start", "2", "--print-edit",
      "-o", h.path("x.mp4"),
    ])
    XCTAssertEqual(list.status, 0, list.stderr)
    XCTAssertTrue(list.stdout.contains("\"start\" : 1") && list.stdout.contains("\"start\" : 2"), list.stdout)
    let twice = try h.run([
      "slideshow", a, "--audio", music, "--audio-start", "1", "--audio-start", "2", "--audio", sting, "--print-edit",
      "-o", h.path("x.mp4"),
    ])
    XCTAssertEqual(twice.status, 64)
    XCTAssertTrue(twice.stderr.contains("--audio-start is given twice for the --audio track 1"), twice.stderr)
  }

  /// `--loudness` is one gain over the whole mix: a quiet stretch and a loud one of the same
  /// music are raised alike (loudnorm's dynamic mode once raised them 9.4 and 15.0 dB), and
  /// ebur128 reads the target back.
  func testLoudnessIsOneGain() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let music = h.path("music.wav")
    let made = try ffmpeg([
      "-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=220:d=8:r=48000,volume='if(lt(t,4),0.05,0.4)':eval=frame",
      music,
    ])
    XCTAssertEqual(made.status, 0, made.stderr)
    var outputs: [String] = []
    for (name, extra) in [("plain.mp4", [String]()), ("loud.mp4", ["--loudness", "-14"])] {
      let out = h.path(name)
      let r = try h.run(
        ["slideshow", a, "--hold", "8", "--audio", music, "--renderer", "cpu", "--quiet", "-o", out] + extra)
      XCTAssertEqual(r.status, 0, r.stderr)
      outputs.append(out)
    }
    let quiet = try level(outputs[1], from: 0.5, to: 3.5, hz: 220) - level(outputs[0], from: 0.5, to: 3.5, hz: 220)
    let loud = try level(outputs[1], from: 4.5, to: 7.5, hz: 220) - level(outputs[0], from: 4.5, to: 7.5, hz: 220)
    XCTAssertEqual(quiet, loud, accuracy: 0.3, "one gain: \(quiet) dB and \(loud) dB")
    let r = try ffmpeg(["-v", "info", "-i", outputs[1], "-af", "ebur128", "-f", "null", "-"])
    let integrated = r.stderr.split(separator: "\n").last { $0.contains(" I: ") }
    let lufs = Double(integrated?.split(separator: ":").last?.split(separator: " ").first ?? "") ?? .nan
    XCTAssertEqual(lufs, -14, accuracy: 0.5, r.stderr.suffix(400).description)
  }

  /// Two clips of other rates and sound (48 kHz stereo, and mono), sped up four times: the
  /// encoder once waited forever for sound that atempo had stamped at the wrong times.
  func testClipsSpedUpFourTimesEnd() throws {
    let a = h.path("a.mp4")
    let b = h.path("b.mp4")
    for (out, video, sound) in [
      (a, "testsrc2=s=160x90:r=30:d=4", "sine=d=4:r=48000"), (b, "testsrc2=s=160x90:r=24:d=4", "anoisesrc=d=4:r=48000"),
    ] {
      let extra = out == a ? ["-ac", "2"] : []
      let r = try ffmpeg(
        ["-v", "error", "-y", "-f", "lavfi", "-i", video, "-f", "lavfi", "-i", sound] + extra
          + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", out])
      XCTAssertEqual(r.status, 0, r.stderr)
    }
    let out = h.path("fast.mp4")
    let r = try h.run([
      "concat", a, b, "--transition-duration", "0.2", "--size", "160x90", "--fps", "10", "--speed", "4", "--renderer",
      "cpu", "--frame-time-limit", "30", "-o", out,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try duration(out, "a"), 1.8, accuracy: 0.05)
  }

  /// SIGTERM while the encoder does not finish (an ffmpeg that takes every frame, then never
  /// exits, and ignores SIGTERM itself): layerkit still stops within its grace, exit 143, with no
  /// child left and nothing under the output's name or beside it. The deadline once waited on
  /// the render's cancel, which waited on the encoder.
  func testSIGTERMStopsARenderWhoseEncoderNeverEnds() throws {
    let a = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.1), "a.png")
    let b = try h.write(try SampleScene.testImage(width: 32, height: 18, hue: 0.6), "b.png")
    let bin = h.path("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    // A sleep of its own length, to find it by afterwards.
    let marker = "sleep 999.\(Int.random(in: 100_000...999_999))"
    try Data(
      """
      #!/bin/sh
      case "$*" in
        *pipe:0*) trap '' TERM INT HUP; cat > /dev/null; \(marker) ;;
        *) exec \(ToolHarness.which("ffmpeg")) "$@" ;;
      esac

      """.utf8
    ).write(to: URL(fileURLWithPath: bin + "/ffmpeg"))
    chmod(bin + "/ffmpeg", 0o755)
    let out = h.path("hang.mp4")
    let process = try h.start(
      ["slideshow", a, b, "--hold", "0.3", "--transition-duration", "0.1", "--renderer", "cpu", "-o", out],
      environment: ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin")])
    // Every frame written (a few dozen at 32×18), then the encoder hangs.
    Thread.sleep(forTimeInterval: 4)
    XCTAssertTrue(process.isRunning, "the render waits on its encoder")
    let sent = Date()
    kill(process.processIdentifier, SIGTERM)
    while process.isRunning && Date().timeIntervalSince(sent) < 15 { Thread.sleep(forTimeInterval: 0.1) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      _ = try? ToolHarness.run("/usr/bin/pkill", ["-KILL", "-f", marker])
      return XCTFail("SIGTERM did not stop the render in 15 s")
    }
    XCTAssertLessThan(Date().timeIntervalSince(sent), Double(10), "stopped within the grace")
    XCTAssertEqual(process.terminationStatus, 143)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    XCTAssertEqual(h.leftovers(), [])
    Thread.sleep(forTimeInterval: 0.5)
    let left = try ToolHarness.run("/usr/bin/pgrep", ["-f", marker])
    XCTAssertNotEqual(left.status, 0, "the encoder outlived layerkit: \(left.stdout)")
  }

  /// A clip whose packets do not decode cleanly is never copied by a smart render: whatever
  /// comes out decodes with `-xerror`, or nothing does.
  func testSmartRenderingNeverCopiesDamagedPackets() throws {
    // Clips a smart render copies from: tagged BT.709, a keyframe a second.
    let (a, b) = (h.path("a.mp4"), h.path("b.mp4"))
    for (out, source) in [(a, "testsrc2"), (b, "smptebars")] {
      let r = try ffmpeg([
        "-v", "error", "-y", "-f", "lavfi", "-i", "\(source)=s=96x64:r=25:d=4", "-f", "lavfi", "-i", "sine=d=4:r=48000",
        "-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709",
        "-color_trc", "bt709", "-c:a", "aac", out,
      ])
      XCTAssertEqual(r.status, 0, r.stderr)
    }
    let undamaged = try h.run([
      "concat", a, b, "--transition-duration", "0.5", "--renderer", "cpu", "-o", h.path("ok.mp4"),
    ])
    XCTAssertTrue(undamaged.stderr.contains("from the sources"), "the undamaged clips are copied: \(undamaged.stderr)")
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: a)))
    let mdat = try XCTUnwrap(Data(bytes).range(of: Data("mdat".utf8))).lowerBound
    // A few bytes scribbled over in the middle of the clip's pictures.
    for offset in stride(from: mdat + bytes.count / 3, to: mdat + bytes.count / 2, by: 1499)
    where offset + 4 < bytes.count {
      bytes.replaceSubrange(offset..<offset + 4, with: [0x00, 0xFF, 0x13, 0x77])
    }
    let damaged = h.path("damaged.mp4")
    try Data(bytes).write(to: URL(fileURLWithPath: damaged))
    XCTAssertNotEqual(try ffmpeg(["-v", "error", "-xerror", "-i", damaged, "-f", "null", "-"]).status, 0)
    for smart in ["auto", "on"] {
      let out = h.path("out-\(smart).mp4")
      let stats = h.path("out-\(smart).json")
      let r = try h.run([
        "concat", damaged, b, "--transition-duration", "0.5", "--smart", smart, "--renderer", "cpu", "-o", out,
        "--stats", stats,
      ])
      if r.status == 0 {
        // Only the undamaged clip's GOPs after the fade are copied (3 of its 4 s); none of the
        // damaged clip's.
        let figures = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats)))
        XCTAssertEqual((figures as? [String: Any])?["copiedFrames"] as? Int, 75, "\(smart): \(r.stderr)")
        XCTAssertEqual(try ffmpeg(["-v", "error", "-xerror", "-i", out, "-f", "null", "-"]).status, 0, smart)
      } else {
        XCTAssertFalse(FileManager.default.fileExists(atPath: out), smart)
        XCTAssertTrue(r.stderr.contains("damaged.mp4"), r.stderr)
      }
    }
  }

  /// One rule for a cut past its clip's end, on the command line and in an edit file (editly's):
  /// it ends at the clip's end, said in one line. A cut that starts after the end is refused.
  func testACutPastTheEndEndsThereAndSaysSo() throws {
    let clip = try h.clip("c.mp4", width: 64, height: 36, fps: 25, seconds: 2)
    let out = h.path("cut.mp4")
    let r = try h.run(["concat", clip, "--cut", "0:1000", "--renderer", "cpu", "-o", out])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stderr.contains("--cut 0:1000: \(clip) is 2 s long; the cut ends at its end"), r.stderr)
    XCTAssertEqual(try duration(out, "v"), 2, accuracy: 0.05)
    let edit = h.path("cut.json5")
    try Data("{clips: [{layers: [{type: 'video', path: '\(clip)', cutTo: 1e308}]}]}".utf8).write(
      to: URL(fileURLWithPath: edit))
    let e = try h.run(["edit", edit, "--renderer", "cpu", "-o", h.path("cut2.mp4")])
    XCTAssertEqual(e.status, 0, e.stderr)
    XCTAssertTrue(e.stderr.contains("clips[0].layers[0].cutTo: \(clip) is 2 s long; the cut ends at its end"), e.stderr)
    XCTAssertEqual(try duration(h.path("cut2.mp4"), "v"), 2, accuracy: 0.05)
    let late = try h.run(["concat", clip, "--cut", "5:9", "--renderer", "cpu", "-o", h.path("late.mp4")])
    XCTAssertEqual(late.status, 64, late.stderr)
    XCTAssertTrue(late.stderr.contains("the cut starts at or after its end"), late.stderr)
  }

  /// `--crf 0` asks for lossless H.264, which no copied stretch can join: smart rendering is
  /// declined with the reason, every frame is encoded, and no folder of pieces is left.
  func testLosslessDeclinesSmartRendering() throws {
    let a = try h.clip("a.mp4", width: 64, height: 36, fps: 25, seconds: 3)
    let b = try h.clip("b.mp4", width: 64, height: 36, fps: 25, seconds: 3, frequency: 660)
    let out = h.path("out.mp4")
    let r = try h.run(["concat", a, b, "--crf", "0", "--renderer", "cpu", "--frame-time-limit", "30", "-o", out])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stderr.contains("a CRF of 0 is lossless"), r.stderr)
    XCTAssertEqual(h.leftovers(), [])
    let on = try h.run(["concat", a, b, "--crf", "0", "--smart", "on", "--renderer", "cpu", "-o", h.path("on.mp4")])
    XCTAssertEqual(on.status, 64, on.stderr)
    XCTAssertTrue(on.stderr.contains("--smart on: a CRF of 0 is lossless"), on.stderr)
  }
}
