// GLTransitionSource: reading transition shaders in the gl-transitions form (uniforms and their
// comment defaults, the reserved names, the adaptation to GLSL ES 3.00 line for line) and the
// The rule "a test holds the two lists of defaults equal" for the built-in effects: the
// defaults parsed from Shaders/transitions/*.glsl equal TransitionEffects' Swift ones.
//
// The shaders are files (no GLSL in Swift strings): the repository's Shaders/transitions and the
// fixtures under Tests/LayerKitGLTests/Fixtures/transitions, found from this file's path.

import Foundation
import LayerKitRender
import XCTest

@testable import LayerKitGL

final class GLTransitionSourceTests: XCTestCase {
  private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  private func fixture(_ name: String) throws -> GLTransitionSource {
    let url = Self.root.appendingPathComponent("Tests/LayerKitGLTests/Fixtures/transitions/\(name)")
    return try GLTransitionSource(text: try String(contentsOf: url, encoding: .utf8), file: name)
  }

  private func fixtureError(_ name: String) throws -> TransitionSourceError? {
    do {
      _ = try fixture(name)
      return nil
    } catch let error as TransitionSourceError {
      return error
    }
  }

  // MARK: - Uniforms and defaults

  func testEveryUniformTypeAndCommentForm() throws {
    let source = try fixture("all_types.glsl")
    let expected: [(String, TransitionUniformType, TransitionValue?, Int)] = [
      ("strength", .float, .float(0.5), 4),
      // Several names in one declaration share its default.
      ("spreadX", .float, .float(0.25), 5),
      ("spreadY", .float, .float(0.25), 5),
      ("steps", .int, .int(4), 6),
      ("flip", .bool, .bool(true), 7),
      // `/* = … */` and the single-argument splat.
      ("center", .vec2, .vec2([0.5, 0.5]), 8),
      ("tint", .vec3, .vec3([1, 0.5, 0.25]), 9),
      // No space before the comment; literals `0.` and `.6`.
      ("shade", .vec4, .vec4([0, 0, 0, 0.6]), 10),
      ("grid", .ivec2, .ivec2([10, 10]), 11),
      ("extra", .sampler2D, nil, 12),
      // A comment that is not `= …` is no default.
      ("level", .float, nil, 13),
      // A precision qualifier, a comment inside the declaration, an int literal for a float.
      ("scale", .float, .float(2), 14),
      ("offset", .int, .int(-3), 15),
      ("inverted", .bool, .bool(false), 16),
    ]
    XCTAssertEqual(source.uniforms.count, expected.count)
    for (u, e) in zip(source.uniforms, expected) {
      XCTAssertEqual(u.name, e.0)
      XCTAssertEqual(u.type, e.1, u.name)
      XCTAssertEqual(u.default, e.2, u.name)
      XCTAssertEqual(u.line, e.3, u.name)
    }
  }

  func testReservedNamesAreNotParameters() throws {
    let source = try fixture("legacy.glsl")
    XCTAssertEqual(source.uniforms.map(\.name), ["squeeze", "pattern"])
    XCTAssertEqual(source.uniforms[0].default, .vec2([1, 0.5]))
  }

  func testDefaultLiterals() {
    XCTAssertEqual(GLTransitionSource.parseDefault("= 1.", type: .float), .float(1))
    XCTAssertEqual(GLTransitionSource.parseDefault("= -.5", type: .float), .float(-0.5))
    XCTAssertEqual(GLTransitionSource.parseDefault("= 1e-3", type: .float), .float(0.001))
    XCTAssertEqual(GLTransitionSource.parseDefault("= 2.5f", type: .float), .float(2.5))
    XCTAssertEqual(GLTransitionSource.parseDefault("= float(3)", type: .float), .float(3))
    XCTAssertEqual(GLTransitionSource.parseDefault("= ivec2(3)", type: .ivec2), .ivec2([3, 3]))
    XCTAssertEqual(GLTransitionSource.parseDefault("= vec4(1)", type: .vec4), .vec4([1, 1, 1, 1]))
    XCTAssertEqual(GLTransitionSource.parseDefault("= vec2(1.0,-2.0);", type: .vec2), .vec2([1, -2]))
    // Wrong constructor, wrong arity, float for int, junk.
    XCTAssertNil(GLTransitionSource.parseDefault("= vec3(1.0)", type: .vec2))
    XCTAssertNil(GLTransitionSource.parseDefault("= vec3(1.0, 2.0)", type: .vec3))
    XCTAssertNil(GLTransitionSource.parseDefault("= 1.5", type: .int))
    XCTAssertNil(GLTransitionSource.parseDefault("= ivec2(1.5, 2)", type: .ivec2))
    XCTAssertNil(GLTransitionSource.parseDefault("= yes", type: .bool))
    XCTAssertNil(GLTransitionSource.parseDefault("= 0.5 0.5", type: .float))
  }

