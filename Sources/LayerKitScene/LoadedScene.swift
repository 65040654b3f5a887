import Foundation
import LayerKit
import LayerKitMedia
import LayerKitText
import LayerKitVideo

/// A scene file, loaded: its settings and media, and a LayerKit `Scene` whose clock moves as
/// frames are asked for. `presentation(at:)` applies the timeline entries due by then, each at
/// its own time against the scene's clock and inside its own `Transaction`, and returns the
/// presentation tree; asking for an earlier time rebuilds the tree from the document and plays
/// the timeline again, so frames can be asked for in any order and the same time always gives
/// the same tree.
///
/// Not thread-safe (transactions are per thread, layers are not shared): use from one thread.
public final class LoadedScene {
  public let settings: SceneSettings
  public let media: [SceneMedia]
  /// The scene being played: its root is the root layer of the file.
  public private(set) var scene: Scene
  /// The timeline, in time order.
  public private(set) var timeline: [SceneTransaction]

  private let document: JSON
  private let reader: SceneReader
  private var layers: LayerDirectory
  /// How many timeline entries have been applied to `scene`.
  private var applied = 0
  private var clips: [String: ClipDecoder] = [:]

  /// The root layer.
  public var root: Layer { scene.root }

  /// The number of frames: `duration × fps`, rounded, at least 1.
  public var frameCount: Int { max(1, Int((settings.duration * settings.fps).rounded())) }

  /// The scene time of frame `index` (frame k shows time k / fps).
  /// - Parameter index: the frame, from 0.
  public func time(ofFrame index: Int) -> Double { Double(index) / settings.fps }

  init(document: JSON, folder: URL) throws(SceneFileError) {
    // Text layers are laid out by the system's font stack.
    FontStack.install()
    let top = SceneNode(document, path: "")
    let o = try top.object("a scene object", keys: SceneFile.documentKeys)
    if let n = o["version"], try n.number() != 1 { throw n.invalid("1 (the only version there is)") }
    if let n = o["$schema"] { _ = try n.string() }
    let widthNode = try o.required("width")
    let heightNode = try o.required("height")
    let width = try widthNode.integer(atLeast: 1)
    let height = try heightNode.integer(atLeast: 1)
    // The largest target a frame can have (RenderList.validateTarget), refused now, by its key.
    for (node, side) in [(widthNode, width), (heightNode, height)] where side > RenderList.maxTargetDimension {
      throw node.invalid("a whole number from 1 to \(RenderList.maxTargetDimension) (pixels)")
    }
    guard width * height <= Image.maxPixelCount else {
      throw heightNode.invalid("at most \(Image.maxPixelCount) pixels in all (width × height), not \(width * height)")
    }
    // The command line's bounds (Limits): a rate, a duration within a day, and at most
    // Limits.maxFrames frames.
    let fps = try o["fps"]?.number(in: Limits.framesPerSecond) ?? 30
    let durationNode = try o.required("duration")
    let duration = try durationNode.number(in: 0...Limits.maxSeconds)
    if case .failure = Limits.frameCount(seconds: duration, fps: fps) {
      let most = Limits.format((Double(Limits.maxFrames) / fps).rounded(.down))
      throw durationNode.invalid("at most \(most) seconds at \(Limits.format(fps)) fps (\(Limits.maxFrames) frames)")
    }
    settings = SceneSettings(
      width: width, height: height, fps: fps, duration: duration,
      background: try o["background"]?.color() ?? .clear)
    media = try o["media"].map { (n) throws(SceneFileError) in try SceneMedia.readAll(n, folder: folder) } ?? []
    self.document = document
    reader = SceneReader(media: SceneMediaTable(media, folder: folder))
    // Played once on a copy, so that a bad change (an unknown layer, a cycle, an animation
    // LayerKit refuses) is an error now rather than in the middle of a render.
    let check = try LoadedScene.build(document, reader: reader, settings: settings)
    for (i, t) in check.timeline.enumerated() { try t.apply(in: check.layers, path: "timeline[\(i)]") }
    (scene, timeline, layers) = try LoadedScene.build(document, reader: reader, settings: settings)
  }

  /// A fresh tree and timeline from the document.
  private static func build(_ document: JSON, reader: SceneReader, settings: SceneSettings) throws(SceneFileError)
    -> (scene: Scene, timeline: [SceneTransaction], layers: LayerDirectory)
  {
    let o = try SceneNode(document, path: "").object(keys: SceneFile.documentKeys)
    let directory = LayerDirectory()
    let root = Layer(frame: Rect(x: 0, y: 0, width: Double(settings.width), height: Double(settings.height)))
    if let n = o["root"] {
      _ = try reader.layer(
        n, into: directory, keys: SceneFile.layerKeys.filter { $0 != "sublayers" && $0 != "kind" }, layer: root)
    }
    if let n = o["layers"] {
      for item in try n.array("an array of layers") { root.addSublayer(try reader.layer(item, into: directory)) }
    }
    // Named as the document names them: the root's own keys under "root", its sublayers "layers".
    try directory.register(root, path: "root", sublayers: "layers")
    let timeline = try o["timeline"].map { (n) throws(SceneFileError) in try reader.timeline(n, into: directory) } ?? []
    // Animations are added once the whole tree is built, layer by layer in document order, as
    // code that builds a tree and then animates it does (a transition's "before" image is the
    // finished subtree).
    try directory.addPendingAnimations(of: root)
    return (Scene(root: root), timeline, directory)
  }

  /// Back to time 0: the tree as the document builds it, no timeline entry applied.
  public func rewind() throws(SceneFileError) {
    (scene, timeline, layers) = try LoadedScene.build(document, reader: reader, settings: settings)
    applied = 0
  }

