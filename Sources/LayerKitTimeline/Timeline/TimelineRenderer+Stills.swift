import LayerKit
import LayerKitMedia
import LayerKitOutput

/// Stills decoded once per item, reduced once for a Ken Burns move, and fitted once by
/// contain-blur.
extension TimelineRenderer {
  /// Item i's still, decoded on first use (sharing the pixels, and so the GPU texture, of
  /// another item on screen that shows the same file and is fitted the same way; a still given
  /// in memory is its own). A contain-blur still is its fitted picture, drawn once
  /// (`containBlurred`).
  func stillImage(item i: Int, _ still: Still) throws -> Image {
    if let image = stills[i] { return image }
    var image: Image
    if timeline.items[i].motion != nil {
      // Reduced once (area averaging) to the size that covers the picture area at the move's
      // smallest scale: the move then only magnifies it, so nothing shimmers.
      image = try still.load()
      let (w, h) = (Double(timeline.pictureWidth), Double(timeline.pictureHeight))
      let scale = max(w / Double(image.width), h / Double(image.height))
      if scale < 1 {
        image = image.areaScaled(
          width: min(image.width, Int((Double(image.width) * scale).rounded(.up))),
          height: min(image.height, Int((Double(image.height) * scale).rounded(.up))))
      }
    } else if !still.isFile {
      image = try still.load()
    } else {
      image =
        try stills.first {
          guard case .image(let other) = timeline.items[$0.key].source else { return false }
          return other.isFile && other.path == still.path && timeline.items[$0.key].motion == nil
            && timeline.fit(ofItem: $0.key) == timeline.fit(ofItem: i)
        }?.value ?? still.load()
    }
    if timeline.fit(ofItem: i) == .containBlur { image = try containBlurred(image) }
    stills[i] = image
    return image
  }

  /// A contain-blur still as the picture area shows it at rest — its blurred bars (made once,
  /// `Fit.bars`) and the picture fitted over them — drawn once by the renderer, at the area's
  /// size. Every frame then draws this one picture (moved by Ken Burns as the whole was: the
  /// picture and its bars move together), or takes it as it is: the same frame as the layers
  /// drawn each time, at rest; a move magnifies the picture drawn once (as it magnifies a
  /// still reduced once) instead of drawing the layers magnified. A picture of the area's aspect
  /// has no bars and is kept as it is.
  func containBlurred(_ image: Image) throws -> Image {
    let (w, h) = (timeline.pictureWidth, timeline.pictureHeight)
    guard Fit.bars(image, width: Double(w), height: Double(h)) != nil else { return image }
    let list = try RenderList(layer: timeline.picture(image, fit: .containBlur), width: w, height: h)
    return try renderer.render(list)
  }
}

extension Image {
  /// Whether every pixel's alpha is 255.
  var isOpaque: Bool {
    pixels.withUnsafeBufferPointer { p in
      var i = 3
      while i < p.count {
        if p[i] != 255 { return false }
        i += 4
      }
      return true
    }
  }
}
