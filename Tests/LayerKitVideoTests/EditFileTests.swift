import Foundation
import LayerKit
import LayerKitReference
import XCTest

@testable import LayerKitEdit
@testable import LayerKitOutput
@testable import LayerKitTimeline
@testable import LayerKitVideo

/// Edit files: editly's JSON5 edit spec read into an `Edit`, every key checked.
final class EditFileTests: XCTestCase {
  func read(_ text: String) throws(EditFile.Error) -> EditFile {
    try EditFile.parse(Data(text.utf8), file: "show.json5", folder: "/media")
  }

  func error(_ text: String) -> EditFile.Error? {
    do {
      _ = try read(text)
      return nil
    } catch {
      return error
    }
  }

  /// JSON5 as editly's users write it: comments, unquoted keys, single quotes, trailing commas;
  /// editly's own forms turned into the Edit's.
  func testEditlysFormsAreRead() throws {
    let file = try read(
      """
      // the show
      {
        outPath: 'out/show.mp4', width: 640, height: 360, fps: 25,
        audioFilePath: 'music.m4a', loopAudio: true, outputVolume: '-6dB',
        keepSourceAudio: true, verbose: true, /* editly's logging: changes nothing */
        defaults: {
          duration: 3, transition: { name: 'directional-left', duration: 0.4 },
          layer: { resizeMode: 'contain' }, layerType: { title: { textColor: '#ffcc00' } },
        },
        clips: [
          { layers: [{ type: 'video', path: 'a.mp4', cutFrom: 1, cutTo: 4 }, { type: 'title', text: 'Hi' }] },
          { transition: null, layers: { type: 'image', path: '/abs/b.jpg', zoomDirection: 'in' } },
        ],
      }
      """)
    XCTAssertEqual(file.outPath, "/media/out/show.mp4")
    let edit = file.edit
    XCTAssertEqual([edit.width, edit.height], [640, 360])
    XCTAssertEqual(edit.fps, 25)
    XCTAssertEqual(edit.outputVolume ?? 0, 0.501, accuracy: 0.001)
    XCTAssertEqual(edit.keepSourceAudio, true)
    XCTAssertEqual(edit.audioTracks?.first?.path, "/media/music.m4a")
    XCTAssertEqual(edit.audioTracks?.first?.loop, true)
    XCTAssertEqual(
      edit.defaults?.transition?.name, "push:fromRight", "directional-left: the new picture comes from the right")
    XCTAssertEqual(edit.clips.count, 2)
    guard case .video(let v) = edit.clips[0].layers[0], case .title(let t) = edit.clips[0].layers[1],
      case .image(let i) = edit.clips[1].layers[0]
    else { return XCTFail("layers: \(edit.clips)") }
    XCTAssertEqual(v.path, "/media/a.mp4")
    XCTAssertEqual([v.cutFrom, v.cutTo], [1, 4])
    XCTAssertEqual(v.resizeMode, "contain", "defaults.layer")
    XCTAssertEqual(t.textColor, "#ffcc00", "defaults.layerType.title")
    XCTAssertEqual(i.path, "/abs/b.jpg")
    XCTAssertEqual(i.zoomDirection, "in")
    XCTAssertEqual(edit.clips[1].transition, .none, "null: a cut")
    XCTAssertEqual(edit.clips[0].transition, .inherited)
  }

