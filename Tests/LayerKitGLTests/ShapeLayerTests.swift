import Foundation
import LayerKit
import LayerKitReference
import LayerKitTesting
import XCTest

/// ShapeLayer (CAShapeLayer): coverage against closed forms, the stroke's rules (trim, dashes,
/// caps, joins, miter limit), extremes, and every property on both backends.
final class ShapeLayerTests: ParityTestCase {
  private func render(_ layer: Layer, _ w: Int, _ h: Int) throws -> Image {
    try ReferenceRenderer(threadCount: 1).render(try RenderList(layer: layer, width: w, height: h))
  }

  private func alpha(_ image: Image, _ x: Int, _ y: Int) -> Int { Int(image.pixels[(y * image.width + x) * 4 + 3]) }

  private func shape(_ path: Path, stroke: Color? = .white, fill: Color? = nil, width: Double = 1) -> ShapeLayer {
    let s = ShapeLayer()
    s.pathValue = path
    s.strokeColor = stroke
    s.fillColor = fill
    s.lineWidth = width
    return s
  }

  /// A ring (circle of radius 30 stroked 6 wide): each pixel's alpha is the area of the annulus
  /// inside it (integrated on a 32 × 32 grid per pixel) within 6 levels, and the whole alpha is
  /// the annulus's area, π((R + w/2)² − (R − w/2)²), within 0.3 %.
  func testAStrokedCircleIsItsClosedForm() throws {
    let (cx, cy, r, w) = (40.0, 40.0, 30.0, 6.0)
    let layer = shape(Path(ellipseIn: Rect(x: cx - r, y: cy - r, width: 2 * r, height: 2 * r)), width: w)
    let out = try render(layer, 80, 80)
    var total = 0.0
    var worst = 0
    for y in 0..<80 {
      for x in 0..<80 {
        var inside = 0
        for j in 0..<32 {
          for i in 0..<32 {
            let d = hypot(Double(x) + (Double(i) + 0.5) / 32 - cx, Double(y) + (Double(j) + 0.5) / 32 - cy)
            if abs(d - r) <= w / 2 { inside += 1 }
          }
        }
        let expected = Int((Double(inside) / 1024 * 255).rounded())
        worst = max(worst, abs(alpha(out, x, y) - expected))
        total += Double(alpha(out, x, y)) / 255
      }
    }
    // The bound: a 0.02-pixel flatness (5 levels on a near-horizontal edge) and the 16
    // scanlines, measured against an expectation that is itself a 32 × 32 grid.
    XCTAssertLessThanOrEqual(worst, 6, "largest per-pixel difference from the annulus's area")
    let area = Double.pi * ((r + w / 2) * (r + w / 2) - (r - w / 2) * (r - w / 2))
    XCTAssertEqual(total, area, accuracy: area * 0.003)
  }

  /// A filled rectangle on whole pixels is opaque inside and untouched outside; at half pixels its
  /// edges are half covered.
  func testAFilledRectangleCoversItsPixels() throws {
    let layer = shape(Path(rect: Rect(x: 2.5, y: 2, width: 5, height: 4)), stroke: nil, fill: .red)
    let out = try render(layer, 10, 8)
    XCTAssertEqual(alpha(out, 4, 3), 255)
    XCTAssertEqual(alpha(out, 2, 3), 128)
    XCTAssertEqual(alpha(out, 7, 3), 128)
    XCTAssertEqual(alpha(out, 1, 3), 0)
    XCTAssertEqual(alpha(out, 4, 1), 0)
    XCTAssertEqual(alpha(out, 4, 6), 0)
    XCTAssertEqual(Array(out.pixels[(3 * 10 + 4) * 4..<(3 * 10 + 4) * 4 + 3]), [255, 0, 0])
  }

  /// Even-odd leaves the overlap of two squares empty; non-zero fills it.
  func testFillRules() throws {
    var path = Path(rect: Rect(x: 0, y: 0, width: 6, height: 6))
    path.addRect(Rect(x: 3, y: 3, width: 6, height: 6))
    let layer = shape(path, stroke: nil, fill: .white)
    XCTAssertEqual(alpha(try render(layer, 10, 10), 4, 4), 255)
    layer.fillRule = .evenOdd
    let out = try render(layer, 10, 10)
    XCTAssertEqual(alpha(out, 4, 4), 0)
    XCTAssertEqual(alpha(out, 1, 1), 255)
    XCTAssertEqual(alpha(out, 7, 7), 255)
  }

