#if canImport(Glibc)
  import Glibc
#endif

extension FileIO {
  /// The first `count` bytes of a file (fewer if it is shorter); nil when it cannot be opened.
  /// Opened non-blocking, so a FIFO does not wait for a writer.
  static func head(_ path: String, count: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
    return n < 0 ? [] : Array(bytes[0..<n])
  }
}
