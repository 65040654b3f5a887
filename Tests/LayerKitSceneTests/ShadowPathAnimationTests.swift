import Foundation
import LayerKit
import LayerKitScene
import XCTest

/// shadowPath animates, as Core Animation lists it: point by point between paths of the same
/// elements; and a scene file writes and reads such an animation.
final class ShadowPathAnimationTests: XCTestCase {
  func testShadowPathAnimatesPointByPoint() throws {
    let l = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    l.shadowPathValue = Path(rect: Rect(x: 0, y: 0, width: 100, height: 100))
    let grow = BasicAnimation(keyPath: "shadowPath")
    grow.fromValue = Path(rect: Rect(x: 0, y: 0, width: 100, height: 100))
    grow.toValue = Path(rect: Rect(x: -20, y: -20, width: 140, height: 140))
    grow.duration = 1
    grow.beginTime = 1
    try l.addChecked(grow, forKey: "grow")
    XCTAssertEqual(l.presentation(at: 1.5).shadowPath?.boundingBox, Rect(x: -10, y: -10, width: 120, height: 120))
    // Paths of different elements: the first until the midpoint, then the second.
    let swap = BasicAnimation(keyPath: "shadowPath")
    swap.fromValue = Path(rect: Rect(x: 0, y: 0, width: 10, height: 10))
    swap.toValue = Path(ellipseIn: Rect(x: 0, y: 0, width: 50, height: 50))
    swap.duration = 1
    swap.beginTime = 1
    let l2 = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    try l2.addChecked(swap, forKey: "swap")
    XCTAssertEqual(l2.presentation(at: 1.4).shadowPath?.boundingBox.width, 10)
    XCTAssertEqual(l2.presentation(at: 1.6).shadowPath?.boundingBox.width, 50)
  }

