import Foundation
import LayerKit
import LayerKitMedia
import LayerKitReference
import LayerKitScene
import XCTest

/// The repository's root folder (examples/, Schemas/).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// A scene from JSON text, media relative to `folder`.
func scene(_ text: String, folder: URL = repositoryRoot.appendingPathComponent("examples/scenes")) throws -> LoadedScene
{
  try SceneFile.decode(Data(text.utf8), folder: folder, file: "test.json")
}

/// The error `body` throws, as a SceneFileError (fails the test when it throws none).
func sceneError(
  _ body: () throws -> Any, file: StaticString = #filePath, line: UInt = #line
) -> SceneFileError? {
  do {
    _ = try body()
    XCTFail("expected a SceneFileError", file: file, line: line)
    return nil
  } catch let e as SceneFileError {
    return e
  } catch {
    XCTFail("expected a SceneFileError, got \(error)", file: file, line: line)
    return nil
  }
}

/// Renders a presentation tree on the CPU.
func render(_ tree: Layer, _ settings: SceneSettings) throws -> Image {
  // Two threads: the machine is shared.
  try ReferenceRenderer(threadCount: 2).render(
    RenderList(layer: tree, width: settings.width, height: settings.height, background: settings.background))
}

/// Renders a loaded scene at time `t`.
func render(_ scene: LoadedScene, at t: Double) throws -> Image {
  try render(scene.presentation(at: t), scene.settings)
}

/// A small image whose pixels differ everywhere (a gradient), for contents.
func gradientImage(width: Int = 32, height: Int = 24, seed: Int = 0) throws -> Image {
  var pixels: [UInt8] = []
  for y in 0..<height {
    for x in 0..<width {
      pixels += [UInt8((x * 255) / width), UInt8((y * 255) / height), UInt8((seed * 67) % 256), 255]
    }
  }
  return try Image(width: width, height: height, pixels: pixels)
}

/// Writes `image` as a PNG in a fresh temporary folder; returns the folder.
func temporaryFolder(with images: [String: Image] = [:]) throws -> URL {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scene-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  for (name, image) in images {
    try ImageFile.encodePNG(image).write(to: folder.appendingPathComponent(name))
  }
  return folder
}

/// Whether an image has more than one colour.
func isNonTrivial(_ image: Image) -> Bool {
  let p = image.pixels
  for i in stride(from: 4, to: p.count, by: 4) where p[i..<i + 4] != p[0..<4] { return true }
  return false
}
