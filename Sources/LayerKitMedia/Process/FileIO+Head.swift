#if canImport(Glibc)
  import Glibc
#endif

extension FileIO {
  /// The first `count` bytes of a file (fewer if it is shorter); nil when it cannot be opened.
  /// Opened non-blocking, so a FIFO does not wait for a writer.
  package static func head(_ path: String, count: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
    return n < 0 ? [] : Array(bytes[0..<n])
  }
}

extension FileIO {
  /// What a path is when it is not a regular file ("a FIFO", "a directory", …); nil for a
  /// regular file or one that does not exist (that error is the caller's). Reading a FIFO or a
  /// device as media would wait forever or never end.
  package static func irregularKind(_ path: String) -> String? {
    var s = stat()
    guard stat(path, &s) == 0 else { return nil }
    switch s.st_mode & S_IFMT {
    case S_IFREG: return nil
    case S_IFIFO: return "a FIFO"
    case S_IFDIR: return "a directory"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    default: return "not a regular file"
    }
  }
}

extension FileIO {
  /// Whether the file's first 4 KiB read as text: UTF-8 without NUL or control characters other
  /// than tab, CR, LF and form feed (a text file given where a picture, a clip or a sound goes).
  package static func looksLikeText(_ path: String) -> Bool {
    guard var head = head(path, count: 4096), !head.isEmpty else { return false }
    // A multi-byte character cut by the 4 KiB window is not a reason to call it binary.
    while head.count > 1, let last = head.last, last & 0xC0 == 0x80 || last >= 0xC0 { head.removeLast() }
    guard String(validating: head, as: UTF8.self) != nil else { return false }
    return !head.contains { $0 < 0x20 && ![0x09, 0x0A, 0x0C, 0x0D].contains($0) || $0 == 0x7F }
  }
}
