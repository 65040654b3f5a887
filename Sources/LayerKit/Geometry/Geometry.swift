// Geometry in Core Animation's terms, with the iOS convention: origin at the top left, y grows
// down, one point is one pixel unless a render scale says otherwise. Doubles, like CGFloat on
// 64-bit platforms; the RenderList narrows to Float once, where the backends need it.

/// A point in a layer's coordinate space.
public struct Point: Hashable, Sendable, CustomStringConvertible {
  public var x: Double
  public var y: Double

  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }

  public static let zero = Point(x: 0, y: 0)
  public var isFinite: Bool { x.isFinite && y.isFinite }
  public var description: String { "(\(x), \(y))" }
}

/// A width and a height.
public struct Size: Hashable, Sendable, CustomStringConvertible {
  public var width: Double
  public var height: Double

  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }

  public static let zero = Size(width: 0, height: 0)
  public var isFinite: Bool { width.isFinite && height.isFinite }
  public var description: String { "\(width)×\(height)" }
}

/// A rectangle: an origin and a size. Like CGRect, a negative size is allowed in the value but
/// rejected where a layer needs a real extent.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
  public var origin: Point
  public var size: Size

  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
  /// The unit rectangle, the default `contentsRect`.
  public static let unit = Rect(x: 0, y: 0, width: 1, height: 1)

  public var minX: Double { min(origin.x, origin.x + size.width) }
  public var minY: Double { min(origin.y, origin.y + size.height) }
  public var maxX: Double { max(origin.x, origin.x + size.width) }
  public var maxY: Double { max(origin.y, origin.y + size.height) }
  public var width: Double { abs(size.width) }
  public var height: Double { abs(size.height) }
  public var midX: Double { origin.x + size.width / 2 }
  public var midY: Double { origin.y + size.height / 2 }
  public var isFinite: Bool { origin.isFinite && size.isFinite }
  public var isEmpty: Bool { size.width == 0 || size.height == 0 }
  public var description: String { "(\(origin.x), \(origin.y), \(size.width), \(size.height))" }

  /// The rectangle moved inwards by `dx` on the left and right and `dy` on the top and bottom.
  public func insetBy(dx: Double, dy: Double) -> Rect {
    Rect(x: minX + dx, y: minY + dy, width: width - 2 * dx, height: height - 2 * dy)
  }
}