  func testDefaultCommentsWithANoteAndNumericBools() throws {
    let source = try fixture("comment_defaults.glsl")
    XCTAssertEqual(source.uniforms.map(\.name), ["cut", "lift", "flip", "still", "plain"])
    XCTAssertEqual(
      source.uniforms.map(\.default), [.float(0.4), .float(0.2), .bool(true), .bool(false), .bool(true)])
    // The value ends at the first `;`, whatever follows it.
    XCTAssertEqual(
      GLTransitionSource.parseDefault("= 0.4 ; // if 0.0, the effect is off", type: .float), .float(0.4))
    XCTAssertEqual(GLTransitionSource.parseDefault("= vec2(0.5, 1.0); // note; more", type: .vec2), .vec2([0.5, 1]))
    XCTAssertEqual(GLTransitionSource.parseDefault("= 1", type: .bool), .bool(true))
    XCTAssertEqual(GLTransitionSource.parseDefault("= 0;", type: .bool), .bool(false))
    XCTAssertEqual(GLTransitionSource.parseDefault("= bool(1)", type: .bool), .bool(true))
    // Still a value of the type, before the `;`.
    XCTAssertNil(GLTransitionSource.parseDefault("= 2", type: .bool))
    XCTAssertNil(GLTransitionSource.parseDefault("= 1.0", type: .bool))
    XCTAssertNil(GLTransitionSource.parseDefault("= ; 0.4", type: .float))
    XCTAssertNil(GLTransitionSource.parseDefault("= 0.4 0.5; // note", type: .float))
  }

  // MARK: - Errors

  func testUnsupportedTypeNamesTheLine() throws {
    guard case .malformedUniform(let file, let line, let reason)? = try fixtureError("bad_type.glsl") else {
      return XCTFail("expected malformedUniform")
    }
    XCTAssertEqual(file, "bad_type.glsl")
    XCTAssertEqual(line, 3)
    XCTAssertTrue(reason.contains("mat3"), reason)
  }

  func testMalformedDefaultNamesTheLine() throws {
    XCTAssertEqual(
      try fixtureError("bad_default.glsl"),
      .malformedDefault(file: "bad_default.glsl", line: 4, name: "direction", text: "= vec3(1.0, 0.0, 0.0)"))
  }

  func testMissingTransitionFunction() throws {
    XCTAssertEqual(try fixtureError("no_transition.glsl"), .missingTransitionFunction(file: "no_transition.glsl"))
  }

  // MARK: - Adaptation

  func testAdaptationKeepsEveryLine() throws {
    for name in ["all_types.glsl", "legacy.glsl", "broken.glsl"] {
      let source = try fixture(name)
      let before = source.text.split(separator: "\n", omittingEmptySubsequences: false)
      let after = source.adapted(forGLSLES300: true).split(separator: "\n", omittingEmptySubsequences: false)
      XCTAssertEqual(after.count, before.count, name)
      XCTAssertFalse(after.joined().contains("texture2D("), name)
      // Only the lines that needed it changed.
      for (a, b) in zip(before, after) where a != b {
        XCTAssertTrue(a.contains("texture2D") || a.contains("uniform"), "\(name): changed '\(a)' to '\(b)'")
      }
    }
    XCTAssertEqual(try fixture("broken.glsl").adapted(forGLSLES300: false), try fixture("broken.glsl").text)
  }

