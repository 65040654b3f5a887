// The GPU's Y'CbCr readback (PlanarRenderer): frames converted to BT.709 limited-range 4:2:0
// planes on the GPU (effects/yuv420_pack.frag) and read back as planes give the bytes the CPU
// conversion gives for the RGBA frame, at any even size; they share the ring and the order of
// finishing with RGBA frames, with typed errors.

import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitSamples
import LayerKitTesting
import XCTest

/// startPlanes / finishPlanes against `YUVConversion.convert(gpu.render(list), background:,
/// chroma: .yuv420)`: every byte within 1, and at least 99 % exactly equal. Measured on Mesa
/// llvmpipe 22.3 (LLVM 15, EGL surfaceless): every byte of every frame here is equal — largest
/// difference 0, 100 % exact — for opaque pictures (64×40, 34×22, 6×2, 98×62), translucent layers
/// over three non-black backgrounds (34×22, 98×62, 130×66), random bytes including invalid
/// premultiplied pixels, which the conversion clamps (34×22, 130×66, 6×2, 256×130), a push
/// transition at 0, 0.37 and 0.8 (98×62) and the sample cards at 1920×1080 and 1918×1078 (chroma
/// rows of 959 bytes: texels straddle rows and planes). The shader recovers the CPU's fixed-point
/// integers exactly (their low 32 bits in uint arithmetic, the rest from a float sum), so the
/// tolerance is only a margin for other drivers.
final class PlanarReadbackTests: XCTestCase {
  // MARK: - Helpers

