// Picture shaders (ShaderPainter on GLRenderer): a GLSL ES 1.00 fragment shader drawn alone as
// editly's `gl` layer draws it — upright, not mirrored, premultiplied —, its errors (file, stage
// and line), its cache, and that painting leaves renders before and after it (overlapped ones
// too) byte for byte what they are without it.
//
// These tests never skip: a machine without a GPU still has Mesa's llvmpipe.

import Foundation
import LayerKit
import LayerKitGL
import LayerKitSamples
import LayerKitTesting
import XCTest

final class PictureShaderTests: XCTestCase {
  // MARK: - Helpers

  private func fixture(_ name: String) throws -> URL {
    let base = try XCTUnwrap(Bundle.module.resourceURL, "test resources missing")
    return base.appendingPathComponent("Fixtures").appendingPathComponent("picture").appendingPathComponent(name)
  }

  /// Asserts every pixel of `image` against `expected(x, y)` within `tolerance`, naming the first
  /// mismatch.
  private func assertPixels(
    _ image: Image, tolerance: Int = 1, file: StaticString = #filePath, line: UInt = #line,
    _ expected: (Int, Int) -> SIMD4<Int>
  ) {
    for y in 0..<image.height {
      for x in 0..<image.width {
        let got = SIMD4<Int>(truncatingIfNeeded: image.pixel(x: x, y: y))
        let want = expected(x, y)
        if (0..<4).contains(where: { abs(got[$0] - want[$0]) > tolerance }) {
          return XCTFail("pixel (\(x), \(y)) is \(got), expected \(want) ±\(tolerance)", file: file, line: line)
        }
      }
    }
  }

  /// The unorm8 byte of `value` in [0, 1].
  private func byte(_ value: Double) -> Int { Int((value * 255).rounded()) }

  /// The value of coordinates.frag (and place.frag) at image pixel (x, y): red across, green up.
  private func coordinates(_ x: Int, _ y: Int, width: Int, height: Int, blue: Int) -> SIMD4<Int> {
    SIMD4(byte((Double(x) + 0.5) / Double(width)), byte((Double(height - 1 - y) + 0.5) / Double(height)), blue, 255)
  }

