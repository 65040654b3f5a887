import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitSamples
import LayerKitTesting
import XCTest

/// The image inputs of the Core Image–style effects (ripple's shadingImage, the page curls'
/// backsideImage, disintegrateWithMask's maskImage): GPU ≡ CPU at progress 0.25, 0.5 and 0.75 with
/// each image in use, exactly the from / to renders at progress 0 and 1, and the image changing
/// the output.
final class ParityCoreImageImagesTests: ParityTestCase {

  func picture(_ hue: Double, _ w: Double, _ h: Double) throws -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    l.contents = try SampleScene.testImage(width: Int(w) / 2, height: Int(h) / 2, hue: hue)
    return l
  }

  /// Each effect with its image in use; the images' sizes differ from the output's and each other.
  static func cases() throws -> [(effect: String, parameters: [String: TransitionValue])] {
    let shading = try SampleScene.testImage(width: 32, height: 32, hue: 0.25)
    let backside = try SampleScene.testImage(width: 40, height: 30, hue: 0.75)
    let mask = try SampleScene.testImage(width: 24, height: 16, hue: 0.1)
    return [
      ("ripple", ["shadingImage": .image(shading), "useShadingImage": .bool(true)]),
      (
        "ripple",
        [
          "shadingImage": .image(shading), "useShadingImage": .bool(true), "center": .vec2([0.2, 0.7]),
          "width": .float(0.3),
        ]
      ),
      ("pageCurl", ["backsideImage": .image(backside), "useBacksideImage": .bool(true)]),
      ("pageCurl", ["backsideImage": .image(backside), "useBacksideImage": .bool(true), "angle": .float(2.5)]),
      ("pageCurlWithShadow", ["backsideImage": .image(backside), "useBacksideImage": .bool(true)]),
      ("disintegrateWithMask", ["maskImage": .image(mask), "useMaskImage": .bool(true)]),
      (
        "disintegrateWithMask",
        ["maskImage": .image(mask), "useMaskImage": .bool(true), "shadowOffset": .vec2([0.02, 0.03])]
      ),
    ]
  }

  func testEveryImageInBetween() throws {
    let from = try picture(0, 96, 64)
    let to = try picture(0.5, 96, 64)
    for (i, c) in try Self.cases().enumerated() {
      for p in [0.25, 0.5, 0.75] {
        let list = try RenderList(
          transitionFrom: from, to: to, width: 96, height: 64, effect: c.effect, parameters: c.parameters, progress: p)
        let report = try checker.check(list, name: "coreimage-image-\(c.effect)-\(i)-\(p)")
        XCTAssertTrue(report.passed, report.message)
        print(report.message)
      }
    }
  }

  func testEveryImageIsExactlyFromAndToAtTheEnds() throws {
    let from = try picture(0, 96, 64)
    let to = try picture(0.5, 96, 64)
    let gpu = try GLRenderer()
    let cpu = ReferenceRenderer()
    for (i, c) in try Self.cases().enumerated() {
      for (p, image) in [(0.0, from), (1.0, to)] {
        let want = try RenderList(layer: image, width: 96, height: 64)
        let list = try RenderList(
          transitionFrom: from, to: to, width: 96, height: 64, effect: c.effect, parameters: c.parameters, progress: p)
        XCTAssertIdentical(try gpu.render(list), try gpu.render(want), "\(c.effect) \(i) GPU at \(p)")
        XCTAssertIdentical(try cpu.render(list), try cpu.render(want), "\(c.effect) \(i) CPU at \(p)")
      }
    }
  }

  /// On both backends: the image in use changes the output, and an image given with its bool
  /// false changes nothing (the defaults stay the image-free effect).
  func testTheImageChangesTheOutputOnlyWhenInUse() throws {
    let from = try picture(0, 96, 64)
    let to = try picture(0.5, 96, 64)
    let gpu = try GLRenderer()
    let cpu = ReferenceRenderer()
    for (i, c) in try Self.cases().enumerated() {
      let flag = c.parameters.keys.first { $0.hasPrefix("use") }!
      var off = c.parameters
      off[flag] = .bool(false)
      var plain = off
      plain[flag] = nil
      plain[plain.keys.first { $0.hasSuffix("Image") }!] = nil
      func frame(_ r: Renderer, _ params: [String: TransitionValue]) throws -> Image {
        try r.render(
          RenderList(
            transitionFrom: from, to: to, width: 96, height: 64, effect: c.effect, parameters: params, progress: 0.5))
      }
      for (name, r) in [("GPU", gpu as Renderer), ("CPU", cpu as Renderer)] {
        XCTAssertNotEqual(try frame(r, c.parameters).pixels, try frame(r, off).pixels, "\(c.effect) \(i) \(name)")
        XCTAssertIdentical(try frame(r, off), try frame(r, plain), "\(c.effect) \(i) \(name)")
      }
    }
  }

  /// The mask is the image's luminance: a white mask keeps the old content at progress 0.5 and a
  /// black one shows the new (without a shadow), exactly, on both backends.
  func testTheMaskImageIsItsLuminance() throws {
    let from = try picture(0, 96, 64)
    let to = try picture(0.5, 96, 64)
    let white = try Image(width: 5, height: 3, color: .white)
    let black = try Image(width: 5, height: 3, color: .black)
    for r in [try GLRenderer() as Renderer, ReferenceRenderer()] {
      for (mask, want) in [(white, from), (black, to)] {
        let list = try RenderList(
          transitionFrom: from, to: to, width: 96, height: 64, effect: "disintegrateWithMask",
          parameters: ["maskImage": .image(mask), "useMaskImage": .bool(true)], progress: 0.5)
        XCTAssertIdentical(
          try r.render(list), try r.render(RenderList(layer: want, width: 96, height: 64)), "\(r)")
      }
    }
  }
}