  private func picture(_ hue: Double, _ w: Int, _ h: Int) throws -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
    l.contents = try SampleScene.testImage(width: w, height: h, hue: hue)
    return l
  }

  /// Translucent layers over a transparent target: a rounded colour at alpha 0.6, a picture at
  /// opacity 0.7 turned a little, a white square at alpha 0.3; most pixels partly covered.
  private func translucent(_ w: Int, _ h: Int) throws -> RenderList {
    let root = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
    let card = Layer(frame: Rect(x: 2, y: 1.5, width: Double(w) * 0.6, height: Double(h) * 0.7))
    card.backgroundColor = Color(red: 0.9, green: 0.2, blue: 0.4, alpha: 0.6)
    card.cornerRadius = 5
    let photo = try picture(0.35, w / 2, h / 2)
    photo.position = Point(x: Double(w) * 0.6, y: Double(h) * 0.55)
    photo.opacity = 0.7
    photo.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
    let veil = Layer(
      frame: Rect(x: Double(w) * 0.3, y: Double(h) * 0.2, width: Double(w) * 0.5, height: Double(h) * 0.5))
    veil.backgroundColor = Color(white: 1, alpha: 0.3)
    _ = root.addSublayer(card)
    _ = root.addSublayer(photo)
    _ = root.addSublayer(veil)
    return try RenderList(layer: root, width: w, height: h)
  }

  /// An image of random bytes drawn 1:1 over the whole target: every value of every channel,
  /// premultiplied or not (a colour above its alpha composites above 255 and is clamped).
  private func noise(_ w: Int, _ h: Int, seed: UInt64) throws -> RenderList {
    var random = SeededRandom(seed: seed)
    let pixels = (0..<(w * h * 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    let l = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
    l.contents = try Image(width: w, height: h, pixels: pixels)
    return try RenderList(layer: l, width: w, height: h)
  }

  private func push(_ p: Double, _ w: Int, _ h: Int) throws -> RenderList {
    try RenderList(
      transitionFrom: picture(0.1, w, h), to: picture(0.6, w, h), width: w, height: h, effect: "push",
      parameters: ["direction": .vec2([1, 0])], progress: p)
  }

  private func expected(_ gpu: GLRenderer, _ list: RenderList, _ bg: SIMD3<UInt8>) throws -> [UInt8] {
    try YUVConversion.convert(gpu.render(list), background: (bg.x, bg.y, bg.z), chroma: .yuv420)
  }

  /// Holds `got` to `want`: every byte within 1, at least 99 % equal; names the first byte that
  /// is off (plane and place). Returns the share of equal bytes and the largest difference.
  @discardableResult
  private func assertPlanes(
    _ got: [UInt8], _ want: [UInt8], width w: Int, height h: Int, _ label: String,
    file: StaticString = #filePath, line: UInt = #line
  ) -> (exact: Double, maxDifference: Int) {
    XCTAssertEqual(got.count, want.count, label, file: file, line: line)
    guard got.count == want.count else { return (0, 255) }
    var equal = 0
    var worst = 0
    var first: Int?
    for i in got.indices {
      let d = abs(Int(got[i]) - Int(want[i]))
      if d == 0 { equal += 1 } else if first == nil { first = i }
      worst = max(worst, d)
    }
    let exact = Double(equal) / Double(got.count)
    if let i = first {
      let c = (w / 2) * (h / 2)
      let place =
        i < w * h
        ? "Y' (\(i % w), \(i / w))"
        : "\(i < w * h + c ? "Cb" : "Cr") (\((i - w * h) % c % (w / 2)), \((i - w * h) % c / (w / 2)))"
      print("\(label): first difference at byte \(i), \(place): GPU \(got[i]), CPU \(want[i])")
    }
    XCTAssertLessThanOrEqual(worst, 1, "\(label): largest difference", file: file, line: line)
    XCTAssertGreaterThanOrEqual(exact, 0.99, "\(label): share of equal bytes", file: file, line: line)
    print("\(label) \(w)×\(h): \(String(format: "%.4f", exact * 100)) % of bytes equal, largest difference \(worst)")
    return (exact, worst)
  }

  /// Renders `list` as planes (startPlanes, finishPlanes) and holds them to the CPU conversion.
  private func check(
    _ gpu: GLRenderer, _ list: RenderList, background bg: SIMD3<UInt8>, _ label: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let got = try gpu.planes(try gpu.startPlanes(list, background: bg))
    assertPlanes(
      got, try expected(gpu, list, bg), width: list.width, height: list.height, label, file: file, line: line)
  }

  // MARK: - The bytes

  func testOpaquePicturesGiveTheCPUConversionsBytes() throws {
    guard let gpu = makeRenderer() else { return }
    for (w, h) in [(64, 40), (34, 22), (6, 2), (98, 62)] {
      let l = try picture(0.15, w, h)
      try check(gpu, RenderList(layer: l, width: w, height: h), background: .zero, "opaque picture")
    }
  }

  func testTranslucentContentIsCompositedOverTheBackground() throws {
    guard let gpu = makeRenderer() else { return }
    for (w, h) in [(34, 22), (98, 62), (130, 66)] {
      for bg: SIMD3<UInt8> in [SIMD3(30, 140, 220), SIMD3(255, 255, 255), SIMD3(7, 0, 250)] {
        try check(gpu, translucent(w, h), background: bg, "translucent over \(bg)")
      }
    }
  }

  func testRandomBytesIncludingInvalidPremultipliedPixels() throws {
    guard let gpu = makeRenderer() else { return }
    for (i, (w, h)) in [(34, 22), (130, 66), (6, 2), (256, 130)].enumerated() {
      try check(gpu, noise(w, h, seed: 0x5EED + UInt64(i)), background: SIMD3(200, 90, 17), "noise")
    }
  }

  func testATransition() throws {
    guard let gpu = makeRenderer() else { return }
    for p in [0.0, 0.37, 0.8] {
      try check(gpu, push(p, 98, 62), background: SIMD3(0, 0, 0), "push at \(p)")
    }
  }

  func testFullHDFramesAndTheTimeTheySave() throws {
    guard let gpu = makeRenderer() else { return }
    let bg = SIMD3<UInt8>(16, 32, 48)
    // 1918 × 1078: chroma rows of 959 bytes, so texels straddle rows and planes.
    for (w, h) in [(1920, 1080), (1918, 1078)] {
      let list = try RenderList(
        layer: SampleScene.cards(width: Double(w), height: Double(h)), width: w, height: h)
      try check(gpu, list, background: bg, "sample cards")
    }
    // The two ways, a few frames each (medians), printed. On llvmpipe (2 cores, release build)
    // the pack pass runs on the CPU too and costs more than it saves: 1920×1080 cards, render
    // 36 ms + convert 3.7 ms against renderPlanes 44 ms; a debug build's CPU conversion is slower.
    let list = try RenderList(layer: SampleScene.cards(width: 1920, height: 1080), width: 1920, height: 1080)
    var planes = [UInt8](repeating: 0, count: 1920 * 1080 * 3 / 2)
    var cpu: [Double] = []
    var gpuPlanes: [Double] = []
    for _ in 0..<5 {
      var start = Date()
      _ = try YUVConversion.convert(gpu.render(list), background: (bg.x, bg.y, bg.z), chroma: .yuv420)
      cpu.append(Date().timeIntervalSince(start))
      start = Date()
      try planes.withUnsafeMutableBytes { try gpu.renderPlanes(list, background: bg, into: $0) }
      gpuPlanes.append(Date().timeIntervalSince(start))
    }
    func median(_ v: [Double]) -> Int { Int(v.sorted()[v.count / 2] * 1000) }
    print(
      "1920×1080 on \(gpu.info.renderer): render + CPU convert \(median(cpu)) ms, renderPlanes \(median(gpuPlanes)) ms (medians of 5)"
    )
  }

  func testRenderPlanesIsStartThenFinish() throws {
    guard let gpu = makeRenderer() else { return }
    let list = try translucent(34, 22)
    let bg = SIMD3<UInt8>(30, 140, 220)
    let started = try gpu.planes(try gpu.startPlanes(list, background: bg))
    XCTAssertEqual(try gpu.renderPlanes(list, background: bg), started)
    var short = [UInt8](repeating: 0, count: 34 * 22 * 3 / 2 - 1)
    XCTAssertThrowsError(try short.withUnsafeMutableBytes { try gpu.renderPlanes(list, background: bg, into: $0) }) {
      XCTAssertEqual($0 as? RenderError, .planeBufferSize(expected: 1122, actual: 1121))
    }
    // Nothing was left waiting.
    XCTAssertEqual(try gpu.renderPlanes(list, background: bg), started)
  }

  // MARK: - The ring

  func testPlanesAndRGBAFramesShareTheRingInOrder() throws {
    guard let gpu = makeRenderer() else { return }
    let reference = try GLRenderer()
    let bg = SIMD3<UInt8>(30, 140, 220)
    // Mixed kinds and sizes, two in flight: the buffers are remade larger and reused smaller.
    let lists = try [
      push(0.2, 80, 48), translucent(34, 22), push(0.5, 160, 96), noise(130, 66, seed: 9), push(0.9, 30, 20),
    ]
    var pending: [(Int, PendingFrame)] = []
    func finishOldest() throws {
      let (j, frame) = pending.removeFirst()
      if j % 2 == 1 {
        XCTAssertEqual(try gpu.planes(frame), try expected(reference, lists[j], bg), "frame \(j)")
      } else {
        XCTAssertIdentical(try gpu.finish(frame), try reference.render(lists[j]), "frame \(j)")
      }
    }
    for (i, list) in lists.enumerated() {
      pending.append((i, i % 2 == 1 ? try gpu.startPlanes(list, background: bg) : try gpu.start(list)))
      if pending.count == gpu.framesInFlight { try finishOldest() }
    }
    while !pending.isEmpty { try finishOldest() }
  }

  func testOrderAndKindErrorsAreTyped() throws {
    guard let gpu = makeRenderer() else { return }
    let bg = SIMD3<UInt8>(0, 0, 0)
    func assertOutOfOrder<T>(_ body: @autoclosure () throws -> T, line: UInt = #line) {
      XCTAssertThrowsError(try body(), line: line) { error in
        guard case .framesOutOfOrder? = error as? RenderError else { return XCTFail("\(error)", line: line) }
      }
    }
    let a = try gpu.start(push(0.2, 40, 30))
    let b = try gpu.startPlanes(push(0.4, 40, 30), background: bg)
    // The ring is full, whichever way the next frame starts.
    assertOutOfOrder(try gpu.start(push(0.6, 40, 30)))
    assertOutOfOrder(try gpu.startPlanes(push(0.6, 40, 30), background: bg))
    // a started as RGBA: finishing it as planes is refused, and it stays waiting.
    assertOutOfOrder(try gpu.planes(a))
    // b is not the oldest.
    assertOutOfOrder(try gpu.planes(b))
    assertOutOfOrder(try gpu.finish(b))
    _ = try gpu.finish(a)
    assertOutOfOrder(try gpu.finish(a))
    // b started as planes: finish refuses it; a buffer of the wrong size too; both leave it waiting.
    assertOutOfOrder(try gpu.finish(b))
    var wrong = [UInt8](repeating: 0, count: 40 * 30 * 4)
    XCTAssertThrowsError(try wrong.withUnsafeMutableBytes { try gpu.finishPlanes(b, into: $0) }) {
      XCTAssertEqual($0 as? RenderError, .planeBufferSize(expected: 1800, actual: 4800))
    }
    XCTAssertEqual(try gpu.planes(b).count, 1800)
    assertOutOfOrder(try gpu.planes(b))
    // The ring is free again.
    _ = try gpu.finish(try gpu.start(push(0.6, 40, 30)))
  }

  func testOddSizesAreRefusedBeforeDrawing() throws {
    guard let gpu = makeRenderer() else { return }
    for (w, h) in [(33, 22), (34, 21), (1, 1)] {
      let list = try RenderList(layer: picture(0.3, w, h), width: w, height: h)
      XCTAssertThrowsError(try gpu.startPlanes(list, background: .zero)) {
        XCTAssertEqual($0 as? RenderError, .oddSizeForPlanes(width: w, height: h))
      }
      XCTAssertThrowsError(try gpu.renderPlanes(list)) {
        XCTAssertEqual($0 as? RenderError, .oddSizeForPlanes(width: w, height: h))
      }
    }
    // Nothing was started: two frames still fit in the ring.
    let a = try gpu.startPlanes(push(0.3, 34, 22), background: .zero)
    let b = try gpu.startPlanes(push(0.6, 34, 22), background: .zero)
    _ = try gpu.planes(a)
    _ = try gpu.planes(b)
  }
}

extension GLRenderer {
  /// finishPlanes into a new array of the frame's size.
  fileprivate func planes(_ frame: PendingFrame) throws -> [UInt8] {
    // Filled with a value the planes never hold where they are written, 0xA5 (> 240).
    var bytes = [UInt8](repeating: 0xA5, count: frame.width * frame.height * 3 / 2)
    try bytes.withUnsafeMutableBytes { try finishPlanes(frame, into: $0) }
    return bytes
  }
}
