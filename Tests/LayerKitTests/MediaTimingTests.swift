import LayerKit
import XCTest

/// Core Animation's timing model (CAMediaTiming). Each table row quotes the rule it pins; the
/// quotes are from CAMediaTiming.h and Apple's CAMediaTiming documentation unless marked.
final class MediaTimingTests: XCTestCase {
  /// One evaluation: `timing.localTime(parentTime:defaultDuration:)` should be `expected`.
  struct Row {
    let rule: String
    let timing: MediaTiming
    let parentTime: Double
    let defaultDuration: Double
    let expected: Double?
    /// The row's own line, so a failure points at the row rather than at `check`.
    let line: UInt

    init(
      rule: String, timing: MediaTiming, parentTime: Double,
      defaultDuration: Double = MediaTiming.defaultAnimationDuration, expected: Double?, line: UInt = #line
    ) {
      self.rule = rule
      self.timing = timing
      self.parentTime = parentTime
      self.defaultDuration = defaultDuration
      self.expected = expected
      self.line = line
    }
  }

  func check(_ rows: [Row], file: StaticString = #filePath) {
    for row in rows {
      let got = row.timing.localTime(parentTime: row.parentTime, defaultDuration: row.defaultDuration)
      let context = "\(row.rule) — at t=\(row.parentTime) with \(row.timing)"
      switch (got, row.expected) {
      case (nil, nil): break
      case (let g?, let e?): XCTAssertEqual(g, e, accuracy: 1e-12, context, file: file, line: row.line)
      default:
        XCTFail(
          "got \(String(describing: got)), expected \(String(describing: row.expected)): \(context)", file: file,
          line: row.line)
      }
    }
  }

  func testPlainAndBeginTime() {
    let plain = MediaTiming(duration: 1)
    let begun = MediaTiming(beginTime: 2, duration: 1)
    let rule = "t = (tp - begin) * speed + offset; removed outside the active duration"
    check([
      Row(rule: rule, timing: plain, parentTime: 0, expected: 0),
      Row(rule: rule, timing: plain, parentTime: 0.25, expected: 0.25),
      Row(rule: rule, timing: plain, parentTime: 0.999, expected: 0.999),
      Row(rule: "active interval is [0, A): removed at exactly its end", timing: plain, parentTime: 1, expected: nil),
      Row(rule: "fillMode removed: no effect before the start", timing: plain, parentTime: -0.5, expected: nil),
      Row(rule: "beginTime: start in the parent's timeline", timing: begun, parentTime: 1.5, expected: nil),
      Row(rule: rule, timing: begun, parentTime: 2, expected: 0),
      Row(rule: rule, timing: begun, parentTime: 2.5, expected: 0.5),
      Row(rule: rule, timing: begun, parentTime: 3, expected: nil),
    ])
  }

  func testSpeed() {
    let rule = "speed: \"if rate is 2, local time progresses twice as fast as parent time\""
    let double = MediaTiming(beginTime: 1, duration: 1, speed: 2)
    check([
      Row(rule: rule, timing: double, parentTime: 1.25, expected: 0.5),
      Row(rule: rule, timing: double, parentTime: 1.49, expected: 0.98),
      Row(rule: "3 s at speed 2 takes 1.5 s of parent time", timing: double, parentTime: 1.5, expected: nil),
      Row(
        rule: rule + "; forwards fill holds the end", timing: with(double) { $0.fillMode = .forwards },
        parentTime: 2, expected: 1),
      Row(
        rule: "speed 0.5 runs at half speed", timing: MediaTiming(duration: 1, speed: 0.5), parentTime: 1, expected: 0.5
      ),
      Row(
        rule: "speed scales time after beginTime, not before: (tp − begin) × speed",
        timing: MediaTiming(beginTime: 4, duration: 1, speed: 4), parentTime: 4.125, expected: 0.5),
    ])
  }

