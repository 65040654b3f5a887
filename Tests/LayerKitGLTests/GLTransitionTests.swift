// The GPU backend's transition passes: every built-in effect (Shaders/transitions, hosted by
// transition_wrapper.frag) and the gl-transitions-form fixtures under Fixtures/transitions hold
// the invariants of issue 5 — progress 0 is exactly the from-image and progress 1 exactly the
// to-image, every byte — on surfaces whose origin is not the target's; the effects agree with
// their CPU twins in between; parameters are type-checked; compile errors name the effect file
// and its own line. Files as WebGL 1 / GLSL 1.20 hosts take them load unmodified: file-scope
// initializers that read progress or uniforms, a user function named texture, default comments
// with a note after the value, bool defaults written 1 and 0.
//
// These tests never skip: a machine without a GPU still has Mesa's llvmpipe.

import Foundation
import LayerKit
import LayerKitGL
import LayerKitReference
import LayerKitTesting
import XCTest

final class GLTransitionTests: XCTestCase {
  // MARK: - Helpers

  private func fixture(_ name: String) throws -> URL {
    let base = try XCTUnwrap(Bundle.module.resourceURL, "test resources missing")
    return base.appendingPathComponent("Fixtures/transitions").appendingPathComponent(name)
  }

  /// The four Core Animation directions (uv units, y up).
  private static let directions: [SIMD2<Float>] = [[-1, 0], [1, 0], [0, 1], [0, -1]]

  /// A target larger than the pass, so every surface has a non-zero origin.
  private static let target = (width: 41, height: 31)
  private static let bounds = PixelRect(x: 7, y: 5, width: 23, height: 17)

  private func box(_ r: PixelRect) -> SIMD4<Float> {
    SIMD4(Float(r.x), Float(r.y), Float(r.maxX), Float(r.maxY))
  }

  private func over(_ b: PixelRect) -> TextureTransform {
    let w = Float(b.width)
    let h = Float(b.height)
    return TextureTransform(scale: [1 / w, 1 / h], offset: [-Float(b.x) / w, -Float(b.y) / h])
  }

  private func quad(_ b: PixelRect, _ source: TextureSource) -> RenderOp {
    .draw(
      Draw(
        pixelBounds: b, mapping: .identity, shape: Shape(rect: RoundedRect(bounds: box(b))),
        paint: .texture(source, over(b))))
  }

  /// Varied premultiplied pixels, some translucent, one transparent; `seed` tells two apart.
  private func pattern(_ seed: Int) throws -> LayerKit.Image {
    let b = Self.bounds
    var bytes: [UInt8] = []
    for y in 0..<b.height {
      for x in 0..<b.width {
        let a = x == 0 && y == 0 ? 0 : 255 - (x * 37 + y * 11 + seed * 29) % 200
        let m = max(a, 1)
        bytes += [
          UInt8((x * 41 + y * 7 + seed * 13) % m), UInt8((y * 53 + 11 + seed * 5) % m),
          UInt8((x * y + 5 + seed) % m), UInt8(a),
        ]
      }
    }
    return try LayerKit.Image(width: b.width, height: b.height, pixels: bytes)
  }

  /// Two groups (0: image 0, 1: image 1) over `bounds`, then `last` (a transition into 2 and its
  /// presentation, or the presentation of one group).
  private func list(_ last: [RenderOp]) throws -> RenderList {
    let b = Self.bounds
    return RenderList(
      width: Self.target.width, height: Self.target.height, clearColor: [0.1, 0.2, 0.3, 1],
      images: [try pattern(0), try pattern(1)],
      ops: [
        .pushGroup(0, bounds: b), quad(b, .image(0)), .popGroup(0),
        .pushGroup(1, bounds: b), quad(b, .image(1)), .popGroup(1),
      ] + last)
  }

  private func transitionList(
    _ effect: String, progress: Float, parameters: [String: TransitionValue] = [:]
  ) throws -> RenderList {
    let pass = TransitionPass(
      from: 0, to: 1, output: 2, bounds: Self.bounds, progress: progress, effect: effect, parameters: parameters)
    return try list([.transition(pass), quad(Self.bounds, .surface(2))])
  }

