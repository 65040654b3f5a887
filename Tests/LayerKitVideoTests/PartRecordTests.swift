import LayerKitMedia
import LayerKitVideo
import XCTest

/// The record a part of a sharded render carries, and the check that parts tile one render.
final class PartRecordTests: XCTestCase {
  private let plan = "0123456789abcdef"

  func testTheRecordReadsBackAndRefusesAnythingElse() {
    let record = PartRecord(plan: plan, frames: 40..<80, total: 120)
    XCTAssertEqual(record.description, "0123456789abcdef:40-80/120")
    XCTAssertEqual(PartRecord(text: record.description + "\n"), record)
    for bad in [
      "", "0123456789abcdef", "0123456789abcdef:40-80", "0123456789abcdeg:40-80/120", "0123456789abcde:40-80/120",
      "0123456789abcdef:80-40/120", "0123456789abcdef:40-40/120", "0123456789abcdef:40-121/120",
      "0123456789abcdef:-1-80/120", "0123456789abcdef:40-80/0", "0123456789abcdef:40-80/120/1",
      "0123456789abcdef:40-80/" + String(repeating: "9", count: 90),
    ] {
      XCTAssertNil(PartRecord(text: bad), bad)
    }
  }

  func testPlanIDsDependOnEveryArgumentAndTheFrameCount() {
    let id = PartRecord.planID(canonical: ["slideshow", "a", "b"], frameCount: 90)
    XCTAssertEqual(id.count, 16)
    XCTAssertEqual(id, PartRecord.planID(canonical: ["slideshow", "a", "b"], frameCount: 90))
    XCTAssertNotEqual(id, PartRecord.planID(canonical: ["slideshow", "a", "b"], frameCount: 91))
    XCTAssertNotEqual(id, PartRecord.planID(canonical: ["slideshow", "b", "a"], frameCount: 90))
    XCTAssertNotEqual(id, PartRecord.planID(canonical: ["slideshow", "ab"], frameCount: 90))
  }

  func testContentIdentityFollowsTheBytesNotTheName() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("partrecord-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let a = folder.appendingPathComponent("a.bin")
    let b = folder.appendingPathComponent("b.bin")
    try Data([1, 2, 3]).write(to: a)
    try Data([1, 2, 3]).write(to: b)
    XCTAssertEqual(PartRecord.contentIdentity(of: a.path), PartRecord.contentIdentity(of: b.path))
    try Data([1, 2, 4]).write(to: b)
    XCTAssertNotEqual(PartRecord.contentIdentity(of: a.path), PartRecord.contentIdentity(of: b.path))
    XCTAssertNil(PartRecord.contentIdentity(of: folder.path))
    XCTAssertNil(PartRecord.contentIdentity(of: folder.appendingPathComponent("none").path))
  }

  func testTilingNamesWhatIsMissingTwiceOrOutOfOrder() {
    func parts(_ ranges: [(String, Range<Int>)], total: Int = 30, plans: [String: String] = [:]) -> [(
      path: String, record: PartRecord
    )] {
      ranges.map { ($0.0, PartRecord(plan: plans[$0.0] ?? plan, frames: $0.1, total: total)) }
    }
    func message(_ p: [(path: String, record: PartRecord)]) -> String {
      do {
        try PartRecord.checkTiling(p)
        return "joins"
      } catch {
        return error.description
      }
    }
    XCTAssertEqual(message(parts([("a", 0..<10), ("b", 10..<20), ("c", 20..<30)])), "joins")
    XCTAssertEqual(message(parts([("a", 0..<30)])), "joins")
    XCTAssertTrue(message(parts([("a", 0..<10), ("c", 20..<30)])).contains("frames 10..<20 of 30 are missing between a and c"))
    XCTAssertTrue(message(parts([("b", 10..<20), ("c", 20..<30)])).contains("frames 0..<10 of 30 are missing before b"))
    XCTAssertTrue(message(parts([("a", 0..<10), ("b", 10..<20)])).contains("frames 20..<30 of 30 are missing after b"))
    XCTAssertTrue(message(parts([("b", 10..<20), ("a", 0..<10), ("c", 20..<30)])).contains("give them as: a b c"))
    XCTAssertTrue(
      message(parts([("a", 0..<10), ("b", 10..<20), ("b", 10..<20), ("c", 20..<30)])).contains(
        "part 3 (b) holds frames 10..<20, which part 2 (b) already holds"))
    // Parts of a 2-shard and a 3-shard render of the same video overlap.
    XCTAssertTrue(message(parts([("a", 0..<15), ("x", 10..<20), ("c", 20..<30)])).contains("which part 1 (a) already holds"))
    XCTAssertTrue(
      message(parts([("a", 0..<10), ("b", 10..<20), ("c", 20..<30)], plans: ["b": "fedcba9876543210"])).contains(
        "b belongs to another render than a"))
    XCTAssertTrue(message([]).contains("no parts"))
  }
}
