import Foundation
import LayerKit
import LayerKitMedia
import XCTest

@testable import LayerKitEdit
@testable import LayerKitOutput
@testable import LayerKitTimeline
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

  /// A title, a Ken Burns move, another speed, another size: nothing is shown as encoded, so
  /// nothing is copied.
  func testChangedFramesAreNeverCopied() throws {
    let rate = try FrameRate(numerator: 25, denominator: 1)
    let cases: [(String, TimelineItem, Int)] = [
      ("title", TimelineItem(source: clip("a.mp4"), duration: 4, title: TimelineTitle(AttributedText("Hi"))), 64),
      ("Ken Burns", TimelineItem(source: clip("a.mp4"), duration: 4, motion: KenBurns()), 64),
      ("speed", TimelineItem(source: clip("a.mp4", seconds: 8), duration: 4, speed: 2), 64),
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

  /// An in-point or a transition that is not a whole number of frames still shows whole source
  /// frames — the ones the clip's decoder gives for each time — and those are copied.
  func testOffsetsBetweenFramesStillCopyTheFramesShown() throws {
    let rate = try FrameRate(numerator: 25, denominator: 1)
    let between = try Timeline(
      items: [TimelineItem(source: clip("a.mp4", seconds: 8), inPoint: 0.01, duration: 4)], transitions: [],
      width: 64, height: 36, rate: rate)
    XCTAssertEqual(between.unchangedSourceFrame(10).map { [$0.item, $0.frame] }, [0, 10], "0.4 s + 0.01 s: frame 10")
    let keys = [0, 25, 50, 75, 100, 125, 150, 175]
    XCTAssertEqual(
      SmartPlan.make(between, keyframes: [0: keys]).segments,
      [.copy(item: 0, frames: 0..<100, sourceFrames: 0..<100)], "every frame, as the decoder would show it")
    // A 0.42 s fade (10.5 frames): the second clip's frames still land on whole source frames.
    let t = try Timeline(
      items: [TimelineItem(source: clip("a.mp4"), duration: 4), TimelineItem(source: clip("b.mp4"), duration: 4)],
      transitions: [TimelineTransition(effect: "fade", duration: 0.42)], width: 64, height: 36, rate: rate)
    let plan = SmartPlan.make(t, keyframes: [0: [0, 25, 50, 75], 1: [0, 25, 50, 75]])
    guard case .copy(1, _, let source)? = plan.segments.last else { return XCTFail("\(plan.segments)") }
    XCTAssertEqual(source.upperBound, 100, "the second clip is copied to its end")
  }

  /// Where a transition begins inside a GOP, the run is copied up to the last frame that ends a
  /// mini-GOP before it, and only the frames after are encoded.
  func testAGOPIsCopiedUpToTheLastFrameARunMayEndOn() throws {
    let t = try Timeline(
      items: [TimelineItem(source: clip("a.mp4"), duration: 4), TimelineItem(source: clip("b.mp4"), duration: 4)],
      transitions: [TimelineTransition(effect: "fade", duration: 0.4)], width: 64, height: 36,
      rate: FrameRate(numerator: 25, denominator: 1))
    // The fade covers frames 90..<100; mini-GOPs of three frames end on 77, 80, …, 89, 92, ….
    let keys = [0, 25, 50, 75]
    let ends = Array(stride(from: 2, to: 100, by: 3))
    let plan = SmartPlan.make(t, keyframes: [0: keys, 1: keys], ends: [0: ends, 1: ends])
    XCTAssertEqual(
      plan.segments,
      [
        .copy(item: 0, frames: 0..<90, sourceFrames: 0..<90), .encode(frames: 90..<115),
        .copy(item: 1, frames: 115..<190, sourceFrames: 25..<100),
      ])
    XCTAssertEqual(plan.copiedFrames, 165, "15 frames more than whole GOPs alone")
  }

  /// Shards of a smart render: a boundary inside a copied run moves to the run's nearer end, the
  /// parts still tile the video, and each part's plan is the whole plan's frames in its range.
  func testShardBoundariesMoveOffCopiedRuns() {
    let whole = SmartPlan(segments: [
      .copy(item: 0, frames: 0..<75, sourceFrames: 0..<75), .encode(frames: 75..<115),
      .copy(item: 1, frames: 115..<190, sourceFrames: 25..<100),
    ])
    // Nominal boundaries 63 and 126: 63 lies in the first run (nearer its end, 75), 126 in the
    // second (nearer its start, 115).
    let parts = (0..<3).compactMap { whole.shard($0, of: 3, total: 190) }
    XCTAssertEqual(parts, [0..<75, 75..<115, 115..<190])
    XCTAssertEqual(parts.map { whole.restricted(to: $0).copiedFrames }.reduce(0, +), whole.copiedFrames)
    XCTAssertEqual(whole.restricted(to: 75..<115).segments, [.encode(frames: 75..<115)])
    // Ten parts of a video copied whole: moving would empty some, so the nominal ranges stand.
    let all = SmartPlan(segments: [.copy(item: 0, frames: 0..<100, sourceFrames: 0..<100)])
    XCTAssertNil(all.shard(3, of: 10, total: 100))
  }

  /// A clip encoded with an IDR picture every 10 frames and B-frames: every one is a clean
  /// keyframe, and the B-frames' reordering is read from the packets.
  func testCleanKeyframesAreReadFromThePackets() throws {
    let path = try makeClip(["-x264-params", "keyint=10:min-keyint=10:scenecut=0:bframes=2"])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let info = try ClipInfo.probe(path)
    let packets = try SourcePackets.scan(try SourceFile.probe(path), frameCount: info.frameCount)
    XCTAssertNil(packets.unusable)
    XCTAssertEqual(packets.keyframes, [0, 10, 20, 30, 40])
    XCTAssertEqual(packets.frameCount, 50)
    XCTAssertGreaterThan(packets.reorder.max() ?? 0, 0, "B-frames are decoded before the frames shown before them")
  }

  /// x264's open GOPs: the I pictures after the first are recovery points with B-frames shown
  /// before them that reference the GOP before; none is a clean start.
  func testOpenGOPKeyframesAreNotClean() throws {
    let path = try makeClip(["-x264-params", "keyint=10:min-keyint=10:scenecut=0:bframes=3:open-gop=1"])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let info = try ClipInfo.probe(path)
    let packets = try SourcePackets.scan(try SourceFile.probe(path), frameCount: info.frameCount)
    XCTAssertEqual(packets.keyframes, [0])
  }

  /// Packets worked out from their times alone: a key packet with a picture decoded after it
  /// but shown before it (a leading picture) is not clean, nor one that is not an IDR picture;
  /// uneven times and packets that are not the clip's frames make the clip unusable.
  func testPacketTimesDecideCleanStartsAndUsability() {
    var stream = SourceStream(
      path: "c.mp4", codec: "h264", profile: "High", pixelFormat: "yuv420p", width: 64, height: 36, frameRate: "25/1")
    stream.timeBase = "1/12800"
    let tick: Int64 = 512  // one frame at 25 fps
    let idr: [UInt8] = [0, 0, 0, 2, 0x09, 0xF0, 0, 0, 0, 2, 0x65, 0x88]  // an AUD, then an IDR slice
    let nonIDR: [UInt8] = [0, 0, 0, 2, 0x41, 0x9A]
    func packets(_ shown: [Int64], keys: Set<Int>) -> [SourcePackets.Packet] {
      shown.enumerated().map { d, j in SourcePackets.Packet(pts: j * tick, isKey: keys.contains(d)) }
    }
    // Decode order I0 P3 B1 B2 | I4 P7 B5 B6: both GOPs closed.
    let closed = SourcePackets.make(
      packets([0, 3, 1, 2, 4, 7, 5, 6], keys: [0, 4]), stream: stream, frameCount: 8, firstBytes: { _ in idr })
    XCTAssertEqual(closed.keyframes, [0, 4])
    XCTAssertEqual(closed.reorder, [0, 1, 1, -2, 0, 1, 1, -2])
    XCTAssertEqual(closed.ends, [0, 3, 4, 7], "after I0, after B2 (frames 0…3 all decoded), after I4, after B6")
    // Decode order I0 P3 B1 B2 | I6 B4 B5 P7: frames 4 and 5 lead the second I.
    let open = SourcePackets.make(
      packets([0, 3, 1, 2, 6, 4, 5, 7], keys: [0, 4]), stream: stream, frameCount: 8, firstBytes: { _ in idr })
    XCTAssertEqual(open.keyframes, [0])
    // A key packet whose slice is not an IDR picture.
    let recovery = SourcePackets.make(
      packets([0, 1, 2, 3], keys: [0, 2]), stream: stream, frameCount: 4,
      firstBytes: { $0.pts == 0 ? idr : nonIDR })
    XCTAssertEqual(recovery.keyframes, [0])
    // A frame 1.5 frames after the one before: not constant rate.
    var uneven = packets([0, 1, 2, 3], keys: [0])
    uneven[2].pts = 2 * tick + tick / 2
    XCTAssertNotNil(SourcePackets.make(uneven, stream: stream, frameCount: 4, firstBytes: { _ in idr }).unusable)
    // A video that starts a frame late.
    XCTAssertNotNil(
      SourcePackets.make(packets([1, 2, 3, 4], keys: [0]), stream: stream, frameCount: 4, firstBytes: { _ in idr })
        .unusable)
    // Five packets for four frames (an edit list cutting the first).
    XCTAssertNotNil(
      SourcePackets.make(packets([0, 1, 2, 3, 4], keys: [0]), stream: stream, frameCount: 4, firstBytes: { _ in idr })
        .unusable)
  }

  /// H.264 and HEVC NAL unit types: IDR pictures are clean starts, other slices are not.
  func testInstantRefreshIsReadFromTheNALType() {
    XCTAssertTrue(SourcePackets.isInstantRefresh([0, 0, 0, 1, 0x65], codec: "h264"))
    XCTAssertFalse(SourcePackets.isInstantRefresh([0, 0, 0, 1, 0x41], codec: "h264"))
    // HEVC: a VPS (32) first, then IDR_W_RADL (19); CRA (21) is not an IDR.
    XCTAssertTrue(SourcePackets.isInstantRefresh([0, 0, 0, 2, 0x40, 0x01, 0, 0, 0, 2, 0x26, 0x01], codec: "hevc"))
    XCTAssertFalse(SourcePackets.isInstantRefresh([0, 0, 0, 2, 0x2A, 0x01], codec: "hevc"))
    XCTAssertFalse(SourcePackets.isInstantRefresh([0, 0, 0, 9, 0x06, 0x05], codec: "h264"), "no slice in the bytes")
  }

  /// A 2 s x264 clip at 25 fps, 64×36, with `extra` arguments.
  private func makeClip(_ extra: [String]) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("lk-keys-\(UUID().uuidString).mp4").path
    let ffmpeg = try XCTUnwrap(FFmpeg.locate("ffmpeg"), "Tools/setup.sh installs ffmpeg")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: ffmpeg)
    p.arguments =
      ["-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x36:r=25", "-t", "2", "-c:v", "libx264"] + extra + [
        "-pix_fmt", "yuv420p", path,
      ]
    try p.run()
    p.waitUntilExit()
    XCTAssertEqual(p.terminationStatus, 0)
    return path
  }

  /// Copied packets and encoded stretches must make one stream: the first mismatch is named.
  func testStreamsThatCannotBeCopiedAreDeclinedByName() throws {
    let rate = try FrameRate(numerator: 30, denominator: 1)
    var a = SourceStream(
      path: "/x/a.mp4", codec: "h264", profile: "High", pixelFormat: "yuv420p", width: 1920, height: 1080,
      frameRate: "30/1", colorSpace: "bt709", colorRange: "tv")
    a.container = "mov,mp4,m4a,3gp,3g2,mj2"
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
    b.profile = "Main"
    XCTAssertEqual(declines([a, b]), "b.mov is hevc, the output h264")
    XCTAssertNil(declines([b.with(frameRate: "30/1")], encoder: "libx265"))
    XCTAssertEqual(
      declines([a], encoder: "libx264rgb"),
      "the output is encoded with libx264rgb; clips are copied into H.264 (libx264) or HEVC (libx265) outputs")
    XCTAssertNotNil(declines([a], format: .webm))
    XCTAssertNotNil(declines([a], format: .mkv))
    b = a
    b.path = "/x/b.mkv"
    b.container = "matroska,webm"
    XCTAssertEqual(declines([a, b]), "b.mkv is not an MP4 or MOV file")
    b = a
    b.path = "/x/b.mp4"
    b.colorRange = "pc"
    XCTAssertEqual(declines([b]), "b.mp4 is full range; LayerKit encodes limited range")
    b.colorRange = "tv"
    b.rotation = 90
    XCTAssertEqual(declines([b]), "b.mp4 is shown rotated (90°)")
  }

  /// The encoded stretches are encoded as the clips are: codec, profile, level, pixel format,
  /// colour tags.
  func testStretchesAreEncodedAsTheClipsAre() {
    var a = SourceStream(
      path: "a.mp4", codec: "h264", profile: "Main", pixelFormat: "yuv420p", width: 64, height: 36, frameRate: "25/1",
      colorSpace: "bt709", colorRange: "tv")
    a.level = 31
    var b = a
    b.level = 40
    let args = SmartPlan.stretchArguments([a, b], crf: nil, preset: nil)
    XCTAssertEqual(args[args.firstIndex(of: "-profile:v")! + 1], "main")
    XCTAssertEqual(args[args.firstIndex(of: "-level:v")! + 1], "4.0", "the clips' highest level")
    XCTAssertEqual(args[args.firstIndex(of: "-crf")! + 1], "18")
    XCTAssertEqual(args[args.firstIndex(of: "-colorspace")! + 1], "bt709")
    XCTAssertFalse(args.contains("-color_primaries"), "untagged in the clips, untagged in the stretches")
    XCTAssertEqual(args[args.firstIndex(of: "-x264-params")! + 1], "stitchable=1:bframes=3")
    // Baseline has no B-frames: asked for, x264 made the stretches Main.
    var baseline = a
    baseline.profile = "Constrained Baseline"
    let plain = SmartPlan.stretchArguments([baseline], crf: nil, preset: nil)
    XCTAssertEqual(plain[plain.firstIndex(of: "-profile:v")! + 1], "baseline")
    XCTAssertEqual(plain[plain.firstIndex(of: "-x264-params")! + 1], "stitchable=1:bframes=0")
    a.codec = "hevc"
    a.profile = "Main 10"
    a.pixelFormat = "yuv420p10le"
    a.level = 93
    let hevc = SmartPlan.stretchArguments([a], crf: 22, preset: "fast")
    XCTAssertEqual(hevc[hevc.firstIndex(of: "-c:v")! + 1], "libx265")
    XCTAssertTrue(hevc[hevc.firstIndex(of: "-x265-params")! + 1].contains("level-idc=3.1"))
    XCTAssertTrue(hevc[hevc.firstIndex(of: "-x265-params")! + 1].contains("open-gop=0"))
    XCTAssertEqual(hevc[hevc.firstIndex(of: "-pix_fmt")! + 1], "yuv420p10le")
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
    let s = try SourceFile.probe(path).stream
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