  /// Asserts progress 0 renders exactly the from-group and progress 1 exactly the to-group.
  private func assertEnds(
    _ renderer: GLRenderer, _ effect: String, _ parameters: [String: TransitionValue], _ label: String,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    for (progress, surface) in [(Float(0), SurfaceID(0)), (1, 1)] {
      let want = try renderer.render(try list([quad(Self.bounds, .surface(surface))]))
      let got = try renderer.render(try transitionList(effect, progress: progress, parameters: parameters))
      XCTAssertIdentical(got, want, "\(label) at progress \(progress)", file: file, line: line)
    }
  }

  /// Asserts that `image` is `inside(column, row)` at each pixel of the pass's bounds (counted
  /// from their origin) and `background` at every other, exactly.
  private func assertPixels(
    _ image: LayerKit.Image, background: LayerKit.Image, _ label: String, file: StaticString = #filePath,
    line: UInt = #line, inside: (Int, Int) -> [UInt8]
  ) {
    let b = Self.bounds
    for y in 0..<image.height {
      for x in 0..<image.width {
        let i = (y * image.width + x) * 4
        let got = Array(image.pixels[i..<(i + 4)])
        let want =
          x >= b.x && x < b.maxX && y >= b.y && y < b.maxY
          ? inside(x - b.x, y - b.y) : Array(background.pixels[i..<(i + 4)])
        guard got == want else {
          return XCTFail("\(label): pixel (\(x), \(y)) is \(got), want \(want)", file: file, line: line)
        }
      }
    }
  }

  // MARK: - Built-in effects

  func testBuiltInEffectsGiveExactlyFromAndToAtTheEnds() throws {
    guard let renderer = makeRenderer() else { return }
    for name in TransitionEffects.all.keys.sorted() {
      if !TransitionEffects.all[name]!.parameters.contains(where: { $0.name == "direction" }) {
        try assertEnds(renderer, name, [:], name)
        continue
      }
      for d in Self.directions {
        try assertEnds(renderer, name, ["direction": .vec2(d)], "\(name) direction \(d)")
      }
    }
  }

  /// Not the parity suite (which owns the tolerance matrix): a check that the wrapper's uv, y flip
  /// and sampling agree with the CPU twins in between the ends.
  func testBuiltInEffectsAgreeWithTheirCPUTwinsInBetween() throws {
    guard let renderer = makeRenderer() else { return }
    let cpu = ReferenceRenderer()
    for name in TransitionEffects.all.keys.sorted() {
      // Core Animation's types run in the four directions; the filter-style effects (no
      // `direction`) with their defaults.
      let hasDirection = TransitionEffects.all[name]!.parameters.contains { $0.name == "direction" }
      let directions: [SIMD2<Float>?] = hasDirection ? Self.directions : [nil]
      for d in directions {
        for progress: Float in [0.25, 0.5, 0.75] {
          let l = try transitionList(name, progress: progress, parameters: d.map { ["direction": .vec2($0)] } ?? [:])
          let g = try renderer.render(l).pixels
          let c = try cpu.render(l).pixels
          let worst = zip(g, c).map { abs(Int($0) - Int($1)) }.max() ?? 0
          XCTAssertLessThanOrEqual(worst, 2, "\(name) \(String(describing: d)) at \(progress)")
        }
      }
    }
  }

  func testBuiltInProgramsStartWithTheRenderer() throws {
    guard let renderer = makeRenderer() else { return }
    // A fresh renderer has every built-in program: a pass runs with no registration.
    XCTAssertNoThrow(try renderer.render(try transitionList("push", progress: 0.5)))
  }

  // MARK: - Parameters

  func testParameterOfTheWrongTypeIsRejected() throws {
    guard let renderer = makeRenderer() else { return }
    XCTAssertThrowsError(
      try renderer.render(try transitionList("push", progress: 0.5, parameters: ["direction": .float(1)]))
    ) {
      XCTAssertEqual(
        $0 as? RenderError,
        .transitionParameters(.wrongType(name: "direction", effect: "push", expected: .vec2, got: .float)))
    }
  }

  func testUnknownParameterNamesTheOnesThatExist() throws {
    guard let renderer = makeRenderer() else { return }
    XCTAssertThrowsError(
      try renderer.render(try transitionList("moveIn", progress: 0.5, parameters: ["dir": .vec2([1, 0])]))
    ) {
      XCTAssertEqual(
        $0 as? RenderError,
        .transitionParameters(.unknownParameter(name: "dir", effect: "moveIn", available: ["direction"])))
    }
    XCTAssertThrowsError(try renderer.render(try transitionList("wipe", progress: 0.5))) {
      guard case .transitionParameters(.unknownEffect("wipe", let available))? = $0 as? RenderError else {
        return XCTFail("\($0)")
      }
      XCTAssertTrue(available.contains("push"), "\(available)")
    }
  }