  func testASceneFileWritesAndReadsAShadowPathAnimation() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 64, height: 64))
    let card = Layer(frame: Rect(x: 8, y: 8, width: 32, height: 32))
    card.shadowOpacity = 0.5
    _ = root.addSublayer(card)
    let grow = BasicAnimation(keyPath: "shadowPath")
    grow.fromValue = Path(rect: Rect(x: 0, y: 0, width: 32, height: 32))
    grow.toValue = Path(rect: Rect(x: -8, y: -8, width: 48, height: 48))
    grow.duration = 1
    grow.beginTime = 1
    try card.addChecked(grow, forKey: "grow")
    let data = try SceneFile.encode(root: root, settings: SceneSettings(width: 64, height: 64, duration: 2))
    let loaded = try SceneFile.decode(data, folder: FileManager.default.temporaryDirectory)
    let presented = try loaded.presentation(at: 1.5)
    XCTAssertEqual(presented.sublayers![0].shadowPath?.boundingBox, Rect(x: -4, y: -4, width: 40, height: 40))
  }

  /// A TransformLayer is written as {"kind": "transform", …} and read back as one.
  func testATransformLayerRoundTripsThroughASceneFile() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 64, height: 64))
    let cube = TransformLayer()
    cube.frame = Rect(x: 16, y: 16, width: 32, height: 32)
    let face = Layer(frame: Rect(x: 0, y: 0, width: 32, height: 32))
    face.anchorPointZ = -16
    _ = cube.addSublayer(face)
    _ = root.addSublayer(cube)
    let data = try SceneFile.encode(root: root, settings: SceneSettings(width: 64, height: 64, duration: 1))
    XCTAssertTrue(String(decoding: data, as: UTF8.self).contains("\"kind\""))
    let loaded = try SceneFile.decode(data, folder: FileManager.default.temporaryDirectory)
    let read = try loaded.presentation(at: 0).sublayers![0]
    XCTAssertTrue(read is TransformLayer)
    XCTAssertEqual(read.sublayers![0].anchorPointZ, -16)
  }

  /// A ReplicatorLayer is written as {"kind": "replicator", …} with its instance settings and
  /// read back as one; the settings on a plain layer are an error that names the kind.
  func testAReplicatorLayerRoundTripsThroughASceneFile() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 64, height: 64))
    let spinner = ReplicatorLayer()
    spinner.frame = Rect(x: 0, y: 0, width: 64, height: 64)
    spinner.instanceCount = 6
    spinner.instanceTransform = Transform3DMakeRotation(.pi / 3, 0, 0, 1)
    spinner.instanceDelay = 0.1
    spinner.instanceAlphaOffset = -0.15
    _ = root.addSublayer(spinner)
    let data = try SceneFile.encode(root: root, settings: SceneSettings(width: 64, height: 64, duration: 1))
    let read = try SceneFile.decode(data, folder: FileManager.default.temporaryDirectory).presentation(at: 0)
    let r = try XCTUnwrap(read.sublayers![0] as? ReplicatorLayer)
    XCTAssertEqual(r.instanceCount, 6)
    XCTAssertEqual(r.instanceDelay, 0.1)
    XCTAssertEqual(r.instanceAlphaOffset, -0.15)
    XCTAssertEqual(r.instanceTransform.m11, cos(.pi / 3), accuracy: 1e-9)
    let plain = #"{"width": 8, "height": 8, "duration": 1, "layers": [{"instanceCount": 3}]}"#
    XCTAssertThrowsError(try SceneFile.decode(Data(plain.utf8), folder: FileManager.default.temporaryDirectory)) {
      XCTAssertTrue("\($0)".contains("replicator"), "\($0)")
    }
  }

  /// A GradientLayer is written as {"kind": "gradient", …} with its stops and read back as one;
  /// its colours animate from a scene file.
  func testAGradientLayerRoundTripsThroughASceneFile() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 64, height: 64))
    let g = GradientLayer()
    g.frame = Rect(x: 0, y: 0, width: 64, height: 64)
    g.colors = [.red, .blue]
    g.locations = [0.25, 0.75]
    g.type = .radial
    g.startPoint = Point(x: 0.5, y: 0.5)
    let fade = BasicAnimation(keyPath: "colors")
    fade.fromValue = [Color.red, Color.blue]
    fade.toValue = [Color.blue, Color.red]
    fade.duration = 1
    g.add(fade, forKey: "swap")
    _ = root.addSublayer(g)
    let data = try SceneFile.encode(root: root, settings: SceneSettings(width: 64, height: 64, duration: 1))
    let loaded = try SceneFile.decode(data, folder: FileManager.default.temporaryDirectory)
    let read = try XCTUnwrap(try loaded.presentation(at: 0.5).sublayers![0] as? GradientLayer)
    XCTAssertEqual(read.type, .radial)
    XCTAssertEqual(read.locations, [0.25, 0.75])
    XCTAssertEqual(read.startPoint, Point(x: 0.5, y: 0.5))
    XCTAssertEqual(read.colors?[0].red ?? 0, 0.5, accuracy: 1e-9)
  }

  /// A shape layer with every property and a strokeEnd animation is written and read back as it
  /// was; a plain layer with a shape's key is refused with the kind it needs.
  func testAShapeLayerRoundTripsThroughASceneFile() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 64, height: 64))
    let s = ShapeLayer()
    s.frame = Rect(x: 0, y: 0, width: 64, height: 64)
    s.pathValue = Path(ellipseIn: Rect(x: 8, y: 8, width: 48, height: 48))
    s.fillColor = nil
    s.fillRule = .evenOdd
    s.strokeColor = .red
    s.lineWidth = 6
    s.miterLimit = 4
    s.lineCap = .round
    s.lineJoin = .bevel
    s.lineDashPattern = [4, 2]
    s.lineDashPhase = 1
    s.strokeStart = 0.1
    let draw = BasicAnimation(keyPath: "strokeEnd")
    draw.fromValue = 0
    draw.toValue = 1
    draw.duration = 1
    s.add(draw, forKey: "draw")
    _ = root.addSublayer(s)
    let data = try SceneFile.encode(root: root, settings: SceneSettings(width: 64, height: 64, duration: 1))
    let loaded = try SceneFile.decode(data, folder: FileManager.default.temporaryDirectory)
    let read = try XCTUnwrap(try loaded.presentation(at: 0.5).sublayers![0] as? ShapeLayer)
    XCTAssertEqual(read.path, s.path)
    XCTAssertNil(read.fillColor)
    XCTAssertEqual(read.fillRule, .evenOdd)
    XCTAssertEqual(read.strokeColor, .red)
    XCTAssertEqual(read.lineWidth, 6)
    XCTAssertEqual(read.miterLimit, 4)
    XCTAssertEqual(read.lineCap, .round)
    XCTAssertEqual(read.lineJoin, .bevel)
    XCTAssertEqual(read.lineDashPattern, [4, 2])
    XCTAssertEqual(read.lineDashPhase, 1)
    XCTAssertEqual(read.strokeStart, 0.1)
    XCTAssertEqual(read.strokeEnd, 0.5, accuracy: 1e-9)
    let plain = #"{"version": 1, "width": 8, "height": 8, "duration": 1, "root": {"strokeEnd": 0.5}}"#
    XCTAssertThrowsError(try SceneFile.decode(Data(plain.utf8), folder: FileManager.default.temporaryDirectory)) {
      XCTAssertTrue("\($0)".contains("\"kind\": \"shape\""), "\($0)")
    }
  }

  /// A text layer with runs and every property is written and read back; a font file is found
  /// next to the scene file; a plain layer with a text key is refused with the kind it needs.
  func testATextLayerRoundTripsThroughASceneFile() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 200, height: 80))
    let t = TextLayer()
    t.frame = Rect(x: 0, y: 0, width: 200, height: 80)
    t.string = AttributedText(runs: [.init("Hello ", font: "DejaVu Serif", color: .red), .init("you", underline: true)])
    t.font = "DejaVu Sans:bold"
    t.fontSize = 18
    t.foregroundColor = .yellow
    t.isWrapped = true
    t.alignmentMode = .center
    t.truncationMode = .middle
    let grow = BasicAnimation(keyPath: "fontSize")
    grow.fromValue = 10
    grow.toValue = 20
    grow.duration = 1
    t.add(grow, forKey: "grow")
    _ = root.addSublayer(t)
    let data = try SceneFile.encode(root: root, settings: SceneSettings(width: 200, height: 80, duration: 1))
    let loaded = try SceneFile.decode(data, folder: FileManager.default.temporaryDirectory)
    let read = try XCTUnwrap(try loaded.presentation(at: 0.5).sublayers![0] as? TextLayer)
    XCTAssertEqual(read.attributedText, t.attributedText)
    XCTAssertEqual(read.fontName, "DejaVu Sans:bold")
    XCTAssertEqual(read.fontSize, 15, accuracy: 1e-9)
    XCTAssertEqual(read.foregroundColor, .yellow)
    XCTAssertTrue(read.isWrapped)
    XCTAssertEqual(read.alignmentMode, .center)
    XCTAssertEqual(read.truncationMode, .middle)
    // A font file relative to the scene's folder.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-font-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", toPath: folder.appendingPathComponent("My.ttf").path)
    let doc =
      #"{"version": 1, "width": 100, "height": 40, "duration": 1, "layers": [{"kind": "text", "frame": [0, 0, 100, 40], "string": "Hi", "font": "My.ttf"}]}"#
    let withFont = try SceneFile.decode(Data(doc.utf8), folder: folder)
    let layer = try XCTUnwrap(try withFont.presentation(at: 0).sublayers![0] as? TextLayer)
    XCTAssertEqual(layer.fontName, folder.appendingPathComponent("My.ttf").path)
    XCTAssertEqual(layer.string as? String, "Hi")
    let plain = #"{"version": 1, "width": 8, "height": 8, "duration": 1, "root": {"fontSize": 12}}"#
    XCTAssertThrowsError(try SceneFile.decode(Data(plain.utf8), folder: folder)) {
      XCTAssertTrue("\($0)".contains("\"kind\": \"text\""), "\($0)")
    }
  }
}
