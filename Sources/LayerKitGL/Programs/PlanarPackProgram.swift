// The programs of the Y'CbCr readback (PlanarRenderer): effects/effect_quad.vert with
// effects/yuv420_pack.frag, which converts the frame's target to BT.709 limited-range 4:2:0
// planes and packs them into an RGBA8 target whose bytes, read back, are the planar frame
// (1.5 bytes a pixel instead of 4). The file is compiled twice: as it is for the rows of the Y'
// plane, with LK_PACK_CHROMA for the rows of Cb and Cr; each draw covers its rows (a scissor).
// The coefficients are RenderMath.YCbCr420's, set once at start-up; a frame sets its size and
// background.

import CEGL
import LayerKitRender

struct PlanarPackProgram {
  static let fragmentFile = "effects/yuv420_pack.frag"

  /// One pass of the pack: a program and its per-frame uniforms.
  struct Pass {
    let program: ProgramHandle
    fileprivate let size: GLint
    fileprivate let packedWidth: GLint
    fileprivate let background: GLint
  }

  /// The rows of the Y' plane, and the rows after them (Cb, Cr, padding).
  let luma: Pass
  let chroma: Pass

  var programs: [ProgramHandle] { [luma.program, chroma.program] }

  init(context: GLContext) throws(GLError) {
    let luma = try Self.makePass(context: context, defines: [])
    do {
      chroma = try Self.makePass(context: context, defines: [("LK_PACK_CHROMA", "1")])
    } catch {
      context.delete(luma.program)
      throw error
    }
    self.luma = luma
  }

  private static func makePass(context: GLContext, defines: [(String, String)]) throws(GLError) -> Pass {
    let program = try context.makeProgram(
      vertex: .bundled(FilterProgram.vertexFile), fragment: .bundled(fragmentFile), defines: defines)
    func location(_ name: String) -> GLint { context.uniformLocation(program, name) }
    // setSamplerUnits leaves the program current (or deletes it on failure).
    try context.setSamplerUnits(program, [(location("u_frame"), TextureUnit.paint.rawValue)])
    let k = RenderMath.YCbCr420.Coefficients()
    let lumaShift = RenderMath.YCbCr420.shift
    let chromaShift = lumaShift + 2
    func bits(_ v: Int) -> GLuint { GLuint(truncatingIfNeeded: v) }
    func set(_ name: String, _ c: (Int, Int, Int), shift: Int) {
      glUniform3ui(location(name + "Bits"), bits(c.0), bits(c.1), bits(c.2))
      // |k| < 2^22: exact as a Float, and so is k / 2^S.
      let unit = 1 / Float(1 << shift)
      glUniform3f(location(name), Float(c.0) * unit, Float(c.1) * unit, Float(c.2) * unit)
    }
    // A uniform the variant does not use has location −1, which glUniform ignores.
    set("u_y", (k.yR, k.yG, k.yB), shift: lumaShift)
    set("u_cb", (k.cbR, k.cbG, k.cbB), shift: chromaShift)
    set("u_cr", (k.crR, k.crG, k.crB), shift: chromaShift)
    typealias C = RenderMath.YCbCr420.Coefficients
    glUniform1ui(location("u_yOffsetBits"), bits(C.yOffset))
    glUniform1f(location("u_yOffset"), Float(Double(C.yOffset) / Double(1 << lumaShift)))
    glUniform1ui(location("u_chromaOffsetBits"), bits(C.chromaOffset))
    glUniform1f(location("u_chromaOffset"), Float(Double(C.chromaOffset) / Double(1 << chromaShift)))
    glUniform1ui(location("u_yMask"), GLuint.max >> (32 - lumaShift))
    glUniform1f(location("u_yUnit"), 1 / Float(1 << lumaShift))
    glUniform1ui(location("u_chromaMask"), GLuint.max >> (32 - chromaShift))
    glUniform1f(location("u_chromaUnit"), 1 / Float(1 << chromaShift))
    do {
      try context.check("glUniform* (Y'CbCr coefficients)")
    } catch {
      context.delete(program)
      throw error
    }
    return Pass(
      program: program, size: location("u_size"), packedWidth: location("u_packedWidth"),
      background: location("u_background"))
  }

  /// The packed output for a `width × height` frame (both even): `width / 2` texels a row
  /// (4 bytes each), so the Y' plane fills exactly the first `lumaRows` = `height / 2` rows, and
  /// as many rows after them as Cb and Cr fill (the last one padded with zeros).
  static func packedSize(width: Int, height: Int) -> (width: Int, height: Int, lumaRows: Int) {
    let bytes = RenderMath.YCbCr420.byteCount(width: width, height: height)
    let rowBytes = 4 * (width / 2)
    return (width / 2, (bytes + rowBytes - 1) / rowBytes, height / 2)
  }

  /// Sets the frame's size and background on `pass`, which must be current.
  func set(_ pass: Pass, width: Int, height: Int, background bg: SIMD3<UInt8>, context: GLContext) throws(GLError) {
    glUniform2i(pass.size, GLint(width), GLint(height))
    glUniform1i(pass.packedWidth, GLint(Self.packedSize(width: width, height: height).width))
    glUniform3ui(pass.background, GLuint(bg.x), GLuint(bg.y), GLuint(bg.z))
    try context.check("glUniform* (Y'CbCr pack)")
  }
}
