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
  package static func ffmpeg() throws(ProcessError) -> String {
    guard let path = locate("ffmpeg") else { throw .programNotFound(program: "ffmpeg") }
    return path
  }

  /// The path of ffprobe.
  package static func ffprobe() throws(ProcessError) -> String {
    guard let path = locate("ffprobe") else { throw .programNotFound(program: "ffprobe") }
    return path
  }

  /// Whether debug logging of command lines is on (`LAYERKIT_DEBUG=1`).
  package static let debug =
    ProcessInfo.processInfo.environment["LAYERKIT_DEBUG"].map { $0 != "0" && !$0.isEmpty } ?? false

  /// Starts a program; logs the exact command line at debug level.
  package static func start(
    _ program: String, _ arguments: [String], stdin: Bool, stdout: ChildProcess.Output
  ) throws(ProcessError) -> ChildProcess {
    if debug {
      let line = ([program] + arguments).map(shellQuoted).joined(separator: " ")
      FileHandle.standardError.write(Data("layerkit: debug: \(line)\n".utf8))
    }
    return try ChildProcess(program, arguments, stdin: stdin, stdout: stdout)
  }

  package static func shellQuoted(_ s: String) -> String {
    if !s.isEmpty && s.allSatisfy({ $0.isLetter || $0.isNumber || "-_./:=,+@%".contains($0) }) { return s }
    return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }

  /// Seconds formatted for ffmpeg's time options, exact to the microsecond.
  package static func seconds(_ t: Double) -> String {
    // Times beyond Limits are refused before they get here; the clamp keeps a number that
    // slipped through from becoming hundreds of digits on ffmpeg's command line.
    String(format: "%.6f", min(max(0, t), 1e9))
  }

  /// ffmpeg's error lines about its output or its options (an encoder that failed, a write that
  /// failed), as one line a person reads: a full disk or a refused write named in plain words,
  /// anything else without ffmpeg's internals (`[libx264 @ 0x55…]` prefixes, "Last message
  /// repeated N times"), its last two distinct lines, at most 200 characters.
  package static func explainFailure(_ stderr: String) -> String {
    if let known = outputFailure(stderr) { return known }
    let lines = plainLines(stderr)
    var distinct: [String] = []
    for line in lines.reversed() where !distinct.contains(line) {
      distinct.insert(line, at: 0)
      if distinct.count == 2 { break }
    }
    let joined = distinct.joined(separator: "; ")
    return joined.count > 200 ? String(joined.prefix(200)) + "…" : joined
  }

  /// What ffmpeg's error lines say went wrong writing its output, in plain words (a full disk, a
  /// read-only or refused file), or nil when they say something else.
  package static func outputFailure(_ stderr: String) -> String? {
    let text = stderr.lowercased()
    let known: [(needle: String, meaning: String)] = [
      ("no space left on device", "the disk is full (no space left on device)"),
      ("disk quota exceeded", "the disk quota is exceeded"),
      ("file too large", "the file is larger than the file system allows"),
      ("read-only file system", "the file system is read-only"),
      ("permission denied", "permission denied"),
    ]
    return known.first { text.contains($0.needle) }?.meaning
  }

  /// ffmpeg's lines without its internals: `[name @ 0x…]` prefixes, "Last message repeated"
  /// lines and empty lines.
  package static func plainLines(_ stderr: String) -> [String] {
    stderr.split(whereSeparator: \.isNewline).compactMap { line -> String? in
      var l = line.trimmingCharacters(in: .whitespaces)
      while l.hasPrefix("["), let close = l.firstIndex(of: "]") {
        l = String(l[l.index(after: close)...]).trimmingCharacters(in: .whitespaces)
      }
      if l.isEmpty || l.lowercased().hasPrefix("last message repeated") { return nil }
      return l
    }
  }
}

extension FFmpeg {
  /// ffmpeg's or ffprobe's error lines about an input, as one line a person reads: the common
  /// failures named (not a media file, truncated, no video stream, an unsupported codec or
  /// format), anything else stripped of ffmpeg's internals (`[mov,mp4,… @ 0x55…]` prefixes, the
  /// path repeated), never empty.
  package static func explain(_ stderr: String, path: String) -> String {
    let text = stderr.lowercased()
    // Whether the file starts like a container ffmpeg knows (ISO BMFF, Matroska/WebM, RIFF, Ogg,
    // MPEG-TS, FLV, GIF): then its failures mean damage, not a file of another kind.
    let head = FileIO.head(path, count: 12) ?? []
    let magics: [[UInt8]] = [
      [0x1A, 0x45, 0xDF, 0xA3], Array("RIFF".utf8), Array("OggS".utf8), Array("FLV".utf8), Array("GIF8".utf8),
    ]
    let media =
      (head.count >= 8 && Array(head[4..<8]) == Array("ftyp".utf8)) || magics.contains { head.starts(with: $0) }
      || head.first == 0x47
    let known: [(needles: [String], meaning: String)] = [
      (
        ["moov atom not found"],
        media ? "truncated: an MP4/MOV cut off before its index (moov) was written" : "not a media file ffmpeg can read"
      ),
      (["no such file"], "no such file"),
      (["permission denied"], "permission denied"),
      (["is a directory"], "a folder, not a file"),
      (["decoder", "not found"], "an unsupported codec (no decoder for it in this ffmpeg)"),
      (["unknown codec"], "an unsupported codec"),
      (["could not find codec parameters"], "an unsupported or damaged stream (ffprobe found no codec parameters)"),
      (["end of file"], "truncated: the file ends too early"),
      (["invalid nal unit"], "damaged or truncated video data"),
      (["error while decoding"], "damaged or truncated video data"),
      (
        ["invalid data found when processing input"],
        media ? "damaged or truncated: ffmpeg found invalid data in it" : "not a media file ffmpeg can read"
      ),
      (["unknown format"], "not a media file ffmpeg can read"),
    ]
    for entry in known where entry.needles.allSatisfy(text.contains) { return entry.meaning }
    if media { return "damaged or truncated: ffmpeg could not decode it" }
    // Strip "[demuxer @ 0x…] " and a leading "PATH: ", keep the last line that says something.
    let lines = stderr.split(whereSeparator: \.isNewline).map { line -> String in
      var l = String(line)
      while l.hasPrefix("["), let close = l.firstIndex(of: "]") {
        l = String(l[l.index(after: close)...]).trimmingCharacters(in: .whitespaces)
      }
      if l.hasPrefix(path + ": ") { l = String(l.dropFirst(path.count + 2)) }
      return l
    }.filter { !$0.isEmpty }
    guard let last = lines.last else { return "ffmpeg could not read it" }
    return last.count > 200 ? String(last.prefix(200)) + "…" : last
  }

  /// The exact number of video frames in a file (ffprobe counts them by decoding packets).
  package static func countFrames(_ path: String) throws -> Int {
    let probe = try start(
      try ffprobe(),
      [
        "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets",
        "-of", "csv=p=0", path,
      ], stdin: false, stdout: .pipe)
    let text = String(decoding: probe.readAll(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard probe.wait() == 0, let n = Int(text.split(separator: ",").first ?? "") else {
      throw ProcessError.unreadableClip(path: path, reason: "ffprobe could not count its frames")
    }
    return n
  }
}
