import Foundation
import LayerKit
import LayerKitMedia
import LayerKitReference
import LayerKitTesting
import LayerKitVideo
import XCTest

/// The video pipeline's shortcuts (TimelineRenderer): frames only shown are not drawn, clips go to
/// a Y'CbCr output as decoded, crossfades are mixed in the output's planes. Each is held to the
/// long way (`shortcuts = false`: every frame drawn in RGBA and converted): byte for byte where
/// the long way's arithmetic is the same, else by the tolerance stated on the test.
final class VideoShortcutTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("lk-shortcut-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  /// A 1-second H.264 clip made by ffmpeg from one of its test sources; `tagged` marks it BT.709
  /// limited range (as cameras and phones do), else it is left untagged.
  private func clip(_ name: String, source: String, size: String, tagged: Bool) throws -> ClipInfo {
    let path = folder.appendingPathComponent(name).path
    var args = [
      "-v", "error", "-f", "lavfi", "-i", "\(source)=s=\(size):r=25", "-t", "1", "-c:v", "libx264", "-g", "10",
    ]
    args += ["-pix_fmt", "yuv420p"]
    if tagged {
      args += ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-color_range", "tv"]
    }
    try ffmpeg(args + [path])
    return try ClipInfo.probe(path)
  }

  private func ffmpeg(_ args: [String]) throws {
    guard let ffmpeg = FFmpeg.locate("ffmpeg") else {
      // Never skipped: the suite runs where Tools/setup.sh installed ffmpeg.
      throw ProcessError.programNotFound(program: "ffmpeg (Tools/setup.sh installs it)")
    }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: ffmpeg)
    p.arguments = args
    try p.run()
    p.waitUntilExit()
    XCTAssertEqual(p.terminationStatus, 0, args.joined(separator: " "))
  }

  /// The planes of every frame ffmpeg decodes from `path`, as it writes them to Y4M.
  private func decodedPlanes(_ path: String) throws -> [[UInt8]] {
    let out = folder.appendingPathComponent("decoded-\(UUID().uuidString).y4m").path
    try ffmpeg(["-v", "error", "-i", path, "-f", "yuv4mpegpipe", "-pix_fmt", "yuv420p", out])
    return try Y4MReader(path: out).readAllFrames()
  }

  /// Renders `timeline` to a Y4M file and reads its frames back.
  private func y4m(_ timeline: Timeline, shortcuts: Bool) throws -> [[UInt8]] {
    try renderY4M(timeline, shortcuts: shortcuts, in: folder).frames
  }

  private func concat(_ a: ClipInfo, _ b: ClipInfo, effect: String, width: Int, height: Int) throws -> Timeline {
    try Timeline(
      items: [TimelineItem(source: .clip(a), duration: 1), TimelineItem(source: .clip(b), duration: 1)],
      transitions: [TimelineTransition(effect: effect, duration: 0.4)], width: width, height: height,
      rate: FrameRate(numerator: 25, denominator: 1))
  }

  /// Peak signal-to-noise ratio of two byte arrays of one length, in dB (infinite when equal).
  private func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    XCTAssertEqual(a.count, b.count)
    var sum = 0.0
    for (x, y) in zip(a, b) { sum += Double((Int(x) - Int(y)) * (Int(x) - Int(y))) }
    return sum == 0 ? .infinity : 10 * log10(255 * 255 / (sum / Double(a.count)))
  }

  // MARK: - Y'CbCr output

  /// Clips of BT.709 video at the output's size go to Y4M as decoded: every frame outside the
  /// transition is ffmpeg's own decode, byte for byte; inside it, the planes' crossfade exactly.
  func testClipFramesGoToY4MAsDecoded() throws {
    let a = try clip("a.mp4", source: "testsrc2", size: "64x48", tagged: true)
    let b = try clip("b.mp4", source: "mandelbrot", size: "64x48", tagged: true)
    XCTAssertTrue(a.isBT709Video && b.isBT709Video)
    let timeline = try concat(a, b, effect: "fade", width: 64, height: 48)
    let frames = try y4m(timeline, shortcuts: true)
    XCTAssertEqual(frames.count, timeline.frameCount)
    let (da, db) = (try decodedPlanes(a.path), try decodedPlanes(b.path))
    let layout = YUVFrameLayout(width: 64, height: 48, chroma: .yuv420)
    for k in 0..<timeline.frameCount {
      switch timeline.content(ofFrame: k) {
      case .item(let i, let local):
        let j = Int((local * 25 + 1e-6).rounded(.down))
        XCTAssertEqual(frames[k], (i == 0 ? da : db)[j], "frame \(k): item \(i) frame \(j) as ffmpeg decodes it")
      case .transition(_, let progress, let fromTime, let toTime):
        let pa = try YUVPlanes(layout: layout, bytes: da[Int((fromTime * 25 + 1e-6).rounded(.down))])
        let pb = try YUVPlanes(layout: layout, bytes: db[Int((toTime * 25 + 1e-6).rounded(.down))])
        let mixed = [UInt8](unsafeUninitializedCapacity: layout.byteCount) { buffer, count in
          YUVPlanes.crossfade(pa, pb, progress: progress, into: UnsafeMutableRawBufferPointer(buffer))
          count = layout.byteCount
        }
        XCTAssertEqual(frames[k], mixed, "frame \(k): the crossfade at \(progress)")
      }
    }
  }

  /// The same video the long way (decoded to RGBA by ffmpeg, drawn, faded in RGBA, converted):
  /// the shortcut keeps the decoder's planes where the long way goes through RGB and back (its
  /// chroma upsampled by ffmpeg and subsampled again by LayerKit), so they differ by that round
  /// trip's loss alone. On ffmpeg's testsrc2 and mandelbrot at 64×48 — hard edges in saturated
  /// colours, the worst case for 4:2:0 — that is PSNR ≥ 35 dB on every frame, and on the luma
  /// plane alone ≥ 38 dB (measured: 38.7 dB at worst for either).
  func testClipShortcutsAreTheLongWayWithinItsRoundTrip() throws {
    let a = try clip("a.mp4", source: "testsrc2", size: "64x48", tagged: true)
    let b = try clip("b.mp4", source: "mandelbrot", size: "64x48", tagged: true)
    let timeline = try concat(a, b, effect: "fade", width: 64, height: 48)
    let fast = try y4m(timeline, shortcuts: true)
    let slow = try y4m(timeline, shortcuts: false)
    XCTAssertEqual(fast.count, slow.count)
    let lumaBytes = 64 * 48
    for k in fast.indices {
      XCTAssertGreaterThanOrEqual(psnr(fast[k], slow[k]), 35, "frame \(k)")
      XCTAssertGreaterThanOrEqual(
        psnr(Array(fast[k][..<lumaBytes]), Array(slow[k][..<lumaBytes])), 38, "frame \(k) luma")
    }
  }

  /// A clip larger than the output at its aspect is scaled by ffmpeg's scaler (area mean) into the
  /// output's planes, not drawn: the long way samples it bilinearly at each pixel's centre. Held to
  /// PSNR ≥ 34 dB (measured: 37.0 dB at worst; testsrc2's thin lines are where the filters differ).
  func testFittedClipIsScaledByTheDecoder() throws {
    let big = try clip("big.mp4", source: "testsrc2", size: "128x96", tagged: true)
    let timeline = try Timeline(
      items: [TimelineItem(source: .clip(big), duration: 1)], transitions: [], width: 64, height: 48,
      rate: FrameRate(numerator: 25, denominator: 1))
    let fast = try y4m(timeline, shortcuts: true)
    let slow = try y4m(timeline, shortcuts: false)
    XCTAssertEqual(fast.count, 25)
    for k in fast.indices { XCTAssertGreaterThanOrEqual(psnr(fast[k], slow[k]), 34, "frame \(k)") }
  }

  /// Stills with a crossfade between them, to Y4M: each still converted once, the fade mixed in
  /// the planes; within one level of the long way (the conversion is affine, so only roundings
  /// differ) on every byte of every frame.
  func testStillCrossfadeInPlanesIsWithinOneLevel() throws {
    let a = try Self.still(width: 32, height: 24, seed: 1)
    let b = try Self.still(width: 32, height: 24, seed: 2)
    for effect in ["fade", "dissolve"] {
      let timeline = try Timeline(
        items: [
          TimelineItem(source: .image(Still(a, name: "a")), duration: 1),
          TimelineItem(source: .image(Still(b, name: "b")), duration: 1),
        ],
        transitions: [TimelineTransition(effect: effect, duration: 0.6)], width: 32, height: 24,
        rate: FrameRate(numerator: 25, denominator: 1))
      let (fast, slow, _) = try assertShortcutsWithin(1, timeline, in: folder, effect)
      XCTAssertEqual(fast.first, slow.first, "\(effect): a still alone is converted the same way")
      XCTAssertEqual(fast.last, slow.last)
    }
  }

  /// An image overlay (a logo, half transparent) over stills: each still is drawn once with it and
  /// held, and the crossfade between two such stills is mixed in the planes; a slide moves the
  /// pictures under it in the planes, and it is laid over the result at full resolution. Every byte of every frame within one level of the long way, and the
  /// overlay's pixels the same in every frame where it is over one still.
  func testImageOverlaysRideOnHeldStillsAndTheirCrossfades() throws {
    let a = try Self.still(width: 48, height: 32, seed: 7)
    let b = try Self.still(width: 48, height: 32, seed: 8)
    let logo = try Image(width: 8, height: 4, color: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
    for effect in ["fade", "push"] {
      var timeline = try Timeline(
        items: [
          TimelineItem(source: .image(Still(a, name: "a")), duration: 1),
          TimelineItem(source: .image(Still(b, name: "b")), duration: 1),
        ],
        transitions: [
          TimelineTransition(
            effect: effect, parameters: effect == "push" ? ["direction": .vec2([1, 0])] : [:], duration: 0.6)
        ], width: 48, height: 32, rate: FrameRate(numerator: 25, denominator: 1))
      timeline.overlays = [ImageOverlay(image: logo, position: .topLeft, width: 0.25, margin: 0.1, opacity: 1)]
      let (fast, slow, _) = try assertShortcutsWithin(1, timeline, in: folder, effect)
      // The logo, 12 × 6 at (3, 3): red over the picture, in the luma of a held frame.
      let lumaOfLogo = Int(fast[0][4 * 48 + 6])
      let lumaWithout = try y4mWithoutOverlays(timeline)[0][4 * 48 + 6]
      XCTAssertNotEqual(lumaOfLogo, Int(lumaWithout), "\(effect): the logo is in the held frame")
    }
  }

  /// The same over clips: their frames as decoded, with the overlay laid over their planes (and
  /// the crossfade of two such frames), against the long way (decoded to RGBA, drawn with the
  /// overlay, converted): within the RGB round trip's loss of `testClipShortcutsAreTheLongWay…`
  /// (PSNR ≥ 35 dB), and the overlay's own box closer still (≥ 40 dB on its luma).
  func testImageOverlaysAreLaidOverClipPlanes() throws {
    let a = try clip("a.mp4", source: "testsrc2", size: "64x48", tagged: true)
    let b = try clip("b.mp4", source: "mandelbrot", size: "64x48", tagged: true)
    var timeline = try concat(a, b, effect: "fade", width: 64, height: 48)
    let logo = try Image(width: 8, height: 4, color: Color(red: 1, green: 1, blue: 0, alpha: 0.75))
    timeline.overlays = [ImageOverlay(image: logo, position: .bottomRight, width: 0.25, margin: 0.05)]
    let fast = try y4m(timeline, shortcuts: true)
    let slow = try y4m(timeline, shortcuts: false)
    let plain = try y4mWithoutOverlays(timeline)
    XCTAssertEqual(fast.count, slow.count)
    // The logo: 16 × 8, its bottom-right corner 2 pixels in from the frame's (margin 0.05 · 48).
    let box = (x: 46..<62, y: 38..<46)
    func luma(_ frame: [UInt8]) -> [UInt8] { box.y.flatMap { y in box.x.map { frame[y * 64 + $0] } } }
    for k in fast.indices {
      XCTAssertGreaterThanOrEqual(psnr(fast[k], slow[k]), 35, "frame \(k)")
      XCTAssertGreaterThanOrEqual(psnr(luma(fast[k]), luma(slow[k])), 40, "frame \(k): the logo")
      XCTAssertLessThan(psnr(luma(fast[k]), luma(plain[k])), 30, "frame \(k): the logo is there")
    }
  }

  private func y4mWithoutOverlays(_ timeline: Timeline) throws -> [[UInt8]] {
    var plain = timeline
    plain.overlays = []
    return try y4m(plain, shortcuts: true)
  }

  /// Slides between stills, to Y4M: computed in the planes from each still's 4:4:4 planes, with
  /// the RGBA path's picture choice, taps and inside test, and its fraction in steps of 2⁻⁸: every
  /// byte of every frame within one level of the long way (the conversion is affine; only the
  /// roundings differ), and some frames not equal to it (the shortcut ran).
  func testStillSlidesInPlanesAreTheLongWayWithinOneLevel() throws {
    var differing = 0
    // 360 rows: uv.y's double flip leaves some rows a hair off their texel centres (as at 1080p).
    let cases: [(Int, Int, [String], [SIMD2<Float>])] = [
      (48, 32, ["moveIn", "push", "reveal"], [[1, 0], [-1, 0], [0, 1], [0, -1]]),
      (64, 360, ["push", "reveal"], [[1, 0], [0, -1]]),
    ]
    for (width, height, effects, directions) in cases {
      let a = try Self.still(width: width, height: height, seed: 4)
      let b = try Self.still(width: width, height: height, seed: 5)
      for effect in effects {
        for d in directions {
          let timeline = try Timeline(
            items: [
              TimelineItem(source: .image(Still(a, name: "a")), duration: 1),
              TimelineItem(source: .image(Still(b, name: "b")), duration: 1),
            ],
            transitions: [TimelineTransition(effect: effect, parameters: ["direction": .vec2(d)], duration: 0.6)],
            width: width, height: height, rate: FrameRate(numerator: 25, denominator: 1))
          let fast = try y4m(timeline, shortcuts: true)
          let slow = try y4m(timeline, shortcuts: false)
          XCTAssertEqual(fast.count, slow.count)
          for k in fast.indices {
            let worst = zip(fast[k], slow[k]).map { abs(Int($0) - Int($1)) }.max() ?? 0
            XCTAssertLessThanOrEqual(worst, 1, "\(effect) \(d) frame \(k)")
            if worst > 0 { differing += 1 }
          }
        }
      }
    }
    XCTAssertGreaterThan(differing, 0, "the slides went the long way")
  }

  /// Slides between clips decoded as planes: each frame's chroma repeated over its blocks (as the
  /// long way's RGBA repeats it) and slid in the planes. The long way goes through RGB and back,
  /// clipping testsrc2's saturated colours to RGB's gamut, so it is held as the clips' round trip
  /// is: PSNR ≥ 35 dB on every transition frame, ≥ 38 dB on luma (measured: 38.9 and 41.4 at worst).
  func testClipSlidesInPlanesAreTheLongWayWithinItsRoundTrip() throws {
    let a = try clip("a.mp4", source: "testsrc2", size: "64x48", tagged: true)
    let b = try clip("b.mp4", source: "mandelbrot", size: "64x48", tagged: true)
    var worst = Double.infinity
    var worstLuma = Double.infinity
    for (effect, d) in [("push", SIMD2<Float>(1, 0)), ("moveIn", SIMD2<Float>(0, -1))] {
      let timeline = try Timeline(
        items: [TimelineItem(source: .clip(a), duration: 1), TimelineItem(source: .clip(b), duration: 1)],
        transitions: [TimelineTransition(effect: effect, parameters: ["direction": .vec2(d)], duration: 0.4)],
        width: 64, height: 48, rate: FrameRate(numerator: 25, denominator: 1))
      let fast = try y4m(timeline, shortcuts: true)
      let slow = try y4m(timeline, shortcuts: false)
      XCTAssertEqual(fast.count, slow.count)
      for k in fast.indices {
        guard case .transition = timeline.content(ofFrame: k) else { continue }
        worst = min(worst, psnr(fast[k], slow[k]))
        worstLuma = min(worstLuma, psnr(Array(fast[k][..<(64 * 48)]), Array(slow[k][..<(64 * 48)])))
      }
    }
    XCTAssertTrue(worst.isFinite, "the slides went the long way")
    XCTAssertGreaterThanOrEqual(worst, 35)
    XCTAssertGreaterThanOrEqual(worstLuma, 38)
  }

  // MARK: - RGBA

  /// Frames that only show one opaque picture 1:1 — an untagged clip decoded to RGBA, a still of
  /// the frame's size — are the picture itself, not drawn: byte for byte what the draw gives.
  func testPicturesShownAsTheyAreEqualTheirDraw() throws {
    let c = try clip("c.mp4", source: "testsrc2", size: "32x24", tagged: false)
    XCTAssertFalse(c.isBT709Video, "an untagged SD clip is BT.601: decoded to RGBA")
    let still = try Self.still(width: 32, height: 24, seed: 3)
    let timeline = try Timeline(
      items: [
        TimelineItem(source: .clip(c), duration: 1), TimelineItem(source: .image(Still(still, name: "s")), duration: 1),
      ],
      transitions: [TimelineTransition(effect: "push", parameters: ["direction": .vec2([1, 0])], duration: 0.4)],
      width: 32, height: 24, rate: FrameRate(numerator: 25, denominator: 1))
    func frames(_ shortcuts: Bool) throws -> [Image] {
      let source = TimelineRenderer(timeline: timeline, renderer: ReferenceRenderer())
      source.shortcuts = shortcuts
      source.willRender(0..<timeline.frameCount)
      defer { source.stop() }
      return try (0..<timeline.frameCount).map { try source.frame($0) }
    }
    let fast = try frames(true)
    let slow = try frames(false)
    for k in fast.indices { XCTAssertIdentical(fast[k], slow[k], "frame \(k)") }
  }

  // MARK: - Planes

  /// The fast planes → RGBA conversion is the documented inverse: R and B exactly, G at most 1 off.
  func testPlanesToRGBAIsTheInverse() throws {
    var rng = SeededRandom(seed: 7)
    let layout = YUVFrameLayout(width: 64, height: 32, chroma: .yuv420)
    let bytes = (0..<layout.byteCount).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
    let fast = try YUVPlanes(layout: layout, bytes: bytes).image()
    let reference = try YUVConversion.image(fromPlanes: bytes, layout: layout)
    for i in stride(from: 0, to: fast.pixels.count, by: 4) {
      XCTAssertEqual(fast.pixels[i], reference.pixels[i])
      XCTAssertLessThanOrEqual(abs(Int(fast.pixels[i + 1]) - Int(reference.pixels[i + 1])), 1)
      XCTAssertEqual(fast.pixels[i + 2], reference.pixels[i + 2])
      XCTAssertEqual(fast.pixels[i + 3], 255)
    }
  }

  /// The planes' crossfade is exactly the first frame at 0 and the second at 1.
  func testPlanesCrossfadeEnds() throws {
    let layout = YUVFrameLayout(width: 34, height: 10, chroma: .yuv420)
    var rng = SeededRandom(seed: 9)
    let a = try YUVPlanes(
      layout: layout, bytes: (0..<layout.byteCount).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
    let b = try YUVPlanes(
      layout: layout, bytes: (0..<layout.byteCount).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
    for (t, expected) in [(0.0, a.bytes), (1.0, b.bytes)] {
      let out = [UInt8](unsafeUninitializedCapacity: layout.byteCount) { buffer, count in
        YUVPlanes.crossfade(a, b, progress: t, into: UnsafeMutableRawBufferPointer(buffer))
        count = layout.byteCount
      }
      XCTAssertEqual(out, expected, "t = \(t)")
    }
  }

  /// An opaque test picture with hard edges and gradients.
  static func still(width: Int, height: Int, seed: UInt64) throws -> Image {
    var rng = SeededRandom(seed: seed)
    var pixels = [UInt8](repeating: 255, count: width * height * 4)
    for i in stride(from: 0, to: pixels.count, by: 4) {
      pixels[i] = UInt8(truncatingIfNeeded: rng.next())
      pixels[i + 1] = UInt8((i / 4) % width * 255 / max(1, width - 1))
      pixels[i + 2] = UInt8((i / 4) / width * 255 / max(1, height - 1))
    }
    return try Image(width: width, height: height, pixels: pixels)
  }
}
