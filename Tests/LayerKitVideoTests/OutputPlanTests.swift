import LayerKit
import LayerKitMedia
import XCTest

@testable import LayerKitEdit
@testable import LayerKitOutput
@testable import LayerKitTimeline
@testable import LayerKitVideo

/// The output's layout decided once: the pixel format, the alignment its chroma planes need, the
/// planes LayerKit writes itself, and the frame size with or without padding.
final class OutputPlanTests: XCTestCase {
  func plan(_ path: String, pixelFormat: String? = nil) throws -> OutputPlan {
    var options = EncodingOptions()
    options.pixelFormat = pixelFormat
    return try OutputPlan(target: OutputTarget(path: "/tmp/" + path), options: options)
  }

  func testEachPixelFormatGivesItsAlignment() {
    let cases: [(String, Int, Int)] = [
      ("yuv420p", 2, 2), ("yuvj420p", 2, 2), ("nv12", 2, 2), ("p010le", 2, 2), ("yuva420p", 2, 2),
      ("yuv422p", 2, 1), ("yuyv422", 2, 1), ("yuv422p10le", 2, 1), ("yuv411p", 4, 1), ("yuv410p", 4, 4),
      ("yuv440p", 1, 2), ("yuv444p", 1, 1), ("rgb24", 1, 1), ("gray", 1, 1), ("yuva444p10le", 1, 1),
    ]
    for (name, w, h) in cases {
      let a = OutputPlan.alignment(ofPixelFormat: name)
      XCTAssertEqual([a.width, a.height], [w, h], name)
    }
  }

  func testContainersDefaultsAndPlanes() throws {
    XCTAssertEqual(try plan("a.mp4").pixelFormat, "yuv420p")
    XCTAssertEqual(try plan("a.mp4").planes, .yuv420)
    XCTAssertEqual(try plan("a.webm", pixelFormat: "yuv444p").planes, .yuv444)
    XCTAssertNil(try plan("a.mp4", pixelFormat: "yuv422p").planes, "ffmpeg converts 4:2:2 from RGBA")
    XCTAssertEqual(try plan("a.mov").pixelFormat, "yuva444p10le")
    XCTAssertNil(try plan("a.gif").pixelFormat)
    XCTAssertNil(try plan("frames/").planes)
    XCTAssertThrowsError(try plan("a.y4m", pixelFormat: "yuv422p"), "Y4M takes the formats LayerKit writes")
    XCTAssertTrue(try plan("a.mkv").carriesSound)
    XCTAssertFalse(try plan("a.y4m").carriesSound)
  }

  /// 641×361 in yuv422p: padded to 642×361 (the width alone), refused without padding naming the
  /// nearest size; once `--pad` disagreed with the sink and both failed.
  func testFrameSizeFollowsThePixelFormat() throws {
    let p422 = try plan("a.mp4", pixelFormat: "yuv422p")
    XCTAssertEqual(try p422.frameSize(width: 641, height: 361, pad: true).width, 642)
    XCTAssertEqual(try p422.frameSize(width: 641, height: 361, pad: true).height, 361)
    XCTAssertThrowsError(try p422.frameSize(width: 641, height: 361, pad: false)) {
      XCTAssertEqual(
        $0 as? VideoError,
        .oddSize(width: 641, height: 361, suggestedWidth: 642, suggestedHeight: 361, pixelFormat: "yuv422p"))
    }
    let p420 = try plan("a.y4m")
    XCTAssertEqual(try p420.frameSize(width: 33, height: 21, pad: true).width, 34)
    XCTAssertEqual(try p420.frameSize(width: 33, height: 21, pad: true).height, 22)
    XCTAssertNotNil(p420.planeLayout(width: 34, height: 22))
    XCTAssertNil(p420.planeLayout(width: 33, height: 22))
    XCTAssertEqual(try plan("a.gif").frameSize(width: 33, height: 21, pad: false).width, 33)
  }
}
