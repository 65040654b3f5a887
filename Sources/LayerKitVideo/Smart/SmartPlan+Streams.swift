import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

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
  public var colorPrimaries = "unknown"
  public var colorTransfer = "unknown"
  /// The stream's time base as ffprobe writes it (1/15360).
  public var timeBase = "0/0"
  /// ffprobe's level: 40 for H.264 level 4.0; 120 for HEVC level 4 (30 × the level).
  public var level = 0
  /// The sample aspect ratio (1:1, N/A, 4:3, …).
  public var sampleAspect = "1:1"
  /// The display rotation in degrees (a phone's portrait video), 0 for none.
  public var rotation = 0.0
  /// ffprobe's name of the container (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `mpegts`).
  public var container = ""

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

  /// The time base as (numerator, denominator), nil when it is not one.
  var timeBaseParts: (Int, Int)? { SourceStream.fraction(timeBase) }
  /// The frame rate as (numerator, denominator), nil when it is not one.
  var rateParts: (Int, Int)? { SourceStream.fraction(frameRate) }

  static func fraction(_ s: String) -> (Int, Int)? {
    let p = s.split(separator: "/")
    guard p.count == 2, let n = Int(p[0]), let d = Int(p[1]), n > 0, d > 0 else { return nil }
    return (n, d)
  }
}

extension SmartPlan {
  /// The codecs whose packets smart rendering copies, by the encoder that writes the stretches
  /// between them.
  public static let copyableCodecs = ["libx264": "h264", "libx265": "hevc"]

  /// The encoder that writes stretches between a codec's copied packets (libx264 for h264), nil
  /// for a codec that is not copied.
  public static func encoder(for codec: String) -> String? {
    copyableCodecs.first(where: { $0.value == codec })?.key
  }

  /// Why the clips' packets cannot be copied into an output of `format` written by `encoder`
  /// (nil: the default for the format) in `pixelFormat` (nil: the clips' own) at
  /// `width`×`height` and `rate`; nil when they can. One line a person reads, naming the first
  /// clip at fault. The copied stretches and the encoded ones must make one stream: one codec,
  /// profile, pixel format, size, rate and colour description throughout, in the colours
  /// LayerKit encodes (BT.709, limited range), read from MP4 or MOV files (whose packets are
  /// NAL units behind lengths), shown upright with square pixels.
  public static func declines(
    _ streams: [SourceStream], format: VideoFormat, encoder: String?, pixelFormat: String?, width: Int, height: Int,
    rate: FrameRate
  ) -> String? {
    guard format == .mp4 else {
      return format == .mkv
        ? "a .mkv keeps one set of parameter sets for its whole track; smart rendering writes .mp4"
        : "a .\(format.rawValue) is not written from copied H.264 or HEVC packets; smart rendering writes .mp4"
    }
    let encoder = encoder ?? "libx264"
    guard let codec = copyableCodecs[encoder] else {
      return "the output is encoded with \(encoder); clips are copied into H.264 (libx264) or HEVC (libx265) outputs"
    }
    guard let first = streams.first else { return "no clip is shown" }
    let pixelFormat = pixelFormat ?? first.pixelFormat
    let fps = "\(rate.numerator)/\(rate.denominator)"
    for s in streams {
      let name = (s.path as NSString).lastPathComponent
      if s.codec != codec { return "\(name) is \(s.codec), the output \(codec)" }
      if !s.container.split(separator: ",").contains("mp4") { return "\(name) is not an MP4 or MOV file" }
      if s.pixelFormat != pixelFormat { return "\(name) is \(s.pixelFormat), the output \(pixelFormat)" }
      if !["yuv420p", "yuv420p10le"].contains(s.pixelFormat) {
        return "\(name) is \(s.pixelFormat); clips in yuv420p or yuv420p10le are copied"
      }
      if profileName(s) == nil { return "\(name) is \(codec) \(s.profile), a profile the encoder cannot match" }
      if s.width != width || s.height != height {
        return "\(name) is \(s.width)×\(s.height), the output \(width)×\(height)"
      }
      if !sameRate(s.frameRate, fps) { return "\(name) runs at \(s.frameRate) fps, the output at \(fps)" }
      if s.profile != first.profile {
        return "\(name) is \(codec) \(s.profile), \((first.path as NSString).lastPathComponent) \(first.profile)"
      }
      if ![first.colorSpace, "bt709"].contains(s.colorSpace) && !(s.colorSpace == "unknown" && s.height > 576) {
        return "\(name)'s colours are \(s.colorSpace); LayerKit encodes BT.709"
      }
      if s.colorSpace != first.colorSpace || s.colorRange != first.colorRange
        || s.colorPrimaries != first.colorPrimaries
        || s.colorTransfer != first.colorTransfer
      {
        return "\(name)'s colours are described as \(s.colorSpace)/\(s.colorRange), "
          + "\((first.path as NSString).lastPathComponent)'s as \(first.colorSpace)/\(first.colorRange)"
      }
      if s.colorRange == "pc" { return "\(name) is full range; LayerKit encodes limited range" }
      if !["1:1", "N/A", "0:1"].contains(s.sampleAspect) {
        return "\(name)'s pixels are not square (\(s.sampleAspect))"
      }
      if s.rotation != 0 { return "\(name) is shown rotated (\(Int(s.rotation))°)" }
    }
    return nil
  }

