// LayerKitGL: the GPU backend. Executes a RenderList with OpenGL ES 3 on a headless EGL display
// (Mesa surfaceless, EGL device, or GBM on a render node; no window system, no DISPLAY).
//
// What it does: opens a display and an ES 3 context, compiles and links every built-in program at
// start-up (failing fast with the file and line of a shader error), and for each render clears a
// target texture, draws each op's pixel bounds with layer_quad.{vert,frag} (the GLSL twin of
// RenderMath), renders groups into pooled textures, and reads the target back top-down.
//
// What it does not do: look at Layers, evaluate animations, filter textures in hardware (all
// sampling is the manual bilinear of RenderMath, for parity with the CPU reference), or share GL
// objects between renderers.
//
// Lifetime: a GLRenderer owns one EGL context and everything made in it: programs, the image
// texture cache (bounded: entries unused by the last few renders are freed), the pool of render
// targets (bounded by what the last render used), and a reference to the shared EGL display.
// All of it is freed in deinit. Use one renderer from one thread at a time; it makes its context
// current at the start of each render and releases it at the end.

import CEGL
import Foundation
import LayerKit

/// The GPU backend: executes a RenderList with OpenGL ES 3 on a headless EGL display.
public final class GLRenderer: Renderer {
  public let name = "gpu"

  /// The platform, driver and limits this renderer runs on.
  public var info: GLInfo { context.info }

  private let context: GLContext
  private let vertexArray: VertexArrayHandle
  /// One program per LayerQuadVariant, indexed by `variant.index`.
  private let quads: [LayerQuadProgram]
  private var images = ImageTextureCache()
  private var targets = RenderTargetPool()
  private var renderCount = 0

  /// Opens a headless EGL display, creates an OpenGL ES 3 context and builds every program.
  ///
  /// The platforms are tried in the order surfaceless, device, gbm; the environment variable
  /// `LAYERKIT_EGL_PLATFORM` (surfaceless | device | gbm) forces one.
  /// - Throws: `GLError.noDisplay` (one line: what was tried and the fix), `.contextCreation`,
  ///   `.unsupported`, `.resourceMissing`, `.shaderCompile`, `.programLink`.
  public convenience init() throws(GLError) {
    try self.init(environment: ProcessInfo.processInfo.environment)
  }

  /// As `init()`, reading `LAYERKIT_EGL_PLATFORM` from `environment` instead of the process's.
  package init(environment: [String: String]) throws(GLError) {
    let connection = try EGLDisplayConnection.open(environment: environment)
    let context = try GLContext(connection: connection)
    self.context = context
    defer { context.releaseCurrent() }
    vertexArray = try context.makeVertexArray()
    var built: [LayerQuadProgram] = []
    do {
      for variant in LayerQuadVariant.allCases {
        built.append(try LayerQuadProgram(context: context, variant: variant))
      }
    } catch {
      for q in built { context.delete(q.program) }
      context.delete(vertexArray)
      throw error
    }
    quads = built
  }

  deinit {
    // If the context is current on another thread, destroying it below still frees its objects.
    guard (try? context.makeCurrent()) != nil else { return }
    images.removeAll(context: context)
    targets.removeAll(context: context)
    for q in quads { context.delete(q.program) }
    context.delete(vertexArray)
    context.releaseCurrent()
  }

  /// Executes `list` on the GPU.
  /// - Parameter list: the frame; validated first.
  /// - Returns: the target, RGBA8 premultiplied, rows top-down.
  /// - Throws: `RenderError.malformedList` (and the other cases of `RenderList.validate()`),
  ///   `.targetTooLarge` when the target or an image exceeds GL_MAX_TEXTURE_SIZE, and
  ///   `.backendFailure` naming the `GLError` when the driver fails.
  public func render(_ list: RenderList) throws -> Image {
    try list.validate()
    let limit = context.info.maxTextureSize
    guard list.width <= limit, list.height <= limit else {
      throw RenderError.targetTooLarge(width: list.width, height: list.height, limit: limit)
    }
    for image in list.images where image.width > limit || image.height > limit {
      throw RenderError.targetTooLarge(width: image.width, height: image.height, limit: limit)
    }
    let pixels: [UInt8]
    do {
      pixels = try execute(list)
    } catch {
      throw RenderError.backendFailure("GPU render failed: \(error)")
    }
    return try Image(width: list.width, height: list.height, pixels: pixels)
  }

