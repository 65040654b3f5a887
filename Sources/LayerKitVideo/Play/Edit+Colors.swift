import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

extension Edit {
  /// A fill's picture (`fill-color`, `pause`) at `width`×`height`: its colour, or where it
  /// gives none, editly's rule: one drawn at random — here from LayerKit's own palette
  /// (`randomColors`) by the edit's `seed` and the layer's place, so the same file gives the
  /// same colour. Stretched over the frame as the clip's picture, a few pixels hold it (a
  /// frame-sized picture a clip made 100 000 colour clips take gigabytes).
  static func picture(_ layer: ColorLayer, width: Int, height: Int, at: String, seed: UInt64) throws -> LayerKit.Image {
    var random = SeededRandom(seed: seed ^ placeKey(at))
    let name = layer.color ?? randomColors[random.int(randomColors.count)]
    return try LayerKit.Image(width: min(width, 16), height: min(height, 16), color: try color(name, at: at + ".color"))
  }

  /// editly's gradients, moving as editly's do over the layer's span (p from 0 to 1): a linear
  /// one from the frame's top-left corner (`colors[0]`) to its bottom-right (`colors[1]`), solid
  /// beyond, turning 30° clockwise about the centre; a radial one from the centre out to
  /// 0.6 × the frame's longer side × (1 + p). Where the layer gives not exactly two colours,
  /// editly's rule: a pair drawn at random, from LayerKit's own palette (`randomPairs`) by the
  /// edit's `seed` and the layer's place.
  static func movingGradient(_ layer: ColorLayer, at: String, seed: UInt64) throws -> ClipLayer {
    var random = SeededRandom(seed: seed ^ placeKey(at))
    var names = layer.colors ?? []
    if names.count != 2 { names = randomPairs[random.int(randomPairs.count)] }
    let (a, b) = (try color(names[0], at: at + ".colors[0]"), try color(names[1], at: at + ".colors[1]"))
    let (start, stop) = try span(layer.start, layer.stop, at: at)
    let radial = layer.kind == .radial
    let (ca, cb) = (premultiplied(a), premultiplied(b))
    return ClipLayer(start: start, stop: stop) { local, span, w, h in
      let p = span > 0 ? min(max(local / span, 0), 1) : 0
      // Linear: from the top-left corner to the bottom-right, the direction turned 30° × p
      // clockwise (y down); radial: out to 0.6 × the longer side × (1 + p).
      let angle = p * 30 * .pi / 180
      let (dx, dy) = (w * cos(angle) - h * sin(angle), w * sin(angle) + h * cos(angle))
      let length2 = dx * dx + dy * dy
      let radius = 0.6 * max(w, h) * (1 + p)
      return try shaded(width: w, height: h) { x, y in
        let (u, v) = (x - w / 2, y - h / 2)
        let t = radial ? (u * u + v * v).squareRoot() / radius : (u * dx + v * dy) / length2 + 0.5
        return ca + (cb - ca) * min(max(t, 0), 1)
      }
    }
  }

  /// editly's `rainbow-colors` (its shader, drawn upright): red across, x × width / height
  /// (full from the height's width on), green up the frame, blue |sin p| over the span.
  static func rainbow(start: Double, stop: Double?) -> ClipLayer {
    ClipLayer(start: start, stop: stop) { local, span, w, h in
      let blue = abs(sin(span > 0 ? min(max(local / span, 0), 1) : 0))
      return try shaded(width: w, height: h) { x, y in SIMD4(min(1, x / h), 1 - y / h, blue, 1) }
    }
  }

  /// A frame-sized layer whose picture is `color` (premultiplied, in [0, 1]) at each pixel
  /// centre (x, y in the frame's pixels, y down), drawn at a quarter of a large frame's size
  /// and stretched: the pictures drawn so are smooth (a linear ramp stays linear under bilinear
  /// stretching), and a frame-sized gradient through the renderer took 115 ms a 1080p frame on
  /// the CPU, 210 on llvmpipe.
  static func shaded(
    width w: Double, height h: Double, _ color: (_ x: Double, _ y: Double) -> SIMD4<Double>
  ) throws -> LayerKit.Layer {
    let k = max(1, min(4, (min(w, h) / 90).rounded(.down)))
    let (gw, gh) = (max(2, Int((w / k).rounded(.up))), max(2, Int((h / k).rounded(.up))))
    var pixels = [UInt8](repeating: 0, count: gw * gh * 4)
    for j in 0..<gh {
      let y = (Double(j) + 0.5) * k
      for i in 0..<gw {
        let c = color((Double(i) + 0.5) * k, y)
        let o = (j * gw + i) * 4
        for n in 0..<4 { pixels[o + n] = UInt8((min(max(c[n], 0), 1) * 255).rounded()) }
      }
    }
    let root = LayerKit.Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    root.contents = try LayerKit.Image(width: gw, height: gh, pixels: pixels)
    root.contentsGravity = .resize
    return root
  }

  /// A colour as premultiplied components in [0, 1].
  static func premultiplied(_ c: Color) -> SIMD4<Double> {
    SIMD4(c.red * c.alpha, c.green * c.alpha, c.blue * c.alpha, c.alpha)
  }

  /// LayerKit's palette for editly's random colours: 20 hues 18° apart, saturation 0.6,
  /// lightness 0.5.
  static let randomColors: [String] = (0..<20).map { hsl(Double($0) * 18, 0.6, 0.5) }

  /// LayerKit's palette for editly's random gradients: 33 pairs, a hue and the one 45° on,
  /// the first darker.
  static let randomPairs: [[String]] = (0..<33).map { k in
    let h = Double(k) * 360 / 33
    return [hsl(h, 0.7, 0.35), hsl(h + 45, 0.7, 0.6)]
  }

  /// #RRGGBB of a hue (degrees), saturation and lightness.
  static func hsl(_ hue: Double, _ s: Double, _ l: Double) -> String {
    let c = (1 - abs(2 * l - 1)) * s
    let h = hue.truncatingRemainder(dividingBy: 360) / 60
    let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
    let (r, g, b): (Double, Double, Double) =
      switch Int(h) {
      case 0: (c, x, 0)
      case 1: (x, c, 0)
      case 2: (0, c, x)
      case 3: (0, x, c)
      case 4: (x, 0, c)
      default: (c, 0, x)
      }
    let m = l - c / 2
    let bytes = [r, g, b].map { Int(((($0 + m) * 255).rounded())) }
    return String(format: "#%02x%02x%02x", bytes[0], bytes[1], bytes[2])
  }

}
