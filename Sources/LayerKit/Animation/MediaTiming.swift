// Core Animation's hierarchical timing model (CAMediaTiming), as pure functions of a parent time.
//
// Layers and animations are both timed objects. Each maps its parent's time to its own in two
// stages, as CAMediaTiming.h describes them:
//   1. parent time → active time: where the object starts in the parent's timeline and how fast it
//      runs relative to it — (tp − beginTime) × speed;
//   2. active time → basic ("local") time: timeOffset, repeats, autoreverse, and fill outside the
//      active duration, giving a time in [0, duration] that an animation turns into progress.
// A layer has no duration, so it stops after stage 1 (plus timeOffset): `layerTime(parentTime:)`.
// Nothing here reads a clock; every function is a pure function of its arguments.

/// What a timed object shows outside its active duration (Core Animation's `fillMode`).
///
/// Core Animation's header: "Local time may be clamped to either end of the active duration, or
/// the element may be removed from the presentation." Backwards clamps times before the start to
/// the start; forwards clamps times after the end to the end.
public enum FillMode: String, Sendable, CaseIterable {
  /// Outside its active duration the object has no effect (the default).
  case removed
  /// After its active duration the object holds the value at the end of its last cycle.
  case forwards
  /// Before its active duration the object holds the value at its start.
  case backwards
  /// Both `forwards` and `backwards`.
  case both

  /// Whether active times before zero are clamped to zero.
  public var fillsBackwards: Bool { self == .backwards || self == .both }
  /// Whether active times past the active duration are clamped to its end.
  public var fillsForwards: Bool { self == .forwards || self == .both }
}

/// Why a timing value was refused. Each case names the object (`owner`) and the field, so a bad
/// value is reported where it enters, never mid-render.
public enum TimingError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The field is NaN or infinite where a finite number is required.
  case nonFinite(owner: String, field: String)
  /// The field is negative where only zero or more is allowed.
  case negative(owner: String, field: String, value: Double)
  /// The field lies outside `range` (a timing function's control-point x outside [0, 1]).
  case outOfRange(owner: String, field: String, value: Double, range: ClosedRange<Double>)
  /// A timing-function name Core Animation does not have.
  case unknownName(String)

  public var description: String {
    switch self {
    case .nonFinite(let o, let f): "\(o): \(f) must be a finite number"
    case .negative(let o, let f, let v): "\(o): \(f) must not be negative (got \(v))"
    case .outOfRange(let o, let f, let v, let r):
      "\(o): \(f) must lie in [\(r.lowerBound), \(r.upperBound)] (got \(v))"
    case .unknownName(let n):
      "MediaTimingFunction: no function is named \"\(n)\" (linear, easeIn, easeOut, easeInEaseOut, default); the default is used"
    }
  }
}

/// The timing of a layer or an animation: Core Animation's `CAMediaTiming` properties, with the
/// same defaults, and the mapping from a parent's time to this object's time.
///
/// All times are in seconds. The mapping follows the documented rules:
/// - `beginTime` and `speed` place the object in its parent's timeline: the active time is
///   `(parentTime − beginTime) × speed` (CAMediaTiming.h: "t = (tp - begin) * speed + offset").
/// - The active duration is `repeatDuration` if set, else `repeatCount` cycles (0 means one; it
///   may be fractional, and `.infinity` or `Float.greatestFiniteMagnitude` repeats forever), a
///   cycle being the simple duration, doubled when `autoreverses`.
/// - `timeOffset` shifts where inside the active duration the object is, wrapping around, and a
///   speed of 0 freezes it there (see `localTime(parentTime:defaultDuration:)`).
/// - `fillMode` decides what happens outside the active duration.
public struct MediaTiming: Hashable, Sendable {
  /// Core Animation's implicit duration: an animation whose `duration` is 0 lasts this long,
  /// unless a transaction says otherwise.
  public static let defaultAnimationDuration = 0.25

