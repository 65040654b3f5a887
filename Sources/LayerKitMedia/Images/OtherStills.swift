import Foundation
import LayerKit

/// Stills in the formats people also give — WebP, BMP, TIFF, and SVG (rasterized by librsvg at
/// the size it states) — decoded by the ffmpeg program into premultiplied RGBA, once, as PNG and
/// JPEG are decoded by libpng and libjpeg-turbo.
public enum OtherStills {
  /// The format of a still ffmpeg decodes for LayerKit, from the file's first bytes; nil for
  /// anything else (PNG and JPEG included: those LayerKit reads itself).
  public static func format(of head: [UInt8]) -> String? {
    if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
      return "WebP"
    }
    if head.starts(with: Array("BM".utf8)), head.count >= 14 { return "BMP" }
    if head.starts(with: [0x49, 0x49, 0x2A, 0x00]) || head.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
    let text = String(decoding: head.prefix(1024), as: UTF8.self)
    if text.contains("<svg") { return "SVG" }
    return nil
  }

  /// Decodes the first picture of `path` (ffprobe for its size, ffmpeg for its pixels).
  /// - Throws: `VideoError.unreadableClip` naming the file and ffmpeg's reason.
  public static func read(_ path: String) throws(VideoError) -> Image {
    let probe = try FFmpeg.start(
      try FFmpeg.ffprobe(),
      ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", path],
      stdin: false, stdout: .pipe)
    let text = String(decoding: probe.readAll(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let size = text.split(separator: ",").compactMap { Int($0) }
    guard probe.wait() == 0, size.count == 2, size[0] > 0, size[1] > 0, size[0] <= Image.maxDimension,
      size[1] <= Image.maxDimension
    else {
      throw .unreadableClip(path: path, reason: FFmpeg.explain(probe.errorTail(lines: 4), path: path))
    }
    let (width, height) = (size[0], size[1])
    let decode = try FFmpeg.start(
      try FFmpeg.ffmpeg(),
      ["-nostdin", "-v", "error", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgba", "-"],
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
}
