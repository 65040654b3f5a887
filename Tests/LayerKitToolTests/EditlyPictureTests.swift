import Foundation
import LayerKit
import LayerKitMedia
import LayerKitSamples
import XCTest

/// An edit file's picture by editly's defaults, held at chosen frames: where a title is, how big
/// and how far it has grown; how far an image has zoomed; contain-blur's blurred bars; the news
/// title's band at the top left.
final class EditlyPictureTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("editly-picture") }
  override func tearDownWithError() throws { h.cleanUp() }

  /// Renders `edit` to PNG frames at `size`, 10 frames a second, and returns them.
  func frames(_ edit: String, _ name: String, size: String = "160x90") throws -> [LayerKit.Image] {
    _ = try h.write(try SampleScene.testImage(width: 160, height: 90, hue: 0.3), "picture.png")
    let spec = h.path(name + ".json5")
    try Data(edit.utf8).write(to: URL(fileURLWithPath: spec))
    let folder = h.path(name) + "/"
    let r = try h.run(["edit", spec, "-o", folder, "--renderer", "cpu", "--size", size, "--fps", "10", "--quiet"])
    XCTAssertEqual(r.status, 0, r.stderr)
    return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted().map {
      try ImageFile.read(URL(fileURLWithPath: folder + $0))
    }
  }

  /// The box around the pixels whose red is above `threshold` (x0, y0, x1, y1), or nil.
  func ink(_ image: LayerKit.Image, threshold: UInt8 = 128, where test: ((SIMD4<UInt8>) -> Bool)? = nil)
    -> (Int, Int, Int, Int)?
  {
    var box: (Int, Int, Int, Int)?
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = image.pixel(x: x, y: y)
        guard test?(p) ?? (p.x > threshold) else { continue }
        box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
      }
    }
    return box
  }

  /// A title that says nothing else is editly's: white, centred, a tenth of the frame's smaller
  /// side high, growing from 1 to 1.2 over its clip (1.18 by the last frame at p = 0.9).
  func testATitleIsCentredATenthOfTheFrameAndGrows() throws {
    let shown = try frames(
      "{ clips: [{ duration: 1, layers: [{ type: 'fill-color', color: 'black' }, { type: 'title', text: 'HH' }] }] }",
      "title")
    XCTAssertEqual(shown.count, 10)
    let first = try XCTUnwrap(ink(shown[0]))
    let last = try XCTUnwrap(ink(shown[9]))
    XCTAssertEqual(Double(first.0 + first.2) / 2, 80, accuracy: 3, "centred across")
    XCTAssertEqual(Double(first.1 + first.3) / 2, 45, accuracy: 4, "centred down")
    // A capital H is about 0.73 of the font's size: 9 pixels at 160×90.
    XCTAssertEqual(Double(first.3 - first.1 + 1), 0.73 * 9, accuracy: 2)
    let growth = Double(last.2 - last.0 + 1) / Double(first.2 - first.0 + 1)
    XCTAssertEqual(growth, 1.18, accuracy: 0.1, "grown by the last frame")
    let still = try frames(
      "{ clips: [{ duration: 1, layers: [{ type: 'fill-color', color: 'black' }, "
        + "{ type: 'title', text: 'HH', zoomDirection: null }] }] }", "still")
    XCTAssertEqual(still[0].pixels, still[9].pixels, "zoomDirection: null keeps it still")
  }

  /// An image zooms in by 0.1 over its clip unless it says `null`; a picture of another aspect
  /// is contain-blur: bars of its blurred copy, not black.
  func testAnImageZoomsInAndAnotherAspectIsContainBlur() throws {
    let zoomed = try frames("{ clips: [{ duration: 1, layers: [{ type: 'image', path: 'picture.png' }] }] }", "zoom")
    XCTAssertNotEqual(zoomed[0].pixels, zoomed[9].pixels, "zoomed in by the end")
    let still = try frames(
      "{ clips: [{ duration: 1, layers: [{ type: 'image', path: 'picture.png', zoomDirection: null }] }] }", "plain")
    XCTAssertEqual(still[0].pixels, still[9].pixels)
    let square = try frames(
      "{ clips: [{ duration: 1, layers: [{ type: 'image', path: 'picture.png', zoomDirection: null }] }] }", "square",
      size: "90x90")
    // The 16:9 picture spans the middle rows; the rows above are its blurred copy.
    let bar = square[0].pixel(x: 45, y: 5)
    XCTAssertGreaterThan(Int(bar.x) + Int(bar.y) + Int(bar.z), 30, "not black: \(bar)")
  }

  /// contain-blur inside a box (editly's mosaic): the box's bars are the picture blurred, where
  /// `contain` leaves them empty.
  func testContainBlurInsideABoxFillsTheBoxsBars() throws {
    func bar(_ mode: String) throws -> SIMD4<UInt8> {
      let shown = try frames(
        "{ clips: [{ duration: 1, layers: [{ type: 'fill-color', color: 'black' }, { type: 'image', "
          + "path: 'picture.png', width: 0.5, height: 1, resizeMode: '\(mode)', zoomDirection: null }] }] }", mode)
      // The 16:9 picture in an 80×90 box: 80×45 in its middle, the bars above and below.
      return shown[0].pixel(x: 40, y: 8)
    }
    let blurred = try bar("contain-blur")
    XCTAssertGreaterThan(Int(blurred.x) + Int(blurred.y) + Int(blurred.z), 30, "the bar is the blurred picture")
    XCTAssertEqual(try bar("contain"), [0, 0, 0, 255], "contain leaves the bar to what lies behind")
  }

  /// The news title is editly's: a band of #d02a42 at the top left (0.08 of the height down),
  /// the text on it; nothing in the lower half.
  func testTheNewsTitleIsABandAtTheTopLeft() throws {
    let shown = try frames(
      "{ clips: [{ duration: 2, layers: [{ type: 'fill-color', color: 'black' }, "
        + "{ type: 'news-title', text: 'NEWS' }] }] }", "news")
    let band = try XCTUnwrap(
      ink(shown[19]) { p in abs(Int(p.x) - 0xd0) < 12 && abs(Int(p.y) - 0x2a) < 12 && abs(Int(p.z) - 0x42) < 12 })
    XCTAssertEqual(band.0, 0, "from the left edge")
    // Its top: 0.08 × 90 − 0.03 × 90 = 4.5.
    XCTAssertEqual(Double(band.1), 4.5, accuracy: 1.5)
    XCTAssertLessThan(band.3, 45, "in the upper half")
  }

  /// The sliding text is editly's: hidden by its mask until the slide starts (p = 0.1), whole
  /// by p = 0.3, gone after its fade (p = 0.8 to 0.9); centred.
  func testSlideInTextIsRevealedThenFades() throws {
    let shown = try frames(
      "{ clips: [{ duration: 2, layers: [{ type: 'fill-color', color: 'black' }, "
        + "{ type: 'slide-in-text', text: 'SLIDE' }] }] }", "slide")
    XCTAssertNil(ink(shown[1]), "p = 0.05: not yet revealed")
    let whole = try XCTUnwrap(ink(shown[10]), "p = 0.5: shown")
    XCTAssertEqual(Double(whole.0 + whole.2) / 2, 80, accuracy: 4, "centred")
    XCTAssertNil(ink(shown[19]), "p = 0.95: faded out")
  }

  /// rainbow-colors is editly's shader drawn upright: red across (full from the height's width
  /// on), green up the frame, blue |sin p|.
  func testRainbowColorsFollowEditlysShader() throws {
    let shown = try frames("{ clips: [{ duration: 1, layers: [{ type: 'rainbow-colors' }] }] }", "rainbow")
    func near(_ p: SIMD4<UInt8>, _ rgb: [Double], _ what: String) {
      for (got, want) in zip([p.x, p.y, p.z], rgb) { XCTAssertEqual(Double(got), want, accuracy: 6, what) }
    }
    near(shown[0].pixel(x: 2, y: 2), [2.5 / 90 * 255, (1 - 2.5 / 90) * 255, 0], "top-left, first frame")
    near(shown[0].pixel(x: 150, y: 85), [255, (1 - 85.5 / 90) * 255, 0], "bottom-right")
    near(shown[9].pixel(x: 45, y: 45), [45.5 / 90 * 255, (1 - 45.5 / 90) * 255, abs(sin(0.9)) * 255], "last frame")
  }
}
