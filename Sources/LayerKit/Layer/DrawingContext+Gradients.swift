import Foundation

// Core Graphics' gradient calls as Core Graphics code writes them: `CGGradient(colorsSpace:
// colors:locations:)`, `drawLinearGradient(_:start:end:options:)` and
// `drawRadialGradient(_:startCenter:startRadius:endCenter:endRadius:options:)`, where the options
// say whether the end colours carry on before the start and after the end. What is not to be
// painted is clipped away, so a gradient is still one GradientLayer.

#if os(Linux)
  /// Core Graphics' gradient: LayerKit's `DrawingContext.Gradient`.
  public typealias CGGradient = DrawingContext.Gradient
  /// CGGradientDrawingOptions.
  public typealias CGGradientDrawingOptions = DrawingContext.GradientDrawingOptions
  /// Core Graphics' colour space: LayerKit's `ColorSpace` (sRGB).
  public typealias CGColorSpace = ColorSpace

  /// CGColorSpaceCreateDeviceRGB(): LayerKit draws in sRGB, so device RGB is sRGB.
  public func CGColorSpaceCreateDeviceRGB() -> ColorSpace { ColorSpace.srgb }
#endif

/// The colour space colours are given in. LayerKit draws in sRGB throughout (colours stored as
/// given, blended premultiplied), so every RGB space Core Graphics code names is sRGB here.
public struct ColorSpace: Sendable, Equatable {
  public let name: String

  /// CGColorSpace.sRGB, the name.
  public static let sRGB = "kCGColorSpaceSRGB"
  /// CGColorSpace.genericRGBLinear and the other RGB names are taken as sRGB too.
  static let srgb = ColorSpace(uncheckedName: ColorSpace.sRGB)

  /// CGColorSpace(name:): an RGB space by name (sRGB, device, generic, display P3 …, all drawn
  /// as sRGB); nil for a grey or CMYK space, which LayerKit does not draw in.
  public init?(name: String) {
    let lower = name.lowercased()
    guard !lower.contains("gray"), !lower.contains("grey"), !lower.contains("cmyk") else { return nil }
    self.name = name
  }

  private init(uncheckedName: String) { name = uncheckedName }
}

extension DrawingContext.Gradient {
  /// CGGradient(colorsSpace:colors:locations:): nil without colours, or with a location count
  /// that is not the colour count (Core Graphics reads as many locations as colours).
  public init?(colorsSpace: ColorSpace?, colors: [Color], locations: [CGFloat]?) {
    guard !colors.isEmpty, locations.map({ $0.count == colors.count }) ?? true else { return nil }
    self.init(colors: colors, locations: locations?.map { Double($0) })
  }

  /// Each stop's location, spaced evenly when none were given.
  var stops: [Double] {
    locations ?? colors.indices.map { colors.count == 1 ? 0 : Double($0) / Double(colors.count - 1) }
  }
}

extension DrawingContext {
  /// CGGradientDrawingOptions: whether the start colour carries on before the start, and the
  /// end colour after the end. Without them, nothing is painted there.
  public struct GradientDrawingOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let drawsBeforeStartLocation = GradientDrawingOptions(rawValue: 1)
    public static let drawsAfterEndLocation = GradientDrawingOptions(rawValue: 2)
  }

  /// CGContext.drawLinearGradient(_:start:end:options:): the clip area painted along the axis
  /// from `start` to `end` (user space), past them only as `options` say. The current path is
  /// kept.
  public func drawLinearGradient(_ gradient: Gradient, start: Point, end: Point, options: GradientDrawingOptions) {
    let length = hypot(end.x - start.x, end.y - start.y)
    guard length > 0, let reach = reach(from: start) else { return }
    if options.contains([.drawsBeforeStartLocation, .drawsAfterEndLocation]) {
      return drawLinearGradient(gradient, start: start, end: end)
    }
    // The band painted: along the axis from `from` to `to` (fractions of it), as wide as the drawing.
    let (ux, uy) = ((end.x - start.x) / length, (end.y - start.y) / length)
    let from = options.contains(.drawsBeforeStartLocation) ? -reach : 0
    let to = options.contains(.drawsAfterEndLocation) ? length + reach : length
    func at(_ along: Double, _ across: Double) -> Point {
      Point(x: start.x + ux * along - uy * across, y: start.y + uy * along + ux * across)
    }
    var band = Path()
    band.addLines(between: [at(from, -reach), at(to, -reach), at(to, reach), at(from, reach)])
    band.closeSubpath()
    clipped(to: [band], rule: .nonZero) { drawLinearGradient(gradient, start: start, end: end) }
  }

  /// CGContext.drawRadialGradient(_:startCenter:startRadius:endCenter:endRadius:options:): the
  /// clip area painted in circles from `startRadius` out to `endRadius` (user space), inside
  /// the start circle and outside the end circle only as `options` say. Circles about one
  /// centre are drawn exactly; **differently**, two centres are drawn about the end circle's.
  public func drawRadialGradient(
    _ gradient: Gradient, startCenter: Point, startRadius: Double, endCenter: Point, endRadius: Double,
    options: GradientDrawingOptions
  ) {
    let r0 = max(0, startRadius)
    guard endRadius > r0, let reach = reach(from: endCenter) else { return }
    // Stops moved onto the radius from the centre: location 0 at r0, 1 at the end radius.
    let stops = gradient.stops.map { (r0 + $0 * (endRadius - r0)) / endRadius }
    let spread = Gradient(colors: gradient.colors, locations: stops)
    func circle(_ r: Double) -> Path {
      Path(ellipseIn: Rect(x: endCenter.x - r, y: endCenter.y - r, width: 2 * r, height: 2 * r))
    }
    var rings: [Path] = []
    if !options.contains(.drawsAfterEndLocation) { rings.append(circle(endRadius)) }
    if !options.contains(.drawsBeforeStartLocation), r0 > 0 {
      if rings.isEmpty {
        rings.append(
          Path(rect: Rect(x: endCenter.x - reach, y: endCenter.y - reach, width: 2 * reach, height: 2 * reach)))
      }
      rings.append(circle(r0))
    }
    clipped(to: rings, rule: .evenOdd) { drawRadialGradient(spread, center: endCenter, radius: endRadius) }
  }

  /// Runs `draw` clipped to `paths` (user space, filled by `rule`; no clip when empty), keeping
  /// the current path and the graphics state as they were.
  private func clipped(to paths: [Path], rule: FillRule, _ draw: () -> Void) {
    guard !paths.isEmpty else { return draw() }
    let current = currentPath
    saveGState()
    beginPath()
    for p in paths { addPath(p) }
    clip(using: rule)
    draw()
    restoreGState()
    currentPath = current
  }
}
