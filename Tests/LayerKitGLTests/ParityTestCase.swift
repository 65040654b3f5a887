import LayerKitTesting
import XCTest

/// The parity suites' common set-up: one `ParityChecker` (a GLRenderer, whose start-up links every
/// program, and a ReferenceRenderer) shared by all of them. GPU tests are never skipped: without
/// an EGL display each test fails with the backend's one-line error.
class ParityTestCase: XCTestCase {
  nonisolated(unsafe) static var shared: Result<ParityChecker, Error>?

  var checker: ParityChecker!

  override func setUpWithError() throws {
    if ParityTestCase.shared == nil { ParityTestCase.shared = Result { try ParityChecker() } }
    switch ParityTestCase.shared! {
    case .success(let c): checker = c
    case .failure(let error):
      XCTFail("GPU backend unavailable: \(error)")
      throw error
    }
  }
}
