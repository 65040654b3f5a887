import LayerKit
import XCTest

/// A layer's timing under Core Animation's names (beginTime, speed, timeOffset) and
/// `convertTime`, so CALayer's timing recipes port as written, with the scene's time where they
/// read CACurrentMediaTime().
final class LayerTimingTests: XCTestCase {
  /// Apple's QA1673, "How to pause the animation of a layer tree", line for line.
  func testPausingAndResumingALayerAsQA1673Does() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 200, height: 100))
    let layer = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    _ = root.addSublayer(layer)
    let scene = Scene(root: root)
    scene.advance(to: 0)
    let move = BasicAnimation(keyPath: "position.x")
    move.fromValue = 0
    move.toValue = 100
    move.duration = 2
    layer.add(move, forKey: "move")
    scene.advance(to: 1)
    XCTAssertEqual(layer.presentation(at: 1).position.x, 50, accuracy: 1e-9)

    // pauseLayer(_:)
    let pausedTime = layer.convertTime(scene.time, from: nil)
    layer.speed = 0
    layer.timeOffset = pausedTime
    scene.advance(to: 1.7)
    XCTAssertEqual(layer.presentation(at: 1.7).position.x, 50, accuracy: 1e-9)

    // resumeLayer(_:)
    let paused = layer.timeOffset
    layer.speed = 1
    layer.timeOffset = 0
    layer.beginTime = 0
    let timeSincePause = layer.convertTime(scene.time, from: nil) - paused
    layer.beginTime = timeSincePause
    XCTAssertEqual(layer.presentation(at: 2.2).position.x, 75, accuracy: 1e-9)
  }

  func testConvertTimeAcrossLayersAndBack() throws {
    let root = Layer()
    let a = Layer()
    a.beginTime = 1
    a.speed = 2
    let b = Layer()
    b.timeOffset = 0.5
    b.speed = 0.5
    _ = root.addSublayer(a)
    _ = a.addSublayer(b)
    let c = Layer()
    c.beginTime = 3
    _ = root.addSublayer(c)
    // Scene time 4: a's local (4 − 1) × 2 = 6, b's 6 × 0.5 + 0.5 = 3.5, c's 4 − 3 = 1.
    XCTAssertEqual(b.convertTime(4, from: nil), 3.5, accuracy: 1e-12)
    XCTAssertEqual(b.convertTime(3.5, to: nil), 4, accuracy: 1e-12)
    XCTAssertEqual(c.convertTime(3.5, from: b), 1, accuracy: 1e-12)
    XCTAssertEqual(b.convertTime(1, from: c), 3.5, accuracy: 1e-12)
    XCTAssertEqual(a.convertTime(6, to: b), 3.5, accuracy: 1e-12)
  }
}
