// The GPU backend on its own: EGL start-up, the RenderList execution rules of RenderList.swift
// (pixel bounds, no y flip, groups, clips, manual bilinear), errors, and resource bounds.
// GPU-vs-CPU parity lives in the Parity tests.
//
// These tests never skip: a machine without a GPU still has Mesa's llvmpipe, and a renderer that
// cannot start is a failure, reported with GLError's one-line reason.

import Foundation
import LayerKit
import LayerKitGL
import LayerKitSamples
import LayerKitTesting
import XCTest

final class GLRendererTests: XCTestCase {
  // MARK: - Helpers

  private func fixture(_ name: String) throws -> URL {
    let base = try XCTUnwrap(Bundle.module.resourceURL, "test resources missing")
    return base.appendingPathComponent("Fixtures").appendingPathComponent(name)
  }

  private static let red = SIMD4<Float>(1, 0, 0, 1)

  /// A solid draw with identity mapping (local = target pixels).
  private func solid(
    _ rect: SIMD4<Float>, bounds: PixelRect, color: SIMD4<Float> = red, clips: [Clip] = []
  ) -> RenderOp {
    .draw(
      Draw(
        pixelBounds: bounds, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: rect)),
        paint: .color(color), clips: clips))
  }

  /// Asserts every pixel of `image` against `expected(x, y)`, naming the first mismatch.
  private func assertPixels(
    _ image: Image, tolerance: Int = 0, file: StaticString = #filePath, line: UInt = #line,
    _ expected: (Int, Int) -> SIMD4<UInt8>
  ) {
    for y in 0..<image.height {
      for x in 0..<image.width {
        let got = image.pixel(x: x, y: y)
        let want = expected(x, y)
        let ok = (0..<4).allSatisfy { abs(Int(got[$0]) - Int(want[$0])) <= tolerance }
        if !ok {
          XCTFail("pixel (\(x), \(y)) is \(got), expected \(want) ±\(tolerance)", file: file, line: line)
          return
        }
      }
    }
  }

  // MARK: - Start-up

  func testInfoNamesTheContext() throws {
    guard let renderer = makeRenderer() else { return }
    let info = renderer.info
    XCTAssertEqual(renderer.name, "gpu")
    XCTAssertTrue(info.version.contains("OpenGL ES 3"), info.version)
    XCTAssertTrue(info.shadingLanguageVersion.contains("ES"), info.shadingLanguageVersion)
    XCTAssertGreaterThanOrEqual(info.maxTextureSize, 2048)
    XCTAssertTrue(["surfaceless", "device", "gbm"].contains(info.platform), info.platform)
    XCTAssertFalse(info.renderer.isEmpty)
    XCTAssertFalse(info.eglVendor.isEmpty)
    XCTAssertTrue(info.description.contains("GL_VERSION: \(info.version)"), info.description)
    XCTAssertEqual(info.lines.first?.0, "EGL platform")
  }

  func testForcedDevicePlatformWorks() {
    do {
      let renderer = try GLRenderer(environment: ["LAYERKIT_EGL_PLATFORM": "device"])
      XCTAssertEqual(renderer.info.platform, "device")
      let image = try renderer.render(RenderList(width: 2, height: 2, clearColor: [0, 1, 0, 1]))
      XCTAssertEqual(image.pixel(x: 1, y: 1), [0, 255, 0, 255])
    } catch {
      XCTFail("LAYERKIT_EGL_PLATFORM=device: \(error)")
    }
  }

  func testUnknownForcedPlatformIsOneLineNoDisplay() {
    XCTAssertThrowsError(try GLRenderer(environment: ["LAYERKIT_EGL_PLATFORM": "wayland"])) {
      guard case .noDisplay(let message) = $0 as? GLError else {
        return XCTFail("expected GLError.noDisplay, got \($0)")
      }
      XCTAssertFalse(message.contains("\n"), message)
      XCTAssertTrue(message.contains("LAYERKIT_EGL_PLATFORM"), message)
    }
  }

  func testSeveralRenderersShareTheDisplay() throws {
    guard var first = makeRenderer(), let second = makeRenderer() else { return }
    let list = RenderList(width: 3, height: 2, clearColor: [0, 0, 1, 1])
    XCTAssertEqual(try first.render(list).pixel(x: 2, y: 1), [0, 0, 255, 255])
    XCTAssertEqual(try second.render(list).pixel(x: 2, y: 1), [0, 0, 255, 255])
    // Dropping one renderer must not terminate the display the other one uses.
    first = try XCTUnwrap(makeRenderer())
    XCTAssertEqual(try second.render(list).pixel(x: 0, y: 0), [0, 0, 255, 255])
    XCTAssertEqual(try first.render(list).pixel(x: 0, y: 0), [0, 0, 255, 255])
  }

  // MARK: - Execution rules

  func testClearColorIsRoundedToNearest() throws {
    guard let renderer = makeRenderer() else { return }
    // 0.25 × 255 = 63.75 → 64; 0.5 × 255 = 127.5 → 128 (half away from zero); 0.75 → 191.25 → 191.
    let image = try renderer.render(RenderList(width: 4, height: 3, clearColor: [0.25, 0.5, 0.75, 1]))
    XCTAssertEqual(image.width, 4)
    XCTAssertEqual(image.height, 3)
    assertPixels(image) { _, _ in [64, 128, 191, 255] }
  }

  func testSolidDrawCoversExactlyItsPixels() throws {
    guard let renderer = makeRenderer() else { return }
    let list = RenderList(
      width: 8, height: 8,
      ops: [solid([2, 2, 6, 6], bounds: PixelRect(x: 1, y: 1, width: 6, height: 6))])
    let image = try renderer.render(list)
    assertPixels(image) { x, y in (2...5).contains(x) && (2...5).contains(y) ? [255, 0, 0, 255] : .zero }
  }

  func testRowsAreTopDownWithNoFlip() throws {
    guard let renderer = makeRenderer() else { return }
    // Rows 1 and 2 only, near the top: a y-flip would put them at rows 5 and 6.
    let list = RenderList(
      width: 8, height: 8,
      ops: [solid([2, 1, 6, 3], bounds: PixelRect(x: 1, y: 0, width: 6, height: 4))])
    let image = try renderer.render(list)
    assertPixels(image) { x, y in (2...5).contains(x) && (1...2).contains(y) ? [255, 0, 0, 255] : .zero }
  }

  func testHalfCoveredEdgeIsHalfIntensity() throws {
    guard let renderer = makeRenderer() else { return }
    // Right edge at x = 3.5 crosses pixel 3's centre: coverage 0.5 → 127.5 → 128 (± the blend
    // unit's rounding).
    let list = RenderList(
      width: 6, height: 1,
      ops: [solid([0, 0, 3.5, 1], bounds: PixelRect(x: 0, y: 0, width: 6, height: 1))])
    let image = try renderer.render(list)
    XCTAssertEqual(image.pixel(x: 2, y: 0), [255, 0, 0, 255])
    let edge = image.pixel(x: 3, y: 0)
    XCTAssertLessThanOrEqual(abs(Int(edge.x) - 128), 1, "\(edge)")
    XCTAssertLessThanOrEqual(abs(Int(edge.w) - 128), 1, "\(edge)")
    XCTAssertEqual(image.pixel(x: 4, y: 0), .zero)
  }

  func testImageDrawnOneToOneReproducesItsBytes() throws {
    guard let renderer = makeRenderer() else { return }
    let width = 6
    let height = 5
    var bytes: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let a = UInt8(255 - (x * 37 + y * 11) % 200)
        bytes += [UInt8((x * 41 + y * 7) % Int(a)), UInt8((y * 53) % Int(a)), UInt8(x * y % Int(a)), a]
      }
    }
    let source = try Image(width: width, height: height, pixels: bytes)
    let draw = Draw(
      pixelBounds: PixelRect(x: 0, y: 0, width: width, height: height), mapping: .identity,
      shape: Shape(rect: RoundedRect(bounds: [0, 0, Float(width), Float(height)])),
      paint: .texture(
        .image(0), TextureTransform(scale: [1 / Float(width), 1 / Float(height)], offset: .zero)))
    let list = RenderList(width: width, height: height, images: [source], ops: [.draw(draw)])
    let image = try renderer.render(list)
    XCTAssertIdentical(image, source)
  }

  func testRotatedDrawStaysInsideItsPixelBounds() throws {
    guard let renderer = makeRenderer() else { return }
    let list = rotatedList()
    let image = try renderer.render(list)
    guard case .draw(let draw) = list.ops[0] else { return XCTFail("no draw") }
    let bounds = draw.pixelBounds
    var covered = 0
    for y in 0..<image.height {
      for x in 0..<image.width where image.pixel(x: x, y: y) != .zero {
        covered += 1
        XCTAssertTrue(
          bounds.x <= x && x < bounds.maxX && bounds.y <= y && y < bounds.maxY,
          "pixel (\(x), \(y)) drawn outside \(bounds)")
      }
    }
    XCTAssertGreaterThan(covered, 40)
    XCTAssertEqual(image.pixel(x: 10, y: 10), [255, 0, 0, 255])
    // The square's corners are rotated away from the bounding box's corners.
    XCTAssertEqual(image.pixel(x: bounds.x, y: bounds.y), .zero)
  }

  /// A 10×10 square centred at (10, 10) of a 20×20 target, rotated by 30°.
  private func rotatedList() -> RenderList {
    let angle = Float.pi / 6
    let c = cos(angle)
    let s = sin(angle)
    // local (x, y) → target: rotate about the origin, then translate by (10, 10).
    let toTarget = Matrix3(row0: [c, -s, 10], row1: [s, c, 10], row2: [0, 0, 1])
    let fromTarget = Matrix3(row0: [c, s, -10 * (c + s)], row1: [-s, c, -10 * (c - s)], row2: [0, 0, 1])
    let square: [SIMD2<Float>] = [[-5, -5], [5, -5], [5, 5], [-5, 5]]
    let corners = square.map {
      let p = toTarget.apply(SIMD3($0.x, $0.y, 1))
      return SIMD2(p.x, p.y)
    }
    let x0 = Int(corners.map(\.x).min()!.rounded(.down)) - 1
    let y0 = Int(corners.map(\.y).min()!.rounded(.down)) - 1
    let x1 = Int(corners.map(\.x).max()!.rounded(.up)) + 1
    let y1 = Int(corners.map(\.y).max()!.rounded(.up)) + 1
    let draw = Draw(
      pixelBounds: PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0),
      mapping: PlaneMapping(toTarget: toTarget, fromTarget: fromTarget),
      shape: Shape(rect: RoundedRect(bounds: [-5, -5, 5, 5], cornerRadius: 2)),
      paint: .color(GLRendererTests.red))
    return RenderList(width: 20, height: 20, ops: [.draw(draw)])
  }

  func testGroupCompositedAtHalfOpacity() throws {
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 4, height: 4)
    let composite = Draw(
      pixelBounds: full, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: [0, 0, 4, 4])),
      paint: .texture(.surface(7), TextureTransform(scale: [0.25, 0.25], offset: .zero)), opacity: 0.5)
    let list = RenderList(
      width: 4, height: 4, clearColor: [0, 0, 1, 1],
      ops: [
        .pushGroup(7, bounds: full),
        // The left half only; the group's right half stays transparent.
        solid([0, 0, 2, 4], bounds: PixelRect(x: 0, y: 0, width: 2, height: 4)),
        .popGroup(7),
        .draw(composite),
      ])
    let image = try renderer.render(list)
    // Left: (0.5, 0, 0, 0.5) over opaque blue = (0.5, 0, 0.5, 1) → 127.5 → 128 ± 1.
    assertPixels(image, tolerance: 1) { x, _ in x < 2 ? [128, 0, 128, 255] : [0, 0, 255, 255] }
    // The transparent part of the group leaves the target exactly as it was.
    assertPixels(image) { x, _ in x < 2 ? image.pixel(x: x, y: 0) : [0, 0, 255, 255] }
  }

  func testNestedGroupsReturnToTheRightTarget() throws {
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 4, height: 2)
    func composite(_ id: SurfaceID) -> RenderOp {
      .draw(
        Draw(
          pixelBounds: full, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: [0, 0, 4, 2])),
          paint: .texture(.surface(id), TextureTransform(scale: [0.25, 0.5], offset: .zero))))
    }
    let list = RenderList(
      width: 4, height: 2,
      ops: [
        .pushGroup(1, bounds: full),
        solid([0, 0, 1, 2], bounds: PixelRect(x: 0, y: 0, width: 1, height: 2), color: [0, 1, 0, 1]),
        .pushGroup(2, bounds: full),
        solid([3, 0, 4, 2], bounds: PixelRect(x: 3, y: 0, width: 1, height: 2)),
        .popGroup(2),
        composite(2),  // into group 1
        .popGroup(1),
        composite(1),  // into the target
      ])
    let image = try renderer.render(list)
    assertPixels(image) { x, _ in
      switch x {
      case 0: [0, 255, 0, 255]
      case 3: [255, 0, 0, 255]
      default: .zero
      }
    }
  }

  func testTwoClipsMultiply() throws {
    guard let renderer = makeRenderer() else { return }
    let clips = [
      Clip(mapping: .identity, rect: RoundedRect(bounds: [0, 0, 6, 8])),  // x < 6
      Clip(mapping: .identity, rect: RoundedRect(bounds: [0, 3, 8, 8])),  // y ≥ 3
    ]
    let list = RenderList(
      width: 8, height: 8,
      ops: [solid([0, 0, 8, 8], bounds: PixelRect(x: 0, y: 0, width: 8, height: 8), clips: clips)])
    let image = try renderer.render(list)
    assertPixels(image) { x, y in x < 6 && y >= 3 ? [255, 0, 0, 255] : .zero }
  }

  func testBorderDrawsOnlyTheRing() throws {
    guard let renderer = makeRenderer() else { return }
    let draw = Draw(
      pixelBounds: PixelRect(x: 0, y: 0, width: 6, height: 6), mapping: .identity,
      shape: Shape(rect: RoundedRect(bounds: [0, 0, 6, 6]), borderWidth: 1),
      paint: .color(GLRendererTests.red))
    let image = try renderer.render(RenderList(width: 6, height: 6, ops: [.draw(draw)]))
    assertPixels(image) { x, y in
      x == 0 || y == 0 || x == 5 || y == 5 ? [255, 0, 0, 255] : .zero
    }
  }

  func testSameListTwiceGivesIdenticalBytes() throws {
    guard let renderer = makeRenderer() else { return }
    var list = rotatedList()
    let texture = try Image(width: 3, height: 2, pixels: (0..<24).map { UInt8($0 * 10) | 0 })
    list.images = [texture]
    list.ops.append(
      .draw(
        Draw(
          pixelBounds: PixelRect(x: 2, y: 2, width: 9, height: 7), mapping: .identity,
          shape: Shape(rect: RoundedRect(bounds: [2.3, 2.6, 10.5, 8.2], cornerRadius: 3)),
          paint: .texture(.image(0), TextureTransform(scale: [0.13, 0.21], offset: [-0.2, 0.1])),
          opacity: 0.7)))
    let first = try renderer.render(list)
    let second = try renderer.render(list)
    XCTAssertIdentical(first, second)
    XCTAssertNotEqual(first.pixels, [UInt8](repeating: 0, count: first.pixels.count))
  }

  // MARK: - Errors

  func testTargetLargerThanMaxTextureSizeIsRejected() throws {
    guard let renderer = makeRenderer() else { return }
    let limit = renderer.info.maxTextureSize
    XCTAssertThrowsError(try renderer.render(RenderList(width: limit + 1, height: 1))) {
      guard case .targetTooLarge(let w, let h, _) = $0 as? RenderError else {
        return XCTFail("expected RenderError.targetTooLarge, got \($0)")
      }
      XCTAssertEqual(w, limit + 1)
      XCTAssertEqual(h, 1)
    }
  }

  func testMalformedListIsRejected() throws {
    guard let renderer = makeRenderer() else { return }
    let list = RenderList(
      width: 4, height: 4,
      ops: [solid([0, 0, 4, 4], bounds: PixelRect(x: 2, y: 2, width: 4, height: 4))])
    XCTAssertThrowsError(try renderer.render(list)) {
      guard case .malformedList(let index, _) = $0 as? RenderError else {
        return XCTFail("expected RenderError.malformedList, got \($0)")
      }
      XCTAssertEqual(index, 0)
    }
  }

  func testBrokenShaderNamesFileStageAndLine() throws {
    guard let renderer = makeRenderer() else { return }
    let vertex = try fixture("fullscreen.vert")
    let broken = try fixture("broken.frag")
    // Line 9 of broken.frag, with and without a prepended define (the #line keeps it true).
    for defines in [[], [("LAYERKIT_TEST", "1"), ("MAX_CLIPS", "4")]] {
      XCTAssertThrowsError(
        try renderer.checkProgram(vertex: vertex, fragment: broken, defines: defines)
      ) {
        guard case .shaderCompile(let file, let stage, let line, let message, let excerpt) = $0 as? GLError
        else { return XCTFail("expected GLError.shaderCompile, got \($0)") }
        XCTAssertEqual(URL(fileURLWithPath: file).lastPathComponent, "broken.frag")
        XCTAssertEqual(stage, .fragment)
        XCTAssertEqual(line, 9, "\($0)")
        XCTAssertTrue(message.contains("undeclaredColor"), message)
        XCTAssertTrue(excerpt.contains(">  9 |   fragColor = undeclaredColor;"), excerpt)
      }
    }
  }

  /// Asserts that checking `fragment` (with fullscreen.vert) fails to compile in the file named
  /// `file` at `line`, with `text` shown as that line in the excerpt.
  private func assertCompileError(
    _ renderer: GLRenderer, _ fragment: String, defines: [(String, String)] = [], file: String, line: Int,
    text: String, sourceFile: StaticString = #filePath, sourceLine: UInt = #line
  ) throws {
    XCTAssertThrowsError(
      try renderer.checkProgram(
        vertex: try fixture("fullscreen.vert"), fragment: try fixture(fragment), defines: defines)
    ) {
      guard case .shaderCompile(let gotFile, let stage, let gotLine, let message, let excerpt) = $0 as? GLError else {
        return XCTFail("expected GLError.shaderCompile, got \($0)", file: sourceFile, line: sourceLine)
      }
      XCTAssertTrue(gotFile.hasSuffix(file), "\(gotFile) is not \(file)", file: sourceFile, line: sourceLine)
      XCTAssertEqual(stage, .fragment, file: sourceFile, line: sourceLine)
      XCTAssertEqual(gotLine, line, "\($0)", file: sourceFile, line: sourceLine)
      XCTAssertTrue(
        excerpt.split(separator: "\n").contains { $0.hasPrefix(">") && $0.hasSuffix("| " + text) },
        "\(message)\n\(excerpt)", file: sourceFile, line: sourceLine)
    }
  }

  func testErrorInAnIncludedFileNamesThatFileAndItsLine() throws {
    guard let renderer = makeRenderer() else { return }
    // include/includes_broken.frag includes broken_prelude.glsl, which includes prelude.glsl and
    // then fails on its own line 4: the nested include does not shift the line.
    for defines in [[], [("LAYERKIT_TEST", "1")]] {
      try assertCompileError(
        renderer, "include/includes_broken.frag", defines: defines, file: "Fixtures/include/broken_prelude.glsl",
        line: 4, text: "float preludeBroken() { return undeclaredInPrelude; }")
    }
  }

  func testErrorAfterIncludesKeepsTheIncludingFilesLine() throws {
    guard let renderer = makeRenderer() else { return }
    // Three includes (the shipped sampler from Shaders/, twice, and a file beside the fixture)
    // before line 16 leave it line 16 of the fixture.
    for defines in [[], [("LAYERKIT_TEST", "1"), ("MAX_CLIPS", "4")]] {
      try assertCompileError(
        renderer, "include/error_after_includes.frag", defines: defines,
        file: "Fixtures/include/error_after_includes.frag", line: 16,
        text: "  fragColor = c * undeclaredAfterIncludes;")
    }
  }

  func testMissingIncludeNamesTheIncludeLine() throws {
    guard let renderer = makeRenderer() else { return }
    try assertCompileError(
      renderer, "include/missing_include.frag", file: "Fixtures/include/missing_include.frag", line: 4,
      text: "#include \"no_such_prelude.glsl\"")
  }

  func testValidAndMismatchedFixtures() throws {
    guard let renderer = makeRenderer() else { return }
    let vertex = try fixture("fullscreen.vert")
    XCTAssertNoThrow(try renderer.checkProgram(vertex: vertex, fragment: fixture("valid.frag")))
    XCTAssertThrowsError(try renderer.checkProgram(vertex: vertex, fragment: fixture("mismatched.frag"))) {
      guard case .programLink(let files, _) = $0 as? GLError else {
        return XCTFail("expected GLError.programLink, got \($0)")
      }
      XCTAssertEqual(files.map { URL(fileURLWithPath: $0).lastPathComponent }, ["fullscreen.vert", "mismatched.frag"])
    }
    XCTAssertThrowsError(try renderer.checkProgram(vertex: vertex, fragment: fixture("absent.frag"))) {
      guard case .resourceMissing = $0 as? GLError else {
        return XCTFail("expected GLError.resourceMissing, got \($0)")
      }
    }
  }

  func testShaderLogFormats() {
    let mesa = ShaderLog.firstError("0:12(3): error: `foo' undeclared\n0:13(1): error: bar\n")
    XCTAssertEqual(mesa.line, 12)
    XCTAssertEqual(mesa.message, "error: `foo' undeclared")
    let nvidia = ShaderLog.firstError("0(27) : error C1008: undefined variable \"foo\"\n")
    XCTAssertEqual(nvidia.line, 27)
    XCTAssertEqual(nvidia.message, "error C1008: undefined variable \"foo\"")
    let angle = ShaderLog.firstError("ERROR: 0:5: 'foo' : undeclared identifier\n")
    XCTAssertEqual(angle.line, 5)
    let unknown = ShaderLog.firstError("something went wrong")
    XCTAssertNil(unknown.line)
    XCTAssertEqual(ShaderLog.excerpt("a\nb\nc", line: 2, radius: 1), "  1 | a\n> 2 | b\n  3 | c")
  }

  // MARK: - Resources

  func testManyFramesDoNotGrowTheCaches() throws {
    guard let renderer = makeRenderer() else { return }
    let draw = Draw(
      pixelBounds: PixelRect(x: 0, y: 0, width: 4, height: 4), mapping: .identity,
      shape: Shape(rect: RoundedRect(bounds: [0, 0, 4, 4])),
      paint: .texture(.image(0), TextureTransform(scale: [0.25, 0.25], offset: .zero)))
    for frame in 0..<200 {
      let value = UInt8(frame % 256)
      let image = try Image(width: 2, height: 2, pixels: [UInt8](repeating: value, count: 16))
      let list = RenderList(
        width: 4, height: 4, images: [image], ops: [.pushGroup(0, bounds: draw.pixelBounds), .draw(draw), .popGroup(0)])
      let out = try renderer.render(list)
      XCTAssertEqual(out.width, 4)
      XCTAssertLessThanOrEqual(renderer.cachedImageCount, 4, "frame \(frame)")
      XCTAssertLessThanOrEqual(renderer.pooledTargetCount, 2, "frame \(frame)")
      XCTAssertLessThanOrEqual(renderer.freeImageTextureCount, 4, "frame \(frame)")
    }
  }

  /// A video brings a new image of one size every frame (clip frames): dropped textures are
  /// refilled for the next ones, and every frame shows its own image, not a texture's old one.
  func testRecycledImageTexturesHoldTheNewImage() throws {
    guard let renderer = makeRenderer() else { return }
    var rng = SeededRandom(seed: 5)
    var reused = false
    for frame in 0..<12 {
      var pixels = [UInt8](repeating: 255, count: 8 * 6 * 4)
      for i in pixels.indices where i % 4 != 3 { pixels[i] = UInt8(truncatingIfNeeded: rng.next()) }
      let image = try Image(width: 8, height: 6, pixels: pixels)
      let layer = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 6))
      layer.contents = image
      reused = reused || renderer.freeImageTextureCount > 0
      XCTAssertIdentical(
        try renderer.render(try RenderList(layer: layer, width: 8, height: 6)), image, "frame \(frame)")
    }
    XCTAssertTrue(reused, "no texture was free for reuse")
  }

  /// A long render holds a flat number of GL objects: what frames make (groups, blurs, shadows,
  /// transitions, read-back buffers and fences) is released or pooled, not kept per frame.
  func testGLObjectsStayFlatOverManyFrames() throws {
    guard let renderer = makeRenderer() else { return }
    let from = try SampleScene.cards(width: 160, height: 90)
    let to = try SampleScene.effects(width: 160, height: 90)
    func frame(_ k: Int) throws {
      let list =
        k % 2 == 0
        ? try RenderList(layer: k % 4 == 0 ? from : to, width: 160, height: 90)
        : try RenderList(
          transitionFrom: from, to: to, width: 160, height: 90, effect: "pageCurlWithShadow", parameters: [:],
          progress: Double(k % 10) / 10)
      _ = try renderer.render(list)
    }
    for k in 0..<8 { try frame(k) }
    let early = renderer.liveObjects
    XCTAssertGreaterThan(early.textures, 0)
    XCTAssertGreaterThan(early.programs, 0)
    for k in 8..<80 { try frame(k) }
    XCTAssertEqual(renderer.liveObjects, early)
  }
}
