import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitVideo
import XCTest

@testable import layerkit

/// Errors are worded once, from typed parts: the library's words in `description`, the command
/// line's flags in its messages — through errors that wrap others too.
final class ErrorWordingTests: XCTestCase {
  func testAdviceNamesTheSettingInEachVoice() {
    let late = VideoError.frameTimeLimit(frame: 3, seconds: 2, stream: nil)
    XCTAssertTrue(late.description.contains("(the frame time limit)"), late.description)
    XCTAssertTrue(late.description.contains("raise the limit, or set none, if"), late.description)
    let flagged = commandLineMessage(late)
    XCTAssertTrue(flagged.contains("(--frame-time-limit)"), flagged)
    XCTAssertTrue(flagged.contains("raise --frame-time-limit, or 0 for none, if"), flagged)
    XCTAssertFalse(flagged.contains("the frame time limit"), flagged)

    let odd = VideoError.oddSize(width: 3, height: 3, suggestedWidth: 4, suggestedHeight: 4, pixelFormat: "yuv420p")
    XCTAssertTrue(commandLineMessage(odd).hasSuffix("give that --size, or --pad to add the background"))
    XCTAssertTrue(odd.description.hasSuffix("render at that size, or pad the frame to it with the background"))
  }

  func testWrappedBackendErrorsAreWordedToo() {
    let error = RenderError.backend(GLError.noDisplayTried("surfaceless: no device"))
    XCTAssertTrue(error.description.contains("the CPU backend (ReferenceRenderer)"), error.description)
    XCTAssertTrue(commandLineMessage(error).contains("the CPU backend (--renderer cpu)"), commandLineMessage(error))
  }

  /// Every setting has the command line's own words, none of them the library's.
  func testEverySettingHasFlagWords() {
    for setting in Setting.allCases {
      XCTAssertNotEqual(flagWords(setting), setting.libraryWords, "\(setting)")
      XCTAssertTrue(flagWords(setting).contains("--"), "\(setting): \(flagWords(setting))")
    }
  }
}
