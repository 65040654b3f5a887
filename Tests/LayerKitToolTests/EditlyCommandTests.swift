import Foundation
import LayerKit
import LayerKitMedia
import XCTest

/// `layerkit edit` with editly's output rules: the size and rate a file leaves unsaid, `fast`,
/// `customOutputArgs`, gl layers (the GPU's; refused on the CPU), gl-transitions names with
/// LayerKit's stand-ins.
final class EditlyCommandTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("editly") }
  override func tearDownWithError() throws { h.cleanUp() }

  func spec(_ text: String, _ name: String = "e.json5") throws -> String {
    let path = h.path(name)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The Y4M header's size and rate ("W64 H48 F10:1").
  func header(_ path: String) throws -> String {
    let data = try Data(contentsOf: URL(fileURLWithPath: path)).prefix(80)
    let line = String(decoding: data.prefix { $0 != 0x0A }, as: UTF8.self)
    return line.split(separator: " ").filter { $0.hasPrefix("W") || $0.hasPrefix("H") || $0.hasPrefix("F") }
      .joined(separator: " ")
  }

  /// No width, height or fps: the first video's size and rate; a width alone keeps the first
  /// video's aspect; no video: 640 square at 25 frames/s; `fast`: about 250 pixels a side at 15.
  func testTheSizeAndRateAFileLeavesUnsaidAreEditlys() throws {
    let clip = try h.clip("c.mp4", width: 64, height: 48, fps: 10, seconds: 1, audio: false)
    func render(_ top: String) throws -> String {
      let out = h.path("o-\(top.count).y4m")
      let file = try spec("{ \(top) clips: [{ layers: [{ type: 'video', path: '\(clip)' }] }] }")
      let r = try h.run(["edit", file, "--renderer", "cpu", "--quiet", "-o", out])
      XCTAssertEqual(r.status, 0, r.stderr)
      return try header(out)
    }
    XCTAssertEqual(try render(""), "W64 H48 F10:1")
    XCTAssertEqual(try render("width: 32,"), "W32 H24 F10:1")
    // 250 · √(4/3) = 288.7 and 250 / √(4/3) = 216.5, each to an even number.
    XCTAssertEqual(try render("fast: true,"), "W288 H216 F15:1")
    let out = h.path("colours.y4m")
    let file = try spec("{ clips: [{ duration: 0.2, layers: [{ type: 'pause' }] }] }", "c.json5")
    XCTAssertEqual(try h.run(["edit", file, "--renderer", "cpu", "--quiet", "-o", out]).status, 0)
    XCTAssertEqual(try header(out), "W640 H640 F25:1")
    XCTAssertEqual(try h.run(["edit", file, "--size", "20x10", "--renderer", "cpu", "--quiet", "-o", out]).status, 0)
    XCTAssertEqual(try header(out), "W20 H10 F25:1", "the command line wins")
  }

  /// customOutputArgs reach the encoder after LayerKit's own (x264 records its settings in the
  /// stream: crf=40.0); ones that would change what LayerKit feeds ffmpeg are refused by path.
  func testCustomOutputArgsReachTheEncoder() throws {
    let out = h.path("custom.mp4")
    let file = try spec(
      "{ width: 32, height: 16, customOutputArgs: ['-crf', '40'], clips: [{ duration: 0.4, layers: [{ type: 'rainbow-colors' }] }] }"
    )
    let r = try h.run(["edit", file, "--renderer", "cpu", "--quiet", "-o", out])
    XCTAssertEqual(r.status, 0, r.stderr)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: out))
    XCTAssertNotNil(bytes.range(of: Data("crf=40.0".utf8)), "x264's settings in the stream")
    let bad = try spec("{ customOutputArgs: ['-map', '0'], clips: [{ layers: [{ type: 'pause' }] }] }", "bad.json5")
    let refused = try h.run(["edit", bad, "--renderer", "cpu", "-o", h.path("bad.mp4")])
    XCTAssertNotEqual(refused.status, 0)
    XCTAssertTrue(refused.stderr.contains("customOutputArgs[0]: -map is LayerKit's to set"), refused.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("bad.mp4")))
  }

  static let gradient = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Fixtures/picture_gradient.frag")

  /// A gl layer is its shader's picture, drawn on the GPU (red rises to the right, green to the
  /// top, blue with the time); on the CPU it is refused before anything is written.
  func testAGLLayerPaintsItsShaderOnTheGPU() throws {
    let file = try spec(
      "{ width: 32, height: 16, fps: 10, clips: [{ duration: 1, layers: [{ type: 'gl', fragmentPath: '\(Self.gradient.path)', speed: 0.5 }] }] }"
    )
    let folder = h.path("gl") + "/"
    let r = try h.run(["edit", file, "--renderer", "gpu", "--quiet", "-o", folder])
    XCTAssertEqual(r.status, 0, r.stderr)
    let first = try ImageFile.read(URL(fileURLWithPath: folder + "frame_00000.png"))
    let late = try ImageFile.read(URL(fileURLWithPath: folder + "frame_00008.png"))
    func px(_ i: Image, _ x: Int, _ y: Int) -> [Int] {
      let o = (y * i.width + x) * 4
      return i.pixels[o..<o + 3].map(Int.init)
    }
    XCTAssertLessThan(px(first, 0, 0)[0], 16, "left: little red")
    XCTAssertGreaterThan(px(first, 0, 0)[1], 235, "top: much green")
    XCTAssertGreaterThan(px(first, 31, 15)[0], 235, "right: much red")
    XCTAssertLessThan(px(first, 31, 15)[1], 16, "bottom: little green")
    XCTAssertLessThan(px(first, 5, 5)[2], 4, "time 0")
    // Frame 8 of 10: time = 0.8 × speed 0.5 = 0.4.
    XCTAssertEqual(Double(px(late, 5, 5)[2]), 0.4 * 255, accuracy: 3)
    let cpu = try h.run(["edit", file, "--renderer", "cpu", "-o", h.path("cpu.mp4")])
    XCTAssertEqual(cpu.status, 1)
    XCTAssertTrue(cpu.stderr.contains("a gl layer is a GLSL shader's picture, drawn on the GPU"), cpu.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("cpu.mp4")))
  }

  /// gl-transitions' `directional` without its file: LayerKit's push stands in, its params'
  /// direction the push's (the same frames as `push:fromRight`); an unknown gl-transitions name
  /// says where to point LayerKit.
  func testGLTransitionsNamesAndStandIns() throws {
    func frames(_ transition: String, _ name: String) throws -> [Data] {
      let file = try spec(
        """
        { width: 24, height: 12, fps: 10, clips: [
          { duration: 1, transition: \(transition), layers: [{ type: 'fill-color', color: 'red' }] },
          { duration: 1, layers: [{ type: 'linear-gradient', colors: ['blue', 'white'] }] }] }
        """, "\(name).json5")
      let folder = h.path(name) + "/"
      let r = try h.run(["edit", file, "--renderer", "cpu", "--quiet", "-o", folder])
      XCTAssertEqual(r.status, 0, r.stderr)
      return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map {
        try Data(contentsOf: URL(fileURLWithPath: folder + $0))
      }
    }
    let standIn = try frames("{ name: 'directional', duration: 0.5, params: { direction: [1, 0] } }", "directional")
    let push = try frames("{ name: 'push:fromRight', duration: 0.5 }", "push")
    XCTAssertEqual(standIn.count, 15)
    XCTAssertEqual(standIn, push)
    let unknown = try spec(
      "{ clips: [{ transition: { name: 'crosszoom' }, layers: [{ type: 'pause' }] }, { layers: [{ type: 'pause' }] }] }",
      "u.json5")
    let r = try h.run(["edit", unknown, "--renderer", "cpu", "-o", h.path("u.mp4")])
    XCTAssertNotEqual(r.status, 0)
    XCTAssertTrue(r.stderr.contains("point --gl-transitions DIR"), r.stderr)
  }

  /// A video after a clip's picture plays in its box inside the clip: a transition carries it
  /// with the picture (editly draws every layer into the clip's frame).
  func testAPlacedVideoMovesWithItsClip() throws {
    let blue = h.path("blue.mp4")
    let made = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:s=32x32:r=10:d=2", "-pix_fmt", "yuv420p", blue])
    XCTAssertEqual(made.status, 0, made.stderr)
    let file = try spec(
      """
      { width: 40, height: 20, fps: 10, clips: [
        { duration: 2, transition: { name: 'push:fromRight', duration: 1 }, layers: [
          { type: 'fill-color', color: 'red' },
          { type: 'video', path: '\(blue)', width: 0.5, height: 1, left: 0.5, resizeMode: 'stretch' }] },
        { duration: 2, layers: [{ type: 'fill-color', color: 'white' }] }] }
      """)
    let folder = h.path("placed") + "/"
    let r = try h.run(["edit", file, "--renderer", "cpu", "--quiet", "-o", folder])
    XCTAssertEqual(r.status, 0, r.stderr)
    func px(_ k: Int, _ x: Int, _ y: Int) throws -> [Int] {
      let i = try ImageFile.read(URL(fileURLWithPath: folder + String(format: "frame_%05d.png", k)))
      let o = (y * i.width + x) * 4
      return i.pixels[o..<o + 3].map(Int.init)
    }
    XCTAssertEqual(try px(5, 10, 10), [255, 0, 0], "the clip's picture on the left")
    XCTAssertGreaterThan(try px(5, 30, 10)[2], 250, "the video in the right half")
    XCTAssertLessThan(try px(5, 30, 10)[0], 8)
    // Halfway through the push the first clip has moved left by half the frame: the video's box
    // (x 20…40) is at x 0…20, the next clip's white in the right half.
    XCTAssertGreaterThan(try px(15, 10, 10)[2], 250, "the video moved with its clip")
    XCTAssertLessThan(try px(15, 10, 10)[0], 8)
    XCTAssertEqual(try px(15, 30, 10), [255, 255, 255])
  }
}
