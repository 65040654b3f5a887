import Foundation
import LayerKitSamples
import XCTest

/// An edit file's sound by editly's rules (docs/EDIT_FILES.md, "Sound"), held to the levels
/// editly's own filters give on ffmpeg 5.1, measured here by ffmpeg's `astats`: a clip's only
/// layer as it is, clips joined without losing level, the mix with tracks by amix's weights
/// (and only there `outputVolume`), an audio layer stretched to its clip.
final class EditlySoundTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("editly-sound") }
  override func tearDownWithError() throws { h.cleanUp() }

  /// A stereo sine of `seconds` at −21 dBFS RMS (peak 0.12605, −17.99 dBFS), as WAV.
  func tone(_ name: String, frequency: Int, seconds: Double) throws -> String {
    let path = h.path(name)
    let wave = "0.12605*sin(2*PI*\(frequency)*t)"
    let made = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      ["-v", "error", "-y", "-f", "lavfi", "-i", "aevalsrc=\(wave)|\(wave):s=48000:d=\(seconds)", path])
    XCTAssertEqual(made.status, 0, made.stderr)
    return path
  }

  /// Renders `edit` (JSON, media named relative to the harness folder) to an MP4.
  func render(_ edit: String, _ name: String) throws -> String {
    let picture = try h.write(try SampleScene.testImage(width: 64, height: 36, hue: 0.3), "picture.png")
    XCTAssertFalse(picture.isEmpty)
    let spec = h.path(name + ".json5")
    try Data(edit.utf8).write(to: URL(fileURLWithPath: spec))
    let out = h.path(name + ".mp4")
    let r = try h.run(["edit", spec, "-o", out, "--renderer", "cpu", "--size", "64x36", "--fps", "10", "--quiet"])
    XCTAssertEqual(r.status, 0, r.stderr)
    return out
  }

  func rms(_ file: String, _ from: Double, _ to: Double) throws -> Double { try ToolHarness.rms(file, from, to) }

  /// The streams' kinds of a file (video, audio).
  func streams(_ file: String) throws -> [String] {
    let r = try ToolHarness.run(
      ToolHarness.which("ffprobe"), ["-v", "error", "-show_entries", "stream=codec_type", "-of", "csv=p=0", file])
    return r.stdout.split(whereSeparator: \.isNewline).map(String.init)
  }

  /// One clip whose only sound is an audio layer: heard as it is (−21 dBFS in, −21 out), its
  /// `mixVolume` and `outputVolume` inert (editly has no mix stage without tracks); without
  /// `keepSourceAudio`, no sound at all.
  func testAClipsOnlyLayerIsHeardAsItIs() throws {
    _ = try tone("a.wav", frequency: 440, seconds: 3)
    let clip = "{ duration: 2, layers: [{ type: 'image', path: 'picture.png' }, LAYER] }"
    let layer = "{ type: 'audio', path: 'a.wav', mixVolume: 0.1 }"
    let heard = try render(
      "{ keepSourceAudio: true, outputVolume: 0.5, clips: [\(clip.replacingOccurrences(of: "LAYER", with: layer))] }",
      "one")
    XCTAssertEqual(try rms(heard, 0.2, 1.8), -21, accuracy: 0.5)
    let silent = try render("{ clips: [\(clip.replacingOccurrences(of: "LAYER", with: layer))] }", "off")
    XCTAssertEqual(try streams(silent), ["video"], "keepSourceAudio is false unsaid: no sound")
  }

  /// Three clips, each with its own sound, joined by half-second fades: the level stays −21,
  /// through the fades too (the tones meet in phase), where one mix of every clip's layers
  /// lost 6 dB with every tripling of the clips.
  func testClipsJoinedByTransitionsKeepTheirLevel() throws {
    _ = try tone("a.wav", frequency: 440, seconds: 3)
    let clip = "{ duration: 2, layers: [{ type: 'image', path: 'picture.png' }, { type: 'audio', path: 'a.wav' }] }"
    let out = try render(
      "{ keepSourceAudio: true, defaults: { transition: { name: 'fade', duration: 0.5 } }, "
        + "clips: [\(clip), \(clip), \(clip)] }", "three")
    XCTAssertEqual(try rms(out, 0.2, 4.8), -21, accuracy: 0.5)
    XCTAssertEqual(try rms(out, 1.55, 1.95), -21, accuracy: 0.5, "in the first fade")
  }

  /// A track of weight 0.1 over a clip's sound of weight 1: amix shares one out, so the clip
  /// is ×1/1.1 (−21.83) and the track ×0.1/1.1 (−41.83), −21.78 together; `outputVolume`
  /// applies where there is that mix.
  func testATrackWeighsAgainstTheClipsSound() throws {
    _ = try tone("a.wav", frequency: 440, seconds: 3)
    _ = try tone("music.wav", frequency: 1000, seconds: 3)
    let clip = "{ duration: 2, layers: [{ type: 'image', path: 'picture.png' }, { type: 'audio', path: 'a.wav' }] }"
    let edit =
      "{ keepSourceAudio: true, audioTracks: [{ path: 'music.wav', mixVolume: 0.1 }], VOLUME clips: [\(clip)] }"
    let mixed = try render(edit.replacingOccurrences(of: "VOLUME", with: ""), "mixed")
    XCTAssertEqual(try rms(mixed, 0.2, 1.8), -21.78, accuracy: 0.5)
    let lowered = try render(edit.replacingOccurrences(of: "VOLUME", with: "outputVolume: '-6dB',"), "lowered")
    XCTAssertEqual(try rms(lowered, 0.2, 1.8), -27.78, accuracy: 0.5)
  }

  /// Music over silent clips: the silence still weighs 1 in the mix, so the music is −6.02 dB
  /// (−27.02), as editly's is.
  func testMusicOverSilentClipsSharesTheMixWithTheirSilence() throws {
    _ = try tone("music.wav", frequency: 440, seconds: 5)
    let clip = "{ duration: 2, layers: [{ type: 'image', path: 'picture.png' }] }"
    let out = try render("{ audioFilePath: 'music.wav', clips: [\(clip), \(clip)] }", "music")
    XCTAssertEqual(try rms(out, 0.2, 3.3), -27.02, accuracy: 0.5)
  }

  /// A 3 s audio layer in a 4 s clip is stretched to the clip (atempo 0.75, pitch kept): the
  /// last second sounds, at its level, and the sound lasts the clip.
  func testAShortAudioLayerIsStretchedToItsClip() throws {
    _ = try tone("short.wav", frequency: 440, seconds: 3)
    let out = try render(
      "{ keepSourceAudio: true, clips: [{ duration: 4, layers: [{ type: 'image', path: 'picture.png' }, "
        + "{ type: 'audio', path: 'short.wav' }] }] }", "stretched")
    XCTAssertEqual(try rms(out, 3.2, 3.8), -21, accuracy: 1, "the last second is heard")
    XCTAssertEqual(try rms(out, 0.2, 2.8), -21, accuracy: 1)
  }

  /// Two layers in one clip are mixed by their weights: 1 and 0 leave the first as it is.
  func testSeveralLayersOfAClipMixByTheirWeights() throws {
    _ = try tone("a.wav", frequency: 440, seconds: 3)
    _ = try tone("b.wav", frequency: 1000, seconds: 3)
    let out = try render(
      "{ keepSourceAudio: true, clips: [{ duration: 2, layers: [{ type: 'image', path: 'picture.png' }, "
        + "{ type: 'audio', path: 'a.wav', mixVolume: 1 }, { type: 'audio', path: 'b.wav', mixVolume: 0 }] }] }",
      "weights")
    XCTAssertEqual(try rms(out, 0.2, 1.8), -21, accuracy: 0.5)
  }

  /// LayerKit's own `loudness` works on top of editly's mix: the whole brought to −16 LUFS
  /// (ffmpeg's `ebur128` reads it back within half a unit).
  func testLoudnessBringsEditlysMixToItsTarget() throws {
    _ = try tone("a.wav", frequency: 440, seconds: 4)
    let out = try render(
      "{ keepSourceAudio: true, loudness: -16, clips: [{ duration: 3, layers: [{ type: 'image', path: 'picture.png' }, "
        + "{ type: 'audio', path: 'a.wav' }] }] }", "loud")
    let r = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "info", "-i", out, "-af", "ebur128", "-f", "null", "-"])
    let summary = try XCTUnwrap(r.stderr.range(of: "Summary:"), r.stderr)
    let line = try XCTUnwrap(r.stderr[summary.upperBound...].split(separator: "\n").first { $0.contains("I:") })
    let value = try XCTUnwrap(Double(line.split(separator: ":")[1].split(separator: " ")[0]), String(line))
    XCTAssertEqual(value, -16, accuracy: 0.5)
  }
}
