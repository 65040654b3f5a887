// LayerKitSamples — ready-made layer trees and test images for the command line's sample render,
// the benchmark and the test suites. Not part of the model a Core Animation porter imports.
import Foundation
import LayerKit

/// Ready-made layer trees: the CLI's sample render, the parity suites and the benchmarks use them,
/// so every one of those exercises the same scene. Pure functions of their arguments.
public enum SampleScene {
  /// A procedural test image: a soft diagonal gradient with a checker overlay and a dark frame, so
  /// orientation, scaling and filtering are all visible. Opaque.
  /// - Parameters:
  ///   - width: pixels across.
  ///   - height: pixels down.
  ///   - hue: 0…1, shifts the gradient's colours.
  public static func testImage(width: Int, height: Int, hue: Double = 0) throws -> Image {
    var bytes = [UInt8](repeating: 255, count: width * height * 4)
    let cell = max(1, min(width, height) / 8)
    for y in 0..<height {
      for x in 0..<width {
        let u = Double(x) / Double(max(width - 1, 1))
        let v = Double(y) / Double(max(height - 1, 1))
        var r = 0.5 + 0.5 * cos(2 * .pi * (u * 0.8 + hue))
        var g = 0.5 + 0.5 * cos(2 * .pi * (v * 0.8 + hue + 1 / 3))
        var b = 0.5 + 0.5 * cos(2 * .pi * ((u + v) * 0.4 + hue + 2 / 3))
        if ((x / cell) + (y / cell)) % 2 == 0 {
          r *= 0.8
          g *= 0.8
          b *= 0.8
        }
        if x < 2 || y < 2 || x >= width - 2 || y >= height - 2 { (r, g, b) = (0.1, 0.1, 0.12) }
        let i = (y * width + x) * 4
        bytes[i] = UInt8((r * 255).rounded())
        bytes[i + 1] = UInt8((g * 255).rounded())
        bytes[i + 2] = UInt8((b * 255).rounded())
      }
    }
    return try Image(width: width, height: height, pixels: bytes)
  }

  /// Ten layers in a width × height point space: a backdrop, a perspective stage holding three
  /// rounded, bordered image cards turned in 3D, a clipping panel with two sublayers, and a
  /// translucent badge holding a rotated icon (a group-opacity subtree).
  public static func cards(width: Double = 1920, height: Double = 1080) throws -> Layer {
    let s = min(width / 1920, height / 1080)
    let root = Layer(frame: Rect(x: 0, y: 0, width: width, height: height))
    root.name = "backdrop"
    root.backgroundColor = Color(red: 0.08, green: 0.09, blue: 0.12)

    let stage = Layer(frame: Rect(x: 0, y: 0, width: width, height: height * 0.7))
    stage.name = "stage"
    stage.sublayerTransform = .perspective(eyeDistance: 1200 * s)
    root.addSublayer(stage)

    let image = try testImage(width: 320, height: 200)
    let angles: [Double] = [35, 0, -35]
    for (i, angle) in angles.enumerated() {
      let card = Layer()
      card.name = "card\(i)"
      card.bounds = Rect(x: 0, y: 0, width: 480 * s, height: 300 * s)
      card.position = Point(x: width * (0.22 + 0.28 * Double(i)), y: height * 0.36)
      card.zPosition = i == 1 ? 40 * s : 0
      card.transform = Transform3D(rotationAngle: angle * .pi / 180, x: 0, y: 1, z: 0)
      card.contents = image
      card.contentsGravity = .resizeAspectFill
      card.masksToBounds = true
      card.cornerRadius = 24 * s
      card.borderWidth = 4 * s
      card.borderColor = Color(white: 1, alpha: 0.85)
      card.backgroundColor = .black
      stage.addSublayer(card)
    }

    let panel = Layer(frame: Rect(x: width * 0.1, y: height * 0.74, width: width * 0.5, height: height * 0.2))
    panel.name = "panel"
    panel.backgroundColor = Color(red: 0.16, green: 0.18, blue: 0.24)
    panel.cornerRadius = 28 * s
    panel.masksToBounds = true
    root.addSublayer(panel)
    let stripe = Layer(frame: Rect(x: -40 * s, y: 40 * s, width: width * 0.6, height: 60 * s))
    stripe.name = "stripe"
    stripe.backgroundColor = Color(red: 0.95, green: 0.55, blue: 0.2)
    stripe.transform = Transform3D(rotationAngle: -0.12, x: 0, y: 0, z: 1)
    panel.addSublayer(stripe)
    let dot = Layer(frame: Rect(x: width * 0.42, y: 30 * s, width: 140 * s, height: 140 * s))
    dot.name = "dot"
    dot.backgroundColor = Color(red: 0.3, green: 0.8, blue: 0.6)
    dot.cornerRadius = 70 * s
    panel.addSublayer(dot)

    let badge = Layer(frame: Rect(x: width * 0.66, y: height * 0.76, width: width * 0.26, height: height * 0.16))
    badge.name = "badge"
    badge.backgroundColor = Color(red: 0.35, green: 0.45, blue: 0.95)
    badge.cornerRadius = 20 * s
    badge.borderWidth = 6 * s
    badge.borderColor = .white
    badge.opacity = 0.75
    root.addSublayer(badge)
    let icon = Layer(frame: Rect(x: 30 * s, y: 30 * s, width: 112 * s, height: 112 * s))
    icon.name = "icon"
    icon.contents = try testImage(width: 64, height: 64, hue: 0.4)
    icon.cornerRadius = 16 * s
    icon.masksToBounds = true
    icon.transform = Transform3D(rotationAngle: 0.2, x: 0, y: 0, z: 1)
    badge.addSublayer(icon)
    return root
  }

