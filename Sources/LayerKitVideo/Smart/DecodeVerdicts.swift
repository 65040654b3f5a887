import Foundation
import LayerKit
import LayerKitMedia

#if canImport(Glibc)
  import Glibc
#endif

/// Whether a clip's stream decodes cleanly, remembered across renders. A smart render copies
/// only packets that decode cleanly (`SmartDecision`, `SourceSound.make`), and
/// finding out decodes the whole stream: for 1080p footage about a sixth of a second of a core a
/// second of video, the largest cost of a smart render that copies most of its clips. The answer
/// depends on the file alone, so it is kept under the file's identity — its path, device, inode,
/// size, and modification and status-change times to the nanosecond (a file written again,
/// touched or replaced is another file) — and a render of the same footage asks once.
///
/// Kept in `$LAYERKIT_CACHE_DIR/decode-checks`, else `$XDG_CACHE_HOME/layerkit/…`, else
/// `~/.cache/layerkit/…`; `LAYERKIT_CACHE_DIR=off` keeps nothing. A verdict that cannot be read or
/// written is simply worked out again.
enum DecodeVerdicts {
  /// The stream of a file that is checked.
  enum Stream: String {
    case video, sound

    var map: String { self == .video ? "0:v:0" : "0:a:0" }
  }

  /// What is wrong with `stream` of the file at `path` when ffmpeg cannot decode every packet of
  /// it cleanly (`-xerror`: the first damaged one stops it), or nil when all decode; remembered.
  /// - Throws: `ProcessError.programNotFound` when ffmpeg is missing.
  static func fault(_ path: String, stream: Stream) throws(ProcessError) -> String? {
    try faults(path, streams: [stream])[stream] ?? nil
  }

  /// The verdicts on `streams` of the file at `path`: those remembered, and the rest worked out
  /// by one decode of them together (the file read once), where that finds a fault by one decode
  /// each, to say whose it is. The deblocking filter is skipped: it runs after a picture is
  /// parsed and reconstructed, where damage shows, and has nothing to find (a fifth less work).
  /// - Throws: `ProcessError.programNotFound` when ffmpeg is missing.
  static func faults(_ path: String, streams: [Stream]) throws(ProcessError) -> [Stream: String?] {
    let identity = identity(path)
    var found: [Stream: String?] = [:]
    for stream in streams {
      if let identity, let known = remembered(stream.rawValue + "|" + identity) { found[stream] = known }
    }
    let asked = streams.filter { found[$0] == nil }
    guard !asked.isEmpty else { return found }
    func decode(_ streams: [Stream]) throws(ProcessError) -> String? {
      let maps = streams.flatMap { ["-map", $0.map] }
      let process = try FFmpeg.start(
        try FFmpeg.ffmpeg(),
        ["-nostdin", "-hide_banner", "-v", "error", "-xerror", "-skip_loop_filter", "all", "-i", path] + maps
          + ["-f", "null", "-"],
        stdin: false, stdout: .discard)
      let status = process.wait()
      let said = process.errorTail(lines: 4)
      guard status != 0 || !said.isEmpty else { return nil }
      return FFmpeg.explain(said.isEmpty ? "exit status \(status)" : said, path: path)
    }
    let together = try decode(asked)
    for stream in asked {
      let verdict = together == nil ? nil : asked.count == 1 ? together : try decode([stream])
      found[stream] = verdict
      if let identity { remember(stream.rawValue + "|" + identity, verdict) }
    }
    return found
  }

  /// The folder the verdicts are kept in, nil when none is to be kept.
  static func folder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
    let base: String
    if let dir = environment["LAYERKIT_CACHE_DIR"], !dir.isEmpty {
      if dir == "off" { return nil }
      base = dir
    } else if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
      base = xdg + "/layerkit"
    } else if let home = environment["HOME"], home.hasPrefix("/") {
      base = home + "/.cache/layerkit"
    } else {
      return nil
    }
    return base + "/decode-checks"
  }

  /// The identity of the file at `path`: nil when it cannot be read.
  static func identity(_ path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
    return
      "\(absolute)|\(info.st_dev)|\(info.st_ino)|\(info.st_size)|\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
      + "|\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
  }

  /// Verdicts this process has read or worked out, by key (a server asks about the same files
  /// again and again; also where none are kept on disk).
  private static let seen = Locked<[String: String?]>([:])

  /// The verdict kept under `key` (a stream and a file's identity): `.some(nil)` for clean,
  /// `.some(fault)`, or nil when none is known.
  static func remembered(_ key: String) -> String?? {
    if let known = seen.withLock({ $0[key] }) { return known }
    guard let folder = folder(), let text = try? String(contentsOfFile: folder + "/" + name(key), encoding: .utf8)
    else { return nil }
    let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
    guard lines.count == 2, lines[0] == key else { return nil }
    let verdict: String? = lines[1] == "clean" ? nil : String(lines[1].dropFirst("fault: ".count))
    seen.withLock { $0[key] = verdict }
    return .some(verdict)
  }

  /// Keeps `verdict` under `key`, in this process and on disk.
  static func remember(_ key: String, _ verdict: String?) {
    seen.withLock {
      if $0.count >= 4096 { $0.removeAll() }
      $0[key] = verdict
    }
    guard let folder = folder() else { return }
    let file = folder + "/" + name(key)
    // Written beside, then renamed: a verdict is whole or absent.
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let temporary = file + ".\(getpid()).tmp"
    if (try? (key + "\n" + (verdict.map { "fault: " + $0 } ?? "clean")).write(
      toFile: temporary, atomically: false, encoding: .utf8)) != nil
    {
      if rename(temporary, file) != 0 { unlink(temporary) }
    }
  }

  /// A file name for `key`: its 64-bit FNV-1a hash in hexadecimal (the key itself is the
  /// file's first line, so a collision is only a miss).
  static func name(_ key: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in key.utf8 {
      hash ^= UInt64(byte)
      hash = hash &* 0x100_0000_01b3
    }
    return String(hash, radix: 16)
  }
}