  /// When the object starts, in its parent's time. Default 0.
  public var beginTime: Double
  /// The simple duration of one pass, in local time; 0 means "the default duration" (an
  /// animation's 0.25 s or its transaction's). Default 0.
  public var duration: Double
  /// How fast local time runs relative to the parent's: 2 is twice as fast, 0 is paused at
  /// `timeOffset`, negative runs backwards. Default 1.
  public var speed: Double
  /// An offset in active local time: where in its active duration the object is when its own
  /// clock reads 0 (with `speed` 0, the frozen position). Default 0.
  public var timeOffset: Double
  /// How many times the simple duration (or the forward-and-back pair with `autoreverses`)
  /// plays. May be fractional; 0 means once; `.infinity` repeats forever. Default 0.
  public var repeatCount: Double
  /// How long, in local time, the object repeats for; 0 means "use `repeatCount`". Takes
  /// precedence over `repeatCount` (Core Animation leaves setting both undefined). Default 0.
  public var repeatDuration: Double
  /// Whether each cycle plays forwards and then backwards. Default false.
  public var autoreverses: Bool
  /// What the object shows outside its active duration. Default `.removed`.
  public var fillMode: FillMode

  /// Creates a timing; every argument defaults to Core Animation's default.
  /// - Parameters:
  ///   - beginTime: start, in the parent's time.
  ///   - duration: simple duration; 0 means the default duration.
  ///   - speed: local time rate relative to the parent.
  ///   - timeOffset: offset in active local time.
  ///   - repeatCount: number of cycles; 0 means one, `.infinity` forever.
  ///   - repeatDuration: total repeating time; 0 means use `repeatCount`.
  ///   - autoreverses: whether each cycle plays forwards then backwards.
  ///   - fillMode: behaviour outside the active duration.
  public init(
    beginTime: Double = 0, duration: Double = 0, speed: Double = 1, timeOffset: Double = 0,
    repeatCount: Double = 0, repeatDuration: Double = 0, autoreverses: Bool = false,
    fillMode: FillMode = .removed
  ) {
    self.beginTime = beginTime
    self.duration = duration
    self.speed = speed
    self.timeOffset = timeOffset
    self.repeatCount = repeatCount
    self.repeatDuration = repeatDuration
    self.autoreverses = autoreverses
    self.fillMode = fillMode
  }

  /// Checks every field, in declaration order, and throws for the first bad one.
  ///
  /// `beginTime`, `duration`, `speed`, `timeOffset` and `repeatDuration` must be finite;
  /// `duration`, `repeatCount` and `repeatDuration` must not be negative. `repeatCount` may be
  /// `.infinity` (Core Animation's HUGE_VALF, "repeat forever") but not NaN.
  /// - Parameter owner: names the timed object in the error, e.g. `"animation position.x"`.
  /// - Throws: `TimingError.nonFinite` or `TimingError.negative`, naming `owner` and the field.
  public func validate(_ owner: String) throws(TimingError) {
    let finite: [(String, Double)] = [
      ("beginTime", beginTime), ("duration", duration), ("speed", speed), ("timeOffset", timeOffset),
    ]
    for (field, value) in finite where !value.isFinite {
      throw .nonFinite(owner: owner, field: field)
    }
    if duration < 0 { throw .negative(owner: owner, field: "duration", value: duration) }
    if repeatCount.isNaN { throw .nonFinite(owner: owner, field: "repeatCount") }
    if repeatCount < 0 { throw .negative(owner: owner, field: "repeatCount", value: repeatCount) }
    if !repeatDuration.isFinite { throw .nonFinite(owner: owner, field: "repeatDuration") }
    if repeatDuration < 0 {
      throw .negative(owner: owner, field: "repeatDuration", value: repeatDuration)
    }
  }

  /// Whether `repeatCount` means "forever": `.infinity`, or at least `Float.greatestFiniteMagnitude`,
  /// the value Apple's documentation names for repeating forever.
  public var repeatsForever: Bool { repeatCount >= Double(Float.greatestFiniteMagnitude) }

  /// The simple duration d: `duration`, or `defaultDuration` when `duration` is 0.
  /// - Parameter defaultDuration: the duration to use when `duration` is 0.
  public func simpleDuration(defaultDuration: Double) -> Double {
    duration > 0 ? duration : defaultDuration
  }

