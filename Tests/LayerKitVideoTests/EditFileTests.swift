import Foundation
import XCTest

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
    XCTAssertTrue(error(clip("{ type: 'editly-banner' }"))?.message.contains("advertisement") == true)
    XCTAssertTrue(error(clip("{ type: 'fill-color', color: 'red' }"))?.message.contains("not supported") == true)
    XCTAssertEqual(
      error(clip("{ type: 'imag', path: 'a.png' }"))?.message, "unknown layer type \"imag\" (did you mean \"image\"?)")
    XCTAssertEqual(error("{ clip: [] }")?.message, "unknown key (did you mean \"clips\"?)")
    XCTAssertEqual(error("{ clips: [], allowRemoteRequests: true }")?.path, "allowRemoteRequests")
    XCTAssertEqual(error("{ clips: [], audioNorm: { enable: true } }")?.path, "audioNorm")
    XCTAssertEqual(
      error("{ clips: [{ layers: [], transition: { name: 'fade', audioOutCurve: 'tri' } }] }")?.path,
      "clips[0].transition.audioOutCurve")
    XCTAssertEqual(error("{ clips: 3 }")?.message, "found a number, expected an array")
    XCTAssertEqual(error("{ width: 'wide', clips: [] }")?.path, "width")
    XCTAssertNotNil(error("{ clips: [ }"), "not JSON5")
  }
}
