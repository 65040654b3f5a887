import Foundation
import LayerKitRender

/// An RGBA8 premultiplied image covering `bounds` of the target; draws write into it in place.
final class Surface {
  let bounds: PixelRect
  var pixels: [UInt8]

  init(bounds: PixelRect, pixels: [UInt8]? = nil) {
    self.bounds = bounds
    self.pixels = pixels ?? FrameMemory.zeros(count: bounds.width * bounds.height * 4)
  }

  /// A surface whose bytes an op is about to write, every one (no zero-fill first).
  init(uninitialized bounds: PixelRect) {
    self.bounds = bounds
    pixels = FrameMemory.bytes(count: bounds.width * bounds.height * 4) { _ in }
  }

  /// The pixels of `rect` (inside `bounds`) as a new surface.
  func copy(_ rect: PixelRect) -> Surface {
    let out = Surface(bounds: rect)
    for y in rect.y..<rect.maxY {
      let src = ((y - bounds.y) * bounds.width + (rect.x - bounds.x)) * 4
      let dst = (y - rect.y) * rect.width * 4
      out.pixels[dst..<dst + rect.width * 4] = pixels[src..<src + rect.width * 4]
    }
    return out
  }

  func withTarget(_ body: (SurfaceTarget) -> Void) {
    let b = bounds
    pixels.withUnsafeMutableBufferPointer { body(SurfaceTarget(bounds: b, pixels: $0)) }
  }
}

/// Read-only view of a surface's texels.
struct SurfacePixels: @unchecked Sendable {
  let bounds: PixelRect
  let texels: UnsafeBufferPointer<UInt8>

  /// The texel at target pixel (x, y); transparent outside the bounds.
  @inline(__always) func texel(_ x: Int, _ y: Int) -> SIMD4<Float> {
    let lx = x - bounds.x
    let ly = y - bounds.y
    guard lx >= 0, ly >= 0, lx < bounds.width, ly < bounds.height else { return .zero }
    let i = (ly * bounds.width + lx) * 4
    return SIMD4(Float(texels[i]), Float(texels[i + 1]), Float(texels[i + 2]), Float(texels[i + 3])) / 255
  }

  @inline(__always) func sample(_ uv: SIMD2<Float>) -> SIMD4<Float> {
    RenderMath.sampleBilinear(texels, width: bounds.width, height: bounds.height, uv: uv)
  }

  @inline(__always) func sampleNearest(_ uv: SIMD2<Float>) -> SIMD4<Float> {
    RenderMath.sampleNearest(texels, width: bounds.width, height: bounds.height, uv: uv)
  }

  /// `sample` at the coordinates of two precomputed taps, bit for bit the same.
  @inline(__always) func sample(_ x: RenderMath.BilinearTap, _ y: RenderMath.BilinearTap) -> SIMD4<Float> {
    RenderMath.sampleBilinear(texels, width: bounds.width, x: x, y: y)
  }
}

/// A writable surface; threads write disjoint rows.
struct SurfaceTarget: @unchecked Sendable {
  let bounds: PixelRect
  let pixels: UnsafeMutableBufferPointer<UInt8>

  @inline(__always) func index(_ x: Int, _ y: Int) -> Int {
    ((y - bounds.y) * bounds.width + (x - bounds.x)) * 4
  }

  @inline(__always) func store(_ i: Int, _ v: SIMD4<UInt8>) {
    pixels[i] = v.x
    pixels[i + 1] = v.y
    pixels[i + 2] = v.z
    pixels[i + 3] = v.w
  }
}

/// Float texels being written, rows split across threads.
struct FloatPlane: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<SIMD4<Float>>
}
