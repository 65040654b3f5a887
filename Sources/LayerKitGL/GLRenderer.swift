// LayerKitGL: the GPU backend. Executes a RenderList with OpenGL ES 3 on a headless EGL display
// (Mesa surfaceless, EGL device, or GBM on a render node; no window system, no DISPLAY).
//
// What it does: opens a display and an ES 3 context, compiles and links every built-in program at
// start-up (failing fast with the file and line of a shader error), and for each render executes
// the ops on surfaces: the main target (a surface covering the whole target) and one pooled RGBA8
// texture per group, backdrop copy and filter output, each the size of its bounds. Draws run
// layer_quad.{vert,frag} (the GLSL twin of RenderMath), filter passes run Shaders/effects,
// transition passes run Shaders/transitions (each effect hosted by transition_wrapper.frag, see
// TransitionProgram), and the main target is read back top-down.
//
// What it does not do: look at Layers, evaluate animations, filter textures in hardware (all
// sampling is the manual bilinear of RenderMath, for parity with the CPU reference), or share GL
// objects between renderers.
//
// Lifetime: a GLRenderer owns one EGL context and everything made in it: programs, the image
// texture cache (bounded: entries unused by the last few renders are freed), the pool of surface
// textures (bounded by what the last render used), the path-segment texture, and a reference to
// the shared EGL display. All of it is freed in deinit. Use one renderer from one thread at a
// time; it makes its context current at the start of each render and releases it at the end.

import CEGL
import Foundation
import LayerKitRender

/// The GPU backend: executes a RenderList with OpenGL ES 3 on a headless EGL display.
public final class GLRenderer: Renderer {
  public let name = "gpu"

  /// The platform, driver and limits this renderer runs on.
  public var info: GLInfo { context.info }

  private let context: GLContext
  private let vertexArray: VertexArrayHandle
  /// One program per compiled LayerQuadVariant, at `variant.index` (nil: never chosen).
  private let quads: [LayerQuadProgram?]
  /// One program per FilterKind.
  private let filters: [FilterKind: FilterProgram]
  /// One program per transition effect, by name: the built-ins (TransitionEffects.all), plus any
  /// registered with `registerTransition`.
  private var transitions: [String: TransitionProgram]
  /// Path segments, RGBA32F, `segmentRowWidth` texels a row, enough rows for
  /// RenderList.maxPathSegments.
  private let segments: TextureHandle
  private var images = ImageTextureCache()
  private var targets = RenderTargetPool()
  private var renderCount = 0
  /// The render target bounds each layer program's u_targetSize / u_targetOrigin were last set
  /// to (uniforms live in the program, so they are set only when the target changes).
  private var quadTargets = [PixelRect?](repeating: nil, count: LayerQuadVariant.tableSize)

  static let segmentRowWidth = 1024

