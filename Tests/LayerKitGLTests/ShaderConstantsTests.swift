import Foundation
import LayerKit
import XCTest

@testable import LayerKitGL

/// Facts written both in GLSL and in Swift, held equal by reading the shader files: a change on
/// one side alone fails here instead of drawing wrong pixels.
final class ShaderConstantsTests: XCTestCase {
  static let shaders = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Shaders")

  func text(_ path: String) throws -> String {
    try String(contentsOf: Self.shaders.appendingPathComponent(path), encoding: .utf8)
  }

  func testBlendConstantsFollowBlendModesOrder() throws {
    // `const int BLEND_COLOR_DODGE = 6;` ↔ BlendMode.colorDodge.shaderIndex.
    let source = try text("layer/layer_quad.frag")
    var found: [String: Int32] = [:]
    for line in source.split(separator: "\n") where line.hasPrefix("const int BLEND_") {
      let parts = line.dropFirst("const int ".count).split(separator: "=")
      guard parts.count == 2, let value = Int32(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " ;")))
      else {
        return XCTFail("unreadable: \(line)")
      }
      found[parts[0].trimmingCharacters(in: .whitespaces)] = value
    }
    XCTAssertEqual(found.count, BlendMode.allCases.count)
    for mode in BlendMode.allCases {
      // colorDodge → BLEND_COLOR_DODGE
      let name =
        "BLEND_"
        + mode.rawValue.replacingOccurrences(of: "([a-z])([A-Z])", with: "$1_$2", options: .regularExpression)
        .uppercased()
      XCTAssertEqual(found[name], mode.shaderIndex, name)
    }
  }

  func testBlurKernelArrayHoldsTheLargestKernel() throws {
    // `uniform vec4 u_kernel[128];` — four weights a vec4.
    let source = try text("effects/blur.frag")
    let declaration = try XCTUnwrap(
      source.split(separator: "\n").first { $0.contains("u_kernel[") && $0.contains("uniform") })
    let count = try XCTUnwrap(Int(declaration.split(separator: "[")[1].split(separator: "]")[0]))
    XCTAssertEqual(count * 4, FilterProgram.kernelCapacity)
    XCTAssertGreaterThanOrEqual(FilterProgram.kernelCapacity, 2 * RenderList.maxBlurTaps - 1)
  }
}
