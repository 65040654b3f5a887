import Foundation
import LayerKit
import LayerKitMedia
import LayerKitSamples
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// Findings of a hostile run of the command line, each held to its fix through the built
/// `layerkit`: a frame range's sound, a signal during a frame folder's first frame, the frame
/// memory of the largest frames, and the MP4 parts of a smart render of Constrained Baseline
/// clips. (A FIFO named as a clip is a corpus case: cli/slideshow-fifo-clip.)
final class HostileRunTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("hostile") }
  override func tearDownWithError() throws { h.cleanUp() }

  /// The MP4 shards of a smart render of ultrafast clips (Constrained Baseline) join: the
  /// encoded stretches were Main (B-frames asked of x264 after the profile), so a part that began
  /// on one was refused by the join ("part-1.mp4 is h264 Main, part-0.mp4 Constrained Baseline").
  func testSmartShardsOfBaselineClipsJoin() throws {
    var clips: [String] = []
    for (name, hue) in [("a.mp4", 0), ("b.mp4", 90)] {
      let out = h.path(name)
      let r = try ToolHarness.run(
        ToolHarness.which("ffmpeg"),
        [
          "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=4,hue=h=\(hue)", "-c:v", "libx264",
          "-preset", "ultrafast", "-pix_fmt", "yuv420p", out,
        ])
      XCTAssertEqual(r.status, 0, r.stderr)
      clips.append(out)
    }
    XCTAssertEqual(try h.probe(clips[0]).first?["profile"], "Constrained Baseline")
    let common = ["concat"] + clips + ["--transition", "fade", "--renderer", "cpu", "--quiet"]
    var parts: [String] = []
    for i in 0..<2 {
      let part = h.path("part-\(i).mp4")
      let r = try h.run(common + ["--shard", "\(i)/2", "-o", part])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertEqual(try h.probe(part).first?["profile"], "Constrained Baseline", part)
      parts.append(part)
    }
    let joined = h.path("joined.mp4")
    let join = try h.run(["join"] + parts + ["-o", joined, "--quiet"])
    XCTAssertEqual(join.status, 0, join.stderr)
    let decode = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "error", "-xerror", "-i", joined, "-f", "null", "-"])
    XCTAssertEqual(decode.status, 0, decode.stderr)
    XCTAssertEqual(decode.stderr, "")
    let whole = h.path("whole.mp4")
    XCTAssertEqual(try h.run(common + ["-o", whole]).status, 0)
    let count = try XCTUnwrap(try h.probe(whole).first?["nb_read_frames"])
    XCTAssertEqual(try h.probe(joined).first?["nb_read_frames"], count)
    XCTAssertEqual(count, "188")
  }

}
