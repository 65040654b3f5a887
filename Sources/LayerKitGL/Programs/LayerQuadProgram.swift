// The programs that execute the `.draw`s of a RenderList: layer_quad.vert + layer_quad.frag,
// compiled once per variant at its first use, with their uniform locations looked up then.

import CEGL
import LayerKitRender

/// Which code a draw needs; each combination is one compiled variant of layer_quad.frag (see the
/// comment on its defines). Every variant computes bit-for-bit what the general path would for
/// that draw, so choosing one is an optimisation, never a change of output.
///
/// The common draws (colour or texture, clips, border, perspective) get one variant per
/// combination: 16 programs. Draws with a mask, a path, continuous corners (on the shape or a
/// clip) or a blend mode are rare, and their code is large, so they share `effects` variants: mask and path code behind uniform branches
/// (u_hasMask, u_isPath), clips and border compiled in (u_clipCount = 0 and u_borderWidth = 0
/// run no clip iteration and return the outer coverage, the same values through the same
/// instructions as the variants without them), and only paint, perspective and blend chosen
/// at compile time: 8 programs. A shape layer's fill or stroke — a coverage mask in a colour,
/// with or without clips — gets a `coverage` variant of its own (2 programs): 200 rings at
/// 1080p (400 such draws) rendered in 138 ms on llvmpipe through the `effects` code with a mask
/// upload per draw, 97 ms with one atlas upload per frame (GLBackend), 50 ms with this variant. Measured on llvmpipe with a cold shader cache, the 27 programs
/// (24 layer variants and the 3 filters) linked in about 0.45 s, 0.05 s warm; one variant per
/// combination of seven bits (44 + 3 programs) took about 1 s cold.
struct LayerQuadVariant: Hashable, CaseIterable {
  var texture: Bool
  var clips: Bool
  var border: Bool
  var projective: Bool
  /// Mask, path and coverage-mask code compiled in (taken by uniform branch), with clips and border.
  var effects: Bool
  /// A blend mode that reads a backdrop (only with `effects`).
  var blend: Bool
  /// A coverage mask in a colour, with or without clips and nothing else (a shape layer's fill
  /// or stroke): the mask's code alone.
  var coverage: Bool

  /// Every combination `init(_:)` can produce (`buildAllPrograms` builds them all).
  static let allCases: [LayerQuadVariant] = (0..<tableSize).map(LayerQuadVariant.init(index:)).filter(\.isCompiled)

  /// Index into a `tableSize`-entry table; `allCases` fills the compiled ones.
  var index: Int {
    (texture ? 1 : 0) | (clips ? 2 : 0) | (border ? 4 : 0) | (projective ? 8 : 0) | (effects ? 16 : 0)
      | (blend ? 32 : 0) | (coverage ? 64 : 0)
  }

  static let tableSize = 128

  init(index i: Int) {
    texture = i & 1 != 0
    clips = i & 2 != 0
    border = i & 4 != 0
    projective = i & 8 != 0
    effects = i & 16 != 0
    blend = i & 32 != 0
    coverage = i & 64 != 0
  }

  init(
    texture: Bool, clips: Bool, border: Bool, projective: Bool, effects: Bool = false, blend: Bool = false,
    coverage: Bool = false
  ) {
    self.texture = texture
    self.clips = clips
    self.border = border
    self.projective = projective
    self.effects = effects
    self.blend = blend
    self.coverage = coverage
  }

  /// Whether this combination is one `init(_:)` chooses (and so one start-up compiles).
  var isCompiled: Bool {
    if coverage { return !texture && !border && !projective && !effects && !blend }
    return effects ? clips && border : !blend
  }

