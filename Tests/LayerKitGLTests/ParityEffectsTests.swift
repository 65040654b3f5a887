import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitSamples
import LayerKitTesting
import XCTest

/// GPU ≡ CPU for the effects: each filter, shadow, mask, background filter and blend mode alone,
/// and combined, under the tolerance of docs/ARCHITECTURE.md. Failures write expected / actual / diff PNGs.
final class ParityEffectsTests: ParityTestCase {

  func check(
    _ name: String, _ layer: Layer, _ w: Int, _ h: Int, file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let report = XCTAssertParity(checker, layer, width: w, height: h, name: name, file: file, line: line)
    else { return }
    print(report.message)
    XCTAssertTrue(report.expected.pixels.contains { $0 != 0 }, "\(name): CPU image is empty", file: file, line: line)
  }

  /// A backdrop with structure (the test image) and a card on it.
  func stage(_ w: Double, _ h: Double) throws -> Layer {
    let root = Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    root.contents = try SampleScene.testImage(width: Int(w / 2), height: Int(h / 2), hue: 0.15)
    return root
  }

  func card(_ x: Double, _ y: Double, _ w: Double, _ h: Double) throws -> Layer {
    let l = Layer(frame: Rect(x: x, y: y, width: w, height: h))
    l.contents = try SampleScene.testImage(width: Int(w), height: Int(h), hue: 0.55)
    l.backgroundColor = .white
    l.cornerRadius = 8
    l.masksToBounds = true
    l.borderWidth = 2
    l.borderColor = .white
    return l
  }

  func filtered(_ name: String, _ filters: [Filter]) throws {
    let root = try stage(96, 72)
    let c = try card(16, 12, 64, 48)
    c.filters = filters
    root.addSublayer(c)
    check(name, root, 96, 72)
  }

  func testBlurSmall() throws { try filtered("filter-blur-2", [.gaussianBlur(radius: 2)]) }
  func testColorControls() throws {
    try filtered("filter-color-controls", [.colorControls(saturation: 1.6, brightness: 0.1, contrast: 1.3)])
  }
  func testColorMatrix() throws {
    try filtered(
      "filter-color-matrix",
      [
        .colorMatrix(
          r: [0.2, 0.7, 0.1, 0], g: [0.5, 0.3, 0.2, 0], b: [0, 0.4, 0.9, 0], a: [0, 0, 0, 0.8], bias: [0.05, 0, 0.1, 0])
      ])
  }
  func testHueRotation() throws { try filtered("filter-hue-rotation", [.hueRotation(angle: 2.1)]) }
  func testSepia() throws { try filtered("filter-sepia", [.sepia(intensity: 0.8)]) }
  func testInvert() throws { try filtered("filter-invert", [.invert]) }
  func testFilterChain() throws {
    try filtered("filter-chain", [.sepia(), .gaussianBlur(radius: 1.5), .colorControls(contrast: 1.4), .invert])
  }

  func testBlurLargeOnRotatedLayer() throws {
    let root = try stage(128, 96)
    let c = try card(24, 18, 80, 60)
    c.transform = Transform3D(rotationAngle: 0.4, x: 0, y: 0, z: 1)
    c.filters = [.gaussianBlur(radius: 9)]
    root.addSublayer(c)
    check("filter-blur-9-rotated", root, 128, 96)
  }

