// The loader's composition of shader text (ComposedShader, docs/ARCHITECTURE.md "Shader files"),
// without a GPU: every line the driver compiles maps back, through the numbering its `#line`
// directives give, to the file and line it came from, and does so from the info-log forms of
// Mesa, NVIDIA and ANGLE whether or not the driver reports the source string.

import Foundation
import LayerKit
import XCTest

@testable import LayerKitGL

final class ShaderCompositionTests: XCTestCase {
  private func fixture(_ name: String) throws -> URL {
    let base = try XCTUnwrap(Bundle.module.resourceURL, "test resources missing")
    return base.appendingPathComponent("Fixtures").appendingPathComponent(name)
  }

  /// The (source string, line) a GLSL compiler gives each line of `text` that is not one of the
  /// composer's `#line` directives (GLSL ES 3.00 §3.4), with the line's text.
  private func numbering(_ text: String) -> [(source: Int, line: Int, text: String)] {
    var source = 0
    var line = 1
    var result: [(Int, Int, String)] = []
    for l in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let words = l.split(separator: " ")
      if words.count == 3, words[0] == "#line", let n = Int(words[1]), let s = Int(words[2]) {
        (line, source) = (n, s)
        continue
      }
      result.append((source, line, String(l)))
      line += 1
    }
    return result
  }

  /// Asserts each line of `shader` maps back to a line of the same text in its file (`compiled`
  /// gives the text compiled for a file, where it is not the file's own), but for `defines`; the
  /// lines of lk_init_globals map to the effect file (`effect`), its first line to the marker.
  private func assertEveryLineMapsBack(
    _ shader: ComposedShader, defines: [(String, String)] = [], compiled: [String: String] = [:],
    effect: String? = nil, file: StaticString = #filePath, line: UInt = #line
  ) {
    let added = Set(defines.map { "#define \($0.0) \($0.1)" })
    let header = "void \(GLTransitionSource.initializerFunctionName)() {"
    var initializer = false
    for n in numbering(shader.text) where !added.contains(n.text) {
      let origin = shader.origin(ofLine: n.line)
      XCTAssertEqual(n.source, n.line / ComposedShader.linesPerPiece, n.text, file: file, line: line)
      guard let at = origin.line else { return XCTFail("no line for \(n)", file: file, line: line) }
      let lines = (compiled[origin.file] ?? origin.text).split(separator: "\n", omittingEmptySubsequences: false)
      guard at >= 1, at <= lines.count else { return XCTFail("\(origin.file):\(at) is past its end") }
      if n.text == header {
        initializer = true
        XCTAssertEqual(String(lines[at - 1]), TransitionProgram.marker, file: file, line: line)
      } else if initializer {
        if n.text == "}" {
          initializer = false
        } else {
          XCTAssertEqual(origin.file, effect, n.text, file: file, line: line)
        }
      } else {
        XCTAssertEqual(String(lines[at - 1]), n.text, "\(origin.file):\(at)", file: file, line: line)
      }
    }
  }

  /// The composed line number of the first line whose text is `text`.
  private func composedLine(_ shader: ComposedShader, _ text: String) throws -> (source: Int, line: Int) {
    let n = try XCTUnwrap(numbering(shader.text).first { $0.text == text }, text)
    return (n.source, n.line)
  }

  func testIncludesAndDefinesMapBack() throws {
    let defines = [("LAYERKIT_TEST", "1"), ("MAX_CLIPS", "4")]
    let shader = try ComposedShader(
      .file(fixture("include/error_after_includes.frag")), stage: .fragment, defines: defines)
    // The root, the shipped sampler once, prelude.glsl.
    XCTAssertEqual(
      shader.pieces.map { URL(fileURLWithPath: $0.file).lastPathComponent },
      ["error_after_includes.frag", "sample_bilinear.glsl", "prelude.glsl"])
    XCTAssertEqual(shader.pieces[1].file, "layer/include/sample_bilinear.glsl")
    assertEveryLineMapsBack(shader, defines: defines)
  }

  func testEveryLogFormMapsToTheFileAndLine() throws {
    let shader = try ComposedShader(.file(fixture("include/includes_broken.frag")), stage: .fragment)
    let (source, line) = try composedLine(shader, "float preludeBroken() { return undeclaredInPrelude; }")
    XCTAssertEqual(source, 1)
    // Mesa, NVIDIA, ANGLE; each with the source string the `#line` gave, and with 0 as a driver
    // that ignores it would report.
    for s in [source, 0] {
      for log in [
        "\(s):\(line)(32): error: `undeclaredInPrelude' undeclared\n",
        "\(s)(\(line)) : error C1008: undefined variable \"undeclaredInPrelude\"\n",
        "ERROR: \(s):\(line): 'undeclaredInPrelude' : undeclared identifier\n",
      ] {
        let origin = shader.origin(ofLine: ShaderLog.firstError(log).line)
        XCTAssertTrue(origin.file.hasSuffix("Fixtures/include/broken_prelude.glsl"), "\(log): \(origin.file)")
        XCTAssertEqual(origin.line, 4, log)
      }
    }
    // The root's lines are its own, after the include too: line 11 of includes_broken.frag.
    let own = try composedLine(shader, "  fragColor = vec4(preludeValue());")
    XCTAssertEqual(own.line, 11)
    XCTAssertEqual(shader.origin(ofLine: own.line).line, 11)
    // No line, or one no piece has: the root, without a line.
    XCTAssertNil(shader.origin(ofLine: nil).line)
    XCTAssertNil(shader.origin(ofLine: 7 * ComposedShader.linesPerPiece + 1).line)
  }

  func testBuiltInTransitionMapsBack() throws {
    // The wrapper (which includes the sampler), then page_curl_with_shadow.glsl (which includes
    // the page curl's body).
    let effect = try ShaderSource.bundled("transitions/page_curl_with_shadow.glsl")
    let shader = try TransitionProgram.compose(
      effect, source: GLTransitionSource(text: effect.text, file: effect.file, expandsIncludes: true), includes: true)
    XCTAssertEqual(
      shader.pieces.map(\.file),
      [
        "transitions/transition_wrapper.frag", "layer/include/sample_bilinear.glsl",
        "transitions/page_curl_with_shadow.glsl", "transitions/include/page_curl.glsl",
      ])
    XCTAssertEqual(shader.primaryPiece, 2)
    XCTAssertEqual(shader.name, "transitions/transition_wrapper.frag + transitions/page_curl_with_shadow.glsl")
    // A built-in's text is compiled as written; its lk_init_globals is empty.
    assertEveryLineMapsBack(shader)
    let curl = try composedLine(shader, "  return pageCurl(uv);")
    XCTAssertEqual(shader.origin(ofLine: curl.line).file, "transitions/page_curl_with_shadow.glsl")
    let shadow = try composedLine(shader, "  float reach = max(shadowSize * r, 0.0001);")
    XCTAssertEqual(shader.origin(ofLine: shadow.line).file, "transitions/include/page_curl.glsl")
  }

  func testUserTransitionIsComposedAsWritten() throws {
    // A user's file: the initializers of its globals keep their own lines. (An `#include` in a
    // user's file is refused before composing: GLTransitionTests.)
    for name in ["global_initializers.glsl"] {
      let url = try fixture("transitions/" + name)
      let effect = ShaderSource(file: url.path, text: try String(contentsOf: url, encoding: .utf8))
      let shader = try TransitionProgram.compose(
        effect, source: GLTransitionSource(text: effect.text, file: effect.file), includes: false)
      XCTAssertEqual(shader.pieces.count, 3, name)  // the wrapper, the sampler, the file
      let source = try GLTransitionSource(text: effect.text, file: effect.file)
      assertEveryLineMapsBack(shader, compiled: [url.path: source.adapted(forGLSLES300: true)], effect: url.path)
    }
  }
}
