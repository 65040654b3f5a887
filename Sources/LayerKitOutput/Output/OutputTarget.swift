import Foundation
import LayerKit
import LayerKitMedia

#if canImport(Glibc)
  import Glibc
#endif

/// What a video is written as, chosen by the output's extension (or `--format`).
public enum VideoFormat: String, Sendable, CaseIterable {
  /// A folder of numbered PNG frames.
  case png
  /// YUV4MPEG2, written by LayerKit itself.
  case y4m
  /// H.264 in MP4 (ffmpeg).
  case mp4
  /// VP9 in WebM (ffmpeg).
  case webm
  /// An animated GIF with a palette made for the clip (ffmpeg).
  case gif
  /// ProRes 4444 with alpha in QuickTime (ffmpeg).
  case mov
  /// Lossless FFV1 in Matroska: the frames exactly as rendered (RGBA, premultiplied), for parts
  /// of a sharded render (ffmpeg).
  case mkv
  /// An animated WebP with alpha, looping (ffmpeg's libwebp_anim).
  case webp
  /// An animated PNG with alpha, looping (ffmpeg's apng).
  case apng

  /// The format an extension names.
  public init?(extension ext: String) {
    switch ext.lowercased() {
    case "y4m": self = .y4m
    case "mp4", "m4v": self = .mp4
    case "webm": self = .webm
    case "gif": self = .gif
    case "mov": self = .mov
    case "mkv": self = .mkv
    case "webp": self = .webp
    case "apng": self = .apng
    default: return nil
    }
  }

  /// Whether the format stores alpha (the others get frames composited over the background;
  /// WebM keeps it in its yuva420p pixel format: `OutputPlan.keepsAlpha`).
  public var hasAlpha: Bool { [.png, .mov, .mkv, .webp, .apng].contains(self) }

  /// Whether the format holds sound.
  public var carriesSound: Bool { [.mp4, .webm, .mov, .mkv].contains(self) }

  /// Whether ffmpeg writes it.
  public var needsFFmpeg: Bool { self != .png && self != .y4m }

  /// ffmpeg's muxer name.
  var muxer: String {
    switch self {
    case .mp4: "mp4"
    case .webm: "webm"
    case .gif: "gif"
    case .mov: "mov"
    case .mkv: "matroska"
    case .webp: "webp"
    case .apng: "apng"
    case .y4m: "yuv4mpegpipe"
    case .png: "image2"
    }
  }
}

/// Where output goes, decided once from the path a user gave, before anything is rendered.
///
/// - `-` is standard output (a stream format only).
/// - An existing character device, FIFO or socket is written through, in place (never replaced
///   by a file — `-o /dev/null` stays a device even for root).
/// - A symlink is followed: the file it points to is replaced, the link stays.
/// - A trailing slash, or an existing folder whose name has no video extension, is a folder of
///   PNG frames (an existing folder named `out.mp4` is refused: that name is a file's).
/// - Any other path is a file, written beside the target under a temporary dot-name and renamed
///   over it on success; on failure or a signal the temporary file is removed.
public struct OutputTarget: Sendable, Equatable {
  public enum Kind: Sendable, Equatable {
    case standardOutput
    /// A device, FIFO or socket: opened and written as it is.
    case writeThrough(String)
    /// A regular file (new or replaced), written through a temporary file in the same folder.
    case file(String)
    /// A folder of frames.
    case folder(String)
  }

  public var kind: Kind
  public var format: VideoFormat
  /// The path as the user gave it, for messages.
  public var displayPath: String

