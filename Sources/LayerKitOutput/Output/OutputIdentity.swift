import Foundation
import LayerKit
import LayerKitMedia

/// Outputs that would destroy an input: the same file (through symlinks and hard links: the
/// same device and inode, or the same resolved path), or a frame folder holding an input.
public enum OutputIdentity {
  /// Throws `.outputIsInput` when writing `output` would replace or sit over one of `inputs`.
  public static func refuse(output: String, inputs: [String]) throws(VideoError) {
    let out = resolved(output)
    let outID = identity(output)
    for input in inputs {
      let inPath = resolved(input)
      if inPath == out || (outID != nil && identity(input) == outID) {
        throw .outputIsInput(output: output, input: input)
      }
      // A frame folder: an input inside it would sit among the frames written there.
      if output.hasSuffix("/") || isDirectory(output), inPath.hasPrefix(out.hasSuffix("/") ? out : out + "/") {
        throw .outputIsInput(output: output, input: input)
      }
    }
  }

  /// Whether writing `output` and `other` would write one file twice: the same path (through
  /// symlinks and hard links), or — when `output` is a frame folder — `other` inside it. Outputs
  /// are checked in pairs before anything is rendered.
  public static func collide(_ output: String, _ other: String, outputIsFolder: Bool = false) -> Bool {
    let (pa, pb) = (resolved(output), resolved(other))
    if pa == pb { return true }
    if let ia = identity(output), ia == identity(other) { return true }
    if outputIsFolder { return pb.hasPrefix(pa.hasSuffix("/") ? pa : pa + "/") }
    return false
  }

  static func resolved(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }

  static func identity(_ path: String) -> [UInt64]? {
    var s = stat()
    guard stat(path, &s) == 0 else { return nil }
    return [UInt64(s.st_dev), UInt64(s.st_ino)]
  }

  static func isDirectory(_ path: String) -> Bool {
    var s = stat()
    return stat(path, &s) == 0 && (s.st_mode & S_IFMT) == S_IFDIR
  }

  /// Checks, before any work, that a secondary output (a contact sheet, a stats file) can be
  /// written: its folder exists and is writable, and the path is not a folder.
  public static func checkWritable(_ path: String) throws(VideoError) {
    let folder = (path as NSString).deletingLastPathComponent
    let dir = folder.isEmpty ? "." : folder
    guard isDirectory(dir) else { throw .unwritableOutput(path: path, reason: "the folder \(dir) does not exist") }
    guard access(dir, W_OK) == 0 else {
      throw .unwritableOutput(path: path, reason: "the folder \(dir) is not writable")
    }
    if isDirectory(path) { throw .unwritableOutput(path: path, reason: "it is a folder") }
    // access() says yes to root everywhere, and /proc or a read-only mount refuse only an actual
    // file: make one (and remove it), so the failure comes now rather than after the render.
    let (fd, probe) = FileIO.createTemporary(folder: dir + "/", base: (path as NSString).lastPathComponent)
    guard fd >= 0 else {
      throw .unwritableOutput(path: path, reason: "no file can be made in \(dir): \(FileIO.errorString(errno))")
    }
    close(fd)
    unlink(probe)
  }
}