  /// The variant for `draw`.
  init(_ draw: Draw) {
    if case .texture = draw.paint { texture = true } else { texture = false }
    projective = !draw.mapping.isAffine
    blend = draw.blendMode.readsBackdrop
    coverage = false
    // Continuous corners (on the shape or a clip) are drawn by the `effects` variants alone.
    let continuous =
      draw.shape.rect.corners & RoundedRect.continuous != 0
      || draw.clips.contains { $0.rect.corners & RoundedRect.continuous != 0 }
    if draw.shape.coverage != nil, !texture, !projective, !blend, draw.mask == nil, draw.shape.path == nil,
      !continuous
    {
      coverage = true
      effects = false
      clips = !draw.clips.isEmpty
      border = false
      return
    }
    effects = blend || draw.mask != nil || draw.shape.path != nil || draw.shape.coverage != nil || continuous
    if effects {
      clips = true
      border = true
    } else {
      clips = !draw.clips.isEmpty
      // RenderMath.coverage(LocalPoint, Shape): the ring only when borderWidth > 0.
      border = draw.shape.borderWidth > 0
    }
  }

  /// Prepended after the version directive (with a `#line`, so errors keep the file's lines).
  var defines: [(String, String)] {
    [
      ("MAX_CLIPS", String(RenderList.maxClips)),
      ("HAS_TEXTURE", texture ? "1" : "0"),
      ("HAS_CLIPS", clips ? "1" : "0"),
      ("HAS_BORDER", border ? "1" : "0"),
      ("PROJECTIVE", projective ? "1" : "0"),
      ("HAS_MASK", effects ? "1" : "0"),
      ("HAS_PATH", effects ? "1" : "0"),
      ("HAS_BLEND", blend ? "1" : "0"),
      ("HAS_COVERAGE", coverage ? "1" : "0"),
      ("HAS_CONTINUOUS", effects ? "1" : "0"),
    ]
  }
}

extension BlendMode {
  /// The number layer_quad.frag's BLEND_* constants give this mode: its place in `allCases`.
  var shaderIndex: Int32 {
    Int32(BlendMode.allCases.firstIndex(of: self) ?? 0)
  }
}

struct LayerQuadProgram {
  static let vertexFile = "layer/layer_quad.vert"
  static let fragmentFile = "layer/layer_quad.frag"

  let program: ProgramHandle
  let variant: LayerQuadVariant
  private let rect: GLint
  private let targetSize: GLint
  private let targetOrigin: GLint
  private let fromTarget: GLint
  private let toTargetRow2: GLint
  private let shapeBounds: GLint
  private let shapeRadius: GLint
  private let shapeCorners: GLint
  private let borderWidth: GLint
  private let clipCount: GLint
  private let clipFromTarget: GLint
  private let clipToTargetRow2: GLint
  private let clipBounds: GLint
  private let clipRadius: GLint
  private let clipCorners: GLint
  private let color: GLint
  private let gradient: (kind: GLint, start: GLint, end: GLint, count: GLint, colors: GLint, locations: GLint)
  private let texScale: GLint
  private let texOffset: GLint
  private let texNearest: GLint
  private let texSliced: GLint
  private let texSlices: [GLint]
  private let opacity: GLint
  private let maskScale: GLint
  private let maskOffset: GLint
  private let backdropOrigin: GLint
  private let blendMode: GLint
  private let segmentCount: GLint
  private let evenOdd: GLint
  private let isPath: GLint
  private let hasMask: GLint
  private let isCoverage: GLint
  private let coverageRect: GLint
  private let coverageTexel: GLint

