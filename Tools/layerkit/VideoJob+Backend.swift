import Foundation
import LayerKit
import LayerKitGL
import LayerKitReference
import LayerKitVideo

/// Choosing the backends: --renderer, and auto's choice of the CPU where a software rasterizer
/// is slower at the work asked (`RenderBackends.renderer(for:paintsShaders:)`).
extension VideoJob {
  /// The backends `--renderer` names; for auto the GPU when an EGL display can be made, else the
  /// CPU, with a note unless `quiet`.
  static func makeBackends(_ choice: BackendChoice, command: String, quiet: Bool) throws -> RenderBackends {
    /// The commands render every frame on the main thread: the context stays current there.
    func makeGPU() throws -> GLRenderer {
      let gpu = try GLRenderer()
      gpu.keepsContextCurrent = true
      return gpu
    }
    switch choice {
    case .gpu:
      let gpu = try makeGPU()
      return RenderBackends(renderer: gpu, shaders: gpu)
    case .cpu:
      return RenderBackends(renderer: ReferenceRenderer(), cpuChosen: true)
    case .auto:
      do {
        let gpu = try makeGPU()
        return RenderBackends(renderer: gpu, shaders: gpu, fasterCPU: ReferenceRenderer())
      } catch {
        if !quiet { printError("layerkit \(command): no GPU backend (\(error)); rendering on the CPU") }
        return RenderBackends(renderer: ReferenceRenderer())
      }
    }
  }
}
