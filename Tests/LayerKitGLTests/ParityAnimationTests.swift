import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitSamples
import LayerKitTesting
import XCTest

/// Animated scenes rendered at several times on both backends: the RenderList is built from
/// presentation values, so GPU ≡ CPU holds frame by frame, and a frame is a pure function of t.
final class ParityAnimationTests: ParityTestCase {

  func animatedScene() throws -> Scene {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 128, height: 96))
    root.backgroundColor = Color(red: 0.1, green: 0.12, blue: 0.16)
    root.sublayerTransform = .perspective(eyeDistance: 220)
    let card = Layer(frame: Rect(x: 24, y: 20, width: 56, height: 40))
    card.contents = try SampleScene.testImage(width: 28, height: 20)
    card.cornerRadius = 8
    card.masksToBounds = true
    root.addSublayer(card)
    let dot = Layer(frame: Rect(x: 90, y: 60, width: 20, height: 20))
    dot.backgroundColor = Color(red: 0.95, green: 0.6, blue: 0.2)
    dot.cornerRadius = 10
    dot.shadowOpacity = 0.8
    dot.shadowRadius = 2
    root.addSublayer(dot)

    let spin = SpringAnimation(keyPath: "transform.rotation.y")
    spin.fromValue = 0.0
    spin.toValue = 1.2
    spin.damping = 6
    spin.beginTime = 0.1
    spin.duration = try spin.settlingDuration
    spin.fillMode = .both
    try card.addChecked(spin, forKey: "spin")

    let path = KeyframeAnimation(keyPath: "position")
    path.values = [Point(x: 100, y: 70), Point(x: 60, y: 80), Point(x: 30, y: 70), Point(x: 100, y: 70)]
    path.calculationMode = .cubic
    path.duration = 1.5
    path.repeatCount = .infinity
    path.beginTime = 0.05
    try dot.addChecked(path, forKey: "path")

    let group = AnimationGroup()
    let fade = BasicAnimation(keyPath: "opacity")
    fade.fromValue = 1.0
    fade.toValue = 0.4
    let blur = BasicAnimation(keyPath: "shadowOffset")
    blur.fromValue = Size(width: 0, height: 0)
    blur.toValue = Size(width: 4, height: 6)
    group.animations = [fade, blur]
    group.duration = 1
    group.autoreverses = true
    group.repeatCount = 2
    group.beginTime = 0.2
    group.timingFunction = .easeInEaseOut
    try dot.addChecked(group, forKey: "group")
    return Scene(root: root)
  }

  func testAnimatedSceneAtSeveralTimes() throws {
    let scene = try animatedScene()
    for t in [0.0, 0.3, 0.75, 1.4, 2.6] {
      let list = try RenderList(layer: scene.presentation(at: t), width: 128, height: 96)
      guard let report = try? checker.check(list, name: "animated-t\(t)") else {
        return XCTFail("render failed at t = \(t)")
      }
      print(report.message)
      XCTAssertTrue(report.passed, report.message)
    }
  }

  func testSameTimeGivesSamePixels() throws {
    let scene = try animatedScene()
    let a = try checker.gpu.render(RenderList(layer: scene.presentation(at: 0.9), width: 128, height: 96))
    let b = try checker.gpu.render(RenderList(layer: scene.presentation(at: 0.9), width: 128, height: 96))
    XCTAssertIdentical(a, b)
    let c = try checker.gpu.render(RenderList(layer: scene.presentation(at: 0.5), width: 128, height: 96))
    XCTAssertNotEqual(a.pixels, c.pixels)  // the scene does move
  }
}
