import LayerKit
import LayerKitMedia

extension Edit {
  /// A colour layer's picture at `width`×`height`: one colour (black by default), or a gradient
  /// between two (editly's defaults when unsaid: a dark blue into a light one).
  static func picture(_ layer: ColorLayer, width: Int, height: Int, at: String) throws -> LayerKit.Image {
    if layer.kind == .fill || layer.kind == .pause {
      // One colour, stretched over the frame as the clip's picture: a few pixels hold it (a
      // frame-sized picture a clip made 100 000 colour clips take gigabytes).
      return try LayerKit.Image(
        width: min(width, 16), height: min(height, 16), color: try color(layer.color ?? "black", at: at + ".color"))
    }
    let names = layer.colors ?? ["#02aab0", "#00cdac"]
    guard names.count == 2 else { throw VideoError.invalidEdit(at: at + ".colors", reason: "two colours") }
    let (a, b) = (try color(names[0], at: at + ".colors[0]"), try color(names[1], at: at + ".colors[1]"))
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    let (cx, cy) = (Double(width) / 2, Double(height) / 2)
    let reach = (cx * cx + cy * cy).squareRoot()
    for y in 0..<height {
      for x in 0..<width {
        let t: Double
        if layer.kind == .linear {
          t = height > 1 ? Double(y) / Double(height - 1) : 0
        } else {
          let (dx, dy) = (Double(x) + 0.5 - cx, Double(y) + 0.5 - cy)
          t = min(1, (dx * dx + dy * dy).squareRoot() / reach)
        }
        let o = (y * width + x) * 4
        for (c, (p, q)) in [(a.red, b.red), (a.green, b.green), (a.blue, b.blue)].enumerated() {
          pixels[o + c] = UInt8(max(0, min(255, ((p + (q - p) * t) * 255).rounded())))
        }
      }
    }
    return try LayerKit.Image(width: width, height: height, pixels: pixels)
  }
}