  /// strokeEnd 0.5 of a 100-long line strokes its first 50; strokeStart > strokeEnd draws nothing.
  func testStrokeStartAndEndTrimTheWholePath() throws {
    var path = Path()
    path.move(to: Point(x: 0, y: 5))
    path.addLine(to: Point(x: 100, y: 5))
    let layer = shape(path, width: 4)
    layer.strokeEnd = 0.5
    var out = try render(layer, 100, 10)
    XCTAssertEqual(alpha(out, 49, 5), 255)
    XCTAssertEqual(alpha(out, 50, 5), 0)
    layer.strokeStart = 0.25
    layer.strokeEnd = 0.75
    out = try render(layer, 100, 10)
    XCTAssertEqual(alpha(out, 24, 5), 0)
    XCTAssertEqual(alpha(out, 25, 5), 255)
    XCTAssertEqual(alpha(out, 74, 5), 255)
    XCTAssertEqual(alpha(out, 75, 5), 0)
    layer.strokeStart = 0.8
    XCTAssertEqual(try render(layer, 100, 10).pixels.allSatisfy { $0 == 0 }, true)
    // Across two subpaths: strokeEnd 0.75 of two 100-long lines ends halfway along the second.
    path.move(to: Point(x: 0, y: 15))
    path.addLine(to: Point(x: 100, y: 15))
    layer.pathValue = path
    layer.strokeStart = 0
    out = try render(layer, 100, 20)
    XCTAssertEqual(alpha(out, 99, 5), 255)
    XCTAssertEqual(alpha(out, 49, 15), 255)
    XCTAssertEqual(alpha(out, 50, 15), 0)
  }

  /// Dashes [10, 5] from the start, shifted by the phase; they stay in place as strokeEnd moves.
  func testDashesAndPhase() throws {
    var path = Path()
    path.move(to: Point(x: 0, y: 5))
    path.addLine(to: Point(x: 60, y: 5))
    let layer = shape(path, width: 4)
    layer.lineDashPattern = [10, 5]
    var out = try render(layer, 60, 10)
    XCTAssertEqual((0..<60).map { alpha(out, $0, 5) > 127 ? 1 : 0 }, (0..<60).map { $0 % 15 < 10 ? 1 : 0 })
    layer.lineDashPhase = 3
    out = try render(layer, 60, 10)
    XCTAssertEqual((0..<60).map { alpha(out, $0, 5) > 127 ? 1 : 0 }, (0..<60).map { ($0 + 3) % 15 < 10 ? 1 : 0 })
    layer.lineDashPhase = 0
    layer.strokeEnd = 0.5
    out = try render(layer, 60, 10)
    XCTAssertEqual((0..<60).map { alpha(out, $0, 5) > 127 ? 1 : 0 }, (0..<60).map { $0 < 30 && $0 % 15 < 10 ? 1 : 0 })
    // An odd pattern is read twice: [4] is 4 on, 4 off.
    layer.strokeEnd = 1
    layer.lineDashPattern = [4]
    out = try render(layer, 60, 10)
    XCTAssertEqual((0..<60).map { alpha(out, $0, 5) > 127 ? 1 : 0 }, (0..<60).map { $0 % 8 < 4 ? 1 : 0 })
  }

  /// Zero-length dashes with round caps are dots of the line's width; with butt caps nothing.
  func testZeroLengthDashesAreDots() throws {
    var path = Path()
    path.move(to: Point(x: 10, y: 10))
    path.addLine(to: Point(x: 90, y: 10))
    let layer = shape(path, width: 8)
    layer.lineDashPattern = [0, 20]
    layer.lineCap = .round
    let out = try render(layer, 100, 20)
    for x in [10, 30, 50, 70, 90] {
      XCTAssertEqual(alpha(out, x, 10), 255, "a dot at \(x)")
      XCTAssertEqual(alpha(out, x, 12), 255)
      XCTAssertEqual(alpha(out, x, 15), 0)
    }
    XCTAssertEqual(alpha(out, 20, 10), 0)
    layer.lineCap = .butt
    XCTAssertTrue(try render(layer, 100, 20).pixels.allSatisfy { $0 == 0 })
    layer.lineCap = .square
    let squares = try render(layer, 100, 20)
    XCTAssertEqual(alpha(squares, 7, 7), 255, "a square of side 8 about the point")
    XCTAssertEqual(alpha(squares, 15, 10), 0)
  }

