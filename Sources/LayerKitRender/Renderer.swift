/// A backend: executes a RenderList and returns the target's pixels. The GPU backend
/// (LayerKitGL) and the CPU reference (LayerKitReference) both conform; they must produce the same
/// pixels within the parity tolerance of docs/ARCHITECTURE.md.
///
/// Renderers are not thread-safe: use one from one thread at a time.
public protocol Renderer: AnyObject {
  /// A short name for messages and reports ("gpu", "cpu").
  var name: String { get }

  /// Executes `list`.
  /// - Returns: the target, RGBA8 premultiplied, rows top-down.
  /// - Throws: `RenderError` for a list the backend cannot execute (for example a target larger
  ///   than the backend allows).
  func render(_ list: RenderList) throws -> Image
}

/// A renderer that reads a frame back while drawing the next one (the GPU backend: its target is
/// copied into a pixel buffer, asynchronously, and waited for only when the pixels are wanted).
/// `start` draws a list and starts the copy; `finish` waits for it and returns the frame. Frames
/// finish in the order they started, and at most `framesInFlight` are started and not finished.
/// `render(_:)` is `finish(start(list))`.
public protocol OverlappingRenderer: Renderer {
  /// How many frames may be started and not yet finished.
  var framesInFlight: Int { get }
  /// Draws `list` and starts reading its target back.
  /// - Throws: as `render(_:)`; `RenderError.framesOutOfOrder` when `framesInFlight` frames are
  ///   already waiting.
  func start(_ list: RenderList) throws -> PendingFrame
  /// Waits for a started frame's pixels.
  /// - Throws: `RenderError.framesOutOfOrder` for a frame that is not the oldest one waiting (or
  ///   was finished already); the backend's error when the copy fails.
  func finish(_ frame: PendingFrame) throws -> Image
}

/// A frame an OverlappingRenderer has drawn and is reading back.
public struct PendingFrame: Sendable, Equatable {
  public let width: Int
  public let height: Int
  /// The renderer's count of started frames when this one started.
  package let serial: UInt64

  package init(width: Int, height: Int, serial: UInt64) {
    self.width = width
    self.height = height
    self.serial = serial
  }
}

/// A backend's own error type (LayerKitGL's `GLError`), carried by `RenderError.backend`.
public protocol BackendError: Error, Sendable, CustomStringConvertible {
  /// The backend's short name ("gpu").
  var backendName: String { get }
  /// Whether `other` is the same error (RenderError's equality).
  func isEqual(to other: any BackendError) -> Bool
}

extension BackendError where Self: Equatable {
  public func isEqual(to other: any BackendError) -> Bool { (other as? Self) == self }
}

