import Foundation
import LayerKit

/// The keys an edit file may hold, checked one by one, and editly's forms turned into the
/// `Edit`'s: `outPath`, `audioFilePath` and `loopAudio` (a looped track), `outputVolume` in dB,
/// `defaults.layer` and `defaults.layerType` merged into the layers, editly's transition names.
extension EditFile {
  /// editly's keys that change nothing in the video (its logging and temporary files), and
  /// `$schema` (an editor's pointer to Schemas/edit.schema.json).
  static let quietKeys: Set<String> = ["enableFfmpegLog", "verbose", "logTimes", "keepTmp", "$schema"]
  /// Layer types that are JavaScript or editly's own advertisement: never.
  static let neverLayers: [String: String] = [
    "canvas": "a canvas layer is a JavaScript function, which LayerKit does not run",
    "fabric": "a fabric layer is a JavaScript function, which LayerKit does not run",
  ]

  static let topKeys: Set<String> = [
    "width", "height", "fps", "defaults", "clips", "audioTracks", "keepSourceAudio", "clipsAudioVolume",
    "outputVolume", "outPath", "audioFilePath", "loopAudio", "backgroundAudioVolume", "allowRemoteRequests",
    "overlays", "subtitles", "ducking", "loudness", "audioNorm", "seed", "fast", "customOutputArgs",
  ]
  static let layerKeys: [String: Set<String>] = [
    "video": [
      "type", "path", "cutFrom", "cutTo", "resizeMode", "mixVolume", "speed", "loop", "zoomDirection", "zoomAmount",
      "panDirection", "start", "stop", "width", "height", "left", "top", "originX", "originY",
    ],
    "image": [
      "type", "path", "resizeMode", "zoomDirection", "zoomAmount", "panDirection", "start", "stop", "width", "height",
      "left", "top", "originX", "originY",
    ],
    "title": [
      "type", "text", "position", "textColor", "fontPath", "fontFamily", "fontSize", "box", "fade", "start", "stop",
      "zoomDirection", "zoomAmount",
    ],
    "subtitle": [
      "type", "text", "textColor", "backgroundColor", "fontPath", "fontFamily", "fontSize", "position", "start", "stop",
    ],
    "news-title": [
      "type", "text", "textColor", "backgroundColor", "fontPath", "fontFamily", "fontSize", "position", "start", "stop",
    ],
    "slide-in-text": [
      "type", "text", "color", "textColor", "fontPath", "fontFamily", "fontSize", "charSpacing", "position", "start",
      "stop",
    ],
    "audio": ["type", "path", "cutFrom", "cutTo", "mixVolume"],
    "detached-audio": ["type", "path", "cutFrom", "cutTo", "mixVolume", "start"],
    "image-overlay": ["type", "path", "position", "width", "height", "zoomDirection", "zoomAmount", "start", "stop"],
    "fill-color": ["type", "color", "start", "stop"],
    "pause": ["type", "color", "start", "stop"],
    "linear-gradient": ["type", "colors", "start", "stop"],
    "radial-gradient": ["type", "colors", "start", "stop"],
    "rainbow-colors": ["type", "start", "stop"],
    "gl": ["type", "fragmentPath", "vertexPath", "speed", "start", "stop"],
  ]
  static let transitionKeys: Set<String> = ["name", "duration", "easing", "audioInCurve", "audioOutCurve", "params"]
  static let trackKeys: Set<String> = [
    "path", "mixVolume", "cutFrom", "cutTo", "start", "loop", "fadeIn", "fadeOut", "voice",
  ]
  static let overlayKeys: Set<String> = [
    "path", "cutFrom", "position", "width", "height", "resizeMode", "margin", "opacity", "start", "stop",
  ]
  static let subtitleKeys: Set<String> = ["path", "fontFamily", "fontSize", "textColor", "box"]
  static let duckingKeys: Set<String> = ["amount", "attack", "release"]

