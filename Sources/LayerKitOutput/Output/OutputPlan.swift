import LayerKit
import LayerKitMedia

/// How a render is written, decided once from the target and the encoding options, before any
/// frame exists: the container, the pixel format the frames are stored in and the alignment it
/// needs, whether LayerKit writes the Y'CbCr planes itself, whether the output keeps alpha and
/// carries sound. The frame size, the sink, the source's planes and the encoder's arguments all
/// read it (as ffmpeg negotiates formats once when its filter graph is configured); nothing
/// downstream re-derives them from strings.
public struct OutputPlan: Sendable {
  public let target: OutputTarget
  /// The encoding options, the sound and the part record included: all of it decided before
  /// the plan is made, and read, never changed, downstream.
  public let options: EncodingOptions
  /// The pixel format the frames are stored in (ffmpeg's name): `--pix-fmt`, else the
  /// container's default (yuv420p for Y4M, MP4 and WebM; yuva444p10le for MOV; none otherwise).
  public let pixelFormat: String?
  /// The chroma subsampling LayerKit converts to itself (Y4M; MP4 and WebM in yuv420p or
  /// yuv444p), writing the planes the encoder takes as they are; nil when it hands over RGBA.
  public let planes: ChromaSubsampling?
  /// What the width and the height must be multiples of for the pixel format's chroma planes:
  /// (2, 2) for 4:2:0, (2, 1) for 4:2:2, (4, 1) for 4:1:1, (1, 1) for 4:4:4 and RGB.
  public let alignment: (width: Int, height: Int)
  /// How ffmpeg encodes the output (codec and its arguments, filters, the sound's codec, the
  /// muxer); nil for the outputs LayerKit writes itself (Y4M, PNG frames).
  public let encoder: EncoderSettings?

  /// - Throws: `VideoError.invalidTimeline` for a pixel format the container cannot take (Y4M
  ///   takes yuv420p and yuv444p).
  public init(target: OutputTarget, options: EncodingOptions) throws(VideoError) {
    self.target = target
    self.options = options
    let format = target.format
    pixelFormat = Self.pixelFormat(target: target, options: options)
    if format == .y4m {
      planes = try ChromaSubsampling(pixelFormat: pixelFormat!, for: .y4m)
    } else if format == .mp4 || format == .webm {
      planes = try? ChromaSubsampling(pixelFormat: pixelFormat!, for: format)
    } else {
      planes = nil
    }
    alignment = pixelFormat.map(OutputPlan.alignment(ofPixelFormat:)) ?? (1, 1)
    encoder = EncoderSettings(
      target: target, options: options, pixelFormat: pixelFormat, planes: planes,
      keepsAlpha: Self.keepsAlpha(format, pixelFormat: pixelFormat))
  }

  /// The pixel format frames are stored in: `options.pixelFormat`, else the container's default
  /// (yuv420p for Y4M, MP4 and WebM; yuva444p10le for MOV; none otherwise).
  static func pixelFormat(target: OutputTarget, options: EncodingOptions) -> String? {
    switch target.format {
    case .y4m, .mp4, .webm: options.pixelFormat ?? "yuv420p"
    case .mov: options.pixelFormat ?? "yuva444p10le"
    case .gif, .png, .mkv, .webp, .apng: nil
    }
  }

  /// The frame size `target` written with `options` stores for a picture `width`×`height`, known
  /// before the plan (which holds the sound made for frames of that size) is made; as
  /// `frameSize(width:height:pad:)`.
  public static func frameSize(
    target: OutputTarget, options: EncodingOptions, width: Int, height: Int, pad: Bool
  ) throws(VideoError) -> (width: Int, height: Int) {
    let format = pixelFormat(target: target, options: options)
    let alignment: (width: Int, height: Int) = format.map(alignment(ofPixelFormat:)) ?? (1, 1)
    let fitted = (width: roundUp(width, alignment.width), height: roundUp(height, alignment.height))
    if fitted == (width, height) || pad { return fitted }
    throw .oddSize(
      width: width, height: height, suggestedWidth: fitted.width, suggestedHeight: fitted.height,
      pixelFormat: format ?? "")
  }

