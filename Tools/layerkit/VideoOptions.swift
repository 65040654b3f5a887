import ArgumentParser
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

/// The options every video command shares: size, rate, fit, output, encoding, shards, audio.
struct VideoOptions: ParsableArguments {
  @Option(
    name: .shortAndLong,
    help:
      "Output: a .mp4/.webm/.gif/.webp/.apng/.mov/.mkv/.y4m file, a folder/ for PNG frames, or - (Y4M on standard output)."
  )
  var output: String
  @Option(parsing: .unconditional, help: "Output size WIDTHxHEIGHT (default: the first input's size).")
  var size: PixelSize?
  @Option(parsing: .unconditional, help: "Frames per second (default: the first clip's rate, else 30).") var fps:
    Double?
  @Option(
    help:
      "cover, contain, contain-blur (contain over a blurred copy stretched to fill the bars) or stretch: how inputs of another aspect fill the frame."
  )
  var fit: Fit = .cover
  @Option(
    help:
      "gpu (headless EGL), cpu (the reference renderer), or auto: the GPU when an EGL display can be made, except on a software rasterizer (llvmpipe) when every transition is fade, dissolve, moveIn, push or reveal, which the CPU renders faster there."
  )
  var renderer: BackendChoice = .auto
  @Option(help: "Pacing of every transition: linear, easeIn, easeOut, easeInEaseOut or default.")
  var timing: MediaTimingFunction.Name = .linear
  @OptionGroup var run: VideoRunOptions
  @OptionGroup var encoder: EncodingArguments
  @Flag(help: "Pad an odd size to even with the background instead of refusing it (4:2:0).") var pad = false
  @Flag(help: "No audio: drop the clips' sound.") var noAudio = false
  @Option(
    help:
      "Smart rendering of an MP4: auto (default) copies the stretches of H.264/HEVC clips the edit shows unchanged, GOP by GOP, and encodes only the rest, where the clips allow it; on refuses, naming why, where they do not; off encodes every frame."
  )
  var smart: SmartChoice = .auto

  func validate() throws {
    try checkRange(fps, "--fps", Limits.framesPerSecond)
    try checkSize(size)
    if noAudio && !run.audio.isEmpty { throw ValidationError("use --audio or --no-audio, not both") }
  }

}

/// How the output is encoded: the options `slideshow`, `concat`, `transition` and `join` share.
struct EncodingArguments: ParsableArguments {
  @Option(help: "Force the output format: png, y4m, mp4, webm, gif, webp, apng, mov or mkv.") var format: VideoFormat?
  @Option(help: "Video codec for ffmpeg (default: libx264, libvpx-vp9, prores_ks, ffv1).") var codec: String?
  @Option(parsing: .unconditional, help: "Constant rate factor for ffmpeg, 0…63 (default 23 for H.264, 32 for VP9).")
  var crf: Int?
  @Option(
    parsing: .unconditional,
    help: "Encoder preset for ffmpeg (H.264/H.265: ultrafast … veryslow; VP9: good, best, realtime).")
  var preset: String?
  @Option(help: "Pixel format: yuv420p (default) or yuv444p; for MP4/WebM any ffmpeg pixel format.") var pixFmt: String?
  @Option(help: "Letterbox colour, and what alpha is composited over for formats without alpha (name or #RRGGBB).")
  var background: ColorArgument?
  @Flag(help: "Replace the frames of a folder that already holds some.") var overwrite = false

  func validate() throws {
    if let crf, !(0...63).contains(crf) {
      throw ValidationError("--crf must be a whole number from 0 to 63 (x264 takes up to 51), not \(crf)")
    }
  }

  /// Refuses the options `format` would silently ignore: --crf and --preset outside MP4 and WebM,
  /// --pix-fmt outside MP4, WebM, MOV and Y4M. Lossless .mkv parts take them all (they are for
  /// the `join` that encodes the parts, and a sharded render passes the same options to both).
  func check(for format: VideoFormat) throws {
    try checkPreset(for: format)
    guard format != .mkv else { return }
    let usedBy: [(String, Bool, [VideoFormat])] = [
      ("--crf", crf != nil, [.mp4, .webm]), ("--preset", preset != nil, [.mp4, .webm]),
      ("--pix-fmt", pixFmt != nil, [.mp4, .webm, .mov, .y4m]),
    ]
    for (name, given, formats) in usedBy where given && !formats.contains(format) {
      throw ValidationError(
        "\(name) is for \(formats.map { ".\($0.rawValue)" }.joined(separator: ", ")) outputs, not \(format.rawValue)")
    }
  }

  /// The presets of the encoders LayerKit picks by default (x264 and x265 share theirs; VP9's
  /// `-deadline`), so that a misspelt one is named here rather than by ffmpeg's own lines.
  static let presets: [(codecs: Set<String>, format: VideoFormat, names: [String])] = [
    (
      ["libx264", "libx265"], .mp4,
      ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"]
    ),
    (["libvpx-vp9", "libvpx"], .webm, ["good", "best", "realtime"]),
  ]

