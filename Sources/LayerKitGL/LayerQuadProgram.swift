// The programs that execute the `.draw`s of a RenderList: layer_quad.vert + layer_quad.frag,
// compiled once per variant at start-up, with their uniform locations looked up then.

import CEGL
import LayerKit

/// Which code a draw needs; each combination is one compiled variant of layer_quad.frag (see the
/// comment on its defines). Every variant computes bit-for-bit what the general path would for
/// that draw, so choosing one is an optimisation, never a change of output.
struct LayerQuadVariant: Hashable, CaseIterable {
  var texture: Bool
  var clips: Bool
  var border: Bool
  var projective: Bool

  static let allCases: [LayerQuadVariant] = (0..<16).map {
    LayerQuadVariant(texture: $0 & 1 != 0, clips: $0 & 2 != 0, border: $0 & 4 != 0, projective: $0 & 8 != 0)
  }

  var index: Int { (texture ? 1 : 0) | (clips ? 2 : 0) | (border ? 4 : 0) | (projective ? 8 : 0) }

  init(texture: Bool, clips: Bool, border: Bool, projective: Bool) {
    self.texture = texture
    self.clips = clips
    self.border = border
    self.projective = projective
  }

  /// The variant for `draw`.
  init(_ draw: Draw) {
    if case .texture = draw.paint { texture = true } else { texture = false }
    clips = !draw.clips.isEmpty
    border = draw.shape.borderWidth > 0
    projective = !draw.mapping.isAffine
  }

  /// Prepended after the version directive (with a `#line`, so errors keep the file's lines).
  var defines: [(String, String)] {
    [
      ("MAX_CLIPS", String(RenderList.maxClips)),
      ("HAS_TEXTURE", texture ? "1" : "0"),
      ("HAS_CLIPS", clips ? "1" : "0"),
      ("HAS_BORDER", border ? "1" : "0"),
      ("PROJECTIVE", projective ? "1" : "0"),
    ]
  }
}

struct LayerQuadProgram {
  static let vertexFile = "layer/layer_quad.vert"
  static let fragmentFile = "layer/layer_quad.frag"

  let program: ProgramHandle
  private let rect: GLint
  private let targetSize: GLint
  private let fromTarget: GLint
  private let toTargetRow2: GLint
  private let shapeBounds: GLint
  private let shapeRadius: GLint
  private let borderWidth: GLint
  private let clipCount: GLint
  private let clipFromTarget: GLint
  private let clipToTargetRow2: GLint
  private let clipBounds: GLint
  private let clipRadius: GLint
  private let color: GLint
  private let texScale: GLint
  private let texOffset: GLint
  private let opacity: GLint

  init(context: GLContext, variant: LayerQuadVariant) throws(GLError) {
    let program = try context.makeProgram(
      vertex: .bundled(Self.vertexFile), fragment: .bundled(Self.fragmentFile),
      defines: variant.defines)
    self.program = program
    func location(_ name: String) -> GLint { context.uniformLocation(program, name) }
    rect = location("u_rect")
    targetSize = location("u_targetSize")
    fromTarget = location("u_fromTarget")
    toTargetRow2 = location("u_toTargetRow2")
    shapeBounds = location("u_shapeBounds")
    shapeRadius = location("u_shapeRadius")
    borderWidth = location("u_borderWidth")
    clipCount = location("u_clipCount")
    clipFromTarget = location("u_clipFromTarget")
    clipToTargetRow2 = location("u_clipToTargetRow2")
    clipBounds = location("u_clipBounds")
    clipRadius = location("u_clipRadius")
    color = location("u_color")
    texScale = location("u_texScale")
    texOffset = location("u_texOffset")
    opacity = location("u_opacity")
    do {
      try context.useProgram(program)
      // The one sampler always reads texture unit 0.
      glUniform1i(location("u_texture"), 0)
      try context.check("glUniform1i(u_texture)")
    } catch {
      context.delete(program)
      throw error
    }
  }

  /// Sets the per-frame uniforms; the program must be current.
  func setTarget(width: Int, height: Int, context: GLContext) throws(GLError) {
    glUniform2f(targetSize, Float(width), Float(height))
    try context.check("glUniform2f(u_targetSize)")
  }

  /// Sets every uniform of one draw; the program must be current. Texture binding is the
  /// caller's.
  func setDraw(_ draw: Draw, context: GLContext) throws(GLError) {
    let b = draw.pixelBounds
    glUniform4f(rect, Float(b.x), Float(b.y), Float(b.maxX), Float(b.maxY))
    setMatrix(fromTarget, draw.mapping.fromTarget)
    setVector(toTargetRow2, draw.mapping.toTarget.row2)
    let r = draw.shape.rect
    glUniform4f(shapeBounds, r.bounds.x, r.bounds.y, r.bounds.z, r.bounds.w)
    glUniform1f(shapeRadius, r.cornerRadius)
    glUniform1f(borderWidth, draw.shape.borderWidth)
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
    }

    switch draw.paint {
    case .color(let c):
      glUniform4f(color, c.x, c.y, c.z, c.w)
    case .texture(_, let transform):
      glUniform2f(texScale, transform.scale.x, transform.scale.y)
      glUniform2f(texOffset, transform.offset.x, transform.offset.y)
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
