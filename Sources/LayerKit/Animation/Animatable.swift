import Foundation

/// A value an animation can drive: it knows how to interpolate between two values, how to add one
/// value to another (for `byValue`, additive and cumulative animations) and how far apart two
/// values are (for paced keyframes). Key paths resolve to typed accessors of `Animatable` values
/// once, when an animation is added; nothing casts `Any` per frame.
///
/// The operations follow Core Animation's documented behaviour:
/// - `interpolate` is evaluated with the *eased* progress, which overshooting timing functions and
///   springs push outside [0, 1]; conformers extrapolate there and never clamp. Where a value needs
///   a bound (a colour component, an opacity) the renderer clamps once, when it draws.
/// - `add(a, b)` is "the value specified by the animation is added to the current render tree
///   value" (`CAPropertyAnimation.isAdditive`): `a` is the underlying value, `b` the value added.
///   Scalars, points, sizes, rects and colours add component-wise; transforms concatenate (see
///   `Transform3D.add(_:_:)`), so `add` is not commutative in general.
/// - `scale(a, by: k)` is `a` added to itself `k` times (for a whole `k`), which is what
///   `isCumulative` needs: repeat `n` starts from the previous cycles' accumulated value.
/// - `zero` is the identity of `add`: `add(a, .zero) == a == add(.zero, a)`.
/// - `distance(to:)` is the Euclidean distance in the value's components, the metric a paced
///   keyframe animation (`calculationMode` paced / cubicPaced) keeps at constant speed.
///
/// `Image` (layer `contents`) animates as Core Animation animates contents, a crossfade: at
/// progress `p` the presented contents is the dissolve `(1 − p)·from + p·to` of the two
/// premultiplied images (Image+Animatable.swift), with `p` clamped to [0, 1] (an image cannot
/// overshoot). At `p == 0` it is exactly `from`, at `p == 1` exactly `to`; a discrete keyframe
/// animation of contents switches images without a crossfade.
public protocol Animatable: AnimationValue, Equatable {
  /// The value at eased progress `t` between `from` (`t == 0`) and `to` (`t == 1`).
  /// - Parameters:
  ///   - from: The value at `t == 0`.
  ///   - to: The value at `t == 1`.
  ///   - t: The progress; outside [0, 1] the result extrapolates along the same path.
  static func interpolate(_ from: Self, _ to: Self, _ t: Double) -> Self

  /// `b` added on top of `a`: `a` is the underlying (model or accumulated) value, `b` the value
  /// the animation contributes.
  /// - Parameters:
  ///   - a: The underlying value.
  ///   - b: The value added to it.
  static func add(_ a: Self, _ b: Self) -> Self

  /// `a` accumulated `k` times: `k · a` for component values, `a` composed with itself `k` times
  /// for transforms. `scale(a, by: 0) == zero` and `scale(a, by: 1) == a`.
  /// - Parameters:
  ///   - a: The value to accumulate.
  ///   - k: How many times (a repeat index for cumulative animations).
  static func scale(_ a: Self, by k: Double) -> Self

  /// The identity of `add`.
  static var zero: Self { get }

  /// The Euclidean distance to `other` in the value's components (non-negative, symmetric, zero
  /// between equal values).
  /// - Parameter other: The value to measure to.
  func distance(to other: Self) -> Double

  /// This type's value for a value written in another form (`AnimationValue`), or nil when it
  /// has none. By default only a value of this type itself.
  static func converted(from value: any AnimationValue) -> Self?
}

extension Animatable {
  public static func converted(from value: any AnimationValue) -> Self? { value as? Self }
}

// MARK: - Scalars

extension Double: Animatable {
  /// Any number: `NSNumber`, `Int`, `Float`, `CGFloat`, or a one-element array of them.
  public static func converted(from value: any AnimationValue) -> Double? {
    AnimationValues.numbers(value).flatMap { $0.count == 1 ? $0[0] : nil }
  }
  /// `(1 − t)·from + t·to`: unlike `from + (to − from)·t`, exact at both ends in floating point.
  public static func interpolate(_ from: Double, _ to: Double, _ t: Double) -> Double {
    (1 - t) * from + t * to
  }
  public static func add(_ a: Double, _ b: Double) -> Double { a + b }
  public static func scale(_ a: Double, by k: Double) -> Double { a * k }
  public func distance(to other: Double) -> Double { abs(other - self) }
}

