// Picture shaders (ShaderPainter): pictures a user's fragment shader makes alone, editly's `gl`
// layers. A program per pair of files (PictureShaderProgram), drawn by GLBackend into a pooled
// render target between renders and read back upright and premultiplied.
//
// The draw leaves the GL state renders rely on as it found it: the bound framebuffer, the
// viewport, the program and the textures change only through GLContext's cached binds (so the
// cache stays true, and a render binds its own target and program anyway); blending is on again
// afterwards, as `end()` leaves it; the quad's vertex array and buffer are its own, and the
// vertex array a render draws with (gl_VertexID, no attributes) is bound again. Between a
// `start` and its `finish` the pending frame's copy into its pixel buffer was issued before the
// picture's draw, and GL runs commands in order: the draw may reuse the frame's released target
// (as the next frame's draws may) without touching the copy, and neither the ring nor its fences
// are touched. glReadPixels into memory waits for the work before it, that copy included.

import CEGL
import Foundation
import LayerKitRender

/// The picture shaders of a backend: programs by handle, the handles by files, the quad.
struct PictureShaders {
  /// The files a handle was made from.
  struct Files: Hashable {
    let fragment: String
    let vertex: String?
  }

  /// The programs; handle h is `programs[h - 1]`.
  var programs: [PictureShaderProgram] = []
  var handles: [Files: Int] = [:]
  /// The vertex array and buffer of the triangle fan (-1, -1), (1, -1), (1, 1), (-1, 1); made on
  /// first use.
  var quad: (array: VertexArrayHandle, buffer: BufferHandle)?

  /// The quad's corners, in clip space, in fan order: editly's.
  static let corners: [Float] = [-1, -1, 1, -1, 1, 1, -1, 1]

  /// Deletes every program and the quad; the context must be current.
  mutating func removeAll(context: GLContext) {
    for picture in programs { context.delete(picture.program) }
    programs = []
    handles = [:]
    if let quad {
      context.delete(quad.array)
      context.delete(quad.buffer)
    }
    quad = nil
  }
}

extension GLRenderer: ShaderPainter {
  /// Compiles and links a picture shader as WebGL 1 does (GLSL ES 1.00 unless a file says
  /// otherwise; no defines, includes or `#line` added): `fragment` with `vertex`, or with
  /// layer/picture_shader.vert (nil). The same files (by standardized path) give the same
  /// handle; a failure is not remembered, so a corrected file can be tried again.
  /// - Throws: `GLError.resourceMissing` for a file that does not exist or cannot be read;
  ///   `.shaderCompile` naming the file, the stage and the line (also for a file larger than
  ///   `maxShaderSize`, not UTF-8 text or with an include line, a vertex shader with no active
  ///   vec2 attribute `position`, and `resolution` / `time` of another type than vec2 / float);
  ///   `.programLink`; `.contextCreation` from another thread while `keepsContextCurrent` is set.
  public func makePictureShader(fragment: URL, vertex: URL?) throws(GLError) -> Int {
    try backend.makePictureShader(fragment: fragment, vertex: vertex)
  }

  /// Draws picture shader `shader` into a `width`×`height` RGBA8 target with `resolution` =
  /// (width, height) and `time`, and reads it back: premultiplied (the shader's colour is taken
  /// as straight alpha), rows top-down (GL row 0, `gl_FragCoord.y` 0.5, is the bottom row), not
  /// mirrored. Call it from the thread that renders; between a `start` and its `finish` too.
  /// - Throws: `RenderError.invalidTargetSize` for a side below 1, `.targetTooLarge` for a side
  ///   beyond `Image.maxDimension` or the driver's texture, renderbuffer or viewport limit,
  ///   `ImageError.tooLarge` beyond `Image.maxPixelCount`, `.nonFiniteValue` for a time that is
  ///   not a finite number, `.backend(GLError)` for a handle this renderer did not make
  ///   (`.resourceMissing`) or a failure of the driver.
  public func paintPicture(_ shader: Int, width: Int, height: Int, time: Double) throws -> Image {
    guard width > 0, height > 0 else { throw RenderError.invalidTargetSize(width: width, height: height) }
    guard time.isFinite else { throw RenderError.nonFiniteValue(layer: "picture shader", property: "time") }
    let pixels: [UInt8]
    do {
      pixels = try backend.paintPicture(shader, width: width, height: height, time: Float(time))
    } catch let error as GLError {
      throw RenderError.backend(error)
    }
    return try Image(width: width, height: height, pixels: pixels)
  }

