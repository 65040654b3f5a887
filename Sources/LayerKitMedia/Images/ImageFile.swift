import Foundation
import LayerKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads PNG and JPEG files into `Image`s and writes `Image`s as PNG.
///
/// Decoded pixels follow the parity contract: RGBA8, rows top-down, alpha premultiplied on load as
/// `round(c · a / 255)`, colour values as stored (sRGB-encoded, no gamma change). Every failure is a
/// `MediaError` that names the file.
public enum ImageFile {
  /// Files larger than this are refused before they are read: a PNG or JPEG of the largest
  /// accepted image is far smaller.
  static let maxFileSize = 1 << 30

  /// Reads and decodes the PNG or JPEG file at `url`.
  ///
  /// Stills in other formats (WebP, BMP, TIFF, GIF, SVG, HEIC, AVIF) are read by
  /// `readStill(_:fitting:)`, which hands them to `OtherStills`.
  ///
  /// The format is taken from the file's first bytes (its signature), never from its extension.
  /// Only regular files are read: a folder, a FIFO or a device is `.unreadable`, so a read never
  /// blocks waiting for a writer.
  /// - Parameters:
  ///   - url: a file URL.
  /// - Returns: the image, premultiplied RGBA8, rows top-down.
  /// - Throws: `.fileNotFound`, `.unreadable`, or any error of `decode(_:name:)`, each naming
  ///   `url.path`.
  public static func read(_ url: URL) throws(MediaError) -> Image {
    let path = url.path
    let data = try FileIO.readRegularFile(path, maxSize: maxFileSize)
    return try decode(data, name: path)
  }

  /// Decodes PNG or JPEG bytes, recognised by their signature.
  ///
  /// A JPEG's EXIF Orientation tag (APP1, IFD0 tag 0x0112, values 1…8) is applied: the image is
  /// returned upright as a viewer shows it, rotated and/or mirrored from the stored pixels, with
  /// width and height swapped for the 90° orientations (5…8). A missing or malformed EXIF block
  /// means "as stored"; it is never an error.
  /// - Parameters:
  ///   - data: the whole file.
  ///   - name: how errors name the source (usually its path).
  /// - Returns: the image, premultiplied RGBA8, rows top-down.
  /// - Throws: `.unsupportedFormat` for a signature other than PNG's or JPEG's and for CMYK JPEG,
  ///   `.corrupt` for damaged data (or an empty file), `.truncated` when the data ends before the
  ///   image does, `.tooLarge` when the header declares a size `Image.validate` refuses (checked
  ///   before any pixel buffer is allocated).
  public static func decode(_ data: Data, name: String) throws(MediaError) -> Image {
    let head = [UInt8](data.prefix(16))
    if head.isEmpty { throw .corrupt(path: name, reason: "the file is empty (0 bytes)") }
    if head.starts(with: Signature.png) { return try PNGCodec.decode(data, name: name) }
    if head.starts(with: Signature.jpeg) { return try JPEGCodec.decode(data, name: name) }
    if head.count < Signature.png.count, Signature.png.starts(with: head) {
      throw .truncated(path: name)
    }
    if head.count < Signature.jpeg.count, Signature.jpeg.starts(with: head) {
      throw .truncated(path: name)
    }
    throw .unsupportedFormat(path: name, reason: Signature.describeUnknown(head))
  }

  /// Encodes an image as an 8-bit RGBA PNG (non-interlaced, with an sRGB chunk).
  ///
  /// PNG stores straight (non-premultiplied) alpha, so each pixel is un-premultiplied as
  /// `c' = round(c · 255 / a)` (halves round up; `a = 0` gives `0, 0, 0, 0`; a colour channel
  /// above its alpha, which is not a valid premultiplied value, is clamped to 255).
  ///
  /// Round trip: `decode(encodePNG(image))` equals `image` for every image whose pixels are valid
  /// premultiplied values (each colour channel ≤ alpha). For `a > 0`,
  /// `round(round(c · 255 / a) · a / 255) == c` because the first rounding error, at most ½, is
  /// scaled by `a / 255 < 1` before the second rounding; a test checks all 32 896 pairs.
  /// - Parameters:
  ///   - image: premultiplied RGBA8, rows top-down.
  ///   - compression: size against speed (`.fast` for frame sequences); every choice decodes to
  ///     the same pixels. The default, `.default`, is the output this function has always made.
  /// - Returns: the PNG file's bytes.
  /// - Throws: `.writeFailed` (path `"<memory>"`) if libpng reports an error.
  public static func encodePNG(_ image: Image, compression: PNGCompression = .default) throws(MediaError) -> Data {
    try encode(image, name: "<memory>", compression: compression)
  }

  static func encode(_ image: Image, name: String, compression: PNGCompression) throws(MediaError) -> Data {
    switch compression.mode {
    case .standard: try PNGCodec.encode(image, name: name)
    case .tuned(let level, let filters): try PNGCodec.encode(image, name: name, level: level, filters: filters)
    }
  }

  /// Encodes an image as PNG (see `encodePNG(_:)`) and writes it to `url` atomically.
  ///
  /// The bytes go to a new temporary file in the same folder, which is then renamed over the
  /// target, so a reader sees either the old file or the whole new one. On any failure the
  /// temporary file is removed and nothing (and no partial file) is left under the target name;
  /// an existing file at the target is left as it was.
  /// - Parameters:
  ///   - image: premultiplied RGBA8, rows top-down.
  ///   - url: a file URL; its folder must exist.
  ///   - compression: size against speed; `.fast` (zlib level 1, one fixed row filter) suits
  ///     frame sequences. Every choice decodes to the same pixels.
  /// - Throws: `.writeFailed` naming `url.path` and the reason.
  public static func writePNG(
    _ image: Image, to url: URL, compression: PNGCompression = .default
  ) throws(MediaError) {
    let path = url.path
    let data = try encode(image, name: path, compression: compression)
    try FileIO.writeAtomically(data, to: path)
  }
}

/// File signatures ("magic numbers") used to sniff formats.
package enum Signature {
  package static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  /// SOI followed by the first byte of the next marker.
  package static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]

  /// A reason for `.unsupportedFormat` that names well-known formats we do not read.
  package static func describeUnknown(_ head: [UInt8]) -> String {
    if let known = knownFormat(head) { return "the data looks like \(known); only PNG and JPEG are read" }
    let hex = head.prefix(8).map { String(format: "%02X", $0) }.joined(separator: " ")
    return "unknown signature \(hex); only PNG and JPEG are read"
  }

  package static func knownFormat(_ head: [UInt8]) -> String? {
    func has(_ s: String, at offset: Int = 0) -> Bool {
      head.count >= offset + s.utf8.count && Array(head[offset..<offset + s.utf8.count]) == Array(s.utf8)
    }
    if has("GIF87a") || has("GIF89a") { return "GIF" }
    if has("RIFF") && has("WEBP", at: 8) { return "WebP" }
    if has("II*\0") || has("MM\0*") { return "TIFF" }
    if has("ftyp", at: 4) { return "an ISO media file (HEIC, AVIF or MP4)" }
    if has("BM") { return "BMP" }
    return nil
  }
}
