import LayerKit
import LayerKitMedia
import LayerKitVideo
import XCTest

/// Library errors are in the library's words: no command-line flag in them (the command line
/// words the settings they name with its flags: ErrorWording.swift in the tool).
final class LibraryWordsTests: XCTestCase {
  func testErrorsNameNoFlags() {
    let video: [VideoError] = [
      .unknownFormat(path: "x.abc"), .folderNotEmpty(path: "frames/", frames: 3),
      .oddSize(width: 3, height: 3, suggestedWidth: 4, suggestedHeight: 4, pixelFormat: "yuv420p"),
      .itemTooShort(item: "a.png", duration: 0.1, needed: 1), .frameTimeLimit(frame: 4, seconds: 60),
      .frameTimeLimit(frame: 4, seconds: 60, stream: "standard output"), .interrupted(signal: 2),
      .interrupted(signal: 2, stream: "standard output", framesSent: 5),
      .unwritableOutput(path: "x.mp4", reason: "the disk is full"), .outputIsInput(output: "a", input: "a"),
    ]
    let request: [RenderRequestError] = [
      .framesBeyond(.range(100, nil), count: 10, what: "the video"),
      .framesBeyond(.shard(3, of: 4), count: 2, what: "the video"), .soundNotCarried(format: .y4m),
      .customArgumentsUnused(path: "x.y4m"), .needsGPU(cpuChosen: true), .smartDeclined("no clip is shown"),
    ]
    let transition: [TransitionError] = [
      .unknownName("wipeleft", folder: nil), .notAFolder("x"), .unknownEasing("bounce"),
      .wrongType(name: "angle", text: "big", type: .float),
    ]
    let process: [ProcessError] = [
      .programNotFound(program: "ffprobe"), .unreadableClip(path: "a.mp4", reason: "no video stream"),
    ]
    let messages =
      video.map(\.description) + request.map(\.description) + transition.map(\.description)
      + process.map(\.description)
    for message in messages {
      XCTAssertNil(message.range(of: #"(^|[\s(])--[a-z]"#, options: .regularExpression), message)
    }
  }
}