  /// The length of the active duration, in local (active) time, not scaled by `speed`.
  ///
  /// One cycle is the simple duration d, or 2d when `autoreverses` ("the object plays backwards
  /// after playing forwards"). The total is `repeatDuration` when it is above 0; otherwise
  /// `repeatCount` cycles, where 0 means one cycle ("If the repeatCount is 0, it is ignored") and
  /// a fraction plays part of the last cycle; infinite when `repeatsForever`. A simple duration of
  /// 0 or less (a zero default) makes an instantaneous object: 0.
  /// - Parameter defaultDuration: the duration to use when `duration` is 0.
  public func activeDuration(defaultDuration: Double) -> Double {
    let d = simpleDuration(defaultDuration: defaultDuration)
    guard d > 0 else { return 0 }
    if repeatDuration > 0 { return repeatDuration }
    if repeatsForever { return .infinity }
    return (autoreverses ? 2 * d : d) * (repeatCount > 0 ? repeatCount : 1)
  }

  /// The parent times during which the object is active, as the parent's clock runs forward:
  /// `start ≤ parentTime < end` for a positive speed, `start < parentTime ≤ end` for a negative
  /// one (where the active time runs from the end down to 0), everything for a speed of 0.
  ///
  /// `end` is when the object finishes (when a delegate would hear "did stop"); it is infinite
  /// for an object that repeats forever or is paused.
  /// - Parameter defaultDuration: the duration to use when `duration` is 0.
  public func activeInterval(defaultDuration: Double) -> (start: Double, end: Double) {
    let active = activeDuration(defaultDuration: defaultDuration)
    if speed > 0 { return (beginTime, beginTime + active / speed) }
    if speed < 0 { return (beginTime + active / speed, beginTime) }
    return (-.infinity, .infinity)
  }

  /// The object's local (basic) time in [0, d] at `parentTime`, or nil where it has no effect
  /// (outside its active duration with no fill on that side).
  ///
  /// The rules, in order:
  /// 1. Active time: `a = (parentTime − beginTime) × speed` (CAMediaTiming.h: "to convert from
  ///    parent time tp to active local time t: t = (tp - begin) * speed + offset"). The active
  ///    duration A is `activeDuration(defaultDuration:)`; the object is active for 0 ≤ a < A.
  /// 2. Fill: `a < 0` is before the start — clamped to 0 when `fillMode` fills backwards ("clamps
  ///    values before zero to zero"), so it shows the first frame; else nil. `a ≥ A` is after the
  ///    end — clamped to A when `fillMode` fills forwards, else nil; the held value is the one the
  ///    object reached as `a` rose to A (the left limit of steps 3–5), so it is the end of the
  ///    last, possibly partial or reversed, cycle, shifted by any timeOffset. A is open at the end:
  ///    a removed animation is gone at exactly its end time.
  /// 3. timeOffset: `x = a + timeOffset`, wrapped into the active duration when it falls outside
  ///    [0, A] (modulo A). The offset moves the position, not the active interval: Core
  ///    Animation's timeOffset makes an animation start part-way, play to the end, jump back to
  ///    the beginning and play the part it skipped within the same active duration ("as if we cut
  ///    away the first second of the animation and moved it to the end", Rönnqvist's
  ///    "Controlling Animation Timing"), which is why the range test in step 1 leaves it out. An
  ///    unwrapped `x` in [0, A] is kept, so a paused animation (`speed` 0) scrubbed with
  ///    `timeOffset` from 0 to A reaches the end. With an infinite A there is nothing to wrap; the
  ///    repeat folding below absorbs the offset.
  /// 4. Repeat: `x` folds modulo the cycle (d, or 2d with `autoreverses`) into [0, cycle); a
  ///    fractional repeatCount or a repeatDuration that is not a whole number of cycles simply ends
  ///    part-way through the last cycle. At exactly A (a forwards fill, or a paused object at the
  ///    end), the position is the end of the last, possibly partial, cycle, never the start of a
  ///    cycle that does not play: repeatCount 2.5 holds 0.5·d, repeatCount 2 holds d.
  /// 5. Autoreverse: the second half of a cycle runs backwards, `2d − r`, so a cycle goes 0 → d → 0
  ///    ("When true, the object plays backwards after playing forwards"); repeatCount 1.75 with
  ///    autoreverses ends, and forwards-fills, at 0.5·d on the way back.
  ///
  /// Consequences worth knowing:
  /// - speed 0: `a` is 0 at every parent time, so the object shows `timeOffset` (wrapped as in
  ///   step 3) forever — Core Animation's documented way to pause ("setting `speed' to zero and
  ///   `offset' to a suitable value"). It is never before or after its active duration.
  /// - Negative speed: the formula is applied as written, so local time runs backwards: the object
  ///   plays from the end of its active duration down to 0 during parent times
  ///   `beginTime − A/|speed| < t ≤ beginTime`; later parent times are before its start (a < 0:
  ///   backwards fill shows the start, else nil) and earlier ones are after its end (forwards fill
  ///   shows the end). This is what Core Animation does: a reversed animation added with
  ///   `beginTime` "now" and no offset "will be finished immediately". To play one backwards from
  ///   now, set `beginTime` to now + A/|speed|, or reverse its parent layer or group, whose
  ///   `layerTime` then runs down through the animation's active duration.
  /// - Parameters:
  ///   - parentTime: the time in the parent's time space (a layer's local time, a group's).
  ///   - defaultDuration: the duration to use when `duration` is 0.
  /// - Returns: local time in [0, d], or nil where the object has no effect or `parentTime` is
  ///   not finite.
  public func localTime(parentTime: Double, defaultDuration: Double) -> Double? {
    let active = activeDuration(defaultDuration: defaultDuration)
    let a = (parentTime - beginTime) * speed
    guard parentTime.isFinite, !a.isNaN else { return nil }
    if a < 0 {
      return fillMode.fillsBackwards ? basicTime(activeTime: 0, active: active, defaultDuration: defaultDuration) : nil
    }
    if a >= active {
      return fillMode.fillsForwards ? endTime(active: active, defaultDuration: defaultDuration) : nil
    }
    return basicTime(activeTime: a, active: active, defaultDuration: defaultDuration)
  }

