/// Which corners `cornerRadius` rounds (CACornerMask): min-x min-y is the top left (y grows
/// down), as on iOS. The raw values are Core Animation's.
public struct CornerMask: OptionSet, Hashable, Sendable {
  public let rawValue: UInt
  public init(rawValue: UInt) { self.rawValue = rawValue }

  public static let layerMinXMinYCorner = CornerMask(rawValue: 1)
  public static let layerMaxXMinYCorner = CornerMask(rawValue: 2)
  public static let layerMinXMaxYCorner = CornerMask(rawValue: 4)
  public static let layerMaxXMaxYCorner = CornerMask(rawValue: 8)
  /// Every corner: a layer's default.
  public static let all: CornerMask = [
    .layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner,
  ]

  /// The corners by the names scene files use, in Core Animation's order.
  public static let names: [(String, CornerMask)] = [
    ("minXMinY", .layerMinXMinYCorner), ("maxXMinY", .layerMaxXMinYCorner), ("minXMaxY", .layerMinXMaxYCorner),
    ("maxXMaxY", .layerMaxXMaxYCorner),
  ]
}

/// Which edges are antialiased (CAEdgeAntialiasingMask), by Core Animation's raw values. Kept on
/// the layer; LayerKit antialiases every edge, which is also what makes the backends agree.
public struct EdgeAntialiasingMask: OptionSet, Hashable, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  public static let layerLeftEdge = EdgeAntialiasingMask(rawValue: 1)
  public static let layerRightEdge = EdgeAntialiasingMask(rawValue: 2)
  public static let layerBottomEdge = EdgeAntialiasingMask(rawValue: 4)
  public static let layerTopEdge = EdgeAntialiasingMask(rawValue: 8)
}

/// How a rounded corner bends (CALayerCornerCurve): a quarter circle, or continuously — the
/// curvature rising from the straight edge instead of jumping to 1 / radius, as iOS draws app
/// icons and buttons (RoundedRect.continuous: a superellipse over 1.528 radii of each edge).
public enum CornerCurve: String, CaseIterable, Hashable, Sendable {
  case circular, continuous
}

extension Layer {
  /// The bits of RoundedRect.corners for this layer's rounded shapes: `maskedCorners`, and
  /// whether the corners are continuous.
  var cornerBits: UInt8 {
    UInt8(maskedCorners.rawValue & 0xF) | (cornerCurve == .continuous ? RoundedRect.continuous : 0)
  }
}