  /// Decides where and how `path` is written.
  /// - Parameters:
  ///   - path: the `-o` argument.
  ///   - format: a format forced by the user; otherwise the extension decides (a folder is PNG,
  ///     `-` and extension-less devices are Y4M).
  /// - Throws: `.unknownFormat`, `.unwritableOutput`.
  public init(path: String, format forced: VideoFormat? = nil) throws(VideoError) {
    displayPath = path
    if path == "-" {
      // A closed standard output (`>&-`) would fail at the first frame with EBADF.
      guard !StandardStreams.outputIsClosed else {
        throw .unwritableOutput(path: "standard output", reason: "it is closed; give -o FILE, or run with it open")
      }
      kind = .standardOutput
      format = forced ?? .y4m
      if format == .png {
        throw .unwritableOutput(path: path, reason: "PNG frames go to a folder, not to standard output")
      }
      return
    }
    guard !path.isEmpty else { throw .unwritableOutput(path: path, reason: "the path is empty") }
    var info = stat()
    let exists = stat(path, &info) == 0  // follows symlinks: the target's kind is what counts
    let type = info.st_mode & S_IFMT
    if exists && (type == S_IFCHR || type == S_IFIFO || type == S_IFSOCK || type == S_IFBLK) {
      kind = .writeThrough(path)
      format = forced ?? VideoFormat(extension: (path as NSString).pathExtension) ?? .y4m
      if format == .png { throw .unwritableOutput(path: path, reason: "PNG frames go to a folder, not to a device") }
      return
    }
    let ext = (path as NSString).pathExtension
    // A name with a video extension is a file, even where a folder has that name: frames written
    // into it would be "wrote … to out.mp4" with no video. A trailing slash asks for the folder.
    if exists && type == S_IFDIR && !path.hasSuffix("/") && forced != .png, let named = VideoFormat(extension: ext) {
      throw .unwritableOutput(
        path: path,
        reason:
          "it is a folder, but a name ending in .\(ext) names a \(named.rawValue) file; remove the folder, or give "
          + "\(path)/ to write PNG frames into it")
    }
    // A trailing slash, an existing folder, or a new name without an extension: a frame folder.
    if path.hasSuffix("/") || (exists && type == S_IFDIR) || forced == .png || (!exists && ext.isEmpty && forced == nil)
    {
      if exists && type != S_IFDIR { throw .unwritableOutput(path: path, reason: "it exists and is not a folder") }
      if let forced, forced != .png {
        throw .unwritableOutput(path: path, reason: "a folder holds PNG frames, not \(forced.rawValue)")
      }
      kind = .folder(path)
      format = .png
      return
    }
    let resolved = OutputTarget.resolvingSymlinks(path)
    guard let chosen = forced ?? VideoFormat(extension: (path as NSString).pathExtension) else {
      throw .unknownFormat(path: path)
    }
    format = chosen
    kind = .file(resolved)
    let folder = (resolved as NSString).deletingLastPathComponent
    let dir = folder.isEmpty ? "." : folder
    var folderInfo = stat()
    guard stat(dir, &folderInfo) == 0, folderInfo.st_mode & S_IFMT == S_IFDIR else {
      throw .unwritableOutput(path: path, reason: "the folder \(dir) does not exist")
    }
    guard access(dir, W_OK) == 0 else {
      throw .unwritableOutput(path: path, reason: "the folder \(dir) is not writable")
    }
  }

  /// The path a chain of symlinks ends at (relative links resolved against their folder). A
  /// dangling link resolves to the path it names, which is then created.
  static func resolvingSymlinks(_ path: String) -> String {
    var current = path
    for _ in 0..<40 {
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let n = readlink(current, &buffer, buffer.count - 1)
      guard n > 0 else { return current }
      let target = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      if target.hasPrefix("/") {
        current = target
      } else {
        let folder = (current as NSString).deletingLastPathComponent
        current = folder.isEmpty ? target : folder + "/" + target
      }
    }
    return current
  }
}

/// A file being written under a temporary dot-name beside its final path: `commit()` renames it
/// over the target, `discard()` removes it. The descriptor is open for writing until then.
package final class TemporaryFile: @unchecked Sendable {
  let finalPath: String
  package let path: String
  private(set) var descriptor: Int32
  private var done = false

  package init(beside finalPath: String) throws(VideoError) {
    self.finalPath = finalPath
    let folder = (finalPath as NSString).deletingLastPathComponent
    let base = (finalPath as NSString).lastPathComponent
    // "./" before a relative folder: the name ffmpeg is handed never begins `word:`, which it
    // would read as a protocol.
    let (fd, temp) = FileIO.createTemporary(folder: Self.relativeSafe(folder), base: base)
    guard fd >= 0 else { throw .unwritableOutput(path: finalPath, reason: String(cString: strerror(errno))) }
    path = temp
    descriptor = fd
    EmergencyStop.add(temporary: temp)
  }

  deinit { if !done { discard() } }

  /// `folder` with a slash after it, and `./` before it unless it is absolute (`./` for none).
  package static func relativeSafe(_ folder: String) -> String {
    folder.hasPrefix("/") ? folder + "/" : "./" + (folder.isEmpty ? "" : folder + "/")
  }

  package func closeDescriptor() throws(VideoError) {
    if descriptor >= 0 {
      let rc = close(descriptor)
      descriptor = -1
      if rc != 0 { throw .unwritableOutput(path: finalPath, reason: String(cString: strerror(errno))) }
    }
  }

  /// Renames the finished file over the target.
  package func commit() throws(VideoError) {
    try closeDescriptor()
    guard rename(path, finalPath) == 0 else {
      let reason = String(cString: strerror(errno))
      discard()
      throw .unwritableOutput(path: finalPath, reason: reason)
    }
    done = true
    EmergencyStop.remove(temporary: path)
  }

  /// Removes the temporary file; the target is untouched.
  package func discard() {
    if descriptor >= 0 {
      close(descriptor)
      descriptor = -1
    }
    if !done { unlink(path) }
    done = true
    EmergencyStop.remove(temporary: path)
  }
}

/// Writes all of `bytes` to `fd`.
func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws(VideoError) {
  let failure = FileIO.writeFully(fd, bytes)
  if failure != 0 { throw .unwritableOutput(path: path, reason: String(cString: strerror(failure))) }
}
