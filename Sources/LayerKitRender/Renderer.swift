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

/// An OverlappingRenderer that can convert a frame to planar Y'CbCr itself, before reading it
/// back: BT.709 limited range, 4:2:0 with centre-sited chroma, composited over an opaque
/// background — byte for byte what LayerKitMedia's `YUVConversion.convert(_:background:chroma:)`
/// gives for the RGBA frame (`.yuv420`) — so only 1.5 bytes a pixel are read back instead of 4.
///
/// Frames started with `startPlanes` share the ring and the rules of `start`: they finish in the
/// order they started, at most `framesInFlight` at a time, whichever way each was started; a
/// frame is finished the way it was started (`finishPlanes` for `startPlanes`, `finish` for
/// `start`).
public protocol PlanarRenderer: OverlappingRenderer {
  /// Draws `list`, converts its target to Y'CbCr 4:2:0 planes and starts reading them back.
  /// - Parameters:
  ///   - list: the frame; its width and height must be even.
  ///   - background: the opaque colour translucent pixels are composited over (straight 8-bit
  ///     values, as stored).
  /// - Throws: as `start(_:)`; `RenderError.oddSizeForPlanes` when the width or height is odd
  ///   (nothing is drawn).
  func startPlanes(_ list: RenderList, background: SIMD3<UInt8>) throws -> PendingFrame
  /// Waits for a frame started with `startPlanes` and writes its planes into `buffer`: the Y'
  /// plane (`width × height` bytes, rows top-down), then Cb, then Cr (`width / 2 × height / 2`
  /// each), rows tightly packed — the layout of Y4M and of ffmpeg's `yuv420p`.
  /// - Parameter buffer: exactly `RenderMath.YCbCr420.byteCount(width:height:)` bytes of the
  ///   frame's size; every byte is written.
  /// - Throws: `RenderError.framesOutOfOrder` for a frame that is not the oldest one waiting, or
  ///   was started with `start` (it stays waiting); `.planeBufferSize` when `buffer` has another
  ///   size (it stays waiting; nothing is written); the backend's error when the copy fails.
  func finishPlanes(_ frame: PendingFrame, into buffer: UnsafeMutableRawBufferPointer) throws
  /// Whether converting before readback is faster than reading RGBA back and converting on the
  /// CPU: on a hardware GPU. On a software rasterizer the pass runs on the cores the CPU
  /// conversion would use (measured on llvmpipe at 1080p: 44 ms against 40), so video sources
  /// read RGBA back there.
  var planarReadbackPays: Bool { get }
}

extension PlanarRenderer {
  /// Draws `list` and writes its Y'CbCr 4:2:0 planes into `buffer`: `finishPlanes(startPlanes(…))`,
  /// with the buffer's size checked before anything is drawn.
  /// - Throws: as `startPlanes` and `finishPlanes`; `.planeBufferSize` before drawing when
  ///   `buffer` is not `RenderMath.YCbCr420.byteCount(width:height:)` bytes of the list's size.
  public func renderPlanes(
    _ list: RenderList, background: SIMD3<UInt8> = .zero, into buffer: UnsafeMutableRawBufferPointer
  ) throws {
    if list.width % 2 != 0 || list.height % 2 != 0 {
      throw RenderError.oddSizeForPlanes(width: list.width, height: list.height)
    }
    let expected = RenderMath.YCbCr420.byteCount(width: list.width, height: list.height)
    guard buffer.count == expected else {
      throw RenderError.planeBufferSize(expected: expected, actual: buffer.count)
    }
    try finishPlanes(startPlanes(list, background: background), into: buffer)
  }

