// libFuzzer target: any bytes as a scene file. Decoding ends in a loaded scene or a
// SceneFileError; a loaded scene's presentation is evaluated at a few times, which must not trap.
import Foundation
import FuzzDriver
import LayerKitScene
import LayerKitText

@_cdecl("fuzz_scene_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  // The font stack is made once for the process (fontconfig's configuration lives as long as
  // it): made here, before any input, so LeakSanitizer does not count it against the first
  // input with a text layer (its first finding).
  _ = FontStack.install()
  return runFuzzer(argc, argv, fuzzScene)
}

let fuzzScene: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { bytes, count in
  guard let bytes else { return 0 }
  let data = Data(bytes: bytes, count: count)
  let folder = URL(fileURLWithPath: NSTemporaryDirectory())
  guard let scene = try? SceneFile.decode(data, folder: folder, file: "fuzz.json") else { return 0 }
  defer { scene.stopClips() }
  for t in [0, 0.5, scene.settings.duration] { _ = try? scene.presentation(at: t) }
  return 0
}
