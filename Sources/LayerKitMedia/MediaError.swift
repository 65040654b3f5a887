import LayerKit

/// Why an image file could not be read, decoded, encoded or written, or why two images could not
/// be compared. Every case that concerns a file names it (`path` is the path given, or the `name`
/// passed to `ImageFile.decode(_:name:)`).
///
/// Tests should match on the case; the text of `reason` is for people and may change.
public enum MediaError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No file or folder exists at `path`.
  case fileNotFound(path: String)
  /// The file exists but cannot be read as a file: a folder, a device, no permission, an I/O error.
  case unreadable(path: String, reason: String)
  /// The bytes are not a format this module decodes (unknown signature, CMYK JPEG, …).
  case unsupportedFormat(path: String, reason: String)
  /// The bytes claim to be PNG or JPEG but are damaged (bad CRC, bad header, bad compressed data,
  /// an empty file).
  case corrupt(path: String, reason: String)
  /// The file ends before the image does.
  case truncated(path: String)
  /// The header declares a size beyond `Image.maxDimension` / `Image.maxPixelCount` (or not
  /// positive); nothing was allocated for it.
  case tooLarge(path: String, width: Int, height: Int)
  /// Encoding or writing failed; no file was left under the target name.
  case writeFailed(path: String, reason: String)
  /// Two images that were to be compared have different sizes.
  case sizeMismatch(expectedWidth: Int, expectedHeight: Int, actualWidth: Int, actualHeight: Int)

  /// One line naming the file and the reason.
  public var description: String {
    switch self {
    case .fileNotFound(let path): "\(path): no such file"
    case .unreadable(let path, let reason): "\(path): cannot read the file: \(reason)"
    case .unsupportedFormat(let path, let reason): "\(path): unsupported image format: \(reason)"
    case .corrupt(let path, let reason): "\(path): corrupt image: \(reason)"
    case .truncated(let path): "\(path): truncated image: the file ends before the image data does"
    case .tooLarge(let path, let w, let h):
      "\(path): image of \(w)×\(h) is too large (at most \(Image.maxDimension) pixels a side and "
        + "\(Image.maxPixelCount) pixels)"
    case .writeFailed(let path, let reason): "\(path): cannot write the image: \(reason)"
    case .sizeMismatch(let ew, let eh, let aw, let ah):
      "image sizes differ: expected \(ew)×\(eh), actual \(aw)×\(ah)"
    }
  }
}
