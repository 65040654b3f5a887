import Foundation

/// What a renderer that compiles GLSL offers for transitions in the gl-transitions form, so
/// that code knowing only the contract (the video wing's transition specs) can load a user's
/// `.glsl` file into it. The GPU backend has it; the CPU reference renderer runs no GLSL.
public protocol TransitionShaderHost: AnyObject {
  /// Parses, compiles and links `text` (a transition in the gl-transitions form read from
  /// `file`) as effect `name`, checked to give finite colours with its defaults.
  /// - Returns: its parameters, in declaration order.
  /// - Throws: the backend's error naming the file and the line.
  func loadTransition(name: String, text: String, file: String) throws -> [TransitionUniform]

  /// Checks that loaded effect `name` gives finite colours with `parameters`.
  /// - Throws: the backend's error naming the file, the progress and the pixel.
  func checkTransition(name: String, parameters: [String: TransitionValue], file: String) throws

  /// Whether the rasterizer is software (Mesa's llvmpipe, softpipe), where the CPU backend
  /// renders crossfades and slides faster (`layerkit-bench --suite`).
  var isSoftwareRasterizer: Bool { get }
}