  /// A frame of pictures, a transition, a rounded translucent layer: images, the layer quad and
  /// a transition program drawn.
  private func frame(_ progress: Double, width w: Int = 80, height h: Int = 48) throws -> RenderList {
    func picture(_ hue: Double) throws -> Layer {
      let layer = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
      layer.contents = try SampleScene.testImage(width: w, height: h, hue: hue)
      let badge = Layer(frame: Rect(x: 10, y: 6, width: 30, height: 20))
      badge.backgroundColor = Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.7)
      badge.cornerRadius = 6
      layer.addSublayer(badge)
      return layer
    }
    return try RenderList(
      transitionFrom: picture(0.1), to: picture(0.6), width: w, height: h, effect: "push",
      parameters: ["direction": .vec2([1, 0])], progress: progress)
  }

  // MARK: - Pictures

  func testCoordinatesAreUprightAndNotMirrored() throws {
    guard let renderer = makeRenderer() else { return }
    let shader = try renderer.makePictureShader(fragment: fixture("coordinates.frag"), vertex: nil)
    let image = try renderer.paintPicture(shader, width: 64, height: 32, time: 0.25)
    XCTAssertEqual(image.width, 64)
    XCTAssertEqual(image.height, 32)
    // The top-left pixel: no red, the most green (the top row is gl_FragCoord's highest).
    let topLeft = image.pixel(x: 0, y: 0)
    XCTAssertLessThanOrEqual(topLeft.x, 3, "\(topLeft)")
    XCTAssertGreaterThanOrEqual(topLeft.y, 250, "\(topLeft)")
    let bottomRight = image.pixel(x: 63, y: 31)
    XCTAssertGreaterThanOrEqual(bottomRight.x, 252, "\(bottomRight)")
    XCTAssertLessThanOrEqual(bottomRight.y, 5, "\(bottomRight)")
    // Blue: fract(0.25) × 255; and every pixel where the formula puts it.
    XCTAssertEqual(Int(topLeft.z), 64, accuracy: 1)
    assertPixels(image) { coordinates($0, $1, width: 64, height: 32, blue: 64) }
    // The time's fraction only.
    let later = try renderer.paintPicture(shader, width: 64, height: 32, time: 3.75)
    assertPixels(later) { coordinates($0, $1, width: 64, height: 32, blue: 191) }
  }

  func testTimeOnlyShaderWithGuardedPrecisionIsPremultiplied() throws {
    guard let renderer = makeRenderer() else { return }
    let shader = try renderer.makePictureShader(fragment: fixture("time_only.frag"), vertex: nil)
    let image = try renderer.paintPicture(shader, width: 5, height: 3, time: 1.25)
    // (1, 0.25, 0, 0.6) straight: alpha 153, red 255 × 153 / 255, green 64 × 153 / 255.
    assertPixels(image) { _, _ in SIMD4(153, 38, 0, 153) }
  }

  func testCustomVertexShaderTakingPosition() throws {
    guard let renderer = makeRenderer() else { return }
    let shader = try renderer.makePictureShader(fragment: fixture("place.frag"), vertex: fixture("corners.vert"))
    let image = try renderer.paintPicture(shader, width: 40, height: 24, time: 0)
    assertPixels(image) { coordinates($0, $1, width: 40, height: 24, blue: 0) }
  }

  // MARK: - Errors

  func testCompileErrorNamesTheFileAndLine() throws {
    guard let renderer = makeRenderer() else { return }
    let file = try fixture("broken.frag")
    XCTAssertThrowsError(try renderer.makePictureShader(fragment: file, vertex: nil)) { error in
      guard case .shaderCompile(let path, let stage, let line, _, let excerpt)? = error as? GLError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(path, file.path)
      XCTAssertEqual(stage, .fragment)
      XCTAssertEqual(line, 7)
      XCTAssertTrue(excerpt.contains("undefinedShade"), excerpt)
      XCTAssertTrue("\(error)".hasPrefix("\(file.path):7: fragment shader:"), "\(error)")
    }
  }

  func testMissingFilesAreResourceMissing() throws {
    guard let renderer = makeRenderer() else { return }
    let missing = try fixture("no_such_picture.frag")
    XCTAssertThrowsError(try renderer.makePictureShader(fragment: missing, vertex: nil)) { error in
      XCTAssertEqual(error as? GLError, .resourceMissing(missing.path))
    }
    let missingVertex = try fixture("no_such_picture.vert")
    XCTAssertThrowsError(
      try renderer.makePictureShader(fragment: fixture("coordinates.frag"), vertex: missingVertex)
    ) { error in
      XCTAssertEqual(error as? GLError, .resourceMissing(missingVertex.path))
    }
    // A folder is no shader file either.
    let folder = try fixture("")
    XCTAssertThrowsError(try renderer.makePictureShader(fragment: folder, vertex: nil)) { error in
      guard case .resourceMissing? = error as? GLError else { return XCTFail("\(error)") }
    }
  }

  func testVertexShaderWithoutPositionIsRefused() throws {
    guard let renderer = makeRenderer() else { return }
    let vertex = try fixture("no_position.vert")
    XCTAssertThrowsError(try renderer.makePictureShader(fragment: fixture("coordinates.frag"), vertex: vertex)) {
      error in
      guard case .shaderCompile(let path, let stage, _, let message, _)? = error as? GLError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(path, vertex.path)
      XCTAssertEqual(stage, .vertex)
      XCTAssertTrue(message.contains("`position`"), message)
    }
  }

  func testIncludeLinesAndWrongUniformTypesAreRefusedAtTheirLines() throws {
    guard let renderer = makeRenderer() else { return }
    for (name, line) in [("includes.frag", 4), ("vec3_resolution.frag", 5)] {
      let file = try fixture(name)
      XCTAssertThrowsError(try renderer.makePictureShader(fragment: file, vertex: nil), name) { error in
        guard case .shaderCompile(let path, .fragment, let at, _, _)? = error as? GLError else {
          return XCTFail("\(name): \(error)")
        }
        XCTAssertEqual(path, file.path)
        XCTAssertEqual(at, line, "\(error)")
      }
    }
    XCTAssertEqual(renderer.pictureShaderCount, 0)
  }

  func testFilesLargerThanTheLimitAreRefused() throws {
    guard let renderer = makeRenderer() else { return }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lk-picture-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let large = folder.appendingPathComponent("large.frag")
    // Comment lines only: no shader text in this file.
    let text = String(repeating: "// padding\n", count: GLRenderer.maxShaderSize / 11 + 1)
    try Data(text.utf8).write(to: large)
    XCTAssertThrowsError(try renderer.makePictureShader(fragment: large, vertex: nil)) { error in
      guard case .shaderCompile(let path, .fragment, nil, let message, _)? = error as? GLError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(path, large.path)
      XCTAssertTrue(message.contains("\(GLRenderer.maxShaderSize)"), message)
    }
  }

  func testSizesHandlesAndTimesOutsideTheLimitsAreTypedErrors() throws {
    guard let renderer = makeRenderer() else { return }
    let shader = try renderer.makePictureShader(fragment: fixture("coordinates.frag"), vertex: nil)
    XCTAssertThrowsError(try renderer.paintPicture(shader, width: 0, height: 8, time: 0)) { error in
      XCTAssertEqual(error as? RenderError, .invalidTargetSize(width: 0, height: 8))
    }
    let limit = min(Image.maxDimension, renderer.info.maxTextureSize)
    XCTAssertThrowsError(try renderer.paintPicture(shader, width: 8, height: limit + 1, time: 0)) { error in
      guard case .targetTooLarge(8, limit + 1, let reported)? = error as? RenderError else {
        return XCTFail("\(error)")
      }
      XCTAssertLessThanOrEqual(reported, limit)
    }
    XCTAssertThrowsError(try renderer.paintPicture(shader, width: 8, height: 8, time: .nan)) { error in
      guard case .nonFiniteValue? = error as? RenderError else { return XCTFail("\(error)") }
    }
    XCTAssertThrowsError(try renderer.paintPicture(shader + 1, width: 8, height: 8, time: 0)) { error in
      guard case .backend(let backend)? = error as? RenderError, case .resourceMissing? = backend as? GLError else {
        return XCTFail("\(error)")
      }
    }
    // Still paints after the refusals.
    let image = try renderer.paintPicture(shader, width: 8, height: 8, time: 0)
    assertPixels(image) { coordinates($0, $1, width: 8, height: 8, blue: 0) }
  }

  // MARK: - The cache

  func testSameFilesGiveTheSameHandle() throws {
    guard let renderer = makeRenderer() else { return }
    let fragment = try fixture("coordinates.frag")
    let a = try renderer.makePictureShader(fragment: fragment, vertex: nil)
    let b = try renderer.makePictureShader(fragment: fragment, vertex: nil)
    // The same file by another spelling of its path.
    let spelled = fragment.deletingLastPathComponent().appendingPathComponent(".").appendingPathComponent(
      fragment.lastPathComponent)
    let c = try renderer.makePictureShader(fragment: spelled, vertex: nil)
    XCTAssertEqual(a, b)
    XCTAssertEqual(a, c)
    let withVertex = try renderer.makePictureShader(fragment: fragment, vertex: fixture("corners.vert"))
    XCTAssertNotEqual(withVertex, a)
    XCTAssertEqual(try renderer.makePictureShader(fragment: fragment, vertex: fixture("corners.vert")), withVertex)
    XCTAssertEqual(renderer.pictureShaderCount, 2)
    // Both still paint their own pictures after the other was made.
    assertPixels(try renderer.paintPicture(a, width: 16, height: 8, time: 0.5)) {
      coordinates($0, $1, width: 16, height: 8, blue: 128)
    }
  }

  // MARK: - Renders around a picture

  func testRendersBeforeAndAfterPaintingAreUnchanged() throws {
    guard let renderer = makeRenderer() else { return }
    let list = try frame(0.4)
    let before = try renderer.render(list)
    let shader = try renderer.makePictureShader(fragment: fixture("time_only.frag"), vertex: nil)
    let other = try renderer.makePictureShader(fragment: fixture("place.frag"), vertex: fixture("corners.vert"))
    // The frame's size (so the pooled target the render drew into is the one painted) and another.
    _ = try renderer.paintPicture(shader, width: list.width, height: list.height, time: 0.5)
    _ = try renderer.paintPicture(other, width: 33, height: 17, time: 0)
    XCTAssertIdentical(try renderer.render(list), before, "render after painting")
    // Painting again after renders gives the same picture.
    let picture = try renderer.paintPicture(other, width: 33, height: 17, time: 0)
    _ = try renderer.render(list)
    XCTAssertIdentical(try renderer.paintPicture(other, width: 33, height: 17, time: 0), picture)
    // And a renderer that never painted agrees.
    guard let fresh = makeRenderer() else { return }
    XCTAssertIdentical(try renderer.render(list), try fresh.render(list), "renderers that did and did not paint")
  }

  func testPaintingBetweenStartAndFinishLeavesTheFramesAlone() throws {
    guard let renderer = makeRenderer(), let reference = makeRenderer() else { return }
    for keepsCurrent in [false, true] {
      renderer.keepsContextCurrent = keepsCurrent
      let shader = try renderer.makePictureShader(fragment: fixture("coordinates.frag"), vertex: nil)
      let lists = try [frame(0.2), frame(0.5), frame(0.8)]
      // As the video pipeline does: frame k+1 (and its picture) drawn while frame k is read back.
      let first = try renderer.start(lists[0])
      let pictureA = try renderer.paintPicture(shader, width: 80, height: 48, time: 0.25)
      let second = try renderer.start(lists[1])
      let pictureB = try renderer.paintPicture(shader, width: 24, height: 12, time: 0.75)
      XCTAssertIdentical(try renderer.finish(first), try reference.render(lists[0]), "frame 0")
      let third = try renderer.start(lists[2])
      XCTAssertIdentical(try renderer.finish(second), try reference.render(lists[1]), "frame 1")
      XCTAssertIdentical(try renderer.finish(third), try reference.render(lists[2]), "frame 2")
      assertPixels(pictureA) { coordinates($0, $1, width: 80, height: 48, blue: 64) }
      assertPixels(pictureB) { coordinates($0, $1, width: 24, height: 12, blue: 191) }
    }
    renderer.keepsContextCurrent = false
  }
}