  func checkPreset(for format: VideoFormat) throws {
    guard let preset else { return }
    let defaultCodec = format == .mp4 ? "libx264" : "libvpx-vp9"
    guard let known = Self.presets.first(where: { $0.format == format && $0.codecs.contains(codec ?? defaultCodec) })
    else { return }
    guard known.names.contains(preset) else {
      throw ValidationError(
        "--preset \(preset) is not a preset of \(codec ?? defaultCodec): use one of \(known.names.joined(separator: ", "))"
      )
    }
  }

  var encoding: EncodingOptions {
    var e = EncodingOptions()
    e.pixelFormat = pixFmt
    e.codec = codec
    e.crf = crf
    e.preset = preset
    e.overwrite = overwrite
    if let background { e.background = background.opaque }
    return e
  }
}

extension Fit: ExpressibleByArgument {}
extension VideoFormat: ExpressibleByArgument {}

enum BackendChoice: String, ExpressibleByArgument, CaseIterable {
  case gpu, cpu, auto
}

/// `--smart`: whether an MP4's unchanged stretches are copied from the clips.
extension SmartChoice: ExpressibleByArgument {}

/// `A..B`, `A..` : frames A (included) to B (excluded).
/// Any whole numbers parse; their range is checked by `VideoRunOptions.validate`, which names it.
struct FrameRange: ExpressibleByArgument, CustomStringConvertible {
  var lower: Int
  var upper: Int?
  init?(argument: String) {
    let parts = argument.components(separatedBy: "..")
    guard parts.count == 2, let a = Int(parts[0]) else { return nil }
    lower = a
    if parts[1].isEmpty {
      upper = nil
    } else {
      guard let b = Int(parts[1]) else { return nil }
      upper = b
    }
  }

  var description: String { "\(lower)..\(upper.map(String.init) ?? "")" }
}

/// `I/N`.
struct Shard: ExpressibleByArgument {
  var index: Int
  var count: Int
  init?(argument: String) {
    let parts = argument.split(separator: "/")
    // Any whole numbers parse; VideoRunOptions.validate checks and names their range.
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { return nil }
    index = i
    count = n
  }

  /// Range I of N equal ranges of `total` frames (the first ranges one longer when N does not
  /// divide `total`).
  func range(of total: Int) -> Range<Int> {
    (index * total / count)..<((index + 1) * total / count)
  }
}

/// A colour: a name (black, white, red, green, blue, gray, transparent) or #RRGGBB / #RRGGBBAA.
struct ColorArgument: ExpressibleByArgument {
  var red: UInt8
  var green: UInt8
  var blue: UInt8
  var alpha: UInt8

  init?(argument: String) {
    guard let c = ColorName.rgba8(argument) else { return nil }
    (red, green, blue, alpha) = c
  }

  var color: Color {
    Color(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255, alpha: Double(alpha) / 255)
  }
  var opaque: BackgroundColor { BackgroundColor(red: red, green: green, blue: blue) }
  /// `#RRGGBBAA`, as edits write colours.
  var hex: String { String(format: "#%02X%02X%02X%02X", red, green, blue, alpha) }
}

/// The tolerance options of `compare` and `parity`, the parity contract by default.
struct ToleranceOptions: ParsableArguments {
  @Option(help: "Largest channel difference a pixel may have and still count as equal.")
  var maxDelta: Int = Tolerance.parity.maxChannelDelta
  @Option(help: "Largest fraction (0…1) of pixels allowed beyond --max-delta.")
  var maxFraction: Double = Tolerance.parity.maxDifferingFraction
  @Option(parsing: .unconditional, help: "Smallest PSNR in dB.") var minPsnr: Double = Tolerance.parity.minPSNR

  func validate() throws {
    guard (0...255).contains(maxDelta) else { throw ValidationError("--max-delta must be in 0…255") }
    guard (0...1).contains(maxFraction) else { throw ValidationError("--max-fraction must be in 0…1") }
    // inf asks for identical images; a PSNR is never below 0 dB, so a smaller bound says nothing.
    guard minPsnr >= 0 else {
      throw ValidationError("--min-psnr must be a number of decibels ≥ 0 (inf for identical images), not \(minPsnr)")
    }
  }

  var tolerance: Tolerance { Tolerance(maxChannelDelta: maxDelta, maxDifferingFraction: maxFraction, minPSNR: minPsnr) }
}

