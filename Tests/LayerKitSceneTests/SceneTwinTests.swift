import Foundation
import LayerKit
import LayerKitMedia
import LayerKitScene
import LayerKitTesting
import XCTest

/// A scene read from a file and the same scene built in Swift render the same bytes, and a tree
/// built in Swift, written out and read back, does too.
final class SceneTwinTests: XCTestCase {
  static let times = [0, 0.3, 0.7, 1.0, 1.2, 1.45, 1.7, 2.1, 2.6]
  let settings = SceneSettings(width: 96, height: 64, fps: 10, duration: 3, background: Color(white: 0x1A / 255.0))

  static let file = """
    {"width": 96, "height": 64, "fps": 10, "duration": 3, "background": "#1A1A1A",
     "media": {"a": "a.png", "b": "b.png"},
     "layers": [
      {"name": "photo", "frame": [0, 0, 96, 64], "contents": "a", "contentsGravity": "resizeAspectFill",
       "masksToBounds": true},
      {"name": "card", "bounds": [0, 0, 40, 28], "position": [30, 40], "backgroundColor": "#F0F0F0",
       "cornerRadius": 6, "borderWidth": 1, "borderColor": "#202020", "shadowOpacity": 0.6, "shadowRadius": 3,
       "shadowOffset": [0, 3], "shadowPath": {"roundedRect": [0, 0, 40, 28], "cornerRadius": 6},
       "mask": {"frame": [0, 0, 40, 28], "backgroundColor": "#FFFFFF", "cornerRadius": 10},
       "filters": [{"type": "colorControls", "name": "tone"}],
       "animations": [
        {"kind": "spring", "key": "drop", "keyPath": "position.y", "from": 10, "to": 40, "stiffness": 150,
         "damping": 8, "duration": 1.5, "fillMode": "backwards", "beginTime": 0.1},
        {"kind": "group", "key": "g", "beginTime": 0.5, "duration": 1, "autoreverses": true, "animations": [
          {"kind": "basic", "keyPath": "transform.scale", "from": 1, "to": 1.2, "duration": 1},
          {"kind": "basic", "keyPath": "filters.tone.inputSaturation", "to": 0, "duration": 1}]}]},
      {"name": "stage", "frame": [52, 8, 40, 40], "sublayerTransform": [{"perspective": 120}], "sublayers": [
        {"name": "flip", "frame": [5, 5, 30, 30], "contents": "b", "doubleSided": false, "animations": [
          {"kind": "basic", "key": "f", "keyPath": "transform", "valueFunction": "rotateY", "from": 0, "to": 3,
           "duration": 2.5, "timingFunction": "easeInEaseOut"}]}]},
      {"name": "dot", "bounds": [0, 0, 8, 8], "position": [4, 4], "backgroundColor": [1, 0.5, 0, 1],
       "cornerRadius": 4, "animations": [
        {"kind": "keyframe", "key": "k", "keyPath": "position", "path": "M 4 4 C 40 60 60 0 92 60",
         "calculationMode": "paced", "rotationMode": "auto", "duration": 2, "repeatCount": 2}]}
     ],
     "timeline": [
      {"time": 0.9, "duration": 0.6, "disableActions": true, "changes": [
        {"layer": "photo", "set": {"contents": "b"}},
        {"layer": "photo", "addAnimation": {"kind": "transition", "type": "push", "subtype": "fromRight"}}]},
      {"time": 1.4, "duration": 0.8, "timingFunction": "easeOut", "changes": [
        {"layer": "card", "set": {"position": [60, 30], "backgroundColor": "#3070F0"}},
        {"layer": "stage", "addSublayer": {"name": "badge", "frame": [0, 0, 10, 10], "backgroundColor": "#FF0000",
          "animations": [{"kind": "basic", "keyPath": "opacity", "from": 0, "to": 1, "duration": 0.5}]}}]},
      {"time": 2.0, "changes": [
        {"layer": "photo", "addAnimation": {"kind": "transition", "duration": 0.5,
          "filter": {"effect": "dissolve"}}},
        {"layer": "photo", "set": {"contentsRect": [0.25, 0.25, 0.5, 0.5]}}]}
     ]}
    """

  func images() throws -> (Image, Image, URL) {
    let a = try gradientImage(width: 48, height: 32, seed: 1)
    let b = try gradientImage(width: 30, height: 40, seed: 3)
    let folder = try temporaryFolder(with: ["a.png": a, "b.png": b])
    return (a, b, folder)
  }

