// Every way the GPU backend can fail, one case each, so callers and tests match on the case and
// never on message text. `description` is the one-line (or, for shader errors, numbered-source)
// text a person reads.

import LayerKitRender

/// A shader stage, as named in compile errors.
public enum ShaderStage: String, Sendable, Equatable {
  case vertex
  case fragment
}

/// Why the GPU backend could not start or run. A render's failure reaches callers as
/// `RenderError.backend(GLError)`.
public enum GLError: BackendError, AdvisedError, Equatable, Sendable {
  /// No EGL display could be made on any platform; the text says what was tried and the fix.
  case noDisplay(String)
  /// No EGL display could be made on any platform tried: the text says what was tried; the
  /// message adds the fix (Mesa's packages, or the CPU backend).
  case noDisplayTried(String)
  /// An EGL display exists but no OpenGL ES 3 config or context could be made on it.
  case contextCreation(String)
  /// A shader did not compile.
  /// - `file`: the shader file (its path under `Shaders/`, or the path of a file URL);
  /// - `line`: the line in that file, when the driver's log names one;
  /// - `excerpt`: the numbered source lines around `line`.
  case shaderCompile(file: String, stage: ShaderStage, line: Int?, message: String, excerpt: String)
  /// Two compiled shaders did not link into a program.
  case programLink(files: [String], message: String)
  /// A framebuffer is not complete (`status` is the glCheckFramebufferStatus value).
  case framebufferIncomplete(status: Int)
  /// A GL call raised an error (debug builds check after every call).
  case glError(call: String, code: Int)
  /// A shader file is not in the bundle (or the file URL does not exist).
  case resourceMissing(String)
  /// The driver lacks something the backend needs (for example OpenGL ES 3).
  case unsupported(String)
  /// A transition pass whose parameters do not fit its effect's uniforms (an unknown name, a
  /// value of another type).
  case transitionParameters(TransitionParameterError)
  /// Reading a frame back through a pixel buffer failed: the wait timed out or the buffer could
  /// not be mapped.
  case readback(String)
  /// A transition shader's colour is not a finite number (NaN or infinity) at `progress`, pixel
  /// (`x`, `y`) of the test frame: in an 8-bit frame such pixels would silently come out black.
  case nonFiniteColor(file: String, progress: Float, x: Int, y: Int, value: String)
  /// A transition shader reads an image (getFromColor, getToColor) at a coordinate that is not a
  /// finite number at `progress`, pixel (`x`, `y`) of the test frame: such a read samples nothing,
  /// and the pixel would silently come out black.
  case nonFiniteCoordinate(file: String, progress: Float, x: Int, y: Int)

  public func message(_ words: (Setting) -> String) -> String {
    switch self {
    case .noDisplay(let why): why
    case .noDisplayTried(let tried):
      "no EGL display: \(tried) — install Mesa's EGL and drivers (apt-get install libegl-mesa0 libgl1-mesa-dri) or use "
        + words(.cpuBackend)
    case .contextCreation(let why): "could not create an OpenGL ES 3 context: \(why)"
    case .shaderCompile(let file, let stage, let line, let message, let excerpt):
      "\(file):\(line.map(String.init) ?? "?"): \(stage.rawValue) shader: \(message)"
        + (excerpt.isEmpty ? "" : "\n" + excerpt)
    case .programLink(let files, let message):
      "could not link \(files.joined(separator: " + ")): \(message)"
    case .framebufferIncomplete(let status):
      "framebuffer incomplete: status 0x\(String(status, radix: 16, uppercase: true))"
    case .glError(let call, let code):
      "\(call) raised \(GLError.name(ofGLError: code)) (0x\(String(code, radix: 16, uppercase: true)))"
    case .resourceMissing(let path): "shader file not found: \(path)"
    case .unsupported(let what): "unsupported GL driver: \(what)"
    case .transitionParameters(let error): error.description
    case .readback(let why): "reading the frame back failed: \(why)"
    case .nonFiniteColor(let file, let progress, let x, let y, let value):
      "\(file): the shader's colour is \(value), not a number a pixel can hold, at progress "
        + "\(String(format: "%g", progress)), pixel (\(x), \(y)) of a 16×16 test frame; it would be drawn black "
        + "(look for sqrt, log or pow of a negative number, 0 / 0, or a division by a value that can be 0)"
    case .nonFiniteCoordinate(let file, let progress, let x, let y):
      "\(file): the transition reads an image at a coordinate that is not a number (NaN or infinite) at progress "
        + "\(String(format: "%g", progress)), pixel (\(x), \(y)) of a 16×16 test frame; it would be drawn black "
        + "(look at the uv given to getFromColor or getToColor: 0 / 0, or a division by a value that can be 0)"
    }
  }

  public var backendName: String { "gpu" }

  static func name(ofGLError code: Int) -> String {
    switch code {
    case 0x0500: "GL_INVALID_ENUM"
    case 0x0501: "GL_INVALID_VALUE"
    case 0x0502: "GL_INVALID_OPERATION"
    case 0x0505: "GL_OUT_OF_MEMORY"
    case 0x0506: "GL_INVALID_FRAMEBUFFER_OPERATION"
    default: "GL error"
    }
  }
}
