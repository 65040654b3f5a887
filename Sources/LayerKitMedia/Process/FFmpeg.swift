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

  /// Starts a program; logs the exact command line at debug level. Every input an ffmpeg or
  /// ffprobe command line names with `-i` is opened the same way (`confiningInputs`).
  package static func start(
    _ program: String, _ arguments: [String], stdin: Bool, stdout: ChildProcess.Output
  ) throws(ProcessError) -> ChildProcess {
    let arguments = confiningInputs(arguments)
    if debug {
      let line = ([program] + arguments).map(shellQuoted).joined(separator: " ")
      FileHandle.standardError.write(Data("layerkit: debug: \(line)\n".utf8))
    }
    return try ChildProcess(program, arguments, stdin: stdin, stdout: stdout)
  }

  /// The demuxers LayerKit opens a file with: clips, sounds and the stills ffmpeg decodes
  /// (ffmpeg's names, as ffprobe's `format_name` gives them). Anything else — an HLS playlist, an
  /// ffconcat list, any format that opens other files or hosts — is refused before it reads a
  /// byte past its own head.
  package static let demuxers = [
    "mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm", "mpegts", "avi", "ogg", "flv", "mpeg", "mxf", "asf", "dv",
    "yuv4mpegpipe", "gif", "apng", "wav", "w64", "aiff", "mp3", "flac", "aac", "caf", "image2", "png_pipe",
    "jpeg_pipe", "webp_pipe", "bmp_pipe", "tiff_pipe", "svg_pipe", "gif_pipe",
  ]

  /// The protocols a file input may use: the file itself, nothing else.
  package static let fileProtocols = "file"
  /// The protocols a lavfi input (a filter graph: silence, a test picture) may use.
  package static let generatedProtocols = "file,pipe"

  /// The arguments with every input (`-i VALUE`) opened the same way, unless the call site chose
  /// its protocols itself (LayerKit's own pipes and pieces: `-protocol_whitelist` among the
  /// input's options):
  /// - a file: `-protocol_whitelist file` (no other file or host reached through it),
  ///   `-format_whitelist` of `demuxers` unless the input's format is forced (`-f`), and the path
  ///   as `file:PATH`, so a path that begins `word:` is a file of that name, never a protocol;
  /// - a lavfi input (`-f lavfi`): `-protocol_whitelist file,pipe`, its graph as it is.
  package static func confiningInputs(_ arguments: [String]) -> [String] {
    var out: [String] = []
    out.reserveCapacity(arguments.count + 8)
    // Where the options of the input being read start in `out`.
    var inputStart = 0
    var k = 0
    while k < arguments.count {
      guard arguments[k] == "-i", k + 1 < arguments.count else {
        out.append(arguments[k])
        k += 1
        continue
      }
      let options = out[inputStart...]
      let value = arguments[k + 1]
      if !options.contains("-protocol_whitelist") {
        let forced = options.indices.last { options[$0] == "-f" && $0 + 1 < out.count }.map { out[$0 + 1] }
        if forced == "lavfi" {
          out += ["-protocol_whitelist", generatedProtocols, "-i", value]
        } else {
          out += ["-protocol_whitelist", fileProtocols]
          if forced == nil { out += ["-format_whitelist", demuxers.joined(separator: ",")] }
          out += ["-i", "file:" + value]
        }
      } else {
        out += ["-i", value]
      }
      k += 2
      inputStart = out.count
    }
    return out
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
    if let format = refusedFormat(stderr) { return refusal(format: format) }
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
      for written in ["file:" + path, path] where l.hasPrefix(written + ": ") {
        l = String(l.dropFirst(written.count + 2))
        break
      }
      return l
    }.filter { !$0.isEmpty }
    guard let last = lines.last else { return "ffmpeg could not read it" }
    return last.count > 200 ? String(last.prefix(200)) + "…" : last
  }

  /// The demuxer ffmpeg found for an input `demuxers` does not hold (its `[NAME @ 0x…] Format
  /// not on whitelist` line), or nil.
  package static func refusedFormat(_ stderr: String) -> String? {
    for line in stderr.split(whereSeparator: \.isNewline) where line.lowercased().contains("format not on whitelist") {
      guard line.hasPrefix("["), let at = line.range(of: " @ ") else { return "unknown" }
      return String(line[line.index(after: line.startIndex)..<at.lowerBound])
    }
    return nil
  }

  /// Why an input whose demuxer is `format` is not read, in words.
  package static func refusal(format: String) -> String {
    let kind =
      switch format {
      case "hls": "an HLS playlist (ffmpeg's hls)"
      case "concat": "an ffconcat list (ffmpeg's concat)"
      case "dash": "a DASH manifest (ffmpeg's dash)"
      default: "a file ffmpeg reads as \(format)"
      }
    return kind + ", which LayerKit does not open: it reads video, sound and picture files, "
      + "never playlists or lists that name other files"
  }

  /// The exact number of video frames in a file (ffprobe counts them by decoding packets).
  package static func countFrames(_ path: String) throws -> Int {
    let probe = try start(
      try ffprobe(),
      [
        "-v", "error", "-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets",
        "-of", "csv=p=0", "-i", path,
      ], stdin: false, stdout: .pipe)
    let text = String(decoding: probe.readAll(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    guard probe.wait() == 0, let n = Int(text.split(separator: ",").first ?? "") else {
      throw ProcessError.unreadableClip(path: path, reason: "ffprobe could not count its frames")
    }
    return n
  }
}