  func testShadow() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 96, height: 72))
    root.backgroundColor = Color(white: 0.9)
    let c = try card(20, 14, 50, 36)
    c.masksToBounds = false
    c.shadowOpacity = 0.7
    c.shadowRadius = 5
    c.shadowOffset = Size(width: 4, height: 6)
    root.addSublayer(c)
    check("shadow", root, 96, 72)
  }

  func testShadowWithFractionalOffsetUnderPerspective() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 128, height: 96))
    root.backgroundColor = Color(red: 0.85, green: 0.9, blue: 0.95)
    root.sublayerTransform = .perspective(eyeDistance: 200)
    let c = Layer(frame: Rect(x: 30, y: 20, width: 64, height: 48))
    c.backgroundColor = Color(red: 0.9, green: 0.4, blue: 0.2)
    c.cornerRadius = 10
    c.transform = Transform3D(rotationAngle: 0.6, x: 0, y: 1, z: 0)
    c.shadowOpacity = 0.8
    c.shadowRadius = 3.5
    c.shadowOffset = Size(width: 2.3, height: 3.7)
    c.shadowColor = Color(red: 0.1, green: 0, blue: 0.3)
    root.addSublayer(c)
    check("shadow-perspective", root, 128, 96)
  }

  func testShadowPath() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 96, height: 72))
    root.backgroundColor = .white
    let c = Layer(frame: Rect(x: 20, y: 12, width: 56, height: 48))
    c.backgroundColor = Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.6)
    c.shadowOpacity = 1
    c.shadowRadius = 4
    c.shadowOffset = Size(width: 0, height: 5)
    var star = Path()
    for i in 0..<10 {
      let r = i % 2 == 0 ? 26.0 : 11.0
      let a = Double(i) * .pi / 5 - .pi / 2
      let p = Point(x: 28 + r * cos(a), y: 24 + r * sin(a))
      if i == 0 { star.move(to: p) } else { star.addLine(to: p) }
    }
    star.closeSubpath()
    c.shadowPathValue = star
    root.addSublayer(c)
    check("shadow-path-star", root, 96, 72)
  }

  func testMaskWithSublayersAndTransform() throws {
    let root = try stage(96, 72)
    let c = try card(12, 8, 72, 56)
    let mask = Layer(frame: Rect(x: 6, y: 4, width: 60, height: 48))
    mask.backgroundColor = Color(white: 1, alpha: 0.35)
    mask.cornerRadius = 20
    mask.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
    let dot = Layer(frame: Rect(x: 10, y: 10, width: 30, height: 30))
    dot.backgroundColor = .white
    dot.cornerRadius = 15
    mask.addSublayer(dot)
    c.mask = mask
    root.addSublayer(c)
    check("mask", root, 96, 72)
  }

  func testBackgroundFilterFrostedGlass() throws {
    let root = try stage(128, 96)
    let glass = Layer(frame: Rect(x: 20, y: 16, width: 88, height: 64))
    glass.cornerRadius = 14
    glass.backgroundColor = Color(white: 1, alpha: 0.25)
    glass.backgroundFilters = [.gaussianBlur(radius: 4), .colorControls(saturation: 1.8)]
    glass.borderWidth = 1
    glass.borderColor = Color(white: 1, alpha: 0.6)
    root.addSublayer(glass)
    check("background-filter-glass", root, 128, 96)
  }

  func testEveryBlendMode() throws {
    let root = try stage(160, 128)
    for (i, mode) in BlendMode.allCases.enumerated() {
      let l = Layer(frame: Rect(x: Double(i % 4) * 40 + 4, y: Double(i / 4) * 32 + 4, width: 32, height: 24))
      l.backgroundColor = Color(red: 0.9, green: 0.3 + 0.04 * Double(i), blue: 0.2, alpha: 0.85)
      l.cornerRadius = 5
      l.compositingFilter = mode
      root.addSublayer(l)
    }
    check("blend-modes", root, 160, 128)
  }

  func testCombinedInRotatedClippedParent() throws {
    // A masked, shadowed, blurred layer inside a rotated, clipped parent.
    let root = Layer(frame: Rect(x: 0, y: 0, width: 128, height: 128))
    root.backgroundColor = Color(red: 0.15, green: 0.17, blue: 0.22)
    let parent = Layer(frame: Rect(x: 14, y: 14, width: 100, height: 100))
    parent.backgroundColor = Color(red: 0.9, green: 0.88, blue: 0.8)
    parent.cornerRadius = 18
    parent.masksToBounds = true
    parent.transform = Transform3D(rotationAngle: 0.35, x: 0, y: 0, z: 1)
    let c = try card(18, 22, 64, 52)
    c.masksToBounds = false
    c.filters = [.gaussianBlur(radius: 1.2), .sepia(intensity: 0.5)]
    c.shadowOpacity = 0.75
    c.shadowRadius = 4
    c.shadowOffset = Size(width: 3, height: 5)
    let mask = Layer(frame: Rect(x: -6, y: -6, width: 76, height: 64))
    mask.backgroundColor = .white
    mask.cornerRadius = 24
    c.mask = mask
    c.opacity = 0.9
    parent.addSublayer(c)
    root.addSublayer(parent)
    check("effects-combined", root, 128, 128)
  }
}
