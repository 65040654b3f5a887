import Foundation
import LayerKit
import LayerKitMedia
import LayerKitTesting
import XCTest

@testable import LayerKitEdit
@testable import LayerKitOutput
@testable import LayerKitTimeline
@testable import LayerKitVideo

/// The arithmetic of a video: where items and transitions lie, which frame shows what, and the
/// audio graph ffmpeg is given. No rendering.
final class TimelineTests: XCTestCase {
  func still(_ name: String = "a.png") throws -> MediaSource {
    .image(Still(try Image(width: 4, height: 4, color: .red), name: name))
  }

  func clip(_ seconds: Double, fps: Double = 30, audio: Bool = true) -> MediaSource {
    .clip(ClipInfo(path: "c.mp4", width: 4, height: 4, frameRate: fps, duration: seconds, hasAudio: audio))
  }

  func testTransitionsOverlapConsecutiveItems() throws {
    let t = try Timeline(
      items: [
        TimelineItem(source: still(), duration: 2), TimelineItem(source: clip(3), duration: 3),
        TimelineItem(source: still(), duration: 1.5),
      ],
      transitions: [
        TimelineTransition(effect: "fade", duration: 0.5), TimelineTransition(effect: "push", duration: 1),
      ],
      width: 4, height: 4, rate: try FrameRate(10))
    XCTAssertEqual(t.starts, [0, 1.5, 3.5])
    XCTAssertEqual(t.duration, 5, accuracy: 1e-12)  // 2 + 3 + 1.5 − 0.5 − 1
    XCTAssertEqual(t.frameCount, 50)
    XCTAssertEqual(t.content(ofFrame: 0), .item(0, localTime: 0))
    XCTAssertEqual(t.content(ofFrame: 14), .item(0, localTime: 1.4))
    guard case .transition(0, let p, let from, let to) = t.content(ofFrame: 16) else { return XCTFail() }
    XCTAssertEqual(p, 0.2, accuracy: 1e-9)
    XCTAssertEqual(from, 1.6, accuracy: 1e-9)
    XCTAssertEqual(to, 0.1, accuracy: 1e-9)
    if case .item(1, let local) = t.content(ofFrame: 20) {
      XCTAssertEqual(local, 0.5, accuracy: 1e-9)
    } else {
      XCTFail()
    }
    guard case .transition(1, let q, _, _) = t.content(ofFrame: 40) else { return XCTFail() }
    XCTAssertEqual(q, 0.5, accuracy: 1e-9)
    if case .item(2, let local) = t.content(ofFrame: 49) {
      XCTAssertEqual(local, 1.4, accuracy: 1e-9)
    } else {
      XCTFail()
    }
  }

  func testALoneTransitionIncludesItsLastFrameAndPacing() throws {
    let easing = MediaTimingFunction(name: .easeIn)
    let t = try Timeline(
      items: [TimelineItem(source: still(), duration: 1), TimelineItem(source: still(), duration: 1)],
      transitions: [
        TimelineTransition(effect: "fade", duration: 1, timing: easing, startProgress: 0.2, endProgress: 0.8)
      ],
      width: 4, height: 4, rate: try FrameRate(4), includesEnd: true)
    XCTAssertEqual(t.frameCount, 5)
    for k in 0..<5 {
      guard case .transition(0, let p, _, _) = t.content(ofFrame: k) else { return XCTFail("frame \(k)") }
      XCTAssertEqual(p, 0.2 + 0.6 * easing.value(at: Double(k) / 4), accuracy: 1e-9)
    }
  }

  func testItemsShorterThanTheirTransitionsAreRefused() throws {
    XCTAssertThrowsError(
      try Timeline(
        items: [
          TimelineItem(source: clip(1), duration: 1), TimelineItem(source: clip(0.7), duration: 0.7),
          TimelineItem(source: clip(1), duration: 1),
        ],
        transitions: [
          TimelineTransition(effect: "fade", duration: 0.4), TimelineTransition(effect: "fade", duration: 0.4),
        ],
        width: 4, height: 4, rate: try FrameRate(30))
    ) { error in
      XCTAssertEqual(error as? VideoError, .itemTooShort(item: "c.mp4", duration: 0.7, needed: 0.8))
    }
    XCTAssertThrowsError(try Timeline(items: [], transitions: [], width: 4, height: 4, rate: try FrameRate(30)))
  }

  func testNTSCRatesStayExact() throws {
    let t = try Timeline(
      items: [TimelineItem(source: still(), duration: 60)], transitions: [], width: 4, height: 4,
      rate: try FrameRate(29.97))
    XCTAssertEqual(t.rate.description, "30000/1001")
    XCTAssertEqual(t.frameCount, 1799)  // ⌈60 · 30000 / 1001⌉
    XCTAssertEqual(t.time(ofFrame: 1798), 1798 * 1001 / 30000.0, accuracy: 1e-12)
  }

