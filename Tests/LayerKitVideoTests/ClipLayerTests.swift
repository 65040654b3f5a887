import Foundation
import LayerKit
import LayerKitMedia
import LayerKitReference
import XCTest

@testable import LayerKitEdit
@testable import LayerKitOutput
@testable import LayerKitTimeline
@testable import LayerKitVideo

/// editly's layers after a clip's picture, drawn inside the clip: placed by their box and
/// origin, shown from `start` to `stop`, over the picture in the order written.
final class ClipLayerTests: XCTestCase {
  func sources() throws -> [String: MediaSource] {
    ["red.png": .image(Still(try Image(width: 8, height: 8, color: .red), name: "red.png"))]
  }

  /// The edit's single clip rendered at 40×20 by the CPU renderer, at each of `times` seconds.
  func frames(_ json: String, at times: [Double]) throws -> [Image] {
    let edit = try JSONDecoder().decode(Edit.self, from: Data(json.utf8))
    let played = try edit.play(sources: try sources()) { _, d, _ in TimelineTransition(effect: "fade", duration: d) }
    let timeline = try Timeline(
      items: played.items, transitions: played.transitions, width: 40, height: 20, rate: try FrameRate(10),
      fit: .stretch)
    let frames = TimelineRenderer(timeline: timeline, renderer: ReferenceRenderer(threadCount: 1))
    defer { frames.stop() }
    return try times.map { try frames.frame(Int(($0 * 10).rounded())) }
  }

  func rgb(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
    let o = (y * image.width + x) * 4
    return Array(image.pixels[o..<o + 3])
  }

  /// A picture layer's box: `left`/`top` place its origin (`originX: right` puts its right edge
  /// there); outside the box the clip's picture (a blue fill) shows.
  func testAPlacedPictureFillsItsBoxOverTheClipsPicture() throws {
    let json = """
      {"clips": [{"duration": 1, "layers": [
        {"type": "fill-color", "color": "#0000ff"},
        {"type": "image", "path": "red.png", "resizeMode": "stretch", "width": 0.25, "height": 0.5,
         "left": 1, "top": 0, "originX": "right"}]}]}
      """
    let frame = try frames(json, at: [0.5])[0]
    XCTAssertEqual(rgb(frame, 35, 4), [255, 0, 0], "inside the box: x 30…40, y 0…10")
    XCTAssertEqual(rgb(frame, 28, 4), [0, 0, 255], "left of the box")
    XCTAssertEqual(rgb(frame, 35, 14), [0, 0, 255], "below the box")
  }

  /// `start` and `stop` (seconds into the clip) bound when a layer shows; editly's layer
  /// `duration` is a stop after its start.
  func testALayerShowsFromItsStartToItsStop() throws {
    let json = """
      {"clips": [{"duration": 2, "layers": [
        {"type": "fill-color", "color": "#0000ff"},
        {"type": "fill-color", "color": "#00ff00", "start": 0.5, "stop": 1.5}]}]}
      """
    let f = try frames(json, at: [0.2, 0.5, 1.4, 1.5, 1.9])
    XCTAssertEqual(f.map { rgb($0, 20, 10) }, [[0, 0, 255], [0, 255, 0], [0, 255, 0], [0, 0, 255], [0, 0, 255]])
    let file = try EditFile.parse(
      Data("{ clips: [{ layers: [{ type: 'fill-color', start: 0.5, duration: 1 }] }] }".utf8), file: "a.json5",
      folder: ".")
    guard case .colors(let c) = file.edit.clips[0].layers[0] else { return XCTFail("a fill") }
    XCTAssertEqual(c.stop, 1.5)
  }

  /// A clip whose first layer is no whole picture is black under its layers, as editly's empty
  /// canvas; a title at a point lays its box's origin there.
  func testAClipWithoutAPictureIsBlackUnderItsLayers() throws {
    let json = """
      {"clips": [{"duration": 1, "layers": [
        {"type": "image", "path": "red.png", "resizeMode": "stretch", "width": 0.5, "height": 1}]}]}
      """
    let frame = try frames(json, at: [0.5])[0]
    XCTAssertEqual(rgb(frame, 5, 10), [255, 0, 0])
    XCTAssertEqual(rgb(frame, 30, 10), [0, 0, 0])
  }

  /// editly's news title slides in from the left edge: at its start the band is off the frame;
  /// later it covers the top-left (its top at 0.08 of the height less 0.03 of the shorter side).
  func testANewsTitleSlidesIn() throws {
    let json = """
      {"clips": [{"duration": 2, "layers": [
        {"type": "fill-color", "color": "#000000"},
        {"type": "news-title", "text": "NEWS", "backgroundColor": "#ff0000", "fontSize": 0.25}]}]}
      """
    let f = try frames(json, at: [0, 1])
    XCTAssertEqual(rgb(f[0], 0, 2), [0, 0, 0], "at its start the band is off the frame")
    XCTAssertEqual(rgb(f[1], 0, 2), [255, 0, 0], "then its band covers the left edge")
    XCTAssertEqual(rgb(f[1], 0, 16), [0, 0, 0], "at the top, not the bottom")
  }

  /// Colours as editly's files write them: #RGB, #RGBA, CSS's rgb() and rgba(), CSS names.
  func testColoursAsCSSWritesThem() {
    XCTAssertEqual(ColorName.rgba8("#555").map { [$0.red, $0.green, $0.blue, $0.alpha] }, [0x55, 0x55, 0x55, 255])
    XCTAssertEqual(ColorName.rgba8("#f008").map { [$0.red, $0.green, $0.blue, $0.alpha] }, [255, 0, 0, 0x88])
    XCTAssertEqual(
      ColorName.rgba8("rgba(0, 0, 0, 0.5)").map { [$0.red, $0.green, $0.blue, $0.alpha] }, [0, 0, 0, 128])
    XCTAssertEqual(ColorName.rgba8("rgb(10,20,30)").map { [$0.red, $0.green, $0.blue, $0.alpha] }, [10, 20, 30, 255])
    XCTAssertEqual(ColorName.rgba8("orange").map { [$0.red, $0.green, $0.blue] }, [255, 165, 0])
    XCTAssertNil(ColorName.rgba8("rgb(300, 0, 0)"))
    XCTAssertNil(ColorName.rgba8("#12345"))
  }
}
