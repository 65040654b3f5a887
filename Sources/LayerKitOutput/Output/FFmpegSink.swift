import Foundation
import LayerKit
import LayerKitMedia

#if canImport(Glibc)
  import Glibc
#endif

/// Frames through a pipe into the ffmpeg program, which encodes and muxes them (with the audio
/// mix, when there is one). LayerKit converts to Y'CbCr itself (BT.709, limited range — the same
/// conversion as its Y4M output) for yuv420p / yuv444p, and hands ffmpeg RGBA otherwise; the
/// colour matrix, range, primaries and transfer are tagged on the stream, so players show the
/// colours of the PNG frames.
package final class FFmpegSink: FrameSink, @unchecked Sendable {
  package typealias Input = EncoderSettings.Input
  /// What LayerKit feeds ffmpeg, as the plan decided.
  package let input: Input
  /// Planes converted (BT.709) re-expressed in the output's matrix where it is BT.601.
  private let rematrix: YCbCrRematrix?
  private let process: ChildProcess
  private let temporary: TemporaryFile?
  private let background: BackgroundColor
  private let displayPath: String
  private let width: Int
  private let height: Int
  private let format: VideoFormat
  private let rate: FrameRate
  /// editly's customOutputArgs, for naming ffmpeg's refusal of them.
  private let customArguments: [String]
  /// Whether the file is read back to count its frames: not a smart render's encoded stretches,
  /// whose packets `SmartRender` reads and counts itself (one ffprobe run, not two).
  private let readsBack: Bool
  /// The most pixels a frame of an animated GIF or WebP holds.
  static let maxAnimatedPixels = 3840 * 2160
  /// The frame rates a GIF plays at as written: delays of 2 to 65 535 hundredths of a second.
  static let gifRates: ClosedRange<Double> = (100.0 / 65535)...50

  package init(plan: OutputPlan, width: Int, height: Int, rate: FrameRate) throws {
    self.rate = rate
    let (target, options) = (plan.target, plan.options)
    customArguments = options.stretch == nil ? options.customArguments : []
    readsBack = options.stretch == nil
    background = options.background
    displayPath = target.displayPath
    self.width = width
    self.height = height
    self.format = target.format
    let format = target.format
    // Animated GIF and WebP encoders hold several whole canvases (palettegen's statistics,
    // libwebp's frames to merge): at 16384×4096 they passed 2 GB. Refused before any frame.
    if format == .gif || format == .webp, width * height > FFmpegSink.maxAnimatedPixels {
      throw VideoError.unwritableOutput(
        path: target.displayPath,
        reason: "a .\(format.rawValue) of \(width)×\(height) would take gigabytes to encode; it holds at most "
          + "\(FFmpegSink.maxAnimatedPixels) pixels a frame (3840×2160): write .mp4, .webm or .apng")
    }
    if format == .gif {
      // A GIF's frame delays are whole hundredths of a second (at most 655.35 s), and players
      // stretch a delay under 0.02 s to 0.1 s: a rate outside that would play for another length.
      guard rate.framesPerSecond <= FFmpegSink.gifRates.upperBound,
        rate.framesPerSecond >= FFmpegSink.gifRates.lowerBound
      else {
        throw VideoError.unwritableOutput(
          path: target.displayPath,
          reason:
            "a GIF holds \(String(format: "%.5f", FFmpegSink.gifRates.lowerBound)) to "
            + "\(Int(FFmpegSink.gifRates.upperBound)) "
            + "frames a second (its frame delays are hundredths of a second, at least 0.02 s where players keep "
            + "them), not \(Limits.format(rate.framesPerSecond)); render at a rate in that range, or write .webp or .apng"
        )
      }
    }
    guard let encoder = plan.encoder else { throw VideoError.unknownFormat(path: target.displayPath) }
    input = encoder.input
    rematrix = YCbCrRematrix.fromBT709(to: plan.matrix(width: width, height: height))
    var args = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
    switch input {
    case .yuv(let chroma):
      args += ["-f", "rawvideo", "-pix_fmt", chroma.pixelFormatName] + encoder.inputTags
    default:
      args += ["-f", "rawvideo", "-pix_fmt", "rgba"]
    }
    args += ["-s", "\(width)x\(height)", "-framerate", rate.description]
    // The frames come through standard input: that pipe is all this input opens.
    args += ["-protocol_whitelist", "pipe", "-i", "pipe:0"]
    // The sound, where the plan muxes it: the mix's inputs and filter graph.
    let sound = encoder.audio.flatMap { codec in options.audio.map { (mix: $0, codec: codec) } }
    for extra in sound?.mix.inputs ?? [] { args += extra }
    var graph: [String] = []
    if !encoder.filters.isEmpty { graph.append("[0:v]" + encoder.filters.joined(separator: ",") + "[v]") }
    if let sound { graph.append(sound.mix.filterGraph) }
    if !graph.isEmpty { args += ["-filter_complex", graph.joined(separator: ";")] }
    args += ["-map", encoder.filters.isEmpty ? "0:v" : "[v]"]
    if let sound { args += ["-map", "[\(sound.mix.outputLabel)]"] + sound.codec }
    args += encoder.video
    args += ["-f", encoder.muxer]

    let stdout: ChildProcess.Output
    switch target.kind {
    case .standardOutput:
      if format == .mp4 || format == .mov { args += ["-movflags", "frag_keyframe+empty_moov"] }
      args.append("pipe:1")
      temporary = nil
      stdout = .inherit
    case .writeThrough(let path):
      var info = stat()
      if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFCHR, format == .mp4 || format == .mov {
        args += ["-movflags", "frag_keyframe+empty_moov"]  // a FIFO cannot be seeked back into
      }
      // file:PATH, as every input: a name that begins `word:` is a file, never a protocol.
      args.append("file:" + path)
      temporary = nil
      stdout = .discard
    case .file(let path):
      let t = try TemporaryFile(beside: path)
      try t.closeDescriptor()
      temporary = t
      args.append("file:" + t.path)
      stdout = .discard
    case .folder(let path):
      throw VideoError.unwritableOutput(path: path, reason: "a folder holds PNG frames, not \(format.rawValue)")
    }
    do {
      process = try FFmpeg.start(try FFmpeg.ffmpeg(), args, stdin: true, stdout: stdout)
    } catch {
      temporary?.discard()
      throw error
    }
  }

  func prepare(_ frame: VideoFrame, index: Int) throws -> PreparedFrame {
    switch input {
    case .yuv(let chroma):
      let layout = YUVFrameLayout(width: width, height: height, chroma: chroma)
      guard let rematrix else { return [try frame.planes(layout, background: background.tuple)] }
      // BT.601: the planes converted (or copied) into the one buffer written, re-expressed there.
      var failure: MediaError?
      let bytes = FrameMemory.bytes(count: layout.byteCount) { buffer in
        let out = UnsafeMutableRawBufferPointer(buffer)
        do throws(MediaError) {
          if try !frame.writePlanes(layout, background: background.tuple, into: out) {
            _ = try VideoFrame.image(try frame.image()).writePlanes(layout, background: background.tuple, into: out)
          }
          rematrix.apply(out, layout: layout)
        } catch {
          failure = error
        }
      }
      if let failure { throw failure }
      return [.bytes(bytes)]
    case .rgbaOpaque: return [.bytes(composited(try frame.image(), over: background))]
    case .rgbaStraight: return [.bytes(Premultiply.straightened(try frame.image().pixels))]
    case .rgbaPremultiplied: return [.bytes(try frame.image().pixels)]
    }
  }

  /// Frames handed to the encoder.
  private var written = 0

  package func write(_ frame: PreparedFrame, index: Int) throws {
    written += 1
    for chunk in frame {
      let result = chunk.withUnsafeBytes { buffer in
        Result { () throws(ProcessError) in try process.write(buffer) }
      }
      do {
        try result.get()
      } catch {
        throw named(error)
      }
    }
  }

  /// An encoder's failure to write its output (a full disk) as the output's error, naming it;
  /// ffmpeg's refusal of custom output arguments as theirs, naming the one refused.
  private func named(_ error: ProcessError) -> Error {
    guard case .programFailed(_, _, let detail) = error else { return error }
    if let reason = FFmpeg.outputFailure(detail) {
      return VideoError.unwritableOutput(path: displayPath, reason: reason)
    }
    guard !customArguments.isEmpty else { return error }
    return VideoError.invalidEdit(
      at: "customOutputArgs",
      reason: Self.refusal(of: customArguments, detail, format: format) + " (\(customArguments.joined(separator: " ")))"
    )
  }

  /// What ffmpeg's error lines say about custom output arguments, in one line naming the
  /// argument: an option the encoder does not take, an encoder ffmpeg lacks, a codec the
  /// container does not hold.
  static func refusal(of arguments: [String], _ detail: String, format: VideoFormat) -> String {
    func given(_ names: [String]) -> String? {
      for (i, a) in arguments.enumerated() where names.contains(a) && i + 1 < arguments.count {
        return "\(a) \(arguments[i + 1])"
      }
      return nil
    }
    let codec = given(["-vcodec", "-c:v", "-codec:v", "-c", "-codec"])
    for line in FFmpeg.plainLines(detail) {
      if let r = line.range(of: "Error setting option ") {
        let words = line[r.upperBound...].split(separator: " ")
        let option = words.first.map(String.init) ?? "?"
        let value =
          words.count > 3 ? words[3...].joined(separator: " ").trimmingCharacters(in: .punctuationCharacters) : ""
        return "the encoder" + (codec.map { " they choose (\($0))" } ?? "") + " does not take -\(option) \(value)"
          + (given(["-\(option)"]) == nil ? "; give it a value it takes, or leave the encoder LayerKit's" : "")
      }
      if let r = line.range(of: "Unrecognized option '") {
        return "ffmpeg has no option -\(line[r.upperBound...].prefix { $0 != "'" })"
      }
      if let r = line.range(of: "Unknown encoder '") {
        return "ffmpeg has no encoder '\(line[r.upperBound...].prefix { $0 != "'" })'"
      }
      if line.contains("not currently supported in container") || line.contains("Could not find tag for codec") {
        return "a .\(format.rawValue) cannot hold the codec " + (codec.map { "they choose (\($0))" } ?? "they choose")
          + "; name another codec, or write another kind of file"
      }
    }
    return "ffmpeg refused them: " + FFmpeg.explainFailure(detail)
  }

  package func finish() throws {
    process.closeInput()
    let status = process.wait()
    guard status == 0 else {
      temporary?.discard()
      throw named(.programFailed(program: "ffmpeg", status: status, detail: process.errorTail()))
    }
    do {
      // A device or a pipe (`-o /dev/full`) is not read back, but what ffmpeg said still counts.
      try checkErrorLines()
      if let temporary, readsBack { try verify(temporary.path) }
    } catch {
      temporary?.discard()
      throw error
    }
    try temporary?.commit()
  }

  /// ffmpeg can exit 0 after failing to write (5.1 does so on a full disk or device: "Error
  /// writing trailer … No space left on device"): its own error lines say so.
  private func checkErrorLines() throws(VideoError) {
    let tail = process.errorTail()
    let fatal = [
      "Error writing trailer", "No space left", "Conversion failed", "I/O error", "Error submitting",
      "Error writing", "Broken pipe",
    ]
    if let line = tail.split(separator: "\n").first(where: { l in fatal.contains { l.contains($0) } }) {
      throw .unwritableOutput(
        path: displayPath,
        reason: FFmpeg.outputFailure(String(line)) ?? "ffmpeg exited 0 but said: \(FFmpeg.explainFailure(String(line)))"
      )
    }
  }

  /// ffmpeg can exit 0 and leave a file that is not the video: the file probed back — a video
  /// stream, and about as many frames as were written — decides before it takes the target's
  /// name.
  private func verify(_ path: String) throws(VideoError) {
    // Debian's ffmpeg 5.1 writes animated WebP but does not read it back: its frames (ANMF
    // chunks) are read in the RIFF container instead. libwebp merges a run of identical frames
    // into one longer frame, so what must add up is the frames' durations (whole milliseconds;
    // its last frame is a millisecond short), not their number.
    if format == .webp {
      let expected = Double(written) * 1000 / rate.framesPerSecond
      guard let animation = FFmpegSink.webPAnimation(path),
        abs(Double(animation.milliseconds) - expected) <= max(2, 500 / rate.framesPerSecond)
      else {
        let found = FFmpegSink.webPAnimation(path).map { "\($0.frames) frames lasting \($0.milliseconds) ms" }
        throw .unwritableOutput(
          path: displayPath,
          reason:
            "ffmpeg exited 0 but the file holds \(found ?? "no animation"), not the \(written) frames written "
            + "(\(Int(expected.rounded())) ms)")
      }
      return
    }
    // An APNG states no duration, and a GIF's timings are rounded to hundredths: their frames
    // are counted packet by packet.
    if format == .apng || format == .gif {
      let frames = try? FFmpeg.countFrames(path)
      guard let frames, frames == written else {
        throw .unwritableOutput(
          path: displayPath,
          reason:
            "ffmpeg exited 0 but the file holds \(frames.map(String.init) ?? "no") of the \(written) frames written")
      }
      return
    }
    let info: ClipInfo
    do {
      info = try ClipInfo.probe(path)
    } catch {
      throw .unwritableOutput(path: displayPath, reason: "ffmpeg exited 0 but the file does not read back as a video")
    }
    if written > 2, info.frameCount < written - max(2, written / 100) {
      throw .unwritableOutput(
        path: displayPath,
        reason: "ffmpeg exited 0 but the file holds \(info.frameCount) of the \(written) frames written")
    }
  }

  /// The frames of an animated WebP (its ANMF chunks, walking the RIFF container) and their
  /// durations added up; nil when the file is not a whole one (a chunk runs past the end, or the
  /// header is not RIFF/WEBP).
  static func webPAnimation(_ path: String) -> (frames: Int, milliseconds: Int)? {
    guard let data = FileManager.default.contents(atPath: path), data.count >= 12 else { return nil }
    let bytes = [UInt8](data)
    func fourCC(_ at: Int) -> String { String(decoding: bytes[at..<at + 4], as: UTF8.self) }
    func uint(_ at: Int, _ count: Int) -> Int {
      (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
    }
    guard fourCC(0) == "RIFF", fourCC(8) == "WEBP", uint(4, 4) + 8 == bytes.count else { return nil }
    var offset = 12
    var frames = 0
    var milliseconds = 0
    while offset + 8 <= bytes.count {
      let length = uint(offset + 4, 4)
      if fourCC(offset) == "ANMF" {
        // The frame's header: X, Y, width − 1, height − 1, duration (3 bytes each), flags.
        guard length >= 16, offset + 8 + 16 <= bytes.count else { return nil }
        frames += 1
        milliseconds += uint(offset + 8 + 12, 3)
      }
      offset += 8 + length + (length & 1)
    }
    return offset == bytes.count ? (frames, milliseconds) : nil
  }

  package func abort() {
    process.terminate(grace: 1)
    temporary?.discard()
  }

  func interrupt() {
    process.stop(grace: 1)
  }
}
