import Foundation
import LayerKit
import LayerKitMedia
import LayerKitReference
import LayerKitTesting
import XCTest

@testable import LayerKitTimeline

/// contain-blur's blurred bars are made once (`BlurredBars`) and drawn by both backends: the same
/// pixels as the long way (the blur a filter run every frame) within the parity contract, on the
/// GPU as on the CPU, made once for a still's frames, and made anew for another picture or size.
final class ContainBlurTests: ParityTestCase {
  /// A photo-like picture: smooth colour ramps, with hard-edged bars and a disc over them (what
  /// a blur's kernel shape shows most on) unless `smooth`.
  static func picture(width: Int, height: Int, hue: Double = 0, smooth: Bool = false) throws -> Image {
    var bytes = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let u = Double(x) / Double(width)
        let v = Double(y) / Double(height)
        var c = SIMD3(
          0.5 + 0.5 * sin(6 * u + hue), 0.5 + 0.5 * cos(5 * v - hue), 0.5 + 0.5 * sin(4 * (u + v) + 2 * hue))
        if !smooth && (x / max(1, width / 8)) % 2 == 0 && v > 0.6 { c = SIMD3(1, 1, 0.1) }
        let (dx, dy) = (u - 0.35, v - 0.3)
        if !smooth && dx * dx + dy * dy < 0.02 { c = SIMD3(0.05, 0.1, 0.9) }
        let i = (y * width + x) * 4
        bytes[i] = UInt8(c.x * 255)
        bytes[i + 1] = UInt8(c.y * 255)
        bytes[i + 2] = UInt8(c.z * 255)
      }
    }
    return try Image(width: width, height: height, pixels: bytes)
  }

  func render(_ layer: Layer, width: Int, height: Int) throws -> Image {
    try ReferenceRenderer().render(try RenderList(layer: layer, width: width, height: height))
  }

  /// The bars made once are the long way's within the parity contract, for a square photo in a
  /// story-sized area (the shape, scaled), a wide one in a square, and a small area
  /// (σ of a few pixels: one cell a pixel).
  func testBarsMadeOnceAreTheLongWayWithinParity() throws {
    for (iw, ih, w, h) in [(216, 216, 180, 320), (540, 540, 450, 800), (192, 128, 160, 160), (64, 36, 40, 40)] {
      let image = try Self.picture(width: iw, height: ih)
      let once = try XCTUnwrap(Fit.bars(image, width: Double(w), height: Double(h)))
      let long = try XCTUnwrap(Fit.bars(image, width: Double(w), height: Double(h), once: false))
      let comparison = try ImageComparison(
        expected: try render(long, width: w, height: h), actual: try render(once, width: w, height: h))
      XCTAssertTrue(comparison.passes(.parity), "\(iw)×\(ih) in \(w)×\(h): \(comparison.summary(.parity))")
    }
  }

  /// The sharp copy under the bars is drawn only where the blurred copy is not opaque: the same
  /// bytes as drawn whole, on both backends; a picture with transparency is drawn whole.
  func testTheSharpCopyIsDrawnOnlyWhereItShows() throws {
    for (iw, ih, w, h) in [(216, 216, 180, 320), (540, 540, 450, 800), (192, 128, 160, 160)] {
      let image = try Self.picture(width: iw, height: ih)
      let sigma = Fit.barBlur(width: Double(w), height: Double(h))
      let made = BlurredBars.made(image, width: Double(w), height: Double(h), sigma: sigma)
      XCTAssertNotNil(made.opaque, "\(w)×\(h): an opaque middle")
      let strips = try XCTUnwrap(Fit.bars(image, width: Double(w), height: Double(h)))
      let whole = try XCTUnwrap(Fit.bars(image, width: Double(w), height: Double(h), wholeSharpCopy: true))
      XCTAssertEqual(
        try render(strips, width: w, height: h).pixels, try render(whole, width: w, height: h).pixels, "\(w)×\(h)")
      let gpu = try XCTUnwrap(checker?.gpu)
      let comparison = try ImageComparison(
        expected: try gpu.render(try RenderList(layer: whole, width: w, height: h)),
        actual: try gpu.render(try RenderList(layer: strips, width: w, height: h)))
      XCTAssertEqual(comparison.maxChannelDelta, 0, "\(w)×\(h) on the GPU")
    }
    var bytes = try Self.picture(width: 64, height: 64).pixels
    for i in stride(from: 3, to: bytes.count, by: 4 * 7) { bytes[i - 3...i] = [0, 0, 0, 0] }
    let holes = try Image(width: 64, height: 64, pixels: bytes)
    XCTAssertNil(BlurredBars.made(holes, width: 90, height: 160, sigma: 9).opaque, "holes: no opaque middle")
  }

  /// Both backends draw the bars made once: the GPU's are the CPU's within the parity contract.
  func testBarsMadeOnceKeepParity() throws {
    let image = try Self.picture(width: 216, height: 216)
    let bars = try XCTUnwrap(Fit.bars(image, width: 180, height: 320))
    XCTAssertParity(checker, bars, width: 180, height: 320, name: "contain-blur-bars-once")
  }

  /// A still's frames (a Ken Burns move over contain-blur) make its bars once, and every frame
  /// is the same as a frame drawn alone.
  func testAStillsBarsAreMadeOnceForAllItsFrames() throws {
    let image = try Self.picture(width: 216, height: 216)
    let timeline = try Timeline(
      items: [TimelineItem(source: .image(Still(image, name: "square.png")), duration: 1, motion: KenBurns())],
      transitions: [], width: 180, height: 320, rate: try FrameRate(10), fit: .containBlur)
    let before = BlurredBars.madeCount
    let source = TimelineRenderer(timeline: timeline, renderer: ReferenceRenderer())
    var frames: [Image] = []
    for k in 0..<timeline.frameCount { frames.append(try source.frame(k)) }
    source.stop()
    XCTAssertEqual(BlurredBars.madeCount - before, 1, "one copy for \(frames.count) frames")
    XCTAssertNotEqual(frames[0].pixels, frames[9].pixels, "the move zooms")
    // The first frame (scale 1) is the long way's within the contract.
    let long = Layer(frame: Rect(x: 0, y: 0, width: 180, height: 320))
    long.addSublayer(try XCTUnwrap(Fit.bars(image, width: 180, height: 320, once: false)))
    let shown = Layer(frame: Rect(x: 0, y: 0, width: 180, height: 320))
    shown.contents = image
    shown.contentsGravity = .resizeAspect
    long.addSublayer(shown)
    let comparison = try ImageComparison(expected: try render(long, width: 180, height: 320), actual: frames[0])
    XCTAssertTrue(comparison.passes(.parity), comparison.summary(.parity))
  }

  /// Mid-move, the still fitted once and magnified is the long way's frame (the bars blurred and
  /// the picture drawn, both magnified, every frame) on a photo (smooth at the scale shown, as
  /// `PlanarWorkTests` holds Ken Burns), away from the frame's edges — there the long way's blur
  /// ended at the frame, thinning out over the sharp copy, where the bars made once thin out
  /// only at their own edges, which the move carries past the frame: within 2 levels but along
  /// the picture's edge over its bars (drawn once, then magnified, as a still reduced once is:
  /// two rows of pixels on each of its two edges), PSNR ≥ 45 dB.
  func testAMovingStillIsTheLongWayInsideTheFrame() throws {
    let (w, h) = (180, 320)
    let image = try Self.picture(width: 216, height: 216, smooth: true)
    let move = KenBurns(zoom: .in, amount: 0.1)
    let timeline = try Timeline(
      items: [TimelineItem(source: .image(Still(image, name: "square.png")), duration: 1, motion: move)],
      transitions: [], width: w, height: h, rate: try FrameRate(10), fit: .containBlur)
    let source = TimelineRenderer(timeline: timeline, renderer: ReferenceRenderer())
    defer { source.stop() }
    let sigma = Fit.barBlur(width: Double(w), height: Double(h))
    let band = Int((2 * sigma).rounded(.up))
    for k in [0, 5, 9] {
      let shown = try source.frame(k)
      let frame = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
      frame.masksToBounds = true
      let moved = try XCTUnwrap(Fit.bars(image, width: Double(w), height: Double(h), once: false))
      moved.masksToBounds = false
      let picture = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
      picture.contents = image
      picture.contentsGravity = .resizeAspect
      moved.addSublayer(picture)
      moved.transform = move.transform(at: timeline.time(ofFrame: k), width: Double(w), height: Double(h))
      frame.addSublayer(moved)
      let long = try render(frame, width: w, height: h)
      let comparison = try ImageComparison(
        expected: try Self.crop(long, inset: band), actual: try Self.crop(shown, inset: band))
      XCTAssertLessThanOrEqual(
        comparison.differingPixels(over: 2), 4 * (w - 2 * band), "frame \(k): \(comparison.summary(.parity))")
      XCTAssertGreaterThanOrEqual(comparison.psnr, 45, "frame \(k)")
    }
  }

  /// `image` less `inset` pixels on every side.
  static func crop(_ image: Image, inset: Int) throws -> Image {
    let (w, h) = (image.width - 2 * inset, image.height - 2 * inset)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(w * h * 4)
    for y in inset..<(inset + h) {
      let row = (y * image.width + inset) * 4
      bytes += image.pixels[row..<(row + w * 4)]
    }
    return try Image(width: w, height: h, pixels: bytes)
  }

  /// The cache is keyed by what the copy depends on: the same picture and area find it; another
  /// picture, another area or another blur make a new one, with other pixels.
  func testAnotherPictureOrSizeMakesNewBars() throws {
    let a = try Self.picture(width: 216, height: 216)
    let b = try Self.picture(width: 216, height: 216, hue: 2)
    let first = BlurredBars.made(a, width: 180, height: 320, sigma: 18)
    let before = BlurredBars.madeCount
    XCTAssertEqual(BlurredBars.made(a, width: 180, height: 320, sigma: 18).image.id, first.image.id, "found")
    XCTAssertEqual(BlurredBars.madeCount, before)
    let other = BlurredBars.made(b, width: 180, height: 320, sigma: 18)
    XCTAssertNotEqual(other.image.pixels, first.image.pixels, "another picture")
    let smaller = BlurredBars.made(a, width: 90, height: 160, sigma: 18)
    XCTAssertNotEqual(smaller.image.width, first.image.width, "another area")
    let sharper = BlurredBars.made(a, width: 180, height: 320, sigma: 9)
    XCTAssertNotEqual(sharper.image.width, first.image.width, "another blur")
    XCTAssertEqual(BlurredBars.madeCount, before + 3)
    // In frames: the bars of another picture are other pixels.
    let top = { (image: Image) throws -> Image in
      try self.render(try XCTUnwrap(Fit.bars(image, width: 180, height: 320)), width: 180, height: 20)
    }
    XCTAssertNotEqual(try top(a).pixels, try top(b).pixels)
  }

  /// The cache stays bounded however many pictures pass through it (a clip's frames).
  func testTheCacheIsBounded() throws {
    let image = try Self.picture(width: 32, height: 32)
    for w in 0..<(BlurredBars.cacheEntries * 2) {
      _ = BlurredBars.made(image, width: Double(40 + w), height: 80, sigma: 6)
    }
    XCTAssertLessThanOrEqual(BlurredBars.cachedCount, BlurredBars.cacheEntries)
  }
}
