// The GPU's primitives of the backend contract (RenderBackend, docs/ARCHITECTURE.md): surfaces
// are pooled RGBA8 render targets, draws run layer_quad.{vert,frag} (the GLSL twin of
// RenderMath), filter passes Shaders/effects, transition passes Shaders/transitions (hosted by
// transition_wrapper.frag, see TransitionProgram), contents crossfades effects/crossfade.frag.
// A frame read back as Y'CbCr planes (PlanarRenderer) is converted and packed by
// effects/yuv420_pack.frag (PlanarPackProgram) into a target whose bytes are the planes, and goes
// through the same ring of pixel-pack buffers as an RGBA frame.
// The executor in LayerKitRender walks the ops; nothing here does.
//
// Lifetime: a GLBackend owns one EGL context and everything made in it: programs, the image
// texture cache (bounded: entries unused by the last few renders are freed), the pool of surface
// textures (bounded by what the last render used), the path-segment texture, and a reference to
// the shared EGL display. All of it is freed in deinit. One thread at a time: `begin` makes the
// context current, `end` releases it.

import CEGL
import Foundation
import LayerKitRender

final class GLBackend: RenderBackend {
  let context: GLContext
  private let vertexArray: VertexArrayHandle
  // Programs are built the first time a render needs them (GLBackend+Programs.swift): a
  // process that renders a fade links the few programs a fade takes, not all of them (each
  // costs tens of milliseconds on a driver with no shader cache yet).
  /// One program per LayerQuadVariant, at `variant.index`, once built (nil: not yet).
  var quads = [LayerQuadProgram?](repeating: nil, count: LayerQuadVariant.tableSize)
  /// One program per FilterKind, once built.
  var filters: [FilterKind: FilterProgram] = [:]
  /// The contents crossfade program, once built.
  var crossfadeProgram: CrossfadeProgram?
  /// The Y'CbCr 4:2:0 conversion and packing of a frame read back as planes, once built.
  var planarProgram: PlanarPackProgram?
  /// One program per transition effect, by name: the built-ins (TransitionEffects.all) once
  /// built, plus any registered with `GLRenderer.registerTransition`.
  var transitions: [String: TransitionProgram] = [:]
  /// Path segments, RGBA32F, `segmentRowWidth` texels a row, enough rows for
  /// RenderList.maxPathSegments.
  private let segments: TextureHandle
  /// Coverage masks (Shape.coverage), R8, grown to the largest mask drawn so far; each mask is
  /// uploaded into its top-left corner.
  private var coverage: TextureHandle?
  /// Where each coverage mask of the current render lies in the coverage texture, by the address
  /// of its bytes (the draw the executor hands over shares them with the list): all of them
  /// packed into one atlas uploaded by `begin`, so drawing never waits on an upload. Empty when
  /// they do not fit one texture; each is then uploaded at (0, 0) just before its draw.
  private var coverageAtlas: [UnsafeRawPointer: SIMD2<Int32>] = [:]
  var images = ImageTextureCache()
  var targets = RenderTargetPool()
  var retained = RetainedGroups<Surface>()
  var renderCount = 0
  /// The picture shaders made so far (GLRenderer+PictureShaders.swift).
  var pictures = PictureShaders()
  /// Between a begin that made the context current and its end.
  private var rendering = false
  /// The textures of the current render's images, by id.
  private var imageTextures: [ImageID: TextureHandle] = [:]
  /// The render target bounds each layer program's u_targetSize / u_targetOrigin were last set
  /// to (uniforms live in the program, so they are set only when the target changes).
  private var quadTargets = [PixelRect?](repeating: nil, count: LayerQuadVariant.tableSize)

  static let segmentRowWidth = 1024

  /// Opens a headless EGL display (LAYERKIT_EGL_PLATFORM in `environment` forces one) and
  /// creates an OpenGL ES 3 context; programs are built as renders need them.
  init(environment: [String: String]) throws(GLError) {
    let connection = try EGLDisplayConnection.open(environment: environment)
    let context = try GLContext(connection: connection)
    self.context = context
    defer { context.releaseCurrent() }
    let vertexArray = try context.makeVertexArray()
    let segments: TextureHandle
    do {
      let rows = (RenderList.maxPathSegments + Self.segmentRowWidth - 1) / Self.segmentRowWidth
      segments = try context.makeFloatTexture(width: Self.segmentRowWidth, height: rows)
    } catch {
      context.delete(vertexArray)
      throw error
    }
    self.vertexArray = vertexArray
    self.segments = segments
    try? context.bindTexture(nil)
  }