  // MARK: - Files in the gl-transitions form

  func testFixturesGiveExactlyFromAndToAtTheEnds() throws {
    guard let renderer = makeRenderer() else { return }
    let source = try renderer.registerTransition(name: "allTypes", file: try fixture("all_types.glsl"))
    XCTAssertEqual(source.uniforms.count, 14)
    try assertEnds(renderer, "allTypes", [:], "all_types.glsl")
    try assertEnds(
      renderer, "allTypes",
      [
        "grid": .ivec2([3, 5]), "flip": .bool(false), "steps": .int(7), "strength": .float(4),
        "tint": .vec3([0.2, 0.4, 0.6]), "shade": .vec4([1, 1, 1, 1]), "level": .float(1), "center": .vec2([0, 1]),
      ],
      "all_types.glsl with parameters")
    try renderer.registerTransition(name: "legacy", file: try fixture("legacy.glsl"))
    try assertEnds(renderer, "legacy", [:], "legacy.glsl")
    try assertEnds(renderer, "legacy", ["squeeze": .vec2([2, 2])], "legacy.glsl with parameters")
  }

  /// A file that reads an image at a coordinate that is not a number and throws the read away
  /// (gl-transitions' BookFlip, Fold and SimpleFlip do) loads, and draws the to-image right of its
  /// fold and the from-image (where finite) left of it; one whose colour depends on such a read
  /// is still refused (the corpus's nan-uv).
  func testAReadAtANonFiniteCoordinateThatIsThrownAwayLoads() throws {
    guard let renderer = makeRenderer() else { return }
    XCTAssertNoThrow(try renderer.registerTransition(name: "discarded", file: try fixture("discarded_read.glsl")))
    try assertEnds(renderer, "discarded", [:], "discarded_read.glsl")
    let half = try renderer.render(try transitionList("discarded", progress: 0.5))
    let to = try renderer.render(try list([quad(Self.bounds, .surface(1))]))
    let b = Self.bounds
    // The right half (uv.x > 0.5) is the to-image, exactly.
    for y in b.y..<b.maxY {
      for x in (b.x + b.width / 2 + 1)..<b.maxX {
        let i = (y * half.width + x) * 4
        XCTAssertEqual(Array(half.pixels[i..<i + 4]), Array(to.pixels[i..<i + 4]), "pixel (\(x), \(y))")
      }
    }
    XCTAssertThrowsError(try renderer.registerTransition(name: "used", file: try fixture("used_read.glsl"))) { error in
      guard case GLError.nonFiniteCoordinate? = error as? GLError else {
        return XCTFail("expected nonFiniteCoordinate, got \(error)")
      }
    }
  }

  func testParametersChangeTheFixtureInBetween() throws {
    guard let renderer = makeRenderer() else { return }
    try renderer.registerTransition(name: "allTypes", file: try fixture("all_types.glsl"))
    let a = try renderer.render(try transitionList("allTypes", progress: 0.5))
    let b = try renderer.render(try transitionList("allTypes", progress: 0.5, parameters: ["grid": .ivec2([2, 2])]))
    let c = try renderer.render(try transitionList("allTypes", progress: 0.5))
    XCTAssertNotEqual(a.pixels, b.pixels)
    // A pass's parameters do not leak into the next pass.
    XCTAssertIdentical(a, c)
  }

  func testBrokenFixtureNamesItsFileAndLine() throws {
    guard let renderer = makeRenderer() else { return }
    let url = try fixture("broken.glsl")
    XCTAssertThrowsError(try renderer.registerTransition(name: "broken", file: url)) { error in
      guard case GLError.shaderCompile(let file, let stage, let line, let message, let excerpt)? = error as? GLError
      else { return XCTFail("expected shaderCompile, got \(error)") }
      XCTAssertEqual(file, url.path)
      XCTAssertEqual(stage, .fragment)
      XCTAssertEqual(line, 8, message)
      XCTAssertTrue(excerpt.contains(">  8 |   return mix(a, getToColor(uv), progress * undeclaredAmount);"), excerpt)
    }
  }

