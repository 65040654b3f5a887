import Foundation
import LayerKit
import LayerKitReference
import LayerKitTesting
import XCTest

/// ReplicatorLayer (CAReplicatorLayer): the loading-spinner recipe — one dot, repeated around
/// the centre, each instance's fade starting later and its colour darker — on both backends.
final class ReplicatorLayerTests: ParityTestCase {
  func spinner() -> (root: Layer, replicator: ReplicatorLayer, dot: Layer) {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 80, height: 80))
    let replicator = ReplicatorLayer()
    replicator.frame = Rect(x: 0, y: 0, width: 80, height: 80)
    replicator.instanceCount = 8
    replicator.instanceTransform = Transform3DMakeRotation(2 * .pi / 8, 0, 0, 1)
    let dot = Layer(frame: Rect(x: 35, y: 4, width: 10, height: 10))
    dot.backgroundColor = .white
    dot.cornerRadius = 5
    _ = replicator.addSublayer(dot)
    _ = root.addSublayer(replicator)
    return (root, replicator, dot)
  }

  private func alpha(_ image: Image, _ x: Int, _ y: Int) -> UInt8 { image.pixels[(y * image.width + x) * 4 + 3] }

  func testInstancesAreTurnedAboutTheCentreAndColoured() throws {
    let (root, replicator, _) = spinner()
    replicator.instanceColor = Color(red: 1, green: 1, blue: 1, alpha: 1)
    replicator.instanceAlphaOffset = -0.1
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: root, width: 80, height: 80))
    // Instance k sits at angle k · 45° about (40, 31 from the centre): k = 0 on top, 2 on the right,
    // 4 at the bottom, 6 on the left; its alpha is 1 − 0.1 k.
    XCTAssertEqual(alpha(out, 40, 9), 255)
    XCTAssertEqual(Int(alpha(out, 71, 40)), 204, accuracy: 1)
    XCTAssertEqual(Int(alpha(out, 40, 71)), 153, accuracy: 1)
    XCTAssertEqual(Int(alpha(out, 9, 40)), 102, accuracy: 1)
    XCTAssertEqual(alpha(out, 40, 40), 0, "nothing at the centre")
  }

  /// instanceDelay: instance k's animations run k × delay behind instance 0's.
  func testInstanceDelayShiftsEachInstancesAnimations() throws {
    let (root, replicator, dot) = spinner()
    replicator.instanceDelay = 0.1
    let fade = BasicAnimation(keyPath: "opacity")
    fade.fromValue = 1
    fade.toValue = 0
    fade.duration = 0.8
    fade.beginTime = 1
    fade.fillMode = .both
    dot.add(fade, forKey: "fade")
    let presented = root.presentation(at: 1.4)
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: presented, width: 80, height: 80))
    // At 1.4 s instance k is 0.4 − 0.1 k into the fade: opacity 0.5 + 0.125 k.
    XCTAssertEqual(Int(alpha(out, 40, 9)), 128, accuracy: 1)
    XCTAssertEqual(Int(alpha(out, 71, 40)), 191, accuracy: 1)
    XCTAssertEqual(Int(alpha(out, 40, 71)), 255, accuracy: 1)
  }

  func testTheSpinnerMatchesOnBothBackends() throws {
    let (root, replicator, _) = spinner()
    replicator.instanceColor = Color(red: 0.9, green: 0.5, blue: 0.2, alpha: 1)
    replicator.instanceRedOffset = -0.1
    replicator.instanceAlphaOffset = -0.08
    XCTAssertParity(checker, root, width: 80, height: 80, name: "replicator-spinner")
  }
}