  /// The Y'CbCr matrix of a `width × height` output's planes: BT.709 where the container is
  /// tagged so (MP4, WebM, MOV); for Y4M, which no reader takes a tag from, the one its size
  /// implies (`YCbCrMatrix.untagged`: BT.601 up to 1024 × 576), or `options.y4mMatrix`; for a
  /// smart render, its clips' (`SmartStretchEncoding.matrix`). LayerKit renders and mixes in
  /// BT.709; the Y4M sink re-expresses SD frames in BT.601 as it writes them.
  public func matrix(width: Int, height: Int) -> YCbCrMatrix {
    if target.format == .y4m { return options.y4mMatrix ?? YCbCrMatrix.untagged(width: width, height: height) }
    // A smart render keeps its clips' matrix: untagged SD clips make an untagged BT.601 MP4.
    return options.smartStretches?.matrix ?? .bt709
  }

  /// The frame size for a picture `width`×`height`: itself when the pixel format can store it;
  /// else, with `pad`, grown to the next size it can (the new rows and columns the background);
  /// else refused.
  /// - Throws: `VideoError.oddSize` naming the pixel format and the nearest size it stores.
  public func frameSize(width: Int, height: Int, pad: Bool) throws(VideoError) -> (width: Int, height: Int) {
    try Self.frameSize(target: target, options: options, width: width, height: height, pad: pad)
  }

  /// The Y'CbCr layout of frames `width`×`height` when LayerKit writes the planes itself: frames
  /// already in it go to the sink as they are.
  public func planeLayout(width: Int, height: Int) -> YUVFrameLayout? {
    guard let planes, width > 0, height > 0, width % alignment.width == 0, height % alignment.height == 0 else {
      return nil
    }
    return YUVFrameLayout(width: width, height: height, chroma: planes)
  }

  /// Whether the output holds sound (MP4, WebM, MOV, MKV).
  public var carriesSound: Bool { target.format.carriesSound }

  /// Whether the frames' alpha is kept: the formats that store it, and WebM in a pixel format
  /// with alpha (`yuva420p`: VP9's alpha channel).
  public var keepsAlpha: Bool { Self.keepsAlpha(target.format, pixelFormat: pixelFormat) }

  static func keepsAlpha(_ format: VideoFormat, pixelFormat: String?) -> Bool {
    format.hasAlpha || (format == .webm && (pixelFormat ?? "").hasPrefix("yuva"))
  }

  /// The plan of a smart render's encoded stretches, written to `path` to be cut and spliced
  /// between the copied ones: this plan's encoding in the clips' form (`smartStretches`), without
  /// sound or a part record, an IDR picture forced at each frame of `keyframes`.
  package func stretchPlan(path: String, keyframes: [Int]) throws(VideoError) -> OutputPlan {
    var options = options
    let idr = keyframes.map { "eq(n,\($0))" }
    let force = idr.isEmpty ? [] : ["-force_key_frames", "expr:" + idr.joined(separator: "+"), "-forced-idr", "1"]
    (options.audio, options.part, options.stretch) = (nil, nil, (options.smartStretches?.arguments ?? []) + force)
    return try OutputPlan(target: OutputTarget(path: path, format: .mp4), options: options)
  }

  /// The alignment a pixel format's chroma planes need, from its ffmpeg name: 4:2:0 formats
  /// (yuv420p, nv12, p010le, yuva420p, …) halve both sides, 4:2:2 (yuv422p, yuyv422, …) the
  /// width, 4:1:1 quarters the width, 4:1:0 (yuv410p) both; anything else (4:4:4, RGB, grey,
  /// palettes) none.
  static func alignment(ofPixelFormat name: String) -> (width: Int, height: Int) {
    let n = name.lowercased()
    if n.contains("410") { return (4, 4) }
    if n.contains("411") { return (4, 1) }
    if n.contains("420") || n.hasPrefix("nv12") || n.hasPrefix("nv21") || n.hasPrefix("p010") || n.hasPrefix("p016") {
      return (2, 2)
    }
    if n.contains("422") || n.hasPrefix("nv16") || n.hasPrefix("p210") || n.hasPrefix("p216") { return (2, 1) }
    if n.contains("440") { return (1, 2) }
    return (1, 1)
  }

  static func roundUp(_ v: Int, _ m: Int) -> Int { (v + m - 1) / m * m }
}
