import Foundation
import LayerKit
import LayerKitMedia
import LayerKitTesting
import XCTest

/// Every edit file under examples/edits/ renders, at a small size, on both backends, and the
/// GPU's frames are the CPU's within the parity contract (failing frames written to
/// artifacts/parity as expected / actual / diff).
final class EditExamplesTests: XCTestCase {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("examples/edits")

  func testEveryExampleRendersOnBothBackendsAlike() throws {
    let h = try ToolHarness.make("edit-examples")
    defer { h.cleanUp() }
    let specs = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".json5") }
      .sorted()
    XCTAssertGreaterThanOrEqual(specs.count, 4)
    for spec in specs {
      let name = String(spec.dropLast(6))
      var frames: [String: [Image]] = [:]
      for renderer in ["cpu", "gpu"] {
        let out = h.path("\(name)-\(renderer)") + "/"
        let r = try h.run([
          "edit", Self.folder.appendingPathComponent(spec).path, "--renderer", renderer, "--size", "96x54", "--fps",
          "5",
          "--quiet", "-o", out,
        ])
        XCTAssertEqual(r.status, 0, "\(spec) on \(renderer): \(r.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.sorted()
        frames[renderer] = try files.map { try ImageFile.read(URL(fileURLWithPath: out + $0)) }
      }
      let (cpu, gpu) = (frames["cpu"] ?? [], frames["gpu"] ?? [])
      XCTAssertGreaterThan(cpu.count, 5, spec)
      XCTAssertEqual(cpu.count, gpu.count, spec)
      for (k, (c, g)) in zip(cpu, gpu).enumerated() {
        let comparison = try ImageComparison(expected: c, actual: g)
        guard !comparison.passes(.parity) else { continue }
        let written = try? writeComparisonImages(
          name: "edit-\(name)-\(k)", expected: c, actual: g, diff: comparison.diffImage(),
          suffixes: ["expected", "actual", "diff"], to: ParityChecker.defaultArtifactsDirectory)
        XCTFail(
          "\(spec) frame \(k): \(comparison.summary(.parity)); images: \((written ?? []).map(\.path).joined(separator: ", "))"
        )
      }
    }
  }
}
