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
