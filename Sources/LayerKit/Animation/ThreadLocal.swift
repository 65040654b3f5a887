import Foundation

/// A value per thread, kept in the thread's dictionary under `key`: the media clock, UIKit's
/// drawing-context stack, the layer drawn for a presented frame (Core Animation's own state is
/// per thread too). nil where the thread has not set it.
struct ThreadLocal<Value>: Sendable {
  let key: String

  var value: Value? {
    get { Thread.current.threadDictionary[key] as? Value }
    nonmutating set { Thread.current.threadDictionary[key] = newValue }
  }

  /// Runs `body` with the value set to `value`, then puts back what was there.
  func with<R>(_ value: Value, _ body: () -> R) -> R {
    let saved = self.value
    self.value = value
    defer { self.value = saved }
    return body()
  }
}
