import Foundation
import LayerKit

extension ImageFile {
  /// Reads a still in any format LayerKit takes: PNG and JPEG as `read(_:)` does (EXIF
  /// orientation applied), and WebP, BMP, TIFF, GIF, SVG, HEIC and AVIF through `OtherStills`.
  ///
  /// An SVG is rasterized at the largest size with its aspect that fits inside `size`, so a
  /// picture drawn at that size stays sharp; every other format is decoded at its own size. A
  /// GIF gives its first frame, an animated one too. `read(_:)` itself stays PNG and JPEG only.
  /// - Parameters:
  ///   - url: a file URL.
  ///   - size: the pixel size the picture is drawn at, or nil for the size an SVG states.
  /// - Returns: the image, premultiplied RGBA8, rows top-down.
  /// - Throws: what `read(_:)` throws for PNG, JPEG and files of no format LayerKit reads;
  ///   `.unreadable` for a path that is not a regular file; `.unsupportedFormat` when the program
  ///   that decodes the format is not installed (the reason names its Debian package);
  ///   `.corrupt` when it cannot decode the file (the reason in its words). Each names `url.path`.
  public static func readStill(_ url: URL, fitting size: (width: Int, height: Int)? = nil) throws(MediaError) -> Image {
    let path = url.path
    if let kind = FileIO.irregularKind(path) { throw .unreadable(path: path, reason: "\(kind), not a regular file") }
    guard let head = FileIO.head(path, count: 1024),
      OtherStills.format(of: head) != nil || OtherStills.isGIF(head)
    else { return try read(url) }
    do {
      return try OtherStills.read(path, fitting: size)
    } catch .programNotFound(let program) {
      throw .unsupportedFormat(path: path, reason: "\(ProcessError.programNotFound(program: program))")
    } catch .unreadableClip(_, let reason) where reason == OtherStills.heifConvertMissing {
      throw .unsupportedFormat(path: path, reason: reason)
    } catch .unreadableClip(_, let reason) {
      throw .corrupt(path: path, reason: reason)
    } catch {
      throw .corrupt(path: path, reason: error.description)
    }
  }
}
