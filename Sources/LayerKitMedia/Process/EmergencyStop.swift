import Foundation
import LayerKit

#if canImport(Glibc)
  import Glibc
#endif

/// What must not outlive LayerKit when it has to stop at once — a signal with no render to cancel,
/// a render that did not stop when asked, a frame over its time limit: the child processes it
/// started (ffmpeg, ffprobe, each in its own process group) and its temporary outputs (beside the
/// target, never under its name, and the folders of pieces a smart render works in).
/// `ChildProcess` and `TemporaryFile` register themselves while
/// they live; `stop(status:message:)` kills the one, removes the other and exits.
public enum EmergencyStop {
  private struct Registry {
    var children: Set<pid_t> = []
    var temporaries: Set<String> = []
    var stopping = false
  }

  // Locked: an NSLock (a pthread mutex), which ThreadSanitizer sees, unlike Synchronization's Mutex.
  private static let registry = Locked(Registry())

  private static func withRegistry<T>(_ body: (inout Registry) -> T) -> T { registry.withLock(body) }

  package static func add(child pid: pid_t) { withRegistry { _ = $0.children.insert(pid) } }
  package static func remove(child pid: pid_t) { withRegistry { _ = $0.children.remove(pid) } }
  package static func add(temporary path: String) { withRegistry { _ = $0.temporaries.insert(path) } }
  package static func remove(temporary path: String) { withRegistry { _ = $0.temporaries.remove(path) } }

  /// The children alive now (for tests).
  public static var liveChildren: Set<pid_t> { withRegistry { $0.children } }

  /// Kills every registered child's process group and removes every registered temporary file,
  /// prints `message` (one line) unless it is empty, and exits with `status` without running
  /// anything else (the render may be stuck inside a driver call on another thread). The first
  /// call wins; a second waits forever for the first to exit.
  public static func stop(status: Int32, message: String) -> Never {
    let state = withRegistry { state -> Registry? in
      if state.stopping { return nil }
      state.stopping = true
      return state
    }
    guard let state else {
      while true { pause() }
    }
    for pid in state.children {
      kill(-pid, SIGKILL)
      kill(pid, SIGKILL)
    }
    for path in state.temporaries { unlink(path) }
    // Then the temporary folders (a smart render's pieces), empty now.
    for path in state.temporaries { rmdir(path) }
    if !message.isEmpty {
      let line = Array((message + "\n").utf8)
      _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }
    _exit(status)
  }
}
