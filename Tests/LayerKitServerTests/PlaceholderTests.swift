import Foundation
import XCTest

@testable import LayerKitServer

final class PlaceholderTests: XCTestCase {
  func testAPlaceholderAloneTakesTheValueAndInTextItsText() throws {
    let edit: [String: Any] = [
      "clips": [
        ["duration": "{{SECONDS}}", "layers": [["type": "title", "text": "Hello {{ NAME }}, {{ N }} items"]]]
      ],
      "loop": "{{ FLAG }}",
    ]
    let merged = try XCTUnwrap(
      try Placeholders.merge(edit, values: ["SECONDS": 2.5, "NAME": "Ada", "N": 3, "FLAG": true]) as? [String: Any])
    let clip = try XCTUnwrap((merged["clips"] as? [[String: Any]])?.first)
    XCTAssertEqual(clip["duration"] as? Double, 2.5)
    let layer = try XCTUnwrap((clip["layers"] as? [[String: Any]])?.first)
    XCTAssertEqual(layer["text"] as? String, "Hello Ada, 3 items")
    XCTAssertEqual(merged["loop"] as? Bool, true)
    XCTAssertEqual(Placeholders.text(NSNumber(value: true)), "true")
    XCTAssertEqual(Placeholders.text(NSNumber(value: 7)), "7")
  }

  func testAPlaceholderWithoutAValueIsNamedWithItsPath() {
    XCTAssertThrowsError(try Placeholders.merge(["clips": [["layers": [["text": "{{ WHO }}"]]]]], values: [:])) {
      XCTAssertEqual($0 as? Placeholders.Missing, Placeholders.Missing(name: "WHO", path: "clips[0].layers[0].text"))
    }
    // Braces that are not a placeholder stay as they are.
    XCTAssertEqual(try Placeholders.merge("a {{}} b {{ not one! }}", values: [:]) as? String, "a {{}} b {{ not one! }}")
  }

  func testByteRangesAsAVideoElementAsksForThem() {
    XCTAssertEqual(Routes.byteRange("bytes=0-", size: 100), 0...99)
    XCTAssertEqual(Routes.byteRange("bytes=10-19", size: 100), 10...19)
    XCTAssertEqual(Routes.byteRange("bytes=90-200", size: 100), 90...99)
    XCTAssertEqual(Routes.byteRange("bytes=-10", size: 100), 90...99)
    XCTAssertEqual(Routes.byteRange("bytes=-1000", size: 100), 0...99)
    XCTAssertNil(Routes.byteRange("bytes=100-", size: 100))
    XCTAssertNil(Routes.byteRange("bytes=5-2", size: 100))
    XCTAssertNil(Routes.byteRange("items=0-1", size: 100))
    XCTAssertEqual(Routes.byteRange("bytes=0-1, 5-6", size: 100), 0...1)
  }

  func testTokensCompareWhole() {
    XCTAssertTrue(TokenCheck.same("abcdef", "abcdef"))
    XCTAssertFalse(TokenCheck.same("abcdef", "abcdeg"))
    XCTAssertFalse(TokenCheck.same("abc", "abcdef"))
  }
}
