import LayerKit
import XCTest

/// The animation object model: the documented rules each test pins are quoted in its comment.
final class AnimationSemanticsTests: XCTestCase {
  func layer() -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 50))
    l.position = Point(x: 50, y: 25)
    l.opacity = 0.5
    return l
  }

  func x(_ l: Layer, _ t: Double) -> Double { l.presentation(at: t).position.x }

  func basic(_ from: Double?, _ to: Double?, _ by: Double?) -> BasicAnimation {
    let a = BasicAnimation(keyPath: "position.x")
    a.fromValue = from
    a.toValue = to
    a.byValue = by
    a.duration = 1
    a.beginTime = 1
    return a
  }

  /// CABasicAnimation: the seven fromValue / toValue / byValue combinations, at half-time with a
  /// linear timing function; the model value of position.x is 50.
  func testTheSevenFromToByCombinations() throws {
    let cases: [(Double?, Double?, Double?, Double, String)] = [
      (10, 30, nil, 20, "from and to: between from and to"),
      (10, nil, 30, 25, "from and by: between from and from + by"),
      (nil, 30, 10, 25, "by and to: between to − by and to"),
      (10, nil, nil, 30, "from only: between from and the current presentation value"),
      (nil, 30, nil, 40, "to only: between the current presentation value and to"),
      (nil, nil, 30, 65, "by only: between the current value and that value + by"),
      (nil, nil, nil, 50, "none: between the previous and the current presentation value"),
    ]
    for (from, to, by, expected, rule) in cases {
      let l = layer()
      try l.addChecked(basic(from, to, by), forKey: "x")
      XCTAssertEqual(x(l, 1.5), expected, accuracy: 1e-9, rule)
    }
  }

  func testFillModeRemovedRevertsToTheModelValue() throws {
    // fillMode removed: outside its active interval the animation has no effect.
    let l = layer()
    try l.addChecked(basic(0, 100, nil), forKey: "x")
    XCTAssertEqual(x(l, 0.5), 50)  // before beginTime
    XCTAssertEqual(x(l, 1.25), 25, accuracy: 1e-9)
    XCTAssertEqual(x(l, 2.5), 50)  // after the end
  }

  func testFillModeBothHoldsTheEnds() throws {
    let l = layer()
    let a = basic(0, 100, nil)
    a.fillMode = .both
    try l.addChecked(a, forKey: "x")
    XCTAssertEqual(x(l, 0.5), 0)
    XCTAssertEqual(x(l, 3), 100, accuracy: 1e-9)
  }

  func testAdditiveAddsToTheModelValue() throws {
    // isAdditive: the animated value is added to the property's current value.
    let l = layer()
    let a = basic(0, 10, nil)
    a.isAdditive = true
    try l.addChecked(a, forKey: "x")
    XCTAssertEqual(x(l, 1.5), 55, accuracy: 1e-9)
  }

  func testCumulativeRepeatsContinueFromTheLastEnd() throws {
    // isCumulative: each repeat starts where the previous one ended.
    let l = layer()
    let a = basic(0, 10, nil)
    a.repeatCount = 3
    a.isCumulative = true
    try l.addChecked(a, forKey: "x")
    XCTAssertEqual(x(l, 1.5), 5, accuracy: 1e-9)
    XCTAssertEqual(x(l, 2.5), 15, accuracy: 1e-9)
    XCTAssertEqual(x(l, 3.5), 25, accuracy: 1e-9)
  }

  func testTimingFunctionShapesProgress() throws {
    let l = layer()
    let a = basic(0, 100, nil)
    a.timingFunction = .easeIn
    try l.addChecked(a, forKey: "x")
    XCTAssertLessThan(x(l, 1.5), 50)  // ease-in lags behind linear at half-time
    XCTAssertEqual(x(l, 1.5), 100 * MediaTimingFunction.easeIn.value(at: 0.5), accuracy: 1e-9)
  }

  func testModelValuesAreUntouchedAndPresentationIsPure() throws {
    let l = layer()
    try l.addChecked(basic(0, 100, nil), forKey: "x")
    let a = l.presentation(at: 1.5).position.x
    let b = l.presentation(at: 1.5).position.x
    XCTAssertEqual(a, b)
    XCTAssertEqual(l.position.x, 50)
  }

  func testUnknownKeyPathAndWrongTypeAreRejectedWhenAdded() {
    let l = layer()
    XCTAssertThrowsError(try l.addChecked(BasicAnimation(keyPath: "positon.x"), forKey: nil)) {
      XCTAssertEqual($0 as? AnimationError, .unknownKeyPath("positon.x"))
    }
    let a = BasicAnimation(keyPath: "opacity")
    a.toValue = Point(x: 1, y: 2)
    XCTAssertThrowsError(try l.addChecked(a, forKey: nil)) {
      guard case .wrongValueType(let k, let f, _, _) = $0 as? AnimationError else { return XCTFail("\($0)") }
      XCTAssertEqual(k, "opacity")
      XCTAssertEqual(f, "toValue")
    }
    let bad = basic(0, 1, nil)
    bad.duration = -1
    XCTAssertThrowsError(try l.addChecked(bad, forKey: nil))
    let nan = basic(0, 1, nil)
    nan.beginTime = .nan
    XCTAssertThrowsError(try l.addChecked(nan, forKey: nil))
    XCTAssertTrue((l.animationKeys() ?? []).isEmpty)
  }

  func testAddingCopiesAndReplacesByKey() throws {
    let l = layer()
    let a = basic(0, 100, nil)
    try l.addChecked(a, forKey: "x")
    a.toValue = 1000.0  // changing the original after adding does nothing
    XCTAssertEqual(x(l, 1.5), 50, accuracy: 1e-9)
    try l.addChecked(basic(0, 10, nil), forKey: "x")
    XCTAssertEqual((l.animationKeys() ?? []), ["x"])
    XCTAssertEqual(x(l, 1.5), 5, accuracy: 1e-9)
  }

  func testZeroBeginTimeMeansNowInTheScene() throws {
    let l = layer()
    let scene = Scene(root: l)
    scene.advance(to: 2)
    let a = basic(0, 100, nil)
    a.beginTime = 0
    try l.addChecked(a, forKey: "x")
    XCTAssertEqual(l.animation(forKey: "x")?.beginTime, 2)
    XCTAssertEqual(scene.presentation(at: 2.5).position.x, 50, accuracy: 1e-9)
  }

  func testDefaultDurationIsAQuarterSecond() throws {
    let l = layer()
    let a = basic(0, 100, nil)
    a.duration = 0
    try l.addChecked(a, forKey: "x")
    XCTAssertEqual(x(l, 1.125), 50, accuracy: 1e-9)
  }

  func testLayerTimingComposesDownTheTree() throws {
    // Layers are timed objects: a parent at speed 2 runs its sublayers' animations twice as fast.
    let parent = Layer()
    parent.timing.speed = 2
    let l = layer()
    parent.addSublayer(l)
    try l.addChecked(basic(0, 100, nil), forKey: "x")  // local 1…2 = parent time 0.5…1
    XCTAssertEqual(parent.presentation(at: 0.75).sublayers![0].position.x, 50, accuracy: 1e-9)
  }

  func testASublayersPresentationTakesTheTimeThroughItsAncestors() throws {
    // convertTime's rule: scene time reaches a sublayer through every ancestor's timing. Under a
    // root at speed 2 and a parent whose beginTime is 0.5, scene time t is local time 2t − 0.5 in
    // the child: its presentation must agree with the one inside the root's.
    let root = Layer()
    root.timing.speed = 2
    let parent = Layer()
    parent.timing.beginTime = 0.5  // in the root's time
    root.addSublayer(parent)
    let child = layer()
    parent.addSublayer(child)
    let a = basic(0, 100, nil)
    a.timingFunction = MediaTimingFunction(name: .linear)
    try child.addChecked(a, forKey: "x")  // local 1…2 = scene time 0.75…1.25
    for t in [0.8, 1.0, 1.1, 1.2] {
      let fromRoot = root.presentation(at: t).sublayers![0].sublayers![0].position.x
      XCTAssertEqual(child.presentation(at: t).position.x, fromRoot, accuracy: 1e-9, "t = \(t)")
      XCTAssertEqual(parent.presentation(at: t).sublayers![0].position.x, fromRoot, accuracy: 1e-9)
    }
    XCTAssertEqual(child.presentation(at: 1.0).position.x, 50, accuracy: 1e-9)  // local 1.5: halfway
  }

  func testGroupRunsChildrenInItsTimeAndClipsThem() throws {
    let l = layer()
    let g = AnimationGroup()
    g.beginTime = 1
    g.duration = 2
    let child = BasicAnimation(keyPath: "position.x")
    child.fromValue = 0.0
    child.toValue = 100.0
    child.beginTime = 1  // relative to the group's start
    child.duration = 2
    child.fillMode = .both
    g.animations = [child]
    try l.addChecked(g, forKey: "g")
    XCTAssertEqual(x(l, 1.5), 0, accuracy: 1e-9)  // child filling backwards
    XCTAssertEqual(x(l, 2.5), 25, accuracy: 1e-9)
    XCTAssertEqual(x(l, 3.5), 50)  // the group ended at 3: its children no longer apply
  }

  /// CAAnimationGroup's Listing 1 (Apple's reference): a fade and a scale with no duration of
  /// their own in a 1 s group "fade out and grow over 1 second" — children that set no duration
  /// take the group's (not the 0.25 s default), and still start at the group's start.
  func testGroupChildrenWithoutADurationTakeTheGroups() throws {
    let l = layer()
    let fadeOut = BasicAnimation(keyPath: "opacity")
    fadeOut.fromValue = 1.0
    fadeOut.toValue = 0.0
    let expandScale = BasicAnimation(keyPath: "transform.scale")
    expandScale.fromValue = 1.0
    expandScale.toValue = 3.0
    let fadeAndScale = AnimationGroup()
    fadeAndScale.animations = [fadeOut, expandScale]
    fadeAndScale.duration = 1
    fadeAndScale.beginTime = 1
    try l.addChecked(fadeAndScale, forKey: "fadeAndScale")
    XCTAssertEqual(l.presentation(at: 1.5).opacity, 0.5, accuracy: 1e-9)
    XCTAssertEqual(l.presentation(at: 1.5).transform.m11, 2, accuracy: 1e-9)
    XCTAssertEqual(l.presentation(at: 1.99).transform.m11, 2.98, accuracy: 1e-9)
    // A nested group without a duration takes its parent's, and passes it on.
    let inner = AnimationGroup()
    let move = BasicAnimation(keyPath: "position.x")
    move.fromValue = 0.0
    move.toValue = 100.0
    inner.animations = [move]
    let outer = AnimationGroup()
    outer.animations = [inner]
    outer.duration = 2
    outer.beginTime = 1
    let l2 = layer()
    try l2.addChecked(outer, forKey: "outer")
    XCTAssertEqual(x(l2, 2), 50, accuracy: 1e-9)
  }

  /// A group's timing function paces its children's time (CAMediaTiming: the function maps the
  /// group's local time; its children run in it): a linear 0 → 1 child in an easeOut group is at
  /// easeOut(0.5) ≈ 0.685 at half time, not 0.5.
  func testGroupTimingFunctionPacesItsChildren() throws {
    let l = layer()
    let fadeIn = BasicAnimation(keyPath: "opacity")
    fadeIn.fromValue = 0.0
    fadeIn.toValue = 1.0
    let group = AnimationGroup()
    group.animations = [fadeIn]
    group.duration = 1
    group.beginTime = 1
    group.timingFunction = MediaTimingFunction(name: .easeOut)
    try l.addChecked(group, forKey: "g")
    let expected = MediaTimingFunction(name: .easeOut).value(at: 0.5)
    XCTAssertEqual(expected, 0.685, accuracy: 0.005)
    XCTAssertEqual(l.presentation(at: 1.5).opacity, expected, accuracy: 1e-9)
    XCTAssertEqual(l.presentation(at: 1.0).opacity, 0, accuracy: 1e-9)
  }

  func testKeyframesThroughValues() throws {
    let l = layer()
    let k = KeyframeAnimation(keyPath: "opacity")
    k.values = [0.0, 1.0, 0.0]
    k.keyTimes = [0, 0.25, 1]
    k.duration = 1
    k.beginTime = 1
    try l.addChecked(k, forKey: "k")
    XCTAssertEqual(l.presentation(at: 1.125).opacity, 0.5, accuracy: 1e-9)
    XCTAssertEqual(l.presentation(at: 1.25).opacity, 1, accuracy: 1e-9)
    XCTAssertEqual(l.presentation(at: 1.625).opacity, 0.5, accuracy: 1e-9)
    let bad = KeyframeAnimation(keyPath: "opacity")
    bad.values = [0.0, 1.0]
    bad.keyTimes = [0, 0.5, 1]
    XCTAssertThrowsError(try l.addChecked(bad, forKey: nil)) {
      guard case .invalidKeyframes = $0 as? AnimationError else { return XCTFail("\($0)") }
    }
    let empty = KeyframeAnimation(keyPath: "opacity")
    empty.values = []
    XCTAssertThrowsError(try l.addChecked(empty, forKey: nil))
  }

  func testKeyframesDiscreteHoldEachValue() throws {
    let l = layer()
    let k = KeyframeAnimation(keyPath: "position.x")
    k.values = [0.0, 10.0, 20.0]
    k.calculationMode = .discrete
    k.duration = 3
    k.beginTime = 1
    try l.addChecked(k, forKey: "k")
    XCTAssertEqual(x(l, 1.5), 0)
    XCTAssertEqual(x(l, 2.5), 10)
    XCTAssertEqual(x(l, 3.5), 20)
  }

  func testSpringProgressFollowsTheSolver() throws {
    let l = layer()
    let s = SpringAnimation(keyPath: "position.x")
    s.fromValue = 0.0
    s.toValue = 100.0
    s.beginTime = 1
    s.duration = s.settlingDuration
    try l.addChecked(s, forKey: "s")
    let solver = try SpringSolver(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)
    XCTAssertEqual(x(l, 1.3), 100 * solver.progress(at: 0.3), accuracy: 1e-9)
    XCTAssertGreaterThan(s.settlingDuration, 0.5)
    // A spring that cannot move says why, instead of settling "in 0 s".
    s.stiffness = 0
    XCTAssertThrowsError(try s.checkedSettlingDuration()) {
      XCTAssertEqual($0 as? SpringError, .notPositive(field: "stiffness", value: 0))
    }
    s.stiffness = 100
    s.damping = .nan
    XCTAssertThrowsError(try s.checkedSettlingDuration()) {
      XCTAssertEqual($0 as? SpringError, .nonFinite(field: "damping"))
    }
  }

  func testTransformComponentKeyPaths() throws {
    let l = layer()
    let a = BasicAnimation(keyPath: "transform.rotation.z")
    a.fromValue = 0.0
    a.toValue = Double.pi / 2
    a.duration = 1
    a.beginTime = 1
    try l.addChecked(a, forKey: "r")
    let t = l.presentation(at: 1.5).transform
    XCTAssertEqual(t.m11, cos(Double.pi / 4), accuracy: 1e-9)
    XCTAssertEqual(t.m12, sin(Double.pi / 4), accuracy: 1e-9)
    let s = BasicAnimation(keyPath: "transform.scale")
    s.fromValue = 1.0
    s.toValue = 3.0
    s.duration = 1
    s.beginTime = 1
    let l2 = layer()
    try l2.addChecked(s, forKey: "s")
    XCTAssertEqual(l2.presentation(at: 1.5).transform.m11, 2, accuracy: 1e-9)
  }

  func testFilterParameterKeyPath() throws {
    let l = layer()
    l.filters = [.gaussianBlur(radius: 0)]
    let a = BasicAnimation(keyPath: "filters.gaussianBlur.inputRadius")
    a.fromValue = 0.0
    a.toValue = 10.0
    a.duration = 1
    a.beginTime = 1
    try l.addChecked(a, forKey: "blur")
    XCTAssertEqual(l.presentation(at: 1.5).filters[0].parameters["inputRadius"], 5)
    // A parameter the filter does not have is an error when the animation is added, not a
    // silently frozen value.
    let wrong = BasicAnimation(keyPath: "filters.gaussianBlur.inputAngle")
    wrong.toValue = 1.0
    XCTAssertThrowsError(try l.addChecked(wrong, forKey: "wrong")) {
      guard case .unsupported(keyPath: "filters.gaussianBlur.inputAngle", let reason) = $0 as? AnimationError else {
        return XCTFail("\($0)")
      }
      XCTAssertTrue(reason.contains("inputRadius"), reason)
    }
  }

  final class Recorder: AnimationDelegate {
    var log: [String] = []
    let name: String
    init(_ name: String, log: [String] = []) { self.name = name }
    func animationDidStart(_ animation: Animation) { Recorder.events.append("\(name) start") }
    func animationDidStop(_ animation: Animation, finished: Bool) { Recorder.events.append("\(name) stop \(finished)") }
    nonisolated(unsafe) static var events: [String] = []
  }

  func testDelegateCallbacksFireInSceneTimeOrderAndFinishedAnimationsAreRemoved() throws {
    Recorder.events = []
    let l = layer()
    let scene = Scene(root: l)
    let a = basic(0, 100, nil)
    a.beginTime = 1
    a.duration = 2
    a.delegate = Recorder("a")
    let b = basic(0, 100, nil)
    b.beginTime = 1.5
    b.duration = 0.5
    b.delegate = Recorder("b")
    let keep = basic(0, 100, nil)
    keep.beginTime = 0.5
    keep.duration = 0.25
    keep.isRemovedOnCompletion = false
    keep.delegate = Recorder("keep")
    try l.addChecked(a, forKey: "a")
    try l.addChecked(b, forKey: "b")
    try l.addChecked(keep, forKey: "keep")
    scene.advance(to: 10)
    XCTAssertEqual(
      Recorder.events, ["keep start", "keep stop true", "a start", "b start", "b stop true", "a stop true"])
    XCTAssertEqual((l.animationKeys() ?? []), ["keep"])
  }
}

