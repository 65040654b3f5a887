import CPNG
import Foundation
import LayerKit

/// PNG through libpng's simplified `png_image` API, which reports errors by return value and a
/// message (its own setjmp/longjmp stays inside libpng). The one exception, Adam7 16-bit files,
/// goes through the classic-API helper in CPNG/shim.h, which works around a libpng bug.
enum PNGCodec {
  static func decode(_ data: Data, name: String) throws(MediaError) -> Image {
    let result: Result<Image, MediaError> = data.withUnsafeBytes { bytes in
      if ContainerScan.png(bytes) == .truncated {
        // A file that ends with an IEND chunk, as a whole PNG does, is not cut short: a chunk
        // length that runs past it is damage.
        let iend: [UInt8] = [0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        let endsWithIEND = bytes.count >= 8 && Array(bytes.suffix(8)) == iend
        return .failure(
          endsWithIEND
            ? .corrupt(path: name, reason: "a chunk's length runs past the end of the image data")
            : .truncated(path: name))
      }
      var png = png_image()
      png.version = UInt32(PNG_IMAGE_VERSION)
      defer { png_image_free(&png) }
      // libpng reads from `bytes` until png_image_finish_read returns, so both calls stay inside
      // this closure.
      guard png_image_begin_read_from_memory(&png, bytes.baseAddress, bytes.count) != 0 else {
        return .failure(error(png, name: name))
      }
      let width = Int(png.width)
      let height = Int(png.height)
      do {
        try Image.validate(width: width, height: height)
      } catch {
        return .failure(.tooLarge(path: name, width: width, height: height))
      }
      var pixels = [UInt8](repeating: 0, count: width * height * 4)
      if isInterlaced16Bit(bytes) {
        // The simplified API's 16 → 8 bit path is broken for Adam7 in the system libpng (see
        // CPNG/shim.h); the classic-API helper gives the same pixels (the interlaced and plain
        // 16-bit fixtures decode to the same expected values), ignoring gAMA.
        var text = [CChar](repeating: 0, count: 128)
        let ok = pixels.withUnsafeMutableBytes { out in
          lk_png_read_rgba8(
            bytes.baseAddress, bytes.count, out.baseAddress!.assumingMemoryBound(to: UInt8.self),
            UInt32(width), UInt32(height), &text, text.count)
        }
        guard ok != 0 else {
          let message = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
          return .failure(error(String(decoding: message, as: UTF8.self), name: name))
        }
        Premultiply.inPlace(&pixels)
        return makeImage(pixels, width: width, height: height, name: name)
      }
      png.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA
      // Without this flag libpng takes a 16-bit file without gAMA/sRGB as linear light and
      // gamma-encodes it on the way to 8 bits; with it, 16-bit samples are scaled to 8 bits as
      // stored (round(v / 257), pinned by a test), which is what the parity contract wants.
      png.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
      let ok = pixels.withUnsafeMutableBytes { out in
        png_image_finish_read(&png, nil, out.baseAddress, Int32(width * 4), nil)
      }
      guard ok != 0 else { return .failure(error(png, name: name)) }
      Premultiply.inPlace(&pixels)
      return makeImage(pixels, width: width, height: height, name: name)
    }
    return try result.get()
  }

  /// Whether IHDR (always the first chunk, at offset 8; libpng has checked it by now) declares
  /// bit depth 16 and Adam7 interlace.
  static func isInterlaced16Bit(_ bytes: UnsafeRawBufferPointer) -> Bool {
    bytes.count > 28 && bytes[24] == 16 && bytes[28] == 1
  }

  static func makeImage(_ pixels: [UInt8], width: Int, height: Int, name: String) -> Result<Image, MediaError> {
    do {
      return .success(try Image(width: width, height: height, pixels: pixels))
    } catch {
      return .failure(.tooLarge(path: name, width: width, height: height))
    }
  }

  static func encode(_ image: Image, name: String) throws(MediaError) -> Data {
    let straight = Premultiply.straightened(image.pixels)
    var png = png_image()
    png.version = UInt32(PNG_IMAGE_VERSION)
    png.width = UInt32(image.width)
    png.height = UInt32(image.height)
    png.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)  // PNG_FORMAT_RGBA
    defer { png_image_free(&png) }

    // deflate's worst case plus chunk overhead (libpng's PNG_IMAGE_PNG_SIZE_MAX, which Swift
    // cannot import), so one pass normally suffices; if libpng still asks for more, retry once.
    let raw = (image.width * 4 + 1) * image.height
    var capacity = raw + (raw + 7) >> 3 + (raw + 63) >> 6 + 12 * (raw / 8192 + 1) + 4096
    for _ in 0..<2 {
      var out = Data(count: capacity)
      var size = png_alloc_size_t(capacity)
      let ok = straight.withUnsafeBytes { src in
        out.withUnsafeMutableBytes { dst in
          png_image_write_to_memory(&png, dst.baseAddress, &size, 0, src.baseAddress, 0, nil)
        }
      }
      if ok != 0 {
        out.removeSubrange(Int(size)..<capacity)
        return out
      }
      guard Int(size) > capacity else { break }
      capacity = Int(size)
      png_image_free(&png)
      png.warning_or_error = 0
    }
    throw .writeFailed(path: name, reason: "libpng: \(message(png))")
  }

