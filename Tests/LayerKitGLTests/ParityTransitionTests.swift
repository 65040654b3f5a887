import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitSamples
import LayerKitTesting
import XCTest

/// GPU ≡ CPU for every built-in transition effect and direction at progress 0.25, 0.5 and 0.75,
/// and for a layer transition running in a scene.
final class ParityTransitionTests: ParityTestCase {

  func picture(_ hue: Double, _ w: Double, _ h: Double) throws -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    l.contents = try SampleScene.testImage(width: Int(w) / 2, height: Int(h) / 2, hue: hue)
    return l
  }

  func testEveryEffectAndDirection() throws {
    let from = try picture(0, 96, 64)
    let to = try picture(0.5, 96, 64)
    var worst = (delta: 0, psnr: Double.infinity)
    for type in TransitionType.allCases {
      let subtypes: [TransitionSubtype?] = type == .fade ? [nil] : TransitionSubtype.allCases
      for subtype in subtypes {
        for p in [0.25, 0.5, 0.75] {
          let params: [String: TransitionValue] =
            subtype.map { ["direction": .vec2(TransitionEffects.direction($0))] } ?? [:]
          let list = try RenderList(
            transitionFrom: from, to: to, width: 96, height: 64, effect: type.rawValue, parameters: params, progress: p)
          let name = "transition-\(type.rawValue)-\(subtype?.rawValue ?? "none")-\(p)"
          let report = try checker.check(list, name: name)
          XCTAssertTrue(report.passed, report.message)
          worst.delta = max(worst.delta, report.comparison.maxChannelDelta)
          worst.psnr = min(worst.psnr, report.comparison.psnr)
          print(report.message)
        }
      }
    }
    print("transition parity: worst max channel delta \(worst.delta), lowest PSNR \(worst.psnr) dB")
  }

  func testEveryEffectBeyondItsEnds() throws {
    // Overshooting timing functions reach progress outside [0, 1]: the effects with exactEnds give
    // the images outright there, the others extrapolate, and both backends agree on which.
    let from = try picture(0, 96, 64)
    let to = try picture(0.5, 96, 64)
    for effect in TransitionEffects.all.values.sorted(by: { $0.name < $1.name }) {
      for p in [-0.25, 1.25] {
        let list = try RenderList(transitionFrom: from, to: to, width: 96, height: 64, effect: effect.name, progress: p)
        let report = try checker.check(list, name: "beyond-\(effect.name)-\(p)")
        XCTAssertTrue(report.passed, report.message)
      }
    }
  }

  func testLayerTransitionInAScene() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 128, height: 96))
    root.backgroundColor = Color(white: 0.15)
    let card = try picture(0.1, 80, 56)
    card.position = Point(x: 64, y: 48)
    card.cornerRadius = 10
    card.masksToBounds = true
    root.addSublayer(card)
    let scene = Scene(root: root)
    _ = scene.presentation()
    Transaction.perform {
      Transaction.setDisableActions(true)
      card.contents = try? SampleScene.testImage(width: 40, height: 28, hue: 0.7)
    }
    let t = Transition(type: .push, subtype: .fromBottom)
    t.duration = 1
    t.timingFunction = .easeInEaseOut
    try card.addChecked(t, forKey: nil)
    for time in [0.2, 0.5, 0.8] {
      let report = try checker.check(
        RenderList(layer: scene.presentation(at: time), width: 128, height: 96), name: "layer-transition-\(time)")
      XCTAssertTrue(report.passed, report.message)
      print(report.message)
    }
  }
}