  func testSpeedZeroFreezesAtTimeOffset() {
    let rule = "\"pause\" a layer by setting `speed' to zero and `offset' to a suitable value"
    let paused = MediaTiming(duration: 1, speed: 0, timeOffset: 0.4)
    check([
      Row(rule: rule, timing: paused, parentTime: -100, expected: 0.4),
      Row(rule: rule, timing: paused, parentTime: 0, expected: 0.4),
      Row(rule: rule, timing: paused, parentTime: 1e6, expected: 0.4),
      Row(
        rule: rule + "; paused with offset 0 is the first frame", timing: MediaTiming(duration: 1, speed: 0),
        parentTime: 7, expected: 0),
      Row(
        rule: "a time offset of the duration is 100% into the animation (Rönnqvist's slider)",
        timing: MediaTiming(duration: 1, speed: 0, timeOffset: 1), parentTime: 3, expected: 1),
      Row(
        rule: "offsets past the active duration wrap around",
        timing: MediaTiming(duration: 1, speed: 0, timeOffset: 1.5),
        parentTime: 3, expected: 0.5),
      Row(
        rule: "paused before its beginTime is still at its offset: (tp − begin) × 0 = 0",
        timing: MediaTiming(beginTime: 10, duration: 1, speed: 0, timeOffset: 0.25), parentTime: 0, expected: 0.25),
    ])
  }

  func testNegativeSpeedRunsLocalTimeBackwards() {
    // t = (tp − begin) × speed: with speed −1 the active times 0 ≤ t < A fall at parent times
    // begin − A < tp ≤ begin, running from the end down to 0; after begin, t < 0 is "before the
    // start" (so an animation reversed with no offset "will be finished immediately").
    let rule = "t = (tp - begin) * speed with speed < 0: local time runs backwards"
    let reversed = MediaTiming(beginTime: 2, duration: 1, speed: -1, fillMode: .both)
    let removed = with(reversed) { $0.fillMode = .removed }
    check([
      Row(
        rule: rule + "; t > A is after the end: forwards fill holds d", timing: reversed, parentTime: 0.5, expected: 1),
      Row(rule: rule + "; t = A is the end", timing: reversed, parentTime: 1, expected: 1),
      Row(rule: rule, timing: reversed, parentTime: 1.25, expected: 0.75),
      Row(rule: rule, timing: reversed, parentTime: 1.75, expected: 0.25),
      Row(rule: rule, timing: reversed, parentTime: 2, expected: 0),
      Row(
        rule: rule + "; t < 0 is before the start: backwards fill clamps to 0", timing: reversed, parentTime: 3,
        expected: 0),
      Row(rule: rule, timing: removed, parentTime: 1.25, expected: 0.75),
      Row(rule: rule + "; removed after begin", timing: removed, parentTime: 3, expected: nil),
      Row(rule: rule + "; removed before begin − A", timing: removed, parentTime: 0.5, expected: nil),
      Row(
        rule: rule + " at twice the rate", timing: MediaTiming(beginTime: 2, duration: 1, speed: -2),
        parentTime: 1.75, expected: 0.5),
    ])
  }

  func testReversedLayerPlaysItsAnimationBackwards() {
    // The documented recipe: a layer with speed −1 and timeOffset = progress runs its animations
    // from `progress` back to the start. Layer time feeds the animation as its parent time.
    let layer = MediaTiming(beginTime: 10, speed: -1, timeOffset: 0.6)
    let animation = MediaTiming(duration: 1)
    let times = [10, 10.25, 10.5, 10.6].map { layer.layerTime(parentTime: $0) }
    let local = times.map { animation.localTime(parentTime: $0, defaultDuration: 0.25) }
    XCTAssertEqual(local.count, 4)
    for (got, want) in zip(local.prefix(3), [0.6, 0.35, 0.1]) {
      XCTAssertEqual(got ?? .nan, want, accuracy: 1e-12)
    }
    XCTAssertEqual(local[3] ?? .nan, 0, accuracy: 1e-12, "reaches the start")
    XCTAssertNil(
      animation.localTime(parentTime: layer.layerTime(parentTime: 11), defaultDuration: 0.25),
      "then is before its start, and removed")
  }

