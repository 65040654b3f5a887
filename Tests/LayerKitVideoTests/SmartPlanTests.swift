import Foundation
import LayerKit
import LayerKitMedia
import XCTest

@testable import LayerKitVideo

/// Smart rendering's plan: which frames show a clip exactly as encoded, and which whole GOPs of
/// them could be copied from the source's packets.
final class SmartPlanTests: XCTestCase {
  func clip(_ name: String, seconds: Double = 4) -> MediaSource {
    .clip(ClipInfo(path: name, width: 64, height: 36, frameRate: 25, duration: seconds, hasAudio: true))
  }

  /// Two 4 s clips at 25 fps, keyframes every second, a 0.4 s fade: the first clip's GOPs before
  /// the fade are copied, the GOP the fade falls in and the second clip's first (which starts
  /// under the fade) are encoded, the rest of the second clip is copied to its end.
  func testWholeGOPsOutsideTheTransitionsAreCopied() throws {
    let t = try Timeline(
      items: [TimelineItem(source: clip("a.mp4"), duration: 4), TimelineItem(source: clip("b.mp4"), duration: 4)],
      transitions: [TimelineTransition(effect: "fade", duration: 0.4)], width: 64, height: 36,
      rate: FrameRate(numerator: 25, denominator: 1))
    XCTAssertEqual(t.frameCount, 190)
    XCTAssertNil(t.unchangedSourceFrame(95), "a transition frame")
    XCTAssertEqual(t.unchangedSourceFrame(100).map { [$0.item, $0.frame] }, [1, 10])
    let keys = [0, 25, 50, 75]
    let plan = SmartPlan.make(t, keyframes: [0: keys, 1: keys])
    XCTAssertEqual(
      plan.segments,
      [
        .copy(item: 0, frames: 0..<75, sourceFrames: 0..<75), .encode(frames: 75..<115),
        .copy(item: 1, frames: 115..<190, sourceFrames: 25..<100),
      ])
    XCTAssertEqual(plan.copiedFrames, 150)
  }

  /// A title, a Ken Burns move, another speed, an in-point between frames, another size: nothing
  /// is shown as encoded, so nothing is copied.
  func testChangedFramesAreNeverCopied() throws {
    let rate = try FrameRate(numerator: 25, denominator: 1)
    let cases: [(String, TimelineItem, Int)] = [
      ("title", TimelineItem(source: clip("a.mp4"), duration: 4, title: TimelineTitle(AttributedText("Hi"))), 64),
      ("Ken Burns", TimelineItem(source: clip("a.mp4"), duration: 4, motion: KenBurns()), 64),
      ("speed", TimelineItem(source: clip("a.mp4", seconds: 8), duration: 4, speed: 2), 64),
      ("in-point", TimelineItem(source: clip("a.mp4", seconds: 8), inPoint: 0.01, duration: 4), 64),
      ("size", TimelineItem(source: clip("a.mp4"), duration: 4), 128),
    ]
    for (name, item, width) in cases {
      let t = try Timeline(items: [item], transitions: [], width: width, height: 36, rate: rate)
      let plan = SmartPlan.make(t, keyframes: [0: [0, 25, 50, 75]])
      XCTAssertEqual(plan.copiedFrames, 0, name)
      XCTAssertEqual(plan.segments, [.encode(frames: 0..<100)], name)
    }
    // An in-point on a keyframe copies from there.
    let cut = try Timeline(
      items: [TimelineItem(source: clip("a.mp4", seconds: 8), inPoint: 2, duration: 4)], transitions: [], width: 64,
      height: 36, rate: rate)
    XCTAssertEqual(
      SmartPlan.make(cut, keyframes: [0: [0, 25, 50, 75, 100, 125, 150, 175]]).segments,
      [.copy(item: 0, frames: 0..<100, sourceFrames: 50..<150)])
  }

  /// ffprobe's packet flags give the keyframes: a clip encoded with one every 10 frames.
  func testKeyframesAreReadFromThePackets() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("lk-keys-\(UUID().uuidString).mp4").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let ffmpeg = try XCTUnwrap(FFmpeg.locate("ffmpeg"), "Tools/setup.sh installs ffmpeg")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: ffmpeg)
    p.arguments = [
      "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x36:r=25", "-t", "2", "-c:v", "libx264", "-x264-params",
      "keyint=10:min-keyint=10:scenecut=0", "-pix_fmt", "yuv420p", path,
    ]
    try p.run()
    p.waitUntilExit()
    XCTAssertEqual(p.terminationStatus, 0)
    XCTAssertEqual(try SmartPlan.keyframes(of: try ClipInfo.probe(path)), [0, 10, 20, 30, 40])
  }

  /// Copied packets and encoded stretches must make one stream: the first mismatch is named.
  func testStreamsThatCannotBeCopiedAreDeclinedByName() throws {
    let rate = try FrameRate(numerator: 30, denominator: 1)
    let a = SourceStream(
      path: "/x/a.mp4", codec: "h264", profile: "High", pixelFormat: "yuv420p", width: 1920, height: 1080,
      frameRate: "30/1", colorSpace: "bt709", colorRange: "tv")
    func declines(_ streams: [SourceStream], format: VideoFormat = .mp4, encoder: String? = nil) -> String? {
      SmartPlan.declines(
        streams, format: format, encoder: encoder, pixelFormat: nil, width: 1920, height: 1080, rate: rate)
    }
    XCTAssertNil(declines([a, a]))
    var b = a
    b.path = "/x/b.mp4"
    b.profile = "Main"
    XCTAssertEqual(declines([a, b]), "b.mp4 is h264 Main, a.mp4 High")
    b = a
    b.path = "/x/b.mov"
    b.frameRate = "30000/1001"
    XCTAssertEqual(declines([a, b]), "b.mov runs at 30000/1001 fps, the output at 30/1")
    b.frameRate = "60/2"
    XCTAssertNil(declines([a, b]), "60/2 is 30/1")
    b.codec = "hevc"
    XCTAssertEqual(declines([a, b]), "b.mov is hevc, the output h264")
    XCTAssertNil(declines([b.with(frameRate: "30/1")], encoder: "libx265"))
    XCTAssertEqual(
      declines([a], encoder: "libx264rgb"),
      "the output is encoded with libx264rgb; clips are copied into H.264 (libx264) or HEVC (libx265) outputs")
    XCTAssertNotNil(declines([a], format: .webm))
  }

  /// ffprobe describes an x264 clip as smart rendering needs it.
  func testAStreamIsProbedAsCopyingNeedsIt() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("lk-stream-\(UUID().uuidString).mp4").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let ffmpeg = try XCTUnwrap(FFmpeg.locate("ffmpeg"), "Tools/setup.sh installs ffmpeg")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: ffmpeg)
    p.arguments = [
      "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x36:r=25", "-t", "1", "-c:v", "libx264", "-profile:v", "main",
      "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_range", "tv", path,
    ]
    try p.run()
    p.waitUntilExit()
    XCTAssertEqual(p.terminationStatus, 0)
    let s = try SourceStream.probe(path)
    XCTAssertEqual(
      [s.codec, s.profile, s.pixelFormat, s.frameRate, s.colorSpace, s.colorRange],
      ["h264", "Main", "yuv420p", "25/1", "bt709", "tv"])
    XCTAssertEqual([s.width, s.height], [64, 36])
  }
}

extension SourceStream {
  func with(frameRate: String) -> SourceStream {
    var s = self
    s.frameRate = frameRate
    return s
  }
}
