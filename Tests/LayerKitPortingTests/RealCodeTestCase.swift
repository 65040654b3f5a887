import LayerKit
import LayerKitTesting
import XCTest

/// The second porting corpus: Core Animation code written the way public projects write it —
/// UIKit's colours, fonts and images, CGColor and CGMutablePath as Core Graphics has them,
/// layer subclasses with coder initializers and custom animatable properties, CATransaction
/// extensions — with only the `CA` prefix dropped and `import LayerKit` for `import UIKit`. Each
/// snippet is the project's own, written in those forms (not copied from anyone); each
/// type-checks as written and renders on both backends within the parity contract.
class RealCodeTestCase: ParityTestCase {
  /// Renders `layer` at `time` on both backends, held to the parity contract; the CPU image.
  @discardableResult
  func rendered(
    _ layer: Layer, at time: Double = 0, width: Int = 100, height: Int = 100, name: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws -> Image {
    let report = try XCTUnwrap(
      XCTAssertParity(
        checker, layer.presentation(at: time), width: width, height: height, name: "real-code-\(name)", file: file,
        line: line), file: file, line: line)
    return report.expected
  }

  /// The pixel at (x, y), straight RGBA.
  func rgba(_ image: Image, _ x: Int, _ y: Int) -> [Int] {
    let p = image.pixel(x: x, y: y)
    return [Int(p.x), Int(p.y), Int(p.z), Int(p.w)]
  }
}
