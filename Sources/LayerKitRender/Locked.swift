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
