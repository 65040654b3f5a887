import LayerKit
import LayerKitMedia
import LayerKitOutput

/// Stills decoded once per item, and reduced once for a Ken Burns move.
extension TimelineRenderer {
  /// Item i's still, decoded on first use (sharing the pixels, and so the GPU texture, of
  /// another item on screen that shows the same file; a still given in memory is its own).
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
        }?.value ?? still.load()
    }
    stills[i] = image
    return image
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