  func testMalformedUniformFixtureNamesItsLine() throws {
    guard let renderer = makeRenderer() else { return }
    let url = try fixture("bad_default.glsl")
    XCTAssertThrowsError(try renderer.registerTransition(name: "bad", file: url)) { error in
      guard case GLError.shaderCompile(let file, _, let line, _, _)? = error as? GLError else {
        return XCTFail("expected shaderCompile, got \(error)")
      }
      XCTAssertEqual(file, url.path)
      XCTAssertEqual(line, 4)
    }
  }

  func testHostErrorsNameTheWrapperAndItsOwnLine() throws {
    guard let renderer = makeRenderer() else { return }
    let wrapper = try XCTUnwrap(GLRenderer.builtInShaderURL("transitions/transition_wrapper.frag"))
    let lines = try String(contentsOf: wrapper, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    let call = try XCTUnwrap(lines.firstIndex { $0.contains("fragColor = transition(uv);") }) + 1
    XCTAssertThrowsError(try renderer.registerTransition(name: "wrong", file: try fixture("wrong_signature.glsl"))) {
      guard case GLError.shaderCompile(let file, _, let line, let message, _)? = $0 as? GLError else {
        return XCTFail("expected shaderCompile, got \($0)")
      }
      XCTAssertEqual(file, "transitions/transition_wrapper.frag")
      XCTAssertEqual(line, call, message)
    }
  }

  func testUserIncludeDirectiveIsRefusedBeforeGLSeesIt() throws {
    // Mesa resolves `#include` from its shader cache: the same file failed on a machine with an
    // empty cache and rendered, the line ignored, on one whose cache held entries. It is refused
    // by the parser, whatever the driver or its cache.
    let url = try fixture("include_directive.glsl")
    let text = try String(contentsOf: url, encoding: .utf8)
    XCTAssertThrowsError(try GLTransitionSource(text: text, file: url.path)) {
      XCTAssertEqual($0 as? TransitionSourceError, .unsupportedDirective(file: url.path, line: 4, directive: "include"))
    }
    guard let renderer = makeRenderer() else { return }
    XCTAssertThrowsError(try renderer.registerTransition(name: "include", file: url)) {
      guard case GLError.shaderCompile(let file, _, let line, let message, _)? = $0 as? GLError else {
        return XCTFail("expected shaderCompile, got \($0)")
      }
      XCTAssertEqual(file, url.path)
      XCTAssertEqual(line, 4, message)
      XCTAssertTrue(message.contains("'#include' is not supported"), message)
    }
  }

  func testUserFileGetsNoExactEndsAndItsOwnHelperNames() throws {
    guard let renderer = makeRenderer() else { return }
    try renderer.registerTransition(name: "helpers", file: try fixture("user_helper_names.glsl"))
    let background = try renderer.render(try list([]))
    // (0.2, 0.4 + 0.4 · progress, 0.6, 1): neither image at the ends either.
    for (progress, green) in [(Float(0), UInt8(102)), (1, 204)] {
      let image = try renderer.render(try transitionList("helpers", progress: progress))
      assertPixels(image, background: background, "user_helper_names.glsl at \(progress)") { _, _ in
        [51, green, 153, 255]
      }
    }
  }

  // MARK: - What WebGL 1 and GLSL 1.20 hosts take, unmodified

  func testGlobalInitializersRunBeforeTheTransition() throws {
    guard let renderer = makeRenderer() else { return }
    let source = try renderer.registerTransition(name: "globals", file: try fixture("global_initializers.glsl"))
    XCTAssertEqual(source.uniforms.map(\.name), ["amount"])
    // With the globals unassigned the old image would show at progress 1 too.
    try assertEnds(renderer, "globals", [:], "global_initializers.glsl")
    try assertEnds(renderer, "globals", ["amount": .float(0.4)], "global_initializers.glsl with amount 0.4")
    let background = try renderer.render(try list([]))
    // (ratio · 0.17, 0.5 · amount, 0.2 + 0.5 · 0.5, 1) with ratio 23 / 17: 0.23 → 58.65, 0.4 → 102
    // (0.2 → 51 with amount 0.4), 0.45 → 114.75; `second` reads `first`, `wide` reads `spread`.
    for (parameters, green) in [([String: TransitionValue](), UInt8(102)), (["amount": .float(0.4)], 51)] {
      let half = try renderer.render(try transitionList("globals", progress: 0.5, parameters: parameters))
      assertPixels(half, background: background, "global_initializers.glsl \(parameters)") { _, _ in
        [59, green, 115, 255]
      }
    }
  }

  func testGlobalInitializersInConditionalsBesideArraysAndStructs() throws {
    guard let renderer = makeRenderer() else { return }
    try renderer.registerTransition(name: "conditional", file: try fixture("conditional_globals.glsl"))
    try assertEnds(renderer, "conditional", [:], "conditional_globals.glsl")
    // (a · 0.25, pair[1] − pair[0], f(s.v), round(0.6)): a = 0.5 · 2 from the GL_ES branch, 0.25 →
    // 63.75; 0.4 → 102; 0.2 → 51; the user's round(0.6) is 1.
    let half = try renderer.render(try transitionList("conditional", progress: 0.5))
    assertPixels(half, background: try renderer.render(try list([])), "conditional_globals.glsl") { _, _ in
      [64, 102, 51, 255]
    }
  }

  func testBrokenGlobalInitializerNamesItsFileAndLine() throws {
    guard let renderer = makeRenderer() else { return }
    let url = try fixture("broken_global.glsl")
    XCTAssertThrowsError(try renderer.registerTransition(name: "brokenGlobal", file: url)) { error in
      guard case GLError.shaderCompile(let file, let stage, let line, let message, let excerpt)? = error as? GLError
      else { return XCTFail("expected shaderCompile, got \(error)") }
      XCTAssertEqual(file, url.path)
      XCTAssertEqual(stage, .fragment)
      XCTAssertEqual(line, 8, message)
      XCTAssertTrue(message.contains("undeclaredLimit"), message)
      XCTAssertTrue(excerpt.contains(">  8 |   undeclaredLimit);"), excerpt)
    }
  }

  func testUserFunctionNamedTexture() throws {
    guard let renderer = makeRenderer() else { return }
    try renderer.registerTransition(name: "userTexture", file: try fixture("texture_function.glsl"))
    // Progress 0 is all texture2D(from, …): the built-in, exactly the old image.
    try assertEnds(renderer, "userTexture", [:], "texture_function.glsl")
    let from = try renderer.render(try list([quad(Self.bounds, .surface(0))]))
    let to = try renderer.render(try list([quad(Self.bounds, .surface(1))]))
    // At 0.5 the edge is at uv.x 0.55, 12.65 of 23 columns: columns 0–12 (centres 0.5 … 12.5) are
    // the new image, 13–22 the old.
    let half = try renderer.render(try transitionList("userTexture", progress: 0.5))
    assertPixels(half, background: from, "texture_function.glsl") { column, row in
      let i = ((Self.bounds.y + row) * Self.target.width + Self.bounds.x + column) * 4
      return Array((column <= 12 ? to : from).pixels[i..<(i + 4)])
    }
  }

  func testDefaultCommentsWithANoteAndNumericBools() throws {
    guard let renderer = makeRenderer() else { return }
    let source = try renderer.registerTransition(name: "comments", file: try fixture("comment_defaults.glsl"))
    XCTAssertEqual(
      source.uniforms.map(\.default), [.float(0.4), .float(0.2), .bool(true), .bool(false), .bool(true)])
    // `flip` (= 1) true and `still` (= 0) false, or the ends would be swapped or stuck.
    try assertEnds(renderer, "comments", [:], "comment_defaults.glsl")
    // (cut, lift, 0.6, 1): 0.4 → 102, 0.2 → 51, 0.6 → 153.
    let half = try renderer.render(try transitionList("comments", progress: 0.5))
    let background = try renderer.render(try list([]))
    assertPixels(half, background: background, "comment_defaults.glsl") { _, _ in [102, 51, 153, 255] }
    // The bools are uniforms like any: flip off runs backwards, plain off drops the blue.
    let to = try renderer.render(try list([quad(Self.bounds, .surface(1))]))
    let backwards = try renderer.render(try transitionList("comments", progress: 0, parameters: ["flip": .bool(false)]))
    XCTAssertIdentical(backwards, to)
    let plainOff = try renderer.render(
      try transitionList("comments", progress: 0.5, parameters: ["plain": .bool(false)]))
    assertPixels(plainOff, background: background, "comment_defaults.glsl plain off") { _, _ in [102, 51, 0, 255] }
  }
}