  /// A typo names its JSON path and the nearest key; what LayerKit does not render is refused by
  /// name and path, never dropped.
  func testKeysAreCheckedByPath() {
    func clip(_ layer: String) -> String { "{ clips: [{ layers: [\(layer)] }] }" }
    XCTAssertEqual(
      error(clip("{ type: 'video', path: 'a.mp4', cutFrm: 1 }"))?.description,
      "show.json5: clips[0].layers[0].cutFrm: unknown key (did you mean \"cutFrom\"?)")
    XCTAssertEqual(error(clip("{ type: 'canvas', func: 1 }"))?.path, "clips[0].layers[0].type")
    XCTAssertTrue(error(clip("{ type: 'canvas' }"))?.message.contains("JavaScript") == true)
    // editly's own banner is left out, said in one line; the rest of the file reads.
    let banner = try? read(clip("{ type: 'editly-banner' }, { type: 'pause' }"))
    XCTAssertEqual(banner?.notes, ["clips[0].layers[0]: editly's banner (editly's own advertisement) is left out"])
    XCTAssertEqual(banner?.edit.clips[0].layers.count, 1)
    XCTAssertTrue(error(clip("{ type: 'interactive-text' }"))?.message.contains("unknown layer type") == true)
    XCTAssertEqual(
      error(clip("{ type: 'imag', path: 'a.png' }"))?.message, "unknown layer type \"imag\" (did you mean \"image\"?)")
    XCTAssertEqual(error("{ clip: [] }")?.message, "unknown key (did you mean \"clips\"?)")
    XCTAssertEqual(error("{ clips: [], allowRemoteRequests: true }")?.path, "allowRemoteRequests")
    XCTAssertEqual(error("{ clips: [], fast: 'yes' }")?.path, "fast")
    XCTAssertEqual(error("{ clips: [], customOutputArgs: ['-vf', 'hflip'] }")?.path, "customOutputArgs[0]")
    XCTAssertEqual(error("{ clips: [], audioNorm: { enable: true, gauss: 5 } }")?.path, "audioNorm.gauss")
    XCTAssertEqual(
      error("{ clips: [{ layers: [], transition: { name: 'fade', audioOutCurv: 'tri' } }] }")?.message,
      "unknown key (did you mean \"audioOutCurve\"?)")
    XCTAssertEqual(error("{ clips: 3 }")?.message, "found a number, expected an array")
    XCTAssertEqual(error("{ width: 'wide', clips: [] }")?.path, "width")
    XCTAssertEqual(
      error("{ clips: [ }")?.message, "not JSON5 or JSON: line 1, column 12: found '}', expected a value")
  }

  /// A syntax error names its line and column and what was expected there; what JSON5 allows
  /// (comments, trailing commas, unquoted keys, single quotes, hex, +, Infinity) is no error.
  func testASyntaxErrorNamesItsLineAndColumn() {
    XCTAssertEqual(
      error("{\n  clips: [\n    { layers: [] },\n    { oops }\n  ]\n}")?.message,
      "not JSON5 or JSON: line 4, column 12: found '}', expected ':' after the key")
    XCTAssertEqual(
      error("{ clips: [{ duration: 2 } { duration: 3 }] }")?.message,
      "not JSON5 or JSON: line 1, column 27: found '{', expected ',' or ']'")
    XCTAssertEqual(
      error("{ outPath: 'a.mp4\n, clips: [] }")?.message,
      "not JSON5 or JSON: line 1, column 12: found ''a.mp4', expected a string closed on its line")
    XCTAssertNil(
      EditFile.SyntaxScanner.locate(
        Array(
          "// c\n{ /* c */ a: 'x', \"b\": [1, +2, .5, 0x1F, Infinity, -NaN, 1e3,], $c_1: null, d: true, }\n".utf8)))
  }