  init(context: GLContext, variant: LayerQuadVariant) throws(GLError) {
    let program = try context.makeProgram(
      vertex: .bundled(Self.vertexFile), fragment: .bundled(Self.fragmentFile),
      defines: variant.defines)
    self.program = program
    self.variant = variant
    func location(_ name: String) -> GLint { context.uniformLocation(program, name) }
    rect = location("u_rect")
    targetSize = location("u_targetSize")
    targetOrigin = location("u_targetOrigin")
    fromTarget = location("u_fromTarget")
    toTargetRow2 = location("u_toTargetRow2")
    shapeBounds = location("u_shapeBounds")
    shapeRadius = location("u_shapeRadius")
    shapeCorners = location("u_shapeCorners")
    borderWidth = location("u_borderWidth")
    clipCount = location("u_clipCount")
    clipFromTarget = location("u_clipFromTarget")
    clipToTargetRow2 = location("u_clipToTargetRow2")
    clipBounds = location("u_clipBounds")
    clipRadius = location("u_clipRadius")
    clipCorners = location("u_clipCorners")
    color = location("u_color")
    gradient = (
      location("u_gradKind"), location("u_gradStart"), location("u_gradEnd"), location("u_gradCount"),
      location("u_gradColors"), location("u_gradLocations")
    )
    texScale = location("u_texScale")
    texOffset = location("u_texOffset")
    texNearest = location("u_texNearest")
    texSliced = location("u_texSliced")
    texSlices = ["u_texBreaksX", "u_texScaleX", "u_texOffsetX", "u_texBreaksY", "u_texScaleY", "u_texOffsetY"].map(
      location)
    opacity = location("u_opacity")
    maskScale = location("u_maskScale")
    maskOffset = location("u_maskOffset")
    backdropOrigin = location("u_backdropOrigin")
    blendMode = location("u_blendMode")
    segmentCount = location("u_segmentCount")
    evenOdd = location("u_evenOdd")
    isPath = location("u_isPath")
    hasMask = location("u_hasMask")
    isCoverage = location("u_isCoverage")
    coverageRect = location("u_coverageRect")
    coverageTexel = location("u_coverageTexel")
    // Each sampler reads its fixed unit.
    try context.setSamplerUnits(
      program,
      [
        (location("u_texture"), TextureUnit.paint.rawValue), (location("u_mask"), TextureUnit.mask.rawValue),
        (location("u_backdrop"), TextureUnit.backdrop.rawValue),
        (location("u_segments"), TextureUnit.segments.rawValue),
        (location("u_coverage"), TextureUnit.coverage.rawValue),
      ])
  }

  /// Sets the uniforms of the current render target, the surface covering `bounds`; the program
  /// must be current.
  func setTarget(_ bounds: PixelRect, context: GLContext) throws(GLError) {
    glUniform2f(targetSize, Float(bounds.width), Float(bounds.height))
    glUniform2f(targetOrigin, Float(bounds.x), Float(bounds.y))
    try context.check("glUniform2f(u_targetSize, u_targetOrigin)")
  }

