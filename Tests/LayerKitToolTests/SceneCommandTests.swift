import Foundation
import LayerKit
import LayerKitMedia
import XCTest

/// `layerkit render SCENE.json` and `layerkit parity SCENE.json`, run as a user runs them: outputs
/// decoded back with LayerKit's own Y4M reader and ffprobe, exact exit codes, nothing left under
/// the target's name on an error. GPU runs use whatever EGL gives (Mesa's llvmpipe here and in
/// CI); a machine without it fails these tests rather than skipping them.
final class SceneCommandTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("scene") }
  override func tearDownWithError() throws { h.cleanUp() }

  static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let examples = ["slideshow", "filters", "composition", "app-home", "app-detail"]

  func example(_ name: String) -> String {
    Self.repositoryRoot.appendingPathComponent("examples/scenes/\(name).json").path
  }

  /// A small scene: 64×36 at 10 fps for 0.6 s (6 frames), a rounded card that moves, and a
  /// timeline change that animates its colour.
  func smallScene() throws -> String {
    let text = """
      {"width": 64, "height": 36, "fps": 10, "duration": 0.6, "background": "#102030",
       "layers": [{"name": "card", "frame": [8, 6, 32, 20], "backgroundColor": "#e04020", "cornerRadius": 4,
         "animations": [{"kind": "basic", "keyPath": "position.x", "from": 20, "to": 44, "duration": 0.6}]}],
       "timeline": [{"time": 0.3, "duration": 0.2,
         "changes": [{"layer": "card", "set": {"backgroundColor": "#20a040"}}]}]}
      """
    let path = h.path("small.json")
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  func pngs(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
  }

  func read(_ path: String) throws -> Image { try ImageFile.read(URL(fileURLWithPath: path)) }

  // MARK: render

  func testEveryExampleRendersToY4MAndMP4WithTheFilesSizeAndRate() throws {
    for name in Self.examples {
      let y4m = h.path("\(name).y4m")
      let r = try h.run(["render", example(name), "--renderer", "gpu", "--frames", "20..24", "-o", y4m])
      XCTAssertEqual(r.status, 0, "\(name): \(r.stderr)")
      XCTAssertTrue(r.stderr.contains("wrote 4 frames (480×270, 30/1 fps, gpu)"), r.stderr)
      let reader = try Y4MReader(path: y4m)
      XCTAssertEqual([reader.header.width, reader.header.height], [480, 270], name)
      XCTAssertEqual(reader.header.frameRate.description, "30/1", name)
      XCTAssertEqual(try reader.readAllFrames().count, 4, name)

      let mp4 = h.path("\(name).mp4")
      let m = try h.run(["render", example(name), "--renderer", "gpu", "--shard", "3/40", "-o", mp4, "--quiet"])
      XCTAssertEqual(m.status, 0, "\(name): \(m.stderr)")
      XCTAssertEqual(m.stderr, "")
      let video = try XCTUnwrap(try h.probe(mp4).first { $0["codec_type"] == "video" }, name)
      XCTAssertEqual(video["codec_name"], "h264", name)
      XCTAssertEqual([video["width"], video["height"]], ["480", "270"], name)
      // Shard 3 of 40 is frames 3n/40 ..< 4n/40: n = 180 → 13..<18, 210 → 15..<21, 120 → 9..<12.
      let frames = ["slideshow": "5", "filters": "6", "composition": "3", "app-home": "5", "app-detail": "5"][name]
      XCTAssertEqual(video["nb_read_frames"], frames, name)
    }
    XCTAssertEqual(h.leftovers(), [])
  }

  func testASmallSceneOnBothBackendsAndOneFrameAtATime() throws {
    let scene = try smallScene()
    var folders: [String: String] = [:]
    for renderer in ["cpu", "gpu"] {
      let folder = h.path(renderer) + "/"
      let r = try h.run(["render", scene, "--renderer", renderer, "-o", folder])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(r.stderr.contains("wrote 6 frames (64×36, 10/1 fps, \(renderer))"), r.stderr)
      XCTAssertEqual(try pngs(in: folder), (0..<6).map { String(format: "frame_%05d.png", $0) })
      folders[renderer] = folder
    }
    // Frame k of the GPU is frame k of the CPU, within the parity contract; and the frames move.
    for k in 0..<6 {
      let name = String(format: "frame_%05d.png", k)
      let cpu = try read(folders["cpu"]! + name)
      let comparison = try ImageComparison(expected: cpu, actual: try read(folders["gpu"]! + name))
      XCTAssertTrue(comparison.passes(.parity), "\(name): \(comparison.summary(.parity))")
    }
    XCTAssertNotEqual(try read(folders["cpu"]! + "frame_00001.png"), try read(folders["cpu"]! + "frame_00004.png"))

    // --time T writes the frame at T: frame 3 shows 0.3 s.
    let still = h.path("still.png")
    let t = try h.run(["render", scene, "--renderer", "cpu", "--time", "0.3", "-o", still])
    XCTAssertEqual(t.status, 0, t.stderr)
    XCTAssertTrue(t.stderr.hasPrefix("wrote \(still) (64×36, t = 0.3 s, cpu, "), t.stderr)
    XCTAssertEqual(try read(still), try read(folders["cpu"]! + "frame_00003.png"))
  }

  func testTheOptionsOfTheVideoCommands() throws {
    let scene = try smallScene()
    // --fps: the same seconds at another rate; --size: the scene scaled.
    let y4m = h.path("fast.y4m")
    let r = try h.run(["render", scene, "--fps", "20", "--size", "128x72", "--renderer", "cpu", "-o", y4m])
    XCTAssertEqual(r.status, 0, r.stderr)
    let reader = try Y4MReader(path: y4m)
    XCTAssertEqual([reader.header.width, reader.header.height], [128, 72])
    XCTAssertEqual(reader.header.frameRate.description, "20/1")
    XCTAssertEqual(try reader.readAllFrames().count, 12)

    // A shard to a folder, numbered in the whole video, with a contact sheet of its frames.
    let folder = h.path("part") + "/"
    let sheet = h.path("sheet.png")
    let s = try h.run(["render", scene, "--shard", "1/2", "--contact-sheet", sheet, "--renderer", "gpu", "-o", folder])
    XCTAssertEqual(s.status, 0, s.stderr)
    XCTAssertEqual(try pngs(in: folder), ["frame_00003.png", "frame_00004.png", "frame_00005.png"])
    XCTAssertTrue(s.stderr.contains("contact sheet: \(sheet)"), s.stderr)
    XCTAssertGreaterThan(try read(sheet).width, 3 * 64)

    // Usage errors: exit 64, one line that says what to do.
    let png = try h.run(["render", scene, "-o", h.path("x.png")])
    XCTAssertEqual(png.status, 64)
    XCTAssertTrue(png.stderr.contains("give --time SECONDS, or a folder/ for every frame"), png.stderr)
    XCTAssertEqual(try h.run(["render", scene, "--time", "0.1", "-o", h.path("x.mp4")]).status, 64)
    XCTAssertEqual(try h.run(["render", scene, "--sample", "-o", h.path("x.png")]).status, 64)
    XCTAssertEqual(
      try h.run(["render", scene, "--frames", "0..2", "--shard", "0/2", "-o", h.path("x.y4m")]).status, 64)
    let aspect = try h.run(["render", scene, "--size", "100x100", "-o", h.path("x.y4m")])
    XCTAssertEqual(aspect.status, 64)
    XCTAssertTrue(aspect.stderr.contains("does not keep the scene's aspect (64×36)"), aspect.stderr)
    let range = try h.run(["render", scene, "--frames", "4..9", "-o", h.path("x.y4m")])
    XCTAssertEqual(range.status, 64)
    XCTAssertTrue(range.stderr.contains("the scene has frames 0..6"), range.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("x.y4m")))
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("x.png")))
    XCTAssertEqual(h.leftovers(), [])
  }

  func testAClipInASceneOnBothBackends() throws {
    let clip = try h.clip("clip.mp4", width: 32, height: 24, fps: 10, seconds: 1, audio: false)
    let scene = h.path("clip.json")
    let text = """
      {"width": 48, "height": 32, "fps": 10, "duration": 1.5,
       "media": {"clip": {"video": "\((clip as NSString).lastPathComponent)", "start": 0.2}},
       "layers": [{"frame": [8, 4, 32, 24], "contents": "clip",
         "animations": [{"kind": "basic", "keyPath": "transform.rotation.z", "from": 0, "to": 0.2, "duration": 1.5}]}]}
      """
    try Data(text.utf8).write(to: URL(fileURLWithPath: scene))
    let y4m = h.path("clip.y4m")
    let r = try h.run(["render", scene, "--renderer", "gpu", "-o", y4m])
    XCTAssertEqual(r.status, 0, r.stderr)
    let frames = try Y4MReader(path: y4m).readAllFrames()
    XCTAssertEqual(frames.count, 15)
    XCTAssertNotEqual(frames[4], frames[5])  // the clip plays
    let parity = try h.run(["parity", scene, "--times", "0,0.55,1.4"])
    XCTAssertEqual(parity.status, 0, parity.stdout + parity.stderr)
  }

  func testABadSceneFileExits1NamingItsPathAndWritesNothing() throws {
    let bad = h.path("bad.json")
    try Data(#"{"width": 8, "height": 8, "duration": 1, "layers": [{"opacty": 1}]}"#.utf8)
      .write(to: URL(fileURLWithPath: bad))
    for out in ["bad.mp4", "bad.y4m", "frames/"] {
      let r = try h.run(["render", bad, "-o", h.path(out)])
      XCTAssertEqual(r.status, 1, out)
      XCTAssertEqual(
        r.stderr, "layerkit render: \(bad): layers[0]: unknown key \"opacty\"; did you mean \"opacity\"?\n", out)
      XCTAssertFalse(FileManager.default.fileExists(atPath: h.path(out)), out)
    }
    let still = try h.run(["render", bad, "--time", "0", "-o", h.path("bad.png")])
    XCTAssertEqual(still.status, 1)
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("bad.png")))
    let missing = try h.run(["render", h.path("none.json"), "-o", h.path("none.mp4")])
    XCTAssertEqual(missing.status, 1)
    XCTAssertEqual(
      missing.stderr, "layerkit render: \(h.path("none.json")): cannot read the scene file: no such file\n")
    XCTAssertEqual(h.leftovers(), [])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: h.folder.path), ["bad.json"])
  }

  // MARK: parity

  func testEveryExampleKeepsTheParityContract() throws {
    for name in Self.examples {
      let r = try h.run(["parity", example(name), "--times", "0.9,2.6"])
      XCTAssertEqual(r.status, 0, "\(name): \(r.stdout)\(r.stderr)")
      XCTAssertEqual(r.lines.count, 3, r.stdout)
      XCTAssertTrue(r.lines[0].hasPrefix("t=0.900 s  max |Δ|"), r.stdout)
      XCTAssertTrue(r.lines[0].hasSuffix("pass"), r.stdout)
      XCTAssertTrue(
        r.lines[2].hasPrefix(
          "passed: 2 of 2 frames within tolerance (|Δ| ≤ 2 on ≥ 99.90% of pixels, PSNR ≥ 45.00 dB); worst t="),
        r.stdout)
    }
    // The default: 5 frames spread over the video, its first and last included.
    let small = try h.run(["parity", try smallScene()])
    XCTAssertEqual(small.status, 0, small.stdout + small.stderr)
    XCTAssertEqual(
      small.lines.map { String($0.prefix(9)) },
      ["t=0.000 s", "t=0.100 s", "t=0.300 s", "t=0.400 s", "t=0.500 s", "passed: 5"])
    let every = try h.run(["parity", try smallScene(), "--every", "2"])
    XCTAssertEqual(every.lines.map { String($0.prefix(9)) }, ["t=0.000 s", "t=0.200 s", "t=0.400 s", "passed: 3"])
  }

  func testAFailingFrameExits1AndWritesExpectedActualAndDiff() throws {
    // Beyond any real tolerance: no channel may differ at all and PSNR must reach 200 dB, which
    // the two backends' rounding does not give on the filters example.
    let artifacts = h.path("artifacts")
    let r = try h.run([
      "parity", example("filters"), "--times", "1", "--max-delta", "0", "--min-psnr", "200", "--artifacts", artifacts,
    ])
    XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
    XCTAssertTrue(r.lines[0].contains("FAIL  → \(artifacts)/filters-t1_000.{expected,actual,diff}.png"), r.stdout)
    XCTAssertTrue(r.lines[1].hasPrefix("FAILED: 0 of 1 frames within tolerance"), r.stdout)
    let images = try FileManager.default.contentsOfDirectory(atPath: artifacts).sorted()
    XCTAssertEqual(images, ["filters-t1_000.actual.png", "filters-t1_000.diff.png", "filters-t1_000.expected.png"])
    for image in images { XCTAssertEqual(try read(artifacts + "/" + image).width, 480) }

    // Without --artifacts: a new temporary folder, named on the line.
    let d = try h.run(["parity", example("filters"), "--times", "1", "--max-delta", "0", "--min-psnr", "200"])
    XCTAssertEqual(d.status, 1)
    let named = try XCTUnwrap(d.lines[0].components(separatedBy: "→ ").last)
    let folder = (named as NSString).deletingLastPathComponent
    defer { try? FileManager.default.removeItem(atPath: folder) }
    XCTAssertTrue((folder as NSString).lastPathComponent.hasPrefix("layerkit-parity-filters-"), folder)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).count, 3)
  }

  func testParityOnBadInputExits2() throws {
    let missing = try h.run(["parity", h.path("none.json")])
    XCTAssertEqual(missing.status, 2)
    XCTAssertEqual(missing.stdout, "")
    XCTAssertEqual(
      missing.stderr, "layerkit parity: \(h.path("none.json")): cannot read the scene file: no such file\n")
    let bad = h.path("bad.json")
    try Data(#"{"width": 8, "height": 8, "duration": "1"}"#.utf8).write(to: URL(fileURLWithPath: bad))
    let r = try h.run(["parity", bad])
    XCTAssertEqual(r.status, 2)
    XCTAssertTrue(r.stderr.hasPrefix("layerkit parity: \(bad): duration: found"), r.stderr)
    XCTAssertEqual(try h.run(["parity", bad, "--times", "0,x"]).status, 64)
    XCTAssertEqual(try h.run(["parity", bad, "--times", "0", "--every", "2"]).status, 64)
  }
}
