import LayerKit
import LayerKitMedia

/// How ffmpeg encodes an output, decided with the plan from the container, the pixel format
/// and the options: what LayerKit feeds it, the filters before the encoder, the encoder's
/// arguments, the sound's codec and the muxer. The sink only assembles them around its pipe.
public struct EncoderSettings: Sendable, Equatable {
  /// What LayerKit feeds ffmpeg.
  public enum Input: Sendable, Equatable {
    /// Y'CbCr planes LayerKit converted (BT.709, limited range; BT.601 re-expressed for SD Y4M).
    case yuv(ChromaSubsampling)
    /// RGBA composited over the background (opaque).
    case rgbaOpaque
    /// RGBA with straight alpha (ffmpeg's rgba).
    case rgbaStraight
    /// RGBA premultiplied, as rendered: lossless parts that LayerKit reads back itself.
    case rgbaPremultiplied
  }

  public let input: Input
  /// How the frames fed are described to ffmpeg (Y'CbCr planes: limited range, and BT.709 unless
  /// the output keeps its clips' untagged BT.601).
  public let inputTags: [String]
  /// ffmpeg filters over the frames before the encoder (colour conversion, a GIF's palette).
  public let filters: [String]
  /// The video encoder's arguments: codec, pixel format, quality, colour tags, and editly's
  /// custom arguments last (a later value of an option wins).
  public let video: [String]
  /// The sound encoder's arguments where the output muxes sound ([]: ffmpeg's default for the
  /// container, as custom arguments leave it); nil where it muxes none.
  public let audio: [String]?
  /// ffmpeg's muxer.
  public let muxer: String

  /// RGB → BT.709 limited range in ffmpeg (for pixel formats LayerKit does not convert itself),
  /// with the frames' colour properties set so the encoder tags them.
  static let toBT709 =
    "scale=out_color_matrix=bt709:out_range=tv,setparams=range=tv:colorspace=bt709:color_primaries=bt709:color_trc=bt709"

  /// The settings of an output planned so (`OutputPlan`'s fields); nil for the outputs LayerKit
  /// writes itself (Y4M, PNG).
  init?(
    target: OutputTarget, options: EncodingOptions, pixelFormat: String?, planes: ChromaSubsampling?,
    keepsAlpha: Bool
  ) {
    let format = target.format
    let untagged = options.smartStretches?.matrix == .bt601
    var output: [String] = []
    var filters: [String] = []
    let tags = ["-color_range", "tv", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"]
    let input: Input
    switch format {
    case .mp4, .webm:
      // The size was checked against the plan's alignment when the frames were sized.
      let pix = pixelFormat ?? "yuv420p"
      if let chroma = planes {
        input = .yuv(chroma)
      } else {
        // A pixel format with alpha (WebM's yuva420p) gets straight RGBA; the others, RGBA over
        // the background.
        input = keepsAlpha ? .rgbaStraight : .rgbaOpaque
        filters.append(Self.toBT709)
      }
      if let stretch = options.stretch {
        output += stretch
      } else if !options.customArguments.isEmpty {
        // editly's customOutputArgs replace its output arguments, codecs and their settings
        // included: LayerKit keeps only the pixel format its frames are tagged for and, for an
        // MP4, the index at the front.
        output += ["-pix_fmt", pix] + (format == .mp4 ? ["-movflags", "+faststart"] : [])
      } else if format == .mp4 {
        output += ["-c:v", options.codec ?? "libx264", "-pix_fmt", pix]
        output += ["-crf", String(options.crf ?? 23), "-preset", options.preset ?? "medium"]
        // A part of a sharded render records where it belongs, as MKV parts do (an MP4 keeps a
        // custom tag only with use_metadata_tags; one -movflags, the last given wins).
        if let part = options.part {
          output += ["-metadata", "\(PartRecord.tag)=\(part)", "-movflags", "+faststart+use_metadata_tags"]
        } else {
          output += ["-movflags", "+faststart"]
        }
      } else {
        output += ["-c:v", options.codec ?? "libvpx-vp9", "-pix_fmt", pix]
        output += ["-crf", String(options.crf ?? 32), "-b:v", "0", "-row-mt", "1"]
        // libvpx keeps alpha only without alternate reference frames.
        if keepsAlpha { output += ["-auto-alt-ref", "0"] }
        if let preset = options.preset { output += ["-deadline", preset] }
      }
      // An untagged BT.601 output (a smart render of untagged SD clips) stays untagged, as they are.
      if options.stretch == nil, !untagged { output += tags }
    case .gif:
      input = .rgbaOpaque
      filters.append("split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse=dither=sierra2_4a")
      if let codec = options.codec { output += ["-c:v", codec] }
    case .mov:
      input = .rgbaStraight
      output += [
        "-c:v", options.codec ?? "prores_ks", "-profile:v", "4444", "-pix_fmt", pixelFormat ?? "yuva444p10le",
      ]
      output += ["-alpha_bits", "16", "-vendor", "apl0"]
      filters.append(Self.toBT709)
      output += tags
    case .webp:
      // libwebp converts the straight RGBA itself (any size, alpha kept); 0 loops forever.
      input = .rgbaStraight
      output += ["-c:v", options.codec ?? "libwebp_anim", "-pix_fmt", "bgra", "-quality", "80", "-loop", "0"]
    case .apng:
      input = .rgbaStraight
      output += ["-c:v", options.codec ?? "apng", "-pix_fmt", "rgba", "-plays", "0"]
    case .mkv:
      input = .rgbaPremultiplied
      output += ["-c:v", options.codec ?? "ffv1", "-level", "3", "-pix_fmt", "bgra"]
      output += ["-metadata:s:v:0", "LAYERKIT_ALPHA=premultiplied"]
      if let part = options.part { output += ["-metadata", "\(PartRecord.tag)=\(part)"] }
    case .png, .y4m:
      return nil
    }
    if options.stretch == nil { output += options.customArguments }
    switch input {
    case .yuv:
      // BT.601 planes go untagged, as the clips they join are (players take BT.601 for SD).
      inputTags = ["-color_range", "tv"] + (untagged ? [] : ["-colorspace", "bt709"])
    default: inputTags = []
    }
    self.input = input
    self.filters = filters
    video = output
    muxer = format.muxer
    // A smart render's encoded stretch is written without sound (the sound joins the stretches).
    guard options.audio != nil, format.carriesSound, options.stretch == nil else {
      audio = nil
      return
    }
    switch format {
    // Custom arguments choose the sound's codec too (ffmpeg's default for the container unsaid).
    case _ where !options.customArguments.isEmpty: audio = []
    case .mp4, .mov: audio = ["-c:a", "aac", "-b:a", "192k"]
    case .webm: audio = ["-c:a", "libopus", "-b:a", "160k"]
    // The mix as computed (32-bit float, lossless): a joined video then encodes the very samples
    // a whole render would.
    case .mkv: audio = ["-c:a", "pcm_f32le"]
    default: audio = []
    }
  }
}