  /// As `renderPlanes(_:background:into:)`, into a new array.
  public func renderPlanes(_ list: RenderList, background: SIMD3<UInt8> = .zero) throws -> [UInt8] {
    if list.width % 2 != 0 || list.height % 2 != 0 {
      throw RenderError.oddSizeForPlanes(width: list.width, height: list.height)
    }
    var failure: (any Error)?
    // Every byte is written (or, on failure, the array is dropped).
    let bytes = FrameMemory.bytes(count: RenderMath.YCbCr420.byteCount(width: list.width, height: list.height)) {
      do {
        try renderPlanes(list, background: background, into: UnsafeMutableRawBufferPointer($0))
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    return bytes
  }
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
public enum RenderError: AdvisedError, Equatable, Sendable {
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
  /// A text layer's text could not be laid out: no layout engine is installed, or its font
  /// cannot be used (the reason names it).
  case textLayout(layer: String, reason: String)
  /// A finite value beyond a documented bound (LayerKit's `Limits`).
  case outOfRange(layer: String, property: String, value: Double, limit: Double)
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
  /// start one more than `framesInFlight` (or a PlanarRenderer to finish a frame the other way
  /// than it started).
  case framesOutOfOrder(String)
  /// A PlanarRenderer asked for 4:2:0 planes of a frame whose width or height is odd.
  case oddSizeForPlanes(width: Int, height: Int)
  /// A PlanarRenderer handed a buffer of `actual` bytes for planes of `expected` bytes.
  case planeBufferSize(expected: Int, actual: Int)

  public func message(_ words: (Setting) -> String) -> String {
    switch self {
    case .invalidTargetSize(let w, let h): "invalid target size \(w)×\(h): both sides must be positive"
    case .targetTooLarge(let w, let h, let l):
      "target \(w)×\(h) is too large: at most \(l) pixels a side and \(Image.maxPixelCount) pixels in all"
    case .nonFiniteValue(let l, let p): "layer \(l): \(p) is not a finite number"
    case .negativeValue(let l, let p, let v): "layer \(l): \(p) is negative (\(v))"
    case .invalidScale(let s): "render scale \(s) must be a positive finite number"
    case .layerCycle(let l): "layer \(l) is its own ancestor"
    case .invalidMask(let l, let r): "layer \(l): invalid mask: \(r)"
    case .invalidFilter(let l, let e): "layer \(l): \(e)"
    case .invalidPath(let l, let p): "layer \(l): \(p) has a coordinate that is not finite"
    case .textLayout(let l, let r): "layer \(l): text: \(r)"
    case .outOfRange(let l, let p, let v, let limit):
      // Counts (instances, particles) are whole and never negative: no sign, no decimals.
      (p.hasPrefix("instanceCount") || p.hasPrefix("particles")) && v >= 0 && v < 1e15 && limit < 1e15
        ? "layer \(l): \(p) is \(Int(v)), beyond the limit of \(Int(limit))"
        : "layer \(l): \(p) is \(v), beyond the limit of ±\(limit)"
    case .gpuOnlyEffect(let name):
      "transition effect \(name) is a GPU-only effect (a GLSL shader); render it with the GPU backend"
    case .malformedList(let i, let r): "render list op \(i): \(r)"
    case .transitionParameters(let error): error.description
    case .backend(let error):
      "\(error.backendName) backend: \((error as? any AdvisedError)?.message(words) ?? error.description)"
    case .framesOutOfOrder(let reason): "overlapped frames: \(reason)"
    case .oddSizeForPlanes(let w, let h):
      "Y'CbCr 4:2:0 planes need an even width and height, the frame is \(w)×\(h)"
    case .planeBufferSize(let e, let a): "Y'CbCr planes: the buffer holds \(a) bytes, the frame \(e)"
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
    case (.textLayout(let l, let r), .textLayout(let l2, let r2)): l == l2 && r == r2
    case (.outOfRange(let l, let p, let v, let m), .outOfRange(let l2, let p2, let v2, let m2)):
      l == l2 && p == p2 && v == v2 && m == m2
    case (.gpuOnlyEffect(let n), .gpuOnlyEffect(let n2)): n == n2
    case (.malformedList(let i, let r), .malformedList(let i2, let r2)): i == i2 && r == r2
    case (.transitionParameters(let e), .transitionParameters(let e2)): e == e2
    case (.backend(let e), .backend(let e2)): e.isEqual(to: e2)
    case (.framesOutOfOrder(let r), .framesOutOfOrder(let r2)): r == r2
    case (.oddSizeForPlanes(let w, let h), .oddSizeForPlanes(let w2, let h2)): w == w2 && h == h2
    case (.planeBufferSize(let e, let a), .planeBufferSize(let e2, let a2)): e == e2 && a == a2
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
