// The resource target whose folder is Shaders/: every GLSL source of LayerKit ships from here as a
// package resource. This file holds no GLSL; it only locates the files.
import Foundation

/// Locates the GLSL files shipped with LayerKit.
public enum ShaderBundle {
  /// The folder that holds the shader files (`layer/…`, later `transitions/…`).
  public static var resourceURL: URL? { Bundle.module.resourceURL }

  /// The text of one shader file, by its path under `Shaders/` (for example `layer/layer_quad.frag`).
  public static func source(_ path: String) throws -> String {
    guard let base = Bundle.module.resourceURL else {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }
    return try String(contentsOf: base.appendingPathComponent(path), encoding: .utf8)
  }
}
