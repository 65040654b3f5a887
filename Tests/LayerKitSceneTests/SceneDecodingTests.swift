import Foundation
import LayerKit
import LayerKitScene
import XCTest

/// Every field of the format reads into the model value it names.
final class SceneDecodingTests: XCTestCase {
  func testEveryLayerPropertyDecodes() throws {
    let folder = try temporaryFolder(with: ["a.png": try gradientImage()])
    let s = try scene(
      """
      {"width": 64, "height": 48, "fps": 24, "duration": 2, "background": "#102030",
       "media": {"a": "a.png"},
       "layers": [{
         "name": "all", "bounds": [1, 2, 30, 20], "position": [10, 11], "anchorPoint": [0.25, 0.75],
         "zPosition": 3, "transform": [{"rotateZ": 0.5}, {"translate": [1, 2, 3]}],
         "sublayerTransform": [{"perspective": 400}], "opacity": 0.5, "hidden": true,
         "backgroundColor": "#FF000080", "contents": "a", "contentsRect": [0, 0, 0.5, 0.5],
         "contentsGravity": "topLeft", "contentsScale": 2, "cornerRadius": 4, "borderWidth": 1.5,
         "borderColor": [0, 1, 0], "masksToBounds": true, "doubleSided": false, "shadowColor": "#0000FF",
         "shadowOpacity": 0.25, "shadowOffset": [2, 3], "shadowRadius": 5,
         "shadowPath": "M 0 0 L 10 0 Q 12 5 10 10 C 5 12 2 12 0 10 Z",
         "filters": [{"type": "gaussianBlur", "radius": 2}, {"type": "sepia", "name": "old", "intensity": 0.5}],
         "backgroundFilters": [{"type": "colorControls", "saturation": 0}, {"type": "invert"},
           {"type": "hueRotation", "angle": 1}, {"type": "colorMatrix", "bias": [0.1, 0, 0, 0]}],
         "compositingFilter": "multiply",
         "timing": {"beginTime": 1, "speed": 2, "timeOffset": 0.5},
         "mask": {"name": "m", "frame": [0, 0, 30, 20], "backgroundColor": "#FFFFFF"},
         "actions": {"opacity": null, "position": {"kind": "basic", "keyPath": "position", "duration": 2}},
         "styleActions": {"cornerRadius": null},
         "sublayers": [{"name": "child"}, {"name": "child2"}]
       }]}
      """, folder: folder)
    XCTAssertEqual(
      s.settings,
      SceneSettings(
        width: 64, height: 48, fps: 24, duration: 2,
        background: Color(
          red: 16.0 / 255, green: 32.0 / 255, blue: 48.0 / 255)))
    let l = s.root.sublayers![0]
    let e = Layer()
    e.bounds = Rect(x: 1, y: 2, width: 30, height: 20)
    e.position = Point(x: 10, y: 11)
    e.anchorPoint = Point(x: 0.25, y: 0.75)
    e.zPosition = 3
    e.transform = Transform3D(rotationAngle: 0.5, x: 0, y: 0, z: 1).concatenating(
      Transform3D(translationX: 1, y: 2, z: 3))
    e.sublayerTransform = .perspective(eyeDistance: 400)
    e.opacity = 0.5
    e.isHidden = true
    e.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 128.0 / 255)
    e.contents = s.media[0].image
    e.contentsRect = Rect(x: 0, y: 0, width: 0.5, height: 0.5)
    e.contentsGravity = .topLeft
    e.contentsScale = 2
    e.cornerRadius = 4
    e.borderWidth = 1.5
    e.borderColor = Color(red: 0, green: 1, blue: 0)
    e.masksToBounds = true
    e.isDoubleSided = false
    e.shadowColor = .blue
    e.shadowOpacity = 0.25
    e.shadowOffset = Size(width: 2, height: 3)
    e.shadowRadius = 5
    var path = Path()
    path.move(to: Point(x: 0, y: 0))
    path.addLine(to: Point(x: 10, y: 0))
    path.addQuadCurve(to: Point(x: 10, y: 10), control: Point(x: 12, y: 5))
    path.addCurve(to: Point(x: 0, y: 10), control1: Point(x: 5, y: 12), control2: Point(x: 2, y: 12))
    path.closeSubpath()
    e.shadowPathValue = path
    e.filters = [.gaussianBlur(radius: 2), Filter(name: "old", .sepia(intensity: 0.5))]
    e.backgroundFilters = [
      .colorControls(saturation: 0), .invert, .hueRotation(angle: 1), .colorMatrix(bias: [0.1, 0, 0, 0]),
    ]
    e.compositingFilter = .multiply
    e.timing = MediaTiming(beginTime: 1, speed: 2, timeOffset: 0.5)
    XCTAssertEqual(LayerProperty.all(of: l), LayerProperty.all(of: e))
    XCTAssertEqual(l.name, "all")
    XCTAssertEqual(l.mask?.name, "m")
    XCTAssertEqual(l.mask?.backgroundColor, .white)
    XCTAssertEqual(l.sublayers!.map(\.name), ["child", "child2"])
    XCTAssertTrue(l.actions?["opacity"] is NSNull, "null: NSNull")
    XCTAssertEqual((l.actions?["position"] as? Animation)?.duration, 2)
    XCTAssertTrue(l.styleActions?["cornerRadius"] is NSNull)
  }

  func testFrameSetsBoundsAndPositionByTheAnchorPoint() throws {
    let s = try scene(
      #"{"width": 8, "height": 8, "duration": 1, "layers": [{"anchorPoint": [0, 0], "frame": [2, 3, 4, 5]}]}"#)
    let l = s.root.sublayers![0]
    XCTAssertEqual(l.bounds, Rect(x: 0, y: 0, width: 4, height: 5))
    XCTAssertEqual(l.position, Point(x: 2, y: 3))
    XCTAssertEqual(s.settings.fps, 30)  // the default
  }

  func testTransformForms() throws {
    func t(_ json: String) throws -> Transform3D {
      try scene(#"{"width": 8, "height": 8, "duration": 1, "layers": [{"transform": \#(json)}]}"#).root.sublayers![0]
        .transform
    }
    XCTAssertEqual(try t("[1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1]"), Transform3D(translationX: 5, y: 6, z: 7))
    XCTAssertEqual(
      try t(#"[{"matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1]}]"#), Transform3D(translationX: 5, y: 6, z: 7))
    XCTAssertEqual(try t(#"[{"scale": 2}]"#), Transform3D(scaleX: 2, y: 2, z: 2))
    XCTAssertEqual(try t(#"[{"scale": [2, 3]}]"#), Transform3D(scaleX: 2, y: 3, z: 1))
    XCTAssertEqual(try t(#"[{"scaleY": 3}]"#), Transform3D(scaleX: 1, y: 3, z: 1))
    XCTAssertEqual(try t(#"[{"translateX": 4}]"#), Transform3D(translationX: 4, y: 0))
    XCTAssertEqual(try t(#"[{"rotate": [0.3, 1, 1, 0]}]"#), Transform3D(rotationAngle: 0.3, x: 1, y: 1, z: 0))
    XCTAssertEqual(try t(#"[{"rotate": 0.3}]"#), Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1))
    // List order is application order: the rotation first, then the perspective, as
    // `Transform3D.perspective(…).rotated(by:…)` (CATransform3DRotate) builds it.
    XCTAssertEqual(
      try t(#"[{"rotateY": 0.5}, {"perspective": 500}]"#),
      Transform3D.perspective(eyeDistance: 500).rotated(by: 0.5, x: 0, y: 1, z: 0))
    XCTAssertEqual(try t("[]"), .identity)
  }

  func testColourAndPathForms() throws {
    let s = try scene(
      """
      {"width": 8, "height": 8, "duration": 1, "layers": [
        {"backgroundColor": [0.5, 0.25, 1, 0.5], "shadowPath": {"rect": [0, 0, 4, 4]}, "borderColor": "#00ff00"},
        {"backgroundColor": null, "shadowPath": {"ellipse": [0, 0, 4, 2]}},
        {"shadowPath": {"roundedRect": [0, 0, 4, 4], "cornerRadius": 1}}]}
      """)
    let l = try XCTUnwrap(s.root.sublayers)
    XCTAssertEqual(l[0].backgroundColor, Color(red: 0.5, green: 0.25, blue: 1, alpha: 0.5))
    XCTAssertEqual(l[0].borderColor, .green)
    XCTAssertEqual(l[0].shadowPathValue, Path(rect: Rect(x: 0, y: 0, width: 4, height: 4)))
    XCTAssertNil(l[1].backgroundColor)
    XCTAssertEqual(l[1].shadowPathValue, Path(ellipseIn: Rect(x: 0, y: 0, width: 4, height: 2)))
    XCTAssertEqual(l[2].shadowPathValue, Path(roundedRect: Rect(x: 0, y: 0, width: 4, height: 4), cornerRadius: 1))
  }

  func testEveryAnimationKindAndField() throws {
    let s = try scene(
      """
      {"width": 8, "height": 8, "duration": 1, "layers": [{"name": "l", "filters": [{"type": "gaussianBlur"}], "animations": [
        {"kind": "basic", "key": "b", "keyPath": "position", "from": [0, 0], "to": [4, 4], "by": [1, 1],
         "beginTime": 0.5, "duration": 2, "speed": 1.5, "timeOffset": 0.1, "repeatCount": 2.5, "autoreverses": true,
         "fillMode": "both", "timingFunction": [0.1, 0.2, 0.3, 0.4], "removedOnCompletion": false,
         "additive": true, "cumulative": true},
        {"kind": "basic", "key": "r", "keyPath": "transform", "valueFunction": "rotateZ", "from": 0, "to": 6.28,
         "repeatDuration": 3},
        {"kind": "basic", "key": "v", "keyPath": "sublayerTransform", "valueFunction": "translate", "to": [1, 2, 3],
         "repeatCount": "infinity"},
        {"kind": "spring", "key": "s", "keyPath": "opacity", "from": 0, "to": 1, "mass": 2, "stiffness": 50,
         "damping": 5, "initialVelocity": 1},
        {"kind": "spring", "key": "p", "keyPath": "bounds.size.width", "to": 3, "perceptualDuration": 0.5, "bounce": 0.2},
        {"kind": "keyframe", "key": "k", "keyPath": "backgroundColor", "values": ["#FF0000", "#00FF00", [0, 0, 1, 1]],
         "keyTimes": [0, 0.3, 1], "timingFunctions": ["easeIn", "linear"], "calculationMode": "cubic",
         "tensionValues": [0, 0.5, 0], "continuityValues": [0, 0, 0], "biasValues": [0, 0.1, 0]},
        {"kind": "keyframe", "key": "path", "keyPath": "position", "path": "M 0 0 L 5 5", "rotationMode": "autoReverse",
         "calculationMode": "paced"},
        {"kind": "group", "key": "g", "duration": 2, "animations": [
          {"kind": "basic", "keyPath": "filters.gaussianBlur.inputRadius", "to": 4},
          {"kind": "group", "animations": [{"kind": "basic", "keyPath": "hidden", "to": true}]}]},
        {"kind": "transition", "type": "push", "subtype": "fromTop", "startProgress": 0.2, "endProgress": 0.9, "reversesEffect": true},
        {"kind": "basic", "key": "c", "keyPath": "contents", "to": null}
      ]}]}
      """)
    let l = s.root.sublayers![0]
    XCTAssertEqual((l.animationKeys() ?? []), ["b", "r", "v", "s", "p", "k", "path", "g", "transition", "c"])
    let b = try XCTUnwrap(l.animation(forKey: "b") as? BasicAnimation)
    XCTAssertEqual(b.fromValue as? Point, Point(x: 0, y: 0))
    XCTAssertEqual(b.toValue as? Point, Point(x: 4, y: 4))
    XCTAssertEqual(b.byValue as? Point, Point(x: 1, y: 1))
    XCTAssertEqual(
      b.timing,
      MediaTiming(
        beginTime: 0.5, duration: 2, speed: 1.5, timeOffset: 0.1, repeatCount: 2.5, autoreverses: true, fillMode: .both)
    )
    XCTAssertEqual(b.timingFunction, try MediaTimingFunction(checkedControlPoints: 0.1, 0.2, 0.3, 0.4))
    XCTAssertFalse(b.isRemovedOnCompletion)
    XCTAssertTrue(b.isAdditive)
    XCTAssertTrue(b.isCumulative)
    let r = try XCTUnwrap(l.animation(forKey: "r") as? BasicAnimation)
    XCTAssertEqual(r.valueFunction, .rotateZ)
    XCTAssertEqual(r.toValue as? Double, 6.28)
    XCTAssertEqual(r.repeatDuration, 3)
    let v = try XCTUnwrap(l.animation(forKey: "v") as? BasicAnimation)
    XCTAssertEqual(v.toValue as? SIMD3<Double>, SIMD3(1, 2, 3))
    XCTAssertEqual(v.repeatCount, .infinity)
    let sp = try XCTUnwrap(l.animation(forKey: "s") as? SpringAnimation)
    XCTAssertEqual([sp.mass, sp.stiffness, sp.damping, sp.initialVelocity], [2, 50, 5, 1])
    let p = try XCTUnwrap(l.animation(forKey: "p") as? SpringAnimation)
    let expected = try SpringAnimation(keyPath: "bounds.size.width", perceptualDuration: 0.5, bounce: 0.2)
    XCTAssertEqual([p.mass, p.stiffness, p.damping], [expected.mass, expected.stiffness, expected.damping])
    let k = try XCTUnwrap(l.animation(forKey: "k") as? KeyframeAnimation)
    XCTAssertEqual(k.values?.compactMap { $0 as? Color }, [.red, .green, .blue])
    XCTAssertEqual(k.keyTimes, [0, 0.3, 1])
    XCTAssertEqual(k.timingFunctions, [.easeIn, .linear])
    XCTAssertEqual(k.calculationMode, .cubic)
    XCTAssertEqual(k.tensionValues, [0, 0.5, 0])
    XCTAssertEqual(k.continuityValues, [0, 0, 0])
    XCTAssertEqual(k.biasValues, [0, 0.1, 0])
    let kp = try XCTUnwrap(l.animation(forKey: "path") as? KeyframeAnimation)
    XCTAssertEqual(kp.pathValue, Path(elements: [.move(to: .zero), .line(to: Point(x: 5, y: 5))]))
    XCTAssertEqual(kp.rotationMode, .autoReverse)
    XCTAssertEqual(kp.calculationMode, .paced)
    let g = try XCTUnwrap(l.animation(forKey: "g") as? AnimationGroup)
    XCTAssertEqual(g.animations.count, 2)
    XCTAssertEqual((g.animations[0] as? BasicAnimation)?.keyPath, "filters.gaussianBlur.inputRadius")
    XCTAssertEqual(((g.animations[1] as? AnimationGroup)?.animations[0] as? BasicAnimation)?.toValue as? Bool, true)
    let t = try XCTUnwrap(l.animation(forKey: "transition") as? Transition)
    XCTAssertEqual(t.type, .push)
    XCTAssertEqual(t.subtype, .fromTop)
    XCTAssertEqual(t.startProgress, 0.2)
    XCTAssertEqual(t.endProgress, 0.9)
    XCTAssertTrue(t.reversesEffect)
    let c = try XCTUnwrap(l.animation(forKey: "c") as? BasicAnimation)
    XCTAssertEqual((c.toValue as? Image)?.id, Image.zero.id)
  }

  func testTransitionFilterParametersTakeTheCatalogueTypes() throws {
    let folder = try temporaryFolder(with: ["a.png": try gradientImage()])
    let s = try scene(
      """
      {"width": 8, "height": 8, "duration": 1, "media": {"mask": "a.png"}, "layers": [{"animations": [
        {"kind": "transition", "filter": {"effect": "disintegrateWithMask", "parameters": {
          "maskScale": 4, "shadowOffset": [0.1, 0.2], "maskImage": "mask", "useMaskImage": true}}},
        {"kind": "transition", "filter": {"effect": "accordionFold", "parameters": {"numberOfFolds": 5}}}
      ]}]}
      """, folder: folder)
    // One transition per layer (CATransition's rule): the second replaces the first.
    let t = try XCTUnwrap(s.root.sublayers![0].animation(forKey: "transition") as? Transition)
    XCTAssertEqual(t.filter?.effect, "accordionFold")
    XCTAssertEqual(t.filter?.parameters["numberOfFolds"], .int(5))
    let s2 = try scene(
      """
      {"width": 8, "height": 8, "duration": 1, "media": {"mask": "a.png"}, "layers": [{"animations": [
        {"kind": "transition", "filter": {"effect": "disintegrateWithMask", "parameters": {
          "maskScale": 4, "shadowOffset": [0.1, 0.2], "maskImage": "mask", "useMaskImage": true}}}]}]}
      """, folder: folder)
    let f = try XCTUnwrap((s2.root.sublayers![0].animation(forKey: "transition") as? Transition)?.filter)
    XCTAssertEqual(f.parameters["maskScale"], .float(4))
    XCTAssertEqual(f.parameters["shadowOffset"], .vec2([0.1, 0.2]))
    XCTAssertEqual(f.parameters["useMaskImage"], .bool(true))
    XCTAssertEqual(f.parameters["maskImage"], .image(s2.media[0].image))
  }

  func testTimelineEntriesAndChanges() throws {
    let s = try scene(
      """
      {"width": 8, "height": 8, "duration": 1,
       "layers": [{"name": "a"}, {"name": "b", "sublayers": [{"name": "c"}]}, {"name": "m"}],
       "timeline": [
        {"time": 0.5, "duration": 2, "timingFunction": "easeOut", "disableActions": true, "changes": [
          {"layer": "a", "set": {"opacity": 0.5, "position": [1, 2]}},
          {"layer": "a", "addAnimation": {"kind": "basic", "key": "o", "keyPath": "opacity", "to": 1}},
          {"layer": "a", "removeAnimation": "o"},
          {"layer": "a", "removeAllAnimations": true},
          {"layer": "b", "addSublayer": {"name": "new"}, "index": 0},
          {"layer": "a", "addSublayer": "c"},
          {"layer": "m", "removeFromSuperlayer": true},
          {"layer": "a", "mask": "m"},
          {"layer": "b", "mask": {"name": "m2"}},
          {"layer": "b", "mask": null}
        ]},
        {"time": 0.5, "changes": []}]}
      """)
    XCTAssertEqual(s.timeline.count, 2)
    let t = s.timeline[0]
    XCTAssertEqual(t.time, 0.5)
    XCTAssertEqual(t.duration, 2)
    XCTAssertEqual(t.timingFunction, .easeOut)
    XCTAssertEqual(t.disableActions, true)
    XCTAssertEqual(t.changes.count, 10)
    guard case .set(let layer, let properties) = t.changes[0] else { return XCTFail("set") }
    XCTAssertEqual(layer, "a")
    XCTAssertEqual(properties, [.position(Point(x: 1, y: 2)), .opacity(0.5)])
    let tree = try s.presentation(at: 1)
    XCTAssertEqual(tree.sublayers!.map(\.name), ["a", "b"])
    XCTAssertEqual(tree.sublayers![0].opacity, 0.5)
    XCTAssertEqual(tree.sublayers![0].sublayers!.map(\.name), ["c"])
    XCTAssertEqual(tree.sublayers![0].mask?.name, "m")
    XCTAssertEqual(tree.sublayers![1].sublayers!.map(\.name), ["new"])
    XCTAssertNil(tree.sublayers![1].mask)
    XCTAssertTrue((tree.sublayers![0].animationKeys() ?? []).isEmpty)
  }

  func testPresentationRewindsForAnEarlierTime() throws {
    let s = try scene(
      """
      {"width": 8, "height": 8, "duration": 2, "layers": [{"name": "a", "opacity": 1}],
       "timeline": [{"time": 1, "disableActions": true, "changes": [{"layer": "a", "set": {"opacity": 0.25}}]}]}
      """)
    XCTAssertEqual(try s.presentation(at: 1.5).sublayers![0].opacity, 0.25)
    XCTAssertEqual(try s.presentation(at: 0.5).sublayers![0].opacity, 1)
    XCTAssertEqual(try s.presentation(at: 1).sublayers![0].opacity, 0.25)
    XCTAssertEqual(s.frameCount, 60)
    XCTAssertEqual(s.time(ofFrame: 15), 0.5)
  }

  func testEditDistanceSuggestions() {
    XCTAssertEqual(SceneFileError.suggestion(for: "opacty", among: LayerProperty.keys), "opacity")
    XCTAssertEqual(SceneFileError.suggestion(for: "BackgroundColour", among: LayerProperty.keys), "backgroundColor")
    XCTAssertEqual(SceneFileError.suggestion(for: "sublayer", among: SceneFile.layerKeys), "sublayers")
    XCTAssertNil(SceneFileError.suggestion(for: "zzzzzzzz", among: LayerProperty.keys))
  }
}

/// The scene format knows the value type of every key path LayerKit animates.
final class SceneKeyPathTests: XCTestCase {
  func testEveryAnimatableKeyPathHasAValueForm() throws {
    // Each key path the model resolves reads from a scene file: an animation of it with a value
    // of the form the format gives it is accepted by `Layer.add`.
    let samples: [String: String] = [
      "number": "1", "bool": "true", "point": "[1, 2]", "size": "[1, 2]", "rect": "[0, 0, 1, 2]",
      "color": "\"#FF0000\"", "transform": "[{\"scale\": 2}]", "image": "null", "path": "\"M 0 0 L 4 0 L 4 4 Z\"",
      "colors": "[\"#FF0000\", \"#0000FF\"]", "numbers": "[0, 1]",
    ]
    for keyPath in LayerKitKeyPaths.all {
      let animation = """
        {"width": 8, "height": 8, "duration": 1, "layers": [{"animations": [
          {"kind": "basic", "keyPath": "\(keyPath)", "to": \(try XCTUnwrap(samples[try XCTUnwrap(LayerKitKeyPaths.kind(keyPath))]))}]}]}
        """
      XCTAssertNoThrow(try scene(animation), keyPath)
    }
  }
}

/// The JSON value type: its parser, its writer and its Codable form agree.
final class SceneJSONTests: XCTestCase {
  func testParseWriteAndCodableAgree() throws {
    let text = #"{"a": [1, 2.5, -3e2, true, null, "x\"y\u00e9\n"], "b": {"c": {}}, "d": []}"#
    let json = try JSON.parse(Data(text.utf8), file: "t")
    XCTAssertEqual(
      json["a"], .array([.number(1), .number(2.5), .number(-300), .bool(true), .null, .string("x\"yé\n")]))
    XCTAssertEqual(try JSON.parse(Data(json.formatted().utf8), file: "t"), json)
    let viaCodable = try JSONDecoder().decode(JSON.self, from: JSONEncoder().encode(json))
    XCTAssertEqual(viaCodable["a"], json["a"])
    XCTAssertEqual(viaCodable["b"], json["b"])
    XCTAssertEqual(viaCodable["d"], json["d"])
  }
}
