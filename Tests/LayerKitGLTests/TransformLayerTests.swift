import Foundation
import LayerKit
import LayerKitReference
import LayerKitTesting
import XCTest

/// TransformLayer (CATransformLayer): the cube recipe — six faces kept in one 3D space, drawn back
/// to front — on both backends.
final class TransformLayerTests: ParityTestCase {
  static let colors = [
    Color(red: 1, green: 0, blue: 0), Color(red: 0, green: 1, blue: 0), Color(red: 0, green: 0, blue: 1),
    Color(red: 1, green: 1, blue: 0), Color(red: 0, green: 1, blue: 1), Color(red: 1, green: 0, blue: 1),
  ]

  /// A 60-point cube centred in a 120 × 120 root with a perspective of 400 points; face 0 looks
  /// at the viewer (+z), face 1 away, then right, left, top, bottom. Each face is anchored 30
  /// points behind itself, at the cube's centre, and turned about it. The front face is added
  /// first and the back face last, so insertion order alone would put the back face in front.
  func cube(turnedBy angle: Double) -> (root: Layer, cube: TransformLayer) {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 120, height: 120))
    root.sublayerTransform.m34 = -1 / 400
    let cube = TransformLayer()
    cube.frame = Rect(x: 30, y: 30, width: 60, height: 60)
    cube.transform = Transform3DMakeRotation(angle, 0, 1, 0)
    let turns: [(Double, Double, Double, Double)] = [
      (0, 0, 1, 0), (.pi, 0, 1, 0), (.pi / 2, 0, 1, 0), (-.pi / 2, 0, 1, 0), (.pi / 2, 1, 0, 0), (-.pi / 2, 1, 0, 0),
    ]
    for i in [0, 2, 3, 4, 5, 1] {
      let face = Layer(frame: Rect(x: 0, y: 0, width: 60, height: 60))
      face.backgroundColor = Self.colors[i]
      face.isDoubleSided = false
      let (a, x, y, z) = turns[i]
      face.anchorPointZ = -30
      face.transform = i == 0 ? .identity : Transform3DMakeRotation(a, x, y, z)
      _ = cube.addSublayer(face)
    }
    _ = root.addSublayer(cube)
    return (root, cube)
  }

  private func centre(_ root: Layer) throws -> [UInt8] {
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: root, width: 120, height: 120))
    let i = (60 * 120 + 60) * 4
    return Array(out.pixels[i..<i + 4])
  }

  func testTheNearestFaceIsInFront() throws {
    XCTAssertEqual(try centre(cube(turnedBy: 0.3).root), [255, 0, 0, 255], "the front face")
    XCTAssertEqual(try centre(cube(turnedBy: .pi + 0.3).root), [0, 255, 0, 255], "turned around: the back face")
    // Depth, not insertion: with the faces double-sided the front one still covers the back.
    let (root, cube) = cube(turnedBy: 0.3)
    for face in cube.sublayers ?? [] { face.isDoubleSided = true }
    XCTAssertEqual(try centre(root), [255, 0, 0, 255])
  }

  func testThePresentationKeepsTheKindAndTheCubeMatchesOnBothBackends() throws {
    let (root, cube) = cube(turnedBy: 0.6)
    cube.sublayerTransform = Transform3DMakeRotation(0.4, 1, 0, 0)
    XCTAssertTrue(root.presentation(at: 0).sublayers![0] is TransformLayer)
    XCTAssertParity(checker, root, width: 120, height: 120, name: "transform-layer-cube")
  }
}