final class AnimationExtrasTests: XCTestCase {
  func testValueFunctionInterpolatesTheNumberNotTheMatrix() throws {
    // CAValueFunction rotateZ: 0 → 4π turns twice; interpolating the two (equal) matrices would
    // not move at all.
    let l = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    let a = BasicAnimation(keyPath: "transform")
    a.valueFunction = .rotateZ
    a.fromValue = 0.0
    a.toValue = 4 * Double.pi
    a.duration = 1
    a.beginTime = 1
    try l.addChecked(a, forKey: "spin")
    let t = l.presentation(at: 1.125).transform  // π/2
    XCTAssertEqual(t.m11, 0, accuracy: 1e-9)
    XCTAssertEqual(t.m12, 1, accuracy: 1e-9)
    let s = BasicAnimation(keyPath: "transform")
    s.valueFunction = .scale
    s.fromValue = 1.0
    s.toValue = 3.0
    s.duration = 1
    s.beginTime = 1
    let l2 = Layer()
    try l2.addChecked(s, forKey: "grow")
    XCTAssertEqual(l2.presentation(at: 1.5).transform.m22, 2, accuracy: 1e-9)
  }

  func testNonFiniteValuesAreRejectedWhenAdded() {
    let l = Layer()
    let a = BasicAnimation(keyPath: "position")
    a.toValue = Point(x: Double.nan, y: 0)
    XCTAssertThrowsError(try l.addChecked(a, forKey: nil)) {
      XCTAssertEqual($0 as? AnimationError, .nonFiniteValue(keyPath: "position", field: "toValue"))
    }
    let k = KeyframeAnimation(keyPath: "opacity")
    k.values = [0.0, Double.infinity]
    XCTAssertThrowsError(try l.addChecked(k, forKey: nil)) {
      XCTAssertEqual($0 as? AnimationError, .nonFiniteValue(keyPath: "opacity", field: "values[1]"))
    }
  }

