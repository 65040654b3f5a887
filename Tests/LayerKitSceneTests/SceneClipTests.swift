import Foundation
import LayerKit
import LayerKitMedia
import LayerKitReference
import LayerKitScene
import LayerKitTesting
import LayerKitVideo
import XCTest

/// Video clips in scene files ("media": {"NAME": {"video": PATH, "start": s, "loop": b}}), decoded
/// by the ffmpeg program: a layer showing a clip shows the clip's frame at scene time − start,
/// wrapped when it loops, its last frame once it is over, in whatever order frames are asked for.
/// And `SceneFrameSource`, which renders a scene's frames for a `VideoPipeline`.
final class SceneClipTests: XCTestCase {
  var folder: URL!

  override func setUpWithError() throws { folder = try temporaryFolder() }
  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

  /// A 1-second 32×24 clip at 10 fps (ffmpeg's moving test pattern), every frame a keyframe's
  /// neighbour within 4.
  func makeClip() throws -> String {
    guard let ffmpeg = FFmpeg.locate("ffmpeg") else {
      throw XCTSkip("ffmpeg is not installed (Tools/setup.sh installs it)")
    }
    let path = folder.appendingPathComponent("clip.mp4").path
    let p = Process()
    p.executableURL = URL(fileURLWithPath: ffmpeg)
    p.arguments = [
      "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=32x24:r=10:d=1", "-c:v", "libx264", "-pix_fmt", "yuv420p",
      "-g", "4", path,
    ]
    try p.run()
    p.waitUntilExit()
    XCTAssertEqual(p.terminationStatus, 0)
    return path
  }

  /// The clip's frames as ffmpeg decodes them, in order.
  func clipFrames(_ path: String) throws -> [Image] {
    let info = try ClipInfo.probe(path)
    XCTAssertEqual(info.frameCount, 10)
    let decoder = ClipDecoder(info, lastFrame: info.frameCount - 1)
    defer { decoder.stop() }
    return try (0..<info.frameCount).map { try decoder.frame(index: $0) }
  }

  /// A scene whose one layer shows the clip at its own size, so each frame is the clip's picture.
  func clipScene(start: Double, loop: Bool) throws -> LoadedScene {
    try scene(
      """
      {"width": 32, "height": 24, "fps": 10, "duration": 3,
       "media": {"clip": {"video": "clip.mp4", "start": \(start), "loop": \(loop)}},
       "layers": [{"frame": [0, 0, 32, 24], "contents": "clip"}]}
      """, folder: folder)
  }

  func testALayerShowsTheClipsFrameAtSceneTimeInAnyOrder() throws {
    let frames = try clipFrames(try makeClip())
    XCTAssertNotEqual(frames[2].pixels, frames[3].pixels)
    let s = try clipScene(start: 0.5, loop: false)
    defer { s.stopClips() }
    // Scene time t shows clip frame (t − 0.5) × 10: before the start the first frame, after the
    // end (1.5 s) the last; asked backwards (a rewind) and far ahead (a seek) too.
    for (t, j) in [(0.0, 0), (0.5, 0), (0.8, 3), (1.2, 7), (0.7, 2), (1.45, 9), (2.9, 9), (0.6, 1), (2.0, 9)] {
      XCTAssertIdentical(try render(s, at: t), frames[j], "time \(t) → clip frame \(j)")
    }
  }

  func testALoopingClipWrapsAndAClipAskedFirstPastItsEndShowsItsLastFrame() throws {
    let frames = try clipFrames(try makeClip())
    let looping = try clipScene(start: 0, loop: true)
    defer { looping.stopClips() }
    for (t, j) in [(0.3, 3), (1.3, 3), (2.55, 5), (0.95, 9)] {
      XCTAssertIdentical(try render(looping, at: t), frames[j], "looping, time \(t) → clip frame \(j)")
    }
    // A fresh scene whose first frame is after the clip's end: the decoder starts at the last frame.
    let late = try clipScene(start: 0, loop: false)
    defer { late.stopClips() }
    XCTAssertIdentical(try render(late, at: 2.5), frames[9])
    // Stopped decoders start again when a frame needs them.
    late.stopClips()
    XCTAssertIdentical(try render(late, at: 0.4), frames[4])
  }

