// GLContext's readback: reading a target's pixels at once, or through pixel-pack buffers and fences.

import CEGL
import Dispatch
import LayerKitRender

extension GLContext {
  /// The pixels of an RGBA32F `target`, rows in GL row order.
  func readFloatPixels(_ target: RenderTarget) throws(GLError) -> [Float] {
    try bindTarget(target)
    var pixels = [Float](repeating: 0, count: target.width * target.height * 4)
    pixels.withUnsafeMutableBytes { bytes in
      glReadPixels(
        0, 0, GLsizei(target.width), GLsizei(target.height), GLenum(GL_RGBA), GLenum(GL_FLOAT), bytes.baseAddress)
    }
    try check("glReadPixels (float)")
    return pixels
  }

  /// Waits until the GPU has finished every command given so far (the drawing of a frame), so
  /// that a readback after it measures the copy alone.
  func waitForDrawing() {
    glFinish()
  }

  /// The pixels of `target`, RGBA8, rows in GL row order, which is target row order (no flip:
  /// the vertex shader maps target row j to GL row j).
  func readPixels(_ target: RenderTarget) throws(GLError) -> [UInt8] {
    try bindTarget(target)
    let count = target.width * target.height * 4
    // glReadPixels writes every byte: no zero-fill first.
    let pixels = FrameMemory.bytes(count: count) { bytes in
      glReadPixels(
        0, 0, GLsizei(target.width), GLsizei(target.height), GLenum(GL_RGBA),
        GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
    }
    try check("glReadPixels")
    return pixels
  }

  // MARK: - Asynchronous readback

  func makePackBuffer(bytes: Int) throws(GLError) -> BufferHandle {
    var name: GLuint = 0
    glGenBuffers(1, &name)
    count(\.buffers, +1)
    glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), name)
    glBufferData(GLenum(GL_PIXEL_PACK_BUFFER), GLsizeiptr(bytes), nil, GLenum(GL_STREAM_READ))
    glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
    do {
      try check("glBufferData (pixel pack)")
    } catch {
      glDeleteBuffers(1, &name)
      count(\.buffers, -1)
      throw error
    }
    return BufferHandle(name: name, bytes: bytes)
  }

  func delete(_ buffer: BufferHandle) {
    var name = buffer.name
    glDeleteBuffers(1, &name)
    count(\.buffers, -1)
  }

  func delete(_ sync: GLsync) {
    glDeleteSync(sync)
    count(\.syncs, -1)
  }

  /// Starts copying `target` into `buffer` (at least width × height × 4 bytes) and returns the
  /// fence that signals when the copy is done; the drawing is flushed, so the GPU starts on it.
  func startReadPixels(_ target: RenderTarget, into buffer: BufferHandle) throws(GLError) -> GLsync {
    try bindTarget(target)
    glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer.name)
    glReadPixels(
      0, 0, GLsizei(target.width), GLsizei(target.height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
    glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0)
    try check("glReadPixels (into a pixel pack buffer)")
    guard let sync = glFenceSync(GLenum(GL_SYNC_GPU_COMMANDS_COMPLETE), 0) else {
      throw .readback("glFenceSync returned no fence")
    }
    count(\.syncs, +1)
    glFlush()
    return sync
  }

  /// Waits for `sync` (at most `timeout` seconds), then copies the first `count` bytes of
  /// `buffer` out.
  func finishReadPixels(
    _ buffer: BufferHandle, sync: GLsync, count: Int, timeout: Double = 60, waited: UnsafeMutablePointer<UInt64>? = nil
  ) throws(GLError) -> [UInt8] {
    var failure: GLError?
    // Every byte is written (or, on failure, the array is dropped).
    let pixels = FrameMemory.bytes(count: count) { bytes in
      do throws(GLError) {
        try finishReadPixels(
          buffer, sync: sync, into: UnsafeMutableRawBufferPointer(bytes), timeout: timeout, waited: waited)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return pixels
  }

  /// Waits for `sync` (at most `timeout` seconds), then copies the first `destination.count`
  /// bytes of `buffer` into `destination`.
  /// - Parameter waited: set to the nanoseconds spent waiting for the fence (the drawing and the
  ///   GPU's copy), apart from the mapping and the copy out.
  func finishReadPixels(
    _ buffer: BufferHandle, sync: GLsync, into destination: UnsafeMutableRawBufferPointer, timeout: Double = 60,
    waited: UnsafeMutablePointer<UInt64>? = nil
  ) throws(GLError) {
    let start = DispatchTime.now().uptimeNanoseconds
    let status = glClientWaitSync(sync, GLbitfield(GL_SYNC_FLUSH_COMMANDS_BIT), GLuint64(timeout * 1e9))
    waited?.pointee = DispatchTime.now().uptimeNanoseconds - start
    guard status == GLenum(GL_ALREADY_SIGNALED) || status == GLenum(GL_CONDITION_SATISFIED) else {
      throw .readback(
        status == GLenum(GL_TIMEOUT_EXPIRED)
          ? "the GPU did not finish within \(Int(timeout)) s" : "glClientWaitSync failed")
    }
    let count = destination.count
    guard count > 0, let base = destination.baseAddress else { return }
    glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), buffer.name)
    defer { glBindBuffer(GLenum(GL_PIXEL_PACK_BUFFER), 0) }
    guard let mapped = glMapBufferRange(GLenum(GL_PIXEL_PACK_BUFFER), 0, GLsizeiptr(count), GLbitfield(GL_MAP_READ_BIT))
    else {
      throw .readback("glMapBufferRange failed (0x\(String(glGetError(), radix: 16)))")
    }
    base.copyMemory(from: mapped, byteCount: count)
    guard glUnmapBuffer(GLenum(GL_PIXEL_PACK_BUFFER)) == GLboolean(GL_TRUE) else {
      throw .readback("the pixel buffer's contents were lost while mapped")
    }
  }
}
