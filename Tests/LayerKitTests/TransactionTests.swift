import LayerKit
import XCTest

/// Implicit animations, actions and transactions (CATransaction, CALayer.action(forKey:)).
final class TransactionTests: XCTestCase {
  /// A presented scene at time 1 holding one layer (opacity 1, x 50).
  func presented() -> (Scene, Layer) {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 200, height: 200))
    let l = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    l.position = Point(x: 50, y: 50)
    root.addSublayer(l)
    let scene = Scene(root: root, time: 1)
    _ = scene.presentation()
    return (scene, l)
  }

  func opacity(_ scene: Scene, _ t: Double) -> Double { scene.presentation(at: t).sublayers![0].opacity }

  func testChangingAPresentedLayerAnimatesWithTheDefaults() {
    // The default action: a basic animation of 0.25 s with the default timing function, from the
    // value shown before the change to the new model value.
    let (scene, l) = presented()
    l.opacity = 0
    Transaction.flush()
    XCTAssertEqual((l.animationKeys() ?? []), ["opacity"])
    XCTAssertEqual(opacity(scene, 1.125), 1 - MediaTimingFunction.default.value(at: 0.5), accuracy: 1e-9)
    XCTAssertEqual(opacity(scene, 1.3), 0)
    XCTAssertEqual(l.opacity, 0)  // the model holds the new value at once
  }

  func testLayersNotYetPresentedDoNotAnimate() {
    let l = Layer()
    _ = Scene(root: l)
    l.opacity = 0.5  // building the scene: no animation
    Transaction.flush()
    XCTAssertTrue((l.animationKeys() ?? []).isEmpty)
  }

  func testDisableActions() {
    let (scene, l) = presented()
    defer { withExtendedLifetime(scene) {} }  // a layer animates only while its scene lives
    Transaction.perform {
      Transaction.setDisableActions(true)
      l.opacity = 0
    }
    XCTAssertTrue((l.animationKeys() ?? []).isEmpty)
  }

  func testTransactionDurationAndTimingFunction() {
    let (scene, l) = presented()
    Transaction.perform {
      Transaction.setAnimationDuration(1)
      Transaction.setAnimationTimingFunction(.linear)
      l.opacity = 0
    }
    XCTAssertEqual(opacity(scene, 1.5), 0.5, accuracy: 1e-9)
  }

  func testNestedTransactionsTakeTheInnermostSettings() {
    let (scene, l) = presented()
    Transaction.begin()
    Transaction.setAnimationDuration(2)
    Transaction.setAnimationTimingFunction(.linear)
    Transaction.begin()
    Transaction.setAnimationDuration(1)
    l.opacity = 0
    Transaction.commit()
    l.position = Point(x: 150, y: 50)
    Transaction.commit()
    XCTAssertEqual(opacity(scene, 1.5), 0.5, accuracy: 1e-9)  // 1 s, linear (inherited)
    XCTAssertEqual(scene.presentation(at: 2).sublayers![0].position.x, 100, accuracy: 1e-9)  // 2 s
  }

  func testActionSearchOrder() {
    // delegate → actions → style → default; NSNull stops the search.
    final class Delegate: LayerDelegate {
      func action(for layer: Layer, forKey key: String) -> (any Action)? {
        key == "cornerRadius" ? NSNull() : nil
      }
    }
    let (scene, l) = presented()
    defer { withExtendedLifetime(scene) {} }  // a layer animates only while its scene lives
    let delegate = Delegate()
    l.delegate = delegate
    let slow = BasicAnimation(keyPath: "opacity")
    slow.duration = 3
    l.actions = ["opacity": slow]
    l.styleActions = ["borderWidth": NSNull()]
    Transaction.perform {
      l.cornerRadius = 4
      l.opacity = 0.5
      l.borderWidth = 2
      l.zPosition = 1
    }
    XCTAssertEqual(Set((l.animationKeys() ?? [])), ["opacity", "zPosition"])
    XCTAssertEqual(l.animation(forKey: "opacity")?.duration, 3)
  }

  func testAnActionThatCannotRunIsReportedToTheScene() {
    // A custom action whose values do not fit the property: the setter cannot throw, so the
    // scene hears of it instead of the failure vanishing.
    let (scene, l) = presented()
    l.name = "card"
    let wrong = BasicAnimation(keyPath: "opacity")
    wrong.toValue = Point(x: 1, y: 2)  // not a Double
    l.actions = ["opacity": wrong]
    Transaction.perform { l.opacity = 0.5 }
    XCTAssertTrue((l.animationKeys() ?? []).isEmpty)
    XCTAssertEqual(scene.actionFailures.map(\.layer), ["card"])
    XCTAssertEqual(scene.actionFailures.map(\.key), ["opacity"])
    var heard: [Scene.ActionFailure] = []
    scene.onActionFailure = { heard.append($0) }
    Transaction.perform { l.opacity = 0.25 }
    XCTAssertEqual(heard.count, 1)
    XCTAssertEqual(scene.actionFailures.count, 1)  // the handler took it
  }

  func testSettingFrameAnimatesBoundsAndPosition() {
    // frame is not animatable: setting it changes bounds and position, which animate.
    let (scene, l) = presented()
    defer { withExtendedLifetime(scene) {} }  // a layer animates only while its scene lives
    Transaction.perform { l.frame = Rect(x: 10, y: 10, width: 50, height: 50) }
    XCTAssertEqual(Set((l.animationKeys() ?? [])), ["bounds", "position"])
  }

  func testInterruptedAnimationStartsFromWhatIsShown() {
    let (scene, l) = presented()
    Transaction.perform {
      Transaction.setAnimationDuration(1)
      Transaction.setAnimationTimingFunction(.linear)
      l.position = Point(x: 150, y: 50)
    }
    scene.advance(to: 1.5)  // shows x = 100
    Transaction.perform {
      Transaction.setAnimationDuration(1)
      Transaction.setAnimationTimingFunction(.linear)
      l.position = Point(x: 0, y: 50)
    }
    XCTAssertEqual(scene.presentation(at: 1.5).sublayers![0].position.x, 100, accuracy: 1e-9)
    XCTAssertEqual(scene.presentation(at: 2).sublayers![0].position.x, 50, accuracy: 1e-9)
  }

  func testCompletionBlocksRunInSceneTimeWhenTheirAnimationsEnd() {
    let (scene, l) = presented()
    var log: [String] = []
    Transaction.perform {
      Transaction.setAnimationDuration(2)
      Transaction.setCompletionBlock { log.append("long") }
      l.opacity = 0
    }
    Transaction.perform {
      Transaction.setAnimationDuration(0.5)
      Transaction.setCompletionBlock { log.append("short") }
      l.cornerRadius = 10
    }
    Transaction.perform {
      Transaction.setCompletionBlock { log.append("empty") }
    }
    scene.advance(to: 1.25)
    XCTAssertEqual(log, ["empty"])
    scene.advance(to: 2)
    XCTAssertEqual(log, ["empty", "short"])
    scene.advance(to: 5)
    XCTAssertEqual(log, ["empty", "short", "long"])
  }
}

final class TransactionDurationTests: XCTestCase {
  func testZeroDurationTakesTheTransactionsDuration() throws {
    // "A duration of 0 means the default (0.25 s, or the transaction's)."
    let l = Layer()
    let a = BasicAnimation(keyPath: "opacity")
    a.toValue = 0.0
    try Transaction.perform {
      Transaction.setAnimationDuration(2)
      try l.addChecked(a, forKey: "fade")
    }
    XCTAssertEqual(l.animation(forKey: "fade")?.duration, 2)
    try l.addChecked(a, forKey: "quick")
    XCTAssertEqual(l.animation(forKey: "quick")?.duration, 0.25)
  }
}