  /// The encoder's arguments for the stretches between copied ones: the clips' codec, profile,
  /// their highest level, pixel format and colour tags (as the clips tag theirs), so that both
  /// make one stream; every stretch starts on an IDR picture, HEVC's GOPs closed, at most
  /// `SmartRender.stretchBFrames` B-frames in a row (which bounds their reordering; none in
  /// H.264 Baseline, which has none). Quality: `crf`, else 18 (x264's and x265's visually lossless, against their 23 and
  /// 28): the seam between a camera's stretch and ours must not show; `preset`, else medium.
  public static func stretchArguments(_ streams: [SourceStream], crf: Int?, preset: String?) -> [String] {
    guard let first = streams.first, let profile = profileName(first) else { return [] }
    let level = streams.map(\.level).max() ?? 0
    var args: [String]
    if first.codec == "hevc" {
      var params = ["open-gop=0", "repeat-headers=1", "bframes=\(SmartRender.stretchBFrames)", "log-level=error"]
      if level > 0 { params.append("level-idc=" + String(format: "%.1f", Double(level) / 30)) }
      args = ["-c:v", "libx265", "-profile:v", profile, "-x265-params", params.joined(separator: ":")]
    } else {
      // Baseline has no B-frames. x264 takes its parameters after the profile, so B-frames asked
      // for there made the stretches Main: parts of ultrafast (Constrained Baseline) clips that
      // began on an encoded stretch were Main, the others Constrained Baseline, and did not join.
      let bFrames = profile == "baseline" ? 0 : SmartRender.stretchBFrames
      args = ["-c:v", "libx264", "-profile:v", profile, "-x264-params", "stitchable=1:bframes=\(bFrames)"]
      if level > 0 { args += ["-level:v", String(format: "%.1f", Double(level) / 10)] }
    }
    args += ["-pix_fmt", first.pixelFormat, "-crf", String(crf ?? 18), "-preset", preset ?? "medium"]
    args += ["-color_range", first.colorRange == "unknown" ? "tv" : first.colorRange]
    if first.colorSpace != "unknown" { args += ["-colorspace", first.colorSpace] }
    if first.colorPrimaries != "unknown" { args += ["-color_primaries", first.colorPrimaries] }
    if first.colorTransfer != "unknown" { args += ["-color_trc", first.colorTransfer] }
    return args
  }

  /// The encoder's name for a stream's profile, nil for one it cannot write.
  static func profileName(_ s: SourceStream) -> String? {
    switch (s.codec, s.profile) {
    case ("h264", "Constrained Baseline"), ("h264", "Baseline"): "baseline"
    case ("h264", "Main"): "main"
    case ("h264", "High"): "high"
    case ("h264", "High 10"): "high10"
    case ("hevc", "Main"): "main"
    case ("hevc", "Main 10"): "main10"
    default: nil
    }
  }

  /// Whether two rates written as N/D are the same number.
  static func sameRate(_ a: String, _ b: String) -> Bool {
    guard let (an, ad) = SourceStream.fraction(a), let (bn, bd) = SourceStream.fraction(b) else { return false }
    return an * bd == bn * ad
  }
}
