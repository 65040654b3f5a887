import Foundation

/// A layer that fills its bounds with a gradient over its background (CAGradientLayer): `colors`
/// at `locations` (evenly spaced when nil), from `startPoint` to `endPoint` in the unit
/// coordinates of the bounds ((0, 0) the top left, y down, as on iOS), drawn as `type` says.
/// Colours are interpolated premultiplied, as stored (sRGB-encoded, no linearisation): the
/// space the two backends blend in (RenderMath.gradientColor). Rounded by `cornerRadius` and
/// `maskedCorners` like the background.
open class GradientLayer: Layer {
  /// CAGradientLayerType.
  public enum GradientType: String, CaseIterable, Sendable {
    case axial, radial, conic
  }

  /// The stops' colours; nil or empty draws no gradient.
  open var colors: [Color]? { didSet { didChange("colors", from: oldValue ?? [], to: colors ?? []) } }
  /// Each colour's place in [0, 1], ascending; nil spaces them evenly. `[NSNumber]`, as
  /// CAGradientLayer's (`[0, 0.5, 1]` and `[0, NSNumber(value: 0.5), 1]` alike).
  open var locations: [NSNumber]? {
    // Converted only for a presented layer: presentation copies set them every frame.
    didSet { if wasPresented { didChange("locations", from: Self.places(oldValue), to: Self.places(locations)) } }
  }

  /// `locations` as numbers (none for nil).
  static func places(_ locations: [NSNumber]?) -> [Double] { (locations ?? []).map(\.doubleValue) }
  /// Where the first stop sits (CA's default: the middle of the top edge).
  open var startPoint = Point(x: 0.5, y: 0) { didSet { didChange("startPoint", from: oldValue, to: startPoint) } }
  /// Where the last stop sits (CA's default: the middle of the bottom edge).
  open var endPoint = Point(x: 0.5, y: 1) { didSet { didChange("endPoint", from: oldValue, to: endPoint) } }
  open var type: GradientType = .axial

  override func copyModelValues(from o: Layer) {
    super.copyModelValues(from: o)
    guard let g = o as? GradientLayer else { return }
    (colors, locations, startPoint, endPoint, type) = (g.colors, g.locations, g.startPoint, g.endPoint, g.type)
  }

  /// The paint for the bounds, in their coordinates; nil without colours.
  var gradient: Gradient? {
    guard let colors, !colors.isEmpty else { return nil }
    let stops = Array(colors.prefix(Gradient.maxStops))
    let n = stops.count
    let given = Self.places(locations)
    var places = given.count == n ? given.map { min(max($0, 0), 1) } : []
    if places.isEmpty { places = (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 } }
    // Ascending, as Core Animation reads them: a location below the one before takes its place.
    for i in places.indices.dropFirst() where places[i] < places[i - 1] { places[i] = places[i - 1] }
    let b = bounds
    func local(_ p: Point) -> SIMD2<Float> {
      SIMD2(Float(b.origin.x + p.x * b.size.width), Float(b.origin.y + p.y * b.size.height))
    }
    let kind: Gradient.Kind = type == .axial ? .axial : type == .radial ? .radial : .conic
    return Gradient(
      kind: kind, start: local(startPoint), end: local(endPoint),
      colors: stops.map { $0.premultiplied }, locations: places.map(Float.init))
  }
}

extension Array: Animatable where Element: Animatable {
  /// Element by element between arrays of one length (colours and locations of a gradient); the
  /// second from the midpoint otherwise.
  public static func interpolate(_ from: [Element], _ to: [Element], _ t: Double) -> [Element] {
    guard from.count == to.count else { return t < 0.5 ? from : to }
    return zip(from, to).map { Element.interpolate($0, $1, t) }
  }
  public static func add(_ a: [Element], _ b: [Element]) -> [Element] {
    if b.isEmpty { return a }
    if a.isEmpty { return b }
    guard a.count == b.count else { return b }
    return zip(a, b).map { Element.add($0, $1) }
  }
  public static func scale(_ a: [Element], by k: Double) -> [Element] { a.map { Element.scale($0, by: k) } }
  public static var zero: [Element] { [] }
  /// An array of any forms its elements take (`[0, 0.5, 1]` for locations, NSNumbers, …).
  public static func converted(from value: any AnimationValue) -> [Element]? {
    if let a = value as? [Element] { return a }
    guard let items = value as? [any AnimationValue] else { return nil }
    var out: [Element] = []
    for item in items {
      guard let e = item as? Element ?? Element.converted(from: item) else { return nil }
      out.append(e)
    }
    return out
  }
  public func distance(to other: [Element]) -> Double {
    guard count == other.count else { return Double(Swift.max(count, other.count)) }
    return zip(self, other).map { $0.distance(to: $1) }.reduce(0, +)
  }
}
