import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// POSIX file reading and atomic writing, with errors mapped to `MediaError` from `errno` (which
/// Foundation's file APIs blur together on Linux).
package enum FileIO {
  /// The whole contents of a regular file.
  package static func readRegularFile(_ path: String, maxSize: Int) throws(MediaError) -> Data {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. It has no effect
    // on regular files, the only kind read below.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    if fd < 0 {
      let e = errno
      if e == ENOENT || e == ENOTDIR { throw .fileNotFound(path: path) }
      throw .unreadable(path: path, reason: errorString(e))
    }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, reason: errorString(errno)) }
    switch info.st_mode & S_IFMT {
    case S_IFREG: break
    case S_IFDIR: throw .unreadable(path: path, reason: "it is a directory")
    default: throw .unreadable(path: path, reason: "not a regular file")
    }
    let size = Int(info.st_size)
    guard size <= maxSize else {
      throw .unreadable(path: path, reason: "the file is \(size) bytes, more than the \(maxSize) accepted")
    }
    var data = Data(count: size)
    var done = 0
    var failure: Int32 = 0
    data.withUnsafeMutableBytes { buffer in
      while done < size {
        let n = read(fd, buffer.baseAddress! + done, size - done)
        if n > 0 {
          done += n
        } else if n == 0 {
          break  // the file shrank while we read it; what we have is what there is
        } else if errno != EINTR {
          failure = errno
          break
        }
      }
    }
    if failure != 0 { throw .unreadable(path: path, reason: errorString(failure)) }
    if done < size { data.removeSubrange(done..<size) }
    return data
  }

  /// Writes `data` to a new temporary file next to `path`, then renames it over `path`.
  /// On failure the temporary file is removed and `path` is untouched.
  package static func writeAtomically(_ data: some ContiguousBytes, to path: String) throws(MediaError) {
    let slash = path.lastIndex(of: "/")
    let folder = slash.map { String(path[...$0]) } ?? ""
    let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
    guard !base.isEmpty, base != ".", base != ".." else {
      throw .writeFailed(path: path, reason: "the path names a folder, not a file")
    }
    let (fd, temp) = createTemporary(folder: folder, base: base)
    guard fd >= 0 else { throw .writeFailed(path: path, reason: errorString(errno)) }
    EmergencyStop.add(temporary: temp)
    defer { EmergencyStop.remove(temporary: temp) }

    var failure = data.withUnsafeBytes { writeFully(fd, $0) }
    // close() can report a deferred write error (NFS, quota): it counts as a failure too.
    if close(fd) != 0 && failure == 0 { failure = errno }
    if failure == 0 && rename(temp, path) != 0 { failure = errno }
    if failure != 0 {
      unlink(temp)
      throw .writeFailed(path: path, reason: errorString(failure))
    }
  }

  /// A new, empty temporary file for `base` in `folder` (which is "" or ends in "/"): created
  /// with O_EXCL and mode 0666 (less the umask, like any new file), so we never open a file
  /// someone else made; a dot-name, so folder listings and frame globs skip it. The descriptor is
  /// -1 (and `errno` says why) when it could not be made.
  package static func createTemporary(folder: String, base: String) -> (descriptor: Int32, path: String) {
    var fd: Int32 = -1
    var temp = ""
    for _ in 0..<16 {
      temp = folder + "." + base + ".tmp-" + String(UInt64.random(in: .min ... .max), radix: 36)
      fd = open(temp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
      if fd >= 0 || errno != EEXIST { break }
    }
    return (fd, temp)
  }

  /// Writes all of `bytes` to `fd`, retrying after signals; 0, or the `errno` of the failure
  /// (EIO for a write that wrote nothing).
  package static func writeFully(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int32 {
    var done = 0
    while done < bytes.count {
      let n = write(fd, bytes.baseAddress! + done, bytes.count - done)
      if n > 0 {
        done += n
      } else if n < 0 && errno == EINTR {
        continue
      } else {
        return n < 0 ? errno : EIO
      }
    }
    return 0
  }

  package static func errorString(_ code: Int32) -> String {
    String(cString: strerror(code))
  }
}

/// A Foundation file error (CocoaError, or an NSError of the POSIX domain) as one line a person
/// reads — "PATH: permission denied" — instead of its domain, code and user info.
public func plainFileError(_ error: Error) -> String? {
  let ns = error as NSError
  let path = (ns.userInfo[NSFilePathErrorKey] as? String) ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
  var reason: String?
  if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
    reason = String(cString: strerror(Int32(underlying.code))).lowercased()
  } else if ns.domain == NSPOSIXErrorDomain {
    reason = String(cString: strerror(Int32(ns.code))).lowercased()
  } else if ns.domain == NSCocoaErrorDomain {
    switch CocoaError.Code(rawValue: ns.code) {
    case .fileNoSuchFile, .fileReadNoSuchFile: reason = "no such file"
    case .fileReadNoPermission, .fileWriteNoPermission: reason = "permission denied"
    case .fileWriteOutOfSpace: reason = "no space left on device"
    case .fileWriteVolumeReadOnly: reason = "read-only file system"
    case .fileWriteFileExists: reason = "a file is in the way"
    case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: reason = "not UTF-8 text"
    case .fileReadTooLarge: reason = "too large"
    default: reason = ns.code < 512 ? "cannot be read" : "cannot be written"
    }
  }
  guard let reason else { return nil }
  return path.map { "\($0): \(reason)" } ?? reason
}
