import ArgumentParser
import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitSamples

/// `layerkit render --sample -o out.png`: renders the sample scene to a PNG.
struct Render: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Render the sample layer tree to a PNG on the GPU (headless EGL) or the CPU.")

  @Flag(help: "Render the built-in sample scene (ten layers: 3D cards, clipping, group opacity).")
  var sample = false
  @Flag(help: "With --sample: add effects (a 20-point shadow, a 10-point blur, a frosted panel).")
  var effects = false
  @Option(name: .shortAndLong, help: "The PNG to write.") var output: String
  @Option(help: "gpu (headless EGL + OpenGL ES 3) or cpu (the reference renderer).")
  var renderer: Backend = .gpu
  @Option(help: "Target size in pixels, WIDTHxHEIGHT.") var size: PixelSize = PixelSize(argument: "1280x720")!

  func validate() throws {
    guard sample else { throw ValidationError("nothing to render: pass --sample (scene files come later)") }
  }

  func run() throws {
    do {
      let (w, h) = (Double(size.width), Double(size.height))
      let scene = try effects ? SampleScene.effects(width: w, height: h) : SampleScene.cards(width: w, height: h)
      let backend: Renderer
      switch renderer {
      case .gpu:
        backend = try GLRenderer()
      case .cpu:
        backend = ReferenceRenderer()
      }
      let start = DispatchTime.now()
      let image = try backend.render(scene, width: size.width, height: size.height)
      let ms = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
      try ImageFile.writePNG(image, to: URL(fileURLWithPath: output))
      print("wrote \(output) (\(size.width)×\(size.height), \(backend.name), \(String(format: "%.1f", ms)) ms)")
    } catch {
      printError("layerkit render: \(error)")
      throw ExitCode(1)
    }
  }
}
