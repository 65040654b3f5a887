// The programs that execute the `.filter` passes of a RenderList: effects/effect_quad.vert with
// one fragment shader per FilterOperation (effects/blur.frag, color_matrix.frag, tint.frag),
// compiled at start-up with the layer programs.

import CEGL
import LayerKitRender

/// Which fragment shader a filter pass runs.
enum FilterKind: CaseIterable {
  case blur, colorMatrix, tint

  init(_ operation: FilterOperation) {
    switch operation {
    case .blur: self = .blur
    case .colorMatrix: self = .colorMatrix
    case .tint: self = .tint
    }
  }

  var fragmentFile: String {
    switch self {
    case .blur: "effects/blur.frag"
    case .colorMatrix: "effects/color_matrix.frag"
    case .tint: "effects/tint.frag"
    }
  }
}

struct FilterProgram {
  static let vertexFile = "effects/effect_quad.vert"
  /// The size of blur.frag's u_kernel array, in floats (128 vec4s): a whole kernel of
  /// 2 × RenderList.maxBlurTaps − 1 weights, zero-padded.
  static let kernelCapacity = 512

  let program: ProgramHandle
  let kind: FilterKind
  private let inputOrigin: GLint
  private let outputOrigin: GLint
  private let axis: GLint
  private let kernel: GLint
  private let radius: GLint
  private let rows: [GLint]
  private let color: GLint

  init(context: GLContext, kind: FilterKind) throws(GLError) {
    let program = try context.makeProgram(vertex: .bundled(Self.vertexFile), fragment: .bundled(kind.fragmentFile))
    self.program = program
    self.kind = kind
    func location(_ name: String) -> GLint { context.uniformLocation(program, name) }
    inputOrigin = location("u_inputOrigin")
    outputOrigin = location("u_outputOrigin")
    axis = location("u_axis")
    kernel = location("u_kernel")
    radius = location("u_radius")
    rows = ["u_r", "u_g", "u_b", "u_a", "u_bias"].map(location)
    color = location("u_color")
    try context.setSamplerUnits(program, [(location("u_input"), TextureUnit.paint.rawValue)])
  }

  /// Sets every uniform of `pass`, reading a surface covering `inputBounds`; the program must be
  /// current. Binding the input texture is the caller's.
  func setPass(_ pass: FilterPass, inputBounds: PixelRect, context: GLContext) throws(GLError) {
    glUniform2i(inputOrigin, GLint(inputBounds.x), GLint(inputBounds.y))
    glUniform2i(outputOrigin, GLint(pass.bounds.x), GLint(pass.bounds.y))
    switch pass.operation {
    case .blur(let direction, let taps):
      switch direction {
      case .horizontal: glUniform2i(axis, 1, 0)
      case .vertical: glUniform2i(axis, 0, 1)
      }
      // RenderList.validate() holds taps.count to 1…maxBlurTaps, so 2r + 1 ≤ kernelCapacity − 1.
      let r = min(taps.count, RenderList.maxBlurTaps) - 1
      var full = [Float](repeating: 0, count: Self.kernelCapacity)
      for i in -r...r { full[i + r] = taps[abs(i)] }
      glUniform4fv(kernel, GLsizei(Self.kernelCapacity / 4), full)
      glUniform1i(radius, GLint(r))
    case .colorMatrix(let m):
      for (location, v) in zip(rows, [m.r, m.g, m.b, m.a, m.bias]) {
        glUniform4f(location, v.x, v.y, v.z, v.w)
      }
    case .tint(let c):
      glUniform4f(color, c.x, c.y, c.z, c.w)
    }
    try context.check("glUniform* (filter)")
  }
}