  /// The `cards` scene with effects: the badge casts a 20-point (blue) shadow, the middle card is blurred
  /// by 10 points, and the panel is frosted glass over what lies behind (a 6-point background blur).
  public static func effects(width: Double = 1920, height: Double = 1080) throws -> Layer {
    let root = try cards(width: width, height: height)
    func find(_ name: String, in layer: Layer) -> Layer? {
      if layer.name == name { return layer }
      for sub in layer.sublayers ?? [] { if let l = find(name, in: sub) { return l } }
      return nil
    }
    if let badge = find("badge", in: root) {
      // A coloured shadow (a glow): black would vanish on the dark backdrop.
      badge.shadowColor = Color(red: 0.45, green: 0.55, blue: 1)
      badge.shadowOpacity = 0.8
      badge.shadowRadius = 20
      badge.shadowOffset = Size(width: 0, height: 12)
    }
    find("card1", in: root)?.filters = [.gaussianBlur(radius: 10)]
    find("panel", in: root)?.backgroundFilters = [.gaussianBlur(radius: 6)]
    return root
  }

  /// A dark root of `width × height` named `name`, and the grid of `count` cells over it: its
  /// columns (about as many per row as the aspect asks) and the size of one cell.
  static func grid(_ name: String, count: Int, width: Double, height: Double) -> (Layer, columns: Int, cell: Size) {
    let root = Layer(frame: Rect(x: 0, y: 0, width: width, height: height))
    root.name = name
    root.backgroundColor = Color(red: 0.06, green: 0.07, blue: 0.1)
    let columns = max(1, Int((Double(count) * width / height).squareRoot().rounded(.up)))
    let rows = (count + columns - 1) / columns
    return (root, columns, Size(width: width / Double(columns), height: height / Double(rows)))
  }

  /// `count` animated tiles on a grid over a dark backdrop, for the benchmark's layer-count
  /// workloads: each tile moves, turns and fades with its own basic animations (repeating,
  /// autoreversing), every fourth one shows an image; render `presentation(at:)` of the result.
  public static func animatedGrid(count: Int, width: Double = 1920, height: Double = 1080) throws -> Layer {
    let (root, columns, cell) = grid("grid", count: count, width: width, height: height)
    let image = try testImage(width: 64, height: 64, hue: 0.6)
    for i in 0..<count {
      let tile = Layer()
      tile.name = "tile\(i)"
      tile.bounds = Rect(x: 0, y: 0, width: cell.width * 0.7, height: cell.height * 0.7)
      tile.position = Point(x: cell.width * (Double(i % columns) + 0.5), y: cell.height * (Double(i / columns) + 0.5))
      tile.cornerRadius = min(cell.width, cell.height) * 0.12
      tile.backgroundColor = Color(red: 0.2 + 0.6 * Double(i % 7) / 6, green: 0.5, blue: 0.9 - 0.6 * Double(i % 5) / 4)
      if i % 4 == 0 {
        tile.contents = image
        tile.masksToBounds = true
      }
      let spin = BasicAnimation(keyPath: "transform.rotation.z")
      spin.fromValue = 0.0
      spin.toValue = Double.pi / 4
      let drift = BasicAnimation(keyPath: "position.x")
      drift.byValue = cell.width * 0.15
      let fade = BasicAnimation(keyPath: "opacity")
      fade.fromValue = 1.0
      fade.toValue = 0.55
      for (k, animation) in [spin, drift, fade].enumerated() {
        animation.duration = 1 + 0.1 * Double((i + k) % 5)
        animation.autoreverses = true
        animation.repeatCount = .infinity
        animation.beginTime = -0.05 * Double(i % 9)
        try tile.addChecked(animation, forKey: "a\(k)")
      }
      root.addSublayer(tile)
    }
    return root
  }