  func testTimeOffsetWrapsAroundTheActiveDuration() {
    // Rönnqvist, "Controlling Animation Timing": duration 3, timeOffset 1 "starts off one second
    // into the transition ... runs the final two seconds ... Then it jumps back to be completely
    // orange and does the first second": the offset moves the position, not the active interval.
    let rule = "timeOffset: \"Additional offset in active local time\", wrapping within the active duration"
    let offset = MediaTiming(duration: 3, timeOffset: 1)
    check([
      Row(rule: rule, timing: offset, parentTime: 0, expected: 1),
      Row(rule: rule, timing: offset, parentTime: 1, expected: 2),
      Row(rule: rule, timing: offset, parentTime: 1.5, expected: 2.5),
      Row(rule: rule + "; reaches the end exactly", timing: offset, parentTime: 2, expected: 3),
      Row(rule: rule + "; then jumps back to the start", timing: offset, parentTime: 2.5, expected: 0.5),
      Row(rule: rule, timing: offset, parentTime: 2.999, expected: 0.999),
      Row(rule: rule + "; still lasts the full duration", timing: offset, parentTime: 3, expected: nil),
      Row(
        rule: rule + "; forwards fill holds where it ended (the offset)",
        timing: with(offset) { $0.fillMode = .forwards },
        parentTime: 4, expected: 1),
      Row(
        rule: rule + "; backwards fill holds the first frame (the offset)",
        timing: with(offset) { $0.fillMode = .backwards }, parentTime: -1, expected: 1),
      Row(
        rule: rule + "; a negative offset wraps from the end", timing: MediaTiming(duration: 1, timeOffset: -0.25),
        parentTime: 0, expected: 0.75),
      Row(rule: rule, timing: MediaTiming(duration: 1, timeOffset: -0.25), parentTime: 0.25, expected: 0),
      Row(rule: rule, timing: MediaTiming(duration: 1, timeOffset: -0.25), parentTime: 0.5, expected: 0.25),
      Row(
        rule: rule + ", across repeats", timing: MediaTiming(duration: 1, timeOffset: 0.5, repeatCount: 2),
        parentTime: 0.75, expected: 0.25),
      Row(
        rule: rule + ", wrapping modulo the whole active duration",
        timing: MediaTiming(duration: 1, timeOffset: 0.5, repeatCount: 2), parentTime: 1.6, expected: 0.1),
      Row(
        rule: rule + "; forwards fill is the left limit at the end, not the next cycle's start",
        timing: MediaTiming(duration: 1, timeOffset: 1, repeatCount: 3, fillMode: .forwards), parentTime: 5,
        expected: 1),
      Row(
        rule: rule + "; an offset of the whole active duration is no offset: ends at d",
        timing: MediaTiming(duration: 1, timeOffset: 2, repeatCount: 2, fillMode: .forwards), parentTime: 5,
        expected: 1),
      Row(
        rule: rule + " with an infinite repeat: the fold absorbs it",
        timing: MediaTiming(duration: 1, timeOffset: 0.75, repeatCount: .infinity), parentTime: 10.5, expected: 0.25),
    ])
  }

