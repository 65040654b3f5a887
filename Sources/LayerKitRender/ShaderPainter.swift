import Foundation

/// What a renderer that runs fragment shaders offers for pictures a shader makes alone: editly's
/// `gl` layers (WebGL 1 fragment shaders with `resolution` and `time` uniforms, as
/// glslsandbox writes them). The GPU backend has it; the CPU reference renderer does not run
/// GLSL, so such a layer needs the GPU.
public protocol ShaderPainter: AnyObject {
  /// Compiles and links a picture shader: a GLSL ES 1.00 fragment shader (WebGL 1:
  /// `gl_FragColor`, `gl_FragCoord`; the uniforms `vec2 resolution` and `float time`, either
  /// optional) and a vertex shader taking `attribute vec2 position` (nil: LayerKit's own,
  /// the full-frame quad editly draws). The same files give the same handle.
  /// - Throws: the backend's error naming the file, the stage and the line.
  func makePictureShader(fragment: URL, vertex: URL?) throws -> Int

  /// The shader's picture at `width`×`height` pixels and `time`: premultiplied RGBA (the
  /// shader's colour taken as straight alpha), rows top-down, upright — `gl_FragCoord`'s row 0
  /// is the image's bottom row (editly mirrors its read-back left to right as well; LayerKit
  /// does not).
  func paintPicture(_ shader: Int, width: Int, height: Int, time: Double) throws -> Image
}