// MARK: - Geometry

extension Point: Animatable {
  /// `CGPoint`, two numbers (`[0, 0]`, the CABasicAnimation reference's own form), `SIMD2`.
  public static func converted(from value: any AnimationValue) -> Point? {
    AnimationValues.numbers(value).flatMap { $0.count == 2 ? Point(x: $0[0], y: $0[1]) : nil }
  }
  /// Component-wise in x and y.
  public static func interpolate(_ from: Point, _ to: Point, _ t: Double) -> Point {
    Point(x: Double.interpolate(from.x, to.x, t), y: Double.interpolate(from.y, to.y, t))
  }
  public static func add(_ a: Point, _ b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
  public static func scale(_ a: Point, by k: Double) -> Point { Point(x: a.x * k, y: a.y * k) }
  public func distance(to other: Point) -> Double { hypot(other.x - x, other.y - y) }
}

extension Size: Animatable {
  /// `CGSize`, two numbers, `SIMD2`.
  public static func converted(from value: any AnimationValue) -> Size? {
    AnimationValues.numbers(value).flatMap { $0.count == 2 ? Size(width: $0[0], height: $0[1]) : nil }
  }
  /// Component-wise in width and height; a size may pass through zero and negative values.
  public static func interpolate(_ from: Size, _ to: Size, _ t: Double) -> Size {
    Size(width: Double.interpolate(from.width, to.width, t), height: Double.interpolate(from.height, to.height, t))
  }
  public static func add(_ a: Size, _ b: Size) -> Size {
    Size(width: a.width + b.width, height: a.height + b.height)
  }
  public static func scale(_ a: Size, by k: Double) -> Size {
    Size(width: a.width * k, height: a.height * k)
  }
  public func distance(to other: Size) -> Double { hypot(other.width - width, other.height - height) }
}

extension Rect: Animatable {
  /// `CGRect`, four numbers (x, y, width, height).
  public static func converted(from value: any AnimationValue) -> Rect? {
    AnimationValues.numbers(value).flatMap {
      $0.count == 4 ? Rect(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) : nil
    }
  }
  /// Origin and size component-wise (as Core Animation animates `bounds`), not corner by corner:
  /// the two agree for positive sizes, and this way a negative size stays as stored.
  public static func interpolate(_ from: Rect, _ to: Rect, _ t: Double) -> Rect {
    Rect(origin: .interpolate(from.origin, to.origin, t), size: .interpolate(from.size, to.size, t))
  }
  public static func add(_ a: Rect, _ b: Rect) -> Rect {
    Rect(origin: .add(a.origin, b.origin), size: .add(a.size, b.size))
  }
  public static func scale(_ a: Rect, by k: Double) -> Rect {
    Rect(origin: .scale(a.origin, by: k), size: .scale(a.size, by: k))
  }
  /// Euclidean in (x, y, width, height).
  public func distance(to other: Rect) -> Double {
    let d = SIMD4(
      other.origin.x - origin.x, other.origin.y - origin.y, other.size.width - size.width,
      other.size.height - size.height)
    return (d * d).sum().squareRoot()
  }
}

// MARK: - Colour

extension Color: Animatable {
  /// The additive identity: all four components zero (the same value as `clear`).
  public static let zero = Color(red: 0, green: 0, blue: 0, alpha: 0)

