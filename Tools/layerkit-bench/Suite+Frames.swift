// layerkit-bench --suite: a frame's cost in process, on the path a picture takes (render, then
// RGBA → 4:2:0 Y'CbCr on the CPU) and, for a renderer that converts to planes itself, on the
// video commands' path (FrameLookahead): frame k + 1 drawn while frame k is read back.

import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia

extension Suite {
  /// Frames of the workload rendered for a quarter of a second (and two at least) before a row
  /// is timed: a GPU that idled while the CPU rows ran (NVIDIA's clocks drop within a second)
  /// is back at speed, and the caches of both backends hold the row's images.
  func warmUp(_ renderer: Renderer, make: (Int) throws -> RenderList) throws {
    let start = Self.now()
    var k = 0
    while k < 2 || Self.now() - start < 250 {
      _ = try renderer.render(try make(k % Self.transitionFrames))
      k += 1
    }
  }

  func measure(_ name: String, _ renderer: Renderer, width: Int, height: Int, make: (Int) throws -> RenderList)
    throws -> FrameRow
  {
    var build: [Double] = []
    var render: [Double] = []
    var readback: [Double] = []
    var drawWait: [Double] = []
    var convert: [Double] = []
    var total: [Double] = []
    let layout = YUVFrameLayout(width: width, height: height, chroma: .yuv420)
    var planes = [UInt8](repeating: 0, count: layout.byteCount)
    // Frames spread over the transition (or the animation), after the warm-up.
    try warmUp(renderer, make: make)
    let count = framesPerRow
    for i in 0..<count {
      let k = i * (Self.transitionFrames - 1) / max(1, count - 1)
      let t0 = Self.now()
      let list = try make(k)
      let t1 = Self.now()
      let image = try renderer.render(list)
      let t2 = Self.now()
      try planes.withUnsafeMutableBytes { try YUVConversion.convert(image, chroma: .yuv420, into: $0) }
      let t3 = Self.now()
      build.append(t1 - t0)
      render.append(t2 - t1)
      convert.append(t3 - t2)
      total.append(t3 - t0)
      if let gpu = renderer as? GLRenderer {
        readback.append(gpu.lastReadbackSeconds * 1000)
        drawWait.append(gpu.lastDrawingWaitSeconds * 1000)
      }
    }
    return FrameRow(
      workload: name, backend: renderer.name, width: width, height: height, frames: total.count,
      medianMs: Self.median(total), p95Ms: Self.percentile(total, 0.95), buildMs: Self.median(build),
      renderMs: Self.median(render), drawWaitMs: drawWait.isEmpty ? nil : Self.median(drawWait),
      readbackMs: readback.isEmpty ? nil : Self.median(readback),
      convertMs: Self.median(convert), peakRSSMiB: Self.peakRSSMiB())
  }

  /// The video commands' path on a PlanarRenderer (the GPU): each frame converted to Y'CbCr
  /// 4:2:0 where it is drawn and read through the ring of pixel-pack buffers, one frame started
  /// before the one before it is finished (FrameLookahead). The row's time a frame is the time
  /// between two frames delivered; `render` is the time to start one (the draw calls issued),
  /// the GPU wait and the readback are those of the frame finished, and there is no CPU
  /// conversion.
  func measureOverlapped(
    _ name: String, _ renderer: PlanarRenderer, width: Int, height: Int, make: (Int) throws -> RenderList
  ) throws -> FrameRow {
    var build: [Double] = []
    var start: [Double] = []
    var readback: [Double] = []
    var drawWait: [Double] = []
    var total: [Double] = []
    let layout = YUVFrameLayout(width: width, height: height, chroma: .yuv420)
    var planes = [UInt8](repeating: 0, count: layout.byteCount)
    try warmUp(renderer, make: make)
    let count = framesPerRow + 3
    var pending: PendingFrame?
    var delivered = Self.now()
    for i in 0..<count {
      let k = i * (Self.transitionFrames - 1) / max(1, count - 1)
      let t0 = Self.now()
      let list = try make(k)
      let t1 = Self.now()
      let next = try renderer.startPlanes(list, background: SIMD3(0, 0, 0))
      let t2 = Self.now()
      if let pending { try planes.withUnsafeMutableBytes { try renderer.finishPlanes(pending, into: $0) } }
      let t3 = Self.now()
      pending = next
      // Frame i − 1 is delivered; the first two deliveries are the warm-up.
      if i >= 3 {
        build.append(t1 - t0)
        start.append(t2 - t1)
        total.append(t3 - delivered)
        if let gpu = renderer as? GLRenderer {
          readback.append(gpu.lastReadbackSeconds * 1000)
          drawWait.append(gpu.lastDrawingWaitSeconds * 1000)
        }
      }
      delivered = t3
    }
    if let pending { try planes.withUnsafeMutableBytes { try renderer.finishPlanes(pending, into: $0) } }
    return FrameRow(
      workload: name, backend: renderer.name + " overlapped planes", width: width, height: height,
      frames: total.count, medianMs: Self.median(total), p95Ms: Self.percentile(total, 0.95),
      buildMs: Self.median(build), renderMs: Self.median(start),
      drawWaitMs: drawWait.isEmpty ? nil : Self.median(drawWait),
      readbackMs: readback.isEmpty ? nil : Self.median(readback), convertMs: 0, peakRSSMiB: Self.peakRSSMiB())
  }
}
