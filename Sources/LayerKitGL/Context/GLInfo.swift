/// What the GPU backend runs on: the EGL platform and driver, and the GL limits that matter.
/// `layerkit info` prints `description`.
public struct GLInfo: Sendable, Equatable, CustomStringConvertible {
  /// The EGL platform the display came from: "surfaceless", "device" or "gbm".
  public var platform: String
  /// EGL_VENDOR, for example "Mesa Project".
  public var eglVendor: String
  /// EGL_VERSION, for example "1.5".
  public var eglVersion: String
  /// GL_RENDERER, for example "llvmpipe (LLVM 15.0.6, 256 bits)".
  public var renderer: String
  /// GL_VERSION, for example "OpenGL ES 3.2 Mesa 22.3.6".
  public var version: String
  /// GL_SHADING_LANGUAGE_VERSION, for example "OpenGL ES GLSL ES 3.20".
  public var shadingLanguageVersion: String
  /// GL_MAX_TEXTURE_SIZE: the largest target or image side this backend accepts.
  public var maxTextureSize: Int
  /// The DRM node or device name, when the platform tells ("software" for Mesa's software device).
  public var device: String?

  public init(
    platform: String, eglVendor: String, eglVersion: String, renderer: String, version: String,
    shadingLanguageVersion: String, maxTextureSize: Int, device: String?
  ) {
    self.platform = platform
    self.eglVendor = eglVendor
    self.eglVersion = eglVersion
    self.renderer = renderer
    self.version = version
    self.shadingLanguageVersion = shadingLanguageVersion
    self.maxTextureSize = maxTextureSize
    self.device = device
  }

  /// Whether the driver rasterizes on the CPU (Mesa's llvmpipe, softpipe, swrast): its shading
  /// shares the cores with everything else.
  public var isSoftwareRasterizer: Bool {
    let name = renderer.lowercased()
    return ["llvmpipe", "softpipe", "swrast"].contains { name.contains($0) }
  }

  /// The fields as (key, value) pairs, in the order `description` prints them.
  public var lines: [(String, String)] {
    var lines = [
      ("EGL platform", platform),
      ("EGL vendor", eglVendor),
      ("EGL version", eglVersion),
      ("GL_RENDERER", renderer),
      ("GL_VERSION", version),
      ("GL_SHADING_LANGUAGE_VERSION", shadingLanguageVersion),
      ("GL_MAX_TEXTURE_SIZE", String(maxTextureSize)),
    ]
    if let device { lines.append(("EGL device", device)) }
    return lines
  }

  /// One "key: value" line per field.
  public var description: String {
    lines.map { "\($0.0): \($0.1)" }.joined(separator: "\n")
  }
}
