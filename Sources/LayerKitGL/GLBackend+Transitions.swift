// GLBackend's transition passes: the frames' transition draws and checkFinite's test draws.

import CEGL
import LayerKitRender

extension GLBackend {
  /// Draws transition `effect` with `parameters` at progress 0, 0.1, …, 1 between two 16×16 test
  /// pictures (opaque gradients, one mirrored) into a float target, and throws for the first
  /// colour that is not a finite number, or the first pixel whose colour depends on an image read
  /// at a coordinate that is not one: in a frame, where colours are 8-bit, such a pixel would
  /// silently come out black. A read there whose result is thrown away is no fault. Skipped where
  /// float colour buffers are not renderable.
  /// - Throws: `.nonFiniteCoordinate` or `.nonFiniteColor` naming `file`, the progress and the pixel.
  func checkFinite(effect: String, parameters: [String: TransitionValue], file: String) throws(GLError) {
    guard try transitionProgram(effect) != nil else { return }
    let n = 16
    guard let output = try context.makeFloatRenderTarget(width: n, height: n) else { return }
    defer { context.delete(output) }
    func picture(mirrored: Bool) -> [UInt8] {
      var bytes = [UInt8](repeating: 255, count: n * n * 4)
      for y in 0..<n {
        for x in 0..<n {
          let i = (y * n + x) * 4
          let u = mirrored ? n - 1 - x : x
          bytes[i] = UInt8(u * 255 / (n - 1))
          bytes[i + 1] = UInt8(y * 255 / (n - 1))
          bytes[i + 2] = UInt8((u + y) * 255 / (2 * n - 2))
        }
      }
      return bytes
    }
    let from = try context.makeTexture(width: n, height: n, pixels: picture(mirrored: false))
    defer { context.delete(from) }
    let to = try context.makeTexture(width: n, height: n, pixels: picture(mirrored: true))
    defer { context.delete(to) }
    for step in 0...10 {
      let progress = Float(step) / 10
      let pass = TransitionPass(
        from: 0, to: 1, output: 2, bounds: PixelRect(x: 0, y: 0, width: n, height: n), progress: progress,
        effect: effect, parameters: parameters)
      // Drawn twice, a read at a non-finite coordinate giving a frame's transparent black, then
      // another colour: only a picture that changes depends on such a read (BookFlip, Fold and
      // SimpleFlip read there and throw the result away).
      try drawTransition(pass, from: from, to: to, into: output, probe: 1)
      let pixels = try context.readFloatPixels(output)
      if let i = pixels.firstIndex(where: { !$0.isFinite }) {
        // GL row j is target row j: no flip.
        throw .nonFiniteColor(
          file: file, progress: progress, x: (i / 4) % n, y: (i / 4) / n, value: pixels[i].isNaN ? "NaN" : "infinite")
      }
      try drawTransition(pass, from: from, to: to, into: output, probe: 2)
      let probed = try context.readFloatPixels(output)
      // Not bit for bit: mix(a, b, 1) may come out as a + (b − a) · 1, an ulp from b when a is 7.
      if let i = pixels.indices.first(where: { !(abs(pixels[$0] - probed[$0]) < 1e-3) }) {
        throw .nonFiniteCoordinate(file: file, progress: progress, x: (i / 4) % n, y: (i / 4) / n)
      }
    }
  }

  /// Writes `output` (every pixel, blending off) from the two surfaces with the pass's effect.
  func runTransition(_ pass: TransitionPass, from: Surface, to: Surface, output: Surface)
    throws(GLError)
  {
    try drawTransition(pass, from: from.target.texture, to: to.target.texture, into: output.target)
  }

  /// Draws `pass`'s effect from the two textures into `output` (every pixel, blending off): the
  /// frames' transitions and `checkFinite`'s test draws alike.
  private func drawTransition(
    _ pass: TransitionPass, from: TextureHandle, to: TextureHandle, into output: RenderTarget,
    probe: Int32 = 0
  ) throws(GLError) {
    // render() checked the effect and its parameters (TransitionProgram.check).
    guard let program = transitions[pass.effect] else { throw .unsupported("no program for transition \(pass.effect)") }
    let values: [TransitionValue?]
    do {
      values = try program.source.resolve(pass.parameters, effect: pass.effect)
    } catch {
      throw .transitionParameters(error)
    }
    try context.bindTarget(output)
    try context.setBlending(false)
    try context.useProgram(program.program)
    try program.setPass(pass, values: values, probe: probe, context: context)
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
    try context.bindTexture(from, unit: .paint)
    try context.bindTexture(to, unit: .mask)
    for (texture, textureUnit) in extras { try context.bindTexture(texture, unit: textureUnit) }
    glDrawArrays(GLenum(GL_TRIANGLES), 0, 6)
    try context.check("glDrawArrays (transition \(pass.effect))")
  }
}
