// The one place GL state lives: the EGL context of one renderer, the GL state it last set (so
// redundant binds are skipped), and the create/delete pairs for every GL object.
//
// Contexts are bound to threads, so the renderer makes this context current at the start of each
// render and releases it at the end; a renderer may then move between threads between renders.

import CEGL
import Foundation
import LayerKitRender

final class GLContext {
  let connection: EGLDisplayConnection
  private let context: EGLContext
  /// A 1×1 pbuffer, only when the display lacks EGL_KHR_surfaceless_context.
  private let surface: EGLSurface?
  let info: GLInfo

  // The state last set through this object.
  private var currentProgram: GLuint = 0
  /// The texture bound to GL_TEXTURE_2D of each unit the programs read (see TextureUnit).
  private var boundTextures = [GLuint](repeating: 0, count: TextureUnit.count)
  /// The GL objects this context has made and not deleted (the soak's leak check), readable
  /// from any thread (`liveObjects`).
  private let live = Locked(GLObjectCount())

  func count(_ kind: WritableKeyPath<GLObjectCount, Int>, _ change: Int) {
    live.withLock { $0[keyPath: kind] += change }
  }

  var liveObjects: GLObjectCount { live.current }
  private var activeUnit = 0
  private var boundFramebuffer: GLuint = 0
  private var viewportSize: (Int, Int) = (0, 0)
  private var blending = true
  /// Whether the blend function is additive (ONE, ONE) rather than source-over.
  private var additive = false

  init(connection: EGLDisplayConnection) throws(GLError) {
    self.connection = connection
    let display = connection.display
    guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) == EGLBoolean(EGL_TRUE) else {
      throw .contextCreation("eglBindAPI(EGL_OPENGL_ES_API) failed (\(eglErrorName()))")
    }
    let extensions = eglString(display, EGL_EXTENSIONS) ?? []
    let surfaceless = extensions.contains("EGL_KHR_surfaceless_context")

    let configAttributes: [EGLint] = [
      EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
      EGL_SURFACE_TYPE, surfaceless ? -1 /* EGL_DONT_CARE */ : EGL_PBUFFER_BIT,
      EGL_NONE,
    ]
    var config: EGLConfig?
    var configCount: EGLint = 0
    guard eglChooseConfig(display, configAttributes, &config, 1, &configCount) == EGLBoolean(EGL_TRUE),
      configCount > 0, let config
    else {
      throw .contextCreation(
        "no EGL config with EGL_OPENGL_ES3_BIT on the \(connection.platform.rawValue) display (\(eglErrorName()))"
      )
    }
    let contextAttributes: [EGLint] = [
      EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 0, EGL_NONE,
    ]
    guard let context = eglCreateContext(display, config, nil, contextAttributes) else {
      throw .contextCreation("eglCreateContext(OpenGL ES 3.0) failed (\(eglErrorName()))")
    }
    var surface: EGLSurface?
    if !surfaceless {
      let pbufferAttributes: [EGLint] = [EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE]
      surface = eglCreatePbufferSurface(display, config, pbufferAttributes)
      if surface == nil {
        let why = eglErrorName()
        eglDestroyContext(display, context)
        throw .contextCreation(
          "no EGL_KHR_surfaceless_context and eglCreatePbufferSurface failed (\(why))")
      }
    }
    guard eglMakeCurrent(display, surface, surface, context) == EGLBoolean(EGL_TRUE) else {
      let why = eglErrorName()
      if let surface { eglDestroySurface(display, surface) }
      eglDestroyContext(display, context)
      throw .contextCreation("eglMakeCurrent failed (\(why))")
    }
    self.context = context
    self.surface = surface

