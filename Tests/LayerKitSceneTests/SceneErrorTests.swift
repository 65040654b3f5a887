import Foundation
import LayerKit
import LayerKitScene
import XCTest

/// Bad input is a typed error naming the path of the offending value, what was found and what
/// was expected; never a crash or a hang.
final class SceneErrorTests: XCTestCase {
  /// The error decoding `text` throws.
  func error(_ text: String, folder: URL? = nil, file: StaticString = #filePath, line: UInt = #line)
    -> SceneFileError?
  {
    sceneError(
      { try scene(text, folder: folder ?? repositoryRoot.appendingPathComponent("examples/scenes")) },
      file: file, line: line)
  }

  let head = #""width": 8, "height": 8, "duration": 1"#

  func testAnUnknownKeySuggestsTheNearestKnownOne() throws {
    let e = try XCTUnwrap(error(#"{\#(head), "layers": [{"name": "a"}, {"opacty": 0.5}]}"#))
    guard case .unknownKey(let path, let key, let suggestion, _) = e else { return XCTFail("\(e)") }
    XCTAssertEqual(path, "layers[1]")
    XCTAssertEqual(key, "opacty")
    XCTAssertEqual(suggestion, "opacity")
    XCTAssertTrue(e.description.contains("layers[1]: unknown key \"opacty\"; did you mean \"opacity\"?"), e.description)
    let top = try XCTUnwrap(error(#"{\#(head), "layer": []}"#))
    XCTAssertEqual(top, .unknownKey(path: "", key: "layer", suggestion: "layers", known: SceneFile.documentKeys))
    let deep = try XCTUnwrap(
      error(#"{\#(head), "timeline": [{"time": 0, "changes": [{"layer": "x", "set": {"cornerRadios": 1}}]}]}"#))
    XCTAssertEqual(deep.path, "timeline[0].changes[0].set")
    guard case .unknownKey(_, _, "cornerRadius", _) = deep else { return XCTFail("\(deep)") }
  }

  func testAnUnknownKeyPathNamesItsPath() throws {
    let e = try XCTUnwrap(
      error(
        #"{\#(head), "layers": [{}, {}, {"animations": [{"kind": "basic", "keyPath": "opactiy", "to": 1}]}]}"#))
    XCTAssertEqual(e.path, "layers[2].animations[0].keyPath")
    XCTAssertTrue(e.description.contains("found the string \"opactiy\""), e.description)
    XCTAssertTrue(e.description.contains("did you mean \"opacity\""), e.description)
  }

  func testWrongTypesNameWhatWasFoundAndWhatWasExpected() throws {
    let cases: [(String, String, String)] = [
      (#""layers": [{"opacity": "half"}]"#, "layers[0].opacity", "the string \"half\""),
      (#""layers": [{"position": [1]}]"#, "layers[0].position", "an array of 1 element"),
      (#""layers": [{"bounds": [0, 0, "w", 1]}]"#, "layers[0].bounds[2]", "the string \"w\""),
      (##""layers": [{"backgroundColor": "#12345"}]"##, "layers[0].backgroundColor", "the string \"#12345\""),
      (#""layers": [{"backgroundColor": [2, 0, 0]}]"#, "layers[0].backgroundColor[0]", "the number 2"),
      (#""layers": [{"transform": [{"rotateQ": 1}]}]"#, "layers[0].transform[0]", ""),
      (#""layers": [{"transform": [{"rotateX": 1, "rotateY": 2}]}]"#, "layers[0].transform[0]", "an object"),
      (#""layers": [{"transform": [1, 2, 3]}]"#, "layers[0].transform", "an array of 3 elements"),
      (#""layers": [{"shadowPath": "M 0 0 X 1 1"}]"#, "layers[0].shadowPath", "\"X\" (token 4)"),
      (#""layers": [{"shadowPath": "L 0 0"}]"#, "layers[0].shadowPath", "\"L\" (token 1)"),
      (#""layers": [{"contentsGravity": "resizeAspectFit"}]"#, "layers[0].contentsGravity", "resizeAspectFit"),
      (#""layers": [{"cornerRadius": -1}]"#, "layers[0].cornerRadius", "the number -1"),
      (#""layers": [{"hidden": 1}]"#, "layers[0].hidden", "the number 1"),
      (#""layers": [{"filters": [{"type": "blur"}]}]"#, "layers[0].filters[0].type", "\"blur\""),
      (#""layers": [{"filters": [{"type": "sepia", "radius": 1}]}]"#, "layers[0].filters[0]", ""),
      (#""layers": [{"filters": [{"type": "invert"}, {"type": "invert"}]}]"#, "layers[0].filters[1]", "second filter"),
      (#""layers": [{"timing": {"speeed": 2}}]"#, "layers[0].timing", ""),
      (#""layers": [{"sublayers": {}}]"#, "layers[0].sublayers", "an object"),
      (#""layers": [{"frame": [0, 0, 1, 1], "bounds": [0, 0, 1, 1]}]"#, "layers[0].frame", "\"bounds\""),
      (#""layers": [{"animations": [{"keyPath": "opacity"}]}]"#, "layers[0].animations[0]", ""),
      (#""layers": [{"animations": [{"kind": "basik"}]}]"#, "layers[0].animations[0].kind", "\"basik\""),
      (
        #""layers": [{"animations": [{"kind": "basic", "keyPath": "opacity", "to": [1, 2]}]}]"#,
        "layers[0].animations[0].to", "an array of 2 elements"
      ),
      (
        #""layers": [{"animations": [{"kind": "basic", "keyPath": "position", "from": 3}]}]"#,
        "layers[0].animations[0].from", "the number 3"
      ),
      (
        #""layers": [{"animations": [{"kind": "basic", "keyPath": "opacity", "valueFunction": "rotateZ"}]}]"#,
        "layers[0].animations[0].valueFunction", ""
      ),
      (
        #""layers": [{"animations": [{"kind": "basic", "keyPath": "opacity", "repeatCount": "forever"}]}]"#,
        "layers[0].animations[0].repeatCount", "\"forever\""
      ),
      (
        #""layers": [{"animations": [{"kind": "basic", "keyPath": "opacity", "timingFunction": "easeInOut"}]}]"#,
        "layers[0].animations[0].timingFunction", "easeInOut"
      ),
      (
        #""layers": [{"animations": [{"kind": "basic", "keyPath": "opacity", "timingFunction": [2, 0, 1, 1]}]}]"#,
        "layers[0].animations[0].timingFunction", ""
      ),
      (
        #""layers": [{"animations": [{"kind": "keyframe", "keyPath": "opacity", "values": [0, "x"]}]}]"#,
        "layers[0].animations[0].values[1]", "the string \"x\""
      ),
      (
        #""layers": [{"animations": [{"kind": "spring", "keyPath": "opacity", "mass": 1, "perceptualDuration": 1}]}]"#,
        "layers[0].animations[0].mass", ""
      ),
      (
        #""layers": [{"animations": [{"kind": "transition", "filter": {"effect": "rippel"}}]}]"#,
        "layers[0].animations[0].filter.effect", "did you mean \"ripple\""
      ),
      (
        #""layers": [{"animations": [{"kind": "transition", "filter": {"effect": "ripple", "parameters": {"centre": [0, 0]}}}]}]"#,
        "layers[0].animations[0].filter.parameters", "did you mean \"center\""
      ),
      (
        #""layers": [{"animations": [{"kind": "transition", "filter": {"effect": "ripple", "parameters": {"center": 1}}}]}]"#,
        "layers[0].animations[0].filter.parameters.center", "the number 1"
      ),
      (
        #""layers": [{"animations": [{"kind": "group", "animations": [{"kind": "basic", "key": "x", "keyPath": "opacity"}]}]}]"#,
        "layers[0].animations[0].animations[0]", ""
      ),
      (#""timeline": [{"time": -1, "changes": []}]"#, "timeline[0].time", "the number -1"),
      (#""timeline": [{"time": 2, "changes": []}, {"time": 1, "changes": []}]"#, "timeline[1]", "time order"),
      (#""timeline": [{"time": 0, "changes": [{"layer": "a"}]}]"#, "timeline[0].changes[0]", "exactly one"),
      (
        #""timeline": [{"time": 0, "changes": [{"layer": "a", "removeFromSuperlayer": true, "set": {}}]}]"#,
        "timeline[0].changes[0]", "exactly one"
      ),
      (#""timeline": [{"time": 0, "changes": [{"layer": "a", "set": {}, "index": 1}]}]"#, "timeline[0].changes[0]", ""),
      (#""timeline": [{"time": 0}]"#, "timeline[0]", "changes"),
      (#""fps": 0"#, "fps", "the number 0"),
      (#""fps": 30, "duration": 1e300"#, "duration", "from 0 to 86400"),
      (#""fps": 1000, "duration": 86400"#, "duration", "at most 10000 seconds at 1000 fps"),
      (#""width": 0"#, "width", "the number 0"),
    ]
    for (body, path, found) in cases {
      guard let e = error("{\(head), \(body)}") else { continue }
      XCTAssertEqual(e.path, path, "\(body): \(e)")
      XCTAssertTrue(e.description.hasPrefix("\(path.isEmpty ? "the document" : path): "), e.description)
      if !found.isEmpty { XCTAssertTrue(e.description.contains(found), "\(body): \(e.description)") }
    }
  }

  func testMissingKeys() throws {
    XCTAssertEqual(error(#"{"width": 8, "height": 8}"#), .missingKey(path: "", key: "duration"))
    XCTAssertEqual(
      error(#"{\#(head), "layers": [{"animations": [{"kind": "basic"}]}]}"#),
      .missingKey(path: "layers[0].animations[0]", key: "keyPath"))
    XCTAssertEqual(
      error(#"{\#(head), "layers": [{"animations": [{"kind": "keyframe", "keyPath": "opacity"}]}]}"#),
      .missingKey(path: "layers[0].animations[0]", key: "values"))
    XCTAssertEqual(
      error(#"{\#(head), "layers": [{"filters": [{"radius": 2}]}]}"#),
      .missingKey(path: "layers[0].filters[0]", key: "type"))
  }

  func testInvalidJSONGivesTheLineAndColumn() throws {
    let e = error("{\n  \"width\": 8,\n  \"height\": ,\n}")
    guard case .invalidJSON(_, 3, 13, _)? = e else { return XCTFail("\(String(describing: e))") }
    guard case .invalidJSON(_, 1, 1, _)? = error("") else { return XCTFail("empty text") }
    guard case .invalidJSON? = error(#"{"a": "unterminated}"#) else { return XCTFail("unterminated string") }
    guard case .invalidJSON? = error(String(repeating: "[", count: 100_000)) else { return XCTFail("deep nesting") }
    guard case .invalidJSON? = error(#"{"width": 1e999}"#) else { return XCTFail("huge number") }
    guard case .invalidJSON? = error(#"{} x"#) else { return XCTFail("trailing text") }
  }

  func testMediaErrorsNameTheResolvedPath() throws {
    let folder = try temporaryFolder()
    let e = try XCTUnwrap(error(#"{\#(head), "media": {"a": "missing/photo.jpg"}}"#, folder: folder))
    XCTAssertEqual(
      e, .mediaNotFound(path: "media.a", resolvedPath: folder.appendingPathComponent("missing/photo.jpg").path))
    try Data("not an image".utf8).write(to: folder.appendingPathComponent("bad.png"))
    let bad = try XCTUnwrap(error(#"{\#(head), "media": {"b": {"image": "bad.png"}}}"#, folder: folder))
    guard case .unreadableMedia("media.b.image", let resolved, _) = bad else { return XCTFail("\(bad)") }
    XCTAssertEqual(resolved, folder.appendingPathComponent("bad.png").path)
    let unknown = try XCTUnwrap(
      error(#"{\#(head), "media": {"sunset": "../photos/03-sunset.jpg"}, "layers": [{"contents": "sunst"}]}"#))
    XCTAssertEqual(unknown, .unknownMedia(path: "layers[0].contents", name: "sunst", suggestion: "sunset"))
    XCTAssertTrue(unknown.description.contains("did you mean \"sunset\"?"))
  }

  func testTimelineErrorsAreFoundWhenTheSceneLoads() throws {
    let unknown = try XCTUnwrap(
      error(
        #"{\#(head), "layers": [{"name": "card"}], "timeline": [{"time": 3, "changes": [{"layer": "crad", "set": {}}]}]}"#
      ))
    XCTAssertEqual(unknown, .unknownLayer(path: "timeline[0].changes[0].layer", name: "crad", suggestion: "card"))
    let duplicate = try XCTUnwrap(error(#"{\#(head), "layers": [{"name": "a"}, {"sublayers": [{"name": "a"}]}]}"#))
    guard case .duplicateLayerName(_, "a", _) = duplicate else { return XCTFail("\(duplicate)") }
    let refused = try XCTUnwrap(
      error(
        #"{\#(head), "layers": [{"name": "a"}], "timeline": [{"time": 1, "changes": [{"layer": "a", "addAnimation": {"kind": "keyframe", "keyPath": "opacity", "values": [0, 1], "keyTimes": [0.5]}}]}]}"#
      ))
    guard case .animation("timeline[0].changes[0].addAnimation", .invalidKeyframes) = refused else {
      return XCTFail("\(refused)")
    }
    let layerAnimation = try XCTUnwrap(
      error(
        #"{\#(head), "layers": [{"animations": [{"kind": "basic", "keyPath": "filters.blur.inputAngle"}], "filters": [{"type": "gaussianBlur", "name": "blur"}]}]}"#
      ))
    guard case .animation("layers[0].animations[0]", .unsupported) = layerAnimation else {
      return XCTFail("\(layerAnimation)")
    }
  }

  func testCyclesAreErrorsNotHangs() throws {
    // A layer added under its own descendant.
    let ancestor = try XCTUnwrap(
      error(
        #"{\#(head), "layers": [{"name": "a", "sublayers": [{"name": "b"}]}], "timeline": [{"time": 1, "changes": [{"layer": "b", "addSublayer": "a"}]}]}"#
      ))
    guard case .cycle("timeline[0].changes[0].addSublayer", _) = ancestor else { return XCTFail("\(ancestor)") }
    XCTAssertTrue(ancestor.description.contains("its own ancestor"), ancestor.description)
    // A layer added to itself.
    let itself = try XCTUnwrap(
      error(
        #"{\#(head), "layers": [{"name": "a"}], "timeline": [{"time": 1, "changes": [{"layer": "a", "addSublayer": "a"}]}]}"#
      ))
    guard case .cycle = itself else { return XCTFail("\(itself)") }
    // A mask that is also a sublayer, both ways round.
    let maskInTree = try XCTUnwrap(
      error(
        #"{\#(head), "layers": [{"name": "a"}, {"name": "b"}], "timeline": [{"time": 1, "changes": [{"layer": "a", "mask": "b"}]}]}"#
      ))
    guard case .cycle("timeline[0].changes[0].mask", _) = maskInTree else { return XCTFail("\(maskInTree)") }
    let sublayerIsMask = try XCTUnwrap(
      error(
        #"{\#(head), "layers": [{"name": "a", "mask": {"name": "m"}}, {"name": "b"}], "timeline": [{"time": 1, "changes": [{"layer": "b", "addSublayer": "m"}]}]}"#
      ))
    guard case .cycle("timeline[0].changes[0].addSublayer", _) = sublayerIsMask else {
      return XCTFail("\(sublayerIsMask)")
    }
    // A layer masked by its own ancestor.
    let maskAncestor = try XCTUnwrap(
      error(
        #"{\#(head), "layers": [{"name": "a", "sublayers": [{"name": "b"}]}], "timeline": [{"time": 1, "changes": [{"layer": "a", "removeFromSuperlayer": true}, {"layer": "b", "mask": "a"}]}]}"#
      ))
    guard case .cycle = maskAncestor else { return XCTFail("\(maskAncestor)") }
  }

  func testWritingRefusesWhatTheFormatCannotHold() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
    let a = Layer()
    a.contents = try gradientImage()
    root.addSublayer(a)
    let settings = SceneSettings(width: 8, height: 8, duration: 1)
    XCTAssertEqual(
      sceneError { try SceneFile.encode(root: root, settings: settings) },
      .unencodable(path: "layers[0].contents", reason: "an image (32×24) that no media entry holds"))
    a.contents = nil
    a.opacity = .nan
    XCTAssertEqual(sceneError { try SceneFile.encode(root: root, settings: settings) }?.path, "layers[0].opacity")
    a.opacity = 1
    let b = Layer()
    a.addSublayer(b)
    a.mask = b
    guard case .cycle("layers[0].mask", _)? = sceneError({ try SceneFile.encode(root: root, settings: settings) })
    else {
      return XCTFail("a mask that is also a sublayer")
    }
  }

  func testUnreadableFile() {
    let e = sceneError { try SceneFile.load(URL(fileURLWithPath: "/nonexistent/scene.json")) }
    XCTAssertEqual(e, .unreadable(file: "/nonexistent/scene.json", reason: "no such file"))
  }

  /// Timing numbers beyond LayerKit's limits are refused with their scene path and range (a
  /// duration of 1e-300 repeated forever once trapped; a speed of 1e308 ran on).
  func testTimingBeyondTheLimitsIsRefused() throws {
    func doc(_ animation: String) -> String {
      #"{"version": 1, "width": 8, "height": 8, "duration": 1, "root": {"animations": ["# + animation + "]}}"
    }
    let tiny = error(doc(#"{"kind": "basic", "keyPath": "opacity", "to": 0, "duration": 1e-300, "repeatCount": "infinity"}"#))
    XCTAssertTrue("\(tiny)".contains("root.animations[0].duration"), "\(tiny)")
    XCTAssertTrue("\(tiny)".contains("at least 0.000001 s"), "\(tiny)")
    let fast = error(doc(#"{"kind": "basic", "keyPath": "opacity", "to": 0, "speed": 1e308}"#))
    XCTAssertTrue("\(fast)".contains("root.animations[0].speed"), "\(fast)")
    XCTAssertTrue("\(fast)".contains("from -1000 to 1000"), "\(fast)")
    let late = error(doc(#"{"kind": "basic", "keyPath": "opacity", "to": 0, "beginTime": -1e300}"#))
    XCTAssertTrue("\(late)".contains("from -86400 to 86400"), "\(late)")
  }
}
