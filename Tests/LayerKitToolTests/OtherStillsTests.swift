import Foundation
import LayerKit
import LayerKitMedia
import XCTest

/// Stills in WebP, BMP, TIFF and SVG (what editly's examples and phones give) are read in every
/// command, decoded by ffmpeg (SVG rasterized by librsvg), not refused.
final class OtherStillsTests: XCTestCase {
  func testWebPBMPTIFFAndSVGAreStills() throws {
    let h = try ToolHarness.make("other-stills")
    defer { h.cleanUp() }
    let ffmpeg = ToolHarness.which("ffmpeg")
    var inputs: [String] = []
    for ext in ["webp", "bmp", "tiff"] {
      let path = h.path("blue.\(ext)")
      let extra = ext == "webp" ? ["-lossless", "1"] : []
      let r = try ToolHarness.run(
        ffmpeg, ["-v", "error", "-f", "lavfi", "-i", "color=c=0x2040e0:s=64x36", "-frames:v", "1"] + extra + [path])
      XCTAssertEqual(r.status, 0, r.stderr)
      inputs.append(path)
    }
    let svg = h.path("dot.svg")
    try """
    <?xml version="1.0"?>
    <svg xmlns="http://www.w3.org/2000/svg" width="64" height="36">
      <rect width="64" height="36" fill="#00ff00"/><circle cx="32" cy="18" r="12" fill="#ff0000"/>
    </svg>
    """.write(toFile: svg, atomically: true, encoding: .utf8)
    inputs.append(svg)
    let out = h.path("frames") + "/"
    var arguments = ["slideshow"] + inputs
    arguments += ["--hold", "0.2", "--transition-duration", "0.1", "--fps", "10", "--renderer", "cpu", "--quiet"]
    let r = try h.run(arguments + ["-o", out])
    XCTAssertEqual(r.status, 0, r.stderr)
    let files = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.sorted()
    let first = try ImageFile.read(URL(fileURLWithPath: out + files[0]))
    let blue = first.pixel(x: 10, y: 10)
    XCTAssertEqual(Int(blue.x), 0x20, accuracy: 3, "the WebP's blue")
    XCTAssertEqual(Int(blue.y), 0x40, accuracy: 3)
    XCTAssertEqual(Int(blue.z), 0xe0, accuracy: 3)
    let last = try ImageFile.read(URL(fileURLWithPath: out + files[files.count - 1]))
    let dot = last.pixel(x: 32, y: 18)
    XCTAssertEqual([dot.x, dot.y, dot.z], [255, 0, 0], "the SVG's red dot")
    let ground = last.pixel(x: 2, y: 2)
    XCTAssertEqual([ground.x, ground.y, ground.z], [0, 255, 0], "on its green")
  }
}
