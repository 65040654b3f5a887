import Foundation
import LayerKit

/// Stills in the formats people also give — WebP, BMP, TIFF, GIF (its first frame), SVG
/// (rasterized by librsvg at the size it states, or at the size it is drawn), and HEIC and AVIF
/// photos — decoded into premultiplied RGBA, once, as PNG and JPEG are decoded by libpng and
/// libjpeg-turbo.
///
/// The ffmpeg program decodes all of them but HEIC and AVIF: Debian's ffmpeg 5.1 cannot read
/// HEIF files, so those go through libheif's `heif-convert` (Debian's `libheif-examples`
/// package), which applies the container's rotation and mirror (`irot`, `imir`) as a viewer
/// does; see `OtherStills+HEIF.swift`.
public enum OtherStills {
  /// The format of a still LayerKit reads through this type, from the file's first bytes (1024
  /// of them let an SVG's `<svg` element be found): "WebP", "BMP", "TIFF", "SVG", "HEIC",
  /// "AVIF" or "HEIF"; nil for anything else (PNG and JPEG included: those LayerKit reads
  /// itself).
  ///
  /// A GIF is nil here, though `read` decodes one: a GIF may be an animation, which is a clip
  /// where a clip may go. `stillFormat(ofFile:)` also says "GIF" for a GIF of one frame.
  public static func format(of head: [UInt8]) -> String? {
    if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
      return "WebP"
    }
    if head.starts(with: Array("BM".utf8)), head.count >= 14 { return "BMP" }
    if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
    if let heif = heifFormat(of: head) { return heif }
    let text = String(decoding: head.prefix(1024), as: UTF8.self)
    if text.contains("<svg") { return "SVG" }
    return nil
  }

  /// Decodes the first picture of `path` at the size it states (ffprobe for its size, ffmpeg
  /// for its pixels; heif-convert for HEIC and AVIF). The same as `read(_:fitting:)` with no
  /// size.
  /// - Throws: `ProcessError.unreadableClip` naming the file and the reason.
  public static func read(_ path: String) throws(ProcessError) -> Image {
    try read(path, fitting: nil)
  }

  /// Decodes the first picture of `path`; an SVG is rasterized at the largest size with its
  /// aspect that fits inside `size`, so a picture drawn at that size stays sharp.
  ///
  /// A GIF gives its first frame — an animated GIF too, when it is given where a still is
  /// expected. A HEIC or AVIF gives its primary image, turned by the container's `irot` and
  /// mirrored by its `imir` (the EXIF Orientation a HEIF file may also carry is ignored, as
  /// HEIF readers do: the container's transforms already hold it).
  /// - Parameters:
  ///   - path: the file.
  ///   - size: the pixel size the picture is drawn at, or nil for the size the SVG states. Other
  ///     formats are decoded at their own size whatever it says. A box with a side of 0 or less
  ///     is ignored; the result stays within `Image.maxDimension` and `Image.maxPixelCount`.
  /// - Returns: the image, premultiplied RGBA8, rows top-down.
  /// - Throws: `ProcessError.unreadableClip` naming the file and the reason: ffmpeg's or
  ///   heif-convert's, or that heif-convert is not installed (and which Debian package has it);
  ///   `ProcessError.programNotFound` when ffmpeg or ffprobe is not installed.
  public static func read(_ path: String, fitting size: (width: Int, height: Int)?) throws(ProcessError) -> Image {
    let head = FileIO.head(path, count: 1024) ?? []
    if let heif = heifFormat(of: head) { return try readHEIF(path, format: heif) }
    // An animated WebP (a VP8X chunk first, its animation flag set) is whole and valid, but
    // Debian's ffmpeg 5.1 decodes no frame of it: say so, rather than "damaged".
    if format(of: head) == "WebP", head.count > 20, Array(head[12..<16]) == Array("VP8X".utf8), head[20] & 0x02 != 0 {
      throw .unreadableClip(
        path: path,
        reason: "an animated WebP, which ffmpeg 5.1 does not decode; give one frame of it (webpmux -get frame 1, "
          + "Debian's webp package) or the animation as a video")
    }
    let probe = try FFmpeg.start(
      try FFmpeg.ffprobe(),
      ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", "-i", path],
      stdin: false, stdout: .pipe)
    let text = String(decoding: probe.readAll(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let stated = text.split(separator: ",").compactMap { Int($0) }
    guard probe.wait() == 0, stated.count == 2, stated[0] > 0, stated[1] > 0, stated[0] <= Image.maxDimension,
      stated[1] <= Image.maxDimension
    else {
      throw .unreadableClip(path: path, reason: FFmpeg.explain(probe.errorTail(lines: 4), path: path))
    }
    var (width, height) = (stated[0], stated[1])
    var decoderOptions: [String] = []
    if let size, format(of: head) == "SVG", let drawn = fitted(width: width, height: height, into: size) {
      (width, height) = drawn
      // librsvg's options in ffmpeg: the exact size (keep_ar would recompute the height from the
      // width, which may round otherwise than `fitted`).
      decoderOptions = ["-width", "\(width)", "-height", "\(height)", "-keep_ar", "0"]
    }
    let decode = try FFmpeg.start(
      try FFmpeg.ffmpeg(),
      ["-nostdin", "-v", "error"] + decoderOptions + [
        "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-",
      ],
      stdin: false, stdout: .pipe)
    var pixels = [UInt8](decode.readAll())
    guard decode.wait() == 0, pixels.count == width * height * 4 else {
      throw .unreadableClip(path: path, reason: FFmpeg.explain(decode.errorTail(lines: 4), path: path))
    }
    Premultiply.inPlace(&pixels)
    do {
      return try Image(width: width, height: height, pixels: pixels)
    } catch {
      throw .unreadableClip(path: path, reason: "\(error)")
    }
  }

  /// The largest size with the aspect of `width × height` that fits inside `box` (each side at
  /// least 1 pixel, within `Image.maxDimension` and `Image.maxPixelCount`); nil for a box with a
  /// side of 0 or less.
  package static func fitted(
    width: Int, height: Int, into box: (width: Int, height: Int)
  ) -> (width: Int, height: Int)? {
    guard box.width > 0, box.height > 0, width > 0, height > 0 else { return nil }
    let (w, h) = (Double(width), Double(height))
    let side = Double(Image.maxDimension)
    let scale = min(
      Double(box.width) / w, Double(box.height) / h, side / w, side / h,
      (Double(Image.maxPixelCount) / (w * h)).squareRoot())
    var drawn = (width: max(1, Int((w * scale).rounded())), height: max(1, Int((h * scale).rounded())))
    if drawn.width * drawn.height > Image.maxPixelCount {
      // Bound by the pixel count: rounded down, both sides keep the aspect within a pixel.
      drawn = (max(1, Int(w * scale)), max(1, Int(h * scale)))
    }
    drawn.width = min(drawn.width, box.width, Image.maxDimension)
    drawn.height = min(drawn.height, box.height, Image.maxDimension)
    while drawn.width * drawn.height > Image.maxPixelCount {
      if drawn.width >= drawn.height { drawn.width -= 1 } else { drawn.height -= 1 }
    }
    return drawn
  }
}