  func testRepeatCountAndRepeatDuration() {
    let fractional = "repeatCount: \"May be fractional\" — the last cycle stops part-way"
    let rc25 = MediaTiming(duration: 1, repeatCount: 2.5)
    let rc25f = with(rc25) { $0.fillMode = .forwards }
    check([
      Row(rule: fractional, timing: rc25, parentTime: 0.5, expected: 0.5),
      Row(rule: "each repeat starts again from 0", timing: rc25, parentTime: 1, expected: 0),
      Row(rule: fractional, timing: rc25, parentTime: 1.25, expected: 0.25),
      Row(rule: fractional, timing: rc25, parentTime: 2.25, expected: 0.25),
      Row(rule: fractional + "; removed at 2.5 d", timing: rc25, parentTime: 2.5, expected: nil),
      Row(
        rule: fractional + "; forwards fill holds the partial end 0.5 d", timing: rc25f, parentTime: 2.5, expected: 0.5),
      Row(rule: fractional + "; forwards fill holds it forever", timing: rc25f, parentTime: 100, expected: 0.5),
      Row(
        rule: "a whole repeatCount ends at d, not at the next cycle's 0",
        timing: MediaTiming(duration: 1, repeatCount: 2, fillMode: .forwards), parentTime: 2, expected: 1),
      Row(
        rule: "a whole repeatCount ends at d despite rounding (3 × 0.1)",
        timing: MediaTiming(duration: 0.1, repeatCount: 3, fillMode: .forwards), parentTime: 1, expected: 0.1),
      Row(
        rule: "\"If the repeatCount is 0, it is ignored\": one cycle",
        timing: MediaTiming(duration: 1, repeatCount: 0, fillMode: .forwards), parentTime: 1.5, expected: 1),
      Row(
        rule: fractional + ", below one", timing: MediaTiming(duration: 1, repeatCount: 0.5), parentTime: 0.25,
        expected: 0.25),
      Row(
        rule: fractional + ", below one, filled",
        timing: MediaTiming(duration: 1, repeatCount: 0.5, fillMode: .forwards),
        parentTime: 0.75, expected: 0.5),
      Row(
        rule: "repeatDuration: \"how many seconds the animation will repeat for\"",
        timing: MediaTiming(duration: 1, repeatDuration: 2.5), parentTime: 2.25, expected: 0.25),
      Row(
        rule: "repeatDuration ends part-way; forwards fill holds there",
        timing: MediaTiming(duration: 1, repeatDuration: 2.5, fillMode: .forwards), parentTime: 3, expected: 0.5),
      Row(
        rule: "a repeatDuration shorter than the duration ends the animation early",
        timing: MediaTiming(duration: 1, repeatDuration: 0.4, fillMode: .forwards), parentTime: 0.9, expected: 0.4),
      Row(
        rule: "repeatDuration takes precedence over repeatCount (setting both is undefined in CA)",
        timing: MediaTiming(duration: 1, repeatCount: 5, repeatDuration: 1.5), parentTime: 1.6, expected: nil),
    ])
  }

  func testInfiniteRepeat() {
    let rule = "repeatCount greatestFiniteMagnitude / HUGE_VALF \"will cause the animation to repeat forever\""
    let forever = MediaTiming(duration: 1, repeatCount: .infinity, fillMode: .forwards)
    let floatMax = MediaTiming(duration: 1, repeatCount: Double(Float.greatestFiniteMagnitude))
    check([
      Row(rule: rule, timing: forever, parentTime: 1000.25, expected: 0.25),
      Row(rule: rule, timing: forever, parentTime: 1_000_000.5, expected: 0.5),
      Row(rule: rule, timing: floatMax, parentTime: 12.75, expected: 0.75),
      Row(
        rule: rule + ", autoreversing", timing: MediaTiming(duration: 1, repeatCount: .infinity, autoreverses: true),
        parentTime: 101.25, expected: 0.75),
    ])
    XCTAssertEqual(forever.activeDuration(defaultDuration: 0.25), .infinity)
    XCTAssertEqual(floatMax.activeDuration(defaultDuration: 0.25), .infinity)
    XCTAssertTrue(floatMax.repeatsForever)
  }

  func testAutoreverses() {
    let rule = "autoreverses: \"the object plays backwards after playing forwards\""
    let reverse = MediaTiming(duration: 1, autoreverses: true)
    check([
      Row(rule: rule, timing: reverse, parentTime: 0.25, expected: 0.25),
      Row(rule: rule, timing: reverse, parentTime: 1, expected: 1),
      Row(rule: rule, timing: reverse, parentTime: 1.25, expected: 0.75),
      Row(rule: rule, timing: reverse, parentTime: 1.75, expected: 0.25),
      Row(rule: rule + "; a cycle is 2 d, removed after it", timing: reverse, parentTime: 2, expected: nil),
      Row(
        rule: rule + "; forwards fill holds the end of the reverse, 0",
        timing: with(reverse) { $0.fillMode = .forwards },
        parentTime: 3, expected: 0),
      Row(
        rule: rule + ", 1.75 cycles", timing: MediaTiming(duration: 1, repeatCount: 1.75, autoreverses: true),
        parentTime: 2.25, expected: 0.25),
      Row(
        rule: rule + ", 1.75 cycles", timing: MediaTiming(duration: 1, repeatCount: 1.75, autoreverses: true),
        parentTime: 3.25, expected: 0.75),
      Row(
        rule: rule + ", 1.75 cycles end half-way back",
        timing: MediaTiming(duration: 1, repeatCount: 1.75, autoreverses: true, fillMode: .both), parentTime: 9,
        expected: 0.5),
      // Rönnqvist's "duration=0.5, repeatCount=2.5, autoreverses": five half-second legs, ending at
      // the end value.
      Row(
        rule: rule + ", 2.5 cycles", timing: MediaTiming(duration: 0.5, repeatCount: 2.5, autoreverses: true),
        parentTime: 0.75, expected: 0.25),
      Row(
        rule: rule + ", 2.5 cycles end at d",
        timing: MediaTiming(duration: 0.5, repeatCount: 2.5, autoreverses: true, fillMode: .forwards),
        parentTime: 2.5, expected: 0.5),
    ])
  }