  /// `count` shape layers in a grid (the benchmark's shape workload): progress rings — a circle
  /// stroked 6 points wide, dashed on every other ring, round caps, whose `strokeEnd` runs 0 → 1
  /// and back, each ring at its own phase — over a faint filled disc.
  public static func animatedShapes(count: Int, width: Double = 1920, height: Double = 1080) throws -> Layer {
    let (root, columns, cell) = grid("shapes", count: count, width: width, height: height)
    let radius = min(cell.width, cell.height) * 0.38
    for i in 0..<count {
      let ring = ShapeLayer()
      ring.name = "ring\(i)"
      ring.bounds = Rect(x: 0, y: 0, width: 2 * radius, height: 2 * radius)
      ring.position = Point(x: cell.width * (Double(i % columns) + 0.5), y: cell.height * (Double(i / columns) + 0.5))
      var path = Path()
      path.addArc(
        center: Point(x: radius, y: radius), radius: radius - 4, startAngle: -.pi / 2, endAngle: 1.5 * .pi,
        clockwise: false)
      ring.pathValue = path
      ring.fillColor = Color(red: 1, green: 1, blue: 1, alpha: 0.08)
      ring.strokeColor = Color(red: 0.3 + 0.6 * Double(i % 7) / 6, green: 0.6, blue: 0.95 - 0.5 * Double(i % 5) / 4)
      ring.lineWidth = 6
      ring.lineCap = .round
      if i % 2 == 1 { ring.lineDashPattern = [10, 6] }
      let draw = BasicAnimation(keyPath: "strokeEnd")
      draw.fromValue = 0.0
      draw.toValue = 1.0
      draw.duration = 1 + 0.1 * Double(i % 5)
      draw.autoreverses = true
      draw.repeatCount = .infinity
      draw.beginTime = -0.07 * Double(i % 13)
      try ring.addChecked(draw, forKey: "draw")
      root.addSublayer(ring)
    }
    return root
  }

  /// `count` lines of text over the frame whose words change with `frame` (the benchmark's
  /// text workload: every line laid out anew each frame), in several sizes and colours.
  public static func textLines(count: Int, frame k: Int, width: Double = 1920, height: Double = 1080) -> Layer {
    let (root, _, _) = grid("text", count: 1, width: width, height: height)
    let lineHeight = height / Double(count)
    for i in 0..<count {
      let line = TextLayer()
      line.frame = Rect(x: width * 0.04, y: Double(i) * lineHeight, width: width * 0.92, height: lineHeight)
      line.string =
        "Line \(i + 1) · frame \(k) · \(String(format: "%.3f", Double(k) / 30)) s — the quick brown fox \(k % 7 == 0 ? "jumps" : "naps")"
      line.fontSize = lineHeight * (0.5 + 0.2 * Double(i % 3))
      line.foregroundColor = Color(red: 0.6 + 0.4 * Double(i % 2), green: 0.8, blue: 1 - 0.3 * Double(i % 3) / 2)
      line.alignmentMode = i % 2 == 0 ? .left : .right
      root.addSublayer(line)
    }
    return root
  }

  /// A fountain of about `particles` particles (EmitterLayer): one cell of soft dots leaving the
  /// bottom centre upwards, falling back, shrinking, fading and tinted at random — at 2 s and
  /// after, `particles` are alive (birth rate × lifetime).
  public static func fountain(particles: Int, width: Double = 1920, height: Double = 1080) throws -> Layer {
    let root = Layer(frame: Rect(x: 0, y: 0, width: width, height: height))
    root.backgroundColor = Color(red: 0.05, green: 0.06, blue: 0.1)
    let emitter = EmitterLayer()
    emitter.frame = root.bounds
    emitter.emitterPosition = Point(x: width / 2, y: height * 0.95)
    emitter.emitterShape = .line
    emitter.emitterSize = Size(width: width * 0.1, height: 0)
    let cell = EmitterCell()
    cell.contents = try testImage(width: 24, height: 24, hue: 0.55)
    cell.birthRate = Float(particles) / 2
    cell.lifetime = 2
    cell.velocity = height * 0.7
    cell.velocityRange = height * 0.2
    cell.emissionLongitude = -.pi / 2
    cell.emissionRange = .pi / 8
    cell.yAcceleration = height * 0.4
    cell.scaleSpeed = -0.3
    cell.spin = 2
    cell.spinRange = 3
    cell.alphaSpeed = -0.4
    cell.redRange = 0.3
    cell.greenRange = 0.3
    emitter.emitterCells = [cell]
    root.addSublayer(emitter)
    return root
  }
}
