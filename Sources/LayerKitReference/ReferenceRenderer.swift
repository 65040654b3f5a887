// LayerKitReference: the CPU backend. It executes a RenderList in software with the same per-pixel
// math as the GPU shaders (LayerKit.RenderMath, mirrored by Shaders/layer and Shaders/effects), so
// its output is the reference the GPU is tested against, and the fallback where no EGL display
// exists.
//
// What it does not do: anything the RenderList does not say. It never looks at a Layer.
// Lifetime: a renderer owns nothing between renders except its configuration; every surface of a
// render is released when `render` returns.
import Dispatch
import Foundation
import LayerKitRender

/// Renders RenderLists on the CPU, pixel for pixel by the parity contract of docs/ARCHITECTURE.md.
public final class ReferenceRenderer: Renderer {
  public let name = "cpu"
  /// How many threads share the rows of a draw or filter pass.
  public let threadCount: Int

  /// - Parameter threadCount: threads to split each pass's rows across; defaults to the number of
  ///   active processors. The output does not depend on it: every pixel is computed independently.
  public init(threadCount: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.threadCount = max(1, threadCount)
    backend = CPUBackend(threadCount: self.threadCount)
  }

  /// Groups kept between renders (drawn once while their ops and images stay the same).
  package var retainedGroupCount: Int { backend.retained.count }

  /// Off: every transition pixel goes through its effect's kernel (the general path), for tests
  /// that hold the row shortcuts (fade, dissolve, moveIn, push, reveal) to it byte for byte.
  package var fastPaths: Bool {
    get { backend.fastPaths }
    set { backend.fastPaths = newValue }
  }

  private let backend: CPUBackend

  public func render(_ list: RenderList) throws -> Image {
    let pixels = try backend.execute(list)
    return try Image(width: list.width, height: list.height, pixels: pixels)
  }
}