  /// The programs this renderer has linked: layer variants, filters and transition effects (the
  /// built-ins, plus any registered since start-up).
  package var linkedProgramCounts: (layers: Int, filters: Int, transitions: Int) {
    (quads.compactMap { $0 }.count, filters.count, transitions.count)
  }

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
    let vertexArray = try context.makeVertexArray()
    var built = [LayerQuadProgram?](repeating: nil, count: LayerQuadVariant.tableSize)
    var builtFilters: [FilterKind: FilterProgram] = [:]
    var builtTransitions: [String: TransitionProgram] = [:]
    let segments: TextureHandle
    do {
      for variant in LayerQuadVariant.allCases {
        built[variant.index] = try LayerQuadProgram(context: context, variant: variant)
      }
      for kind in FilterKind.allCases {
        builtFilters[kind] = try FilterProgram(context: context, kind: kind)
      }
      for effect in TransitionEffects.all.values.sorted(by: { $0.name < $1.name }) {
        builtTransitions[effect.name] = try TransitionProgram(context: context, effect: effect)
      }
      let rows = (RenderList.maxPathSegments + Self.segmentRowWidth - 1) / Self.segmentRowWidth
      segments = try context.makeFloatTexture(width: Self.segmentRowWidth, height: rows)
    } catch {
      for q in built.compactMap({ $0 }) { context.delete(q.program) }
      for f in builtFilters.values { context.delete(f.program) }
      for t in builtTransitions.values { context.delete(t.program) }
      context.delete(vertexArray)
      throw error
    }
    self.vertexArray = vertexArray
    self.quads = built
    self.filters = builtFilters
    self.transitions = builtTransitions
    self.segments = segments
    try? context.bindTexture(nil)
  }

  deinit {
    // If the context is current on another thread, destroying it below still frees its objects.
    guard (try? context.makeCurrent()) != nil else { return }
    images.removeAll(context: context)
    targets.removeAll(context: context)
    for q in quads.compactMap({ $0 }) { context.delete(q.program) }
    for f in filters.values { context.delete(f.program) }
    for t in transitions.values { context.delete(t.program) }
    context.delete(segments)
    context.delete(vertexArray)
    context.releaseCurrent()
  }

  /// Executes `list` on the GPU.
  /// - Parameter list: the frame; validated first.
  /// - Returns: the target, RGBA8 premultiplied, rows top-down.
  /// - Throws: `RenderError.malformedList` (and the other cases of `RenderList.validate()`),
  ///   `.targetTooLarge` when the target or an image exceeds GL_MAX_TEXTURE_SIZE,
  ///   `.transitionParameters` for a transition pass the effects do not accept, and
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
    // Transition parameters are checked against the effects' uniforms before any GL call.
    do {
      try TransitionProgram.check(list, programs: transitions)
    } catch {
      throw RenderError.transitionParameters(error)
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
      try? context.unbindTextures()
      try? context.setBlending(true)
      context.releaseCurrent()
    }

    let imageTextures = try uploadImages(of: list)

    let main = try makeSurface(list.targetRect)
    try context.bindTarget(main.target)
    try context.setBlending(true)
    // The stored clear colour is the contract's unorm8 of clearColor; clearing with exact 8-bit
    // steps leaves the driver's own float→unorm rounding nothing to decide.
    let clear = RenderMath.unorm8(list.clearColor)
    try context.clear(SIMD4(Float(clear.x), Float(clear.y), Float(clear.z), Float(clear.w)) / 255)

    // The current target is the last of `stack`; finished surfaces are readable by id.
    var stack = [main]
    var surfaces: [Int: Surface] = [:]
    func surface(_ id: Int) throws(GLError) -> Surface { try Self.surface(id, in: surfaces) }
    for op in list.ops {
      switch op {
      case .pushGroup(_, let bounds):
        let group = try makeSurface(bounds)
        stack.append(group)
        try context.bindTarget(group.target)
        try context.clear(.zero)
      case .popGroup(let id):
        let group = stack.removeLast()
        surfaces[id] = group
        try context.bindTarget(stack[stack.count - 1].target)
      case .copyBackdrop(let id, let bounds):
        let current = stack[stack.count - 1]
        let copy = try makeSurface(bounds)
        try context.copy(from: current.target, covering: current.bounds, rect: bounds, into: copy.target.texture)
        surfaces[id] = copy
      case .filter(let pass):
        let input = try surface(pass.input)
        let output = try makeSurface(pass.bounds)
        try runFilter(pass, input: input, output: output)
        surfaces[pass.output] = output
        try context.bindTarget(stack[stack.count - 1].target)
      case .transition(let pass):
        let output = try makeSurface(pass.bounds)
        try runTransition(pass, from: try surface(pass.from), to: try surface(pass.to), output: output)
        surfaces[pass.output] = output
        try context.bindTarget(stack[stack.count - 1].target)
      case .draw(let draw):
        try runDraw(draw, into: stack[stack.count - 1], images: imageTextures, surfaces: surfaces)
      }
    }
    try context.setBlending(true)
    return try context.readPixels(main.target)
  }

  /// A pooled render target the size of `bounds`, covering those target pixels.
  private func makeSurface(_ bounds: PixelRect) throws(GLError) -> Surface {
    Surface(target: try targets.take(width: bounds.width, height: bounds.height, context: context), bounds: bounds)
  }

  /// Writes `output` (every pixel, blending off) from `input` with the pass's effect program.
  private func runFilter(_ pass: FilterPass, input: Surface, output: Surface) throws(GLError) {
    guard let program = filters[FilterKind(pass.operation)] else {
      throw .unsupported("no program for filter \(pass.operation)")
    }
    try context.bindTarget(output.target)
    try context.setBlending(false)
    try context.useProgram(program.program)
    try program.setPass(pass, inputBounds: input.bounds, context: context)
    try context.bindTexture(input.target.texture)
    glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
    try context.check("glDrawArrays (filter)")
  }

  /// Uploads (or finds in the cache) every image the list's draws reference, before anything is
  /// drawn.
  private func uploadImages(of list: RenderList) throws(GLError) -> [Int: TextureHandle] {
    var textures: [Int: TextureHandle] = [:]
    for op in list.ops {
      if case .draw(let draw) = op, case .texture(.image(let index), _) = draw.paint, textures[index] == nil {
        textures[index] = try images.texture(for: list.images[index], render: renderCount, context: context)
      }
    }
    return textures
  }

  /// A finished surface by id. RenderList.validate() guarantees every reference resolves.
  private static func surface(_ id: Int, in surfaces: [Int: Surface]) throws(GLError) -> Surface {
    guard let s = surfaces[id] else { throw .resourceMissing("surface \(id)") }
    return s
  }

  /// One draw op into the current target: its textures bound, its layer_quad variant chosen and
  /// set up, blending as its blend mode says.
  private func runDraw(
    _ draw: Draw, into current: Surface, images imageTextures: [Int: TextureHandle], surfaces: [Int: Surface]
  ) throws(GLError) {
    switch draw.paint {
    case .color: break
    case .texture(.image(let index), _): try context.bindTexture(imageTextures[index])
    case .texture(.surface(let id), _): try context.bindTexture(try Self.surface(id, in: surfaces).target.texture)
    }
    if let mask = draw.mask {
      try context.bindTexture(try Self.surface(mask.surface, in: surfaces).target.texture, unit: .mask)
    }
    let variant = LayerQuadVariant(draw)
    var backdropBounds: PixelRect?
    if variant.blend, let id = draw.backdrop {
      let backdrop = try Self.surface(id, in: surfaces)
      backdropBounds = backdrop.bounds
      try context.bindTexture(backdrop.target.texture, unit: .backdrop)
    }
    if let path = draw.shape.path, !path.segments.isEmpty {
      try uploadSegments(path.segments)
    }
    guard let quad = quads[variant.index] else {
      throw .unsupported("no layer_quad variant for \(variant)")
    }
    try context.useProgram(quad.program)
    if quadTargets[variant.index] != current.bounds {
      try quad.setTarget(current.bounds, context: context)
      quadTargets[variant.index] = current.bounds
    }
    try quad.setDraw(draw, backdropBounds: backdropBounds, context: context)
    // A blend mode composites in the shader against the backdrop and replaces the pixel.
    try context.setBlending(!variant.blend)
    glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
    try context.check("glDrawArrays")
  }

  /// Writes `output` (every pixel, blending off) from the two surfaces with the pass's effect.
  private func runTransition(_ pass: TransitionPass, from: Surface, to: Surface, output: Surface)
    throws(GLError)
  {
    // render() checked the effect and its parameters (TransitionProgram.check).
    guard let program = transitions[pass.effect] else { throw .unsupported("no program for transition \(pass.effect)") }
    let values: [TransitionValue?]
    do {
      values = try program.source.resolve(pass.parameters, effect: pass.effect)
    } catch {
      throw .transitionParameters(error)
    }
    try context.bindTarget(output.target)
    try context.setBlending(false)
    try context.useProgram(program.program)
    try program.setPass(pass, values: values, context: context)
    // The effect's own sampler2D parameters, on units extra0… in declaration order; one without
    // an image reads an unbound unit. Their textures come first: uploading one binds it (on the
    // paint unit), which would replace the from-surface bound before it.
    var extras: [(TextureHandle?, TextureUnit)] = []
    var unit = TransitionProgram.firstExtraUnit
    for (i, u) in program.source.uniforms.enumerated() where u.type == .sampler2D {
      guard let textureUnit = TextureUnit(rawValue: unit) else {
        throw .unsupported(
          "transition \(pass.effect): at most \(TransitionProgram.maxExtraTextures) sampler2D parameters")
      }
      var texture: TextureHandle?
      if case .image(let image)? = values[i] {
        texture = try images.texture(for: image, render: renderCount, context: context)
      }
      extras.append((texture, textureUnit))
      unit += 1
    }
    try context.bindTexture(from.target.texture, unit: .paint)
    try context.bindTexture(to.target.texture, unit: .mask)
    for (texture, textureUnit) in extras { try context.bindTexture(texture, unit: textureUnit) }
    glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
    try context.check("glDrawArrays (transition \(pass.effect))")
  }

  /// Uploads a path's segments (x0, y0, x1, y1) into the rows of the segment texture they fill.
  private func uploadSegments(_ list: [SIMD4<Float>]) throws(GLError) {
    let width = Self.segmentRowWidth
    let count = min(list.count, RenderList.maxPathSegments)
    let rows = (count + width - 1) / width
    var values = [Float](repeating: 0, count: rows * width * 4)
    for i in 0..<count {
      let s = list[i]
      values[i * 4] = s.x
      values[i * 4 + 1] = s.y
      values[i * 4 + 2] = s.z
      values[i * 4 + 3] = s.w
    }
    try context.upload(values, rows: rows, into: segments, unit: .segments)
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
  ///   for a malformed uniform or default, or a missing `transition` function), `.programLink`.
  @discardableResult
  public func registerTransition(name: String, file: URL) throws(GLError) -> GLTransitionSource {
    guard let text = try? String(contentsOf: file, encoding: .utf8) else { throw .resourceMissing(file.path) }
    try context.makeCurrent()
    defer { context.releaseCurrent() }
    let program = try TransitionProgram(context: context, file: file.path, text: text)
    let samplers = program.source.uniforms.filter { $0.type == .sampler2D }.count
    guard samplers <= TransitionProgram.maxExtraTextures else {
      context.delete(program.program)
      throw .unsupported(
        "\(file.path): \(samplers) sampler2D uniforms, at most \(TransitionProgram.maxExtraTextures)")
    }
    if let old = transitions[name] { context.delete(old.program) }
    transitions[name] = program
    return program.source
  }

  /// Image textures held between renders.
  package var cachedImageCount: Int { images.count }

  /// Surface textures (main target, groups, backdrop copies, filter outputs) held between renders.
  package var pooledTargetCount: Int { targets.count }

  /// The built-in shader file URL for `path` under `Shaders/` (for tests that pair a broken file
  /// with a good one).
  package static func builtInShaderURL(_ path: String) -> URL? {
    ShaderBundleLocator.url(path)
  }
}