  deinit {
    // If the context is current on another thread, destroying it below still frees its objects.
    guard (try? context.makeCurrent()) != nil else { return }
    images.removeAll(context: context)
    for surface in retained.removeAll() { context.delete(surface.target) }
    targets.removeAll(context: context)
    pictures.removeAll(context: context)
    deletePrograms()
    context.delete(segments)
    if let coverage { context.delete(coverage) }
    context.delete(vertexArray)
    for case let slot? in ring {
      if let sync = slot.sync { context.delete(sync) }
      context.delete(slot.buffer)
    }
    context.releaseCurrent()
  }

  // MARK: - RenderBackend

  func begin(_ list: RenderList) throws {
    let limit = context.info.maxTextureSize
    guard list.width <= limit, list.height <= limit else {
      throw RenderError.targetTooLarge(width: list.width, height: list.height, limit: limit)
    }
    for image in list.images where image.width > limit || image.height > limit {
      throw RenderError.targetTooLarge(width: image.width, height: image.height, limit: limit)
    }
    // The built-in effects the list names, built if this is their first use; then the
    // transition parameters checked against the effects' uniforms before anything is drawn.
    try buildTransitions(list)
    do {
      try TransitionProgram.check(list, programs: transitions)
    } catch {
      throw RenderError.transitionParameters(error)
    }
    try context.makeCurrent()
    rendering = true
    renderCount += 1
    try context.setBlending(true)
    // Every image the list's draws read, uploaded (or found in the cache) before anything is drawn.
    imageTextures = [:]
    for op in list.ops {
      guard case .draw(let draw) = op else { continue }
      for id in draw.paint.images where imageTextures[id] == nil {
        imageTextures[id] = try images.texture(for: list[image: id], render: renderCount, context: context)
      }
    }
    try uploadCoverageAtlas(list)
  }

  func end() {
    // A begin that failed before making the context current left nothing to undo.
    guard rendering else { return }
    rendering = false
    imageTextures = [:]
    coverageAtlas = [:]
    targets.endRender(context: context)
    images.evict(after: renderCount, context: context)
    try? context.unbindTextures()
    try? context.setBlending(true)
    context.releaseCurrent()
  }

  /// A pooled render target the size of `bounds`, covering those target pixels, cleared to `fill`.
  func makeSurface(_ bounds: PixelRect, fill: SIMD4<UInt8>?) throws -> Surface {
    let surface = Surface(
      target: try targets.take(width: bounds.width, height: bounds.height, context: context), bounds: bounds)
    guard let fill else { return surface }
    try context.bindTarget(surface.target)
    // Clearing with exact 8-bit steps leaves the driver's own float→unorm rounding nothing to decide.
    try context.clear(SIMD4(Float(fill.x), Float(fill.y), Float(fill.z), Float(fill.w)) / 255)
    return surface
  }

  func copy(_ bounds: PixelRect, of source: Surface) throws -> Surface {
    let copy = Surface(
      target: try targets.take(width: bounds.width, height: bounds.height, context: context), bounds: bounds)
    try context.copy(from: source.target, covering: source.bounds, rect: bounds, into: copy.target.texture)
    return copy
  }

  func release(_ surface: Surface) {
    targets.release(surface.target)
  }

  func keep(_ surface: Surface) {
    targets.detach(surface.target)
  }

  func readBack(_ surface: Surface) throws -> [UInt8] {
    try context.setBlending(true)
    let start = DispatchTime.now().uptimeNanoseconds
    // The drawing finished first, so the readback's time is the copy's alone.
    context.waitForDrawing()
    let drawn = DispatchTime.now().uptimeNanoseconds
    defer {
      lastDrawingWaitNanoseconds = drawn - start
      lastReadbackNanoseconds = DispatchTime.now().uptimeNanoseconds - drawn
    }
    return try context.readPixels(surface.target)
  }