  /// Sets every uniform of one draw; the program must be current. Texture binding (and the
  /// upload of path segments) is the caller's; `backdropBounds` are those of `draw.backdrop`.
  /// `coverageOrigin` is the texel of the coverage texture that holds the first byte of
  /// `draw.shape.coverage`.
  func setDraw(
    _ draw: Draw, backdropBounds: PixelRect?, coverageOrigin: SIMD2<Int32> = .zero, context: GLContext
  ) throws(GLError) {
    let b = draw.pixelBounds
    glUniform4f(rect, Float(b.x), Float(b.y), Float(b.maxX), Float(b.maxY))
    setMatrix(fromTarget, draw.mapping.fromTarget)
    setVector(toTargetRow2, draw.mapping.toTarget.row2)
    let r = draw.shape.rect
    glUniform4f(shapeBounds, r.bounds.x, r.bounds.y, r.bounds.z, r.bounds.w)
    glUniform1f(shapeRadius, r.cornerRadius)
    glUniform1i(shapeCorners, GLint(r.corners))
    // With a path the shape is the path alone (RenderMath.coverage(LocalPoint, Shape)).
    glUniform1f(borderWidth, draw.shape.path == nil ? draw.shape.borderWidth : 0)
    glUniform1f(opacity, draw.opacity)

    let clips = draw.clips
    glUniform1i(clipCount, GLint(clips.count))
    if !clips.isEmpty {
      let count = GLsizei(clips.count)
      let matrices = clips.flatMap { $0.mapping.fromTarget.columnMajor }
      glUniformMatrix3fv(clipFromTarget, count, GLboolean(GL_FALSE), matrices)
      let rows = clips.flatMap { [$0.mapping.toTarget.row2.x, $0.mapping.toTarget.row2.y, $0.mapping.toTarget.row2.z] }
      glUniform3fv(clipToTargetRow2, count, rows)
      let bounds = clips.flatMap { [$0.rect.bounds.x, $0.rect.bounds.y, $0.rect.bounds.z, $0.rect.bounds.w] }
      glUniform4fv(clipBounds, count, bounds)
      glUniform1fv(clipRadius, count, clips.map(\.rect.cornerRadius))
      glUniform1iv(clipCorners, count, clips.map { GLint($0.rect.corners) })
    }

    switch draw.paint {
    case .color(let c):
      glUniform4f(color, c.x, c.y, c.z, c.w)
      if !variant.texture { glUniform1i(gradient.kind, -1) }
    case .gradient(let g):
      glUniform1i(gradient.kind, g.kind.rawValue)
      glUniform2f(gradient.start, g.start.x, g.start.y)
      glUniform2f(gradient.end, g.end.x, g.end.y)
      glUniform1i(gradient.count, GLint(g.colors.count))
      glUniform4fv(gradient.colors, GLsizei(g.colors.count), g.colors.flatMap { [$0.x, $0.y, $0.z, $0.w] })
      glUniform1fv(gradient.locations, GLsizei(g.locations.count), g.locations)
    case .texture(_, let transform):
      glUniform2f(texScale, transform.scale.x, transform.scale.y)
      glUniform2f(texOffset, transform.offset.x, transform.offset.y)
      glUniform1i(texNearest, transform.nearest ? 1 : 0)
      glUniform1i(texSliced, transform.slices == nil ? 0 : 1)
      if let s = transform.slices {
        glUniform2f(texSlices[0], s.breaksX.x, s.breaksX.y)
        glUniform3f(texSlices[1], s.scaleX.x, s.scaleX.y, s.scaleX.z)
        glUniform3f(texSlices[2], s.offsetX.x, s.offsetX.y, s.offsetX.z)
        glUniform2f(texSlices[3], s.breaksY.x, s.breaksY.y)
        glUniform3f(texSlices[4], s.scaleY.x, s.scaleY.y, s.scaleY.z)
        glUniform3f(texSlices[5], s.offsetY.x, s.offsetY.y, s.offsetY.z)
      }
    }
    if variant.coverage, let mask = draw.shape.coverage {
      let r = mask.bounds
      glUniform4i(coverageRect, GLint(r.x), GLint(r.y), GLint(r.width), GLint(r.height))
      glUniform2i(coverageTexel, coverageOrigin.x, coverageOrigin.y)
    }
    if variant.effects {
      glUniform1i(hasMask, draw.mask == nil ? 0 : 1)
      if let mask = draw.mask {
        glUniform2f(maskScale, mask.transform.scale.x, mask.transform.scale.y)
        glUniform2f(maskOffset, mask.transform.offset.x, mask.transform.offset.y)
      }
      glUniform1i(isCoverage, draw.shape.coverage == nil ? 0 : 1)
      if let mask = draw.shape.coverage {
        let r = mask.bounds
        glUniform4i(coverageRect, GLint(r.x), GLint(r.y), GLint(r.width), GLint(r.height))
        glUniform2i(coverageTexel, coverageOrigin.x, coverageOrigin.y)
      }
      glUniform1i(isPath, draw.shape.path == nil ? 0 : 1)
      if let path = draw.shape.path {
        glUniform1i(segmentCount, GLint(path.segments.count))
        glUniform1i(evenOdd, path.evenOdd ? 1 : 0)
      }
    }
    if variant.blend, let backdropBounds {
      glUniform2i(backdropOrigin, GLint(backdropBounds.x), GLint(backdropBounds.y))
      glUniform1i(blendMode, draw.blendMode.shaderIndex)
    }
    try context.check("glUniform* (draw)")
  }

  private func setMatrix(_ location: GLint, _ m: Matrix3) {
    // Untransposed column-major: the shader's m * v is Matrix3.apply(v).
    glUniformMatrix3fv(location, 1, GLboolean(GL_FALSE), m.columnMajor)
  }

  private func setVector(_ location: GLint, _ v: SIMD3<Float>) {
    glUniform3f(location, v.x, v.y, v.z)
  }
}