  func testFillModesBeforeAndAfter() {
    // kCAFillModeBackwards "clamps values before zero to zero"; kCAFillModeForwards: "remains
    // visible in its final state when the animation is completed"; removed: neither; both: both.
    let expectations: [(FillMode, before: Double?, after: Double?)] = [
      (.removed, nil, nil), (.forwards, nil, 1), (.backwards, 0, nil), (.both, 0, 1),
    ]
    for (mode, before, after) in expectations {
      let timing = MediaTiming(beginTime: 1, duration: 1, fillMode: mode)
      let rule = "fillMode \(mode.rawValue)"
      check([
        Row(rule: rule + " before the start", timing: timing, parentTime: 0, expected: before),
        Row(rule: rule + " during", timing: timing, parentTime: 1.5, expected: 0.5),
        Row(rule: rule + " after the end", timing: timing, parentTime: 3, expected: after),
      ])
    }
    XCTAssertEqual(FillMode.allCases.map(\.rawValue), ["removed", "forwards", "backwards", "both"])
  }

  func testDefaultDurationSubstitution() {
    let rule = "a duration of 0 means the default (0.25 s, or the transaction's)"
    let zero = MediaTiming()
    check([
      Row(rule: rule, timing: zero, parentTime: 0.125, expected: 0.125),
      Row(rule: rule, timing: zero, parentTime: 0.25, expected: nil),
      Row(rule: rule, timing: with(zero) { $0.fillMode = .forwards }, parentTime: 1, expected: 0.25),
      Row(rule: rule + " (a transaction's 0.5 s)", timing: zero, parentTime: 0.3, defaultDuration: 0.5, expected: 0.3),
      Row(
        rule: "an explicit duration ignores the default", timing: MediaTiming(duration: 2), parentTime: 1.5,
        defaultDuration: 0.5, expected: 1.5),
      Row(
        rule: "a zero default makes an instantaneous object", timing: zero, parentTime: 0, defaultDuration: 0,
        expected: nil),
      Row(
        rule: "a zero default makes an instantaneous object, filled", timing: with(zero) { $0.fillMode = .both },
        parentTime: 0, defaultDuration: 0, expected: 0),
    ])
    XCTAssertEqual(MediaTiming.defaultAnimationDuration, 0.25)
  }

  func testDefaultsMatchCoreAnimation() {
    // "Defaults to 0" for beginTime, duration, timeOffset, repeatCount, repeatDuration; speed
    // "Defaults to 1"; autoreverses "Defaults to NO"; fillMode "Defaults to `removed'".
    let t = MediaTiming()
    XCTAssertEqual(t.beginTime, 0)
    XCTAssertEqual(t.duration, 0)
    XCTAssertEqual(t.speed, 1)
    XCTAssertEqual(t.timeOffset, 0)
    XCTAssertEqual(t.repeatCount, 0)
    XCTAssertEqual(t.repeatDuration, 0)
    XCTAssertFalse(t.autoreverses)
    XCTAssertEqual(t.fillMode, .removed)
  }

  func testActiveDuration() {
    let rows: [(String, MediaTiming, Double)] = [
      ("one simple duration", MediaTiming(duration: 1), 1),
      ("autoreverses doubles a cycle", MediaTiming(duration: 1, autoreverses: true), 2),
      ("fractional repeats", MediaTiming(duration: 1, repeatCount: 2.5), 2.5),
      ("fractional autoreversing repeats", MediaTiming(duration: 1, repeatCount: 2.5, autoreverses: true), 5),
      ("repeatDuration", MediaTiming(duration: 1, repeatDuration: 3), 3),
      ("repeatCount 0 is one cycle", MediaTiming(duration: 2, repeatCount: 0), 2),
      ("default duration", MediaTiming(), 0.25),
      ("speed does not change the active duration (it is in local time)", MediaTiming(duration: 1, speed: 4), 1),
      ("forever", MediaTiming(duration: 1, repeatCount: .infinity), .infinity),
    ]
    for (rule, timing, expected) in rows {
      XCTAssertEqual(timing.activeDuration(defaultDuration: 0.25), expected, rule)
    }
  }