  /// Caps: butt ends at the end point, square goes half the width beyond, round a half disc.
  func testCaps() throws {
    var path = Path()
    path.move(to: Point(x: 10, y: 10))
    path.addLine(to: Point(x: 30, y: 10))
    let layer = shape(path, width: 10)
    XCTAssertEqual(alpha(try render(layer, 50, 20), 31, 10), 0)
    layer.lineCap = .square
    var out = try render(layer, 50, 20)
    XCTAssertEqual(alpha(out, 34, 6), 255)
    XCTAssertEqual(alpha(out, 35, 10), 0)
    layer.lineCap = .round
    out = try render(layer, 50, 20)
    XCTAssertEqual(alpha(out, 33, 10), 255)
    XCTAssertEqual(alpha(out, 34, 6), 0, "the disc's corner is not covered")
  }

  /// A right angle with a miter join fills the corner square; bevel cuts it; a sharp angle over
  /// the miter limit bevels.
  func testJoinsAndTheMiterLimit() throws {
    var path = Path()
    path.move(to: Point(x: 10, y: 30))
    path.addLine(to: Point(x: 10, y: 10))
    path.addLine(to: Point(x: 30, y: 10))
    let layer = shape(path, width: 10)
    XCTAssertEqual(alpha(try render(layer, 40, 40), 5, 5), 255, "miter: the corner square")
    layer.lineJoin = .bevel
    XCTAssertEqual(alpha(try render(layer, 40, 40), 5, 5), 0)
    layer.lineJoin = .round
    let round = try render(layer, 40, 40)
    XCTAssertEqual(alpha(round, 5, 5), 0)
    XCTAssertEqual(alpha(round, 7, 7), 255)
    // A 20° turn: miter length / width = 1 / sin(10°) ≈ 5.76: mitered at the limit 10, beveled at 4.
    var sharp = Path()
    sharp.move(to: Point(x: 10, y: 40))
    sharp.addLine(to: Point(x: 90, y: 40))
    let angle = 20.0 * .pi / 180
    sharp.addLine(to: Point(x: 90 - 80 * cos(angle), y: 40 - 80 * sin(angle)))
    layer.pathValue = sharp
    layer.lineJoin = .miter
    layer.lineWidth = 4
    // The miter's tip lies 2 / sin(10°) ≈ 11.5 beyond the corner, at about (101.3, 42); the
    // bevel reaches no further than x = 90.7.
    func beyond(_ image: Image) -> Int {
      (93..<104).reduce(0) { s, x in s + (38..<46).reduce(0) { $0 + alpha(image, x, $1) } }
    }
    XCTAssertGreaterThan(beyond(try render(layer, 110, 60)), 3 * 255)
    layer.miterLimit = 4
    XCTAssertEqual(beyond(try render(layer, 110, 60)), 0)
  }

  /// Extremes: lineWidth 0 strokes nothing (the fill stays), lineWidth 500 covers the frame,
  /// a 10 000-segment path renders the same on both backends, a 0.2-wide line leaves a faint trace of about 20 %.
  func testExtremes() throws {
    let circle = Path(ellipseIn: Rect(x: 20, y: 20, width: 40, height: 40))
    let layer = shape(circle, stroke: .white, fill: nil, width: 0)
    XCTAssertTrue(try render(layer, 80, 80).pixels.allSatisfy { $0 == 0 })
    layer.lineWidth = 500
    let wide = try render(layer, 80, 80)
    XCTAssertEqual(alpha(wide, 0, 0), 255)
    XCTAssertEqual(alpha(wide, 40, 40), 255)
    // 10 000 segments: a circle of as many chords, filled and stroked, on both backends.
    let points = (0..<10_000).map { i -> Point in
      let a = Double(i) * 2 * .pi / 10_000
      return Point(x: 40 + 30 * cos(a), y: 40 + 30 * sin(a))
    }
    var dense = Path()
    dense.addLines(between: points)
    dense.closeSubpath()
    let many = shape(dense, stroke: .white, fill: Color(red: 0.2, green: 0.4, blue: 0.9), width: 3)
    many.lineDashPattern = [7, 3]
    let image = try render(many, 80, 80)
    XCTAssertEqual(alpha(image, 40, 40), 255)
    XCTAssertEqual(alpha(image, 40, 9), 255, "on the stroke")
    XCTAssertParity(checker, many, width: 80, height: 80, name: "shape-10000-segments")
    var line = Path()
    line.move(to: Point(x: 0, y: 5))
    line.addLine(to: Point(x: 20, y: 5))
    let thin = shape(line, width: 0.2)
    let faint = try render(thin, 20, 10)
    // 0.2 of a pixel, measured on 16 scanlines: within 1/16 of a pixel.
    XCTAssertEqual(alpha(faint, 10, 4) + alpha(faint, 10, 5), 51, accuracy: 16)
  }

