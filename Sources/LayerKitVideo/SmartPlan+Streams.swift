import Foundation
import LayerKitMedia

/// A clip's video stream as smart rendering needs to know it: what its packets are, so that they
/// can be copied into an output only where the encoded stretches beside them can match them.
public struct SourceStream: Sendable, Equatable {
  public var path: String
  /// ffprobe's codec name: h264, hevc, vp9, …
  public var codec: String
  /// ffprobe's profile: High, Main, Main 10, …
  public var profile: String
  public var pixelFormat: String
  public var width: Int
  public var height: Int
  /// The stream's frame rate as ffprobe writes it (30/1, 30000/1001).
  public var frameRate: String
  public var colorSpace: String
  public var colorRange: String

  public init(
    path: String, codec: String, profile: String, pixelFormat: String, width: Int, height: Int, frameRate: String,
    colorSpace: String = "unknown", colorRange: String = "unknown"
  ) {
    self.path = path
    self.codec = codec
    self.profile = profile
    self.pixelFormat = pixelFormat
    self.width = width
    self.height = height
    self.frameRate = frameRate
    self.colorSpace = colorSpace
    self.colorRange = colorRange
  }

  /// The first video stream of `path`, by ffprobe.
  /// - Throws: `VideoError.unreadableClip` when ffprobe cannot read it or it has no video.
  public static func probe(_ path: String) throws(VideoError) -> SourceStream {
    let keys = ["codec_name", "profile", "pix_fmt", "width", "height", "r_frame_rate", "color_space", "color_range"]
    let probe = try FFmpeg.start(
      try FFmpeg.ffprobe(),
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=" + keys.joined(separator: ","), "-of",
        "default=noprint_wrappers=1", path,
      ], stdin: false, stdout: .pipe)
    let text = String(decoding: probe.readAll(), as: UTF8.self)
    guard probe.wait() == 0 else {
      throw .unreadableClip(path: path, reason: FFmpeg.explain(probe.errorTail(lines: 4), path: path))
    }
    var values: [String: String] = [:]
    for line in text.split(whereSeparator: \.isNewline) {
      guard let eq = line.firstIndex(of: "=") else { continue }
      values[String(line[..<eq])] = String(line[line.index(after: eq)...])
    }
    guard let codec = values["codec_name"], let w = values["width"].flatMap(Int.init),
      let h = values["height"].flatMap(Int.init)
    else { throw .unreadableClip(path: path, reason: "no video stream") }
    return SourceStream(
      path: path, codec: codec, profile: values["profile"] ?? "unknown", pixelFormat: values["pix_fmt"] ?? "unknown",
      width: w, height: h, frameRate: values["r_frame_rate"] ?? "0/0", colorSpace: values["color_space"] ?? "unknown",
      colorRange: values["color_range"] ?? "unknown")
  }
}

extension SmartPlan {
  /// The codecs whose packets smart rendering copies, by the encoder that writes the stretches
  /// between them.
  public static let copyableCodecs = ["libx264": "h264", "libx265": "hevc"]

  /// Why the clips' packets cannot be copied into an output of `format` written by `encoder`
  /// (nil: the default for the format) in `pixelFormat` at `width`×`height` and `rate`; nil when
  /// they can. One line a person reads, naming the first clip at fault. The copied stretches and
  /// the encoded ones must make one stream: one codec, profile, pixel format, size, rate and
  /// colour description throughout.
  public static func declines(
    _ streams: [SourceStream], format: VideoFormat, encoder: String?, pixelFormat: String?, width: Int, height: Int,
    rate: FrameRate
  ) -> String? {
    guard [.mp4, .mkv].contains(format) else {
      return "a .\(format.rawValue) is written by LayerKit or an encoder of its own, not from copied packets"
    }
    let encoder = encoder ?? (format == .mp4 ? "libx264" : "ffv1")
    guard let codec = copyableCodecs[encoder] else {
      return "the output is encoded with \(encoder); clips are copied into H.264 (libx264) or HEVC (libx265) outputs"
    }
    guard let first = streams.first else { return "no clips to copy from" }
    let pixelFormat = pixelFormat ?? "yuv420p"
    let fps = "\(rate.numerator)/\(rate.denominator)"
    for s in streams {
      let name = (s.path as NSString).lastPathComponent
      if s.codec != codec { return "\(name) is \(s.codec), the output \(codec)" }
      if s.pixelFormat != pixelFormat { return "\(name) is \(s.pixelFormat), the output \(pixelFormat)" }
      if s.width != width || s.height != height {
        return "\(name) is \(s.width)×\(s.height), the output \(width)×\(height)"
      }
      if !sameRate(s.frameRate, fps) { return "\(name) runs at \(s.frameRate) fps, the output at \(fps)" }
      if s.profile != first.profile {
        return "\(name) is \(codec) \(s.profile), \((first.path as NSString).lastPathComponent) \(first.profile)"
      }
      if s.colorSpace != first.colorSpace || s.colorRange != first.colorRange {
        return "\(name)'s colours are described as \(s.colorSpace)/\(s.colorRange), "
          + "\((first.path as NSString).lastPathComponent)'s as \(first.colorSpace)/\(first.colorRange)"
      }
    }
    return nil
  }

  /// Whether two rates written as N/D are the same number.
  static func sameRate(_ a: String, _ b: String) -> Bool {
    func value(_ s: String) -> (Int, Int)? {
      let p = s.split(separator: "/")
      guard p.count == 2, let n = Int(p[0]), let d = Int(p[1]), d > 0 else { return nil }
      return (n, d)
    }
    guard let (an, ad) = value(a), let (bn, bd) = value(b) else { return false }
    return an * bd == bn * ad
  }
}
