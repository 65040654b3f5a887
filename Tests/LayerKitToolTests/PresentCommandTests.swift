import Foundation
import LayerKit
import LayerKitMedia
import LayerKitTesting
import XCTest

/// `layerkit present A.json B.json …`: scene files presented over one another with scene
/// transitions, run as a user runs it; frames read back from PNG folders.
final class PresentCommandTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("present") }
  override func tearDownWithError() throws { h.cleanUp() }

  /// A 64×36 scene at 10 fps of one colour with a card.
  func screen(_ name: String, background: String, card: String) throws -> String {
    let text = """
      {"width": 64, "height": 36, "fps": 10, "duration": 1, "background": "\(background)",
       "layers": [{"name": "card", "frame": [8, 6, 32, 20], "backgroundColor": "\(card)", "cornerRadius": 4}]}
      """
    let path = h.path(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  func frames(_ folder: String) throws -> [Image] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted().map {
      try ImageFile.read(URL(fileURLWithPath: folder + $0))
    }
  }

  func testForwardPushAndPopShowEachSceneWhereTheStepsSay() throws {
    let a = try screen("a.json", background: "#203040", card: "#E04020")
    let b = try screen("b.json", background: "#F0F0F0", card: "#2040E0")
    var byBackend: [String: [Image]] = [:]
    for renderer in ["cpu", "gpu"] {
      let folder = h.path("fwd-\(renderer)") + "/"
      let r = try h.run([
        "present", a, b, "--transition", "sheet", "--duration", "0.5", "--hold", "0.5", "--sequence", "push,pop",
        "--renderer", renderer, "-o", folder,
      ])
      XCTAssertEqual(r.status, 0, r.stderr)
      // 0.5 hold + 0.5 push + 0.5 hold + 0.5 pop + 0.5 hold = 2.5 s at 10 fps.
      XCTAssertTrue(r.stderr.contains("wrote 25 frames (64×36, 10/1 fps, \(renderer))"), r.stderr)
      let f = try frames(folder)
      XCTAssertEqual(f.count, 25)
      // A alone, then mid-push a mix, B on top, mid-pop a mix, A again.
      XCTAssertIdentical(f[0], f[4], "f[0] ≠ f[4]")
      XCTAssertTrue(f[7].pixels != f[0].pixels, "f[7] = f[0]")
      XCTAssertTrue(f[7].pixels != f[12].pixels, "f[7] = f[12]")
      XCTAssertTrue(f[12].pixels != f[0].pixels, "f[12] = f[0]")
      XCTAssertTrue(f[17].pixels != f[12].pixels, "f[17] = f[12]")
      XCTAssertIdentical(f[24], f[0], "f[24] ≠ f[0]")
      byBackend[renderer] = f
    }
    // The GPU's frames are the CPU's within the parity contract.
    for k in 0..<25 {
      let cpu = try Image(width: 64, height: 36, pixels: byBackend["cpu"]![k].pixels)
      let gpu = try Image(width: 64, height: 36, pixels: byBackend["gpu"]![k].pixels)
      let comparison = try ImageComparison(expected: cpu, actual: gpu)
      XCTAssertTrue(comparison.passes(.parity), "frame \(k): \(comparison.summary(.parity))")
    }
  }

  func testBackwardStartsOnTheTopSceneAndAnEffectSpecWorks() throws {
    let a = try screen("a.json", background: "#203040", card: "#E04020")
    let b = try screen("b.json", background: "#F0F0F0", card: "#2040E0")
    let fwd = h.path("fwd") + "/"
    let back = h.path("back") + "/"
    for (folder, direction) in [(fwd, "forward"), (back, "backward")] {
      let r = try h.run([
        "present", a, b, "--transition", "push:fromRight", "--duration", "0.4", "--hold", "0.3", "--direction",
        direction, "--renderer", "cpu", "-o", folder, "--quiet",
      ])
      XCTAssertEqual(r.status, 0, r.stderr)
    }
    let f = try frames(fwd)
    let g = try frames(back)
    XCTAssertEqual(f.count, 10)
    XCTAssertEqual(g.count, 10)
    // Backward starts where forward ends and ends where it starts, animated in between (the
    // frame at 0.5 s is the forward one at 0.5 s played backwards: 0.3 + 0.4 − 0.2).
    XCTAssertIdentical(g[0], f[9], "g[0] ≠ f[9]")
    XCTAssertIdentical(g[9], f[0], "g[9] ≠ f[0]")
    XCTAssertTrue(f[0].pixels != f[9].pixels, "f[0] = f[9]")
    XCTAssertTrue(g[5].pixels != g[0].pixels, "g[5] = g[0]")
    XCTAssertTrue(g[5].pixels != g[9].pixels, "g[5] = g[9]")
  }

  func testAMusicTrackUnderAPresentationAndASceneRender() throws {
    let a = try screen("a.json", background: "#203040", card: "#E04020")
    let b = try screen("b.json", background: "#F0F0F0", card: "#2040E0")
    let music = h.path("music.wav")
    let m = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "error", "-f", "lavfi", "-i", "sine=f=330:d=5", music])
    XCTAssertEqual(m.status, 0, m.stderr)
    let out = h.path("p.mp4")
    let r = try h.run([
      "present", a, b, "--hold", "0.4", "--duration", "0.4", "--audio", music, "--audio-fade", "0.3", "--renderer",
      "cpu", "-o", out, "--quiet",
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    // 0.4 + 0.4 + 0.4 s: the music trimmed to the video.
    let audio = try XCTUnwrap(try h.probe(out).first { $0["codec_type"] == "audio" })
    XCTAssertEqual(Double(audio["duration"] ?? "") ?? 0, 1.2, accuracy: 0.06)
    let scene = h.path("s.mp4")
    let s = try h.run(["render", a, "--audio", music, "--renderer", "cpu", "-o", scene, "--quiet"])
    XCTAssertEqual(s.status, 0, s.stderr)
    let sound = try XCTUnwrap(try h.probe(scene).first { $0["codec_type"] == "audio" })
    XCTAssertEqual(Double(sound["duration"] ?? "") ?? 0, 1, accuracy: 0.06)
    // A scene's clip is heard where the scene plays it: from 0.3 s, its 0.5 s; --no-audio drops it.
    _ = try h.clip("c.mp4", width: 32, height: 18, fps: 10, seconds: 0.5)
    let withClip = h.path("clip.json")
    try Data(
      """
      {"width": 64, "height": 36, "fps": 10, "duration": 1.2, "media": {"c": {"video": "c.mp4", "start": 0.3}},
       "layers": [{"frame": [0, 0, 64, 36], "contents": "c"}]}
      """.utf8
    ).write(to: URL(fileURLWithPath: withClip))
    let heard = h.path("heard.mp4")
    let c = try h.run(["render", withClip, "--renderer", "cpu", "-o", heard, "--quiet"])
    XCTAssertEqual(c.status, 0, c.stderr)
    let clipSound = try XCTUnwrap(try h.probe(heard).first { $0["codec_type"] == "audio" })
    XCTAssertEqual(Double(clipSound["duration"] ?? "") ?? 0, 1.2, accuracy: 0.06)
    let silent = h.path("silent.mp4")
    XCTAssertEqual(
      try h.run(["render", withClip, "--no-audio", "--renderer", "cpu", "-o", silent, "--quiet"]).status, 0)
    XCTAssertNil(try h.probe(silent).first { $0["codec_type"] == "audio" })
    // A track without sound is refused before anything is rendered; --audio with --time too.
    let mute = try h.run(["render", a, "--audio", a, "--renderer", "cpu", "-o", h.path("n.mp4")])
    XCTAssertEqual(mute.status, 1, mute.stderr)
    let still = try h.run(["render", a, "--audio", music, "--time", "0.5", "-o", h.path("still.png")])
    XCTAssertEqual(still.status, 64, still.stderr)
    XCTAssertEqual(h.leftovers(), [])
  }

  func testAutoTakesTheCPUOnLlvmpipeOnlyForTransitionsWithRowKernels() throws {
    let info = try h.run(["info"])
    let software = info.stdout.contains("llvmpipe") || info.stdout.contains("softpipe")
    let a = try screen("a.json", background: "#203040", card: "#E04020")
    let b = try screen("b.json", background: "#F0F0F0", card: "#2040E0")
    let cases: [([String], String)] = [
      // No transition effect at all: layer scenes, which llvmpipe renders faster (the bench).
      (["present", a, b, "--transition", "sheet"], "gpu"),
      (["render", a], "gpu"),
      (["present", a, b, "--transition", "push:fromRight"], software ? "cpu" : "gpu"),
      (["present", a, b, "--transition", "pageCurl"], "gpu"),
    ]
    for (command, expected) in cases {
      let r = try h.run(command + ["--frames", "0..1", "-o", h.path("auto.y4m"), "--overwrite"])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(r.stderr.contains(", \(expected)) in"), "\(command): \(r.stderr)")
    }
    // A scene whose own timeline runs a filter transition takes the GPU.
    let curl = h.path("curl.json")
    try Data(
      """
      {"width": 64, "height": 36, "fps": 10, "duration": 1,
       "layers": [{"name": "card", "frame": [8, 6, 32, 20], "backgroundColor": "#E04020"}],
       "timeline": [{"time": 0.2, "changes": [{"layer": "card", "addAnimation": {"kind": "group", "animations":
         [{"kind": "transition", "filter": {"effect": "ripple"}}]}}]}]}
      """.utf8
    ).write(to: URL(fileURLWithPath: curl))
    let r = try h.run(["render", curl, "--frames", "0..1", "-o", h.path("auto.y4m"), "--overwrite"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stderr.contains(", gpu) in"), r.stderr)
  }

  func testStepsThatDoNotFitAndBadFilesAreRefusedWithoutOutput() throws {
    let a = try screen("a.json", background: "#203040", card: "#E04020")
    let b = try screen("b.json", background: "#F0F0F0", card: "#2040E0")
    let out = h.path("out.mp4")
    let tooMany = try h.run(["present", a, b, "--sequence", "push,push", "-o", out])
    XCTAssertEqual(tooMany.status, 64, tooMany.stderr)
    XCTAssertTrue(tooMany.stderr.contains("--sequence[1]"), tooMany.stderr)
    let word = try h.run(["present", a, b, "--sequence", "push,jump", "-o", out])
    XCTAssertEqual(word.status, 64, word.stderr)
    XCTAssertTrue(word.stderr.contains("'jump' is not a step"), word.stderr)
    let bad = h.path("bad.json")
    try Data(#"{"width": 64, "height": 36, "duration": 1, "layers": [{"opacty": 1}]}"#.utf8).write(
      to: URL(fileURLWithPath: bad))
    let r = try h.run(["present", a, bad, "-o", out])
    XCTAssertEqual(r.status, 1, r.stderr)
    XCTAssertTrue(r.stderr.contains("bad.json: layers[0]: unknown key \"opacty\""), r.stderr)
    let effect = try h.run(["present", a, b, "--transition", "pageCurlz", "-o", out])
    XCTAssertEqual(effect.status, 1, effect.stderr)
    XCTAssertTrue(effect.stderr.contains("did you mean pageCurl"), effect.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    XCTAssertEqual(h.leftovers(), [])
  }
}
