import Foundation

/// UIKit's image (AppKit's `NSImage`), as layer code meets it: `layer.contents =
/// UIImage(named: "star")?.cgImage`, `UIImage(contentsOfFile: path)`, a particle's
/// `cell.contents = UIImage(named: "spark")?.cgImage`. A reference type over a decoded `Image`
/// (PNG or JPEG, decoded by LayerKitMedia, which the LayerKit product links and which registers
/// itself as the program loads).
///
/// `UIImage(named:)` looks in `UIImage.searchPaths` — the folders you set, in order; the current
/// directory at first — for the name as given, then with `.png`, `@2x.png`, `@3x.png`, `.jpg`
/// and `.jpeg`: there is no app bundle or asset catalogue offscreen. A name that is found nowhere,
/// or a file that does not decode, gives nil, as UIKit's does.
open class UIImage: _ExpressibleByImageLiteral, @unchecked Sendable {
  /// The pixels (Core Graphics' image: LayerKit's `Image`), what `contents` takes.
  public let cgImage: Image?
  /// Points per pixel: the `@2x` or `@3x` of the file's name, else 1.
  public let scale: CGFloat

  public convenience init(cgImage: Image, scale: CGFloat = 1) { self.init(pixels: cgImage, scale: scale) }

  /// Xcode's image literal, `#imageLiteral(resourceName: "star")`: `UIImage(named:)`, with no
  /// pixels (`cgImage` nil) when the name is found nowhere.
  public required convenience init(imageLiteralResourceName name: String) {
    let found = UIImage(named: name)
    self.init(pixels: found?.cgImage, scale: found?.scale ?? 1)
  }

  /// An image of these pixels, or of none (an image literal whose file is found nowhere).
  init(pixels: Image?, scale: CGFloat) {
    self.cgImage = pixels
    self.scale = scale
  }

  /// UIImage(cgImage:scale:orientation:): the orientation is not applied.
  public convenience init(cgImage: Image, scale: CGFloat, orientation: Int) {
    self.init(cgImage: cgImage, scale: scale)
  }

  /// UIImage(contentsOfFile:): the PNG or JPEG at `path`; nil when it cannot be read or decoded
  /// (only a regular file is read, so a FIFO or a device never blocks).
  public convenience init?(contentsOfFile path: String) {
    guard let image = UIImage.readFile(path) else { return nil }
    self.init(cgImage: image, scale: UIImage.scale(ofFile: path))
  }

  /// UIImage(data:): PNG or JPEG bytes; nil when they do not decode.
  public convenience init?(data: Data) {
    guard let image = UIImage.decode(data, name: "data") else { return nil }
    self.init(cgImage: image)
  }

  /// UIImage(named:): the first file of that name in `searchPaths` (see the type's note).
  public convenience init?(named name: String) {
    for folder in UIImage.searchPaths {
      for suffix in ["", ".png", "@2x.png", "@3x.png", ".jpg", ".jpeg"] {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(name + suffix).path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else {
          continue
        }
        self.init(contentsOfFile: path)
        return
      }
    }
    return nil
  }

  /// UIImage(systemName:): nil — SF Symbols are Apple's, and no copy of them is here. Said once
  /// on standard error, with the name, so a missing icon is not a silent blank.
  public convenience init?(systemName name: String) {
    let first = UIImage.symbolsSaid.withLock { said in
      defer { said = true }
      return !said
    }
    if first {
      FileHandle.standardError.write(
        Data(
          "LayerKit: UIImage(systemName: \"\(name)\") is nil: SF Symbols are not available off Apple's systems\n".utf8))
    }
    return nil
  }
  private static let symbolsSaid = Locked(false)

  /// The folders `UIImage(named:)` looks in, in order (the current directory at first).
  public static var searchPaths: [String] {
    get { search.withLock { $0 } }
    set { search.withLock { $0 = newValue } }
  }
  private static let search = Locked([FileManager.default.currentDirectoryPath])

  /// The size in points: the pixels divided by `scale`.
  public var size: CGSize {
    guard let cgImage else { return .zero }
    return CGSize(width: CGFloat(cgImage.width) / scale, height: CGFloat(cgImage.height) / scale)
  }

  /// NSImage.cgImage(forProposedRect:context:hints:): the pixels.
  public func cgImage(forProposedRect rect: UnsafeMutablePointer<CGRect>?, context: AnyObject?, hints: [String: Any]?)
    -> Image?
  { cgImage }

  /// UIImage.draw(in:): the image into the current UIKit context (UIGraphicsPushContext).
  public func draw(in rect: CGRect) {
    guard let cgImage else { return }
    UIGraphicsGetCurrentContext()?.draw(cgImage, in: rect)
  }

  /// UIImage.draw(at:): at its size in points.
  public func draw(at point: CGPoint) { draw(in: CGRect(origin: point, size: size)) }

  // MARK: Decoding, registered by LayerKitMedia

  /// Decodes PNG or JPEG bytes (`name` for messages); nil when they do not decode.
  public typealias Decoder = @Sendable (Data, String) -> Image?
  /// Reads and decodes the PNG or JPEG file at a path; nil when it cannot.
  public typealias FileReader = @Sendable (String) -> Image?

  /// Installs what `UIImage` decodes with. LayerKitMedia registers its own as the program loads;
  /// a program without it decodes nothing (every image initializer gives nil).
  public static func registerDecoder(_ decoder: @escaping Decoder, fileReader: @escaping FileReader) {
    decoderSlot.withLock { $0 = (decoder, fileReader) }
  }

  private static let decoderSlot = Locked<(Decoder, FileReader)?>(nil)

  static func decode(_ data: Data, name: String) -> Image? { decoderSlot.withLock { $0 }?.0(data, name) }
  static func readFile(_ path: String) -> Image? { decoderSlot.withLock { $0 }?.1(path) }

  static func scale(ofFile path: String) -> CGFloat {
    let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    return stem.hasSuffix("@3x") ? 3 : stem.hasSuffix("@2x") ? 2 : 1
  }
}

#if os(Linux)
  /// AppKit's image: LayerKit's `UIImage`.
  public typealias NSImage = UIImage
  /// Core Graphics' image: LayerKit's `Image` (premultiplied RGBA8), what `contents` takes.
  public typealias CGImage = Image
#endif

/// The type an untyped `#imageLiteral(resourceName:)` makes, as UIKit and AppKit declare it.
public typealias _ImageLiteralType = UIImage