  /// Encodes with libpng's classic API at a chosen zlib level and filter set (CPNG/shim.h), for
  /// `PNGCompression` other than `.default`. Same pixels, same straight-alpha conversion and the
  /// same sRGB chunk as `encode(_:name:)`; only the compressed stream differs.
  static func encode(_ image: Image, name: String, level: Int32, filters: Int32) throws(MediaError) -> Data {
    let straight = Premultiply.straightened(image.pixels)
    var text = [CChar](repeating: 0, count: 128)
    var output = lk_png_output()
    // A first allocation near the expected size saves most of the doubling copies: level 1 on a
    // photo-like frame typically lands at 40–60 % of the raw size.
    let initial = image.width * image.height * 2 + 4096
    let ok = text.withUnsafeMutableBufferPointer { message in
      output.message = message.baseAddress
      output.message_size = message.count
      return straight.withUnsafeBufferPointer { src in
        lk_png_write_rgba8(
          src.baseAddress, UInt32(image.width), UInt32(image.height), level, filters, initial, &output)
      }
    }
    guard ok != 0 else {
      let message = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      throw .writeFailed(path: name, reason: "libpng: \(String(decoding: message, as: UTF8.self))")
    }
    defer { lk_png_free_output(&output) }
    return Data(bytes: output.data, count: output.size)
  }

  /// libpng's message for the last failure.
  static func message(_ png: png_image) -> String {
    withUnsafeBytes(of: png.message) { raw in
      let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      return text.isEmpty ? "unknown error" : text
    }
  }

  /// Maps libpng's failure message to a case. Running out of input shows up as libpng's memory
  /// reader refusing to read past the end, or as a non-IDAT chunk arriving where image data
  /// should continue.
  static func error(_ png: png_image, name: String) -> MediaError {
    error(message(png), name: name)
  }

  static func error(_ text: String, name: String) -> MediaError {
    let truncation = ["read beyond end of data", "Not enough image data", "unexpected end"]
    if truncation.contains(where: { text.localizedCaseInsensitiveContains($0) }) {
      return .truncated(path: name)
    }
    return .corrupt(path: name, reason: "libpng: \(text)")
  }
}

/// Conversions between straight and premultiplied alpha, both rounding to nearest.
package enum Premultiply {
  /// `c = round(c · a / 255)` for every pixel with `a < 255`.
  package static func inPlace(_ pixels: inout [UInt8]) {
    pixels.withUnsafeMutableBufferPointer { p in
      var i = 0
      while i < p.count {
        let a = UInt32(p[i + 3])
        if a != 255 {
          // round(x / 255) == (x + 127) / 255 for integer x: 255 is odd, so there are no ties.
          p[i] = UInt8((UInt32(p[i]) * a + 127) / 255)
          p[i + 1] = UInt8((UInt32(p[i + 1]) * a + 127) / 255)
          p[i + 2] = UInt8((UInt32(p[i + 2]) * a + 127) / 255)
        }
        i += 4
      }
    }
  }

  /// The pixels with alpha un-premultiplied: `round(c · 255 / a)` (halves up), clamped to 255;
  /// `a = 0` gives all zeros. Returns the input itself (no copy) when every pixel is opaque.
  package static func straightened(_ pixels: [UInt8]) -> [UInt8] {
    let opaque = pixels.withUnsafeBufferPointer { p in
      var i = 3
      while i < p.count {
        if p[i] != 255 { return false }
        i += 4
      }
      return true
    }
    if opaque { return pixels }
    var out = pixels
    out.withUnsafeMutableBufferPointer { p in
      var i = 0
      while i < p.count {
        let a = UInt32(p[i + 3])
        if a == 0 {
          p[i] = 0
          p[i + 1] = 0
          p[i + 2] = 0
        } else if a != 255 {
          p[i] = UInt8(min(255, (UInt32(p[i]) * 255 + a / 2) / a))
          p[i + 1] = UInt8(min(255, (UInt32(p[i + 1]) * 255 + a / 2) / a))
          p[i + 2] = UInt8(min(255, (UInt32(p[i + 2]) * 255 + a / 2) / a))
        }
        i += 4
      }
    }
    return out
  }
}
