import CJPEG
import Foundation
import LayerKit

/// JPEG through TurboJPEG's tj* API, which reports errors by return value. An EXIF Orientation
/// tag is applied after decoding (`ExifOrientation`), so photos come out upright.
enum JPEGCodec {
  static func decode(_ data: Data, name: String) throws(MediaError) -> Image {
    guard let handle = tjInitDecompress() else {
      throw .unreadable(path: name, reason: "TurboJPEG could not start a decompressor")
    }
    defer { tjDestroy(handle) }
    let result: Result<Image, MediaError> = data.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      guard let base = bytes.baseAddress else { return .failure(.truncated(path: name)) }
      if ContainerScan.jpeg(UnsafeRawBufferPointer(bytes)) == .truncated {
        // A file that ends with EOI (FF D9), as a whole JPEG does, is not cut short: a segment
        // length that runs past it is damage.
        let endsWithEOI = bytes.count >= 2 && bytes[bytes.count - 2] == 0xFF && bytes[bytes.count - 1] == 0xD9
        return .failure(
          endsWithEOI
            ? .corrupt(path: name, reason: "a marker segment's length runs past the end of the image data")
            : .truncated(path: name))
      }
      let size = UInt(bytes.count)
      var width: Int32 = 0
      var height: Int32 = 0
      var subsampling: Int32 = 0
      var colorspace: Int32 = 0
      guard tjDecompressHeader3(handle, base, size, &width, &height, &subsampling, &colorspace) == 0
      else { return .failure(error(handle, data: bytes, name: name)) }
      if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
        return .failure(.unsupportedFormat(path: name, reason: "CMYK JPEG; only RGB and greyscale are read"))
      }
      let w = Int(width)
      let h = Int(height)
      guard w > 0, h > 0 else {
        return .failure(.corrupt(path: name, reason: "the header declares a \(w)×\(h) image"))
      }
      do {
        try Image.validate(width: w, height: h)
      } catch {
        return .failure(.tooLarge(path: name, width: w, height: h))
      }
      var pixels = [UInt8](repeating: 0, count: w * h * 4)
      // STOPONWARNING: libjpeg treats a truncated or damaged stream as a warning and pads the
      // rest of the image with grey; here it is an error. LIMITSCANS: a progressive file with
      // thousands of scans is refused instead of taking minutes.
      let flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
      let status = pixels.withUnsafeMutableBufferPointer { out in
        tjDecompress2(
          handle, base, size, out.baseAddress, width, width * 4, height, Int32(TJPF_RGBA.rawValue),
          Int32(flags))
      }
      guard status == 0 else { return .failure(error(handle, data: bytes, name: name)) }
      // JPEG has no alpha: TurboJPEG writes 255, so the pixels are already premultiplied.
      // Photos are stored as the sensor read them; EXIF says how to turn them upright.
      let orientation = ExifOrientation.find(in: UnsafeRawBufferPointer(bytes))
      let upright = ExifOrientation.apply(orientation, to: pixels, width: w, height: h)
      do {
        return .success(try Image(width: upright.width, height: upright.height, pixels: upright.pixels))
      } catch {
        return .failure(.tooLarge(path: name, width: upright.width, height: upright.height))
      }
    }
    return try result.get()
  }

  /// Maps TurboJPEG's message for the last failure to a case.
  static func error(_ handle: tjhandle, data: UnsafeBufferPointer<UInt8>, name: String) -> MediaError {
    let text = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
    // When libjpeg runs out of input it inserts a fake EOI marker and warns ("Premature end of
    // JPEG file", made an error by TJFLAG_STOPONWARNING); depending on where the cut falls the
    // failure then reads as a missing SOS, an empty image or a data segment ending early. Those
    // count as truncation when the file does not end with EOI (FF D9) as a whole JPEG does.
    let endsWithEOI = data.count >= 2 && data[data.count - 2] == 0xFF && data[data.count - 1] == 0xD9
    let runsOut = ["premature end", "missing SOS", "no image", "Empty JPEG image"]
    if !endsWithEOI && runsOut.contains(where: { text.localizedCaseInsensitiveContains($0) }) {
      return .truncated(path: name)
    }
    return .corrupt(path: name, reason: "libjpeg: \(text)")
  }
}
