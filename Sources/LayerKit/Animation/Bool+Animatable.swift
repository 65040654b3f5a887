/// Boolean properties (hidden, masksToBounds, doubleSided) step instead of interpolating: the
/// value is `from` before the middle of the progress and `to` from the middle on, as discrete
/// values do in CSS animations (Core Animation does not document the switch point).
extension Bool: Animatable {
  public static func interpolate(_ from: Bool, _ to: Bool, _ t: Double) -> Bool { t < 0.5 ? from : to }
  /// A later value replaces an earlier one.
  public static func add(_ a: Bool, _ b: Bool) -> Bool { b }
  public static func scale(_ a: Bool, by k: Double) -> Bool { a }
  public static var zero: Bool { false }
  public func distance(to other: Bool) -> Double { self == other ? 0 : 1 }
}
