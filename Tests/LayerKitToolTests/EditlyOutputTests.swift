import Foundation
import LayerKit
import LayerKitMedia
import LayerKitSamples
import XCTest

/// An edit file's output by editly's rules: `customOutputArgs` replacing the codec and its
/// settings (ffmpeg's refusal named in one line), `dummy` overlapping its clips, editly's banner
/// left out, and the random colours drawn from `--seed`.
final class EditlyOutputTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("editly-output") }
  override func tearDownWithError() throws { h.cleanUp() }

  /// Writes `edit` beside a small picture and runs `layerkit edit` on it with `extra` arguments.
  func edit(_ edit: String, _ name: String, _ extra: [String]) throws -> ToolHarness.Run {
    _ = try h.write(try SampleScene.testImage(width: 64, height: 36, hue: 0.3), "picture.png")
    let spec = h.path(name + ".json5")
    try Data(edit.utf8).write(to: URL(fileURLWithPath: spec))
    return try h.run(["edit", spec, "--renderer", "cpu", "--size", "64x36", "--fps", "10"] + extra)
  }

  func seconds(_ file: String) throws -> Double {
    let r = try ToolHarness.run(
      ToolHarness.which("ffprobe"), ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file])
    return try XCTUnwrap(Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), r.stderr)
  }

  /// Custom arguments replace LayerKit's codec and its settings, as editly's replace its own: a
  /// codec of their choice encodes; one the container cannot hold is refused in one line that
  /// names it, not in ffmpeg's words about an option LayerKit set, and nothing is left.
  func testCustomOutputArgsReplaceTheCodecAndARefusalIsNamed() throws {
    let clip = "{ duration: 1, layers: [{ type: 'image', path: 'picture.png' }] }"
    let good = try edit(
      "{ customOutputArgs: ['-c:v', 'mpeg4', '-q:v', '5'], clips: [\(clip)] }", "good", ["-o", h.path("good.mp4")])
    XCTAssertEqual(good.status, 0, good.stderr)
    let codec = try ToolHarness.run(
      ToolHarness.which("ffprobe"),
      [
        "-v", "error", "-select_streams", "v", "-show_entries", "stream=codec_name", "-of", "csv=p=0",
        h.path("good.mp4"),
      ])
    XCTAssertEqual(codec.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "mpeg4")
    let out = h.path("webp.mp4")
    let bad = try edit("{ customOutputArgs: ['-vcodec', 'libwebp'], clips: [\(clip)] }", "bad", ["-o", out])
    XCTAssertNotEqual(bad.status, 0)
    XCTAssertTrue(bad.stderr.contains("customOutputArgs"), bad.stderr)
    XCTAssertTrue(bad.stderr.contains("-vcodec libwebp"), bad.stderr)
    XCTAssertFalse(bad.stderr.contains("Error setting option"), bad.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out), "nothing under the output's name")
  }

  /// editly's own `customOutputArgs.json5`, its arguments and `outPath` as written (at a small
  /// size), passes the output allowlist and writes its animated WebP where the file says.
  func testEditlysOwnCustomOutputArgsExampleStillRenders() throws {
    let r = try edit(
      """
      {
        outPath: './customOutputArgs.webp',
        clips: [{ duration: 0.5, layers: [{ type: 'title-background', text: 'Custom output args' }] }],
        customOutputArgs: ['-compression_level', '5', '-qscale', '60', '-vcodec', 'libwebp'],
      }
      """, "customOutputArgs", ["--quiet"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: h.path("customOutputArgs.webp")))
    XCTAssertEqual(String(decoding: bytes.prefix(4), as: UTF8.self), "RIFF")
    XCTAssertEqual(String(decoding: bytes.dropFirst(8).prefix(4), as: UTF8.self), "WEBP")
  }

  /// editly's `dummy` still overlaps its clips for the transition's length (two 2 s clips and a
  /// 1 s dummy last 3 s), its picture switching halfway.
  func testDummyOverlapsItsClips() throws {
    let clip = "{ duration: 2, layers: [{ type: 'fill-color', color: 'COLOR' }] }"
    let spec =
      "{ defaults: { transition: { name: 'dummy', duration: 1 } }, clips: [\(clip.replacingOccurrences(of: "COLOR", with: "#ff0000")), "
      + "\(clip.replacingOccurrences(of: "COLOR", with: "#0000ff"))] }"
    let folder = h.path("dummy") + "/"
    let r = try edit(spec, "dummy", ["-o", folder, "--quiet"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let frames = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
    XCTAssertEqual(frames.count, 30, "3 s at 10 frames a second")
    func red(_ k: Int) throws -> UInt8 {
      try ImageFile.read(URL(fileURLWithPath: folder + frames[k])).pixel(x: 5, y: 5).x
    }
    XCTAssertEqual(try red(14), 255, "the first clip until halfway through the overlap (1.4 s)")
    XCTAssertEqual(try red(16), 0, "the second after it (1.6 s)")
  }

  /// editly's banner is left out in one line and the rest renders; colours left unsaid come
  /// from the seed: the same seed, the same colour.
  func testTheBannerIsLeftOutAndUnsaidColoursFollowTheSeed() throws {
    let spec = "{ clips: [{ duration: 1, layers: [{ type: 'editly-banner' }, { type: 'fill-color' }] }] }"
    func colour(_ seed: Int, _ name: String) throws -> SIMD4<UInt8> {
      let folder = h.path(name) + "/"
      let r = try edit(spec, name, ["-o", folder, "--seed", String(seed)])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(r.stderr.contains("editly's banner (editly's own advertisement) is left out"), r.stderr)
      let first = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: folder).sorted().first)
      return try ImageFile.read(URL(fileURLWithPath: folder + first)).pixel(x: 10, y: 10)
    }
    let one = try colour(1, "one")
    XCTAssertEqual(one, try colour(1, "again"), "the same seed, the same colour")
    let others = try (2..<6).map { try colour($0, "seed\($0)") }
    XCTAssertTrue(others.contains { $0 != one }, "other seeds, other colours")
  }
}
