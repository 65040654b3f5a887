// LayerKitTesting: helpers LayerKit's own test targets share (package access: not part of the
// library's API). One copy each, so a test that depends on generated values sees the same values
// whichever target it is in.
import LayerKit
import LayerKitGL
import XCTest

/// A `GLRenderer`, or nil after recording the start-up error as a failure at the caller's line.
/// GPU tests never skip: without a GPU, Mesa's llvmpipe still gives a display, and a renderer that
/// cannot start is a failure with GLError's one-line reason.
package func makeRenderer(file: StaticString = #filePath, line: UInt = #line) -> GLRenderer? {
  do {
    return try GLRenderer()
  } catch {
    XCTFail("GLRenderer() failed: \(error)", file: file, line: line)
    return nil
  }
}