  /// Picture shaders made so far (distinct pairs of files).
  package var pictureShaderCount: Int { backend.pictures.programs.count }
}

extension GLBackend {
  /// As `GLRenderer.makePictureShader`.
  func makePictureShader(fragment: URL, vertex: URL?) throws(GLError) -> Int {
    let files = PictureShaders.Files(
      fragment: fragment.standardizedFileURL.path, vertex: vertex?.standardizedFileURL.path)
    if let handle = pictures.handles[files] { return handle }
    try context.makeCurrent()
    defer { context.releaseCurrent() }
    let program = try PictureShaderProgram(context: context, fragment: fragment, vertex: vertex)
    do {
      try checkFinite(program, file: fragment.path)
    } catch {
      context.delete(program.program)
      throw error
    }
    pictures.programs.append(program)
    pictures.handles[files] = pictures.programs.count
    return pictures.programs.count
  }

  /// Draws `picture` at 16×16 into a float target at time 0, 0.1, …, 1 (editly's progress) and
  /// throws for the first colour that is not a finite number: in a frame, where colours are
  /// 8-bit, it would silently come out black (the rule transitions follow: `checkFinite`).
  /// Skipped where float colour buffers are not renderable. The context must be current.
  private func checkFinite(_ picture: PictureShaderProgram, file: String) throws(GLError) {
    let n = 16
    guard let output = try context.makeFloatRenderTarget(width: n, height: n) else { return }
    defer { context.delete(output) }
    for step in 0...10 {
      let time = Float(step) / 10
      try drawPicture(picture, into: output, width: n, height: n, time: time)
      let pixels = try context.readFloatPixels(output)
      if let i = pixels.firstIndex(where: { !$0.isFinite }) {
        throw .nonFiniteColor(
          file: file, progress: time, x: (i / 4) % n, y: n - 1 - (i / 4) / n,
          value: pixels[i].isNaN ? "NaN" : "infinite")
      }
    }
  }

  /// Draws picture shader `handle` at `width`×`height` (both at least 1) and `time`; returns its
  /// pixels premultiplied, rows top-down. Leaves the state renders rely on as it was (the file's
  /// header).
  func paintPicture(_ handle: Int, width: Int, height: Int, time: Float) throws -> [UInt8] {
    guard handle >= 1, handle <= pictures.programs.count else {
      throw GLError.resourceMissing("picture shader \(handle): no such handle from makePictureShader on this renderer")
    }
    let picture = pictures.programs[handle - 1]
    try context.makeCurrent()
    defer { context.releaseCurrent() }
    let limit = min(Image.maxDimension, context.info.maxTextureSize, Self.pictureLimit())
    guard width <= limit, height <= limit else {
      throw RenderError.targetTooLarge(width: width, height: height, limit: limit)
    }
    try Image.validate(width: width, height: height)
    let target = try targets.take(width: width, height: height, context: context)
    // Back in the pool for later takes: GL orders the read below before any later drawing into it.
    defer { targets.release(target) }
    try drawPicture(picture, into: target, width: width, height: height, time: time)
    let rows = try context.readPixels(target)
    return Self.uprightPremultiplied(rows, width: width, height: height)
  }

