import Foundation
import LayerKitEdit
import XCTest

@testable import LayerKitServer

final class PlaceholderTests: XCTestCase {
  func merged(_ json: String, _ values: [String: Placeholders.Value]) throws -> [String: Any] {
    let data = try Placeholders.merge(Data(json.utf8), values: values)
    return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  func testAPlaceholderAloneTakesTheValueAndInTextItsText() throws {
    let edit = try merged(
      #"{clips: [{duration: "{{SECONDS}}", layers: [{type: "title", text: "Hello {{ NAME }}, {{ N }} items"}]}], loop: "{{ FLAG }}"}"#,
      ["SECONDS": .number(2.5), "NAME": .text("Ada"), "N": .number(3), "FLAG": .bool(true)])
    let clip = try XCTUnwrap((edit["clips"] as? [[String: Any]])?.first)
    XCTAssertEqual(clip["duration"] as? Double, 2.5)
    let layer = try XCTUnwrap((clip["layers"] as? [[String: Any]])?.first)
    XCTAssertEqual(layer["text"] as? String, "Hello Ada, 3 items")
    XCTAssertEqual(edit["loop"] as? Bool, true)
    XCTAssertEqual(try Placeholders.Template(Data(#"{a: "{{X}} {{ Y }}", b: ["{{Z}}"]}"#.utf8)).names, ["X", "Y", "Z"])
  }

  func testCSVCellsAreNumbersOnlyWhenWrittenAsJSONNumbers() {
    XCTAssertEqual(Placeholders.Value(cell: "1.5"), .number(1.5))
    XCTAssertEqual(Placeholders.Value(cell: "-2"), .number(-2))
    XCTAssertEqual(Placeholders.Value(cell: "007"), .text("007"))
    XCTAssertEqual(Placeholders.Value(cell: "1,5"), .text("1,5"))
    XCTAssertEqual(Placeholders.Value(cell: "true"), .bool(true))
    XCTAssertEqual(Placeholders.Value(cell: "Ada"), .text("Ada"))
    XCTAssertEqual(Placeholders.Value.number(3).text, "3")
    XCTAssertEqual(Placeholders.Value.number(0.25).text, "0.25")
  }

  func testAPlaceholderWithoutAValueIsNamedWithItsPath() {
    XCTAssertThrowsError(
      try Placeholders.merge(Data(#"{"clips": [{"layers": [{"text": "{{ WHO }}"}]}]}"#.utf8), values: [:])
    ) {
      XCTAssertEqual($0 as? Placeholders.Missing, Placeholders.Missing(name: "WHO", path: "clips[0].layers[0].text"))
    }
    // Braces that are not a placeholder stay as they are.
    XCTAssertEqual(
      try? self.merged(#"{"a": "x {{}} y {{ not one! }}"}"#, [:])["a"] as? String, "x {{}} y {{ not one! }}")
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