  /// Runs the ops of a validated list and reads the target back.
  private func execute(_ list: RenderList) throws(GLError) -> [UInt8] {
    try context.makeCurrent()
    renderCount += 1
    defer {
      targets.endRender(context: context)
      images.evict(after: renderCount, context: context)
      try? context.bindTexture(nil)
      context.releaseCurrent()
    }

    // Upload what the draws reference before drawing anything.
    var imageTextures: [Int: TextureHandle] = [:]
    for op in list.ops {
      if case .draw(let draw) = op, case .texture(.image(let index), _) = draw.paint,
        imageTextures[index] == nil
      {
        imageTextures[index] = try images.texture(
          for: list.images[index], render: renderCount, context: context)
      }
    }

    let target = try targets.take(width: list.width, height: list.height, context: context)
    try context.bindTarget(target)
    // The stored clear colour is the contract's unorm8 of clearColor; clearing with exact 8-bit
    // steps leaves the driver's own float→unorm rounding nothing to decide.
    let clear = RenderMath.unorm8(list.clearColor)
    try context.clear(SIMD4(Float(clear.x), Float(clear.y), Float(clear.z), Float(clear.w)) / 255)

    for q in quads {
      try context.useProgram(q.program)
      try q.setTarget(width: list.width, height: list.height, context: context)
    }

    var stack = [target]
    var groups: [Int: RenderTarget] = [:]
    for op in list.ops {
      switch op {
      case .pushGroup(let id):
        let group = try targets.take(width: list.width, height: list.height, context: context)
        groups[id] = group
        stack.append(group)
        try context.bindTarget(group)
        try context.clear(.zero)
      case .popGroup:
        stack.removeLast()
        try context.bindTarget(stack[stack.count - 1])
      case .draw(let draw):
        switch draw.paint {
        case .color: break
        case .texture(.image(let index), _): try context.bindTexture(imageTextures[index])
        case .texture(.group(let id), _): try context.bindTexture(groups[id]?.texture)
        }
        let quad = quads[LayerQuadVariant(draw).index]
        try context.useProgram(quad.program)
        try quad.setDraw(draw, context: context)
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
        try context.check("glDrawArrays")
      }
    }
    return try context.readPixels(target)
  }

  // MARK: - For tests and tools

  /// Compiles and links a program from two shader files, then deletes it: checks a shader the
  /// way start-up checks the built-in ones.
  /// - Parameters:
  ///   - vertex: a vertex shader file.
  ///   - fragment: a fragment shader file.
  ///   - defines: `#define name value` lines inserted after the version directive (a `#line` keeps the file's
  ///     line numbers).
  /// - Throws: `GLError.resourceMissing`, `.shaderCompile` naming the file and line,
  ///   `.programLink`.
  package func checkProgram(vertex: URL, fragment: URL, defines: [(String, String)] = [])
    throws(GLError)
  {
    try context.makeCurrent()
    defer { context.releaseCurrent() }
    let program = try context.makeProgram(
      vertex: .file(vertex), fragment: .file(fragment), defines: defines)
    context.delete(program)
  }

  /// Image textures held between renders.
  package var cachedImageCount: Int { images.count }

  /// Render targets (main target and groups) held between renders.
  package var pooledTargetCount: Int { targets.count }

  /// The built-in shader file URL for `path` under `Shaders/` (for tests that pair a broken file
  /// with a good one).
  package static func builtInShaderURL(_ path: String) -> URL? {
    ShaderBundleLocator.url(path)
  }
}