  /// The twin's tree, as the Swift code that the file describes builds it.
  func makeTree(a: Image, b: Image) throws -> (root: Layer, named: [String: Layer]) {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 96, height: 64))
    let photo = Layer(frame: Rect(x: 0, y: 0, width: 96, height: 64))
    photo.name = "photo"
    photo.contents = a
    photo.contentsGravity = .resizeAspectFill
    photo.masksToBounds = true
    let card = Layer()
    card.name = "card"
    card.bounds = Rect(x: 0, y: 0, width: 40, height: 28)
    card.position = Point(x: 30, y: 40)
    card.backgroundColor = Color(white: 240.0 / 255)
    card.cornerRadius = 6
    card.borderWidth = 1
    card.borderColor = Color(white: 32.0 / 255)
    card.shadowOpacity = 0.6
    card.shadowRadius = 3
    card.shadowOffset = Size(width: 0, height: 3)
    card.shadowPathValue = Path(roundedRect: Rect(x: 0, y: 0, width: 40, height: 28), cornerRadius: 6)
    let mask = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 28))
    mask.backgroundColor = .white
    mask.cornerRadius = 10
    card.mask = mask
    card.filters = [Filter(name: "tone", .colorControls(saturation: 1, brightness: 0, contrast: 1))]
    let stage = Layer(frame: Rect(x: 52, y: 8, width: 40, height: 40))
    stage.name = "stage"
    stage.sublayerTransform = .perspective(eyeDistance: 120)
    let flip = Layer(frame: Rect(x: 5, y: 5, width: 30, height: 30))
    flip.name = "flip"
    flip.contents = b
    flip.isDoubleSided = false
    stage.addSublayer(flip)
    let dot = Layer()
    dot.name = "dot"
    dot.bounds = Rect(x: 0, y: 0, width: 8, height: 8)
    dot.position = Point(x: 4, y: 4)
    dot.backgroundColor = Color(red: 1, green: 0.5, blue: 0)
    dot.cornerRadius = 4
    for l in [photo, card, stage, dot] { root.addSublayer(l) }

    let drop = SpringAnimation(keyPath: "position.y")
    drop.fromValue = 10.0
    drop.toValue = 40.0
    drop.stiffness = 150
    drop.damping = 8
    drop.duration = 1.5
    drop.fillMode = .backwards
    drop.beginTime = 0.1
    try card.addChecked(drop, forKey: "drop")
    let scale = BasicAnimation(keyPath: "transform.scale")
    scale.fromValue = 1.0
    scale.toValue = 1.2
    scale.duration = 1
    let tone = BasicAnimation(keyPath: "filters.tone.inputSaturation")
    tone.toValue = 0.0
    tone.duration = 1
    let group = AnimationGroup()
    group.animations = [scale, tone]
    group.beginTime = 0.5
    group.duration = 1
    group.autoreverses = true
    try card.addChecked(group, forKey: "g")
    let f = BasicAnimation(keyPath: "transform")
    f.valueFunction = .rotateY
    f.fromValue = 0.0
    f.toValue = 3.0
    f.duration = 2.5
    f.timingFunction = .easeInEaseOut
    try flip.addChecked(f, forKey: "f")
    let k = KeyframeAnimation(keyPath: "position")
    var path = Path()
    path.move(to: Point(x: 4, y: 4))
    path.addCurve(to: Point(x: 92, y: 60), control1: Point(x: 40, y: 60), control2: Point(x: 60, y: 0))
    k.pathValue = path
    k.calculationMode = .paced
    k.rotationMode = .auto
    k.duration = 2
    k.repeatCount = 2
    try dot.addChecked(k, forKey: "k")
    return (root, ["photo": photo, "card": card, "stage": stage, "flip": flip, "dot": dot])
  }

  /// The new layer the second timeline entry adds, without its animation.
  func makeBadge() -> Layer {
    let badge = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    badge.name = "badge"
    badge.backgroundColor = .red
    return badge
  }

  func badgeAnimation() -> BasicAnimation {
    let fade = BasicAnimation(keyPath: "opacity")
    fade.fromValue = 0.0
    fade.toValue = 1.0
    fade.duration = 0.5
    return fade
  }

  /// The Swift twin, played by hand: the clock advanced to each change, the scene presented
  /// there, the changes made in a transaction, then the frame presented.
  func swiftFrames(a: Image, b: Image) throws -> [Image] {
    let (root, l) = try makeTree(a: a, b: b)
    let scene = Scene(root: root)
    var done = 0
    var frames: [Image] = []
    for t in Self.times {
      if done == 0, t >= 0.9 {
        scene.advance(to: 0.9)
        _ = scene.presentation()
        Transaction.begin()
        Transaction.setAnimationDuration(0.6)
        Transaction.setDisableActions(true)
        l["photo"]!.contents = b
        try l["photo"]!.add(Transition(type: .push, subtype: .fromRight), forKey: nil)
        Transaction.commit()
        done = 1
      }
      if done == 1, t >= 1.4 {
        scene.advance(to: 1.4)
        _ = scene.presentation()
        Transaction.begin()
        Transaction.setAnimationDuration(0.8)
        Transaction.setAnimationTimingFunction(.easeOut)
        l["card"]!.position = Point(x: 60, y: 30)
        l["card"]!.backgroundColor = Color(red: 0x30 / 255.0, green: 0x70 / 255.0, blue: 0xF0 / 255.0)
        let badge = makeBadge()
        l["stage"]!.addSublayer(badge)
        try badge.addChecked(badgeAnimation(), forKey: nil)
        Transaction.commit()
        done = 2
      }
      if done == 2, t >= 2.0 {
        scene.advance(to: 2.0)
        _ = scene.presentation()
        Transaction.begin()
        let dissolve = Transition()
        dissolve.duration = 0.5
        dissolve.filter = EffectTransitionFilter("dissolve")
        try l["photo"]!.add(dissolve, forKey: nil)
        l["photo"]!.contentsRect = Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
        Transaction.commit()
        done = 3
      }
      scene.advance(to: t)
      frames.append(try render(scene.presentation(), settings))
    }
    return frames
  }

  func assertSame(_ expected: [Image], _ actual: [Image], file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(expected.count, actual.count, file: file, line: line)
    for (i, (e, a)) in zip(expected, actual).enumerated() {
      XCTAssertIdentical(a, e, "frame at t = \(Self.times[i]) differs", file: file, line: line)
    }
    // The scene moves: the frames are not all the same.
    XCTAssertTrue(Set(expected.map(\.pixels)).count > expected.count / 2, file: file, line: line)
  }

  func testFileAndSwiftTwinRenderTheSameFrames() throws {
    let (a, b, folder) = try images()
    try Data(Self.file.utf8).write(to: folder.appendingPathComponent("twin.json"))
    let loaded = try SceneFile.load(folder.appendingPathComponent("twin.json"))
    XCTAssertEqual(loaded.settings, settings)
    let fileFrames = try Self.times.map { try render(loaded, at: $0) }
    let swiftFrames = try swiftFrames(a: a, b: b)
    assertSame(swiftFrames, fileFrames)
    // Asked for again, out of order, the file gives the same frames (the player rewinds).
    XCTAssertIdentical(try render(loaded, at: 1.2), fileFrames[4])
    XCTAssertIdentical(try render(loaded, at: 0.3), fileFrames[1])
  }

  func testASwiftTreeWrittenAndReadBackRendersTheSameFrames() throws {
    let (a, b, folder) = try images()
    let (root, _) = try makeTree(a: a, b: b)
    let badge = makeBadge()
    let dissolve = Transition()
    dissolve.duration = 0.5
    dissolve.filter = EffectTransitionFilter("dissolve")
    let timeline = [
      SceneTransaction(
        time: 0.9, duration: 0.6, disableActions: true,
        changes: [
          .set(layer: "photo", [.contents(b)]),
          .addAnimation(layer: "photo", Transition(type: .push, subtype: .fromRight), key: nil),
        ]),
      SceneTransaction(
        time: 1.4, duration: 0.8, timingFunction: .easeOut,
        changes: [
          .set(
            layer: "card",
            [
              .position(Point(x: 60, y: 30)),
              .backgroundColor(Color(red: 0x30 / 255.0, green: 0x70 / 255.0, blue: 0xF0 / 255.0)),
            ]),
          .addSublayer(layer: "stage", .new(badge), index: nil),
          .addAnimation(layer: "badge", badgeAnimation(), key: nil),
        ]),
      SceneTransaction(
        time: 2.0,
        changes: [
          .addAnimation(layer: "photo", dissolve, key: nil),
          .set(layer: "photo", [.contentsRect(Rect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))]),
        ]),
    ]
    let data = try SceneFile.encode(
      root: root, settings: settings,
      media: [SceneMedia(name: "a", path: "a.png", image: a), SceneMedia(name: "b", path: "b.png", image: b)],
      timeline: timeline)
    try data.write(to: folder.appendingPathComponent("written.json"))
    let loaded = try SceneFile.load(folder.appendingPathComponent("written.json"))
    let frames = try Self.times.map { try render(loaded, at: $0) }
    assertSame(try swiftFrames(a: a, b: b), frames)
    // Written again from what was read, the text is the same.
    let again = try SceneFile.encode(
      root: try SceneFile.load(folder.appendingPathComponent("written.json")).root, settings: loaded.settings,
      media: loaded.media, timeline: loaded.timeline)
    XCTAssertEqual(String(decoding: again, as: UTF8.self), String(decoding: data, as: UTF8.self))
  }

  func testAFileWrittenAgainRendersTheSameFrames() throws {
    let (_, _, folder) = try images()
    try Data(Self.file.utf8).write(to: folder.appendingPathComponent("twin.json"))
    let loaded = try SceneFile.load(folder.appendingPathComponent("twin.json"))
    let written = try loaded.encoded()
    try written.write(to: folder.appendingPathComponent("again.json"))
    let again = try SceneFile.load(folder.appendingPathComponent("again.json"))
    for t in Self.times {
      XCTAssertIdentical(try render(again, at: t), try render(loaded, at: t), "t = \(t)")
    }
    XCTAssertEqual(try again.encoded(), written)
    // The badge's animation, waiting for the timeline to add the badge, is written with it.
    XCTAssertTrue(String(decoding: written, as: UTF8.self).contains(#""name": "badge""#))
  }

  func testWrittenValuesReadBackExactly() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    root.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4)
    root.name = "root"
    let l = Layer()
    l.transform = Transform3D(rotationAngle: 0.7, x: 1, y: 2, z: 3).concatenating(.perspective(eyeDistance: 300))
    l.sublayerTransform = Transform3D(translationX: 1.5, y: -2, z: 0.25)
    l.anchorPoint = Point(x: 0.1, y: 1.0 / 3)
    l.timing = MediaTiming(
      beginTime: 0.1, duration: 2, speed: 0.5, timeOffset: 0.3, repeatCount: 1.5,
      repeatDuration: 0, autoreverses: true, fillMode: .forwards)
    l.compositingFilter = .softLight
    l.backgroundFilters = [.colorMatrix(r: [0.5, 0.1, 0, 0], bias: [0, 0, 0.2, 0]), .hueRotation(angle: 0.1)]
    l.actions = ["opacity": NSNull(), "position": BasicAnimation(keyPath: "position")]
    let k = KeyframeAnimation(keyPath: "bounds")
    k.values = [Rect(x: 0, y: 0, width: 1, height: 1), Rect(x: 1, y: 2, width: 3, height: 4)]
    k.keyTimes = [0, 1]
    k.isAdditive = true
    k.repeatCount = .infinity
    try l.addChecked(k, forKey: "k")
    let c = try MediaTimingFunction(checkedControlPoints: 0.3, -0.5, 0.7, 1.5)
    let t = Transition(type: .reveal, subtype: .fromBottom)
    t.timingFunction = c
    t.isRemovedOnCompletion = false
    try l.addChecked(t, forKey: nil)
    root.addSublayer(l)
    let settings = SceneSettings(width: 10, height: 10, fps: 25, duration: 1)
    let data = try SceneFile.encode(root: root, settings: settings)
    let back = try SceneFile.decode(data, folder: repositoryRoot)
    XCTAssertEqual(back.root.name, "root")
    XCTAssertEqual(LayerProperty.all(of: back.root), LayerProperty.all(of: root))
    let m = back.root.sublayers![0]
    XCTAssertEqual(LayerProperty.all(of: m), LayerProperty.all(of: l))
    XCTAssertEqual((m.animationKeys() ?? []), ["k", "transition"])
    let k2 = try XCTUnwrap(m.animation(forKey: "k") as? KeyframeAnimation)
    XCTAssertEqual(k2.values?.compactMap { $0 as? Rect }, k.values?.compactMap { $0 as? Rect })
    XCTAssertEqual(k2.repeatCount, .infinity)
    XCTAssertTrue(k2.isAdditive)
    let t2 = try XCTUnwrap(m.animation(forKey: "transition") as? Transition)
    XCTAssertEqual(t2.timingFunction, c)
    XCTAssertEqual(t2.type, .reveal)
    XCTAssertFalse(t2.isRemovedOnCompletion)
    XCTAssertTrue(m.actions?["opacity"] is NSNull)
    XCTAssertEqual((m.actions?["position"] as? BasicAnimation)?.keyPath, "position")
    let text = String(decoding: data, as: UTF8.self)
    XCTAssertTrue(text.contains(#""compositingFilter": "softLight""#), text)
    XCTAssertTrue(
      text.contains(#"{"translate": [1.5, -2, 0.25]}"#) || text.contains(#""translate": [1.5, -2, 0.25]"#), text)
  }
}
