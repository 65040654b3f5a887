import Foundation
import LayerKit
import XCTest

@testable import LayerKitEdit

/// An edit read as the render server reads it (`confined: true`): every path-like value goes
/// through the one resolver, and whatever could reach a file outside the media folder or a
/// host is refused with its JSON path.
final class ConfinedEditTests: XCTestCase {
  var media: URL!

  override func setUpWithError() throws {
    media = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-media-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: media) }

  func read(_ text: String, confined: Bool = true) throws(EditFile.Error) -> EditFile {
    try EditFile.parse(Data(text.utf8), file: "edit", folder: media.path, confined: confined)
  }

  /// The JSON path and the message an edit is refused with.
  func refusal(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> (String, String)? {
    do {
      _ = try read(text)
      XCTFail("accepted: \(text)", file: file, line: line)
      return nil
    } catch {
      return (error.path, error.message)
    }
  }

  /// An edit of one clip whose one layer is `layer`, with `top` keys beside the clips.
  func edit(layer: String = #"{"type": "fill-color", "color": "red"}"#, transition: String? = nil, top: String = "")
    -> String
  {
    let t = transition.map { #", "transition": \#($0)"# } ?? ""
    return #"{\#(top)"clips": [{"duration": 1, "layers": [\#(layer)]\#(t)}, {"duration": 1, "layers": []}]}"#
  }

  func title(fontFamily: String) -> String {
    #"{"type": "title", "text": "hi", "fontFamily": "\#(fontFamily)"}"#
  }

  /// A font given by path in `fontFamily` is a path: outside the folder it is refused, with the
  /// same answer whether or not the file exists (files outside cannot be probed).
  func testAFontFamilyThatIsAPathIsConfinedAndCannotProbeFiles() throws {
    let existing = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    XCTAssertTrue(FileManager.default.fileExists(atPath: existing))
    let absolute = [existing, "/usr/share/fonts/truetype/dejavu/NoSuchFont.ttf"].map {
      refusal(edit(layer: title(fontFamily: $0)))
    }
    XCTAssertEqual(absolute[0]?.0, "clips[0].layers[0].fontFamily")
    XCTAssertEqual(absolute[0]?.1, "an absolute path; name a file in the media folder")
    XCTAssertEqual(absolute[0]?.0, absolute[1]?.0)
    XCTAssertEqual(absolute[0]?.1, absolute[1]?.1)
    // Through a link in the folder that leads out: one answer for a font there and for none.
    try FileManager.default.createSymbolicLink(
      atPath: media.appendingPathComponent("fonts").path, withDestinationPath: "/usr/share/fonts/truetype/dejavu")
    let linked = ["fonts/DejaVuSans-Bold.ttf", "fonts/NoSuchFont.ttf"].map {
      refusal(edit(layer: title(fontFamily: $0)))
    }
    XCTAssertEqual(linked[0]?.1, "a link that leads out of the media folder")
    XCTAssertEqual(linked[0]?.0, linked[1]?.0)
    XCTAssertEqual(linked[0]?.1, linked[1]?.1)
    // The subtitles' font, and a layer default's.
    let subtitles = refusal(edit(top: #""subtitles": {"path": "a.srt", "fontFamily": "\#(existing)"}, "#))
    XCTAssertEqual(subtitles?.0, "subtitles.fontFamily")
    let defaults = refusal(
      #"{"defaults": {"layer": {"fontFamily": "\#(existing)"}}, "clips": [{"layers": [{"type": "title", "text": "x"}]}]}"#
    )
    XCTAssertEqual(defaults?.0, "clips[0].layers[0].fontFamily")
    // A family's name is kept; a font file in the folder is taken from it.
    let kept = try read(
      edit(
        layer: title(fontFamily: "DejaVu Sans:bold"), top: #""subtitles": {"path": "a.srt", "fontFamily": "f/x.otf"}, "#
      ))
    guard case .title(let t) = kept.edit.clips[0].layers[0] else { return XCTFail("\(kept.edit.clips[0].layers)") }
    XCTAssertEqual(t.fontFamily, "DejaVu Sans:bold")
    XCTAssertEqual(kept.edit.subtitles?.fontFamily, media.appendingPathComponent("f/x.otf").path)
  }

  /// A transition name is the catalogue's or the server's gl-transitions', by name: a shader
  /// file, a path or an image in the name is refused; images go in params, confined.
  func testATransitionNameNamesNoFile() throws {
    FileManager.default.createFile(atPath: media.appendingPathComponent("x.glsl").path, contents: Data("x".utf8))
    for name in [
      "foo.glsl:x", "foo.glsl", "x.glsl", "shaders/wipe", "../x.glsl:fromLeft", "/tmp/x.glsl",
      "fade:img=@/etc/hostname",
    ] {
      let r = refusal(edit(transition: #"{"name": "\#(name)", "duration": 0.5}"#))
      XCTAssertEqual(r?.0, "clips[0].transition.name", name)
    }
    XCTAssertEqual(
      refusal(edit(transition: #"{"name": "foo.glsl:x"}"#))?.1,
      "a shader file or a path; name a transition of the catalogue or of the server's gl-transitions")
    XCTAssertEqual(
      refusal(#"{"defaults": {"transition": {"name": "foo.glsl:x"}}, "clips": []}"#)?.0, "defaults.transition.name")
    for name in ["fade", "push:fromRight", "ripple:speed=30", "directional", "directional-left", "random"] {
      XCTAssertNoThrow(try read(edit(transition: #"{"name": "\#(name)"}"#)), name)
    }
    // An image parameter: inside the folder, taken from it; anything else refused at its key.
    let ok = try read(edit(transition: #"{"name": "fade", "params": {"map": "@maps/wipe.png"}}"#))
    guard case .given(let t) = ok.edit.clips[0].transition else { return XCTFail() }
    XCTAssertEqual(t.params?["map"], .image(media.appendingPathComponent("maps/wipe.png").path))
    for image in ["@/etc/hostname", "@../x.png", "@cache:x.png", " @/etc/hostname"] {
      let r = refusal(edit(transition: #"{"name": "fade", "params": {"map": "\#(image)"}}"#))
      XCTAssertEqual(r?.0, "clips[0].transition.params.map", image)
    }
  }

  /// ffmpeg's protocols and URLs in any path: refused at each key that takes a path.
  func testProtocolPrefixesAreRefusedInEveryPath() throws {
    let hostile = [
      "cache:a.mp4", "subfile,,start,0,end,10,,:a.mp4", "subfile,x/y:z.mp4", "concat:a.mp4|b.mp4", "crypto:a.mp4",
      "async:a.mp4", "pipe:0", "file:a.mp4", "http://example.com/a.mp4", "data:video/mp4;base64,AAAA",
    ]
    for p in hostile {
      let places: [(String, String)] = [
        (edit(layer: #"{"type": "video", "path": "\#(p)"}"#), "clips[0].layers[0].path"),
        (edit(layer: #"{"type": "image", "path": "\#(p)"}"#), "clips[0].layers[0].path"),
        (edit(layer: #"{"type": "detached-audio", "path": "\#(p)"}"#), "clips[0].layers[0].path"),
        (edit(layer: #"{"type": "title", "text": "x", "fontPath": "\#(p)"}"#), "clips[0].layers[0].fontPath"),
        (edit(layer: #"{"type": "gl", "fragmentPath": "\#(p)"}"#), "clips[0].layers[0].fragmentPath"),
        (
          edit(layer: #"{"type": "gl", "fragmentPath": "a.frag", "vertexPath": "\#(p)"}"#),
          "clips[0].layers[0].vertexPath"
        ),
        (edit(top: #""audioTracks": [{"path": "\#(p)"}], "#), "audioTracks[0].path"),
        (edit(top: #""audioFilePath": "\#(p)", "#), "audioFilePath"),
        (edit(top: #""overlays": [{"path": "\#(p)"}], "#), "overlays[0].path"),
        (edit(top: #""subtitles": {"path": "\#(p)"}, "#), "subtitles.path"),
        (edit(top: #""outPath": "\#(p)", "#), "outPath"),
      ]
      for (text, path) in places {
        let r = refusal(text)
        XCTAssertEqual(r?.0, path, p)
        XCTAssertEqual(r?.1, "a URL or a protocol; name a file in the media folder", p)
      }
    }
    XCTAssertEqual(
      refusal(edit(layer: #"{"type": "image", "path": "a/\n/b.png"}"#))?.1,
      "holds a control character; name a file in the media folder")
    XCTAssertEqual(refusal(edit(layer: #"{"type": "image", "path": "a//b.png"}"#))?.0, "clips[0].layers[0].path")
    // A name with a colon after the first step is a file's name.
    let ok = try read(edit(layer: #"{"type": "image", "path": "shots/12:00.png"}"#))
    XCTAssertEqual(ok.edit.picturePaths, [media.appendingPathComponent("shots/12:00.png").path])
  }

  /// Unconfined (the command line), a path that begins `word:` is a file in the edit's folder,
  /// as every relative path is: ffmpeg is handed it as `file:PATH`.
  func testUnconfinedAProtocolLikePathIsAFileInTheFolder() throws {
    let file = try read(edit(layer: #"{"type": "video", "path": "cache:a.mp4"}"#), confined: false)
    XCTAssertEqual(file.edit.picturePaths, [media.appendingPathComponent("cache:a.mp4").path])
    let shader = try read(edit(transition: #"{"name": "wipes/x.glsl:fromLeft"}"#), confined: false)
    guard case .given(let t) = shader.edit.clips[0].transition else { return XCTFail() }
    XCTAssertEqual(t.name, media.appendingPathComponent("wipes/x.glsl").path + ":fromLeft")
  }
}
