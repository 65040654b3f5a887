import Foundation

/// editly's `customOutputArgs` held to an allowlist: ffmpeg output options that choose an encoder
/// and tune its quality, rate and stream tags, each with a value of a checked form — and nothing
/// that names a file, a filter, a map, a muxer, a protocol or another output. ffmpeg reads any
/// bare word as one more output file and many options open files (`-attach`, `-passlogfile`,
/// `-progress`, a filter's `textfile=`), so an option is passed on only where it is listed here
/// and its value has the form its entry says; everything else is refused before anything runs.
/// The one check for every caller: the edit file's reader (the command line, `layerkit batch`,
/// the render server) and the render entry for encoding options made in code.
public enum OutputArguments {
  /// Why an argument is refused: the index of the argument at fault and what is wrong, in the
  /// library's words.
  public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var index: Int
    public var message: String

    public var description: String { "customOutputArgs[\(index)]: \(message)" }
  }

  /// What an option's value may be.
  enum Value {
    /// No value (`-an`).
    case none
    /// One of these words.
    case word(Set<String>)
    /// A decimal number within the range.
    case number(ClosedRange<Double>)
    /// A bit rate: a number with an optional k, M or G.
    case rate
    /// `+flag` / `-flag` / `flag` items joined by `+` or `-`, each one of these.
    case flags(Set<String>)
    /// `key=value:key=value` with keys from the set and plain values (letters, digits, `.`,
    /// `,`, `+`, `-`): an encoder's private parameters.
    case parameters(Set<String>)
    /// `key=text` with a key from the set: text written into the file's own metadata.
    case metadata(Set<String>)
  }

  static let videoEncoders: Set<String> = [
    "libx264", "libx264rgb", "libx265", "libvpx", "libvpx-vp9", "libaom-av1", "libsvtav1", "librav1e", "libwebp",
    "libwebp_anim", "gif", "apng", "png", "mpeg4", "libxvid", "mpeg2video", "mjpeg", "prores", "prores_ks",
    "prores_aw", "dnxhd", "ffv1", "huffyuv", "utvideo", "qtrle", "libtheora",
  ]
  static let audioEncoders: Set<String> = [
    "aac", "libopus", "opus", "libvorbis", "vorbis", "libmp3lame", "flac", "alac", "ac3", "eac3", "mp2",
    "pcm_s16le", "pcm_s24le", "pcm_s32le", "pcm_f32le", "pcm_s16be", "pcm_s24be",
  ]
  static let pixelFormats: Set<String> = [
    "yuv420p", "yuvj420p", "yuv422p", "yuv444p", "yuv420p10le", "yuv422p10le", "yuv444p10le", "yuv420p12le",
    "yuva420p", "yuva444p10le", "nv12", "rgb24", "rgba", "bgra", "argb", "gray", "pal8", "gbrp", "gbrp10le",
  ]
  static let presets: Set<String> = [
    "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
    // libwebp's.
    "none", "default", "picture", "photo", "drawing", "icon", "text",
  ]
  static let tunes: Set<String> = [
    "film", "animation", "grain", "stillimage", "fastdecode", "zerolatency", "psnr", "ssim", "none",
  ]
  static let profiles: Set<String> = [
    "baseline", "main", "high", "high10", "high422", "high444", "high444p", "main10", "main12", "main422-10",
    "main444-8", "main444-10", "mainstillpicture", "main-intra", "0", "1", "2", "3", "4", "5", "proxy", "lt",
    "standard", "hq", "4444", "4444xq", "aac_low", "aac_he", "aac_he_v2",
  ]
  static let levels: Set<String> = [
    "1", "1b", "1.1", "1.2", "1.3", "2", "2.1", "2.2", "3", "3.1", "3.2", "4", "4.1", "4.2", "5", "5.1", "5.2", "6",
    "6.1", "6.2", "10", "11", "12", "13", "20", "21", "22", "30", "31", "32", "40", "41", "42", "50", "51", "52",
    "60", "61", "62",
  ]
  static let colours: Set<String> = [
    "bt709", "bt470bg", "smpte170m", "bt2020nc", "bt2020_ncl", "bt2020", "smpte2084", "arib-std-b67", "iec61966-2-1",
    "unknown", "tv", "pc", "limited", "full", "mpeg", "jpeg",
  ]
  /// x264's and x265's private parameters that set rate control, GOPs and tools — none that
  /// names a file (`stats`, `qpfile`, `csv`, `analysis-save`, `dump-yuv` are not here).
  static let encoderParameters: Set<String> = [
    "keyint", "min-keyint", "scenecut", "no-scenecut", "bframes", "b-adapt", "b-pyramid", "ref", "aq-mode",
    "aq-strength", "deblock", "no-deblock", "psy-rd", "psy-rdoq", "rc-lookahead", "crf", "qp", "vbv-maxrate",
    "vbv-bufsize", "lossless", "open-gop", "no-open-gop", "repeat-headers", "stitchable", "nal-hrd", "force-cfr",
    "log-level", "level-idc", "profile", "tune", "preset", "me", "subme", "merange", "trellis", "weightp",
    "weightb", "8x8dct", "cabac", "no-cabac", "sao", "no-sao", "strong-intra-smoothing", "rect", "amp", "limit-refs",
    "ctu", "min-cu-size", "max-tu-size", "tu-intra-depth", "tu-inter-depth", "rd", "frame-threads", "pools",
    "threads", "sliced-threads", "slices", "intra-refresh", "colorprim", "transfer", "colormatrix", "range",
    "hdr-opt", "hdr10", "hdr10-opt", "max-cll", "master-display", "chromaloc", "fullrange", "aud", "info",
  ]
  static let metadataKeys: Set<String> = [
    "title", "artist", "album", "album_artist", "comment", "description", "copyright", "date", "genre", "composer",
    "language", "encoder_settings", "creation_time", "show", "episode_id", "synopsis",
  ]
  static let movFlags: Set<String> = [
    "faststart", "frag_keyframe", "empty_moov", "default_base_moof", "separate_moof", "negative_cts_offsets",
    "omit_tfhd_offset", "disable_chpl", "write_colr", "write_gama", "use_metadata_tags", "cmaf", "dash",
    "delay_moov", "global_sidx", "skip_sidx", "skip_trailer", "frag_every_frame", "prefer_icc",
  ]

  /// The options `customOutputArgs` may give, by every spelling ffmpeg takes.
  static let allowed: [String: Value] = {
    var table: [String: Value] = [:]
    func add(_ names: [String], _ value: Value) { for n in names { table[n] = value } }
    add(["-c:v", "-codec:v", "-vcodec"], .word(videoEncoders))
    add(["-c:a", "-codec:a", "-acodec"], .word(audioEncoders))
    add(["-an", "-sn", "-dn"], .none)
    add(["-crf", "-qp", "-cq"], .number(-12...63))
    add(["-q:v", "-qscale:v", "-qscale", "-q", "-global_quality", "-qmin", "-qmax", "-quality"], .number(-1...100))
    add(["-q:a", "-qscale:a", "-compression_level"], .number(-1...100))
    add(["-b:v", "-maxrate", "-minrate", "-bufsize", "-b:a", "-maxrate:v", "-bufsize:v", "-minrate:v"], .rate)
    add(["-g", "-keyint_min", "-sc_threshold"], .number(-1...100_000))
    add(
      [
        "-bf", "-refs", "-threads", "-slices", "-cpu-used", "-speed", "-row-mt", "-tile-columns", "-tile-rows",
        "-lag-in-frames", "-auto-alt-ref", "-arnr-maxframes", "-arnr-strength", "-aq-mode", "-lossless",
        "-frame-parallel", "-static-thresh", "-undershoot-pct", "-overshoot-pct", "-loop", "-final_delay",
        "-bits_per_mb", "-mbs_per_slice", "-alpha_bits", "-vendor_id", "-trellis", "-me_range", "-subq",
        "-level:a", "-cutoff", "-vbr", "-application_id", "-frame_duration", "-packet_loss", "-fec",
      ],
      .number(-16...100_000))
    add(["-deadline"], .word(["good", "best", "realtime"]))
    add(["-preset", "-preset:v"], .word(presets))
    add(["-tune", "-tune:v"], .word(tunes))
    add(["-profile:v", "-vprofile", "-profile", "-profile:a", "-aprofile"], .word(profiles))
    add(["-level", "-level:v"], .word(levels))
    add(["-pix_fmt", "-pix_fmt:v"], .word(pixelFormats))
    add(["-ar", "-ar:a"], .number(8000...192_000))
    add(["-ac", "-ac:a"], .number(1...8))
    add(["-tag:v", "-vtag"], .word(["avc1", "avc3", "hvc1", "hev1", "av01", "vp09", "mp4v", "apcn", "apch", "ap4h"]))
    add(["-tag:a", "-atag"], .word(["mp4a", "Opus", "fLaC", "ac-3", "alac"]))
    add(["-colorspace", "-color_primaries", "-color_trc", "-color_range"], .word(colours))
    add(["-movflags"], .flags(movFlags))
    add(["-strict"], .word(["experimental", "unofficial", "normal", "strict", "very", "-2", "-1", "0", "1"]))
    add(["-x264-params", "-x265-params", "-x264opts", "-svtav1-params", "-aom-params"], .parameters(encoderParameters))
    add(["-metadata"], .metadata(metadataKeys))
    add(["-vbr:a", "-frame_size"], .number(0...100_000))
    return table
  }()

  /// ffmpeg options that would change what LayerKit feeds ffmpeg or how it reads the result —
  /// inputs, maps, filter graphs, size, rate, duration, the muxer, overwriting: named as
  /// LayerKit's own when given.
  public static let reserved: Set<String> = [
    "-i", "-f", "-y", "-n", "-map", "-filter_complex", "-lavfi", "-vf", "-filter:v", "-af", "-filter:a", "-s", "-r",
    "-t", "-ss", "-to", "-frames:v", "-vframes", "-framerate", "-filter_complex_script",
  ]

  /// Checks `arguments`, option by option.
  /// - Throws: `Refusal` for the first argument that is not an allowed option, a value of the
  ///   wrong form, an option missing its value, or a bare word.
  public static func check(_ arguments: [String]) throws(Refusal) {
    var i = 0
    while i < arguments.count {
      let option = arguments[i]
      guard option.hasPrefix("-"), option.count > 1 else {
        throw Refusal(
          index: i, message: "\(shown(option)) is not an option: ffmpeg reads a bare argument as one more output file")
      }
      if reserved.contains(option) {
        throw Refusal(
          index: i, message: "\(option) is LayerKit's to set (it feeds ffmpeg the frames and reads the result)")
      }
      guard let value = allowed[option] else {
        throw Refusal(
          index: i,
          message: "\(shown(option)) is not an output option LayerKit passes to ffmpeg "
            + "(encoders, their quality and rate options, stream tags and metadata: docs/EDIT_FILES.md lists them)")
      }
      if case .none = value {
        i += 1
        continue
      }
      guard i + 1 < arguments.count else { throw Refusal(index: i, message: "\(option) needs a value") }
      let given = arguments[i + 1]
      if let problem = problem(with: given, of: value) {
        throw Refusal(index: i + 1, message: "\(option) \(shown(given)): \(problem)")
      }
      i += 2
    }
  }

  /// What is wrong with `text` as a value of kind `value`, or nil.
  static func problem(with text: String, of value: Value) -> String? {
    switch value {
    case .none: return nil
    case .word(let words):
      return words.contains(text) ? nil : "expected one of \(words.sorted().prefix(12).joined(separator: ", "))…"
    case .number(let range):
      guard let n = Double(text), text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }), range.contains(n) else {
        return "expected a number from \(format(range.lowerBound)) to \(format(range.upperBound))"
      }
      return nil
    case .rate:
      return text.range(of: #"^[0-9]{1,9}(\.[0-9]{1,3})?[kKmMgG]?$"#, options: .regularExpression) == nil
        ? "expected a bit rate (2500k, 8M)" : nil
    case .flags(let names):
      let items = text.split(whereSeparator: { $0 == "+" || $0 == "-" })
      guard !items.isEmpty, items.allSatisfy({ names.contains(String($0)) }) else {
        return "expected flags such as +faststart"
      }
      return nil
    case .parameters(let keys):
      for pair in text.split(separator: ":", omittingEmptySubsequences: false) {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard let key = parts.first, keys.contains(String(key)) else {
          return "\(parts.first.map(String.init) ?? "") is not an encoder parameter LayerKit passes on"
        }
        if parts.count == 2,
          parts[1].isEmpty || !parts[1].allSatisfy({ $0.isLetter || $0.isNumber || ".,+-".contains($0) })
        {
          return "expected key=value pairs of letters, digits and . , + -"
        }
      }
      return nil
    case .metadata(let keys):
      guard let equals = text.firstIndex(of: "="), keys.contains(String(text[..<equals])) else {
        return "expected key=text with a key such as title, artist, comment or copyright"
      }
      return text.count <= 4096 ? nil : "at most 4096 characters"
    }
  }

  static func format(_ n: Double) -> String { n == n.rounded() ? String(Int(n)) : String(n) }

  /// `text` as a message shows it: at most 60 characters.
  static func shown(_ text: String) -> String { text.count <= 60 ? text : String(text.prefix(57)) + "…" }
}