  /// Component-wise in red, green, blue and alpha, straight (not premultiplied) and sRGB-encoded
  /// as stored, as Core Animation interpolates a CGColor's components. So red → clear passes
  /// through a dark, half-transparent red, as it does in Core Animation. Components may leave
  /// [0, 1] when `t` does; the renderer clamps when it premultiplies.
  public static func interpolate(_ from: Color, _ to: Color, _ t: Double) -> Color {
    Color(
      red: Double.interpolate(from.red, to.red, t), green: Double.interpolate(from.green, to.green, t),
      blue: Double.interpolate(from.blue, to.blue, t), alpha: Double.interpolate(from.alpha, to.alpha, t))
  }
  /// Component-wise, unclamped.
  public static func add(_ a: Color, _ b: Color) -> Color {
    Color(red: a.red + b.red, green: a.green + b.green, blue: a.blue + b.blue, alpha: a.alpha + b.alpha)
  }
  public static func scale(_ a: Color, by k: Double) -> Color {
    Color(red: a.red * k, green: a.green * k, blue: a.blue * k, alpha: a.alpha * k)
  }
  /// Euclidean in (red, green, blue, alpha).
  public func distance(to other: Color) -> Double {
    let d = SIMD4(other.red - red, other.green - green, other.blue - blue, other.alpha - alpha)
    return (d * d).sum().squareRoot()
  }
}

// MARK: - Vectors

extension SIMD2: Animatable where Scalar == Double {
  /// Two numbers, or a point.
  public static func converted(from value: any AnimationValue) -> Self? {
    AnimationValues.numbers(value).flatMap { $0.count == 2 ? SIMD2($0[0], $0[1]) : nil }
  }
  public static func interpolate(_ from: Self, _ to: Self, _ t: Double) -> Self { (1 - t) * from + t * to }
  public static func add(_ a: Self, _ b: Self) -> Self { a + b }
  public static func scale(_ a: Self, by k: Double) -> Self { a * k }
  public func distance(to other: Self) -> Double { ((other - self) * (other - self)).sum().squareRoot() }
}

extension SIMD3: Animatable where Scalar == Double {
  public static func interpolate(_ from: Self, _ to: Self, _ t: Double) -> Self { (1 - t) * from + t * to }
  public static func add(_ a: Self, _ b: Self) -> Self { a + b }
  public static func scale(_ a: Self, by k: Double) -> Self { a * k }
  public func distance(to other: Self) -> Double { ((other - self) * (other - self)).sum().squareRoot() }
}

extension SIMD4: Animatable where Scalar == Double {
  public static func interpolate(_ from: Self, _ to: Self, _ t: Double) -> Self { (1 - t) * from + t * to }
  public static func add(_ a: Self, _ b: Self) -> Self { a + b }
  public static func scale(_ a: Self, by k: Double) -> Self { a * k }
  public func distance(to other: Self) -> Double { ((other - self) * (other - self)).sum().squareRoot() }
}

// MARK: - Optional values

/// An optional animatable value (such as `Layer.backgroundColor`) animates with `nil` standing for
/// `Wrapped.zero`, as Core Animation treats a nil CGColor as transparent black (so `nil` and
/// `.some(.zero)` are equivalent values, though not `==`). Interpolating between two `nil`s gives
/// `nil`; the ends are returned exactly as given (`nil` at `t == 0` when `from` is `nil`);
/// everywhere else the result is a value.
extension Optional: Animatable where Wrapped: Animatable {
  /// The wrapped type's conversions.
  public static func converted(from value: any AnimationValue) -> Wrapped?? {
    if let v = value as? Wrapped? { return .some(v) }
    return Wrapped.converted(from: value).map { .some($0) }
  }
  public static func interpolate(_ from: Wrapped?, _ to: Wrapped?, _ t: Double) -> Wrapped? {
    if from == nil && to == nil { return nil }
    if t == 0 { return from }
    if t == 1 { return to }
    return Wrapped.interpolate(from ?? Wrapped.zero, to ?? Wrapped.zero, t)
  }
  public static func add(_ a: Wrapped?, _ b: Wrapped?) -> Wrapped? {
    guard let b else { return a }
    guard let a else { return b }
    return Wrapped.add(a, b)
  }
  public static func scale(_ a: Wrapped?, by k: Double) -> Wrapped? {
    a.map { Wrapped.scale($0, by: k) }
  }
  /// `Wrapped.zero`, not `nil`: `nil` acts as zero too, but this way `optionalValue == .zero`
  /// keeps meaning `.some(.zero)`, as it did before this conformance existed.
  public static var zero: Wrapped? { .some(Wrapped.zero) }
  public func distance(to other: Wrapped?) -> Double {
    (self ?? Wrapped.zero).distance(to: other ?? Wrapped.zero)
  }
}

// MARK: - The forms Core Animation code writes

/// A value given to `fromValue`, `toValue`, `byValue` or `values`: an `Animatable` value of the
/// key path's type, or one of the forms Core Animation code writes for it — `NSNumber`, `Int`,
/// `Float`, `CGFloat` for numbers; `CGPoint`, `CGSize`, `CGRect`; an array of numbers (`[0, 0]`
/// for a point, as the CABasicAnimation reference writes it); `SIMD2` for a point or a size.
/// `Layer.add(_:forKey:)` converts it to the key path's type once (`Animatable.converted(from:)`)
/// and throws `AnimationError.wrongValueType` for a form that has no such value.
public protocol AnimationValue: Sendable {}

extension Int: AnimationValue {}
extension Float: AnimationValue {}
extension CGFloat: AnimationValue {}
extension CGPoint: AnimationValue {}
extension CGSize: AnimationValue {}
extension CGRect: AnimationValue {}
extension NSValue: AnimationValue {}
extension Array: AnimationValue where Element: AnimationValue {}
extension SIMD2: AnimationValue where Scalar: BinaryFloatingPoint {}
extension SIMD3: AnimationValue where Scalar == Double {}
extension SIMD4: AnimationValue where Scalar == Double {}
extension Optional: AnimationValue where Wrapped: AnimationValue {}

/// What the forms of `AnimationValue` stand for.
public enum AnimationValues {
  /// The numbers a value stands for, in order (a number, a point's x and y, a rect's x, y, width
  /// and height, an array's elements), or nil when it is not made of numbers.
  public static func numbers(_ value: any AnimationValue) -> [Double]? {
    switch value {
    case let v as Double: return [v]
    case let v as Int: return [Double(v)]
    case let v as Float: return [Double(v)]
    case let v as CGFloat: return [Double(v)]
    // Bool is bridged to NSNumber on some platforms: a number is what is meant here.
    case let v as NSNumber: return [v.doubleValue]
    case let v as NSValue: return v.boxedNumbers
    case let v as CGPoint: return [Double(v.x), Double(v.y)]
    case let v as CGSize: return [Double(v.width), Double(v.height)]
    case let v as CGRect: return [Double(v.origin.x), Double(v.origin.y), Double(v.size.width), Double(v.size.height)]
    case let v as SIMD2<Double>: return [v.x, v.y]
    case let v as SIMD2<Float>: return [Double(v.x), Double(v.y)]
    case let v as [any AnimationValue]:
      var out: [Double] = []
      for element in v {
        guard let n = numbers(element), n.count == 1 else { return nil }
        out.append(n[0])
      }
      return out
    default: return nil
    }
  }
}

// MARK: - Core Graphics' and Float numbers, for custom properties (`@Managed var p: CGFloat`)

/// A floating-point type that animates as its value in `Double` does.
public protocol AnimatableThroughDouble: Animatable, BinaryFloatingPoint {}

extension AnimatableThroughDouble {
  public static func converted(from value: any AnimationValue) -> Self? {
    Double.converted(from: value).map { Self($0) }
  }
  public static func interpolate(_ from: Self, _ to: Self, _ t: Double) -> Self {
    Self(Double.interpolate(Double(from), Double(to), t))
  }
  public static func add(_ a: Self, _ b: Self) -> Self { a + b }
  public static func scale(_ a: Self, by k: Double) -> Self { a * Self(k) }
  public func distance(to other: Self) -> Double { Swift.abs(Double(other) - Double(self)) }
}

extension CGFloat: AnimatableThroughDouble {}
extension Float: AnimatableThroughDouble {}
