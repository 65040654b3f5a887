import Foundation
import LayerKit

extension Edit {
  /// Where a title, a text or a picture sits: a name (editly's nine — top-left, top, top-right,
  /// center-left, center, center-right, bottom-left, bottom, bottom-right — and LayerKit's
  /// lower-third), or editly's point `{x, y, originX, originY}`: x and y fractions of the frame
  /// from its top-left corner, the origin the point of the thing laid there (left, center,
  /// right; top, center, bottom; left and top by default).
  public enum Position: Codable, Sendable, Equatable {
    case named(String)
    case point(Point)

    public struct Point: Codable, Sendable, Equatable {
      public var x: Double
      public var y: Double
      public var originX: String?
      public var originY: String?

      public init(x: Double, y: Double, originX: String? = nil, originY: String? = nil) {
        self.x = x
        self.y = y
        self.originX = originX
        self.originY = originY
      }
    }

    public init(from decoder: Decoder) throws {
      let c = try decoder.singleValueContainer()
      if let name = try? c.decode(String.self) {
        self = .named(name)
      } else {
        self = .point(try c.decode(Point.self))
      }
    }

    public func encode(to encoder: Encoder) throws {
      var c = encoder.singleValueContainer()
      switch self {
      case .named(let name): try c.encode(name)
      case .point(let p): try c.encode(p)
      }
    }

    /// The name, for a named position.
    public var name: String? {
      if case .named(let n) = self { n } else { nil }
    }
  }

  /// editly's text layers: `subtitle` (a line at the bottom, in a dark box), `news-title` (a
  /// band of `backgroundColor` sliding in, the text on it) and `slide-in-text` (text sliding in
  /// as it fades in, `fontSize`, `charSpacing`, `color`).
  public struct Caption: Codable, Sendable, Equatable {
    public enum Kind: String, Sendable {
      case subtitle, newsTitle = "news-title", slideInText = "slide-in-text"
    }
    public var kind = Kind.subtitle
    public var text: String
    public var textColor: String?
    /// slide-in-text's colour (editly's name for it there).
    public var color: String?
    /// news-title's band (#d02a42 by default).
    public var backgroundColor: String?
    public var position: Position?
    public var fontPath: String?
    public var fontFamily: String?
    /// A fraction of the frame's height (0.05), or pixels of the output when above 1.
    public var fontSize: Double?
    /// Extra space between letters, thousandths of the font's size (fabric's charSpacing).
    public var charSpacing: Double?
    public var start: Double?
    public var stop: Double?

    enum CodingKeys: String, CodingKey {
      case text, textColor, color, backgroundColor, position, fontPath, fontFamily, fontSize, charSpacing, start, stop
    }

    public init(_ kind: Kind, text: String) {
      self.kind = kind
      self.text = text
    }
  }

  /// editly's `gl` layer: a WebGL 1 fragment shader (GLSL ES 1.00) drawn over the frame, with
  /// the uniforms `resolution` (pixels) and `time` (0 to 1 over the layer's span, × `speed`).
  public struct ShaderLayer: Codable, Sendable, Equatable {
    public var fragmentPath: String
    public var vertexPath: String?
    public var speed: Double?
    public var start: Double?
    public var stop: Double?

    public init(fragmentPath: String) { self.fragmentPath = fragmentPath }
  }

  /// A number for a place in the edit (`clips[2].layers[0]`), FNV-1a of its text: the random
  /// choices of each place are its own, whatever else the edit holds.
  package static func placeKey(_ at: String) -> UInt64 {
    at.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
  }
}
