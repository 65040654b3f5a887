import Foundation

/// Why a program LayerKit runs failed, or a clip could not be read by it. Each case is one line
/// for a person; tests match on the case.
public enum ProcessError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A program LayerKit runs (ffmpeg, ffprobe) is not installed or not on PATH.
  case programNotFound(program: String)
  /// A program exited with a failure; `detail` holds the last lines of its error output.
  case programFailed(program: String, status: Int32, detail: String)
  /// A file that ffprobe could not read as a clip with a video stream (or an image).
  case unreadableClip(path: String, reason: String)

  public var description: String {
    switch self {
    case .programNotFound(let program):
      let package = program == "ffprobe" ? "ffmpeg" : program
      return "\(program) was not found on PATH; install Debian's \(package) package (apt-get install \(package))"
    case .programFailed(let path, let status, let detail):
      let program = path.split(separator: "/").last.map(String.init) ?? path
      let what = status >= 0 ? "\(program) failed (exit status \(status))" : "\(program) failed"
      let plain = FFmpeg.explainFailure(detail)
      return plain.isEmpty ? what : "\(what): \(plain)"
    case .unreadableClip(let path, let reason): return "\(path): cannot read as an image or a clip: \(reason)"
    }
  }
}
