import LayerKit

#if canImport(Glibc)
  import Glibc
#endif

/// Standard input, output and error as the process found them. A program started with one of
/// them closed (`>&-`) would hand that descriptor number to the next file it opens — a scene
/// file, a driver's device — and frames meant for standard output would go there. `reserve()`,
/// called once at the start of `main`, before anything is opened, notes which were closed and
/// holds their numbers on /dev/null; writing to a closed standard output is then refused by name
/// (`OutputTarget`).
public enum StandardStreams {
  /// The descriptors found closed, once `reserve()` has run.
  private static let closed = Locked<Set<Int32>?>(nil)

  /// Notes which of descriptors 0, 1 and 2 are closed and opens /dev/null on each (read-only for
  /// input, write-only for the others). Call once, first thing in `main`.
  public static func reserve() {
    closed.withLock { closed in
      guard closed == nil else { return }
      var found: Set<Int32> = []
      for fd: Int32 in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 {
        found.insert(fd)
        // The lowest free number is `fd` itself: every lower one is open.
        _ = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
      }
      closed = found
    }
  }

  /// Whether standard output was closed when the process started (or is closed now, where
  /// `reserve()` was not called).
  public static var outputIsClosed: Bool {
    closed.current.map { $0.contains(STDOUT_FILENO) } ?? (fcntl(STDOUT_FILENO, F_GETFD) == -1)
  }
}
