import Foundation
import LayerKit
import LayerKitReference
import XCTest

/// Core Animation code as its references write it, ported by renaming only (CA prefix dropped,
/// `CGPoint` → `Point`, `kCATransition` → `kTransition`, a `CGColor` → `Color`): no `try`, no
/// `beginTime` (0 means now), values in the forms the references use. Each snippet is followed by
/// what the reference says it does, checked on the model or on the CPU renderer's pixels.
final class PortedSnippetsTests: XCTestCase {
  private func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
    let i = (y * image.width + x) * 4
    return Array(image.pixels[i..<i + 4])
  }

  /// CAAnimationGroup's reference: a fade and a scale through a value function, run together
  /// for the group's duration.
  func testTheAnimationGroupReference() throws {
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))

    let fadeOut = BasicAnimation(keyPath: "opacity")
    fadeOut.fromValue = 1
    fadeOut.toValue = 0

    let expandScale = BasicAnimation(keyPath: "transform")
    expandScale.valueFunction = .scale
    expandScale.fromValue = [1, 1, 1]
    expandScale.toValue = [3, 3, 3]

    let fadeAndScale = AnimationGroup()
    fadeAndScale.animations = [fadeOut, expandScale]
    fadeAndScale.duration = 1

    layer.add(fadeAndScale, forKey: nil)

    let halfway = layer.presentation(at: 0.5)
    XCTAssertEqual(halfway.opacity, 0.5, accuracy: 1e-9)
    XCTAssertEqual(halfway.transform.m11, 2, accuracy: 1e-9)
    XCTAssertEqual(halfway.transform.m22, 2, accuracy: 1e-9)
    // Removed when done (removedOnCompletion), the model shows again.
    XCTAssertEqual(layer.presentation(at: 1.5).opacity, 1)
  }

  /// CAReplicatorLayer's reference recipe: one square, repeated along x by instanceTransform,
  /// each copy's red and green lowered by the offsets.
  func testTheReplicatorLayerRecipe() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 20))
    let replicatorLayer = ReplicatorLayer()
    replicatorLayer.frame = root.bounds
    replicatorLayer.instanceCount = 5
    replicatorLayer.instanceTransform = Transform3DMakeTranslation(20, 0, 0)
    replicatorLayer.instanceRedOffset = -0.2
    replicatorLayer.instanceGreenOffset = -0.2

    let square = Layer()
    square.frame = Rect(x: 0, y: 0, width: 20, height: 20)
    square.backgroundColor = .white
    replicatorLayer.addSublayer(square)
    root.addSublayer(replicatorLayer)

    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: root, width: 100, height: 20))
    for k in 0..<5 {
      let p = pixel(out, 20 * k + 10, 10)
      let expected = 255 - 51 * k
      XCTAssertEqual(Int(p[0]), expected, accuracy: 1, "copy \(k) red")
      XCTAssertEqual(Int(p[1]), expected, accuracy: 1, "copy \(k) green")
      XCTAssertEqual(p[2], 255, "copy \(k) blue")
    }
  }

  /// CAGradientLayer as tutorials write it: two colours, left to right, filling the layer.
  func testTheGradientLayerTutorial() throws {
    let gradientLayer = GradientLayer()
    gradientLayer.frame = Rect(x: 0, y: 0, width: 101, height: 10)
    gradientLayer.colors = [Color.red, Color.blue]
    gradientLayer.locations = [0.0, 1.0]
    gradientLayer.startPoint = Point(x: 0.0, y: 0.5)
    gradientLayer.endPoint = Point(x: 1.0, y: 0.5)

    let out = try ReferenceRenderer(threadCount: 1).render(
      try RenderList(layer: gradientLayer, width: 101, height: 10))
    let left = pixel(out, 0, 5)
    let middle = pixel(out, 50, 5)
    let right = pixel(out, 100, 5)
    XCTAssertGreaterThan(left[0], 250)
    XCTAssertLessThan(left[2], 5)
    XCTAssertEqual(Int(middle[0]), 128, accuracy: 2)
    XCTAssertEqual(Int(middle[2]), 128, accuracy: 2)
    XCTAssertLessThan(right[0], 5)
    XCTAssertGreaterThan(right[2], 250)
  }

  /// CATransition's reference: a push from the right, added under kCATransition.
  func testTheTransitionReference() throws {
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
    let transition = Transition()
    transition.duration = 0.5
    transition.type = .push
    transition.subtype = .fromRight
    layer.add(transition, forKey: kTransition)
    XCTAssertEqual(layer.animationKeys, ["transition"])
    XCTAssertEqual((layer.animation(forKey: kTransition) as? Transition)?.type, .push)
  }

  /// CATransformLayer's reference: sublayers keep their 3D places; the layer draws nothing itself.
  func testTheTransformLayerReference() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 40))
    let container = TransformLayer()
    container.frame = root.bounds
    container.backgroundColor = .red  // ignored, as Core Animation ignores it
    var perspective = Transform3D.identity
    perspective.m34 = -1.0 / 500
    container.transform = perspective
    let face = Layer(frame: Rect(x: 10, y: 10, width: 20, height: 20))
    face.backgroundColor = .blue
    container.addSublayer(face)
    root.addSublayer(container)

    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: root, width: 40, height: 40))
    XCTAssertEqual(pixel(out, 2, 2), [0, 0, 0, 0], "the transform layer's own background is not drawn")
    XCTAssertEqual(pixel(out, 20, 20), [0, 0, 255, 255])
  }
}