    var major: GLint = 0
    glGetIntegerv(GLenum(GL_MAJOR_VERSION), &major)
    var maxTextureSize: GLint = 0
    glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &maxTextureSize)
    info = GLInfo(
      platform: connection.platform.rawValue,
      eglVendor: eglText(display, EGL_VENDOR),
      eglVersion: eglText(display, EGL_VERSION),
      renderer: GLContext.glString(GL_RENDERER),
      version: GLContext.glString(GL_VERSION),
      shadingLanguageVersion: GLContext.glString(GL_SHADING_LANGUAGE_VERSION),
      maxTextureSize: Int(maxTextureSize),
      device: connection.deviceName)
    guard major >= 3 else {
      releaseCurrent()
      throw .unsupported("OpenGL ES 3.0 or later is needed, the context is \(info.version)")
    }

    // Fixed state for every pass: premultiplied source-over, no depth, no dithering.
    glDisable(GLenum(GL_DITHER))
    glDisable(GLenum(GL_DEPTH_TEST))
    glDisable(GLenum(GL_STENCIL_TEST))
    glDisable(GLenum(GL_SCISSOR_TEST))
    glDisable(GLenum(GL_CULL_FACE))
    glEnable(GLenum(GL_BLEND))
    glBlendEquation(GLenum(GL_FUNC_ADD))
    glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
    glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
    glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
    glActiveTexture(GLenum(GL_TEXTURE0))
    do {
      try check("initial GL state")
    } catch {
      releaseCurrent()
      throw error
    }
  }

  deinit {
    let display = connection.display
    eglMakeCurrent(display, nil, nil, nil)
    if let surface { eglDestroySurface(display, surface) }
    eglDestroyContext(display, context)
  }

  /// Whether `releaseCurrent` leaves the context current (GLRenderer.keepsContextCurrent): renders
  /// on one thread then skip two eglMakeCurrent calls (and the flush of the release) each.
  var staysCurrent = false

  /// Makes this context current on the calling thread (nothing to do when it is already).
  func makeCurrent() throws(GLError) {
    if eglGetCurrentContext() == context { return }
    // The bound API is per thread; OpenGL ES is the default, but say so for threads that changed it.
    eglBindAPI(EGLenum(EGL_OPENGL_ES_API))
    guard eglMakeCurrent(connection.display, surface, surface, context) == EGLBoolean(EGL_TRUE) else {
      let error = eglErrorName()
      throw .contextCreation(
        "eglMakeCurrent failed (\(error))"
          + (staysCurrent && error == "EGL_BAD_ACCESS"
            ? ": the context is current on another thread (a renderer that keeps its context current renders on one thread)"
            : ""))
    }
  }

  /// Detaches the context from the calling thread, so the next render may run on another one;
  /// unless it stays current.
  func releaseCurrent() {
    guard !staysCurrent else { return }
    eglMakeCurrent(connection.display, nil, nil, nil)
  }

  /// Detaches the context from the calling thread whether or not it stays current.
  func detach() {
    if eglGetCurrentContext() == context { eglMakeCurrent(connection.display, nil, nil, nil) }
  }

  private static func glString(_ name: Int32) -> String {
    glGetString(GLenum(name)).map { String(cString: $0) } ?? "unknown"
  }

  /// In debug builds, throws the first pending GL error, naming the call that raised it.
  @inline(__always)
  func check(_ call: @autoclosure () -> String) throws(GLError) {
    #if DEBUG
      let code = glGetError()
      if code != GLenum(GL_NO_ERROR) {
        while glGetError() != GLenum(GL_NO_ERROR) {}
        throw .glError(call: call(), code: Int(code))
      }
    #endif
  }

  // MARK: - Cached binds

  func useProgram(_ program: ProgramHandle) throws(GLError) {
    guard currentProgram != program.name else { return }
    glUseProgram(program.name)
    try check("glUseProgram")
    currentProgram = program.name
  }

  /// Binds `texture` (or none) to GL_TEXTURE_2D of `unit`.
  func bindTexture(_ texture: TextureHandle?, unit: TextureUnit = .paint) throws(GLError) {
    let name = texture?.name ?? 0
    guard boundTextures[unit.rawValue] != name else { return }
    try activate(unit)
    glBindTexture(GLenum(GL_TEXTURE_2D), name)
    try check("glBindTexture")
    boundTextures[unit.rawValue] = name
  }

  private func activate(_ unit: TextureUnit) throws(GLError) {
    guard activeUnit != unit.rawValue else { return }
    glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit.rawValue)))
    try check("glActiveTexture")
    activeUnit = unit.rawValue
  }

  /// Unbinds every texture unit (at the end of a render, so no texture stays bound while idle).
  func unbindTextures() throws(GLError) {
    for unit in TextureUnit.allCases { try bindTexture(nil, unit: unit) }
  }

  /// Turns the fixed source-over blend on (draws) or off (filter passes and blend-mode draws,
  /// which compute the stored value themselves).
  func setBlending(_ on: Bool) throws(GLError) {
    try setAdditive(false)
    guard blending != on else { return }
    if on { glEnable(GLenum(GL_BLEND)) } else { glDisable(GLenum(GL_BLEND)) }
    try check(on ? "glEnable(GL_BLEND)" : "glDisable(GL_BLEND)")
    blending = on
  }

  /// Turns the fixed additive blend on (`BlendMode.plusLighter`: dst = src + dst, which the
  /// RGBA8 target clamps), or back to source-over, blending on in both cases.
  func setAdditiveBlending() throws(GLError) {
    try setBlending(true)
    try setAdditive(true)
  }

  private func setAdditive(_ on: Bool) throws(GLError) {
    guard additive != on else { return }
    glBlendFunc(GLenum(GL_ONE), GLenum(on ? GL_ONE : GL_ONE_MINUS_SRC_ALPHA))
    try check("glBlendFunc")
    additive = on
  }

  /// Draws into `target` from now on, with a viewport covering it.
  func bindTarget(_ target: RenderTarget) throws(GLError) {
    if boundFramebuffer != target.framebuffer.name {
      glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target.framebuffer.name)
      try check("glBindFramebuffer")
      boundFramebuffer = target.framebuffer.name
    }
    if viewportSize != (target.width, target.height) {
      glViewport(0, 0, GLsizei(target.width), GLsizei(target.height))
      try check("glViewport")
      viewportSize = (target.width, target.height)
    }
  }

  /// Limits drawing to `rect` of the bound target (GL rows, which are target rows), or to none
  /// of it (nil: the scissor test off, as every other pass wants it).
  func setScissor(_ rect: PixelRect?) throws(GLError) {
    if let rect {
      glEnable(GLenum(GL_SCISSOR_TEST))
      glScissor(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
    } else {
      glDisable(GLenum(GL_SCISSOR_TEST))
    }
    try check("glScissor")
  }

  /// Fills the bound target with `rgba` (already quantized to 8-bit steps, so no rounding rule
  /// of the driver's clear path comes into play).
  func clear(_ rgba: SIMD4<Float>) throws(GLError) {
    glClearColor(rgba.x, rgba.y, rgba.z, rgba.w)
    glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
    try check("glClear")
  }

  // MARK: - Create / delete pairs

  /// An RGBA8 texture, filled with `pixels` (rows top-down: row 0 lands at t = 0) or undefined.
  /// Filtering is NEAREST so the texture is complete; the shader only uses texelFetch.
  func makeTexture(width: Int, height: Int, pixels: [UInt8]?) throws(GLError) -> TextureHandle {
    let texture = try makeStorage(width: width, height: height, format: GLenum(GL_RGBA8))
    do {
      if let pixels {
        pixels.withUnsafeBytes { bytes in
          glTexSubImage2D(
            GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA),
            GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
        try check("glTexSubImage2D")
      }
    } catch {
      delete(texture)
      throw error
    }
    return texture
  }

  /// Replaces every texel of an RGBA8 texture with `pixels` (rows top-down, its size).
  func replaceContents(of texture: TextureHandle, with pixels: [UInt8]) throws(GLError) {
    precondition(pixels.count == texture.width * texture.height * 4)
    try bindTexture(texture)
    try activate(.paint)
    pixels.withUnsafeBytes { bytes in
      glTexSubImage2D(
        GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(texture.width), GLsizei(texture.height), GLenum(GL_RGBA),
        GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
    }
    try check("glTexSubImage2D")
  }

  /// An RGBA32F texture of undefined contents (path segments; read with texelFetch only).
  func makeFloatTexture(width: Int, height: Int) throws(GLError) -> TextureHandle {
    try makeStorage(width: width, height: height, format: GLenum(GL_RGBA32F))
  }

  /// Replaces the first `rows` rows of an RGBA32F texture with `values` (4 floats a texel, at
  /// least rows × width × 4 of them).
  func upload(_ values: [Float], rows: Int, into texture: TextureHandle, unit: TextureUnit) throws(GLError) {
    precondition(values.count >= rows * texture.width * 4)
    try bindTexture(texture, unit: unit)
    try activate(unit)
    values.withUnsafeBytes { bytes in
      glTexSubImage2D(
        GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(texture.width), GLsizei(rows), GLenum(GL_RGBA),
        GLenum(GL_FLOAT), bytes.baseAddress)
    }
    try check("glTexSubImage2D (float)")
  }

  /// An R8 texture (one unorm byte a texel: coverage masks).
  func makeByteTexture(width: Int, height: Int) throws(GLError) -> TextureHandle {
    try makeStorage(width: width, height: height, format: GLenum(GL_R8))
  }

  /// Replaces the top-left `width × height` texels of an R8 texture with `bytes` (rows
  /// top-down, tightly packed: the unpack alignment is 1).
  func upload(
    bytes: [UInt8], width: Int, height: Int, into texture: TextureHandle, unit: TextureUnit
  ) throws(GLError) {
    precondition(bytes.count >= width * height && width <= texture.width && height <= texture.height)
    try bindTexture(texture, unit: unit)
    try activate(unit)
    bytes.withUnsafeBytes { raw in
      glTexSubImage2D(
        GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE),
        raw.baseAddress)
    }
    try check("glTexSubImage2D (bytes)")
  }

  /// An immutable-format texture with one level, NEAREST and clamp-to-edge (so it is complete;
  /// the shaders only use texelFetch), bound to the paint unit.
  private func makeStorage(width: Int, height: Int, format: GLenum) throws(GLError) -> TextureHandle {
    var name: GLuint = 0
    glGenTextures(1, &name)
    count(\.textures, +1)
    let texture = TextureHandle(name: name, width: width, height: height)
    do {
      try bindTexture(texture)
      try activate(.paint)
      glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
      glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
      glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
      glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
      glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, format, GLsizei(width), GLsizei(height))
      try check("glTexStorage2D")
    } catch {
      delete(texture)
      throw error
    }
    return texture
  }

  func delete(_ texture: TextureHandle) {
    // GL unbinds a deleted texture from every unit of the current context; so does the cache.
    for unit in boundTextures.indices where boundTextures[unit] == texture.name { boundTextures[unit] = 0 }
    var name = texture.name
    glDeleteTextures(1, &name)
    count(\.textures, -1)
  }

  /// Copies the pixels of the bound render target `source` (covering target pixels
  /// `sourceBounds`) inside target pixels `rect` into texel (0, 0) onwards of `destination`:
  /// an exact copy, no filtering, no flip (both are stored in target row order).
  func copy(
    from source: RenderTarget, covering sourceBounds: PixelRect, rect: PixelRect,
    into destination: TextureHandle
  ) throws(GLError) {
    try bindTarget(source)
    try bindTexture(destination)
    try activate(.paint)
    glCopyTexSubImage2D(
      GLenum(GL_TEXTURE_2D), 0, 0, 0, GLint(rect.x - sourceBounds.x), GLint(rect.y - sourceBounds.y),
      GLsizei(rect.width), GLsizei(rect.height))
    try check("glCopyTexSubImage2D")
  }

  /// An RGBA32F texture with a framebuffer drawing into it, or nil where float colour buffers
  /// are not renderable (OpenGL ES 3.0 without EXT_color_buffer_float).
  func makeFloatRenderTarget(width: Int, height: Int) throws(GLError) -> RenderTarget? {
    let texture = try makeStorage(width: width, height: height, format: GLenum(GL_RGBA32F))
    return try? attachFramebuffer(to: texture)
  }

  /// A texture of `width × height` with a complete framebuffer drawing into it.
  func makeRenderTarget(width: Int, height: Int) throws(GLError) -> RenderTarget {
    try attachFramebuffer(to: try makeTexture(width: width, height: height, pixels: nil))
  }

  /// A framebuffer drawing into `texture`, bound; on failure both are deleted.
  /// - Throws: `.framebufferIncomplete` when the texture's format is not renderable here.
  private func attachFramebuffer(to texture: TextureHandle) throws(GLError) -> RenderTarget {
    var name: GLuint = 0
    glGenFramebuffers(1, &name)
    count(\.framebuffers, +1)
    let target = RenderTarget(texture: texture, framebuffer: FramebufferHandle(name: name))
    do throws(GLError) {
      glBindFramebuffer(GLenum(GL_FRAMEBUFFER), name)
      boundFramebuffer = name
      glFramebufferTexture2D(
        GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture.name, 0)
      try check("glFramebufferTexture2D")
      let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
      guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
        throw GLError.framebufferIncomplete(status: Int(status))
      }
    } catch {
      delete(target)
      throw error
    }
    return target
  }

  func delete(_ target: RenderTarget) {
    if boundFramebuffer == target.framebuffer.name {
      glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
      boundFramebuffer = 0
    }
    var name = target.framebuffer.name
    glDeleteFramebuffers(1, &name)
    count(\.framebuffers, -1)
    delete(target.texture)
  }

  func makeVertexArray() throws(GLError) -> VertexArrayHandle {
    var name: GLuint = 0
    glGenVertexArrays(1, &name)
    count(\.vertexArrays, +1)
    glBindVertexArray(name)
    try check("glBindVertexArray")
    return VertexArrayHandle(name: name)
  }

  func delete(_ vertexArray: VertexArrayHandle) {
    var name = vertexArray.name
    glDeleteVertexArrays(1, &name)
    count(\.vertexArrays, -1)
  }

  func delete(_ program: ProgramHandle) {
    if currentProgram == program.name {
      glUseProgram(0)
      currentProgram = 0
    }
    glDeleteProgram(program.name)
    count(\.programs, -1)
  }
}
