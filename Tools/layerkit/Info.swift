import ArgumentParser
import LayerKitGL

/// `layerkit info`: the EGL platform, vendor and version, and the GL strings and limits.
struct Info: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the EGL platform and OpenGL ES implementation the GPU backend uses.")

  func run() throws {
    let renderer: GLRenderer
    do {
      renderer = try GLRenderer()
    } catch {
      printError("layerkit: \(error)")
      throw ExitCode(1)
    }
    print(renderer.info.description)
  }
}