  /// Every property, with transforms (rotation, perspective), clips and opacity, on both backends.
  func testShapesMatchOnBothBackends() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 160, height: 120))
    root.backgroundColor = Color(red: 0.1, green: 0.1, blue: 0.2)
    var star = Path()
    for i in 0..<5 {
      let a = Double(i) * 4 * .pi / 5 - .pi / 2
      let p = Point(x: 30 + 25 * cos(a), y: 30 + 25 * sin(a))
      if i == 0 { star.move(to: p) } else { star.addLine(to: p) }
    }
    star.closeSubpath()
    let cases: [(ShapeLayer) -> Void] = [
      {
        $0.fillRule = .evenOdd; $0.lineJoin = .round
      },
      {
        $0.lineDashPattern = [6, 3, 0, 3]; $0.lineCap = .round; $0.lineDashPhase = 2
      },
      {
        $0.strokeEnd = 0.6; $0.lineCap = .square; $0.lineJoin = .bevel; $0.fillColor = nil
      },
      {
        $0.lineWidth = 0.5; $0.opacity = 0.6
      },
      { $0.transform = Transform3DMakeRotation(0.5, 0, 0, 1) },
      {
        var t = Transform3D.identity
        t.m34 = -1 / 200
        $0.transform = t.rotated(by: 0.7, x: 0, y: 1, z: 0)
      },
    ]
    for (i, configure) in cases.enumerated() {
      let s = shape(
        star, stroke: Color(red: 1, green: 0.8, blue: 0.2, alpha: 0.9), fill: Color(red: 0.2, green: 0.5, blue: 1),
        width: 5)
      s.frame = Rect(x: Double(i % 3) * 52, y: Double(i / 3) * 58, width: 60, height: 60)
      configure(s)
      _ = root.addSublayer(s)
    }
    let clipped = Layer(frame: Rect(x: 100, y: 60, width: 50, height: 50))
    clipped.masksToBounds = true
    clipped.cornerRadius = 12
    let inner = shape(Path(ellipseIn: Rect(x: -10, y: -10, width: 70, height: 70)), width: 9)
    inner.lineDashPattern = [20, 8]
    _ = clipped.addSublayer(inner)
    _ = root.addSublayer(clipped)
    // Extremes over it all: a 500-wide stroke and zero-length dashes (dots), semi-transparent.
    let wide = shape(star, stroke: Color(red: 0.9, green: 0.2, blue: 0.4, alpha: 0.25), fill: nil, width: 500)
    wide.frame = Rect(x: 40, y: 20, width: 60, height: 60)
    _ = root.addSublayer(wide)
    let dots = shape(star, stroke: .white, fill: nil, width: 6)
    dots.frame = Rect(x: 95, y: 2, width: 60, height: 60)
    dots.lineDashPattern = [0, 9]
    dots.lineCap = .round
    _ = root.addSublayer(dots)
    XCTAssertParity(checker, root, width: 160, height: 120, name: "shape-layers")
  }

  /// A self-intersecting smooth path (a figure eight of four curves, stroked as one strip):
  /// the crossing is covered once, the lobes' insides stay empty, the stroke's width is kept.
  func testASelfIntersectingStrokeIsItsUnion() throws {
    var eight = Path()
    eight.move(to: Point(x: 50, y: 30))
    eight.addCurve(to: Point(x: 90, y: 30), control1: Point(x: 65, y: 5), control2: Point(x: 90, y: 5))
    eight.addCurve(to: Point(x: 50, y: 30), control1: Point(x: 90, y: 55), control2: Point(x: 65, y: 55))
    eight.addCurve(to: Point(x: 10, y: 30), control1: Point(x: 35, y: 5), control2: Point(x: 10, y: 5))
    eight.addCurve(to: Point(x: 50, y: 30), control1: Point(x: 10, y: 55), control2: Point(x: 35, y: 55))
    eight.closeSubpath()
    let layer = shape(eight, width: 4)
    let out = try render(layer, 100, 60)
    XCTAssertEqual(alpha(out, 50, 29), 255, "the crossing")
    XCTAssertEqual(alpha(out, 72, 30), 0, "inside the right lobe")
    XCTAssertEqual(alpha(out, 28, 30), 0, "inside the left lobe")
    XCTAssertEqual(alpha(out, 89, 30), 255, "on the right lobe's outer edge")
    XCTAssertParity(checker, layer, width: 100, height: 60, name: "shape-figure-eight")
  }
}
