// LayerKitTesting: GPU-against-CPU checks for users' tests and LayerKit's own. Renders one layer
// tree (or RenderList) on both backends, compares the images under a tolerance, and on failure
// writes expected (CPU) / actual (GPU) / diff PNGs where a person can look at them.
//
// It does not own a GPU context of its own: callers pass the renderers, so a test suite can make
// one GLRenderer and reuse it for every scene.
import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitText
import XCTest

/// The outcome of one parity check.
public struct ParityReport: Sendable {
  public var name: String
  /// The CPU reference image.
  public var expected: Image
  /// The GPU image.
  public var actual: Image
  public var comparison: ImageComparison
  public var tolerance: Tolerance
  /// Where the three images were written, when the check failed.
  public var artifacts: [URL]

  public var passed: Bool { comparison.passes(tolerance) }

  /// One line for logs and failure messages.
  public var message: String {
    let head = "parity '\(name)' \(passed ? "passed" : "FAILED"): \(comparison.summary(tolerance))"
    if artifacts.isEmpty { return head }
    return head + "; images: " + artifacts.map(\.path).joined(separator: ", ")
  }
}

/// Renders on both backends and compares.
public struct ParityChecker {
  public let gpu: Renderer
  public let cpu: Renderer
  /// Where failing checks write their images.
  public var artifactsDirectory: URL

  /// The default artifacts folder: `$LAYERKIT_ARTIFACTS` if set, else `artifacts/parity` under the
  /// current directory (the package root under `swift test`).
  public static var defaultArtifactsDirectory: URL {
    if let dir = ProcessInfo.processInfo.environment["LAYERKIT_ARTIFACTS"], !dir.isEmpty {
      return URL(fileURLWithPath: dir, isDirectory: true)
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
      .appendingPathComponent("artifacts/parity", isDirectory: true)
  }

  /// - Parameters:
  ///   - gpu: the backend under test, usually a `GLRenderer`.
  ///   - cpu: the reference, usually a `ReferenceRenderer`.
  ///   - artifactsDirectory: where to write images of failing checks.
  /// Text layers are laid out by the system's font stack (`FontStack.install()`).
  public init(gpu: Renderer, cpu: Renderer, artifactsDirectory: URL = ParityChecker.defaultArtifactsDirectory) {
    FontStack.install()
    self.gpu = gpu
    self.cpu = cpu
    self.artifactsDirectory = artifactsDirectory
  }

  /// Makes a `GLRenderer` and a `ReferenceRenderer`.
  /// - Throws: the GL backend's error (for example no EGL display), unchanged.
  public init() throws {
    self.init(gpu: try GLRenderer(), cpu: ReferenceRenderer())
  }

  /// Renders `list` on both backends and compares; writes the images when the check fails.
  public func check(_ list: RenderList, name: String, tolerance: Tolerance = .parity) throws -> ParityReport {
    let expected = try cpu.render(list)
    let actual = try gpu.render(list)
    let comparison = try ImageComparison(expected: expected, actual: actual)
    var report = ParityReport(
      name: name, expected: expected, actual: actual, comparison: comparison, tolerance: tolerance,
      artifacts: [])
    if !report.passed {
      report.artifacts = try writeArtifacts(report)
    }
    if let dump = ParityChecker.dumpDirectory {
      _ = try write(report, suffixes: ["cpu", "gpu"], to: dump)
    }
    return report
  }

  /// Flattens `layer` and checks the resulting list.
  public func check(
    _ layer: Layer, width: Int, height: Int, scale: Double = 1, background: Color = .clear,
    name: String, tolerance: Tolerance = .parity
  ) throws -> ParityReport {
    let list = try RenderList(layer: layer, width: width, height: height, scale: scale, background: background)
    return try check(list, name: name, tolerance: tolerance)
  }

  /// `$LAYERKIT_PARITY_DUMP`: when set, every check writes both images there (NAME.cpu.png,
  /// NAME.gpu.png), passing or not, so two versions of LayerKit can be compared byte for byte.
  public static var dumpDirectory: URL? {
    guard let dir = ProcessInfo.processInfo.environment["LAYERKIT_PARITY_DUMP"], !dir.isEmpty else { return nil }
    return URL(fileURLWithPath: dir, isDirectory: true)
  }

  private func writeArtifacts(_ report: ParityReport) throws -> [URL] {
    try write(report, suffixes: ["expected", "actual", "diff"], to: artifactsDirectory)
  }

  /// Writes the expected and actual images (and the diff, given a third suffix) as NAME.SUFFIX.png.
  private func write(_ report: ParityReport, suffixes: [String], to directory: URL) throws -> [URL] {
    try writeComparisonImages(
      name: report.name, expected: report.expected, actual: report.actual,
      diff: suffixes.count > 2 ? report.comparison.diffImage() : nil, suffixes: suffixes, to: directory)
  }
}

/// Writes `expected`, `actual` and, when given, `diff` as NAME.SUFFIX.png in `directory` (made if
/// missing), one suffix per image in that order; NAME is `name` with every character other than a
/// letter, a digit or `-` replaced by `_`. What both `ParityChecker` and
/// `XCTAssertImagesIdentical` write on failure.
/// - Returns: the files written, in the order of `suffixes`.
/// - Throws: `MediaError.writeFailed` when the folder cannot be made, or the PNG writer's error.
package func writeComparisonImages(
  name: String, expected: Image, actual: Image, diff: Image?, suffixes: [String], to directory: URL
) throws -> [URL] {
  do {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  } catch {
    throw MediaError.writeFailed(path: directory.path, reason: "\(error)")
  }
  let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
  var images = [expected, actual]
  if let diff { images.append(diff) }
  return try zip(suffixes, images).map { suffix, image in
    let url = directory.appendingPathComponent("\(safe).\(suffix).png")
    try ImageFile.writePNG(image, to: url)
    return url
  }
}

/// XCTest assertion: fails with the report's message (and the images on disk) when the GPU and CPU
/// renderings of `layer` differ beyond `tolerance`.
/// - Returns: the report, for further assertions; nil when rendering itself threw (also a failure).
@discardableResult
public func XCTAssertParity(
  _ checker: ParityChecker, _ layer: Layer, width: Int, height: Int, scale: Double = 1,
  background: Color = .clear, name: String, tolerance: Tolerance = .parity,
  file: StaticString = #filePath, line: UInt = #line
) -> ParityReport? {
  do {
    let report = try checker.check(
      layer, width: width, height: height, scale: scale, background: background, name: name,
      tolerance: tolerance)
    if !report.passed { XCTFail(report.message, file: file, line: line) }
    return report
  } catch {
    XCTFail("parity '\(name)': rendering failed: \(error)", file: file, line: line)
    return nil
  }
}