  func testAudioMixPlacesFadesAndTrimsEachClip() throws {
    let t = try Timeline(
      items: [
        TimelineItem(source: clip(2), inPoint: 0.5, duration: 1.5), TimelineItem(source: still(), duration: 2),
        TimelineItem(source: clip(3, audio: false), duration: 3),
      ],
      transitions: [
        TimelineTransition(effect: "fade", duration: 0.5), TimelineTransition(effect: "fade", duration: 0.5),
      ],
      width: 4, height: 4, rate: try FrameRate(30))
    var music = AudioMix.Track(path: "m.wav")
    music.fadeOut = 1
    let mix = try XCTUnwrap(try AudioMix.make(for: t, tracks: [music]))
    XCTAssertEqual(mix.inputs, [["-ss", "0.500000", "-t", "1.500000", "-i", "c.mp4"], ["-i", "m.wav"]])
    XCTAssertTrue(mix.filterGraph.contains("afade=t=out:st=1.000000:d=0.500000[c0]"), mix.filterGraph)
    XCTAssertFalse(mix.filterGraph.contains("[c2]"), "a clip without audio contributes silence")
    XCTAssertTrue(mix.filterGraph.contains("afade=t=out:st=4.500000:d=1.000000[t0]"), mix.filterGraph)
    XCTAssertTrue(mix.filterGraph.contains("atrim=duration=5.500000[silence]"), mix.filterGraph)
    XCTAssertTrue(mix.filterGraph.hasSuffix("amix=inputs=3:duration=first:dropout_transition=0:normalize=0[aout]"))
    XCTAssertNil(try AudioMix.make(for: t, clipAudio: false))
  }

  func testPlacedSoundsStartWhereTheSceneSaysAndLoopToTheEnd() throws {
    let sounds = [
      AudioMix.PlacedSound(path: "a.mp4", start: 0.5, loop: false, length: 2),
      AudioMix.PlacedSound(path: "b.mp4", start: -1, loop: true, length: 1.5),
      AudioMix.PlacedSound(path: "late.mp4", start: 9, loop: false, length: 1),
    ]
    var music = AudioMix.Track(path: "m.wav")
    music.fadeOut = 1
    let mix = try XCTUnwrap(AudioMix.placed(sounds, tracks: [music], duration: 4))
    // The clip that starts after the video ends is not an input at all.
    XCTAssertEqual(mix.inputs, [["-i", "a.mp4"], ["-stream_loop", "-1", "-i", "b.mp4"], ["-i", "m.wav"]])
    XCTAssertTrue(mix.filterGraph.contains("atrim=duration=2.000000,adelay=delays=24000S:all=1[p0]"), mix.filterGraph)
    // Started a second before the video: from its second 1, looped to the end.
    XCTAssertTrue(
      mix.filterGraph.contains("atrim=start=1.000000,asetpts=PTS-STARTPTS,atrim=duration=4.000000[p1]"), mix.filterGraph
    )
    XCTAssertTrue(mix.filterGraph.contains("afade=t=out:st=3.000000:d=1.000000[t0]"), mix.filterGraph)
    XCTAssertTrue(mix.filterGraph.hasSuffix("amix=inputs=4:duration=first:dropout_transition=0:normalize=0[aout]"))
    XCTAssertNil(AudioMix.placed([], duration: 4))
  }

  func testOutputTargetsFromPaths() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lk-target-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    XCTAssertEqual(try OutputTarget(path: "-").kind, .standardOutput)
    XCTAssertEqual(try OutputTarget(path: "-").format, .y4m)
    XCTAssertEqual(try OutputTarget(path: "/dev/null").kind, .writeThrough("/dev/null"))
    XCTAssertEqual(try OutputTarget(path: "/dev/null", format: .mp4).format, .mp4)
    XCTAssertEqual(try OutputTarget(path: folder + "/frames/").kind, .folder(folder + "/frames/"))
    XCTAssertEqual(try OutputTarget(path: folder + "/new").format, .png)
    XCTAssertEqual(try OutputTarget(path: folder + "/v.MP4").format, .mp4)
    try Data().write(to: URL(fileURLWithPath: folder + "/real.webm"))
    try FileManager.default.createSymbolicLink(atPath: folder + "/link.webm", withDestinationPath: "real.webm")
    XCTAssertEqual(try OutputTarget(path: folder + "/link.webm").kind, .file(folder + "/real.webm"))
    XCTAssertThrowsError(try OutputTarget(path: folder + "/v.avi")) {
      XCTAssertEqual($0 as? VideoError, .unknownFormat(path: folder + "/v.avi"))
    }
    XCTAssertThrowsError(try OutputTarget(path: folder + "/missing/v.mp4")) {
      guard case .unwritableOutput? = $0 as? VideoError else { return XCTFail("\($0)") }
    }
  }

  func testFrameRangesOfShardsCoverTheVideoOnce() {
    // The rule the CLI uses: range I of N is [I·total/N, (I+1)·total/N).
    for total in [1, 7, 90, 1001] {
      for n in 1...5 where n <= total {
        let ranges = (0..<n).map { i in (i * total / n)..<((i + 1) * total / n) }
        XCTAssertEqual(ranges.map(\.count).reduce(0, +), total)
        for i in 1..<n { XCTAssertEqual(ranges[i - 1].upperBound, ranges[i].lowerBound) }
      }
    }
  }
}

