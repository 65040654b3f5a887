import Foundation
import LayerKitScene
import XCTest

@testable import LayerKitEdit
@testable import LayerKitOutput
@testable import LayerKitTimeline
@testable import LayerKitVideo

/// Schemas/edit.schema.json: every example edit file validates, a typo does not, and the schema
/// names exactly the keys and layer types the reader takes (EditFile's vocabulary).
final class EditSchemaTests: XCTestCase {
  func schema() throws -> (SchemaValidator, JSON) {
    let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("Schemas/edit.schema.json"))
    let json = try JSON.parse(data, file: "edit.schema.json")
    return (SchemaValidator(schema: json), json)
  }

  /// A JSON5 file as JSON (what the schema checks).
  func json(_ json5: Data) throws -> JSON {
    let decoder = JSONDecoder()
    decoder.allowsJSON5 = true
    let tree = try decoder.decode(EditFile.Tree.self, from: json5)
    return try JSON.parse(try JSONEncoder().encode(tree), file: "edit")
  }

  func testExamplesValidateAndATypoDoesNot() throws {
    let (validator, _) = try schema()
    let folder = repositoryRoot.appendingPathComponent("examples/edits")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json5") }
    XCTAssertGreaterThanOrEqual(files.count, 4)
    for file in files {
      let failures = validator.validate(try json(try Data(contentsOf: folder.appendingPathComponent(file))))
      XCTAssertTrue(failures.isEmpty, "\(file): \(failures)")
    }
    let typo = validator.validate(
      try json(Data("{ clips: [{ layers: [{ type: 'video', path: 'a.mp4', cutFrm: 1 }] }] }".utf8)))
    XCTAssertFalse(typo.isEmpty)
    XCTAssertFalse(validator.validate(try json(Data("{ clips: [{ layers: [{ type: 'canvas' }] }] }".utf8))).isEmpty)
  }

  /// The schema's keys are the reader's: top level, and each layer type's.
  func testTheSchemaNamesTheReadersVocabulary() throws {
    let (_, root) = try schema()
    func keys(_ json: JSON?, _ path: [String]) -> Set<String> {
      var node = json
      for p in path { node = node?[p] }
      guard case .object(let pairs)? = node else { return [] }
      return Set(pairs.map(\.key))
    }
    XCTAssertEqual(
      keys(root, ["properties"]), EditFile.topKeys.union(EditFile.quietKeys), "top-level keys")
    for (type, known) in EditFile.layerKeys {
      XCTAssertEqual(keys(root, ["$defs", "layer-\(type)", "properties"]), known, type)
    }
    XCTAssertEqual(
      keys(root, ["$defs"]).filter { $0.hasPrefix("layer-") },
      Set(EditFile.layerKeys.keys.map { "layer-\($0)" }).union(["layer-title-background"]))
  }
}
