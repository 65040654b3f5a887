import Foundation
import LayerKit
import LayerKitScene
import XCTest

/// Scene files' `"kind": "emitter"`: an EmitterLayer with its cells, read and written back, its
/// particles the same as the Swift-built layer's; a misplaced emitter key is named.
final class SceneEmitterTests: XCTestCase {
  let text = """
    {"width": 64, "height": 48, "fps": 10, "duration": 2, "media": {"dot": "a.png"},
     "layers": [{"kind": "emitter", "bounds": [0, 0, 64, 48], "position": [32, 24],
       "emitterPosition": [32, 10], "emitterShape": "line", "emitterSize": [40, 0], "renderMode": "oldestLast",
       "birthRate": 2, "seed": 9,
       "emitterCells": [{"name": "snow", "birthRate": 10, "lifetime": 2, "velocity": 20, "emissionLongitude": 1.5707963,
         "emissionRange": 0.3, "scale": 0.5, "scaleSpeed": -0.1, "alphaSpeed": -0.4, "color": "#80C0FF", "contents": "dot",
         "emitterCells": [{"birthRate": 1, "lifetime": 0.5, "contents": "dot"}]}]}]}
    """

  func testAnEmitterReadsRendersAndWritesBack() throws {
    let folder = try temporaryFolder(with: ["a.png": try gradientImage(width: 4, height: 4)])
    let loaded = try scene(text, folder: folder)
    guard let e = loaded.root.sublayers?.first as? EmitterLayer, let cell = e.emitterCells?.first else {
      return XCTFail("an emitter with a cell")
    }
    XCTAssertEqual(e.emitterShape, .line)
    XCTAssertEqual(e.renderMode, .oldestLast)
    XCTAssertEqual(e.birthRate, 2)
    XCTAssertEqual(e.seed, 9)
    XCTAssertEqual(cell.name, "snow")
    XCTAssertEqual(cell.birthRate, 10)
    XCTAssertEqual(cell.emitterCells?.count, 1)
    let shown = try loaded.presentation(at: 1)
    XCTAssertGreaterThan(shown.sublayers![0].sublayers?.count ?? 0, 30, "particles at 1 s")
    XCTAssertGreaterThan(
      try render(loaded, at: 1).pixels.lazy.enumerated().filter { $0.offset % 4 == 3 && $0.element > 0 }.count, 0)
    // Written back, read again: the same particles.
    let written = try SceneFile.encode(
      root: loaded.root, settings: loaded.settings, media: loaded.media)
    let again = try SceneFile.decode(written, folder: folder)
    XCTAssertEqual(
      try again.presentation(at: 1.5).sublayers![0].sublayers!.map(\.position),
      try loaded.presentation(at: 1.5).sublayers![0].sublayers!.map(\.position))
  }

  func testEmitterKeysOnAnotherLayerAreNamed() throws {
    let error = sceneError {
      try scene(#"{"width": 8, "height": 8, "duration": 1, "layers": [{"emitterShape": "line"}]}"#)
    }
    XCTAssertEqual(error?.path, "layers[0].emitterShape")
    let cell = sceneError {
      try scene(
        #"{"width": 8, "height": 8, "duration": 1, "layers": [{"kind": "emitter", "emitterCells": [{"birthrate": 1}]}]}"#
      )
    }
    XCTAssertTrue("\(cell.map { "\($0)" } ?? "")".contains("birthrate"), "\(String(describing: cell))")
  }
}
