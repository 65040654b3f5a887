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
  /// A backend could not execute a list (GL error, out of memory); the text says which.
  case backendFailure(String)

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
    case .backendFailure(let m): m
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
