import Foundation

/// A value behind a lock: the one lock idiom of the package (as swift-nio's
/// `NIOLockedValueBox`). Every read and write of shared mutable state goes through `withLock`, so
/// no caller can forget the lock, and the lock is an `NSLock` (a pthread mutex) that
/// ThreadSanitizer sees into.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  public init(_ value: Value) { self.value = value }

  /// Runs `body` with the value, under the lock.
  @inlinable
  public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    try lockAndRun(body)
  }

  @usableFromInline
  func lockAndRun<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  /// A copy of the value, read under the lock.
  public var current: Value { withLock { $0 } }
}

/// A value behind a lock that threads can wait on: the package's one idiom for waiting (the
/// second lock type, beside `Locked`). Every change goes through `withLock`, which wakes every
/// waiter afterwards; `wait(until:deadline:_:)` sleeps until the value is ready. An
/// `NSCondition` underneath (a pthread mutex and condition variable), which ThreadSanitizer sees
/// into.
public final class Awaitable<Value>: @unchecked Sendable {
  private let condition = NSCondition()
  private var value: Value

  public init(_ value: Value) { self.value = value }

  /// Runs `body` with the value under the lock, then wakes every waiter.
  @discardableResult
  public func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    return try body(&value)
  }

  /// Waits until `ready` holds for the value (or `deadline` passes), then runs `body` with it
  /// under the lock and wakes every waiter.
  @discardableResult
  public func wait<T>(
    until ready: (Value) -> Bool, deadline: Date? = nil, _ body: (inout Value) throws -> T
  ) rethrows -> T {
    condition.lock()
    defer {
      condition.broadcast()
      condition.unlock()
    }
    while !ready(value) {
      if let deadline {
        guard condition.wait(until: deadline) else { break }
      } else {
        condition.wait()
      }
    }
    return try body(&value)
  }
}
