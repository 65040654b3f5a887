// Frame-sized byte arrays (a 1080p RGBA frame is 8 MiB; the video tool has glibc hand blocks this
// large straight to mmap, so each one is fresh memory). Touching fresh memory 4 KiB page by page
// costs a page fault each, two thousand for a 1080p frame, a measurable share of a fast frame;
// asked for transparent huge pages first, the kernel maps it 2 MiB at a time where it can.

#if canImport(Glibc)
  import Glibc
#endif

/// Byte arrays for frames and surfaces.
public enum FrameMemory {
  /// Below this a buffer is left as it is (a huge page is 2 MiB).
  public static let hugePageThreshold = 4 << 20

  /// A new array of `count` bytes whose every byte `initialize` writes, its memory advised to use
  /// transparent huge pages first when it is large (a hint: nothing changes where the kernel has
  /// them off, or off Linux).
  @inlinable
  public static func bytes(count: Int, _ initialize: (UnsafeMutableBufferPointer<UInt8>) -> Void) -> [UInt8] {
    [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      if count >= hugePageThreshold, let base = buffer.baseAddress { adviseHugePages(base, count: count) }
      initialize(buffer)
      initialized = count
    }
  }

  /// A new array of `count` zero bytes (as `FrameMemory.bytes`).
  public static func zeros(count: Int) -> [UInt8] {
    bytes(count: count) { $0.initialize(repeating: 0) }
  }

  /// madvise(MADV_HUGEPAGE) over the whole pages inside `base ..< base + count`.
  @usableFromInline
  static func adviseHugePages(_ base: UnsafeMutablePointer<UInt8>, count: Int) {
    #if os(Linux)
      let page = 4096
      let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
      let end = (Int(bitPattern: base) + count) & ~(page - 1)
      guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
      _ = madvise(pointer, end - start, MADV_HUGEPAGE)
    #endif
  }
}