/// Clip decoding through the ffmpeg program: the frame asked for, whether read in order or after a
/// seek, is the frame ffmpeg itself numbers so.
final class ClipDecoderTests: XCTestCase {
  func testSeekingGivesTheSameFramesAsReadingInOrder() throws {
    guard let ffmpeg = FFmpeg.locate("ffmpeg") else {
      return XCTFail("ffmpeg is not installed (Tools/setup.sh installs it)")
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("lk-clip-\(UUID().uuidString).mp4").path
    defer { unlink(path) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: ffmpeg)
    p.arguments = [
      "-v", "error", "-f", "lavfi", "-i", "testsrc2=s=64x48:r=25:d=2", "-c:v", "libx264", "-g", "12", path,
    ]
    try p.run()
    p.waitUntilExit()
    XCTAssertEqual(p.terminationStatus, 0)
    let info = try ClipInfo.probe(path)
    XCTAssertEqual(info.frameRate, 25)
    XCTAssertEqual(info.frameCount, 50)
    XCTAssertFalse(info.hasAudio)
    let inOrder = ClipDecoder(info, lastFrame: 49)
    let frames = try (0..<50).map { try inOrder.frame(index: $0) }
    XCTAssertNotEqual(frames[20].pixels, frames[21].pixels)
    for start in [0, 7, 12, 13, 30, 49] {
      let seeking = ClipDecoder(info, lastFrame: 49)
      XCTAssertIdentical(try seeking.frame(index: start), frames[start], "seek to \(start)")
      if start + 1 < 50 { XCTAssertIdentical(try seeking.frame(index: start + 1), frames[start + 1]) }
    }
    // Past the end the last frame holds; times map to frames at the clip's rate.
    XCTAssertIdentical(try inOrder.frame(index: 60), frames[49])
    let timed = ClipDecoder(info, lastFrame: 49)
    XCTAssertIdentical(try timed.frame(at: 0.4), frames[10])
    XCTAssertIdentical(try timed.frame(at: 0.439), frames[10])
  }

  /// A clip with non-square pixels (SAR 2:1) is shown at its display width: probed as 128 × 48
  /// from 64 × 48 stored pixels, and decoded to 128 × 48 frames, as its player shows it (it was
  /// shown squeezed to half its width).
  func testNonSquarePixelsAreShownAtTheirDisplayWidth() throws {
    guard let ffmpeg = FFmpeg.locate("ffmpeg") else {
      return XCTFail("ffmpeg is not installed (Tools/setup.sh installs it)")
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("lk-sar-\(UUID().uuidString).mp4").path
    defer { unlink(path) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: ffmpeg)
    p.arguments = [
      "-v", "error", "-f", "lavfi", "-i", "color=c=red:s=64x48:r=10:d=0.5,drawbox=x=0:y=0:w=32:h=48:c=blue:t=fill",
      "-vf", "setsar=2", "-c:v", "libx264", "-pix_fmt", "yuv420p", path,
    ]
    try p.run()
    p.waitUntilExit()
    XCTAssertEqual(p.terminationStatus, 0)
    let info = try ClipInfo.probe(path)
    XCTAssertEqual([info.width, info.height], [128, 48])
    XCTAssertEqual(info.storedWidth, 64)
    let frame = try ClipDecoder(info, lastFrame: 4).frame(index: 0)
    XCTAssertEqual([frame.width, frame.height], [128, 48])
    // The blue half of the stored frame is the left half of the shown one.
    let left = Array(frame.pixels[(24 * 128 + 30) * 4..<(24 * 128 + 30) * 4 + 3])
    let right = Array(frame.pixels[(24 * 128 + 98) * 4..<(24 * 128 + 98) * 4 + 3])
    XCTAssertGreaterThan(Int(left[2]), 180, "blue at x = 30 of 128: \(left)")
    XCTAssertGreaterThan(Int(right[0]), 180, "red at x = 98 of 128: \(right)")
  }
}
