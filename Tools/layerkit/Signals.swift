import Dispatch
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT, SIGTERM and SIGHUP (a closed terminal), for the whole life of the process: turned into
/// a call on a dispatch queue (not in a signal handler). While a render runs, its `SignalWatcher`
/// cancels it — the pipeline stops its children and removes its partial output, and the command
/// exits with 128 + the signal; a render that has not ended `grace` seconds later (a frame stuck
/// in a driver call) is stopped at once by `EmergencyStop`, as is the process when a signal comes
/// with no render running (while inputs are probed, say): no child outlives layerkit, no
/// temporary output is left, and the answer never waits on a frame.
enum Signals {
  static let grace: Double = 5
  // Locked (a pthread mutex), which ThreadSanitizer sees into, unlike Synchronization's Mutex.
  private static let state = Locked(
    (handlers: [Int: @Sendable (Int32) -> Void](), next: 0, sources: [DispatchSourceSignal]()))

  /// Starts watching; called once, first thing in `main`.
  static func install() {
    for s in [SIGINT, SIGTERM, SIGHUP] {
      signal(s, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: s, queue: .global())
      source.setEventHandler { received(s) }
      source.resume()
      state.withLock { $0.sources.append(source) }
    }
  }

  static func add(_ handler: @escaping @Sendable (Int32) -> Void) -> Int {
    state.withLock { state in
      state.next += 1
      state.handlers[state.next] = handler
      return state.next
    }
  }

  static func remove(_ id: Int) {
    state.withLock { _ = $0.handlers.removeValue(forKey: id) }
  }

  private static func received(_ signal: Int32) {
    let name = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "SIGHUP"
    let current = state.withLock { Array($0.handlers.values) }
    guard !current.isEmpty else {
      EmergencyStop.stop(status: 128 + signal, message: "layerkit: stopped by \(name)")
    }
    // The deadline first: a handler may itself wait (on a render that is waiting for an encoder
    // that does not end), and the deadline must not wait with it.
    DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
      EmergencyStop.stop(
        status: 128 + signal,
        message: "layerkit: stopped by \(name); the render had not ended \(Int(grace)) s later (a frame being "
          + "drawn, or an encoder that did not finish), so it was stopped at once (nothing written)")
    }
    for handler in current { handler(signal) }
  }
}

/// Cancels a render on SIGINT, SIGTERM or SIGHUP while it is alive (see `Signals`).
final class SignalWatcher: Sendable {
  private let id: Int

  init(_ handler: @escaping @Sendable (Int32) -> Void) { id = Signals.add(handler) }

  /// Stops watching.
  func stop() { Signals.remove(id) }
}
