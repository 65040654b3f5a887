import Foundation
import LayerKit
import XCTest

/// A test case whose tests check layer trees on both backends: one `ParityChecker` (a
/// GLRenderer, whose start-up links every program, and a ReferenceRenderer) made once and shared
/// by every test of every subclass, as `checker`. GPU tests are never skipped: without an EGL
/// display each test fails with the backend's one-line error.
///
///     final class MySceneTests: ParityTestCase {
///       func testTitleCard() { XCTAssertParity(checker, titleCard(), width: 320, height: 180, name: "title") }
///     }
open class ParityTestCase: XCTestCase {
  private static let shared = Locked<Result<ParityChecker, any Error>?>(nil)

  /// The shared checker, ready when a test runs.
  public var checker: ParityChecker!

  open override func setUpWithError() throws {
    try super.setUpWithError()
    let made = ParityTestCase.shared.withLock { shared in
      if let shared { return shared }
      let made = Result { try ParityChecker() }
      shared = made
      return made
    }
    switch made {
    case .success(let c): checker = c
    case .failure(let error):
      XCTFail("GPU backend unavailable: \(error)")
      throw error
    }
  }
}