  func testPathKeyframesWithAutoRotation() throws {
    // A point property along a path at constant speed; rotationMode auto turns the layer along
    // the tangent.
    let l = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    let k = KeyframeAnimation(keyPath: "position")
    k.pathValue = Path(rect: Rect(x: 0, y: 0, width: 100, height: 100))
    k.rotationMode = .auto
    k.calculationMode = .paced
    k.duration = 4
    k.beginTime = 1
    try l.addChecked(k, forKey: "orbit")
    let p = l.presentation(at: 1.5)  // an eighth of the way: halfway along the top edge
    XCTAssertEqual(p.position.x, 50, accuracy: 1e-6)
    XCTAssertEqual(p.position.y, 0, accuracy: 1e-6)
    XCTAssertEqual(p.transform.rotationZ, 0, accuracy: 1e-6)
    let q = l.presentation(at: 2.5)  // halfway down the right edge, heading down (+y)
    XCTAssertEqual(q.position.x, 100, accuracy: 1e-6)
    XCTAssertEqual(q.position.y, 50, accuracy: 1e-6)
    XCTAssertEqual(q.transform.rotationZ, Double.pi / 2, accuracy: 1e-6)
    let bad = KeyframeAnimation(keyPath: "opacity")
    bad.path = k.path
    XCTAssertThrowsError(try l.addChecked(bad, forKey: nil)) {
      guard case .unsupported = $0 as? AnimationError else { return XCTFail("\($0)") }
    }
  }