  /// The local time of a layer, which is a timed object with no duration: Core Animation's
  /// `CALayer.convertTime(_:from:)` from its superlayer, `(parentTime − beginTime) × speed +
  /// timeOffset`. No repeat, reverse or fill: a layer is always present.
  /// - Parameter parentTime: the time in the superlayer's time space (the scene's, for a root).
  public func layerTime(parentTime: Double) -> Double {
    (parentTime - beginTime) * speed + timeOffset
  }

  // MARK: - Steps 3–5

  /// Steps 3 to 5 for an active time inside [0, A).
  private func basicTime(activeTime a: Double, active: Double, defaultDuration: Double) -> Double {
    var x = a + timeOffset
    if active.isFinite, x < 0 || x > active {
      x -= active * (x / active).rounded(.down)
      // Rounding can land on A itself; a wrapped position is the start of the active duration.
      if x >= active { x = 0 }
    }
    // An unwrapped position of exactly A (a paused object scrubbed to its end) is the end.
    return fold(x, leftLimit: active.isFinite && x >= active, defaultDuration: defaultDuration)
  }

  /// Steps 3 to 5 at the end of the active duration: the left limit as the active time reaches A.
  /// The offset position wraps into (0, A] and folds into (0, cycle], so that "the end" of the
  /// active duration or of a cycle is never read as the start of the next one.
  private func endTime(active: Double, defaultDuration: Double) -> Double {
    guard active > 0 else { return 0 }
    var x = active + timeOffset
    if x <= 0 || x > active {
      x -= active * ((x / active).rounded(.up) - 1)
      if x <= 0 { x = active }
    }
    return fold(x, leftLimit: true, defaultDuration: defaultDuration)
  }

  /// Steps 4 and 5 for a position x in the active duration: folds it into one cycle, then mirrors
  /// the reversed half. With `leftLimit`, a position on a cycle boundary is the end of the cycle
  /// before it (used at the end of the active duration); otherwise the start of the next.
  private func fold(_ x: Double, leftLimit: Bool, defaultDuration: Double) -> Double {
    let d = simpleDuration(defaultDuration: defaultDuration)
    guard d > 0 else { return 0 }
    let cycle = autoreverses ? 2 * d : d
    let q = x / cycle
    var r: Double
    if leftLimit, x > 0 {
      // x − (cycles begun − 1) × cycle, in (0, cycle]. A quotient that is a whole number up to
      // rounding error is snapped, so that the end of repeatCount 3 of a 0.1 s animation is 0.1,
      // not a hair past the start.
      let whole = q.rounded()
      r = whole >= 1 && abs(q - whole) <= 1e-9 * q ? cycle : x - (q.rounded(.up) - 1) * cycle
    } else {
      r = x - cycle * q.rounded(.down)
    }
    r = min(max(r, 0), cycle)
    if autoreverses, r > d { r = cycle - r }
    return min(max(r, 0), d)
  }
}