/// What every video command takes about the run: a range of frames, a contact sheet, quiet, and
/// a music track.
struct VideoRunOptions: ParsableArguments {
  @Option(
    parsing: .unconditional, help: "Render only frames A..B of the whole video (A included, B not; B may be left out).")
  var frames: FrameRange?
  @Option(
    parsing: .unconditional,
    help:
      "Render range I of N equal ranges (I from 0, as JOB_COMPLETION_INDEX counts); a smart render's boundaries move off copied runs."
  )
  var shard: Shard?
  @Option(help: "Also write a PNG grid of evenly spaced frames, labelled with their times.") var contactSheet: String?
  @Flag(help: "No progress line and no summary.") var quiet = false
  @Option(help: "Also write the render's figures to FILE as JSON: seconds per stage, CPU seconds, occupancy.")
  var stats: String?
  @Option(
    help:
      "A sound track laid under the video from its start (trimmed to the video; MP4, WebM, MOV, MKV); repeatable: the tracks are mixed."
  )
  var audio: [String] = []
  @Option(parsing: .unconditional, help: "Seconds of fade-out at the end of each --audio track.") var audioFade:
    Double = 0
  @Option(
    parsing: .unconditional,
    help:
      "Seconds a frame may take before the render is ended with an error (a user shader that does not end); 0 for no limit."
  )
  var frameTimeLimit: Double = 60

  func validate() throws {
    try checkNamed(audio, "--audio")
    try checkNamed([contactSheet], "--contact-sheet")
    try checkNamed([stats], "--stats")
    try checkRange(audioFade, "--audio-fade", 0...Limits.maxSeconds, unit: "seconds")
    try checkRange(frameTimeLimit, "--frame-time-limit", 0...Limits.maxSeconds, unit: "seconds")
    guard frames == nil || shard == nil else { throw ValidationError("use --frames or --shard, not both") }
    if let f = frames {
      guard f.lower >= 0, f.upper.map({ $0 > f.lower }) ?? true else {
        throw ValidationError(
          "--frames \(f): A..B takes frames A to B, B left out, with 0 ≤ A < B (B may be left out: A..)")
      }
    }
    if let s = shard {
      guard s.count >= 1, (0..<s.count).contains(s.index) else {
        throw ValidationError("--shard \(s.index)/\(s.count): I/N takes N ≥ 1 ranges and an I from 0 to N − 1")
      }
    }
  }
}

extension VideoRunOptions {
  /// Refuses, before anything is rendered, a secondary output (`--contact-sheet`, `--stats`)
  /// that names the output's path or one inside its frame folder, or the other secondary's: one
  /// would be written over the other after the render.
  func checkOutputsDistinct(output: String, target: OutputTarget) throws {
    let named = [("-o", output == "-" ? nil : output), ("--contact-sheet", contactSheet), ("--stats", stats)]
      .compactMap { name, path in path.map { (name: name, path: $0) } }
    for (i, a) in named.enumerated() {
      let folder = a.name == "-o" && target.format == .png
      for b in named[(i + 1)...] where OutputIdentity.collide(a.path, b.path, outputIsFolder: folder) {
        throw ValidationError(
          folder && !OutputIdentity.collide(a.path, b.path)
            ? "\(b.name) \(b.path) lies in the frame folder -o \(a.path): give it a path outside"
            : "\(a.name) \(a.path) and \(b.name) \(b.path) name the same file: give each output its own")
      }
    }
  }

  /// Options that take a value and shape nothing in the frames or the sound.
  static let placeOptions: Set<String> = [
    "-o", "--output", "--shard", "--frames", "--stats", "--contact-sheet", "--renderer", "--frame-time-limit",
  ]
  /// Flags that shape nothing in the frames or the sound.
  static let placeFlags: Set<String> = ["--quiet", "--overwrite"]

  /// `arguments` as the plan id sees them: less those that only say where the output goes and
  /// how the run reports, with every argument naming a file (an input, `--audio`, `--subtitles`,
  /// a shader, `@IMAGE`) replaced by its content's identity: parts of one plan are parts of one
  /// video.
  func planArguments(_ arguments: [String]) -> [String] {
    var kept: [String] = []
    var i = 0
    while i < arguments.count {
      let argument = arguments[i]
      let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
      if argument.hasPrefix("-"), Self.placeOptions.contains(name) {
        i += argument.contains("=") ? 1 : 2
        continue
      }
      if Self.placeFlags.contains(argument) {
        i += 1
        continue
      }
      kept.append(Self.identity(of: argument))
      i += 1
    }
    return kept
  }

  /// A file's content identity for an argument that names one (`FILE`, `@FILE`, `FILE:PARAMS`),
  /// else the argument.
  static func identity(of argument: String) -> String {
    if let id = PartRecord.contentIdentity(of: argument) { return id }
    if argument.hasPrefix("@"), let id = PartRecord.contentIdentity(of: String(argument.dropFirst())) {
      return "@" + id
    }
    if let colon = argument.firstIndex(of: ":"), let id = PartRecord.contentIdentity(of: String(argument[..<colon])) {
      return id + argument[colon...]
    }
    return argument
  }
}
