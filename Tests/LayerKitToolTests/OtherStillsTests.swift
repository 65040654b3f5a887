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

  // GIF, HEIC and AVIF stills, and SVGs rasterized at the size they are drawn. The fixtures are
  // made here, by ffmpeg and by libheif's heif-enc; heif-convert and heif-enc come from Debian's
  // libheif-examples package, which Tools/setup.sh installs, so their absence fails these tests.

  /// Runs ffmpeg (quiet, overwriting) and fails on a failure.
  func ffmpeg(_ arguments: [String]) throws {
    let r = try ToolHarness.run(ToolHarness.which("ffmpeg"), ["-v", "error", "-y"] + arguments)
    XCTAssertEqual(r.status, 0, r.stderr)
  }

  /// A PNG `width × height`: red on the left half, blue on the right.
  func redBluePNG(_ h: ToolHarness, _ name: String, width: Int = 64, height: Int = 32) throws -> String {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 4
        (pixels[i], pixels[i + 1], pixels[i + 2]) = x < width / 2 ? (255, 0, 0) : (0, 0, 255)
      }
    }
    return try h.write(try Image(width: width, height: height, pixels: pixels), name)
  }

  /// heif-enc's path; fails the test (not skips it) when libheif-examples is not installed.
  func heifEnc() throws -> String {
    struct Missing: Error, CustomStringConvertible { var description: String }
    for program in ["heif-enc", "heif-convert"] where FFmpeg.locate(program) == nil {
      throw Missing(description: "\(program) is missing: install Debian's libheif-examples (Tools/setup.sh does)")
    }
    return FFmpeg.locate("heif-enc")!
  }

  /// Encodes `png` as HEIC (or AVIF) with heif-enc.
  func heif(_ h: ToolHarness, _ png: String, _ name: String, avif: Bool = false) throws -> String {
    let out = h.path(name)
    let r = try ToolHarness.run(try heifEnc(), ["-q", "95"] + (avif ? ["-A"] : []) + ["-o", out, png])
    XCTAssertEqual(r.status, 0, r.stderr + r.stdout)
    return out
  }

  func assertColor(
    _ image: Image, _ x: Int, _ y: Int, _ rgb: [Int], accuracy: Int = 0, _ what: String,
    line: UInt = #line
  ) {
    let p = image.pixel(x: x, y: y)
    for (got, want) in zip([p.x, p.y, p.z, p.w], rgb + [255]) {
      XCTAssertEqual(Int(got), want, accuracy: accuracy, "\(what) at (\(x), \(y)): \(p)", line: line)
    }
  }

  func testGIFGivesItsFirstFrame() throws {
    let h = try ToolHarness.make("other-stills")
    defer { h.cleanUp() }
    let one = h.path("one.gif")
    try ffmpeg([
      "-f", "lavfi", "-i", "color=red:s=16x16[a];color=blue:s=16x16[b];[a][b]hstack", "-frames:v", "1", one,
    ])
    let two = h.path("two.gif")
    try ffmpeg([
      "-f", "lavfi", "-i", "color=red:s=24x12:r=2:d=1[a];color=blue:s=24x12:r=2:d=1[b];[a][b]concat", two,
    ])
    XCTAssertEqual(OtherStills.gifFrameCount(one), 1)
    XCTAssertEqual(OtherStills.gifFrameCount(two), 4)
    XCTAssertEqual(OtherStills.gifFrameCount(two, upTo: 2), 2)
    XCTAssertEqual(OtherStills.stillFormat(ofFile: one), "GIF", "a GIF of one frame is a still")
    XCTAssertNil(OtherStills.stillFormat(ofFile: two), "an animated GIF is a clip where a clip may go")
    XCTAssertNil(OtherStills.format(of: FileIO.head(one, count: 1024)!))

    let halves = try ImageFile.readStill(URL(fileURLWithPath: one))
    XCTAssertEqual([halves.width, halves.height], [32, 16])
    assertColor(halves, 2, 8, [255, 0, 0], accuracy: 4, "the left half's red")
    assertColor(halves, 29, 8, [0, 0, 255], accuracy: 4, "the right half's blue")
    let first = try OtherStills.read(two)
    XCTAssertEqual([first.width, first.height], [24, 12])
    assertColor(first, 12, 6, [255, 0, 0], accuracy: 4, "an animated GIF's first frame where a still is expected")
    XCTAssertEqual(try ImageFile.readStill(URL(fileURLWithPath: two), fitting: (240, 120)).width, 24, "no SVG")
    XCTAssertThrowsError(try ImageFile.read(URL(fileURLWithPath: one)), "read(_:) stays PNG and JPEG only")
  }

  func testHEICAndAVIFPhotos() throws {
    let h = try ToolHarness.make("other-stills")
    defer { h.cleanUp() }
    let png = try redBluePNG(h, "rb.png")
    for (name, avif, format) in [("rb.heic", false, "HEIC"), ("rb.avif", true, "AVIF")] {
      let file = try heif(h, png, name, avif: avif)
      XCTAssertEqual(OtherStills.format(of: FileIO.head(file, count: 1024)!), format)
      XCTAssertEqual(OtherStills.stillFormat(ofFile: file), format)
      let image = try OtherStills.read(file)
      XCTAssertEqual([image.width, image.height], [64, 32], name)
      assertColor(image, 8, 16, [255, 0, 0], accuracy: 10, "\(name): the left half's red")
      assertColor(image, 56, 16, [0, 0, 255], accuracy: 10, "\(name): the right half's blue")
      let same = try ImageFile.readStill(URL(fileURLWithPath: file), fitting: (640, 320))
      XCTAssertEqual([same.width, same.height], [64, 32], "\(name): only an SVG is drawn at a size")
    }
    // An MP4 is no HEIF, whatever its other brands.
    let mp4 = [0, 0, 0, 0x20] + Array("ftypisom\0\0\u{2}\0isomiso2avc1mp41".utf8)
    XCTAssertNil(OtherStills.format(of: mp4))
    XCTAssertEqual(OtherStills.format(of: [0, 0, 0, 0x18] + Array("ftypmif1\0\0\0\0mif1avif".utf8)), "AVIF")
  }

  /// heif-enc (libheif 1.15) writes no `irot`, and carries a JPEG's EXIF Orientation as metadata
  /// only, which HEIF readers ignore; so the test turns the primary image's `pixi` property
  /// (16 bytes) into an `irot` of the same size (angle 1: 90° anticlockwise; libheif skips the
  /// rest of the box), as a phone's photo has one.
  func testHEICRotationIsApplied() throws {
    let h = try ToolHarness.make("other-stills")
    defer { h.cleanUp() }
    let file = try heif(h, try redBluePNG(h, "rb.png"), "rb.heic")
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
    let pixi = Array("pixi".utf8)
    guard let at = (4..<bytes.count - 4).first(where: { Array(bytes[$0..<$0 + 4]) == pixi }),
      bytes[at - 4..<at] == [0, 0, 0, 16]
    else { return XCTFail("heif-enc wrote no 16-byte pixi box to turn into irot; the fixture needs another way") }
    bytes.replaceSubrange(at..<at + 4, with: Array("irot".utf8))
    bytes[at + 4] = 1
    let rotated = h.path("rotated.heic")
    try Data(bytes).write(to: URL(fileURLWithPath: rotated))
    let image = try ImageFile.readStill(URL(fileURLWithPath: rotated))
    XCTAssertEqual([image.width, image.height], [32, 64], "turned a quarter: width and height swap")
    assertColor(image, 16, 8, [0, 0, 255], accuracy: 10, "the right half's blue, turned to the top")
    assertColor(image, 16, 56, [255, 0, 0], accuracy: 10, "the left half's red, turned to the bottom")
  }

  func testDamagedHEICIsATypedError() throws {
    let h = try ToolHarness.make("other-stills")
    defer { h.cleanUp() }
    let before = heifFolders()
    let file = try heif(h, try redBluePNG(h, "rb.png"), "rb.heic")
    let whole = try Data(contentsOf: URL(fileURLWithPath: file))
    let cut = h.path("cut.heic")
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: cut))
    XCTAssertThrowsError(try OtherStills.read(cut)) { error in
      guard case .unreadableClip(let path, let reason) = error as? ProcessError else { return XCTFail("\(error)") }
      XCTAssertEqual(path, cut)
      XCTAssertTrue(reason.contains("HEIC"), reason)
    }
    XCTAssertThrowsError(try ImageFile.readStill(URL(fileURLWithPath: cut))) { error in
      guard case .corrupt(let path, _) = error as? MediaError else { return XCTFail("\(error)") }
      XCTAssertEqual(path, cut)
    }
    var left = heifFolders().subtracting(before)
    if !left.isEmpty {
      // Another process's conversion may be under way; its folder goes when it is done.
      Thread.sleep(forTimeInterval: 2)
      left = heifFolders().subtracting(before)
    }
    XCTAssertEqual(left, [], "the temporary folder is removed after a failure too")
  }

  /// Without heif-convert on PATH, a command given a HEIC says which package to install.
  func testMissingHEIFConvertNamesItsPackage() throws {
    let h = try ToolHarness.make("other-stills")
    defer { h.cleanUp() }
    let file = try heif(h, try redBluePNG(h, "rb.png"), "rb.heic")
    let bin = h.path("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    for program in ["ffmpeg", "ffprobe"] {
      try FileManager.default.createSymbolicLink(
        atPath: "\(bin)/\(program)", withDestinationPath: ToolHarness.which(program))
    }
    let b = try h.write(try Image(width: 64, height: 32, color: .white), "b.png")
    let r = try h.run(
      ["slideshow", file, b, "--hold", "0.2", "--transition-duration", "0.1", "--fps", "10", "--renderer", "cpu"]
        + ["--quiet", "-o", h.path("frames") + "/"],
      environment: ["PATH": bin])
    XCTAssertNotEqual(r.status, 0)
    XCTAssertTrue(r.stderr.contains("libheif-examples") && r.stderr.contains("rb.heic"), r.stderr)
  }

  /// A HEIC is a picture in a command, as a PNG is.
  func testHEICInASlideshow() throws {
    let h = try ToolHarness.make("other-stills")
    defer { h.cleanUp() }
    let png = try redBluePNG(h, "rb.png")
    let file = try heif(h, png, "rb.heic")
    let out = h.path("frames") + "/"
    let r = try h.run(
      ["slideshow", file, "--hold", "0.2", "--fps", "10", "--renderer", "cpu", "--quiet", "-o", out])
    XCTAssertEqual(r.status, 0, r.stderr)
    let files = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".png") }.sorted()
    XCTAssertEqual(files.count, 2, "a still held 0.2 s at 10 fps")
    let frame = try ImageFile.read(URL(fileURLWithPath: out + files[0]))
    XCTAssertEqual([frame.width, frame.height], [64, 32])
    assertColor(frame, 8, 16, [255, 0, 0], accuracy: 10, "the HEIC's red")
  }

  func testSVGIsDrawnSharpAtTheSizeItIsDrawn() throws {
    let h = try ToolHarness.make("other-stills")
    defer { h.cleanUp() }
    let svg = h.path("halves.svg")
    try """
    <svg xmlns="http://www.w3.org/2000/svg" width="20" height="10">
      <rect width="10" height="10" fill="#ff0000"/><rect x="10" width="10" height="10" fill="#0000ff"/>
    </svg>
    """.write(toFile: svg, atomically: true, encoding: .utf8)
    let url = URL(fileURLWithPath: svg)
    let stated = try ImageFile.readStill(url)
    XCTAssertEqual([stated.width, stated.height], [20, 10])
    for box in [(80, 1000), (1000, 40), (80, 40)] {
      let drawn = try ImageFile.readStill(url, fitting: box)
      XCTAssertEqual([drawn.width, drawn.height], [80, 40], "4× the stated size, aspect kept, in \(box)")
      assertColor(drawn, 39, 20, [255, 0, 0], "just inside the red half: full red, no blur")
      assertColor(drawn, 40, 20, [0, 0, 255], "just inside the blue half: full blue")
      assertColor(drawn, 0, 0, [255, 0, 0], "a corner")
    }
    let small = try OtherStills.read(svg, fitting: (width: 7, height: 100))
    XCTAssertEqual([small.width, small.height], [7, 4], "smaller, aspect kept (3.5 rounds to 4)")
    let ignored = try OtherStills.read(svg, fitting: (width: 0, height: 40))
    XCTAssertEqual([ignored.width, ignored.height], [20, 10], "a box with a side of 0 is ignored")
    let huge = OtherStills.fitted(width: 20, height: 10, into: (Int.max, Int.max))
    let bounded = try XCTUnwrap(huge)
    XCTAssertEqual(bounded.width, 2 * bounded.height, accuracy: 1, "aspect kept")
    XCTAssertLessThanOrEqual(bounded.width, Image.maxDimension)
    XCTAssertLessThanOrEqual(bounded.width * bounded.height, Image.maxPixelCount)
    XCTAssertGreaterThan((bounded.width + 2) * (bounded.height + 1), Image.maxPixelCount, "the largest that fits")
  }

  /// The heif-convert folders in the temporary folder.
  func heifFolders() -> Set<String> {
    let all = (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
    return Set(all.filter { $0.hasPrefix("layerkit-heif-") })
  }
}