  func testPerceptualSpring() throws {
    // iOS 17's duration/bounce form: duration 0.5, bounce 0.3 → stiffness (2π/0.5)², damping
    // 4π(1 − 0.3)/0.5.
    let s = try SpringAnimation(keyPath: "opacity", perceptualDuration: 0.5, bounce: 0.3)
    XCTAssertEqual(s.stiffness, pow(2 * Double.pi / 0.5, 2), accuracy: 1e-9)
    XCTAssertEqual(s.damping, 4 * Double.pi * 0.7 / 0.5, accuracy: 1e-9)
  }
}

final class ContentsAndRemovalTests: XCTestCase {
  func testContentsCrossfade() throws {
    // Core Animation animates contents as a crossfade: (1 − p)·from + p·to, premultiplied.
    let red = try Image(width: 2, height: 2, color: .red)
    let blue = try Image(width: 2, height: 2, color: .blue)
    let l = Layer(frame: Rect(x: 0, y: 0, width: 2, height: 2))
    l.contents = blue
    let a = BasicAnimation(keyPath: "contents")
    a.fromValue = red
    a.toValue = blue
    a.duration = 1
    a.beginTime = 1
    try l.addChecked(a, forKey: "fade")
    XCTAssertEqual(l.presentation(at: 1.5).contents?.pixel(x: 0, y: 0), [128, 0, 128, 255])
    XCTAssertEqual(l.presentation(at: 1.75).contents?.pixel(x: 1, y: 1), [64, 0, 191, 255])
    XCTAssertEqual(l.presentation(at: 1).contents, red)
    XCTAssertEqual(l.presentation(at: 3).contents, blue)
    // From no contents: a fade in from transparent.
    let m = Layer(frame: Rect(x: 0, y: 0, width: 2, height: 2))
    let b = BasicAnimation(keyPath: "contents")
    b.toValue = blue
    b.duration = 1
    b.beginTime = 1
    try m.addChecked(b, forKey: "in")
    XCTAssertEqual(m.presentation(at: 1.5).contents?.pixel(x: 0, y: 0), [0, 0, 128, 128])
  }

