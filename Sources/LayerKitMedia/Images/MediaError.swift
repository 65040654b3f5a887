import LayerKit

/// Why an image file or a Y4M stream could not be read, decoded, encoded or written, why an image
/// could not be converted to Y'CbCr, or why two images could not be compared. Every case that
/// concerns a file names it (`path` is the path given, or the `name` passed to
/// `ImageFile.decode(_:name:)` / `Y4MReader(data:name:)`).
///
/// Tests should match on the case; the text of `reason` is for people and may change.
public enum MediaError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No file or folder exists at `path`.
  case fileNotFound(path: String)
  /// The file exists but cannot be read as a file: a folder, a device, no permission, an I/O error.
  case unreadable(path: String, reason: String)
  /// The bytes are not a format this module decodes (unknown signature, CMYK JPEG, a Y4M colour
  /// space other than 4:2:0 and 4:4:4, …).
  case unsupportedFormat(path: String, reason: String)
  /// The bytes claim to be PNG, JPEG or Y4M but are damaged (bad CRC, bad header, bad compressed
  /// data, a Y4M header or frame line that does not parse, an empty file).
  case corrupt(path: String, reason: String)
  /// The file ends before the image does (for Y4M: inside the header, a frame line or a frame's
  /// planes; ending exactly after a whole frame is the normal end).
  case truncated(path: String)
  /// The header declares a size beyond `Image.maxDimension` / `Image.maxPixelCount` (or not
  /// positive); nothing was allocated for it.
  case tooLarge(path: String, width: Int, height: Int)
  /// Encoding or writing failed; no file was left under the target name.
  case writeFailed(path: String, reason: String)
  /// Two images that were to be compared have different sizes, or an image handed to a
  /// `Y4MWriter` is not the size of its stream.
  case sizeMismatch(expectedWidth: Int, expectedHeight: Int, actualWidth: Int, actualHeight: Int)
  /// 4:2:0 conversion needs an even width and height: each chroma sample covers a whole 2×2
  /// block of pixels.
  case oddSizeForChromaSubsampling(width: Int, height: Int)
  /// A caller's buffer is not the size the operation writes or reads (`YUVFrameLayout.byteCount`,
  /// `Y4MWriter.frameByteCount`).
  case bufferSizeMismatch(expected: Int, actual: Int)
  /// A frame rate that is not a positive, finite number of frames per second (within the range
  /// `FrameRate` accepts), as given.
  case invalidFrameRate(value: String)

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
    case .oddSizeForChromaSubsampling(let w, let h):
      "cannot subsample chroma 4:2:0 for a \(w)×\(h) image: width and height must be even"
    case .bufferSizeMismatch(let e, let a): "the buffer holds \(a) bytes, expected \(e)"
    case .invalidFrameRate(let v):
      "invalid frame rate \(v): it must be a positive, finite number of frames per second"
    }
  }
}
