// LayerKitGL: the GPU backend. Executes a RenderList with OpenGL ES 3 on a headless EGL display
// (Mesa surfaceless, EGL device, or GBM on a render node; no window system, no DISPLAY).
//
// GLRenderer is the public face: it opens the display, builds each program the first time a
// render needs it (a shader error names its file and line), and hands each list to the executor of
// LayerKitRender, which validates it, runs GLBackend's primitives (GLBackend.swift; the first
// checks the list against the driver's limits and the effects' parameters) and reads the target
// back top-down — or, for a video frame (startPlanes), converts it to BT.709 Y'CbCr 4:2:0 on the
// GPU and reads back only the planes.
//
// What it does not do: look at Layers, evaluate animations, filter textures in hardware (all
// sampling is the manual bilinear of RenderMath, for parity with the CPU reference), or share GL
// objects between renderers. Use one renderer from one thread at a time; it makes its context
// current at the start of each render and releases it at the end (or, with keepsContextCurrent,
// keeps it current on the one thread that renders).

import Foundation
import LayerKitRender

/// The GPU backend: executes a RenderList with OpenGL ES 3 on a headless EGL display.
public final class GLRenderer: PlanarRenderer {
  public let name = "gpu"

  /// The platform, driver and limits this renderer runs on.
  public var info: GLInfo { backend.context.info }

  /// The GL objects this renderer holds now: flat over a long render when nothing leaks (the
  /// benchmark's soak reports it). Any thread may read it.
  public var liveObjects: GLObjectCount { backend.context.liveObjects }

  /// On a hardware GPU (not on a software rasterizer: `PlanarRenderer.planarReadbackPays`).
  public var planarReadbackPays: Bool { !info.isSoftwareRasterizer }

  /// Internal, not private: the extensions in other files (picture shaders) reach it.
  let backend: GLBackend

  /// The programs this renderer has linked so far: layer variants, filters (the contents
  /// crossfade among them) and transition effects (the built-ins used, plus any registered).
  package var linkedProgramCounts: (layers: Int, filters: Int, transitions: Int) {
    (
      backend.quads.compactMap { $0 }.count, backend.filters.count + (backend.crossfadeProgram == nil ? 0 : 1),
      backend.transitions.count
    )
  }

  /// Builds every built-in program now rather than at its first use (a test that every shader
  /// compiles and links on this driver; a server that would rather pay at start).
  /// - Throws: `GLError.shaderCompile` / `.programLink` for the first that fails.
  package func buildAllPrograms() throws(GLError) {
    try backend.buildAllPrograms()
  }

