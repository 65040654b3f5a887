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

  // MARK: - XCTAssertIdentical for images

  func testIdenticalImagesPassAndWriteNothing() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)")
    let image = try ReferenceRenderer().render(RenderList(layer: scene(), width: 16, height: 16))
    let copy = try Image(width: 16, height: 16, pixels: image.pixels)
    XCTAssertNil(imageIdentityFailure(actual: copy, expected: image, name: "same", artifactsDirectory: dir))
    XCTAssertFalse(FileManager.default.fileExists(atPath: dir.path))
    XCTAssertIdentical(copy, image)
    // XCTest's XCTAssertIdentical for objects is still the one objects get.
    let renderer = ReferenceRenderer()
    XCTAssertIdentical(renderer, renderer)
  }

  func testDifferingImagesNameTheFirstPixelAndTheCountAndWriteExpectedActualAndDiff() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    let list = try RenderList(layer: scene(), width: 16, height: 16)
    let expected = try ReferenceRenderer().render(list)
    var px = expected.pixels
    px[(2 * 16 + 5) * 4 + 1] &+= 1  // (5, 2), green
    px[(9 * 16 + 0) * 4] &-= 7  // (0, 9), red
    let actual = try Image(width: 16, height: 16, pixels: px)
    let message = try XCTUnwrap(
      imageIdentityFailure(actual: actual, expected: expected, name: "two pixels", artifactsDirectory: dir))
    let e = expected.pixel(x: 5, y: 2)
    let a = actual.pixel(x: 5, y: 2)
    XCTAssertTrue(message.contains("differ in 2 of 256 pixels"), message)
    XCTAssertTrue(
      message.contains(
        "first at (5, 2): actual (\(a.x), \(a.y), \(a.z), \(a.w)), expected (\(e.x), \(e.y), \(e.z), \(e.w))"),
      message)
    XCTAssertTrue(message.contains("max channel delta 7"), message)
    let names = ["two_pixels.expected.png", "two_pixels.actual.png", "two_pixels.diff.png"]
    for name in names { XCTAssertTrue(message.contains(dir.appendingPathComponent(name).path), message) }
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(), names.sorted())
    XCTAssertIdentical(try ImageFile.read(dir.appendingPathComponent(names[0])), expected)
    XCTAssertIdentical(try ImageFile.read(dir.appendingPathComponent(names[1])), actual)
    XCTAssertIdentical(
      try ImageFile.read(dir.appendingPathComponent(names[2])),
      try ImageComparison(expected: expected, actual: actual).diffImage(), "the parity checks' diff image")
  }

  func testImagesOfDifferentSizesFailAndWriteBoth() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    // The same bytes in another shape are not the same image.
    let wide = try Image(width: 4, height: 2, color: .clear)
    let tall = try Image(width: 2, height: 4, color: .clear)
    let message = try XCTUnwrap(
      imageIdentityFailure(actual: wide, expected: tall, name: "shape", artifactsDirectory: dir))
    XCTAssertTrue(message.contains("differ in size: actual 4×2, expected 2×4"), message)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted(),
      ["shape.actual.png", "shape.expected.png"])
  }
}
