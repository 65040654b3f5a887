import LayerKit

/// How a picture of another aspect fills the frame.
public enum Fit: String, Sendable, CaseIterable {
  case cover, contain, stretch
  /// `contain` over a blurred copy of the same picture stretched to the area, which fills the
  /// bars (editly's `contain-blur`).
  case containBlur = "contain-blur"

  package var gravity: ContentsGravity {
    switch self {
    case .cover: .resizeAspectFill
    case .contain, .containBlur: .resizeAspect
    case .stretch: .resize
    }
  }

  /// The blur of `contain-blur`'s bars, as a Gaussian's σ in points, for an area
  /// `width`×`height`: editly's box blur of radius ⌊min(100, longer side / 10)⌋ (one pass,
  /// (2r + 1)² pixels) has σ = √(((2r + 1)² − 1) / 12) ≈ 0.58 r; at least 1.
  static func barBlur(width: Double, height: Double) -> Double {
    let r = min(100, max(width, height) / 10).rounded(.down)
    return max(1, (((2 * r + 1) * (2 * r + 1) - 1) / 12).squareRoot())
  }

  /// The bars of `contain-blur` for `image` in an area `width`×`height` (nil where the picture
  /// fills it): the picture stretched over the area, and over it the same stretched and
  /// blurred. The blurred copy is made once (`BlurredBars`: a still's frames reuse it, and its
  /// cost does not grow with the blur) and both backends only draw it. It reads transparency
  /// outside the area, so within a few σ of the edge it thins out and the sharp copy under it
  /// keeps the bars opaque, as editly's blur, which clamps at the edges, is.
  /// The sharp copy is drawn only where the blurred one is not opaque (strips along the edges:
  /// elsewhere it would be hidden), so a clip's frame draws the area about one and a half times,
  /// not twice, for its bars.
  /// - Parameters:
  ///   - once: false for the long way, the blur a filter of the copy that the backends run every
  ///     frame (for tests that hold the copy made once to it).
  ///   - wholeSharpCopy: the sharp copy drawn over the whole area, for tests that hold the
  ///     strips to it.
  package static func bars(
    _ image: Image, width w: Double, height h: Double, once: Bool = true, wholeSharpCopy: Bool = false
  ) -> Layer? {
    guard w > 0, h > 0, abs(Double(image.width) / Double(image.height) - w / h) > 1e-3 else { return nil }
    let area = Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    area.masksToBounds = true
    let whole = Rect(x: 0, y: 0, width: w, height: h)
    /// The sharp copy, seen through `window` (a rectangle of the area).
    func sharp(_ window: Rect) -> Layer {
      let copy = Layer(frame: Rect(x: -window.origin.x, y: -window.origin.y, width: w, height: h))
      copy.contents = image
      copy.contentsGravity = .resize
      copy.masksToBounds = true
      guard window != whole else { return copy }
      let clip = Layer(frame: window)
      clip.masksToBounds = true
      clip.addSublayer(copy)
      return clip
    }
    let sigma = barBlur(width: w, height: h)
    guard once else {
      area.addSublayer(sharp(whole))
      let copy = Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
      copy.contents = image
      copy.contentsGravity = .resize
      copy.masksToBounds = true
      copy.filters = [.gaussianBlur(radius: sigma)]
      area.addSublayer(copy)
      return area
    }
    let made = BlurredBars.made(image, width: w, height: h, sigma: sigma)
    if let o = made.opaque, !wholeSharpCopy {
      let strips = [
        Rect(x: 0, y: 0, width: w, height: o.minY), Rect(x: 0, y: o.maxY, width: w, height: h - o.maxY),
        Rect(x: 0, y: o.minY, width: o.minX, height: o.height),
        Rect(x: o.maxX, y: o.minY, width: w - o.maxX, height: o.height),
      ]
      for strip in strips where strip.width > 0 && strip.height > 0 { area.addSublayer(sharp(strip)) }
    } else {
      area.addSublayer(sharp(whole))
    }
    // The grid reaches a cell past the area: a layer of the area's bounds clips it (the area's
    // own clip is lifted when a Ken Burns move carries it).
    let clip = Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    clip.masksToBounds = true
    let blurred = Layer(
      frame: Rect(x: -made.cell.x, y: -made.cell.y, width: w + 2 * made.cell.x, height: h + 2 * made.cell.y))
    blurred.contents = made.image
    blurred.contentsGravity = .resize
    clip.addSublayer(blurred)
    area.addSublayer(clip)
    return area
  }
}
