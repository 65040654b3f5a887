import Synchronization

private let nextImageID = Atomic<UInt64>(1)

/// An RGBA8 image with premultiplied alpha, rows top-down (row 0 is the top), tightly packed:
/// the one pixel format every part of LayerKit agrees on (docs/ARCHITECTURE.md, the parity contract).
///
/// Images are immutable values. Each one made by an initializer gets a fresh `id`, which copies
/// share; a backend may key caches (GPU textures) on it.
///
/// A crossfade of two images (`init(crossfading:to:weight:)`, what an animation of `contents`
/// presents) keeps its two images and its weight, and computes its bytes only when `pixels` is
/// first read: a RenderList draws it as `TextureSource.crossfade`, so backends mix the two images
/// themselves and never see bytes made on the CPU for one frame.
public struct Image: Sendable, Hashable, CustomStringConvertible {
  /// The largest width or height accepted, in pixels.
  public static let maxDimension = 16_384
  /// The most pixels accepted in one image (256 MiB of RGBA8).
  public static let maxPixelCount = 1 << 26

  public let width: Int
  public let height: Int
  /// `width * height * 4` bytes: R, G, B, A per pixel, premultiplied, rows top-down.
  public var pixels: [UInt8] {
    switch storage {
    case .bytes(let p): p
    case .crossfade(let c): c.pixels
    }
  }
  /// Identity of the pixel buffer, shared by copies of this value.
  public let id: UInt64
  private let storage: Storage

  /// The two images and the weight of a crossfade; nil for an image of its own bytes.
  public var crossfade: (from: Image?, to: Image?, weight: Float)? {
    guard case .crossfade(let c) = storage else { return nil }
    return (c.from, c.to, c.weight)
  }

  private enum Storage: Sendable {
    case bytes([UInt8])
    case crossfade(LazyCrossfade)
  }

  /// An image from premultiplied RGBA8 bytes, rows top-down.
  /// - Throws: `ImageError.invalidSize` when a side is not positive, `.tooLarge` beyond the
  ///   limits above, `.pixelCountMismatch` when `pixels` is not `width * height * 4` bytes.
  public init(width: Int, height: Int, pixels: [UInt8]) throws(ImageError) {
    try Image.validate(width: width, height: height)
    guard pixels.count == width * height * 4 else {
      throw .pixelCountMismatch(expected: width * height * 4, actual: pixels.count)
    }
    self.width = width
    self.height = height
    self.storage = .bytes(pixels)
    self.id = nextImageID.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// The crossfade of two images of one size at `weight` (0 is `from`, 1 is `to`), per byte by
  /// RenderMath.crossfade; a nil side is transparent. Its bytes are computed on first read.
  /// - Returns: nil when both sides are nil or their sizes differ.
  public init?(crossfading from: Image?, to: Image?, weight: Float) {
    guard let size = from ?? to else { return nil }
    if let from, let to, from.width != to.width || from.height != to.height { return nil }
    self.width = size.width
    self.height = size.height
    self.storage = .crossfade(LazyCrossfade(from: from, to: to, weight: weight))
    self.id = nextImageID.wrappingAdd(1, ordering: .relaxed).oldValue
  }

  /// An image filled with one colour.
  public init(width: Int, height: Int, color: Color) throws(ImageError) {
    try Image.validate(width: width, height: height)
    let p = color.premultiplied
    let px: [UInt8] = [p.x, p.y, p.z, p.w].map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
    var bytes = [UInt8](repeating: 0, count: width * height * 4)
    for i in stride(from: 0, to: bytes.count, by: 4) {
      bytes[i] = px[0]
      bytes[i + 1] = px[1]
      bytes[i + 2] = px[2]
      bytes[i + 3] = px[3]
    }
    try self.init(width: width, height: height, pixels: bytes)
  }

  /// Checks a size against the limits without allocating.
  public static func validate(width: Int, height: Int) throws(ImageError) {
    guard width > 0, height > 0 else { throw .invalidSize(width: width, height: height) }
    guard width <= maxDimension, height <= maxDimension, width * height <= maxPixelCount else {
      throw .tooLarge(width: width, height: height, maxDimension: maxDimension)
    }
  }

  /// The premultiplied RGBA bytes of the pixel at column `x`, row `y` (row 0 at the top).
  public func pixel(x: Int, y: Int) -> SIMD4<UInt8> {
    let i = (y * width + x) * 4
    return SIMD4(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
  }

  /// Same size and same pixels; the ids may differ.
  public static func == (a: Image, b: Image) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    if a.id == b.id { return true }
    if case .crossfade(let x) = a.storage, case .crossfade(let y) = b.storage, x.sameRecipe(as: y) { return true }
    return a.pixels == b.pixels
  }

  /// Consistent with `==`, which may compare pixels: equal images have equal sizes.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(width)
    hasher.combine(height)
  }

  public var description: String { "Image(\(width)×\(height))" }
}

/// Why an image could not be made.
public enum ImageError: Error, Equatable, Sendable, CustomStringConvertible {
  case invalidSize(width: Int, height: Int)
  case tooLarge(width: Int, height: Int, maxDimension: Int)
  case pixelCountMismatch(expected: Int, actual: Int)

  public var description: String {
    switch self {
    case .invalidSize(let w, let h): "invalid image size \(w)×\(h): both sides must be positive"
    case .tooLarge(let w, let h, let m):
      "image of \(w)×\(h) is too large: at most \(m) pixels a side and \(Image.maxPixelCount) pixels"
    case .pixelCountMismatch(let e, let a): "image buffer holds \(a) bytes, expected \(e)"
    }
  }
}

/// The recipe of a crossfade and, once read, its bytes.
private final class LazyCrossfade: Sendable {
  let from: Image?
  let to: Image?
  let weight: Float
  private let cache = Locked<[UInt8]?>(nil)

  init(from: Image?, to: Image?, weight: Float) {
    self.from = from
    self.to = to
    self.weight = weight
  }

  var pixels: [UInt8] {
    cache.withLock { cached in
      if let cached { return cached }
      let size = (from ?? to)!
      let bytes = RenderMath.crossfade(
        from?.pixels, to?.pixels, count: size.width * size.height * 4, weight: weight)
      cached = bytes
      return bytes
    }
  }

  func sameRecipe(as o: LazyCrossfade) -> Bool {
    from?.id == o.from?.id && to?.id == o.to?.id && weight == o.weight
  }
}