  /// For the benchmark's stage breakdown, of the last readBack or finishReadBack: the wait for
  /// the GPU (the drawing, and for a pixel-pack buffer its copy too: the fence) …
  var lastDrawingWaitNanoseconds: UInt64 = 0
  /// … and the copy into the caller's memory after it.
  var lastReadbackNanoseconds: UInt64 = 0

  // MARK: - Overlapped readback (OverlappingRenderer)
  // The ring's state (stored properties); its methods are in GLBackend+Readback.swift.

  /// Frames that may be drawn and not yet read back.
  static let framesInFlight = 2
  /// The pixel-pack buffers frames are read back through, one per frame in flight (frame n uses
  /// n mod framesInFlight), each with the fence of the copy it holds, whether that copy is of
  /// Y'CbCr planes (startPlanesReadBack) and how many of its bytes are the frame's; made on first
  /// use, remade larger when a frame needs more.
  var ring: [(buffer: BufferHandle, sync: GLsync?, planes: Bool, count: Int)?] =
    Array(repeating: nil, count: framesInFlight)
  /// Frames whose readback started, and frames finished (in order: the next to finish is
  /// `finishedFrames`).
  var startedFrames: UInt64 = 0
  var finishedFrames: UInt64 = 0

  func filter(_ pass: FilterPass, input: Surface, into output: Surface) throws {
    try runFilter(pass, input: input, output: output)
  }

  func transition(_ pass: TransitionPass, from: Surface, to: Surface, into output: Surface) throws {
    try runTransition(pass, from: from, to: to, output: output)
  }

  /// Mixes the two images' textures texel by texel into a surface of their size (blending off).
  func crossfade(_ fade: ContentsCrossfade, images list: RenderList) throws -> Surface {
    let size = list[image: (fade.from ?? fade.to)!]
    let output = Surface(
      target: try targets.take(width: size.width, height: size.height, context: context),
      bounds: PixelRect(x: 0, y: 0, width: size.width, height: size.height))
    try context.bindTarget(output.target)
    try context.setBlending(false)
    let crossfadeProgram = try crossfade()
    try context.useProgram(crossfadeProgram.program)
    try crossfadeProgram.set(weight: fade.weight, from: fade.from != nil, to: fade.to != nil, context: context)
    try context.bindTexture(fade.from.flatMap { imageTextures[$0] }, unit: .paint)
    try context.bindTexture(fade.to.flatMap { imageTextures[$0] }, unit: .mask)
    glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
    try context.check("glDrawArrays (crossfade)")
    return output
  }

  func draw(_ draw: Draw, into target: Surface, inputs: DrawInputs<Surface>) throws {
    try context.bindTarget(target.target)
    try runDraw(draw, into: target, inputs: inputs)
  }

  // MARK: - Passes

  /// Writes `output` (every pixel, blending off) from `input` with the pass's effect program.
  private func runFilter(_ pass: FilterPass, input: Surface, output: Surface) throws(GLError) {
    let program = try filterProgram(FilterKind(pass.operation))
    try context.bindTarget(output.target)
    try context.setBlending(false)
    try context.useProgram(program.program)
    try program.setPass(pass, inputBounds: input.bounds, context: context)
    try context.bindTexture(input.target.texture)
    glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
    try context.check("glDrawArrays (filter)")
  }