  /// editly's colour layers: one colour; a gradient from the top-left corner to the
  /// bottom-right, turning 30° over the clip; one from the centre out, growing; colours left
  /// unsaid drawn from the seed (the same seed, the same colour).
  func testColourLayersArePicturesAndGradientsMove() throws {
    let file = try read(
      """
      { clips: [
        { layers: [{ type: 'fill-color', color: '#ff0000' }] },
        { layers: [{ type: 'linear-gradient', colors: ['black', 'white'] }] },
        { layers: { type: 'radial-gradient', colors: ['white', 'black'] } },
      ] }
      """)
    guard case .colors(let fill) = file.edit.clips[0].layers[0],
      case .colors(let linear) = file.edit.clips[1].layers[0],
      case .colors(let radial) = file.edit.clips[2].layers[0]
    else { return XCTFail("\(file.edit.clips)") }
    XCTAssertEqual([fill.kind, linear.kind, radial.kind], [.fill, .linear, .radial])
    let red = try Edit.picture(fill, width: 8, height: 4, at: "c", seed: 1)
    XCTAssertEqual(Array(red.pixels.prefix(4)), [255, 0, 0, 255])
    let renderer = ReferenceRenderer(threadCount: 1)
    func frame(_ layer: ClipLayer, _ p: Double) throws -> LayerKit.Image {
      guard case .drawn(let draw) = layer.content else { throw XCTSkip("not drawn") }
      return try renderer.render(try RenderList(layer: try draw(p * 4, 4, 40, 20), width: 40, height: 20))
    }
    func grey(_ image: LayerKit.Image, _ x: Int, _ y: Int) -> Int { Int(image.pixel(x: x, y: y).x) }
    let ramp = try Edit.movingGradient(linear, at: "c", seed: 1)
    let first = try frame(ramp, 0)
    XCTAssertLessThan(grey(first, 0, 0), 10, "black at the top-left corner")
    XCTAssertGreaterThan(grey(first, 39, 19), 245, "white at the bottom-right")
    XCTAssertEqual(grey(first, 20, 10), 128, accuracy: 8, "grey at the centre")
    // Turned 30° clockwise by the end (y down): the ramp points further down, so the top-right
    // corner darkens and the bottom-left lightens.
    let last = try frame(ramp, 1)
    XCTAssertLessThan(grey(last, 39, 0), grey(first, 39, 0) - 20)
    XCTAssertGreaterThan(grey(last, 0, 19), grey(first, 0, 19) + 20)
    let glow = try Edit.movingGradient(radial, at: "c", seed: 1)
    let small = try frame(glow, 0)
    XCTAssertGreaterThan(grey(small, 20, 10), 240, "white at the centre")
    XCTAssertGreaterThan(grey(try frame(glow, 1), 0, 0), grey(small, 0, 0) + 20, "it grows")
    // Unsaid colours: drawn from the seed, the same for the same seed and place.
    let unsaid = Edit.ColorLayer(.fill)
    let a = try Edit.picture(unsaid, width: 2, height: 2, at: "clips[0].layers[0]", seed: 7)
    XCTAssertEqual(a.pixels, try Edit.picture(unsaid, width: 2, height: 2, at: "clips[0].layers[0]", seed: 7).pixels)
    let others = try (0..<8).map { try Edit.picture(unsaid, width: 2, height: 2, at: "clips[0].layers[0]", seed: $0) }
    XCTAssertGreaterThan(Set(others.map(\.pixels)).count, 1, "another seed, another colour")
    XCTAssertNoThrow(try Edit.movingGradient(Edit.ColorLayer(.linear).with(colors: ["red"]), at: "c", seed: 1))
    XCTAssertThrowsError(
      try Edit.picture(Edit.ColorLayer(.fill).with(color: "mauvish"), width: 2, height: 2, at: "c", seed: 1))
  }

  /// editly's title-background: a title over a picture of colours (a linear gradient unless its
  /// `background` says), as two layers.
  func testATitleBackgroundIsATitleOverColours() throws {
    let file = try read(
      """
      { defaults: { layerType: { 'title-background': { textColor: '#ffcc00' } } }, clips: [
        { layers: [{ type: 'title-background', text: 'One' }] },
        { layers: [{ type: 'title-background', text: 'Two', background: { type: 'radial-gradient', colors: ['red', 'blue'] } }] },
      ] }
      """)
    guard case .colors(let first) = file.edit.clips[0].layers[0], case .title(let one) = file.edit.clips[0].layers[1],
      case .colors(let second) = file.edit.clips[1].layers[0]
    else { return XCTFail("\(file.edit.clips)") }
    // Unsaid, editly's rule: a kind drawn at random — here by the seed and the place.
    XCTAssertTrue([.linear, .radial, .fill].contains(first.kind), "\(first.kind)")
    func kind(_ seed: UInt64) throws -> Edit.ColorLayer.Kind? {
      let f = try EditFile.parse(
        Data("{ clips: [{ layers: [{ type: 'title-background', text: 'x' }] }] }".utf8), file: "s.json5",
        folder: ".", seed: seed)
      guard case .colors(let c) = f.edit.clips[0].layers[0] else { return nil }
      return c.kind
    }
    XCTAssertEqual(try kind(5), try kind(5), "the same seed, the same kind")
    XCTAssertGreaterThan(Set(try (0..<12).map { try kind($0) }).count, 1, "other seeds, other kinds")
    XCTAssertEqual(one.text, "One")
    XCTAssertEqual(one.textColor, "#ffcc00")
    XCTAssertEqual(second.kind, .radial)
    XCTAssertEqual(second.colors, ["red", "blue"])
    XCTAssertEqual(
      error("{ clips: [{ layers: [{ type: 'title-background', text: 'x', background: { type: 'image' } }] }] }")?.path,
      "clips[0].layers[0].background.type")
  }
}

extension Edit.ColorLayer {
  func with(colors: [String]? = nil, color: String? = nil) -> Self {
    var l = self
    l.colors = colors ?? l.colors
    l.color = color ?? l.color
    return l
  }
}