  func testActiveIntervalInParentTime() {
    func interval(_ t: MediaTiming) -> [Double] {
      let i = t.activeInterval(defaultDuration: 0.25)
      return [i.start, i.end]
    }
    XCTAssertEqual(interval(MediaTiming(beginTime: 1, duration: 1, speed: 2)), [1, 1.5], "A / speed of parent time")
    XCTAssertEqual(interval(MediaTiming(beginTime: 2, duration: 1, speed: -1)), [1, 2], "reversed: ends at beginTime")
    XCTAssertEqual(interval(MediaTiming(duration: 1, speed: 0)), [-.infinity, .infinity], "paused: always active")
    XCTAssertEqual(interval(MediaTiming(duration: 1, repeatCount: .infinity)), [0, .infinity], "forever")
  }

  func testLayerTime() {
    // CALayer.convertTime from the superlayer: t = (tp - begin) * speed + offset, with no
    // duration, so no repeat or fill.
    let rows: [(String, MediaTiming, Double, Double)] = [
      ("identity by default", MediaTiming(), 12.5, 12.5),
      ("begin, speed and offset", MediaTiming(beginTime: 2, speed: 2, timeOffset: 1), 3, 3),
      ("before its beginTime a layer's time is negative, not clamped", MediaTiming(beginTime: 2), 1, -1),
      ("speed 0 pauses at the offset", MediaTiming(speed: 0, timeOffset: 5), 100, 5),
      ("negative speed runs backwards", MediaTiming(speed: -1, timeOffset: 1), 0.25, 0.75),
      ("a duration does not wrap a layer's time", MediaTiming(duration: 1), 7.5, 7.5),
    ]
    for (rule, timing, parent, expected) in rows {
      XCTAssertEqual(timing.layerTime(parentTime: parent), expected, accuracy: 1e-12, rule)
    }
    // Time composes down the tree: a speed-2 layer inside a speed-1.5 layer runs 3× the root.
    let outer = MediaTiming(speed: 1.5)
    let inner = MediaTiming(speed: 2)
    XCTAssertEqual(inner.layerTime(parentTime: outer.layerTime(parentTime: 1)), 3, accuracy: 1e-12)
  }

  func testValidationNamesTheField() {
    let owner = "animation opacity"
    let rows: [(MediaTiming, TimingError)] = [
      (MediaTiming(beginTime: .nan), .nonFinite(owner: owner, field: "beginTime")),
      (MediaTiming(duration: .infinity), .nonFinite(owner: owner, field: "duration")),
      (MediaTiming(duration: -1), .negative(owner: owner, field: "duration", value: -1)),
      (MediaTiming(speed: .nan), .nonFinite(owner: owner, field: "speed")),
      (MediaTiming(speed: -.infinity), .nonFinite(owner: owner, field: "speed")),
      (MediaTiming(timeOffset: .infinity), .nonFinite(owner: owner, field: "timeOffset")),
      (MediaTiming(repeatCount: .nan), .nonFinite(owner: owner, field: "repeatCount")),
      (MediaTiming(repeatCount: -1), .negative(owner: owner, field: "repeatCount", value: -1)),
      (MediaTiming(repeatCount: -.infinity), .negative(owner: owner, field: "repeatCount", value: -.infinity)),
      (MediaTiming(repeatDuration: .infinity), .nonFinite(owner: owner, field: "repeatDuration")),
      (MediaTiming(repeatDuration: .nan), .nonFinite(owner: owner, field: "repeatDuration")),
      (MediaTiming(repeatDuration: -0.5), .negative(owner: owner, field: "repeatDuration", value: -0.5)),
    ]
    for (timing, expected) in rows {
      XCTAssertThrowsError(try timing.validate(owner), "\(timing)") { error in
        XCTAssertEqual(error as? TimingError, expected)
      }
    }
    // Allowed: negative begin, offset and speed; fractional and infinite repeatCount.
    let valid = [
      MediaTiming(beginTime: -3, speed: -2, timeOffset: -1),
      MediaTiming(repeatCount: 2.5),
      MediaTiming(repeatCount: .infinity),
      MediaTiming(duration: 0, repeatDuration: 0),
    ]
    for timing in valid { XCTAssertNoThrow(try timing.validate(owner), "\(timing)") }
    XCTAssertEqual(
      TimingError.negative(owner: owner, field: "duration", value: -1).description,
      "animation opacity: duration must not be negative (got -1.0)")
  }

