import Foundation
import LayerKitMedia
import XCTest

/// A Y4M output is read in the matrix its size implies (BT.601 up to 1024 × 576): held to
/// ffmpeg's own reading, it matches the source as well as the MP4 of the same render does.
final class Y4MMatrixTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("y4m-matrix") }
  override func tearDownWithError() throws { h.cleanUp() }

  /// An untagged SD clip (ffmpeg's own BT.601 encode) through `concat` to Y4M and to MP4 (every
  /// frame encoded: a smart render would copy the clip's own packets), each read back by ffmpeg
  /// into RGB and compared with the source read the same way.
  func testAnSDY4MReadByFFmpegMatchesTheSourceAsTheMP4Does() throws {
    let source = h.path("a.mp4")
    let made = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      [
        "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=640x360:r=25:d=0.4", "-c:v", "libx264", "-pix_fmt",
        "yuv420p", source,
      ])
    XCTAssertEqual(made.status, 0, made.stderr)
    var psnr: [String: Double] = [:]
    for name in ["x.y4m", "x.mp4"] {
      let r = try h.run(["concat", source, "-o", h.path(name), "--quiet", "--smart", "off"])
      XCTAssertEqual(r.status, 0, r.stderr)
      psnr[name] = try rgbPSNR(h.path(name), source)
    }
    let header = try Y4MReader(path: h.path("x.y4m")).header
    XCTAssertEqual(header.matrix, .bt601)
    let (y4m, mp4) = (try XCTUnwrap(psnr["x.y4m"]), try XCTUnwrap(psnr["x.mp4"]))
    XCTAssertGreaterThan(mp4, 35, "the MP4 matches its source")
    XCTAssertGreaterThan(y4m, mp4 - 1, "the Y4M (lossless) at least as close as the MP4, within 1 dB: \(y4m) / \(mp4)")
    XCTAssertGreaterThan(try rgbPSNR(h.path("x.y4m"), h.path("x.mp4")), 35, "and they match each other")
  }

  /// The mean PSNR of `a` against `b`, both converted to RGB by ffmpeg as it reads them.
  private func rgbPSNR(_ a: String, _ b: String) throws -> Double {
    let r = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      ["-i", a, "-i", b, "-lavfi", "[0:v]format=rgb24[a];[1:v]format=rgb24[b];[a][b]psnr", "-f", "null", "-"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let average = r.stderr.components(separatedBy: "average:").last?.split(separator: " ").first
    return try XCTUnwrap(average.flatMap { Double($0) }, r.stderr)
  }
}
