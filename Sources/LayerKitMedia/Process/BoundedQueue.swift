import Foundation

/// A first-in, first-out queue of at most `capacity` items joining two pipeline stages: a full
/// queue blocks the producer (back-pressure, not buffering), an empty one the consumer. `close()`
/// ends it normally (the consumer drains what is left, then sees nil); `cancel()` ends it at once
/// for both sides.
package final class BoundedQueue<Element>: @unchecked Sendable {
  private let condition = NSCondition()
  /// A ring of `capacity` slots; a popped slot is emptied at once, so the queue never keeps a
  /// frame alive after handing it on.
  private var ring: [Element?]
  private var head = 0
  private var count = 0
  private let capacity: Int
  private var closed = false
  private var cancelled = false

  package init(capacity: Int) {
    precondition(capacity > 0)
    self.capacity = capacity
    ring = Array(repeating: nil, count: capacity)
  }

  /// Adds `item`, waiting while the queue is full. False when the queue was closed or cancelled
  /// (the item is dropped).
  @discardableResult
  package func push(_ item: Element) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while count >= capacity && !closed && !cancelled { condition.wait() }
    if closed || cancelled { return false }
    ring[(head + count) % capacity] = item
    count += 1
    condition.broadcast()
    return true
  }

  /// The next item, waiting while the queue is empty; nil once it is closed and drained, or
  /// cancelled.
  package func pop() -> Element? {
    condition.lock()
    defer { condition.unlock() }
    while count == 0 && !closed && !cancelled { condition.wait() }
    if cancelled || count == 0 { return nil }
    let item = ring[head]
    ring[head] = nil
    head = (head + 1) % capacity
    count -= 1
    condition.broadcast()
    return item
  }

  /// No more items will come; the consumer gets what is queued, then nil.
  package func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  /// Stops both sides now; queued items are dropped.
  package func cancel() {
    condition.lock()
    cancelled = true
    ring = Array(repeating: nil, count: capacity)
    head = 0
    count = 0
    condition.broadcast()
    condition.unlock()
  }
}
