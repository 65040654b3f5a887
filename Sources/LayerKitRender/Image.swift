import Synchronization

private let nextImageID = Atomic<UInt64>(1)

/// An RGBA8 image with premultiplied alpha, rows top-down (row 0 is the top), tightly packed:
/// the one pixel format every part of LayerKit agrees on (docs/ARCHITECTURE.md, the parity contract).
///
/// Images are immutable values. Each one made by an initializer gets a fresh `id`, which copies
/// share; a backend may key caches (GPU textures) on it.
public struct Image: Sendable, Hashable, CustomStringConvertible {
  /// The largest width or height accepted, in pixels.
  public static let maxDimension = 16_384
  /// The most pixels accepted in one image (256 MiB of RGBA8).
  public static let maxPixelCount = 1 << 26

  public let width: Int
  public let height: Int
  /// `width * height * 4` bytes: R, G, B, A per pixel, premultiplied, rows top-down.
  public let pixels: [UInt8]
  /// Identity of the pixel buffer, shared by copies of this value.
  public let id: UInt64

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
    self.pixels = pixels
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
    a.width == b.width && a.height == b.height && (a.id == b.id || a.pixels == b.pixels)
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