  /// Opens a headless EGL display and creates an OpenGL ES 3 context; each program is built
  /// the first time a render needs it.
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
    backend = try GLBackend(environment: environment)
  }

  /// Executes `list` on the GPU.
  /// - Parameter list: the frame; validated first.
  /// - Returns: the target, RGBA8 premultiplied, rows top-down.
  /// - Throws: `RenderError.malformedList` (and the other cases of `RenderList.validate()`),
  ///   `.targetTooLarge` when the target or an image exceeds GL_MAX_TEXTURE_SIZE,
  ///   `.transitionParameters` for a transition pass the effects do not accept, and
  ///   `.backend(GLError)` when the driver fails.
  public func render(_ list: RenderList) throws -> Image {
    // The executor validates the list once; GLBackend.begin checks it against the driver's
    // limits and the effects' parameters before any GL call.
    let pixels: [UInt8]
    do {
      pixels = try backend.execute(list)
    } catch let error as GLError {
      throw RenderError.backend(error)
    }
    return try Image(width: list.width, height: list.height, pixels: pixels)
  }

  /// Keeps the context current on the rendering thread between renders instead of making it
  /// current at the start of each and releasing it at the end: one thread then renders every
  /// frame (the video commands' render thread) without two eglMakeCurrent calls a frame. A render
  /// from another thread fails with `GLError.contextCreation` while it is set. Setting it to false
  /// releases the context from the calling thread. Off by default.
  public var keepsContextCurrent: Bool {
    get { backend.context.staysCurrent }
    set {
      backend.context.staysCurrent = newValue
      if !newValue { backend.context.detach() }
    }
  }

  // MARK: - Overlapped frames

  /// Frames that may be started and not yet finished: a ring of two pixel buffers.
  public var framesInFlight: Int { GLBackend.framesInFlight }

  /// Draws `list` and starts copying its target into a pixel buffer of the ring, without waiting
  /// for either: the GPU works on them while the caller prepares the next frame.
  /// - Throws: as `render(_:)`; `RenderError.framesOutOfOrder` when `framesInFlight` frames are
  ///   already waiting to be finished.
  public func start(_ list: RenderList) throws -> PendingFrame {
    guard backend.startedFrames - backend.finishedFrames < UInt64(framesInFlight) else {
      throw RenderError.framesOutOfOrder("\(framesInFlight) frames are already waiting to be finished")
    }
    do {
      let serial = try backend.execute(list) { try backend.startReadBack($0) }
      return PendingFrame(width: list.width, height: list.height, serial: serial)
    } catch let error as GLError {
      throw RenderError.backend(error)
    }
  }

  /// Waits for a started frame's pixels: the same bytes `render(_:)` returns for its list.
  /// - Throws: `RenderError.framesOutOfOrder` for a frame that is not the oldest one waiting (or
  ///   was started with `startPlanes`); `.backend(GLError.readback)` when the copy fails or takes
  ///   more than a minute.
  public func finish(_ frame: PendingFrame) throws -> Image {
    let pixels: [UInt8]
    do {
      pixels = try backend.finishReadBack(frame)
    } catch let error as GLError {
      throw RenderError.backend(error)
    }
    return try Image(width: frame.width, height: frame.height, pixels: pixels)
  }

  // MARK: - Y'CbCr planes

  /// Draws `list`, converts its target on the GPU to BT.709 limited-range Y'CbCr 4:2:0
  /// (effects/yuv420_pack.frag: YUVConversion's integer arithmetic, so the same bytes) packed
  /// into an RGBA8 target whose bytes are the planar frame, and starts copying that into a pixel
  /// buffer of the ring (1.5 bytes a pixel instead of 4), without waiting for either. Shares the
  /// ring, and the order of finishing, with `start(_:)`.
  /// - Parameters:
  ///   - list: the frame; width and height even.
  ///   - background: the opaque colour translucent pixels are composited over.
  /// - Throws: as `start(_:)`; `RenderError.oddSizeForPlanes` for an odd width or height
  ///   (checked before anything is drawn).
  public func startPlanes(_ list: RenderList, background: SIMD3<UInt8>) throws -> PendingFrame {
    guard list.width % 2 == 0, list.height % 2 == 0 else {
      throw RenderError.oddSizeForPlanes(width: list.width, height: list.height)
    }
    guard backend.startedFrames - backend.finishedFrames < UInt64(framesInFlight) else {
      throw RenderError.framesOutOfOrder("\(framesInFlight) frames are already waiting to be finished")
    }
    do {
      let serial = try backend.execute(list) { try backend.startPlanesReadBack($0, background: background) }
      return PendingFrame(width: list.width, height: list.height, serial: serial)
    } catch let error as GLError {
      throw RenderError.backend(error)
    }
  }

  /// Waits for a frame started with `startPlanes` and writes its planes into `buffer`: Y'
  /// (width × height), then Cb, then Cr (width / 2 × height / 2 each), rows top-down.
  /// - Parameter buffer: exactly `RenderMath.YCbCr420.byteCount(width:height:)` bytes.
  /// - Throws: `RenderError.framesOutOfOrder` for a frame that is not the oldest one waiting or
  ///   was started with `start`, `.planeBufferSize` for a buffer of another size (either way the
  ///   frame stays waiting); `.backend(GLError.readback)` when the copy fails or takes more than
  ///   a minute.
  public func finishPlanes(_ frame: PendingFrame, into buffer: UnsafeMutableRawBufferPointer) throws {
    do {
      try backend.finishPlanesReadBack(frame, into: buffer)
    } catch let error as GLError {
      throw RenderError.backend(error)
    }
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
    let context = backend.context
    try context.makeCurrent()
    defer { context.releaseCurrent() }
    let program = try context.makeProgram(
      vertex: .file(vertex), fragment: .file(fragment), defines: defines)
    context.delete(program)
  }

  /// Loads a transition written in the gl-transitions form (`vec4 transition(vec2 uv)`,
  /// getFromColor / getToColor, progress, ratio, uniforms with `// = default`), unmodified:
  /// compiles and links it (hosted by transitions/transition_wrapper.frag) and makes it the
  /// effect `name` of later passes, replacing any effect of that name. GPU only: the CPU
  /// backend refuses such passes with `RenderError.gpuOnlyEffect`.
  /// - Parameters:
  ///   - name: the effect name passes use (`TransitionPass.effect`).
  ///   - file: the `.glsl` file.
  /// - Returns: the parsed source (its parameters and defaults).
  /// - Throws: `GLError.resourceMissing`, `.shaderCompile` naming the file and its own line (also
  ///   for a malformed uniform or default, a missing `transition` function, or a file that is not
  ///   UTF-8 text), `.programLink`.
  /// The largest transition shader file compiled (64 KiB: the built-ins are a few KiB each).
  public static let maxShaderSize = 64 << 10

  @discardableResult
  public func registerTransition(name: String, file: URL) throws(GLError) -> GLTransitionSource {
    // Bounded before it reaches the compiler (a 1.2 MB one-line shader crashed Mesa's).
    if let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int,
      size > GLRenderer.maxShaderSize
    {
      throw .unsupported(
        "\(file.path): \(size) bytes; a transition shader is at most \(GLRenderer.maxShaderSize) bytes")
    }
    guard let data = FileManager.default.contents(atPath: file.path) else { throw .resourceMissing(file.path) }
    guard let text = String(data: data, encoding: .utf8), !text.contains("\0") else {
      throw .shaderCompile(file: file.path, stage: .fragment, line: nil, message: "not UTF-8 text", excerpt: "")
    }
    let source = try TransitionProgram.parse(ShaderSource(file: file.path, text: text), expandsIncludes: false)
    try registerTransition(name: name, source: source)
    return source
  }

  /// Registers an effect already parsed in the gl-transitions form (a command parses a file
  /// once, to learn its parameters, and hands the value here): compiled, linked and checked as
  /// `registerTransition(name:file:)` does.
  /// - Throws: as `registerTransition(name:file:)`.
  public func registerTransition(name: String, source: GLTransitionSource) throws(GLError) {
    let context = backend.context
    try context.makeCurrent()
    defer { context.releaseCurrent() }
    let program = try TransitionProgram(context: context, source: source)
    let samplers = program.source.uniforms.filter { $0.type == .sampler2D }.count
    guard samplers <= TransitionProgram.maxExtraTextures else {
      context.delete(program.program)
      throw .unsupported(
        "\(source.file): \(samplers) sampler2D uniforms, at most \(TransitionProgram.maxExtraTextures)")
    }
    if let old = backend.transitions[name] { context.delete(old.program) }
    backend.transitions[name] = program
    do {
      try backend.checkFinite(effect: name, parameters: [:], file: source.file)
    } catch {
      backend.transitions[name] = nil
      context.delete(program.program)
      throw error
    }
  }

  /// Checks that registered transition `name` gives finite colours with `parameters` (those a
  /// user passed; `registerTransition` checks the defaults): drawn at progress 0, 0.1, …, 1
  /// between two test pictures into a float target.
  /// - Throws: `GLError.nonFiniteColor` naming the file, the progress and the pixel;
  ///   `.transitionParameters` for parameters the shader does not declare.
  public func checkTransition(name: String, parameters: [String: TransitionValue], file: String) throws(GLError) {
    let context = backend.context
    try context.makeCurrent()
    defer { context.releaseCurrent() }
    try backend.checkFinite(effect: name, parameters: parameters, file: file)
  }

  /// Image textures held between renders.
  package var cachedImageCount: Int { backend.images.count }
  /// Image textures kept for reuse by the next image of their size.
  package var freeImageTextureCount: Int { backend.images.freeCount }

  /// Surface textures (main target, groups, backdrop copies, filter outputs) held between renders.
  package var pooledTargetCount: Int { backend.targets.count }

  /// Groups kept between renders (drawn once while their ops and images stay the same).
  package var retainedGroupCount: Int { backend.retained.count }

  /// Seconds the last frame's readback spent copying the pixels into memory, after the GPU had
  /// finished (`lastDrawingWaitSeconds`).
  package var lastReadbackSeconds: Double { Double(backend.lastReadbackNanoseconds) / 1e9 }
  /// Seconds the last frame's readback waited for the GPU to finish drawing it (glFinish before
  /// glReadPixels; the fence of a pixel-pack buffer's copy, which includes the GPU's copy).
  package var lastDrawingWaitSeconds: Double { Double(backend.lastDrawingWaitNanoseconds) / 1e9 }

  /// The built-in shader file URL for `path` under `Shaders/` (for tests that pair a broken file
  /// with a good one).
  package static func builtInShaderURL(_ path: String) -> URL? {
    ShaderBundleLocator.url(path)
  }
}

extension GLRenderer: TransitionShaderHost {
  public func loadTransition(name: String, text: String, file: String) throws -> [TransitionUniform] {
    let source = try GLTransitionSource(text: text, file: file)
    try registerTransition(name: name, source: source)
    return source.uniforms
  }

  public var isSoftwareRasterizer: Bool { info.isSoftwareRasterizer }
}
