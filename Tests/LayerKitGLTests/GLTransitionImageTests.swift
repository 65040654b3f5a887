import Foundation
import LayerKit
import LayerKitGL
import XCTest

/// sampler2D parameters of gl-transitions-form shaders: extra textures given as images.
final class GLTransitionImageTests: XCTestCase {
  func solid(_ c: Color) -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
    l.backgroundColor = c
    return l
  }

  func testAnImageParameterIsSampledByTheShader() throws {
    let gpu: GLRenderer
    do {
      gpu = try GLRenderer()
    } catch {
      return XCTFail("GPU backend unavailable: \(error)")
    }
    let base = try XCTUnwrap(Bundle.module.resourceURL)
    let file = base.appendingPathComponent("Fixtures/transitions/pattern.glsl")
    let source = try gpu.registerTransition(name: "pattern", file: file)
    XCTAssertEqual(source.uniforms.map(\.name), ["pattern", "amount"])
    let green = try Image(width: 4, height: 4, color: .green)
    func frame(_ p: Double, _ params: [String: TransitionValue]) throws -> Image {
      try gpu.render(
        RenderList(
          transitionFrom: solid(.red), to: solid(.blue), width: 8, height: 8, effect: "pattern", parameters: params,
          progress: p, builtIn: false))
    }
    XCTAssertEqual(try frame(0.5, ["pattern": .image(green)]).pixel(x: 4, y: 4), [0, 255, 0, 255])
    // 0.4 × 255 = 102 exactly: no tie for the driver's float → unorm8 rounding to decide
    // (NVIDIA's driver writes 0.5 × 255 as 127, Mesa's llvmpipe as 128; GL leaves the tie open).
    XCTAssertEqual(
      try frame(0.5, ["pattern": .image(green), "amount": .float(0.4)]).pixel(x: 4, y: 4), [0, 102, 0, 102])
    XCTAssertEqual(try frame(0, ["pattern": .image(green)]).pixel(x: 4, y: 4), [255, 0, 0, 255])
    XCTAssertEqual(try frame(1, ["pattern": .image(green)]).pixel(x: 4, y: 4), [0, 0, 255, 255])
    // An image for a float parameter is a type error naming the parameter.
    XCTAssertThrowsError(try frame(0.5, ["amount": .image(green)])) { error in
      XCTAssertTrue("\(error)".contains("amount"), "\(error)")
    }
  }
}
