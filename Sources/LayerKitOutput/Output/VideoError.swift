import Foundation
import LayerKit
import LayerKitMedia

/// Why a video could not be rendered or written. Each case is one line for a person; tests match
/// on the case. A program that failed or a clip that could not be read is LayerKitMedia's
/// `ProcessError`, where those are thrown.
public enum VideoError: AdvisedError, Equatable, Sendable {
  /// A sound track (a music file) that cannot be laid under the video: `reason` says why.
  case unreadableAudio(path: String, reason: String)
  /// The output path cannot be written, or names something that cannot be written to.
  case unwritableOutput(path: String, reason: String)
  /// The output's kind cannot be told from its name.
  case unknownFormat(path: String)
  /// A frame folder that already holds frames, without `overwrite`.
  case folderNotEmpty(path: String, frames: Int)
  /// A size that the format's chroma subsampling cannot store; `suggestion` is the nearest even one.
  case oddSize(width: Int, height: Int, suggestedWidth: Int, suggestedHeight: Int, pixelFormat: String)
  /// An item shorter than the transitions that overlap it.
  case itemTooShort(item: String, duration: Double, needed: Double)
  /// A timeline that is not one: no items, a bad duration, a bad frame range, a bad spec.
  case invalidTimeline(String)
  /// An edit (`--print-edit`'s JSON, an edit file) with a field that cannot be played: `at` is
  /// its path in the edit (`clips[2].layers.speed`).
  case invalidEdit(at: String, reason: String)
  /// Parts that do not join: different sizes, rates or formats, or not parts at all.
  case incompatibleParts(String)
  /// A file given to join that records no place in a render of a frame range.
  case notAPart(path: String, what: String)
  /// Y4M parts of one chroma sampling asked to join into a pixel format of another.
  case partsNeedConversion(chroma: String, pixelFormat: String)
  /// A pixel format LayerKit does not convert to itself for this container.
  case pixelFormatUnavailable(pixelFormat: String, format: String)
  /// The render was stopped by a signal (SIGINT, SIGTERM); nothing was left at the output path,
  /// or — for a stream (`stream`: standard output, a FIFO, a device) — the first `framesSent`
  /// frames had gone out and the stream ends after them.
  case interrupted(signal: Int32, stream: String? = nil, framesSent: Int = 0)
  /// No frame was finished for `seconds` (`--frame-time-limit`) after frame `frame`: a shader
  /// that loops for minutes, or work beyond any budget; nothing was left at the output path (for
  /// a stream, what had gone out stays sent).
  case frameTimeLimit(frame: Int, seconds: Double, stream: String? = nil)
  /// An output that names one of the inputs (or a folder holding one): writing it would destroy
  /// the input.
  case outputIsInput(output: String, input: String)

  public func message(_ words: (Setting) -> String) -> String {
    switch self {
    case .unreadableAudio(let path, let reason): return "\(path): cannot use as a sound track: \(reason)"
    case .unwritableOutput(let path, let reason): return "\(path): cannot write the output: \(reason)"
    case .unknownFormat(let path):
      return
        "\(path): cannot tell the output format from the name; use .mp4, .webm, .gif, .webp, .apng, .mov, .mkv, .y4m, "
        + "a folder (ending in /) for PNG frames, or \(words(.outputFormat))"
    case .folderNotEmpty(let path, let frames):
      return "\(path) already holds \(frames) frame files; \(words(.replaceFrames)), or choose another folder"
    case .oddSize(let w, let h, let sw, let sh, let format):
      return "\(w)×\(h) cannot be stored as \(format) (its chroma planes need whole blocks of pixels); "
        + "the nearest size it stores is \(sw)×\(sh): \(words(.sizeOrPad))"
    case .itemTooShort(let item, let duration, let needed):
      return "\(item) lasts \(fmt(duration)) s, shorter than the \(fmt(needed)) s its transitions need; "
        + words(.transitionFit)
    case .invalidTimeline(let reason): return reason
    case .invalidEdit(let at, let reason): return "the edit's \(at): \(reason)"
    case .incompatibleParts(let reason): return "the parts do not join: \(reason)"
    case .notAPart(let path, let what):
      return "the parts do not join: \(path) \(what): it is not a part of \(words(.partialRender)) "
        + "(\(words(.uncheckedJoin)))"
    case .partsNeedConversion(let chroma, let pixelFormat):
      return
        "the parts do not join: the Y4M parts are \(chroma); \(words(.pixelFormat)) \(pixelFormat) would need a conversion"
    case .pixelFormatUnavailable(let pixelFormat, let format):
      return "\(words(.pixelFormat)) \(pixelFormat) is not available for \(format); use yuv420p or yuv444p"
    case .outputIsInput(let output, let input):
      return output == input
        ? "the output \(output) is also an input; choose another output"
        : "the output \(output) would overwrite the input \(input); choose another output"
    case .interrupted(let signal, let stream, let sent):
      let name = [1: "SIGHUP", 2: "SIGINT", 15: "SIGTERM"][signal] ?? "signal \(signal)"
      guard let stream else { return "stopped by \(name); no output was left" }
      return "stopped by \(name) after \(sent) frame\(sent == 1 ? "" : "s") had gone to \(stream): the stream ends "
        + "there, cut short, and what reads it holds a partial video"
    case .frameTimeLimit(let frame, let seconds, let stream):
      return
        "frame \(frame) took over \(String(format: "%g", seconds)) s (\(words(.frameTimeLimit))): a shader that does not end, "
        + "or work beyond any budget; "
        + (stream.map { "\($0) got the frames before it and ends there, cut short" } ?? "no output was left")
        + " (\(words(.raiseFrameTimeLimit)) if the frame is only slow)"
    }
  }
}

private func fmt(_ x: Double) -> String {
  let r = (x * 1000).rounded() / 1000
  return r == r.rounded() ? String(Int(r)) : String(r)
}
