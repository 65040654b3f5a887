import Foundation
import LayerKit
import LayerKitMedia
import LayerKitReference
import LayerKitTesting
import XCTest

/// The harness itself: a check that fails must say why and leave the three images on disk.
final class ParityHarnessTests: XCTestCase {
  /// A "backend" that renders with the reference and then spoils a block of pixels.
  final class SpoilingRenderer: Renderer {
    let name = "spoiled"
    let inner = ReferenceRenderer(threadCount: 1)
    func render(_ list: RenderList) throws -> Image {
      let image = try inner.render(list)
      var px = image.pixels
      for y in 0..<4 { for x in 0..<4 { px[(y * image.width + x) * 4] &+= 40 } }
      return try Image(width: image.width, height: image.height, pixels: px)
    }
  }

  func scene() -> Layer {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 16, height: 16))
    root.backgroundColor = Color(white: 0.5)
    return root
  }

  func testFailingCheckWritesExpectedActualAndDiff() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    let checker = ParityChecker(gpu: SpoilingRenderer(), cpu: ReferenceRenderer(), artifactsDirectory: dir)
    let report = try checker.check(scene(), width: 16, height: 16, name: "spoiled scene")
    XCTAssertFalse(report.passed)
    XCTAssertEqual(report.comparison.maxChannelDelta, 40)
    XCTAssertEqual(report.comparison.differingPixels(over: 2), 16)
    XCTAssertEqual(
      report.artifacts.map(\.lastPathComponent),
      ["spoiled_scene.expected.png", "spoiled_scene.actual.png", "spoiled_scene.diff.png"])
    XCTAssertEqual(try ImageFile.read(report.artifacts[0]), report.expected)
    XCTAssertEqual(try ImageFile.read(report.artifacts[1]), report.actual)
    XCTAssertTrue(report.message.contains("FAILED"), report.message)
    XCTAssertTrue(report.message.contains(report.artifacts[2].path), report.message)
  }

  func testPassingCheckWritesNothing() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString)")
    let checker = ParityChecker(
      gpu: ReferenceRenderer(threadCount: 1), cpu: ReferenceRenderer(), artifactsDirectory: dir)
    let report = try checker.check(scene(), width: 16, height: 16, name: "same")
    XCTAssertTrue(report.passed)
    XCTAssertEqual(report.artifacts, [])
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path))
  }
}
