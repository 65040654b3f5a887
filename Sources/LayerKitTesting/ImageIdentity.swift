// LayerKitTesting: byte-for-byte image assertions. Where a test holds two renderings to be the
// same image (an optimisation against the long way, a seek against playing in order, progress 0
// against the from-image), a failure says where and how much they differ and leaves the expected /
// actual / diff PNGs on disk the way a failing parity check does (`ParityChecker`).
import Foundation
import LayerKit
import LayerKitMedia
import XCTest

/// XCTest assertion: `actual` and `expected` have the same size and every byte of their pixels is
/// the same (`Tolerance.exact`; two images are compared as stored, premultiplied RGBA8).
///
/// On failure it writes NAME.expected.png, NAME.actual.png and NAME.diff.png (the diff only when
/// the sizes agree) to `ParityChecker.defaultArtifactsDirectory` — `$LAYERKIT_ARTIFACTS`, else
/// `artifacts/parity` — and the message gives their paths, the number of differing pixels, and the
/// first differing pixel (in reading order) with its RGBA bytes in both images.
///
/// XCTest's `XCTAssertIdentical` for objects (`===`) is unaffected: this overload takes `Image`s,
/// which are values and never convert to `AnyObject`.
///
/// - Parameters:
///   - actual: the image under test. An error it throws is a failure, as in `XCTAssertEqual`.
///   - expected: the reference image.
///   - message: added to the failure message, and to the default file name.
///   - name: the images' file name (NAME); by default the test file's name, the line and
///     `message`, so failures inside one loop do not overwrite each other's images.
public func XCTAssertIdentical(
  _ actual: @autoclosure () throws -> Image,
  _ expected: @autoclosure () throws -> Image,
  _ message: @autoclosure () -> String = "",
  name: String? = nil,
  file: StaticString = #filePath,
  line: UInt = #line
) {
  let note = message()
  let suffix = note.isEmpty ? "" : " - " + note
  let a: Image
  let e: Image
  do {
    a = try actual()
    e = try expected()
  } catch {
    XCTFail("XCTAssertIdentical threw error \"\(error)\"\(suffix)", file: file, line: line)
    return
  }
  let artifactName = name ?? defaultArtifactName(file: file, line: line, message: note)
  guard
    let failure = imageIdentityFailure(
      actual: a, expected: e, name: artifactName, artifactsDirectory: ParityChecker.defaultArtifactsDirectory)
  else { return }
  XCTFail("XCTAssertIdentical failed: \(failure)\(suffix)", file: file, line: line)
}

/// Why `actual` is not byte for byte `expected`, in one line, after writing the images of the
/// difference to `artifactsDirectory` as NAME.expected.png, NAME.actual.png and (same sizes only)
/// NAME.diff.png; nil, writing nothing, when they are identical. What `XCTAssertIdentical` reports.
package func imageIdentityFailure(
  actual: Image, expected: Image, name: String, artifactsDirectory: URL
) -> String? {
  var text: String
  var diff: Image?
  if actual.width != expected.width || actual.height != expected.height {
    text =
      "images '\(name)' differ in size: actual \(actual.width)×\(actual.height), "
      + "expected \(expected.width)×\(expected.height)"
  } else {
    let a = actual.pixels
    let e = expected.pixels
    if a == e { return nil }
    // Same sizes, so the comparison cannot throw.
    guard let comparison = try? ImageComparison(expected: expected, actual: actual) else { return nil }
    let count = comparison.differingPixels(over: 0)
    text = "images '\(name)' differ in \(count) of \(comparison.pixelCount) pixels"
    if let (x, y) = firstDifferingPixel(a, e, width: actual.width) {
      text +=
        "; first at (\(x), \(y)): actual \(rgba(actual.pixel(x: x, y: y))), "
        + "expected \(rgba(expected.pixel(x: x, y: y)))"
    }
    text += "; max channel delta \(comparison.maxChannelDelta)"
    diff = comparison.diffImage()
  }
  do {
    let urls = try writeComparisonImages(
      name: name, expected: expected, actual: actual, diff: diff,
      suffixes: ["expected", "actual", "diff"], to: artifactsDirectory)
    text += "; images: " + urls.map(\.path).joined(separator: ", ")
  } catch {
    text += "; images not written: \(error)"
  }
  return text
}

/// The column and row of the first pixel, in reading order, where two buffers of RGBA8 pixels of
/// one size differ.
private func firstDifferingPixel(_ a: [UInt8], _ b: [UInt8], width: Int) -> (Int, Int)? {
  a.withUnsafeBufferPointer { a in
    b.withUnsafeBufferPointer { b in
      var i = 0
      while i < a.count, a[i] == b[i] { i += 1 }
      guard i < a.count else { return nil }
      let pixel = i / 4
      return (pixel % width, pixel / width)
    }
  }
}

private func rgba(_ p: SIMD4<UInt8>) -> String { "(\(p.x), \(p.y), \(p.z), \(p.w))" }

/// FILE-LINE, then `message` when there is one (at most 80 characters of it).
private func defaultArtifactName(file: StaticString, line: UInt, message: String) -> String {
  let stem = URL(fileURLWithPath: "\(file)").deletingPathExtension().lastPathComponent
  let base = "\(stem)-\(line)"
  return message.isEmpty ? base : base + "-" + String(message.prefix(80))
}