  /// The presentation tree at scene time `time`, with the timeline applied up to it.
  ///
  /// Each due entry is applied at its own time: the clock advances to it, the scene is presented
  /// there (so every layer counts as shown, and a transition's "before" image is the frame at
  /// that moment), and the entry's changes are made in one transaction. Then the clock advances
  /// to `time` and the scene is presented. Layers showing a clip get the clip's frame.
  /// - Parameter time: scene seconds; earlier than the last time asked for rewinds first.
  /// - Throws: `SceneFileError` for a change that cannot be made or a clip that cannot be read.
  public func presentation(at time: Double) throws(SceneFileError) -> Layer {
    guard time.isFinite else {
      throw .invalidValue(path: "", found: "the time \(time)", expected: "a finite scene time")
    }
    if time < scene.time { try rewind() }
    while applied < timeline.count, timeline[applied].time <= time {
      let entry = timeline[applied]
      scene.advance(to: entry.time)
      _ = scene.presentation()
      try entry.apply(in: layers, path: "timeline[\(applied)]")
      applied += 1
    }
    scene.advance(to: time)
    let tree = scene.presentation()
    try showClips(in: tree, at: time)
    return tree
  }

  /// The RenderList of the frame at `time`: the presentation tree over the background.
  /// - Parameter time: scene seconds.
  public func renderList(at time: Double) throws -> RenderList {
    try RenderList(
      layer: presentation(at: time), width: settings.width, height: settings.height,
      background: settings.background)
  }

  /// The scene as a scene file: the tree and timeline as the document builds them (time 0),
  /// written by `SceneFile.encode`, so a file read and written again says the same thing in the
  /// writer's layout.
  /// - Throws: `SceneFileError` (as `SceneFile.encode`).
  public func encoded() throws(SceneFileError) -> Data {
    let fresh = try LoadedScene.build(document, reader: reader, settings: settings)
    return try SceneFile.encode(
      root: fresh.scene.root, settings: settings, media: media, timeline: fresh.timeline,
      pending: fresh.layers.pendingAnimations)
  }

  // MARK: Clips

  /// Stops the clips' decoders (their ffmpeg processes) and lets go of their frames; a later
  /// frame that shows a clip starts its decoder again. Call when done rendering, from the thread
  /// that asks for frames.
  public func stopClips() {
    for decoder in clips.values { decoder.stop() }
    clips.removeAll()
  }

  /// Replaces each clip's stand-in image in the presented tree with the clip's frame.
  private func showClips(in tree: Layer, at time: Double) throws(SceneFileError) {
    let videos = media.filter { $0.clip != nil }
    guard !videos.isEmpty else { return }
    var frames: [UInt64: Image] = [:]
    for m in videos {
      guard case .video(let start, let loop) = m.kind, let info = m.clip else { continue }
      var t = max(0, time - start)
      if loop, info.duration > 0 { t = t.truncatingRemainder(dividingBy: info.duration) }
      // Past its end a clip holds its last frame: asked for first, a frame beyond the end would
      // start the decoder past the last frame, where ffmpeg decodes nothing.
      t = min(t, Double(info.frameCount - 1) / info.frameRate)
      do {
        let decoder = clips[m.name] ?? ClipDecoder(info, lastFrame: info.frameCount - 1)
        clips[m.name] = decoder
        frames[m.image.id] = try decoder.frame(at: t)
      } catch {
        throw .unreadableMedia(path: "media.\(m.name).video", resolvedPath: info.path, reason: "\(error)")
      }
    }
    func swap(_ image: Image?) -> Image? {
      guard let image else { return nil }
      if let f = frames[image.id] { return f }
      if let (from, to, weight) = image.crossfade {
        let a = from.flatMap { frames[$0.id] } ?? from
        let b = to.flatMap { frames[$0.id] } ?? to
        return Image(crossfading: a, to: b, weight: weight) ?? image
      }
      return image
    }
    func walk(_ l: Layer) {
      l.contents = swap(l.contents)
      if let mask = l.mask { walk(mask) }
      for s in l.sublayers ?? [] { walk(s) }
    }
    walk(tree)
  }
}

extension LoadedScene {
  /// The transition effects the scene runs (built-in effect names, `fade`…`reveal` for Core
  /// Animation types): those of its layers' transition animations, in groups too, and of the
  /// timeline's added animations and layers. What `--renderer auto` decides by.
  public var transitionEffects: Set<String> {
    var found = Set<String>()
    func visit(_ animation: Animation) {
      if let t = animation as? Transition { found.insert(t.filter?.effect ?? t.type.rawValue) }
      if let g = animation as? AnimationGroup { g.animations.forEach(visit) }
    }
    func visit(_ layer: Layer) {
      for key in (layer.animationKeys() ?? []) { layer.animation(forKey: key).map(visit) }
      layer.mask.map(visit)
      layer.sublayers?.forEach(visit)
    }
    visit(root)
    for entry in timeline {
      for change in entry.changes {
        switch change {
        case .addAnimation(_, let animation, _): visit(animation)
        case .addSublayer(_, .new(let layer), _), .setMask(_, .new(let layer)?): visit(layer)
        default: break
        }
      }
    }
    return found
  }
}

extension LoadedScene {
  /// The sounds of the scene's video media: each clip with sound heard from its `start` in scene
  /// time (before that it shows its first frame in silence), for its length or, with `loop`, to
  /// the end, as its pictures play.
  public var sounds: [AudioMix.PlacedSound] {
    media.compactMap { m in
      guard case .video(let start, let loop) = m.kind, let info = m.clip, info.hasAudio else { return nil }
      return AudioMix.PlacedSound(path: info.path, start: start, loop: loop, length: info.duration)
    }
  }
}