/// Why a RenderList could not be built or executed.
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The target has a side that is not positive.
  case invalidTargetSize(width: Int, height: Int)
  /// The target exceeds `limit` pixels a side (or the pixel-count bound of `Image`).
  case targetTooLarge(width: Int, height: Int, limit: Int)
  /// A layer property holds NaN or infinity.
  case nonFiniteValue(layer: String, property: String)
  /// A layer property that must not be negative is negative.
  case negativeValue(layer: String, property: String, value: Double)
  /// The render scale is not a positive finite number.
  case invalidScale(Double)
  /// A layer tree that contains itself.
  case layerCycle(layer: String)
  /// A mask that is the layer itself, or that is also in a layer tree.
  case invalidMask(layer: String, reason: String)
  /// A filter parameter that is not finite or out of range.
  case invalidFilter(layer: String, FilterError)
  /// A path with a non-finite coordinate.
  case invalidPath(layer: String, property: String)
  /// A transition effect that only the GPU backend runs (a user shader in the gl-transitions form).
  case gpuOnlyEffect(String)
  /// A hand-built RenderList that breaks the contract.
  case malformedList(index: Int, reason: String)
  /// A transition pass whose effect is unknown to the backend, or whose parameters do not fit
  /// the effect's (an unknown name, a value of another type).
  case transitionParameters(TransitionParameterError)
  /// A backend could not execute a list: its own typed error (for the GPU a `GLError`: a GL
  /// error, an incomplete framebuffer), which callers match with `case .backend(let e as GLError)`.
  case backend(any BackendError)
  /// An OverlappingRenderer asked to finish a frame that is not the oldest one waiting, or to
  /// start one more than `framesInFlight`.
  case framesOutOfOrder(String)

  public var description: String {
    switch self {
    case .invalidTargetSize(let w, let h): "invalid target size \(w)×\(h): both sides must be positive"
    case .targetTooLarge(let w, let h, let l): "target \(w)×\(h) is too large: at most \(l) pixels a side"
    case .nonFiniteValue(let l, let p): "layer \(l): \(p) is not a finite number"
    case .negativeValue(let l, let p, let v): "layer \(l): \(p) is negative (\(v))"
    case .invalidScale(let s): "render scale \(s) must be a positive finite number"
    case .layerCycle(let l): "layer \(l) is its own ancestor"
    case .invalidMask(let l, let r): "layer \(l): invalid mask: \(r)"
    case .invalidFilter(let l, let e): "layer \(l): \(e)"
    case .invalidPath(let l, let p): "layer \(l): \(p) has a coordinate that is not finite"
    case .gpuOnlyEffect(let name):
      "transition effect \(name) is a GPU-only effect (a GLSL shader); render it with the GPU backend"
    case .malformedList(let i, let r): "render list op \(i): \(r)"
    case .transitionParameters(let error): error.description
    case .backend(let error): "\(error.backendName) backend: \(error)"
    case .framesOutOfOrder(let reason): "overlapped frames: \(reason)"
    }
  }

  public static func == (a: RenderError, b: RenderError) -> Bool {
    switch (a, b) {
    case (.invalidTargetSize(let w, let h), .invalidTargetSize(let w2, let h2)): w == w2 && h == h2
    case (.targetTooLarge(let w, let h, let l), .targetTooLarge(let w2, let h2, let l2)): w == w2 && h == h2 && l == l2
    case (.nonFiniteValue(let l, let p), .nonFiniteValue(let l2, let p2)): l == l2 && p == p2
    case (.negativeValue(let l, let p, let v), .negativeValue(let l2, let p2, let v2)): l == l2 && p == p2 && v == v2
    case (.invalidScale(let s), .invalidScale(let s2)): s == s2
    case (.layerCycle(let l), .layerCycle(let l2)): l == l2
    case (.invalidMask(let l, let r), .invalidMask(let l2, let r2)): l == l2 && r == r2
    case (.invalidFilter(let l, let e), .invalidFilter(let l2, let e2)): l == l2 && e == e2
    case (.invalidPath(let l, let p), .invalidPath(let l2, let p2)): l == l2 && p == p2
    case (.gpuOnlyEffect(let n), .gpuOnlyEffect(let n2)): n == n2
    case (.malformedList(let i, let r), .malformedList(let i2, let r2)): i == i2 && r == r2
    case (.transitionParameters(let e), .transitionParameters(let e2)): e == e2
    case (.backend(let e), .backend(let e2)): e.isEqual(to: e2)
    case (.framesOutOfOrder(let r), .framesOutOfOrder(let r2)): r == r2
    default: false
    }
  }
}

/// Why a filter parameter was refused.
public enum FilterError: Error, Equatable, Sendable, CustomStringConvertible {
  case unknownParameter(filter: String, parameter: String, known: [String])
  case invalidValue(filter: String, parameter: String, value: Double)

  public var description: String {
    switch self {
    case .unknownParameter(let f, let p, let k):
      "filter \(f) has no parameter \(p); it has: \(k.isEmpty ? "none" : k.joined(separator: ", "))"
    case .invalidValue(let f, let p, let v): "filter \(f): \(p) cannot be \(v)"
    }
  }
}
