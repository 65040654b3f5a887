import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Where the ffmpeg and ffprobe programs are. LayerKit talks to them as programs, through pipes,
/// never as libraries; everything else (images, Y4M, PNG folders) works without them.
public enum FFmpeg {
  /// The full path of `program` found in PATH, or nil.
  public static func locate(_ program: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") where !folder.isEmpty {
      let candidate = "\(folder)/\(program)"
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// The path of ffmpeg.
  /// - Throws: `.programNotFound` naming the Debian package.
  static func ffmpeg() throws(VideoError) -> String {
    guard let path = locate("ffmpeg") else { throw .programNotFound(program: "ffmpeg") }
    return path
  }

  /// The path of ffprobe.
  static func ffprobe() throws(VideoError) -> String {
    guard let path = locate("ffprobe") else { throw .programNotFound(program: "ffprobe") }
    return path
  }

  /// Whether debug logging of command lines is on (`LAYERKIT_DEBUG=1`).
  static let debug = ProcessInfo.processInfo.environment["LAYERKIT_DEBUG"].map { $0 != "0" && !$0.isEmpty } ?? false

  /// Starts a program; logs the exact command line at debug level.
  static func start(
    _ program: String, _ arguments: [String], stdin: Bool, stdout: ChildProcess.Output
  ) throws(VideoError) -> ChildProcess {
    if debug {
      let line = ([program] + arguments).map(shellQuoted).joined(separator: " ")
      FileHandle.standardError.write(Data("layerkit: debug: \(line)\n".utf8))
    }
    return try ChildProcess(program, arguments, stdin: stdin, stdout: stdout)
  }

  static func shellQuoted(_ s: String) -> String {
    if !s.isEmpty && s.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:=,+@%".contains($0) }) { return s }
    return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// Seconds formatted for ffmpeg's time options, exact to the microsecond.
  static func seconds(_ t: Double) -> String {
    String(format: "%.6f", max(0, t))
  }
}