  /// Draws `picture` over all of `target` (blending off, cleared first); leaves the state renders
  /// rely on as it was. The context must be current.
  private func drawPicture(
    _ picture: PictureShaderProgram, into target: RenderTarget, width: Int, height: Int, time: Float
  ) throws(GLError) {
    var renderArray: GLint = 0
    glGetIntegerv(GLenum(GL_VERTEX_ARRAY_BINDING), &renderArray)
    defer {
      glBindVertexArray(GLuint(renderArray))
      // Every other pass sets blending as it needs; begin and end leave it on.
      try? context.setBlending(true)
    }
    let quad = try pictureQuad()
    try context.bindTarget(target)
    try context.setBlending(false)
    // Transparent where the shader discards (no colour of an earlier use of the target shows).
    try context.clear(.zero)
    try context.useProgram(picture.program)
    try picture.set(width: width, height: height, time: time, context: context)
    glBindVertexArray(quad.array.name)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), quad.buffer.name)
    glEnableVertexAttribArray(picture.position)
    glVertexAttribPointer(picture.position, 2, GLenum(GL_FLOAT), GLboolean(GL_FALSE), 0, nil)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
    glDrawArrays(GLenum(GL_TRIANGLE_FAN), 0, 4)
    // Programs differ in the attribute's location: the quad's array enables only the current one.
    glDisableVertexAttribArray(picture.position)
    try context.check("glDrawArrays (picture shader)")
  }

  /// The largest side the driver renders to besides its texture size: the renderbuffer size and
  /// the viewport's dimensions. The context must be current.
  private static func pictureLimit() -> Int {
    var renderbuffer: GLint = 0
    glGetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &renderbuffer)
    var viewport: [GLint] = [0, 0]
    glGetIntegerv(GLenum(GL_MAX_VIEWPORT_DIMS), &viewport)
    return Int(min(renderbuffer, viewport[0], viewport[1]))
  }

  /// The quad's vertex array and buffer, made on first use. Making them binds the array: the
  /// caller binds the render's own back.
  private func pictureQuad() throws(GLError) -> (array: VertexArrayHandle, buffer: BufferHandle) {
    if let quad = pictures.quad { return quad }
    let array = try context.makeVertexArray()
    var name: GLuint = 0
    glGenBuffers(1, &name)
    context.count(\.buffers, +1)
    let buffer = BufferHandle(name: name, bytes: PictureShaders.corners.count * MemoryLayout<Float>.size)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), name)
    PictureShaders.corners.withUnsafeBytes {
      glBufferData(GLenum(GL_ARRAY_BUFFER), GLsizeiptr($0.count), $0.baseAddress, GLenum(GL_STATIC_DRAW))
    }
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), 0)
    do {
      try context.check("glBufferData (picture quad)")
    } catch {
      context.delete(buffer)
      context.delete(array)
      throw error
    }
    pictures.quad = (array, buffer)
    return (array, buffer)
  }

  /// GL's rows (bottom-up, straight alpha) as an image's: rows top-down, each colour channel
  /// times alpha / 255, rounded to nearest (255 is odd: no ties).
  static func uprightPremultiplied(_ rows: [UInt8], width: Int, height: Int) -> [UInt8] {
    let rowBytes = width * 4
    var out = [UInt8](repeating: 0, count: rows.count)
    rows.withUnsafeBufferPointer { from in
      out.withUnsafeMutableBufferPointer { to in
        for y in 0..<height {
          let source = (height - 1 - y) * rowBytes
          let destination = y * rowBytes
          for x in stride(from: 0, to: rowBytes, by: 4) {
            let a = UInt32(from[source + x + 3])
            for c in 0..<3 {
              let value = UInt32(from[source + x + c])
              to[destination + x + c] = a == 255 ? UInt8(value) : UInt8((value * a + 127) / 255)
            }
            to[destination + x + 3] = UInt8(a)
          }
        }
      }
    }
    return out
  }
}
