import Foundation
import LayerKit

/// A first-in, first-out queue of at most `capacity` items joining two pipeline stages: a full
/// queue blocks the producer (back-pressure, not buffering), an empty one the consumer. `close()`
/// ends it normally (the consumer drains what is left, then sees nil); `cancel()` ends it at once
/// for both sides.
package final class BoundedQueue<Element>: @unchecked Sendable {
  /// A ring of `capacity` slots; a popped slot is emptied at once, so the queue never keeps a
  /// frame alive after handing it on.
  private struct State {
    var ring: [Element?]
    var head = 0
    var count = 0
    var closed = false
    var cancelled = false
  }
  private let state: Awaitable<State>
  private let capacity: Int

  package init(capacity: Int) {
    precondition(capacity > 0)
    self.capacity = capacity
    state = Awaitable(State(ring: Array(repeating: nil, count: capacity)))
  }

  /// Adds `item`, waiting while the queue is full. False when the queue was closed or cancelled
  /// (the item is dropped).
  @discardableResult
  package func push(_ item: Element) -> Bool {
    let capacity = capacity
    return state.wait(until: { $0.count < capacity || $0.closed || $0.cancelled }) { s in
      if s.closed || s.cancelled { return false }
      s.ring[(s.head + s.count) % capacity] = item
      s.count += 1
      return true
    }
  }

  /// The next item, waiting while the queue is empty; nil once it is closed and drained, or
  /// cancelled.
  package func pop() -> Element? {
    let capacity = capacity
    return state.wait(until: { $0.count > 0 || $0.closed || $0.cancelled }) { s in
      if s.cancelled || s.count == 0 { return nil }
      let item = s.ring[s.head]
      s.ring[s.head] = nil
      s.head = (s.head + 1) % capacity
      s.count -= 1
      return item
    }
  }

  /// No more items will come; the consumer gets what is queued, then nil.
  package func close() { state.withLock { $0.closed = true } }

  /// Stops both sides now; queued items are dropped.
  package func cancel() {
    let capacity = capacity
    state.withLock { s in
      s.cancelled = true
      s.ring = Array(repeating: nil, count: capacity)
      s.head = 0
      s.count = 0
    }
  }
}
