// LayerKitReference: the CPU backend. It executes a RenderList in software with the same per-pixel
// math as the GPU shaders (LayerKit.RenderMath, mirrored by Shaders/layer/layer_quad.frag), so its
// output is the reference the GPU is tested against, and the fallback where no EGL display exists.
//
// What it does not do: anything the RenderList does not say. It never looks at a Layer.
// Lifetime: a renderer owns nothing between renders except its configuration; every buffer of a
// render is released when `render` returns.
import Dispatch
import Foundation
import LayerKit

/// Renders RenderLists on the CPU, pixel for pixel by the parity contract of DESIGN.md.
public final class ReferenceRenderer: Renderer {
  public let name = "cpu"
  /// How many threads share the rows of a draw.
  public let threadCount: Int

  /// - Parameter threadCount: threads to split each draw's rows across; defaults to the number of
  ///   active processors. The output does not depend on it: every pixel is computed independently.
  public init(threadCount: Int = ProcessInfo.processInfo.activeProcessorCount) {
    self.threadCount = max(1, threadCount)
  }

  public func render(_ list: RenderList) throws -> Image {
    try list.validate()
    let count = list.width * list.height * 4
    let clear = RenderMath.unorm8(list.clearColor)
    var base = [UInt8](repeating: 0, count: count)
    for i in stride(from: 0, to: count, by: 4) {
      base[i] = clear.x
      base[i + 1] = clear.y
      base[i + 2] = clear.z
      base[i + 3] = clear.w
    }
    // The stack of targets: base at the bottom, one entry per open group.
    var stack: [(id: Int, pixels: [UInt8])] = [(-1, base)]
    var groups: [Int: [UInt8]] = [:]
    for op in list.ops {
      switch op {
      case .pushGroup(let id):
        stack.append((id, [UInt8](repeating: 0, count: count)))
      case .popGroup(let id):
        groups[id] = stack.removeLast().pixels
      case .draw(let draw):
        let source: [UInt8]?
        let sourceSize: (Int, Int)
        switch draw.paint {
        case .color:
          source = nil
          sourceSize = (0, 0)
        case .texture(.image(let i), _):
          source = list.images[i].pixels
          sourceSize = (list.images[i].width, list.images[i].height)
        case .texture(.group(let g), _):
          source = groups[g]
          sourceSize = (list.width, list.height)
        }
        let top = stack.count - 1
        stack[top].pixels.withUnsafeMutableBufferPointer { target in
          let texels = source ?? []
          texels.withUnsafeBufferPointer { tex in
            execute(
              draw, into: target, targetWidth: list.width, texels: tex, texelSize: sourceSize)
          }
        }
      }
    }
    return try Image(width: list.width, height: list.height, pixels: stack[0].pixels)
  }

  /// Shades and blends every pixel of `draw.pixelBounds`, rows split across threads.
  private func execute(
    _ draw: Draw, into target: UnsafeMutableBufferPointer<UInt8>, targetWidth: Int,
    texels: UnsafeBufferPointer<UInt8>, texelSize: (Int, Int)
  ) {
    let bounds = draw.pixelBounds
    let job = DrawJob(draw: draw, target: target, targetWidth: targetWidth, texels: texels, texelSize: texelSize)
    let chunks = min(threadCount, bounds.height)
    if chunks <= 1 || bounds.width * bounds.height < 4096 {
      job.rows(bounds.y..<bounds.maxY)
      return
    }
    DispatchQueue.concurrentPerform(iterations: chunks) { c in
      let y0 = bounds.y + bounds.height * c / chunks
      let y1 = bounds.y + bounds.height * (c + 1) / chunks
      job.rows(y0..<y1)
    }
  }
}

/// One draw's inputs, shared read-only by the threads; each thread writes disjoint rows.
private struct DrawJob: @unchecked Sendable {
  let draw: Draw
  let target: UnsafeMutableBufferPointer<UInt8>
  let targetWidth: Int
  let texels: UnsafeBufferPointer<UInt8>
  let texelSize: (Int, Int)

  func rows(_ range: Range<Int>) {
    // Locals, not `draw.…` in the loop: the optimizer then keeps them in registers and never
    // touches the clips array's reference count per pixel.
    let b = draw.pixelBounds
    let opacity = draw.opacity
    let mapping = draw.mapping
    let shape = draw.shape
    let paint = draw.paint
    draw.clips.withUnsafeBufferPointer { clips in
      for y in range {
        for x in b.x..<b.maxX {
          // The pixel centre, as gl_FragCoord gives it.
          let p = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
          guard let lp = RenderMath.unproject(p, mapping) else { continue }
          var coverage = RenderMath.coverage(lp, shape)
          if coverage == 0 { continue }
          for clip in clips {
            coverage *= RenderMath.coverage(p, clip)
          }
          if coverage == 0 { continue }
          let color: SIMD4<Float>
          switch paint {
          case .color(let c):
            color = c
          case .texture(_, let t):
            let uv = lp.q * t.scale + t.offset
            color = RenderMath.sampleBilinear(texels, width: texelSize.0, height: texelSize.1, uv: uv)
          }
          let src = color * (coverage * opacity)
          let i = (y * targetWidth + x) * 4
          // An opaque source replaces the pixel: src + dst × 0 is src exactly, so skip the read.
          let out =
            src.w == 1
            ? RenderMath.unorm8(src)
            : RenderMath.blend(src, over: SIMD4(target[i], target[i + 1], target[i + 2], target[i + 3]))
          target[i] = out.x
          target[i + 1] = out.y
          target[i + 2] = out.z
          target[i + 3] = out.w
        }
      }
    }
  }
}
