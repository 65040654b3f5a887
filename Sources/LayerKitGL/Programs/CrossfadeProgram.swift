// The program of contents crossfades (TextureSource.crossfade): effects/effect_quad.vert with
// effects/crossfade.frag, which mixes two image textures texel by texel into a surface of their
// size, so an animation of contents uploads each image once and mixes on the GPU every frame.

import CEGL
import LayerKitRender

struct CrossfadeProgram {
  static let fragmentFile = "effects/crossfade.frag"

  let program: ProgramHandle
  private let weight: GLint
  private let hasFrom: GLint
  private let hasTo: GLint

  init(context: GLContext) throws(GLError) {
    let program = try context.makeProgram(
      vertex: .bundled(FilterProgram.vertexFile), fragment: .bundled(Self.fragmentFile))
    self.program = program
    func location(_ name: String) -> GLint { context.uniformLocation(program, name) }
    weight = location("u_weight")
    hasFrom = location("u_hasFrom")
    hasTo = location("u_hasTo")
    try context.setSamplerUnits(
      program, [(location("u_from"), TextureUnit.paint.rawValue), (location("u_to"), TextureUnit.mask.rawValue)])
  }

  /// Sets the weight and which sides exist; the program must be current.
  func set(weight t: Float, from: Bool, to: Bool, context: GLContext) throws(GLError) {
    glUniform1f(weight, t)
    glUniform1i(hasFrom, from ? 1 : 0)
    glUniform1i(hasTo, to ? 1 : 0)
    try context.check("glUniform* (crossfade)")
  }
}
