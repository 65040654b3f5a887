import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitSamples
import LayerKitTesting
import XCTest

/// GPU ≡ CPU for the Core Image–style effects of TransitionEffects.coreImageA (dissolve, swipe,
/// barsSwipe, copyMachine, flash, mod) at progress 0.25, 0.5 and 0.75 with their defaults and with
/// other parameters, and exactly the from / to renders at progress 0 and 1.
final class ParityCoreImageATests: ParityTestCase {

  func picture(_ hue: Double, _ w: Double, _ h: Double) throws -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    l.contents = try SampleScene.testImage(width: Int(w) / 2, height: Int(h) / 2, hue: hue)
    return l
  }

  /// Each effect with its defaults, then with parameters that move it off them (another angle,
  /// an opaque band, an off-centre flash, a finer grid).
  static let cases: [(effect: String, parameters: [String: TransitionValue])] = [
    ("dissolve", [:]),
    ("swipe", [:]),
    ("swipe", ["angle": .float(2.2), "width": .float(0.2), "opacity": .float(0.8), "color": .vec3([0.2, 0.5, 1])]),
    ("barsSwipe", [:]),
    ("barsSwipe", ["angle": .float(0.7), "width": .float(0.1), "barOffset": .float(3)]),
    ("copyMachine", [:]),
    ("copyMachine", ["angle": .float(-1.9), "width": .float(0.15)]),
    ("flash", [:]),
    ("flash", ["center": .vec2([0.2, 0.7]), "fadeThreshold": .float(0.6), "maxStriationRadius": .float(1)]),
    ("mod", [:]),
    ("mod", ["center": .vec2([0.3, 0.4]), "angle": .float(0.5), "radius": .float(0.1), "compression": .float(0.05)]),
  ]

  func testEveryEffectInBetween() throws {
    let from = try picture(0, 96, 64)
    let to = try picture(0.5, 96, 64)
    var worst: [String: (delta: Int, psnr: Double)] = [:]
    for (i, c) in Self.cases.enumerated() {
      for p in [0.25, 0.5, 0.75] {
        let list = try RenderList(
          transitionFrom: from, to: to, width: 96, height: 64, effect: c.effect, parameters: c.parameters, progress: p)
        let report = try checker.check(list, name: "coreimage-\(c.effect)-\(i)-\(p)")
        XCTAssertTrue(report.passed, report.message)
        print(report.message)
        let w = worst[c.effect] ?? (0, .infinity)
        worst[c.effect] = (max(w.delta, report.comparison.maxChannelDelta), min(w.psnr, report.comparison.psnr))
      }
    }
    for (name, w) in worst.sorted(by: { $0.key < $1.key }) {
      print("core image parity \(name): worst max channel delta \(w.delta), lowest PSNR \(w.psnr) dB")
    }
  }

  func testEveryEffectIsExactlyFromAndToAtTheEnds() throws {
    let from = try picture(0, 96, 64)
    let to = try picture(0.5, 96, 64)
    let gpu = try GLRenderer()
    let cpu = ReferenceRenderer()
    for (i, c) in Self.cases.enumerated() {
      for (p, image) in [(0.0, from), (1.0, to)] {
        let want = try RenderList(layer: image, width: 96, height: 64)
        let list = try RenderList(
          transitionFrom: from, to: to, width: 96, height: 64, effect: c.effect, parameters: c.parameters, progress: p)
        XCTAssertIdentical(try gpu.render(list), try gpu.render(want), "\(c.effect) \(i) GPU at \(p)")
        XCTAssertIdentical(try cpu.render(list), try cpu.render(want), "\(c.effect) \(i) CPU at \(p)")
      }
    }
  }
}
