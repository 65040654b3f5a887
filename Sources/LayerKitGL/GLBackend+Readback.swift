// GLBackend's overlapped readback (OverlappingRenderer): frames started and finished through the ring.

import CEGL
import Foundation
import LayerKitRender

extension GLBackend {
  /// Starts copying `surface` (the finished target) into the next buffer of the ring; the
  /// drawing and the copy are flushed and run while the caller goes on.
  /// - Returns: the frame's serial.
  func startReadBack(_ surface: Surface) throws -> UInt64 {
    try startCopy(surface.target, planes: false, count: surface.target.width * surface.target.height * 4)
  }

  /// Converts `surface` (the finished target, both sides even) to Y'CbCr 4:2:0 planes packed
  /// into a pooled RGBA8 target (effects/yuv420_pack.frag), and starts copying that target into
  /// the next buffer of the ring, as `startReadBack`.
  /// - Returns: the frame's serial.
  func startPlanesReadBack(_ surface: Surface, background: SIMD3<UInt8>) throws -> UInt64 {
    try checkRing()
    let (width, height) = (surface.target.width, surface.target.height)
    let planarProgram = try planar()
    let packed = PlanarPackProgram.packedSize(width: width, height: height)
    let output = try targets.take(width: packed.width, height: packed.height, context: context)
    // Back in the pool for later takes: GL orders the copy below before any later drawing into it.
    defer { targets.release(output) }
    try context.bindTarget(output)
    try context.setBlending(false)
    try context.bindTexture(surface.target.texture, unit: .paint)
    // The Y' rows, then the Cb / Cr rows, each with its own program.
    let rows = [
      (planarProgram.luma, 0..<packed.lumaRows), (planarProgram.chroma, packed.lumaRows..<packed.height),
    ]
    defer { try? context.setScissor(nil) }
    for (pass, range) in rows {
      try context.setScissor(PixelRect(x: 0, y: range.lowerBound, width: packed.width, height: range.count))
      try context.useProgram(pass.program)
      try planarProgram.set(pass, width: width, height: height, background: background, context: context)
      glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
      try context.check("glDrawArrays (Y'CbCr pack)")
    }
    return try startCopy(
      output, planes: true, count: RenderMath.YCbCr420.byteCount(width: width, height: height))
  }

  private func checkRing() throws {
    guard startedFrames - finishedFrames < UInt64(Self.framesInFlight) else {
      throw RenderError.framesOutOfOrder("\(Self.framesInFlight) frames are already waiting to be finished")
    }
  }

  /// Starts copying the whole of `target` into the next buffer of the ring, of which the first
  /// `count` bytes will be the frame's.
  private func startCopy(_ target: RenderTarget, planes: Bool, count: Int) throws -> UInt64 {
    try checkRing()
    let slot = Int(startedFrames % UInt64(Self.framesInFlight))
    let bytes = target.width * target.height * 4
    if let old = ring[slot], old.buffer.bytes < bytes {
      if let sync = old.sync { context.delete(sync) }
      context.delete(old.buffer)
      ring[slot] = nil
    }
    let buffer = try ring[slot]?.buffer ?? context.makePackBuffer(bytes: bytes)
    ring[slot] = (buffer, nil, planes, count)
    ring[slot]!.sync = try context.startReadPixels(target, into: buffer)
    startedFrames += 1
    return startedFrames - 1
  }

  /// Waits for a started frame's copy and returns its pixels (rows top-down). A frame whose wait
  /// fails counts as finished, so the next one can still be.
  func finishReadBack(_ frame: PendingFrame) throws -> [UInt8] {
    let (buffer, sync, count) = try waiting(frame, planes: false)
    try context.makeCurrent()
    let start = DispatchTime.now().uptimeNanoseconds
    var waited: UInt64 = 0
    defer { finished(frame, since: start, waited: waited) }
    return try context.finishReadPixels(buffer, sync: sync, count: count, waited: &waited)
  }

  /// Waits for a frame started with `startPlanesReadBack` and copies its planes into `buffer`
  /// (exactly their size). A frame whose wait fails counts as finished.
  func finishPlanesReadBack(_ frame: PendingFrame, into destination: UnsafeMutableRawBufferPointer) throws {
    let (buffer, sync, count) = try waiting(frame, planes: true)
    guard destination.count == count else {
      throw RenderError.planeBufferSize(expected: count, actual: destination.count)
    }
    try context.makeCurrent()
    let start = DispatchTime.now().uptimeNanoseconds
    var waited: UInt64 = 0
    defer { finished(frame, since: start, waited: waited) }
    try context.finishReadPixels(buffer, sync: sync, into: destination, waited: &waited)
  }

  /// The copy under way for `frame`, when it is the oldest frame waiting and was started the
  /// way it is being finished (`planes`).
  private func waiting(_ frame: PendingFrame, planes: Bool) throws -> (BufferHandle, GLsync, Int) {
    guard frame.serial == finishedFrames, finishedFrames < startedFrames else {
      throw RenderError.framesOutOfOrder(
        frame.serial < finishedFrames
          ? "frame \(frame.serial) was finished already"
          : "frame \(frame.serial) finished before frame \(finishedFrames), which started first")
    }
    let slot = Int(frame.serial % UInt64(Self.framesInFlight))
    guard let entry = ring[slot], let sync = entry.sync else {
      throw RenderError.framesOutOfOrder("frame \(frame.serial) has no readback under way")
    }
    guard entry.planes == planes else {
      throw RenderError.framesOutOfOrder(
        entry.planes
          ? "frame \(frame.serial) was started as Y'CbCr planes (startPlanes): finish it with finishPlanes"
          : "frame \(frame.serial) was started as RGBA (start): finish it with finish")
    }
    return (entry.buffer, sync, entry.count)
  }

  /// Ends a frame's wait, whether its copy succeeded or not.
  private func finished(_ frame: PendingFrame, since start: UInt64, waited: UInt64) {
    let slot = Int(frame.serial % UInt64(Self.framesInFlight))
    if let sync = ring[slot]?.sync { context.delete(sync) }
    ring[slot]?.sync = nil
    finishedFrames += 1
    lastDrawingWaitNanoseconds = waited
    lastReadbackNanoseconds = DispatchTime.now().uptimeNanoseconds - start - waited
    context.releaseCurrent()
  }
}
