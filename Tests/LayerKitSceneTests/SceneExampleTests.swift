import Foundation
import LayerKit
import LayerKitMedia
import LayerKitReference
import LayerKitScene
import XCTest

/// The example scene files load, render on the CPU backend and validate against the schema, and
/// the schema refuses what the reader refuses.
final class SceneExampleTests: XCTestCase {
  static let examples = ["slideshow", "filters", "composition", "app-home", "app-detail", "particles"]
  static let folder = repositoryRoot.appendingPathComponent("examples/scenes")

  func schema() throws -> SchemaValidator {
    let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Schemas/scene.schema.json"))
    return SchemaValidator(schema: try JSON.parse(data, file: "scene.schema.json"))
  }

  func exampleFiles() throws -> [URL] {
    let files = try FileManager.default.contentsOfDirectory(at: Self.folder, includingPropertiesForKeys: nil)
      .filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    XCTAssertTrue(
      Set(Self.examples).isSubset(of: files.map { $0.deletingPathExtension().lastPathComponent }), "\(files)")
    return files
  }

  func testEveryExampleValidatesAgainstTheSchema() throws {
    let validator = try schema()
    for file in try exampleFiles() {
      let json = try JSON.parse(try Data(contentsOf: file), file: file.path)
      let failures = validator.validate(json)
      XCTAssertTrue(failures.isEmpty, "\(file.lastPathComponent): \(failures.prefix(5))")
    }
  }

  func testTheSchemaRejectsWhatTheReaderRejects() throws {
    let validator = try schema()
    func failures(_ text: String) throws -> [SchemaValidator.Failure] {
      validator.validate(try JSON.parse(Data(text.utf8), file: "test"))
    }
    let head = #""width": 8, "height": 8, "duration": 1"#
    XCTAssertTrue(try failures("{\(head)}").isEmpty)
    let unknown = try failures(#"{\#(head), "layers": [{"opacty": 1}]}"#)
    XCTAssertTrue(unknown.contains { $0.path == "layers[0]" && $0.message.contains("\"opacty\"") }, "\(unknown)")
    XCTAssertFalse(try failures(##"{\##(head), "colour": "#000000"}"##).isEmpty)
    XCTAssertFalse(try failures(#"{"width": 8, "height": 8}"#).isEmpty)
    XCTAssertFalse(try failures(#"{\#(head), "layers": [{"position": [1]}]}"#).isEmpty)
    XCTAssertFalse(try failures(##"{\##(head), "layers": [{"backgroundColor": "#12345"}]}"##).isEmpty)
    XCTAssertFalse(
      try failures(#"{\#(head), "layers": [{"animations": [{"kind": "basik", "keyPath": "x"}]}]}"#).isEmpty)
    XCTAssertFalse(
      try failures(#"{\#(head), "timeline": [{"time": 0, "changes": [{"layer": "a", "set": {}, "mask": null}]}]}"#)
        .isEmpty)
    XCTAssertFalse(try failures(#"{\#(head), "layers": [{"transform": [{"rotateY": 1, "rotateX": 1}]}]}"#).isEmpty)
  }

  func testTheSchemaNamesEveryKeyTheReaderKnows() throws {
    let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Schemas/scene.schema.json"))
    let schema = try JSON.parse(data, file: "scene.schema.json")
    func keys(_ def: String) -> [String] {
      guard case .object(let m)? = schema["$defs"]?[def]?["properties"] else { return [] }
      return m.map(\.key)
    }
    guard case .object(let top)? = schema["properties"] else { return XCTFail("no properties") }
    XCTAssertEqual(Set(top.map(\.key)), Set(SceneFile.documentKeys))
    XCTAssertEqual(Set(keys("layer")), Set(SceneFile.layerKeys))
    XCTAssertEqual(Set(keys("properties")), Set(LayerProperty.keys))
  }

  func testEveryExampleLoadsAndRendersMovingPictures() throws {
    for name in Self.examples {
      let scene = try SceneFile.load(Self.folder.appendingPathComponent("\(name).json"))
      let d = scene.settings.duration
      let times = [0.2 * d, 0.45 * d, 0.7 * d, 0.95 * d]
      // At half size: a quarter of the pixels in a debug build, the same scene.
      let frames = try times.map { t in
        try ReferenceRenderer(threadCount: 2).render(
          RenderList(
            layer: scene.presentation(at: t), width: scene.settings.width / 2, height: scene.settings.height / 2,
            scale: 0.5, background: scene.settings.background))
      }
      // LAYERKIT_SCENE_DUMP=DIR writes the frames (NAME-T.png) for a person to look at.
      if let dump = ProcessInfo.processInfo.environment["LAYERKIT_SCENE_DUMP"] {
        for (t, f) in zip(times, frames) {
          try ImageFile.writePNG(f, to: URL(fileURLWithPath: dump).appendingPathComponent("\(name)-\(t).png"))
        }
      }
      for (t, f) in zip(times, frames) {
        XCTAssertEqual(f.width, scene.settings.width / 2)
        XCTAssertTrue(isNonTrivial(f), "\(name) at \(t) is one colour")
      }
      XCTAssertEqual(Set(frames.map(\.pixels)).count, frames.count, "\(name): frames at different times are equal")
    }
  }

  func testTransitionsOfTheExamplesAreMidwayWhereTheTimelineSaysSo() throws {
    // Midway through the slideshow's first push the frame differs from both photos alone.
    let scene = try SceneFile.load(Self.folder.appendingPathComponent("slideshow.json"))
    let before = try render(scene, at: 1.1)
    let during = try render(scene, at: 1.6)
    let after = try render(scene, at: 2.1)
    XCTAssertNotEqual(before.pixels, during.pixels)
    XCTAssertNotEqual(during.pixels, after.pixels)
    XCTAssertEqual((scene.root.sublayers![0].animationKeys() ?? []), [])  // the transition ended and was removed
  }
}
