import Foundation
import LayerKit
import LayerKitMedia
import LayerKitReference
import LayerKitText
import LayerKitVideo
import XCTest

/// What stays still is drawn once (TimelineRenderer+Planes): a Ken Burns still magnified in the
/// output's planes from its picture converted once, a title drawn once and laid over the planes
/// at its opacity, and the crossfades and slides between such pictures — each held to the long
/// way (`shortcuts = false`: every frame drawn in RGBA and converted), with no frame drawn.
final class PlanarWorkTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    FontStack.install()
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("lk-planar-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

  private func y4m(_ timeline: Timeline, shortcuts: Bool) throws -> (frames: [[UInt8]], drawn: Int) {
    try renderY4M(timeline, shortcuts: shortcuts, in: folder)
  }

  /// A smooth opaque picture, as a photo is at the scale a Ken Burns move shows it.
  static func smooth(width: Int, height: Int, phase: Double) throws -> Image {
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let (u, v) = (Double(x) / Double(width), Double(y) / Double(height))
        let i = (y * width + x) * 4
        pixels[i] = UInt8(127.5 + 127 * sin(6 * u + phase))
        pixels[i + 1] = UInt8(127.5 + 127 * cos(5 * v - phase))
        pixels[i + 2] = UInt8(127.5 + 127 * sin(4 * (u + v) + 2 * phase))
      }
    }
    return try Image(width: width, height: height, pixels: pixels)
  }

  private func timeline(_ effect: String, motion: [KenBurns?], titles: [String?], fit: Fit = .cover) throws -> Timeline
  {
    let pictures = [try Self.smooth(width: 80, height: 60, phase: 0), try Self.smooth(width: 60, height: 60, phase: 1)]
    let items = pictures.indices.map { i in
      TimelineItem(
        source: .image(Still(pictures[i], name: "p\(i)")), duration: 1.2,
        title: titles[i].map { TimelineTitle(AttributedText($0)) }, motion: motion[i])
    }
    return try Timeline(
      items: items,
      transitions: [
        TimelineTransition(
          effect: effect, parameters: effect == "push" ? ["direction": .vec2([1, 0])] : [:], duration: 0.4)
      ], width: 64, height: 48, rate: FrameRate(numerator: 25, denominator: 1), fit: fit)
  }

  /// Worst difference of a frame's samples, and its PSNR.
  private func compare(_ a: [UInt8], _ b: [UInt8]) -> (worst: Int, psnr: Double) {
    var (worst, sum) = (0, 0.0)
    for (x, y) in zip(a, b) {
      let d = abs(Int(x) - Int(y))
      worst = max(worst, d)
      sum += Double(d * d)
    }
    return (worst, sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(a.count))))
  }

  /// Ken Burns stills (zoom in panning right; zoom out panning down; by cover and by stretch),
  /// joined by a fade and by a push: no frame drawn, and every frame within 2 levels of the long
  /// way (PSNR ≥ 50 dB): the same bilinear taps, weights in steps of 2⁻⁸, 4:2:0 chroma read at
  /// its block's centre.
  func testKenBurnsStillsAreMagnifiedInThePlanes() throws {
    let moves = [KenBurns(zoom: .in, pan: [1, 0], amount: 0.2), KenBurns(zoom: .out, pan: [0, 1], amount: 0.15)]
    for fit in [Fit.cover, .stretch] {
      for effect in ["fade", "push"] {
        let t = try timeline(effect, motion: moves, titles: [nil, nil], fit: fit)
        let fast = try y4m(t, shortcuts: true)
        let slow = try y4m(t, shortcuts: false)
        XCTAssertEqual(fast.drawn, 0, "\(fit) \(effect): every frame in the planes")
        XCTAssertEqual(slow.drawn, t.frameCount)
        XCTAssertEqual(fast.frames.count, slow.frames.count)
        for k in fast.frames.indices {
          let (worst, psnr) = compare(fast.frames[k], slow.frames[k])
          XCTAssertLessThanOrEqual(worst, 2, "\(fit) \(effect) frame \(k)")
          XCTAssertGreaterThan(psnr, 50, "\(fit) \(effect) frame \(k)")
        }
        XCTAssertNotEqual(fast.frames[0], fast.frames[10], "the picture moves")
      }
    }
  }

  /// contain-blur Ken Burns stills (the square one fitted once over its blurred bars, the other
  /// of the frame's aspect) are magnified in the planes too: no frame drawn. The fitted picture's
  /// edge over its bars is a sharp line, where the planes' 4:2:0 chroma (read at its block's
  /// centre, not averaged) may differ from the long way's; elsewhere, and in luma everywhere,
  /// every sample is within 2 levels of the long way.
  func testContainBlurStillsAreMagnifiedInThePlanes() throws {
    let moves = [KenBurns(zoom: .in, pan: [1, 0], amount: 0.2), KenBurns(zoom: .out, pan: [0, 1], amount: 0.15)]
    for effect in ["fade", "push"] {
      let t = try timeline(effect, motion: moves, titles: [nil, nil], fit: .containBlur)
      let fast = try y4m(t, shortcuts: true)
      let slow = try y4m(t, shortcuts: false)
      XCTAssertEqual(fast.drawn, 0, "\(effect): every frame in the planes")
      XCTAssertEqual(fast.frames.count, slow.frames.count)
      let luma = 64 * 48
      for k in fast.frames.indices {
        let (worst, _) = compare(Array(fast.frames[k][..<luma]), Array(slow.frames[k][..<luma]))
        XCTAssertLessThanOrEqual(worst, 2, "\(effect) frame \(k): luma")
        // At most the samples of the edge's chroma beyond 2 (a 64×48 frame: 1.5 % of them).
        let beyond = zip(fast.frames[k], slow.frames[k]).filter { abs(Int($0) - Int($1)) > 2 }.count
        XCTAssertLessThanOrEqual(beyond, 2 * (48 + 64), "\(effect) frame \(k)")
        XCTAssertGreaterThan(compare(fast.frames[k], slow.frames[k]).psnr, 45, "\(effect) frame \(k)")
      }
      XCTAssertNotEqual(fast.frames[0], fast.frames[10], "the picture moves")
    }
  }

  /// A title over a held still and over a Ken Burns still, through a fade and a push: drawn once,
  /// laid over the planes at its opacity of the moment. No frame drawn; every frame within 2
  /// levels of the long way (PSNR ≥ 50 dB), fading in and out too.
  func testTitlesAreDrawnOnceAndLaidOverThePlanes() throws {
    for effect in ["fade", "push"] {
      let t = try timeline(
        effect, motion: [nil, KenBurns(zoom: .in, pan: [-1, 0], amount: 0.1)], titles: ["Ab", "Cd"])
      let fast = try y4m(t, shortcuts: true)
      let slow = try y4m(t, shortcuts: false)
      XCTAssertEqual(fast.drawn, 0, "\(effect): every frame in the planes")
      for k in fast.frames.indices {
        let (worst, psnr) = compare(fast.frames[k], slow.frames[k])
        XCTAssertLessThanOrEqual(worst, 2, "\(effect) frame \(k)")
        XCTAssertGreaterThan(psnr, 50, "\(effect) frame \(k)")
      }
      let plain = try y4m(try timeline(effect, motion: [nil, nil], titles: [nil, nil]), shortcuts: true)
      XCTAssertNotEqual(fast.frames[12], plain.frames[12], "the title is there")
    }
  }

  /// All of it at once — a title, Ken Burns, a logo over the whole video — through a fade and a
  /// push: the logo stays put over the moving pictures, no frame is drawn, and every frame is
  /// within 2 levels of the long way. Through a ripple (drawn), the frames are drawn without the
  /// logo and it is laid over them afterwards: within 2 levels too.
  func testALogoOverTitlesAndKenBurnsStaysPutInThePlanes() throws {
    let logo = try Image(width: 8, height: 4, color: Color(red: 1, green: 0.8, blue: 0.2, alpha: 1))
    for effect in ["fade", "push", "ripple"] {
      var t = try timeline(
        effect, motion: [KenBurns(zoom: .in, pan: [1, 0], amount: 0.2), KenBurns(zoom: .out, amount: 0.1)],
        titles: ["Ab", nil])
      t.overlays = [ImageOverlay(image: logo, position: .topRight, width: 0.25, margin: 0.05, opacity: 1)]
      let (fast, _, drawn) = try assertShortcutsWithin(2, t, in: folder, effect)
      if effect == "ripple" {
        XCTAssertEqual(drawn, 10, "ripple: its frames drawn")
      } else {
        XCTAssertEqual(drawn, 0, "\(effect): every frame in the planes")
      }
      // The logo's middle (top right) reads the same in every frame.
      let spot = 6 * 64 + 52
      XCTAssertEqual(Set(fast.map { $0[spot] }).count, 1, "\(effect): the logo stays put")
    }
  }
}
