import Foundation
import LayerKit
import LayerKitReference
import LayerKitTesting
import XCTest

/// GradientLayer (CAGradientLayer): the ramp against its closed form, and every kind on both
/// backends.
final class GradientLayerTests: ParityTestCase {
  /// A vertical black → white ramp over 256 rows: row y is the value at its centre,
  /// round(255 · (y + 0.5) / 256) — one step a row, no banding beyond one level.
  func testAnAxialRampIsItsClosedForm() throws {
    let layer = GradientLayer()
    layer.frame = Rect(x: 0, y: 0, width: 4, height: 256)
    layer.colors = [.black, .white]
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: 4, height: 256))
    for y in 0..<256 {
      let expected = Int((255 * (Double(y) + 0.5) / 256).rounded())
      XCTAssertEqual(Int(out.pixels[(y * 4 + 2) * 4]), expected, accuracy: 1, "row \(y)")
      XCTAssertEqual(out.pixels[(y * 4 + 2) * 4 + 3], 255)
    }
  }

  /// Locations: a hard stop (two stops at one place) switches colour at once; before the first
  /// and after the last location the end colours hold.
  func testLocationsPlaceTheStops() throws {
    let layer = GradientLayer()
    layer.frame = Rect(x: 0, y: 0, width: 100, height: 1)
    layer.colors = [.red, .red, .blue, .blue]
    layer.locations = [0.2, 0.5, 0.5, 0.8]
    layer.startPoint = Point(x: 0, y: 0.5)
    layer.endPoint = Point(x: 1, y: 0.5)
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: 100, height: 1))
    XCTAssertEqual(Array(out.pixels[(10 * 4)..<(10 * 4 + 4)]), [255, 0, 0, 255])
    XCTAssertEqual(Array(out.pixels[(49 * 4)..<(49 * 4 + 4)]), [255, 0, 0, 255])
    XCTAssertEqual(Array(out.pixels[(50 * 4)..<(50 * 4 + 4)]), [0, 0, 255, 255])
    XCTAssertEqual(Array(out.pixels[(95 * 4)..<(95 * 4 + 4)]), [0, 0, 255, 255])
  }

  func testEveryKindMatchesOnBothBackends() throws {
    var rng = SeededRandom(seed: 31)
    for (type, stops) in [(GradientLayer.GradientType.axial, 2), (.radial, 5), (.axial, 64), (.radial, 64)] {
      let root = Layer(frame: Rect(x: 0, y: 0, width: 96, height: 64))
      let layer = GradientLayer()
      layer.frame = Rect(x: 4.5, y: 3, width: 85, height: 57)
      layer.cornerRadius = 9
      layer.type = type
      layer.startPoint = Point(x: 0.3, y: 0.2)
      layer.endPoint = Point(x: 0.9, y: 0.8)
      layer.colors = (0..<stops).map { _ in
        Color(
          red: rng.double(in: 0...1), green: rng.double(in: 0...1), blue: rng.double(in: 0...1),
          alpha: rng.double(in: 0.3...1))
      }
      _ = root.addSublayer(layer)
      XCTAssertParity(checker, root, width: 96, height: 64, name: "gradient-\(type)-\(stops)")
    }
  }

  /// Conic: around the start point, clockwise on screen from the direction of the end point.
  func testConicTurnsClockwiseFromTheEndPoint() throws {
    let layer = GradientLayer()
    layer.frame = Rect(x: 0, y: 0, width: 41, height: 41)
    layer.type = .conic
    layer.colors = [.black, .white]
    layer.startPoint = Point(x: 0.5, y: 0.5)
    layer.endPoint = Point(x: 1, y: 0.5)
    let out = try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: 41, height: 41))
    func red(_ x: Int, _ y: Int) -> Int { Int(out.pixels[(y * 41 + x) * 4]) }
    XCTAssertEqual(red(20, 35), 64, accuracy: 2, "a quarter turn: below the centre on screen")
    XCTAssertEqual(red(5, 20), 128, accuracy: 2, "half a turn")
    XCTAssertEqual(red(20, 5), 191, accuracy: 2, "three quarters")
  }

  /// colors animate stop by stop, locations and the points too.
  func testGradientPropertiesAnimate() throws {
    let layer = GradientLayer()
    layer.frame = Rect(x: 0, y: 0, width: 10, height: 10)
    layer.colors = [.black, .black]
    let a = BasicAnimation(keyPath: "colors")
    a.fromValue = [Color.black, Color.black]
    a.toValue = [Color.white, Color.red]
    a.duration = 1
    a.beginTime = 1
    layer.add(a, forKey: "colors")
    let b = BasicAnimation(keyPath: "locations")
    b.fromValue = [0, 1]
    b.toValue = [0.5, 1]
    b.duration = 1
    b.beginTime = 1
    layer.add(b, forKey: "locations")
    let p = layer.presentation(at: 1.5)
    XCTAssertEqual(p.colors?[0].red ?? 0, 0.5, accuracy: 1e-9)
    XCTAssertEqual(p.colors?[1].green ?? 1, 0, accuracy: 1e-9)
    XCTAssertEqual(p.locations?[0].doubleValue ?? 0, 0.25, accuracy: 1e-9)
  }
}
