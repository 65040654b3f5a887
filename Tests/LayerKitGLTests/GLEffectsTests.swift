// The GPU backend's surfaces and effects on their own: groups with bounds, backdrop copies,
// filter passes (blur, colour matrix, tint), masks, blend modes, paths, and the validation rules
// they come with (RenderList.swift). GPU-vs-CPU parity lives in the Parity tests.
//
// These tests never skip: a machine without a GPU still has Mesa's llvmpipe, and a renderer that
// cannot start is a failure, reported with GLError's one-line reason.

import Foundation
import LayerKit
import LayerKitGL
import LayerKitTesting
import XCTest

final class GLEffectsTests: XCTestCase {
  // MARK: - Helpers

  private static let red = SIMD4<Float>(1, 0, 0, 1)

  /// A solid rectangle with identity mapping covering exactly `rect`'s pixels (whole numbers).
  private func solid(_ rect: PixelRect, color: SIMD4<Float> = red) -> RenderOp {
    .draw(
      Draw(
        pixelBounds: rect, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: box(rect))),
        paint: .color(color)))
  }

  private func box(_ r: PixelRect) -> SIMD4<Float> {
    SIMD4(Float(r.x), Float(r.y), Float(r.maxX), Float(r.maxY))
  }

  /// The texture transform that maps target pixels onto a surface covering `bounds`.
  private func over(_ bounds: PixelRect) -> TextureTransform {
    let w = Float(bounds.width)
    let h = Float(bounds.height)
    return TextureTransform(scale: [1 / w, 1 / h], offset: [-Float(bounds.x) / w, -Float(bounds.y) / h])
  }

  /// Draws surface `id` (covering `bounds`) back at its own place, one texel per pixel.
  private func present(_ id: SurfaceID, _ bounds: PixelRect, opacity: Float = 1) -> RenderOp {
    .draw(
      Draw(
        pixelBounds: bounds, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: box(bounds))),
        paint: .texture(.surface(id), over(bounds)), opacity: opacity))
  }

  /// An image of varied premultiplied pixels (some opaque, some translucent, one transparent).
  private func pattern(width: Int, height: Int, opaque: Bool = false) throws -> LayerKit.Image {
    var bytes: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let a = opaque ? 255 : (x == 0 && y == 0 ? 0 : 255 - (x * 37 + y * 11) % 200)
        let m = max(a, 1)
        bytes += [
          UInt8((x * 41 + y * 7 + 3) % m), UInt8((y * 53 + 11) % m), UInt8((x * y + 5) % m), UInt8(a),
        ]
      }
    }
    return try LayerKit.Image(width: width, height: height, pixels: bytes)
  }

  private func imageDraw(_ index: ImageID, at bounds: PixelRect) -> RenderOp {
    .draw(
      Draw(
        pixelBounds: bounds, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: box(bounds))),
        paint: .texture(.image(index), over(bounds))))
  }

  private func near(_ got: SIMD4<UInt8>, _ want: SIMD4<UInt8>, _ tolerance: Int) -> Bool {
    (0..<4).allSatisfy { abs(Int(got[$0]) - Int(want[$0])) <= tolerance }
  }

  /// Asserts every pixel of `image` against `expected(x, y)`, naming the first mismatch.
  private func assertPixels(
    _ image: LayerKit.Image, tolerance: Int = 0, file: StaticString = #filePath, line: UInt = #line,
    _ expected: (Int, Int) -> SIMD4<UInt8>
  ) {
    for y in 0..<image.height {
      for x in 0..<image.width {
        let got = image.pixel(x: x, y: y)
        let want = expected(x, y)
        if !near(got, want, tolerance) {
          XCTFail("pixel (\(x), \(y)) is \(got), expected \(want) ±\(tolerance)", file: file, line: line)
          return
        }
      }
    }
  }

  private func assertMalformed(
    _ list: RenderList, at index: Int, file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertThrowsError(try list.validate(), file: file, line: line) {
      guard case .malformedList(let i, _) = $0 as? RenderError else {
        return XCTFail("expected RenderError.malformedList, got \($0)", file: file, line: line)
      }
      XCTAssertEqual(i, index, file: file, line: line)
    }
    guard let renderer = makeRenderer(file: file, line: line) else { return }
    XCTAssertThrowsError(try renderer.render(list), file: file, line: line) {
      guard case .malformedList(let i, _) = $0 as? RenderError else {
        return XCTFail("expected RenderError.malformedList, got \($0)", file: file, line: line)
      }
      XCTAssertEqual(i, index, file: file, line: line)
    }
  }

  // MARK: - Start-up

  func testProgramsAreBuiltAtFirstUseAndAllBuild() throws {
    guard let renderer = makeRenderer() else { return }
    // Nothing is linked before a render needs it; a fade links its transition effect and the
    // layer variant its pictures take, and nothing else of the catalogue.
    XCTAssertEqual(renderer.linkedProgramCounts.layers, 0)
    XCTAssertEqual(renderer.linkedProgramCounts.transitions, 0)
    let a = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
    a.backgroundColor = .white
    let b = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
    b.backgroundColor = Color(red: 1, green: 0, blue: 0)
    let fade = try renderer.render(
      try RenderList(transitionFrom: a, to: b, width: 8, height: 8, effect: "fade", progress: 0.5))
    XCTAssertLessThanOrEqual(abs(Int(fade.pixel(x: 4, y: 4).y) - 128), 1)
    XCTAssertEqual(renderer.linkedProgramCounts.transitions, 1)
    XCTAssertEqual(renderer.linkedProgramCounts.filters, 0)
    XCTAssertGreaterThan(renderer.linkedProgramCounts.layers, 0)
    XCTAssertLessThan(renderer.linkedProgramCounts.layers, 4)
    let start = Date()
    try renderer.buildAllPrograms()
    let seconds = Date().timeIntervalSince(start)
    // What the renderer actually linked, not a sum of constants: 16 common layer variants + 8 for
    // masks, paths and blend modes + 2 for coverage masks (shape layers), 3 filters and the
    // contents crossfade, and one program per built-in transition effect.
    let linked = renderer.linkedProgramCounts
    XCTAssertEqual(linked.layers, 26)
    XCTAssertEqual(linked.filters, 4)
    XCTAssertEqual(linked.transitions, TransitionEffects.all.count)
    XCTAssertEqual(linked.transitions, 16)
    print(
      "buildAllPrograms: \(linked.layers + linked.filters + linked.transitions) programs in "
        + "\(Int(seconds * 1000)) ms (\(renderer.info.renderer))")
  }

  func testShaderFilesCompileAlone() throws {
    // With no defines every file takes its defaults (all features compiled in).
    guard let renderer = makeRenderer() else { return }
    let quadVertex = try XCTUnwrap(GLRenderer.builtInShaderURL("layer/layer_quad.vert"))
    let quadFragment = try XCTUnwrap(GLRenderer.builtInShaderURL("layer/layer_quad.frag"))
    XCTAssertNoThrow(try renderer.checkProgram(vertex: quadVertex, fragment: quadFragment))
    let effectVertex = try XCTUnwrap(GLRenderer.builtInShaderURL("effects/effect_quad.vert"))
    for name in ["blur", "color_matrix", "tint"] {
      let fragment = try XCTUnwrap(GLRenderer.builtInShaderURL("effects/\(name).frag"))
      XCTAssertNoThrow(try renderer.checkProgram(vertex: effectVertex, fragment: fragment), name)
    }
  }

  // MARK: - Surfaces

  func testGroupWithSmallerBoundsIsCompositedInPlace() throws {
    guard let renderer = makeRenderer() else { return }
    let groupBounds = PixelRect(x: 2, y: 3, width: 5, height: 4)
    // Inside the group: a rectangle whose right edge x = 5.5 crosses pixel 5's centre, so the
    // fragment shader must see target pixel centres (not surface ones) to give 0.5 there.
    let inner = Draw(
      pixelBounds: PixelRect(x: 3, y: 4, width: 3, height: 2), mapping: .identity,
      shape: Shape(rect: RoundedRect(bounds: [3, 4, 5.5, 6])), paint: .color(GLEffectsTests.red))
    let list = RenderList(
      width: 9, height: 8, clearColor: [0, 0, 1, 1],
      ops: [
        .pushGroup(1, bounds: groupBounds),
        .draw(inner),
        .popGroup(1),
        present(1, groupBounds),
      ])
    let image = try renderer.render(list)
    assertPixels(image, tolerance: 1) { x, y in
      guard (4...5).contains(y) else { return [0, 0, 255, 255] }
      switch x {
      case 3, 4: return [255, 0, 0, 255]
      // 0.5 red over blue: (0.5, 0, 0.5, 1).
      case 5: return [128, 0, 128, 255]
      default: return [0, 0, 255, 255]
      }
    }
  }

  func testCopyBackdropDrawnBackReproducesThePixels() throws {
    guard let renderer = makeRenderer() else { return }
    let source = try pattern(width: 8, height: 6)
    let groupBounds = PixelRect(x: 1, y: 1, width: 6, height: 5)
    let copyBounds = PixelRect(x: 2, y: 2, width: 4, height: 3)
    let list = RenderList(
      width: 8, height: 6, images: [source],
      ops: [
        .pushGroup(1, bounds: groupBounds),
        imageDraw(0, at: PixelRect(x: 0, y: 0, width: 8, height: 6)).clipped(to: groupBounds),
        .copyBackdrop(2, bounds: copyBounds),
        .popGroup(1),
        present(2, copyBounds),
      ])
    let image = try renderer.render(list)
    assertPixels(image) { x, y in
      copyBounds.contains(x, y) ? source.pixel(x: x, y: y) : .zero
    }
    // And from the main target.
    let fromMain = RenderList(
      width: 8, height: 6, images: [source],
      ops: [
        imageDraw(0, at: PixelRect(x: 0, y: 0, width: 8, height: 6)),
        .copyBackdrop(3, bounds: copyBounds),
        .pushGroup(4, bounds: PixelRect(x: 0, y: 0, width: 8, height: 6)),
        present(3, copyBounds),
        .popGroup(4),
        .filter(
          FilterPass(
            input: 4, output: 5, bounds: PixelRect(x: 0, y: 0, width: 8, height: 6),
            operation: .colorMatrix(.identity))),
      ])
    // The main target still holds the image; group 4 holds the copy alone (checked through a
    // filter so that it is read back by a later op).
    XCTAssertIdentical(try renderer.render(fromMain), source)
  }

  // MARK: - Filters

  /// A group holding one opaque white pixel at (4, 4) of a 9×9 target.
  private func singlePixelOps() -> [RenderOp] {
    [
      .pushGroup(1, bounds: PixelRect(x: 0, y: 0, width: 9, height: 9)),
      solid(PixelRect(x: 4, y: 4, width: 1, height: 1), color: [1, 1, 1, 1]),
      .popGroup(1),
    ]
  }

  func testSeparableBlurOfOnePixel() throws {
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 9, height: 9)
    let weights: [Float] = [0.5, 0.25]
    let list = RenderList(
      width: 9, height: 9,
      ops: singlePixelOps() + [
        .filter(FilterPass(input: 1, output: 2, bounds: full, operation: .blur(.horizontal, weights: weights))),
        .filter(FilterPass(input: 2, output: 3, bounds: full, operation: .blur(.vertical, weights: weights))),
        present(3, full),
      ])
    let image = try renderer.render(list)
    // The outer product of (0.25, 0.5, 0.25) with itself, through an RGBA8 store in between.
    assertPixels(image, tolerance: 1) { x, y in
      let dx = abs(x - 4)
      let dy = abs(y - 4)
      guard dx <= 1, dy <= 1 else { return .zero }
      let v: UInt8 = dx + dy == 0 ? 64 : (dx + dy == 1 ? 32 : 16)
      return SIMD4(repeating: v)
    }
    var total = 0
    for y in 0..<9 { for x in 0..<9 { total += Int(image.pixel(x: x, y: y).w) } }
    // Weights summing to 1 keep the total alpha, up to one rounding step per touched pixel.
    XCTAssertLessThanOrEqual(abs(total - 255), 9, "total alpha \(total)")
  }

  func testBlurReadsTransparentOutsideTheInputBounds() throws {
    guard let renderer = makeRenderer() else { return }
    let inputBounds = PixelRect(x: 3, y: 1, width: 3, height: 2)
    let outputBounds = PixelRect(x: 1, y: 1, width: 7, height: 2)
    let list = RenderList(
      width: 9, height: 4,
      ops: [
        .pushGroup(1, bounds: inputBounds),
        solid(inputBounds),
        .popGroup(1),
        .filter(
          FilterPass(
            input: 1, output: 2, bounds: outputBounds, operation: .blur(.horizontal, weights: [0.5, 0.25]))),
        present(2, outputBounds),
      ])
    let image = try renderer.render(list)
    // Input red on x = 3…5. Clamping instead would give 0.75 at x = 2 and 0.25 at x = 1.
    let expected: [Int: Float] = [2: 0.25, 3: 0.75, 4: 1, 5: 0.75, 6: 0.25]
    assertPixels(image, tolerance: 1) { x, y in
      guard (1...2).contains(y), let v = expected[x] else { return .zero }
      let b = UInt8((v * 255).rounded())
      return [b, 0, 0, b]
    }
  }

  func testColorMatrixIdentityIsExactAndInvertComplements() throws {
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 7, height: 5)
    for opaque in [false, true] {
      let source = try pattern(width: 7, height: 5, opaque: opaque)
      let invert = ColorMatrix(
        r: [-1, 0, 0, 0], g: [0, -1, 0, 0], b: [0, 0, -1, 0], a: [0, 0, 0, 1], bias: [1, 1, 1, 0])
      for (matrix, name) in [(ColorMatrix.identity, "identity"), (invert, "invert")] {
        if name == "invert" && !opaque { continue }
        let list = RenderList(
          width: 7, height: 5, images: [source],
          ops: [
            .pushGroup(1, bounds: full),
            imageDraw(0, at: full),
            .popGroup(1),
            .filter(FilterPass(input: 1, output: 2, bounds: full, operation: .colorMatrix(matrix))),
            present(2, full),
          ])
        let image = try renderer.render(list)
        if name == "identity" {
          XCTAssertIdentical(image, source, "identity, opaque: \(opaque)")
        } else {
          assertPixels(image) { x, y in
            let c = source.pixel(x: x, y: y)
            return [255 - c.x, 255 - c.y, 255 - c.z, 255]
          }
        }
      }
    }
  }

  func testColorMatrixFollowsRenderMath() throws {
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 7, height: 5)
    let source = try pattern(width: 7, height: 5)
    let matrix = ColorMatrix(
      r: [0.6, 0.3, 0.1, 0], g: [0.2, 0.7, 0.1, 0], b: [0.1, 0.2, 0.9, 0.05], a: [0, 0, 0, 0.8],
      bias: [0.05, -0.1, 0, 0.1])
    let input = PixelRect(x: 1, y: 1, width: 5, height: 3)
    let list = RenderList(
      width: 7, height: 5, images: [source],
      ops: [
        .pushGroup(1, bounds: input),
        imageDraw(0, at: full).clipped(to: input),
        .popGroup(1),
        // Wider than the input: outside it the input reads transparent, and the bias shows.
        .filter(FilterPass(input: 1, output: 2, bounds: full, operation: .colorMatrix(matrix))),
        present(2, full),
      ])
    let image = try renderer.render(list)
    assertPixels(image, tolerance: 1) { x, y in
      let inside = input.contains(x, y)
      let p = source.pixel(x: x, y: y)
      let texel = inside ? SIMD4(Float(p.x), Float(p.y), Float(p.z), Float(p.w)) / 255 : .zero
      return RenderMath.unorm8(RenderMath.applyColorMatrix(matrix, texel))
    }
  }

  func testTintTakesTheInputAlpha() throws {
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 4, height: 2)
    let list = RenderList(
      width: 4, height: 2,
      ops: [
        .pushGroup(1, bounds: full),
        solid(PixelRect(x: 0, y: 0, width: 2, height: 2), color: [1, 0, 0, 1]),
        solid(PixelRect(x: 2, y: 0, width: 1, height: 2), color: [0, 0, 0.5, 0.5]),
        .popGroup(1),
        .filter(FilterPass(input: 1, output: 2, bounds: full, operation: .tint([0, 0.5, 0, 0.5]))),
        present(2, full),
      ])
    let image = try renderer.render(list)
    assertPixels(image, tolerance: 1) { x, _ in
      switch x {
      case 0, 1: [0, 128, 0, 128]
      case 2: [0, 64, 0, 64]  // 0.5 × 128 / 255
      default: .zero
      }
    }
  }

  // MARK: - Masks, blend modes, paths

  func testMaskSurfaceMultipliesCoverage() throws {
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 4, height: 4)
    let maskBounds = PixelRect(x: 0, y: 0, width: 4, height: 4)
    let draw = Draw(
      pixelBounds: full, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: box(full))),
      paint: .color(GLEffectsTests.red), mask: SurfaceMask(surface: 1, transform: over(maskBounds)))
    let list = RenderList(
      width: 4, height: 4,
      ops: [
        .pushGroup(1, bounds: maskBounds),
        // Half alpha on the left half, nothing on the right.
        solid(PixelRect(x: 0, y: 0, width: 2, height: 4), color: [0, 0, 0, 0.5]),
        .popGroup(1),
        .draw(draw),
      ])
    let image = try renderer.render(list)
    assertPixels(image, tolerance: 1) { x, _ in x < 2 ? [128, 0, 0, 128] : .zero }
  }

  func testOpaqueMaskChangesNoBit() throws {
    // The mask, blend and path variants carry the clip loop and the ring code compiled in; with
    // an opaque mask the result must equal the plain variants' bit for bit.
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 12, height: 10)
    let source = try pattern(width: 5, height: 4)
    let angle = Float(0.3)
    let (c, s) = (cos(angle), sin(angle))
    let mapping = PlaneMapping(
      toTarget: Matrix3(row0: [c, -s, 6], row1: [s, c, 5], row2: [0, 0, 1]),
      fromTarget: Matrix3(row0: [c, s, -(6 * c + 5 * s)], row1: [-s, c, 6 * s - 5 * c], row2: [0, 0, 1]))
    let clip = Clip(mapping: .identity, rect: RoundedRect(bounds: [1.3, 0.5, 10.2, 9.1], cornerRadius: 2))
    var draws: [Draw] = []
    for texture in [false, true] {
      for border: Float in [0, 1.5] {
        for clips in [[], [clip]] {
          draws.append(
            Draw(
              pixelBounds: full, mapping: mapping,
              shape: Shape(rect: RoundedRect(bounds: [-4.3, -3.7, 4.1, 3.9], cornerRadius: 1.7), borderWidth: border),
              paint: texture
                ? .texture(.image(0), TextureTransform(scale: [0.11, 0.13], offset: [0.5, 0.5]))
                : .color([0.2, 0.4, 0.6, 0.8]),
              opacity: 0.9, clips: clips))
        }
      }
    }
    let maskOps: [RenderOp] = [
      .pushGroup(9, bounds: full), solid(full, color: [0, 0, 0, 1]), .popGroup(9),
    ]
    for draw in draws {
      var masked = draw
      masked.mask = SurfaceMask(surface: 9, transform: over(full))
      let plain = RenderList(width: 12, height: 10, images: [source], ops: maskOps + [.draw(draw)])
      let withMask = RenderList(width: 12, height: 10, images: [source], ops: maskOps + [.draw(masked)])
      let a = try renderer.render(plain)
      XCTAssertNotEqual(a.pixels, [UInt8](repeating: 0, count: a.pixels.count))
      XCTAssertIdentical(
        a, try renderer.render(withMask),
        "\(draw.paint) border \(draw.shape.borderWidth) clips \(draw.clips.count)")
    }
  }

  func testMultiplyBlendGivesTheProduct() throws {
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 6, height: 4)
    let area = PixelRect(x: 1, y: 1, width: 4, height: 2)
    let draw = Draw(
      pixelBounds: area, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: box(area))),
      paint: .color([0.6, 0.5, 0.2, 1]), blendMode: .multiply, backdrop: 1)
    let list = RenderList(
      width: 6, height: 4, clearColor: [0.5, 0.8, 1, 1],
      ops: [.copyBackdrop(1, bounds: full), .draw(draw)])
    let image = try renderer.render(list)
    // Backdrop bytes (128, 204, 255, 255) times (0.6, 0.5, 0.2).
    assertPixels(image, tolerance: 1) { x, y in
      area.contains(x, y) ? [77, 102, 51, 255] : [128, 204, 255, 255]
    }
  }

  func testBlendLeavesPixelsItDoesNotCoverAlone() throws {
    // Inside its pixel bounds but outside its shape a blend draw stores nothing, like
    // source-over. (composite(luminosity, 0, gray) is NaN for some grays, through clipColor's
    // l / (l − n) with l = n: 29/255 is one.)
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 6, height: 4)
    let gray = Float(29) / 255
    let src = SIMD4<Float>(0.2, 0.6, 0.4, 1)
    for mode in [BlendMode.luminosity, .multiply, .hue] {
      let draw = Draw(
        pixelBounds: full, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: [1, 1, 5, 3])),
        paint: .color(src), blendMode: mode, backdrop: 1)
      let list = RenderList(
        width: 6, height: 4, clearColor: [gray, gray, gray, 1],
        ops: [.copyBackdrop(1, bounds: full), .draw(draw)])
      let image = try renderer.render(list)
      let inside = RenderMath.unorm8(RenderMath.composite(mode, src, [gray, gray, gray, 1]))
      assertPixels(image) { x, y in
        (1..<5).contains(x) && (1..<3).contains(y) ? image.pixel(x: x, y: y) : [29, 29, 29, 255]
      }
      XCTAssertTrue(near(image.pixel(x: 2, y: 1), inside, 1), "\(mode): \(image.pixel(x: 2, y: 1)) vs \(inside)")
    }
  }

  func testBlendModesInsideAnOffsetGroup() throws {
    // The backdrop is a copy of an offset group's pixels: the shader must fetch it at
    // (target pixel − backdrop origin). Screen of (0.5, 0, 0) onto red-and-blue halves.
    guard let renderer = makeRenderer() else { return }
    let group = PixelRect(x: 2, y: 1, width: 4, height: 3)
    let copy = PixelRect(x: 3, y: 1, width: 3, height: 2)
    let draw = Draw(
      pixelBounds: copy, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: box(copy))),
      paint: .color([0, 0.5, 0, 1]), blendMode: .screen, backdrop: 5)
    let list = RenderList(
      width: 8, height: 5,
      ops: [
        .pushGroup(1, bounds: group),
        solid(PixelRect(x: 2, y: 1, width: 2, height: 3), color: [1, 0, 0, 1]),
        solid(PixelRect(x: 4, y: 1, width: 2, height: 3), color: [0, 0, 1, 1]),
        .copyBackdrop(5, bounds: copy),
        .draw(draw),
        .popGroup(1),
        present(1, group),
      ])
    let image = try renderer.render(list)
    assertPixels(image, tolerance: 1) { x, y in
      guard group.contains(x, y) else { return .zero }
      let base: SIMD4<UInt8> = x < 4 ? [255, 0, 0, 255] : [0, 0, 255, 255]
      guard copy.contains(x, y) else { return base }
      return [base.x, 128, base.z, 255]  // screen(cb, 0.5) = cb + 0.5 − 0.5 cb
    }
  }

  func testEveryBlendModeFollowsRenderMathComposite() throws {
    // Each pixel pairs a source and a backdrop colour (translucent ones included); the shader's
    // composite must agree with RenderMath.composite on every mode.
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 9, height: 7)
    let backdrop = try pattern(width: 9, height: 7)
    var bytes: [UInt8] = []
    for y in 0..<7 {
      for x in 0..<9 {
        let a = 255 - (x * 23 + y * 41) % 256 % 180
        bytes += [
          UInt8((x * 67 + y * 13) % (a + 1)), UInt8((y * 29 + x * 5) % (a + 1)), UInt8((x * y * 7) % (a + 1)), UInt8(a),
        ]
      }
    }
    let source = try LayerKit.Image(width: 9, height: 7, pixels: bytes)
    for mode in BlendMode.allCases where mode != .normal {
      let draw = Draw(
        pixelBounds: full, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: box(full))),
        paint: .texture(.image(1), over(full)), blendMode: mode, backdrop: 1)
      let list = RenderList(
        width: 9, height: 7, images: [backdrop, source],
        ops: [imageDraw(0, at: full), .copyBackdrop(1, bounds: full), .draw(draw)])
      let image = try renderer.render(list)
      func unit(_ p: SIMD4<UInt8>) -> SIMD4<Float> { SIMD4(Float(p.x), Float(p.y), Float(p.z), Float(p.w)) / 255 }
      assertPixels(image, tolerance: 1) { x, y in
        RenderMath.unorm8(
          RenderMath.composite(mode, unit(source.pixel(x: x, y: y)), unit(backdrop.pixel(x: x, y: y))))
      }
    }
  }

  func testPathCoverageFollowsRenderMath() throws {
    // A rotated, self-intersecting path with curves' worth of short segments, both fill rules:
    // alpha must be RenderMath.coverage of the path at every pixel.
    guard let renderer = makeRenderer() else { return }
    var segments: [SIMD4<Float>] = []
    let n = 1500  // more than one row of the segment texture
    for i in 0..<n {
      func point(_ k: Int) -> SIMD2<Float> {
        let t = Float(k % n) / Float(n) * 2 * Float.pi
        let r = 9 + 4 * sin(5 * t)
        return SIMD2(r * cos(2 * t), r * sin(2 * t) * 0.8)
      }
      let a = point(i)
      let b = point(i + 1)
      segments.append(SIMD4(a.x, a.y, b.x, b.y))
    }
    let angle = Float(0.4)
    let (c, s) = (cos(angle), sin(angle))
    let mapping = PlaneMapping(
      toTarget: Matrix3(row0: [c, -s, 16], row1: [s, c, 15], row2: [0, 0, 1]),
      fromTarget: Matrix3(row0: [c, s, -(16 * c + 15 * s)], row1: [-s, c, 16 * s - 15 * c], row2: [0, 0, 1]))
    for evenOdd in [false, true] {
      let path = PathGeometry(segments: segments, evenOdd: evenOdd)
      let shape = Shape(rect: RoundedRect(bounds: [-13, -13, 13, 13]), path: path)
      let full = PixelRect(x: 0, y: 0, width: 32, height: 30)
      let draw = Draw(pixelBounds: full, mapping: mapping, shape: shape, paint: .color([1, 1, 1, 1]))
      let image = try renderer.render(RenderList(width: 32, height: 30, ops: [.draw(draw)]))
      var mismatches = 0
      var covered = 0
      for y in 0..<30 {
        for x in 0..<32 {
          if image.pixel(x: x, y: y).w == 255 { covered += 1 }
          let p = SIMD2(Float(x) + 0.5, Float(y) + 0.5)
          guard let lp = RenderMath.unproject(p, mapping) else { continue }
          let want = RenderMath.unorm8(SIMD4(repeating: RenderMath.coverage(lp, shape)))
          if !near(image.pixel(x: x, y: y), want, 1) { mismatches += 1 }
        }
      }
      XCTAssertEqual(mismatches, 0, "evenOdd: \(evenOdd)")
      XCTAssertGreaterThan(covered, 100, "evenOdd: \(evenOdd)")
    }
  }

  func testPathTriangleCoversItsInteriorOnly() throws {
    guard let renderer = makeRenderer() else { return }
    let pts: [SIMD2<Float>] = [[1, 1], [11, 1], [6, 11]]
    let segments = (0..<3).map { SIMD4(pts[$0].x, pts[$0].y, pts[($0 + 1) % 3].x, pts[($0 + 1) % 3].y) }
    let draw = Draw(
      pixelBounds: PixelRect(x: 0, y: 0, width: 12, height: 12), mapping: .identity,
      shape: Shape(rect: RoundedRect(bounds: [1, 1, 11, 11]), path: PathGeometry(segments: segments)),
      paint: .color(GLEffectsTests.red))
    let image = try renderer.render(RenderList(width: 12, height: 12, ops: [.draw(draw)]))
    for (x, y) in [(6, 3), (6, 6), (4, 2), (8, 2), (5, 8)] {
      XCTAssertEqual(image.pixel(x: x, y: y), [255, 0, 0, 255], "inside (\(x), \(y))")
    }
    for (x, y) in [(0, 0), (1, 9), (10, 9), (2, 7), (9, 7), (6, 11)] {
      XCTAssertEqual(image.pixel(x: x, y: y), .zero, "outside (\(x), \(y))")
    }
    // The top edge y = 1 runs through no pixel centre: row 0 is outside, row 1 fully inside.
    XCTAssertEqual(image.pixel(x: 6, y: 0), .zero)
    XCTAssertEqual(image.pixel(x: 6, y: 1), [255, 0, 0, 255])
  }

  func testStarNonZeroFillsTheCentreEvenOddDoesNot() throws {
    guard let renderer = makeRenderer() else { return }
    // A pentagram drawn as one self-overlapping contour: the centre pentagon has winding 2.
    let centre = SIMD2<Float>(12, 12)
    let points: [SIMD2<Float>] = (0..<5).map {
      let a = -Float.pi / 2 + Float($0) * 2 * Float.pi / 5
      return centre + 11 * SIMD2(cos(a), sin(a))
    }
    let order = [0, 2, 4, 1, 3]
    let segments = (0..<5).map {
      let a = points[order[$0]]
      let b = points[order[($0 + 1) % 5]]
      return SIMD4(a.x, a.y, b.x, b.y)
    }
    func render(evenOdd: Bool) throws -> LayerKit.Image {
      let draw = Draw(
        pixelBounds: PixelRect(x: 0, y: 0, width: 24, height: 24), mapping: .identity,
        shape: Shape(
          rect: RoundedRect(bounds: [1, 1, 23, 23]), path: PathGeometry(segments: segments, evenOdd: evenOdd)),
        paint: .color(GLEffectsTests.red))
      return try renderer.render(RenderList(width: 24, height: 24, ops: [.draw(draw)]))
    }
    let nonZero = try render(evenOdd: false)
    let evenOdd = try render(evenOdd: true)
    XCTAssertEqual(nonZero.pixel(x: 12, y: 12), [255, 0, 0, 255])
    XCTAssertEqual(evenOdd.pixel(x: 12, y: 12), .zero)
    // The top arm (winding 1) is inside under both rules; a corner is outside under both.
    for image in [nonZero, evenOdd] {
      XCTAssertEqual(image.pixel(x: 12, y: 4), [255, 0, 0, 255])
      XCTAssertEqual(image.pixel(x: 2, y: 22), .zero)
    }
  }

  // MARK: - Validation

  func testDrawOutsideItsGroupIsMalformed() {
    let list = RenderList(
      width: 8, height: 8,
      ops: [
        .pushGroup(1, bounds: PixelRect(x: 0, y: 0, width: 4, height: 4)),
        solid(PixelRect(x: 2, y: 2, width: 4, height: 4)),
        .popGroup(1),
      ])
    assertMalformed(list, at: 1)
  }

  func testBlendDrawWithoutBackdropIsMalformed() {
    let area = PixelRect(x: 0, y: 0, width: 4, height: 4)
    let draw = Draw(
      pixelBounds: area, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: box(area))),
      paint: .color([1, 0, 0, 1]), blendMode: .multiply)
    assertMalformed(RenderList(width: 4, height: 4, ops: [.draw(draw)]), at: 0)
    // A backdrop that does not cover the draw is malformed too.
    var partial = draw
    partial.backdrop = 1
    assertMalformed(
      RenderList(
        width: 4, height: 4,
        ops: [.copyBackdrop(1, bounds: PixelRect(x: 0, y: 0, width: 2, height: 4)), .draw(partial)]),
      at: 1)
  }

  // MARK: - Resources

  func testEffectFramesDoNotGrowThePool() throws {
    guard let renderer = makeRenderer() else { return }
    let full = PixelRect(x: 0, y: 0, width: 9, height: 9)
    let list = RenderList(
      width: 9, height: 9,
      ops: singlePixelOps() + [
        .filter(FilterPass(input: 1, output: 2, bounds: full, operation: .blur(.horizontal, weights: [0.5, 0.25]))),
        .copyBackdrop(3, bounds: PixelRect(x: 1, y: 1, width: 3, height: 3)),
        present(2, full),
      ])
    let first = try renderer.render(list)
    let pooled = renderer.pooledTargetCount
    for _ in 0..<20 {
      XCTAssertIdentical(try renderer.render(list), first)
      XCTAssertEqual(renderer.pooledTargetCount, pooled)
    }
    // Main, blur output, backdrop copy in the pool; group 1, drawn once, kept between renders.
    XCTAssertEqual(pooled, 3)
    XCTAssertEqual(renderer.retainedGroupCount, 1)
  }
}

extension PixelRect {
  fileprivate func contains(_ px: Int, _ py: Int) -> Bool {
    px >= x && px < maxX && py >= y && py < maxY
  }
}

extension RenderOp {
  /// The same draw with its pixel bounds cut to `bounds` (for drawing inside a group).
  fileprivate func clipped(to bounds: PixelRect) -> RenderOp {
    guard case .draw(var d) = self else { return self }
    d.pixelBounds = d.pixelBounds.intersection(bounds)
    return .draw(d)
  }
}