  /// editly's transition names that are not LayerKit SPECs, as LayerKit plays them.
  static let transitionNames: [String: String] = [
    "directional-left": "push:fromRight", "directional-right": "push:fromLeft",
    "directional-up": "push:fromBottom", "directional-down": "push:fromTop", "dummy": "cut",
  ]

  /// Whether ffmpeg could read a path's first segment as a protocol with options
  /// (`subfile,,start,…`): letters, digits, `+`, `-` or `.` before a comma.
  static func protocolPrefixed(_ segment: Substring) -> Bool {
    guard let comma = segment.firstIndex(of: ","), comma > segment.startIndex else { return false }
    return segment[..<comma].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
  }

  /// The path with every link resolved (realpath), or nil where it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// Why a transition name is refused where paths are confined, or nil: a name of the
  /// catalogue or of a gl-transitions folder (letters, digits, `_`, `-`), then subtypes and
  /// `NAME=VALUE` parameters whose values are numbers or words — no shader file, no path, no
  /// `@FILE` image.
  static func confinedTransitionProblem(_ name: String) -> String? {
    func word(_ s: Substring) -> Bool {
      !s.isEmpty && s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
    }
    let parts = name.split(separator: ":", omittingEmptySubsequences: false)
    guard word(parts[0]) else {
      return "a shader file or a path; name a transition of the catalogue or of the server's gl-transitions"
    }
    for part in parts.dropFirst() {
      let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let valueIsPlain =
        pieces.count == 1
        || pieces[1].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || " .,+-_()".contains($0)) }
      guard word(pieces[0]), valueIsPlain else {
        return "'\(part)' is neither a subtype nor NAME=VALUE with a number; a file (@FILE) goes in params"
      }
    }
    return nil
  }

  struct Reader {
    let file: String
    let folder: String
    /// The command line's seed, over the file's `seed` (read first): editly's random choices
    /// made while reading.
    var seed: UInt64?
    /// Whether every path must lie inside `folder` (a render server's media folder).
    var confined = false
    /// editly's `fast` and `customOutputArgs`, taken out of the tree (they shape the output, not
    /// the edit).
    var fast = false
    var customOutputArgs: [String] = []
    var notes: [String] = []

    func fail(_ path: String, _ message: String) -> EditFile.Error {
      EditFile.Error(file: file, path: path, message: message)
    }

    /// Checks an object's keys: known ones pass, editly's quiet ones are dropped, the rest are
    /// refused as unknown, with the nearest known key.
    func check(
      _ object: [String: Tree], at path: String, known: Set<String>,
      quiet: Set<String> = []
    ) throws(EditFile.Error) -> [String: Tree] {
      var kept: [String: Tree] = [:]
      for key in object.keys.sorted() {
        let value = object[key]!
        let at = path.isEmpty ? key : "\(path).\(key)"
        if known.contains(key) {
          kept[key] = value
        } else if quiet.contains(key) {
          continue
        } else {
          let near = Spelling.nearest(to: key, among: known.union(quiet))
          throw fail(at, "unknown key" + (near.map { " (did you mean \"\($0)\"?)" } ?? ""))
        }
      }
      return kept
    }

    func object(_ tree: Tree?, at path: String) throws(EditFile.Error) -> [String: Tree] {
      guard case .object(let o)? = tree else {
        throw fail(path, "found \(tree?.kind ?? "nothing"), expected an object")
      }
      return o
    }

    func array(_ tree: Tree?, at path: String) throws(EditFile.Error) -> [Tree] {
      guard case .array(let a)? = tree else { throw fail(path, "found \(tree?.kind ?? "nothing"), expected an array") }
      return a
    }

    /// A path as written (at `path` in the file), taken from the file's folder when relative:
    /// every path-like value of an edit — media, sound, subtitles, overlays, fonts, shader files,
    /// a transition's shader file and images, `outPath` — goes through here.
    /// - Throws: where the reader is `confined`, what `confine` refuses.
    func resolved(_ tree: Tree?, at path: String) throws(EditFile.Error) -> Tree? {
      guard case .string(let p)? = tree, !p.isEmpty else { return tree }
      return .string(try resolved(p, at: path))
    }

    /// `p` taken from the file's folder when relative; where the reader is `confined`, refused
    /// unless `confine` lets it through.
    func resolved(_ p: String, at path: String) throws(EditFile.Error) -> String {
      if confined { try confine(p, at: path) }
      guard !p.hasPrefix("/") else { return p }
      return folder == "." ? p : (folder as NSString).appendingPathComponent(p)
    }

    /// Refuses `p` unless it is a relative path of plain segments naming a file inside
    /// `folder`, links followed. The answer depends on the text and on the folder's own links,
    /// never on whether a file outside exists.
    ///
    /// Plain segments: none empty, `.` or `..`, no control character, and a first segment that
    /// ffmpeg cannot read as a protocol or a URL (no `:`; not `word,` as `subfile,` is written).
    func confine(_ p: String, at path: String) throws(EditFile.Error) {
      if p.hasPrefix("/") || p.hasPrefix("~") { throw fail(path, "an absolute path; name a file in the media folder") }
      let segments = p.split(separator: "/", omittingEmptySubsequences: false)
      if let first = segments.first, first.contains(":") || EditFile.protocolPrefixed(first) {
        throw fail(path, "a URL or a protocol; name a file in the media folder")
      }
      if segments.contains("..") { throw fail(path, "leads out of the media folder (..)") }
      if p.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
        throw fail(path, "holds a control character; name a file in the media folder")
      }
      if segments.contains(where: { $0.isEmpty || $0 == "." }) {
        throw fail(path, "an empty or . step; name a file in the media folder as a/b.ext")
      }
      // Each step that exists resolved (realpath) and held inside the folder; the first that
      // does not exist ends the walk: nothing below it exists either.
      guard let root = EditFile.realPath(folder) else { throw fail(path, "the media folder cannot be read") }
      var current = root
      for segment in segments {
        let next = current == "/" ? "/" + segment : current + "/" + segment
        var info = stat()
        guard lstat(next, &info) == 0 else { break }
        guard let real = EditFile.realPath(next) else { throw fail(path, "a link to no file in the media folder") }
        guard real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
          throw fail(path, "a link that leads out of the media folder")
        }
        current = real
      }
    }

    /// The whole file: the tree the `Edit` decodes, and `outPath`.
    mutating func edit(_ tree: Tree) throws(EditFile.Error) -> (Tree, String?) {
      var top = try check(
        try object(tree, at: ""), at: "", known: EditFile.topKeys, quiet: EditFile.quietKeys)
      if seed == nil, case .number(let n)? = top["seed"], n >= 0, n < 1.8e19, n == n.rounded() { seed = UInt64(n) }
      if case .bool(true)? = top["allowRemoteRequests"] {
        throw fail("allowRemoteRequests", "media are read from files; LayerKit does not fetch URLs")
      }
      top["allowRemoteRequests"] = nil
      if let f = top.removeValue(forKey: "fast") {
        guard case .bool(let b) = f else { throw fail("fast", "found \(f.kind), expected true or false") }
        fast = b
      }
      if let a = top.removeValue(forKey: "customOutputArgs") {
        let items = try array(a, at: "customOutputArgs")
        for (i, item) in items.enumerated() {
          guard case .string(let s) = item else {
            throw fail("customOutputArgs[\(i)]", "found \(item.kind), expected a string")
          }
          customOutputArgs.append(s)
        }
        do {
          try OutputArguments.check(customOutputArgs)
        } catch {
          throw fail("customOutputArgs[\(error.index)]", error.message)
        }
      }
      var outPath: String?
      if let out = top.removeValue(forKey: "outPath") {
        guard case .string(let s) = try resolved(out, at: "outPath")! else {
          throw fail("outPath", "found \(out.kind), expected a string")
        }
        outPath = s
      }
      // Layer defaults: for every layer (defaults.layer), and by type (defaults.layerType).
      var layerDefaults: [String: Tree] = [:]
      var typeDefaults: [String: [String: Tree]] = [:]
      if let d = top["defaults"] {
        var defaults = try check(
          try object(d, at: "defaults"), at: "defaults", known: ["duration", "transition", "layer", "layerType"])
        if let layer = defaults.removeValue(forKey: "layer") {
          layerDefaults = try object(layer, at: "defaults.layer")
        }
        if let types = defaults.removeValue(forKey: "layerType") {
          for (written, value) in try object(types, at: "defaults.layerType") {
            // A title-background's keys are its title's.
            let type = written == "title-background" ? "title" : written
            guard EditFile.layerKeys[type] != nil else {
              throw fail("defaults.layerType.\(written)", try layerTypeProblem(written))
            }
            typeDefaults[type, default: [:]].merge(try object(value, at: "defaults.layerType.\(written)")) { $1 }
          }
        }
        if let t = defaults["transition"], t != .null {
          defaults["transition"] = try transition(t, at: "defaults.transition")
        }
        // What the Edit keeps of the layer defaults: resizeMode and fontPath for every layer.
        var kept: [String: Tree] = [:]
        for key in ["resizeMode", "fontPath"] where layerDefaults[key] != nil {
          kept[key] =
            key == "fontPath" ? try resolved(layerDefaults[key], at: "defaults.layer.fontPath") : layerDefaults[key]
        }
        if !kept.isEmpty { defaults["layer"] = .object(kept) }
        top["defaults"] = .object(defaults)
      }
      // editly's global default transition: half a second of a random effect (a file's
      // defaults.transition is merged over it; null is none).
      var defaults: [String: Tree] = [:]
      if case .object(let o)? = top["defaults"] { defaults = o }
      switch defaults["transition"] {
      case nil: defaults["transition"] = Tree.object(["name": Tree.string("random"), "duration": Tree.number(0.5)])
      case .object(var t)?:
        if t["name"] == nil { t["name"] = Tree.string("random") }
        defaults["transition"] = Tree.object(t)
      default: break
      }
      top["defaults"] = Tree.object(defaults)
      guard let clipsTree = top["clips"] else { throw fail("clips", "the key clips is missing") }
      var clips: [Tree] = []
      for (i, c) in try array(clipsTree, at: "clips").enumerated() {
        clips.append(try clip(c, at: "clips[\(i)]", layerDefaults: layerDefaults, typeDefaults: typeDefaults))
      }
      top["clips"] = .array(clips)
      // audioFilePath (and loopAudio): a track under the whole video.
      var tracks: [Tree] = []
      if let t = top["audioTracks"] {
        for (i, track) in try array(t, at: "audioTracks").enumerated() {
          var o = try check(
            try object(track, at: "audioTracks[\(i)]"), at: "audioTracks[\(i)]", known: EditFile.trackKeys)
          o["path"] = try resolved(o["path"], at: "audioTracks[\(i)].path")
          tracks.append(.object(o))
        }
      }
      let background = top.removeValue(forKey: "backgroundAudioVolume")
      if let music = top.removeValue(forKey: "audioFilePath") {
        var track: [String: Tree] = ["path": try resolved(music, at: "audioFilePath")!]
        if case .bool(true)? = top["loopAudio"] { track["loop"] = .bool(true) }
        // editly's backgroundAudioVolume: the music's weight in the mix (a number or decibels).
        switch background {
        case .number(let n)?: track["mixVolume"] = .number(n)
        case .string(let text)?: track["mixVolume"] = .number(try decibels(text, at: "backgroundAudioVolume"))
        case nil: break
        case let other?: throw fail("backgroundAudioVolume", "found \(other.kind), expected a number or decibels")
        }
        tracks.insert(.object(track), at: 0)
      }
      top["loopAudio"] = nil
      if !tracks.isEmpty { top["audioTracks"] = .array(tracks) }
      if case .string(let text)? = top["outputVolume"] {
        top["outputVolume"] = .number(try decibels(text, at: "outputVolume"))
      }
      if let o = top["overlays"] {
        var overlays: [Tree] = []
        for (i, overlay) in try array(o, at: "overlays").enumerated() {
          var v = try check(
            try object(overlay, at: "overlays[\(i)]"), at: "overlays[\(i)]", known: EditFile.overlayKeys)
          v["path"] = try resolved(v["path"], at: "overlays[\(i)].path")
          overlays.append(.object(v))
        }
        top["overlays"] = .array(overlays)
      }
      if let s = top["subtitles"] {
        var v = try check(try object(s, at: "subtitles"), at: "subtitles", known: EditFile.subtitleKeys)
        v["path"] = try resolved(v["path"], at: "subtitles.path")
        v["fontFamily"] = try fontFamily(v["fontFamily"], at: "subtitles.fontFamily")
        top["subtitles"] = .object(v)
      }
      if let n = top["audioNorm"] {
        top["audioNorm"] = .object(
          try check(try object(n, at: "audioNorm"), at: "audioNorm", known: ["enable", "gaussSize", "maxGain"]))
      }
      if let d = top["ducking"] {
        top["ducking"] = .object(try check(try object(d, at: "ducking"), at: "ducking", known: EditFile.duckingKeys))
      }
      return (.object(top), outPath)
    }

    mutating func clip(
      _ tree: Tree, at path: String, layerDefaults: [String: Tree], typeDefaults: [String: [String: Tree]]
    ) throws(EditFile.Error) -> Tree {
      var clip = try check(try object(tree, at: path), at: path, known: ["duration", "transition", "layers"])
      if let t = clip["transition"], t != .null { clip["transition"] = try transition(t, at: "\(path).transition") }
      var layers: [Tree] = []
      // editly takes one layer as well as an array of them.
      let written: [Tree]
      if case .object? = clip["layers"] {
        written = [clip["layers"]!]
      } else {
        written = try array(clip["layers"], at: "\(path).layers")
      }
      // editly's title-background: a title over a background picture (colours), two layers here.
      var expanded: [(Int, Tree)] = []
      for (j, l) in written.enumerated() {
        let at = "\(path).layers[\(j)]"
        guard case .object(var o) = l, case .string("title-background")? = o["type"] else {
          expanded.append((j, l))
          continue
        }
        // Unsaid, editly draws the background's kind at random: here by the seed and the place.
        var random = SeededRandom(seed: (seed ?? 1) ^ Edit.placeKey(at))
        let kinds = ["radial-gradient", "linear-gradient", "fill-color"]
        var background: [String: Tree] = ["type": .string(kinds[random.int(kinds.count)])]
        if let b = o.removeValue(forKey: "background") { background = try object(b, at: "\(at).background") }
        // editly's own examples also write `color` for a fill.
        if case .string("color")? = background["type"] { background["type"] = .string("fill-color") }
        guard case .string(let kind)? = background["type"],
          ["fill-color", "linear-gradient", "radial-gradient"].contains(kind)
        else { throw fail("\(at).background.type", "fill-color, linear-gradient or radial-gradient") }
        o["type"] = .string("title")
        expanded.append((j, .object(background)))
        expanded.append((j, .object(o)))
      }
      for (j, l) in expanded {
        let at = "\(path).layers[\(j)]"
        let given = try object(l, at: at)
        guard case .string(let type)? = given["type"] else { throw fail("\(at).type", "expected a layer type") }
        // editly's own advertisement: left out, said once.
        if type == "editly-banner" {
          notes.append("\(at): editly's banner (editly's own advertisement) is left out")
          continue
        }
        guard let known = EditFile.layerKeys[type] else { throw fail("\(at).type", try layerTypeProblem(type)) }
        // Defaults first (for every layer, then by type), the layer's own keys over them; only
        // the keys this type takes are inherited.
        var merged: [String: Tree] = [:]
        for (k, v) in layerDefaults where known.contains(k) { merged[k] = v }
        for (k, v) in typeDefaults[type] ?? [:] { merged[k] = v }
        for (k, v) in given { merged[k] = v }
        // A layer's duration (editly's older form, in its own examples): shown that long from
        // its start.
        if known.contains("stop"), let d = merged["duration"] {
          guard case .number(let seconds) = d else { throw fail("\(at).duration", "found \(d.kind), expected seconds") }
          var start = 0.0
          if case .number(let s)? = merged["start"] { start = s }
          merged["duration"] = nil
          merged["stop"] = merged["stop"] ?? .number(start + seconds)
        }
        // editly's `zoomDirection: null` is no zoom (unsaid, an image or a title zooms in).
        if merged["zoomDirection"] == .null { merged["zoomDirection"] = .string("none") }
        var layer = try check(merged, at: at, known: known)
        for key in ["path", "fontPath", "fragmentPath", "vertexPath"] where layer[key] != nil {
          layer[key] = try resolved(layer[key], at: "\(at).\(key)")
        }
        layer["fontFamily"] = try fontFamily(layer["fontFamily"], at: "\(at).fontFamily")
        layers.append(.object(layer))
      }
      clip["layers"] = .array(layers)
      return .object(clip)
    }

    /// A `fontFamily` that is the path of a font file (`TextLayer.namesFontFile`) is a path,
    /// resolved as one; a family's name is kept as written.
    func fontFamily(_ tree: Tree?, at path: String) throws(EditFile.Error) -> Tree? {
      guard case .string(let name)? = tree, TextLayer.namesFontFile(name) else { return tree }
      return try resolved(tree, at: path)
    }

    func transition(_ tree: Tree, at path: String) throws(EditFile.Error) -> Tree {
      var t = try check(
        try object(tree, at: path), at: path, known: EditFile.transitionKeys)
      if case .string(let name)? = t["name"] {
        let lower = name.lowercased()
        if let mapped = EditFile.transitionNames[lower] {
          t["name"] = .string(mapped)
        } else if confined {
          // A server's transitions are the catalogue's and its gl-transitions folder's, by name.
          if let problem = EditFile.confinedTransitionProblem(name) { throw fail(path + ".name", problem) }
        } else {
          // A shader file's path, taken from the file's folder as every other path is.
          let head = String(name.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0])
          if TransitionSpec(effect: head).isFile {
            t["name"] = .string(try resolved(head, at: path + ".name") + name.dropFirst(head.count))
          }
        }
      }
      // A texture a shader's parameter names (`@FILE`, a gl-transitions sampler2D) is a path.
      if case .object(var params)? = t["params"] {
        for (key, value) in params {
          guard case .string(let text) = value, case .image(let file) = Edit.Transition.Param(text: text) else {
            continue
          }
          guard !file.isEmpty else { throw fail("\(path).params.\(key)", "@ names no image file") }
          params[key] = .string("@" + (try resolved(file, at: "\(path).params.\(key)")))
        }
        t["params"] = .object(params)
      }
      return .object(t)
    }

    func layerTypeProblem(_ type: String) throws(EditFile.Error) -> String {
      if let never = EditFile.neverLayers[type] { return never }
      let all = Set(EditFile.layerKeys.keys).union(EditFile.neverLayers.keys)
      return "unknown layer type \"\(type)\""
        + (Spelling.nearest(to: type, among: all).map { " (did you mean \"\($0)\"?)" } ?? "")
    }

    /// `-6dB`, `3 dB`, or a plain gain written as a string.
    func decibels(_ text: String, at path: String) throws(EditFile.Error) -> Double {
      let t = text.trimmingCharacters(in: .whitespaces).lowercased()
      if t.hasSuffix("db"), let db = Double(t.dropLast(2).trimmingCharacters(in: .whitespaces)) {
        return pow(10, db / 20)
      }
      if let gain = Double(t) { return gain }
      throw fail(path, "found \"\(text)\", expected a gain (1.5) or decibels (\"-6dB\")")
    }
  }
}