  func testNonFiniteParentTimeHasNoEffect() {
    XCTAssertNil(MediaTiming(duration: 1, fillMode: .both).localTime(parentTime: .nan, defaultDuration: 0.25))
    XCTAssertNil(MediaTiming(duration: 1, fillMode: .both).localTime(parentTime: .infinity, defaultDuration: 0.25))
  }

  /// Seeded sweep over random configurations: invariants of the mapping.
  func testInvariantsOverRandomConfigurations() {
    var rng = SeededRandom(seed: 0x4C61_7965_724B_6974)
    for _ in 0..<2_000 {
      let timing = MediaTiming(
        beginTime: rng.double(in: -2...2), duration: rng.bool() ? 0 : rng.double(in: 0.05...3),
        speed: [-2, -1, -0.5, 0, 0.5, 1, 3][rng.int(7)], timeOffset: rng.bool() ? 0 : rng.double(in: -4...4),
        repeatCount: [0, 0.5, 1, 2, 2.5, 3.75, .infinity][rng.int(7)],
        repeatDuration: rng.int(4) == 0 ? rng.double(in: 0.1...5) : 0, autoreverses: rng.bool(),
        fillMode: FillMode.allCases[rng.int(4)])
      XCTAssertNoThrow(try timing.validate("sweep"))
      let d = timing.simpleDuration(defaultDuration: 0.25)
      let (start, end) = timing.activeInterval(defaultDuration: 0.25)
      for _ in 0..<20 {
        let t = rng.double(in: -10...10)
        let local = timing.localTime(parentTime: t, defaultDuration: 0.25)
        // Local time always lies in [0, d].
        if let local { XCTAssertTrue((0...d).contains(local), "\(local) outside [0, \(d)] for \(timing) at \(t)") }
        // Fill both is never removed; inside the active interval nothing is removed.
        if timing.fillMode == .both { XCTAssertNotNil(local, "\(timing) at \(t)") }
        if start < t && t < end { XCTAssertNotNil(local, "active \(timing) at \(t)") }
      }
      // Fill-mode boundary: a forwards fill holds the value the object reached at its end (the
      // left limit as parent time approaches the end of the active interval).
      if timing.speed != 0, start.isFinite, end.isFinite, end - start > 1e-3 {
        var filled = timing
        filled.fillMode = .both
        let justBefore = timing.speed > 0 ? end - 1e-9 : start + 1e-9
        let after = timing.speed > 0 ? end + 1 : start - 1
        let reached = filled.localTime(parentTime: justBefore, defaultDuration: 0.25)!
        let held = filled.localTime(parentTime: after, defaultDuration: 0.25)!
        XCTAssertEqual(held, reached, accuracy: 1e-6, "forwards fill of \(timing)")
        // And a backwards fill holds the first frame (the right limit at the start).
        let justAfterStart = timing.speed > 0 ? start + 1e-9 : end - 1e-9
        let beforeStart = timing.speed > 0 ? start - 1 : end + 1
        XCTAssertEqual(
          filled.localTime(parentTime: beforeStart, defaultDuration: 0.25)!,
          filled.localTime(parentTime: justAfterStart, defaultDuration: 0.25)!, accuracy: 1e-6,
          "backwards fill of \(timing)")
      }
    }
  }

  private func with(_ timing: MediaTiming, _ change: (inout MediaTiming) -> Void) -> MediaTiming {
    var copy = timing
    change(&copy)
    return copy
  }
}