  func testAdaptationBlanksOnlyReservedDeclarations() throws {
    let lines = try fixture("legacy.glsl").adapted(forGLSLES300: true)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Lines 6–8 declare from, to, progress, ratio: blank now. Line 9 keeps its parameter.
    for n in 6...8 { XCTAssertEqual(lines[n - 1].trimmingCharacters(in: .whitespaces), "", "line \(n)") }
    XCTAssertTrue(lines[8].hasPrefix("uniform vec2 squeeze;"))
    XCTAssertTrue(lines[12].contains("texture(pattern, uv * squeeze)"), lines[12])
    // Comments are left alone.
    XCTAssertTrue(lines[1].contains("The loader blanks"))
  }

  func testGlobalInitializersMoveToTheInitializerFunction() throws {
    let source = try fixture("global_initializers.glsl")
    XCTAssertEqual(source.uniforms.map(\.name), ["amount"])
    let before = source.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let after = source.adapted(forGLSLES300: true).split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    XCTAssertEqual(after.count, before.count)
    // Each declaration stays on its line, without its initializer (comments kept); `const` keeps
    // its own.
    let squeezed = after.map { $0.replacing(#/\s+/#, with: " ").trimmingCharacters(in: .whitespaces) }
    XCTAssertEqual(squeezed[6], "float edge ;")
    XCTAssertEqual(squeezed[7], "const float opaque = 1.0;")
    XCTAssertEqual(squeezed[8], "float first , second , unset;")
    XCTAssertEqual(squeezed[9], "vec2 spread // a comment inside the initializer")
    XCTAssertEqual(squeezed[10], ";")
    XCTAssertEqual(squeezed[11], "mediump float wide ;")
    for n in [0, 1, 2, 3, 4, 5, 7] + Array(12..<before.count) { XCTAssertEqual(after[n], before[n], "line \(n + 1)") }
    // Assigned in source order, each under the `#line` it was written on (comments blanked, the
    // second line of a two-line initializer numbered by the first's).
    let function = source.initializerFunction(sourceString: 1).split(separator: "\n").map {
      $0.replacing(#/\s+/#, with: " ")
    }
    XCTAssertEqual(
      function,
      [
        "void lk_init_globals() {",
        "#line 7 1", "edge = min(progress, 0.2);",
        "#line 9 1", "first = 0.2;",
        "#line 9 1", "second = first + progress * 0.5;",
        "#line 10 1", "spread = vec2(progress * amount, ", " ratio * 0.17);",
        "#line 12 1", "wide = spread.y;",
        "}",
      ])
  }

  func testGlobalInitializersUnderConditionalsAndRenames() throws {
    let source = try fixture("conditional_globals.glsl")
    let lines = source.adapted().split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.replacing(#/\s+/#, with: " ").trimmingCharacters(in: .whitespaces)
    }
    XCTAssertEqual(lines[5], "float a ;")
    XCTAssertEqual(lines[7], "float a ;")
    XCTAssertEqual(lines[9], "vec4 base , b ; // texture2D stays the built-in")
    // Arrays and a struct are left alone; a struct's name is a type like any.
    XCTAssertEqual(lines[11], "float[2] pair = float[2](0.25, 0.65);")
    XCTAssertEqual(lines[12], "float c[2];")
    XCTAssertEqual(lines[13], "struct S { float v; };")
    XCTAssertEqual(lines[14], "S s ;")
    XCTAssertEqual(lines[16], "float lk_user_round(float x) { return floor(x + 0.5); }")
    XCTAssertTrue(lines[24].hasSuffix("f(s.v), lk_user_round(0.6));"), lines[24])
    // Each assignment under the conditionals that chose its declaration (replayed up to its
    // branch), renamed as the code is.
    XCTAssertEqual(
      source.initializerFunction(sourceString: 3).split(separator: "\n"),
      [
        "void lk_init_globals() {",
        "#ifdef GL_ES", "#line 6 3", "a = progress * SCALE;", "#endif",
        "#ifdef GL_ES", "#elif defined(OTHER)", "#line 8 3", "a = 1.0;", "#endif",
        "#ifdef GL_ES", "#elif defined(OTHER)", "#else", "#line 10 3", "base = texture(from, vec2(0.5));", "#endif",
        "#ifdef GL_ES", "#elif defined(OTHER)", "#else", "#line 10 3", "b = vec4(lk_user_round(0.5));", "#endif",
        "#line 15 3", "s = S(ratio);",
        "}",
      ])
  }

  func testUserTextureFunctionIsRenamedInCodeOnly() throws {
    let source = try fixture("texture_function.glsl")
    let before = source.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let after = source.adapted(forGLSLES300: true).split(separator: "\n", omittingEmptySubsequences: false)
      .map(String.init)
    XCTAssertEqual(after.count, before.count)
    XCTAssertEqual(after[8], "vec4 lk_user_texture(vec2 p, float edge) {")
    // The user's texture2D is the built-in, now called texture.
    XCTAssertEqual(after[9], "  return p.x < edge ? getToColor(p) : texture(from, vec2(p.x, 1.0 - p.y));")
    XCTAssertEqual(after[13], "vec4 lk_user_texture(vec2 p) {")
    XCTAssertEqual(after[14], "  return lk_user_texture(p, progress * 1.1);")
    XCTAssertEqual(after[18], "  return lk_user_texture(uv);")
    // Only those lines changed.
    for n in after.indices where ![8, 9, 13, 14, 18].contains(n) {
      XCTAssertEqual(after[n], before[n], "line \(n + 1)")
    }
    // Comments keep the name.
    XCTAssertEqual(after[3], before[3])
    XCTAssertTrue(after[3].contains("texture(…)"))
    XCTAssertEqual(source.initializerFunction(sourceString: 1), "void lk_init_globals() {\n}")
  }

  // MARK: - Parameters

  func testResolveTypeChecksAndNamesTheParameters() throws {
    let source = try fixture("all_types.glsl")
    let values = try source.resolve(["grid": .ivec2([3, 2])], effect: "fixture")
    XCTAssertEqual(values[8], .ivec2([3, 2]))
    XCTAssertEqual(values[0], .float(0.5))
    XCTAssertThrowsError(try source.resolve(["grid": .vec2([3, 2])], effect: "fixture")) { error in
      XCTAssertEqual(
        error as? TransitionParameterError, .wrongType(name: "grid", effect: "fixture", expected: .ivec2, got: .vec2))
    }
    XCTAssertThrowsError(try source.resolve(["gird": .ivec2([3, 2])], effect: "fixture")) { error in
      guard case .unknownParameter("gird", "fixture", let available)? = error as? TransitionParameterError else {
        return XCTFail("\(error)")
      }
      XCTAssertEqual(available, source.uniforms.map(\.name))  // sampler2D parameters are settable too
    }
  }

  // MARK: - The built-in effects: GLSL defaults ≡ Swift defaults

  func testBuiltInDefaultsEqualTheSwiftOnes() throws {
    let folder = Self.root.appendingPathComponent("Shaders/transitions")
    XCTAssertEqual(
      Set(TransitionEffects.all.keys),
      [
        "fade", "moveIn", "push", "reveal", "cut",
        "dissolve", "swipe", "barsSwipe", "copyMachine", "flash", "mod",
        "ripple", "pageCurl", "pageCurlWithShadow", "accordionFold", "disintegrateWithMask",
      ])
    for (name, effect) in TransitionEffects.all.sorted(by: { $0.key < $1.key }) {
      let text = try String(contentsOf: folder.appendingPathComponent(effect.file), encoding: .utf8)
      let source = try GLTransitionSource(text: text, file: effect.file, expandsIncludes: true)
      XCTAssertEqual(source.uniforms.map(\.name), effect.parameters.map(\.name), name)
      XCTAssertEqual(source.uniforms.map(\.default), effect.parameters.map(\.default), name)
      XCTAssertEqual(source.uniforms.map(\.type), effect.parameterTypes, name)
      XCTAssertEqual(
        source.adapted(forGLSLES300: true).split(separator: "\n", omittingEmptySubsequences: false).count,
        text.split(separator: "\n", omittingEmptySubsequences: false).count, name)
      // No global to initialize, nothing renamed: the built-ins' text reaches the driver as it was.
      XCTAssertEqual(source.initializerFunction(sourceString: 1), "void lk_init_globals() {\n}", name)
      XCTAssertFalse(source.adapted().contains(GLTransitionSource.renamedFunctionPrefix), name)
    }
  }
}