  func testAMissingOrUnreadableClipIsAnErrorNamingItsPath() throws {
    let missing = sceneError {
      try scene(
        #"{"width": 8, "height": 8, "duration": 1, "media": {"c": {"video": "none.mp4"}}}"#, folder: folder)
    }
    XCTAssertEqual(
      missing, .mediaNotFound(path: "media.c.video", resolvedPath: folder.appendingPathComponent("none.mp4").path))
    try Data("not a video".utf8).write(to: folder.appendingPathComponent("bad.mp4"))
    let bad = sceneError {
      try scene(#"{"width": 8, "height": 8, "duration": 1, "media": {"c": {"video": "bad.mp4"}}}"#, folder: folder)
    }
    guard case .unreadableMedia(let path, _, _)? = bad else { return XCTFail("\(String(describing: bad))") }
    XCTAssertEqual(path, "media.c.video")
  }

  // MARK: SceneFrameSource

  func testTheFrameSourceWritesTheScenesFramesThroughAPipeline() throws {
    _ = try makeClip()
    let s = try clipScene(start: 0.5, loop: false)
    let renderer = ReferenceRenderer(threadCount: 2)
    let source = try SceneFrameSource(scene: s, renderer: renderer)
    XCTAssertEqual(source.frameCount, 30)
    XCTAssertEqual(source.rate.description, "10/1")
    XCTAssertEqual(source.time(ofFrame: 7), 0.7, accuracy: 1e-12)
    let out = folder.appendingPathComponent("frames/").path + "/"
    let pipeline = try VideoPipeline(
      source: source, width: source.width, height: source.height, rate: source.rate, frameCount: source.frameCount,
      target: try OutputTarget(path: out), options: EncodingOptions(), frames: 3..<12, keepFrames: [5])
    XCTAssertEqual(try pipeline.run().frames, 9)
    let names = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    XCTAssertEqual(names.first, "frame_00003.png")
    XCTAssertEqual(names.count, 9)
    let check = try clipScene(start: 0.5, loop: false)
    defer { check.stopClips() }
    for (i, name) in names.enumerated() {
      let written = try ImageFile.read(URL(fileURLWithPath: out + name))
      XCTAssertIdentical(written, try render(check, at: Double(3 + i) / 10), name)
    }
    XCTAssertIdentical(try XCTUnwrap(pipeline.keptFrames[5]), try render(check, at: 0.5))
  }

  func testTheFrameSourceTakesAnyTimeToListProviderAndOtherRatesAndScales() throws {
    let s = try scene(
      """
      {"width": 40, "height": 20, "fps": 10, "duration": 1, "background": "#203040",
       "layers": [{"name": "box", "frame": [0, 0, 10, 10], "backgroundColor": "#ff0000",
         "animations": [{"kind": "basic", "keyPath": "position.x", "from": 5, "to": 35, "duration": 1}]}]}
      """)
    let renderer = ReferenceRenderer(threadCount: 2)
    let doubled = try SceneFrameSource(scene: s, renderer: renderer, fps: 20, scale: 2)
    XCTAssertEqual(doubled.frameCount, 20)
    XCTAssertEqual([doubled.width, doubled.height], [80, 40])
    XCTAssertEqual(doubled.time(ofFrame: 3), 0.15, accuracy: 1e-12)
    let frame = try doubled.frame(3)
    XCTAssertEqual([frame.width, frame.height], [80, 40])
    let direct = try renderer.render(
      RenderList(layer: s.presentation(at: 0.15), width: 80, height: 40, scale: 2, background: s.settings.background))
    XCTAssertIdentical(frame, direct)
    // Any provider: here a plain colour by time, at the default k / rate.
    var asked: [Double] = []
    let plain = SceneFrameSource(
      width: 4, height: 2, rate: try FrameRate(numerator: 30000, denominator: 1001), frameCount: 5,
      renderer: renderer
    ) { t in
      asked.append(t)
      return try RenderList(layer: Layer(), width: 4, height: 2, background: Color(white: t))
    }
    XCTAssertEqual(try plain.frame(3).pixels[0], 26)  // 0.1001 × 255, rounded
    XCTAssertEqual(asked, [3 * 1001.0 / 30000])
    XCTAssertThrowsError(try SceneFrameSource(scene: s, renderer: renderer, scale: 0))
  }
}
