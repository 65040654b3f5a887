import ArgumentParser
import CMalloc
import Dispatch
import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitScene
import LayerKitVideo

#if canImport(Glibc)
  import Glibc
#endif

/// What the video commands (transition, slideshow, concat) share: choosing the backend, reading

/// Choosing the backend: --renderer, and auto's choice of the CPU where a software rasterizer
/// is slower at the work asked.
extension VideoJob {
  /// The renderer `--renderer` names; for auto the GPU when an EGL display can be made, else the
  /// CPU, with a note unless `quiet`. Also the GPU renderer, when there is one.
  static func makeRenderer(_ choice: BackendChoice, command: String, quiet: Bool) throws -> (Renderer, GLRenderer?) {
    /// The commands render every frame on the main thread: the context stays current there.
    func makeGPU() throws -> GLRenderer {
      let gpu = try GLRenderer()
      gpu.keepsContextCurrent = true
      return gpu
    }
    switch choice {
    case .gpu:
      let gpu = try makeGPU()
      return (gpu, gpu)
    case .cpu:
      return (ReferenceRenderer(), nil)
    case .auto:
      do {
        let gpu = try makeGPU()
        return (gpu, gpu)
      } catch {
        if !quiet { printError("layerkit \(command): no GPU backend (\(error)); rendering on the CPU") }
        return (ReferenceRenderer(), nil)
      }
    }
  }

  /// The renderer of a video with `transitions`. `--renderer auto` on a software rasterizer
  /// (Mesa's llvmpipe, softpipe) takes the CPU when every transition has a shortcut in the
  /// catalogue (`TransitionEffect.shortcut`: a crossfade or a slide, which the CPU runs a row at a
  /// time): there the CPU renders such videos faster end to end (`layerkit-bench --suite`: fade and push, 720p
  /// and 1080p, Y4M and MP4), while llvmpipe wins on everything else; on a hardware GPU, the GPU.
  /// A timeline whose layers a shader paints (editly's gl layers) needs the GPU: the CPU runs
  /// no GLSL, so that is an error naming the renderer there.
  func renderer(for transitions: [TimelineTransition], paintsShaders: Bool = false) throws -> Renderer {
    if paintsShaders {
      guard let gpu else {
        throw ParameterError(
          "a gl layer is a GLSL shader's picture, drawn on the GPU; "
            + (options.renderer == .cpu ? "give --renderer gpu or auto" : "no GPU backend here"))
      }
      return gpu
    }
    guard options.renderer == .auto, let gpu, transitions.allSatisfy(\.builtIn),
      Self.cpuIsFaster(than: gpu, effects: transitions.map(\.effect))
    else { return renderer }
    return ReferenceRenderer()
  }

  /// Whether the CPU renders work whose transitions run `effects` (built-in names) faster than
  /// `gpu`, as `layerkit-bench --suite` recommends: on a software rasterizer when there are
  /// transitions and every one has a shortcut; the GPU for filter transitions and for layer
  /// scenes without transitions (the 50- and 500-layer rows).
  static func cpuIsFaster(than gpu: GLRenderer, effects: some Collection<String>) -> Bool {
    guard gpu.info.isSoftwareRasterizer else { return false }
    return !effects.isEmpty && effects.allSatisfy { TransitionEffects.all[$0]?.shortcut != nil }
  }
}