  final class Stops: AnimationDelegate {
    var finished: [Bool] = []
    func animationDidStop(_ animation: Animation, finished: Bool) { self.finished.append(finished) }
  }

  func testRemovingOrReplacingStopsUnfinished() throws {
    // animationDidStop(_:finished:) reports false for an animation removed before its end.
    let l = Layer()
    let stops = Stops()
    let a = BasicAnimation(keyPath: "opacity")
    a.toValue = 0.0
    a.delegate = stops
    try l.addChecked(a, forKey: "o")
    try l.addChecked(a, forKey: "o")  // replaces the first
    l.removeAnimation(forKey: "o")
    XCTAssertEqual(stops.finished, [false, false])
    XCTAssertTrue((l.animationKeys() ?? []).isEmpty)
  }
}

final class NestedGroupTests: XCTestCase {
  func testNestedGroupsComposeTime() throws {
    // Time composes through groups: outer (begin 1) → inner (begin 1, speed 2, duration 2) → child.
    let l = Layer()
    l.position = Point(x: 7, y: 0)
    let child = BasicAnimation(keyPath: "position.x")
    child.fromValue = 0.0
    child.toValue = 100.0
    child.duration = 2
    let inner = AnimationGroup()
    inner.beginTime = 1
    inner.speed = 2
    inner.duration = 2
    inner.animations = [child]
    let outer = AnimationGroup()
    outer.beginTime = 1
    outer.duration = 4
    outer.animations = [inner]
    try l.addChecked(outer, forKey: "outer")
    XCTAssertEqual(l.presentation(at: 2.5).position.x, 50, accuracy: 1e-9)  // inner local 1 of 2
    XCTAssertEqual(l.presentation(at: 2.25).position.x, 25, accuracy: 1e-9)
    XCTAssertEqual(l.presentation(at: 3.5).position.x, 7)  // inner ended at outer time 2
  }
}

final class BooleanKeyPathTests: XCTestCase {
  func testHiddenStepsAtTheMiddle() throws {
    let l = Layer()
    let a = BasicAnimation(keyPath: "hidden")
    a.fromValue = false
    a.toValue = true
    a.duration = 1
    a.beginTime = 1
    try l.addChecked(a, forKey: "hide")
    XCTAssertFalse(l.presentation(at: 1.4).isHidden)
    XCTAssertTrue(l.presentation(at: 1.6).isHidden)
    XCTAssertFalse(l.presentation(at: 2.5).isHidden)  // fill removed: back to the model value
  }
}
