import LayerKit
import LayerKitMedia
import LayerKitOutput

/// A picture laid over the whole video, above the items and their transitions (a logo, a
/// watermark, a corner badge): it stays where it is while everything under it changes, as
/// editly's image overlay layers do.
public struct ImageOverlay: Sendable {
  /// Where the picture sits: editly's nine positions.
  public enum Position: String, CaseIterable, Sendable {
    case topLeft = "top-left", top, topRight = "top-right"
    case centerLeft = "center-left", center, centerRight = "center-right"
    case bottomLeft = "bottom-left", bottom, bottomRight = "bottom-right"

    /// 0, 0.5 or 1 across and down.
    package var anchor: (x: Double, y: Double) {
      switch self {
      case .topLeft: (0, 0)
      case .top: (0.5, 0)
      case .topRight: (1, 0)
      case .centerLeft: (0, 0.5)
      case .center: (0.5, 0.5)
      case .centerRight: (1, 0.5)
      case .bottomLeft: (0, 1)
      case .bottom: (0.5, 1)
      case .bottomRight: (1, 1)
      }
    }
  }

  public var image: Image
  public var position: Position
  /// The picture's width, a fraction of the frame's width (its height keeps its aspect).
  public var width: Double
  /// The gap to the frame's edges it sits at, a fraction of the frame's shorter side.
  public var margin: Double
  public var opacity: Double
  /// When it shows, in seconds of the video: from `start` (included) to `end` (excluded; nil:
  /// to the end).
  public var start: Double
  public var end: Double?
  /// A clip shown instead of `image` (picture-in-picture): its frame at `clipStart` plus the
  /// seconds since the overlay came on, holding its last frame past its end; silent.
  public var clip: ClipInfo?
  public var clipStart: Double = 0
  /// A fraction of the frame's height, instead of the picture's aspect; with `width` 0, the
  /// width is the picture's aspect.
  public var height: Double?
  /// Where the picture sits instead of `position` and `margin`: a point of the frame (x, y,
  /// fractions of it) and the picture's own point laid there (fractions of its size).
  public var point: SIMD4<Double>?
  /// How the picture fills its box when `width` and `height` are both given.
  public var gravity = ContentsGravity.resize

  public init(
    image: Image, position: Position = .topRight, width: Double = 0.15, margin: Double = 0.03, opacity: Double = 1,
    start: Double = 0, end: Double? = nil
  ) {
    self.image = image
    self.position = position
    self.width = width
    self.margin = margin
    self.opacity = opacity
    self.start = start
    self.end = end
  }

  /// Whether it shows over the whole video (then frames at hand carry it: `PlanarOverlay`).
  /// A clip's never is: its frames change, so every frame it is on is drawn.
  public var isWhole: Bool { start <= 0 && end == nil && clip == nil }

  /// A clip overlay: `clip` from `clipStart` (`image` is a one-pixel stand-in; the clip's
  /// size gives the aspect).
  public static func clip(
    _ info: ClipInfo, clipStart: Double = 0, position: Position = .bottomRight, width: Double = 0.3,
    margin: Double = 0.03, opacity: Double = 1, start: Double = 0, end: Double? = nil
  ) throws -> ImageOverlay {
    var overlay = ImageOverlay(
      image: try Image(width: 1, height: 1, color: .clear), position: position,
      width: width, margin: margin, opacity: opacity, start: start, end: end)
    overlay.clip = info
    overlay.clipStart = clipStart
    return overlay
  }

  /// The clip's own time at `t` seconds of the video.
  func clipTime(at t: Double) -> Double { clipStart + max(0, t - start) }

  /// Whether it shows at `t` seconds of the video.
  public func shows(at t: Double) -> Bool { t >= start && (end.map { t < $0 } ?? true) }

  /// The overlay's layer over a frame `frameWidth`×`frameHeight` (a layer the size of the frame,
  /// transparent but for the picture).
  /// - Parameter shown: the picture shown (a clip overlay's frame), else `image`.
  func layer(frameWidth: Int, frameHeight: Int, showing shown: Image? = nil) -> Layer {
    let image = shown ?? image
    let (fw, fh) = (Double(frameWidth), Double(frameHeight))
    let aspect = clip.map { Double($0.height) / Double(max(1, $0.width)) } ?? Double(image.height) / Double(image.width)
    var w = fw * width
    var h = w * aspect
    if let height {
      h = fh * height
      if width == 0 { w = h / aspect }
    }
    let m = min(fw, fh) * margin
    let (ax, ay) = position.anchor
    var x = m + (fw - 2 * m - w) * ax
    var y = m + (fh - 2 * m - h) * ay
    if let point {
      x = point[0] * fw - point[2] * w
      y = point[1] * fh - point[3] * h
    }
    let root = Layer(frame: Rect(x: 0, y: 0, width: fw, height: fh))
    let picture = Layer(frame: Rect(x: x, y: y, width: w, height: h))
    picture.contents = image
    picture.contentsGravity = height != nil && width > 0 ? gravity : .resize
    picture.masksToBounds = true
    picture.opacity = opacity
    root.addSublayer(picture)
    return root
  }
}