  /// One draw op into the current target: its textures bound, its layer_quad variant chosen and
  /// set up, blending as its blend mode says.
  private func runDraw(_ draw: Draw, into current: Surface, inputs: DrawInputs<Surface>) throws(GLError) {
    switch inputs.texture {
    case nil: break
    case .image(let id): try context.bindTexture(imageTextures[id])
    case .surface(let surface): try context.bindTexture(surface.target.texture)
    }
    if let mask = inputs.mask {
      try context.bindTexture(mask.target.texture, unit: .mask)
    }
    let variant = LayerQuadVariant(draw)
    var backdropBounds: PixelRect?
    if variant.blend, let backdrop = inputs.backdrop {
      backdropBounds = backdrop.bounds
      try context.bindTexture(backdrop.target.texture, unit: .backdrop)
    }
    if let path = draw.shape.path, !path.segments.isEmpty {
      try uploadSegments(path.segments)
    }
    var coverageOrigin = SIMD2<Int32>.zero
    if let mask = draw.shape.coverage, !mask.bounds.isEmpty {
      if let origin = mask.bytes.withUnsafeBytes({ $0.baseAddress.flatMap { coverageAtlas[$0] } }) {
        coverageOrigin = origin
      } else {
        try uploadCoverage(mask)
      }
    }
    let quad = try quadProgram(variant)
    try context.useProgram(quad.program)
    if quadTargets[variant.index] != current.bounds {
      try quad.setTarget(current.bounds, context: context)
      quadTargets[variant.index] = current.bounds
    }
    try quad.setDraw(draw, backdropBounds: backdropBounds, coverageOrigin: coverageOrigin, context: context)
    // A blend mode composites in the shader against the backdrop and replaces the pixel;
    // plus-lighter and source-over blend in place, fixed-function.
    if draw.blendMode == .plusLighter {
      try context.setAdditiveBlending()
    } else {
      try context.setBlending(!variant.blend)
    }
    glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
    try context.check("glDrawArrays")
  }

  /// Packs every coverage mask of `list` into rows of one atlas (shelves, left to right) and
  /// uploads it once; leaves `coverageAtlas` empty when they do not fit the largest texture.
  private func uploadCoverageAtlas(_ list: RenderList) throws(GLError) {
    coverageAtlas = [:]
    var masks: [CoverageMask] = []
    for op in list.ops {
      if case .draw(let d) = op, let mask = d.shape.coverage, !mask.bounds.isEmpty { masks.append(mask) }
    }
    guard !masks.isEmpty else { return }
    let limit = context.info.maxTextureSize
    let width = min(limit, max(1024, masks.map(\.bounds.width).max()!))
    var places: [SIMD2<Int32>] = []
    var (x, y, shelf) = (0, 0, 0)
    for mask in masks {
      let b = mask.bounds
      if x + b.width > width {
        (x, y, shelf) = (0, y + shelf, 0)
      }
      places.append(SIMD2(Int32(x), Int32(y)))
      x += b.width
      shelf = max(shelf, b.height)
    }
    let height = y + shelf
    guard height <= limit else { return }
    var atlas = [UInt8](repeating: 0, count: width * height)
    atlas.withUnsafeMutableBufferPointer { out in
      for (mask, place) in zip(masks, places) {
        let b = mask.bounds
        mask.bytes.withUnsafeBufferPointer { rows in
          for row in 0..<b.height {
            let to = (Int(place.y) + row) * width + Int(place.x)
            out.baseAddress!.advanced(by: to).update(
              from: rows.baseAddress!.advanced(by: row * b.width), count: b.width)
          }
        }
      }
    }
    try uploadCoverage(atlas, width: width, height: height)
    for (mask, place) in zip(masks, places) {
      mask.bytes.withUnsafeBytes { if let address = $0.baseAddress { coverageAtlas[address] = place } }
    }
  }

  /// Uploads a coverage mask into the top-left corner of the coverage texture.
  private func uploadCoverage(_ mask: CoverageMask) throws(GLError) {
    try uploadCoverage(mask.bytes, width: mask.bounds.width, height: mask.bounds.height)
  }

  /// Uploads `w × h` coverage bytes into the top-left corner of the coverage texture, first
  /// growing it (to the next multiple of 256 on each side) when they do not fit.
  private func uploadCoverage(_ bytes: [UInt8], width w: Int, height h: Int) throws(GLError) {
    let old = (width: coverage?.width ?? 0, height: coverage?.height ?? 0)
    if let texture = coverage, texture.width < w || texture.height < h {
      context.delete(texture)
      coverage = nil
    }
    if coverage == nil {
      func grown(_ n: Int, _ old: Int) -> Int { max(old, (n + 255) / 256 * 256) }
      coverage = try context.makeByteTexture(width: grown(w, old.width), height: grown(h, old.height))
    }
    try context.upload(bytes: bytes, width: w, height: h, into: coverage!, unit: .coverage)
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
}
