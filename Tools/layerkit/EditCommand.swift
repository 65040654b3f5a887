import ArgumentParser
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

/// `layerkit edit SPEC.json5`: an edit file — editly's edit spec as its users write it, with
/// LayerKit's own keys beside — rendered through the same pipeline as the video commands.
struct EditCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "edit",
    abstract: "Render an edit file: editly's JSON5 edit spec (clips, layers, transitions, audio tracks).",
    discussion: """
      SPEC is JSON5 or JSON in the shape of editly's edit spec (docs/EDIT_FILES.md). Relative \
      media paths are taken from SPEC's folder; -o overrides its outPath. Every option of \
      `slideshow` that shapes the output is taken too (--renderer, --size, --fps, --crf, --preset, \
      --shard, --stats, --smart, …): the file's own width, height and fps apply unless one is given.

      What LayerKit cannot do (JavaScript layers, editly's banner, URLs) is refused by name and \
      JSON path, never dropped; a misspelt key is named with the nearest known one. gl layers \
      are drawn on the GPU.

      Example:
        layerkit edit show.json5
        layerkit edit show.json5 -o preview.mp4 --renderer cpu --size 640x360
      """)

  @Argument(help: "The edit file (.json5 or .json).") var spec: String
  @Option(name: .shortAndLong, help: "The output (overrides the file's outPath).") var output: String?
  @Flag(help: "Print the edit as LayerKit reads it (JSON) and render nothing.") var printEdit = false
  @Option(
    help: ArgumentHelp(
      "A folder of gl-transitions files (NAME.glsl): a transition name that is no built-in effect is looked up there, case-insensitively, as editly does (default: $LAYERKIT_GL_TRANSITIONS).",
      valueName: "DIR"))
  var glTransitions: String?
  @Option(
    parsing: .unconditional,
    help:
      "Seed of editly's random choices (transitions named random, colours unsaid): a whole number ≥ 0 (the file's seed, else 1)."
  )
  var seed: Seed?
  @Argument(parsing: .allUnrecognized, help: "Video options, as `slideshow` takes them.") var videoOptions: [String] =
    []

  func run() throws {
    try reportingErrors("edit") {
      let file: EditFile
      do {
        try seed?.check()
        file = try EditFile.read(path: spec, seed: seed?.value)
      } catch let error as EditFile.Error {
        throw ParameterError(error.description)
      }
      guard let out = output ?? file.outPath else {
        throw ValidationError("give -o OUT: \(spec) has no outPath")
      }
      // Before anything is read further or written: the output must not be the edit file or
      // anything it names (`-o show.json5` would replace the edit with the video).
      try OutputIdentity.refuse(output: out, inputs: [spec] + file.edit.namedFiles)
      var given = videoOptions
      // editly's fast preview: x264's fastest preset, unless one is given.
      if file.fast, !given.contains("--preset"), out.lowercased().hasSuffix(".mp4") {
        given += ["--preset", "ultrafast"]
      }
      let options: VideoOptions
      do {
        options = try VideoOptions.parse(["-o", out] + given)
      } catch {
        throw ValidationError(VideoOptions.message(for: error))
      }
      var job = try VideoJob(options: options, command: "edit")
      if !options.run.quiet { for note in file.notes { printError("layerkit edit: \(note)") } }
      job.customOutputArguments = file.customOutputArgs
      var edit = file.edit
      if let seed {
        try seed.check()
        edit.seed = seed.value
      }
      edit = try Self.resolvingTransitions(
        edit, in: glTransitions ?? ProcessInfo.processInfo.environment["LAYERKIT_GL_TRANSITIONS"])
      // A GIF, Y4M or PNG frames carry no sound: the edit's is left out, said once (editly
      // writes a silent GIF the same way).
      if !(try OutputTarget(path: out, format: options.encoder.format)).format.carriesSound, edit.hasSound {
        edit = edit.withoutSound
        if !options.run.quiet { printError("layerkit edit: \(out) carries no sound; the edit's sound is left out") }
      }
      let sources = try job.open(edit.picturePaths)
      if options.size == nil || options.fps == nil {
        let gif = (try? OutputTarget(path: out, format: options.encoder.format))?.format == .gif
        Self.applyEditlySize(
          &edit, sources: sources, gif: gif, fast: file.fast, size: options.size == nil, fps: options.fps == nil)
      }
      // editly's defaults where the file says nothing: contain-blur (unless --fit says), images
      // zooming in, titles centred and growing.
      if edit.defaults?.layer?.resizeMode == nil, !given.contains("--fit") {
        var defaults = edit.defaults ?? Edit.Defaults()
        var layer = defaults.layer ?? Edit.LayerDefaults()
        layer.resizeMode = Fit.containBlur.rawValue
        defaults.layer = layer
        edit.defaults = defaults
      }
      let frame = options.size.map { ($0.width, $0.height) } ?? (edit.width ?? 640, edit.height ?? 640)
      edit = edit.withEditlyDefaults(width: frame.0, height: frame.1)
      try job.play(edit, sources: sources, printEdit: printEdit, editly: true)
    }
  }

  /// editly's frame size and rate where the file gives none (and the command line neither): the
  /// width asked for (320 for a GIF) with the first video's aspect, else the first video's size,
  /// else square (640 a side); `fast` scales that to about 250 pixels a side. The rate: 15 for
  /// `fast`, 10 for a GIF, the first video's, else 25.
  static func applyEditlySize(_ edit: inout Edit, sources: [MediaSource], gif: Bool, fast: Bool, size: Bool, fps: Bool)
  {
    let firstVideo = edit.clips.lazy.flatMap(\.layers).compactMap { layer -> ClipInfo? in
      guard case .video(let v) = layer else { return nil }
      for case .clip(let info) in sources where info.path == v.path { return info }
      return nil
    }.first
    func even(_ x: Double) -> Int { gif ? Int(x.rounded()) : max(2, Int((x / 2).rounded()) * 2) }
    if size {
      var (w, h): (Int, Int)
      let desired = edit.width ?? (gif ? 320 : nil)
      if let v = firstVideo {
        (w, h) = desired.map { ($0, even(Double(v.height) / Double(v.width) * Double($0))) } ?? (v.width, v.height)
      } else {
        (w, h) = (desired ?? 640, desired ?? 640)
      }
      if let ew = edit.width, let eh = edit.height { (w, h) = (ew, eh) }
      if fast {
        let aspect = Double(w) / Double(h)
        (w, h) = (even(250 * aspect.squareRoot()), even(250 / aspect.squareRoot()))
      }
      (edit.width, edit.height) = (w, h)
    }
    if fps {
      if fast {
        edit.fps = 15
      } else if edit.fps == nil {
        edit.fps = gif ? 10 : firstVideo.map(\.frameRate) ?? 25
      }
    }
  }

  /// gl-transitions names LayerKit's own effects stand in for, where no file of the name is
  /// given: the same motion under another name (gl-transitions' `directional`, whose `direction`
  /// is push's, in the same texture coordinates).
  static let standIns: [String: String] = ["directional": "push:direction=0,1"]

  /// The edit with every transition name that is neither a built-in effect nor a path replaced by
  /// the gl-transitions file of that name in `dir` (case-insensitive), where there is one, else
  /// by LayerKit's stand-in (`standIns`); a `params` direction is kept for the stand-in.
  static func resolvingTransitions(_ edit: Edit, in dir: String?) throws -> Edit {
    var files: [String: String] = [:]
    if let dir {
      var isDir: ObjCBool = false
      guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
        throw ValidationError("--gl-transitions \(dir): not a folder")
      }
      for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasSuffix(".glsl") {
        files[String(name.dropLast(5)).lowercased()] = (dir as NSString).appendingPathComponent(name)
      }
    }
    let builtIn = Set(TransitionEffects.all.keys.map { $0.lowercased() }).union(["none", "random"])
    // Names that are neither: refused after all are read, the first named.
    var unknown = Set<String>()
    func resolved(_ t: Edit.Transition?) -> Edit.Transition? {
      guard var t, let name = t.name else { return t }
      let head = String(name.split(separator: ":", maxSplits: 1).first ?? "")
      guard !builtIn.contains(head.lowercased()), !head.hasSuffix(".glsl") else { return t }
      if let file = files[head.lowercased()] {
        t.name = file + name.dropFirst(head.count)
      } else if let standIn = standIns[head.lowercased()] {
        // The stand-in's own default direction unless params give one.
        t.name = t.params?["direction"] != nil ? String(standIn.prefix { $0 != ":" }) : standIn
      } else if head.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }), !head.isEmpty {
        unknown.insert(head)
      }
      return t
    }
    var edit = edit
    let fallback = resolved(edit.defaults?.transition)
    edit.defaults?.transition = fallback
    for i in edit.clips.indices {
      if case .given(let t) = edit.clips[i].transition, let r = resolved(t) { edit.clips[i].transition = .given(r) }
    }
    if let name = unknown.sorted().first {
      throw ParameterError(
        "transition \(name): neither a LayerKit effect (layerkit list) nor a gl-transitions file "
          + (dir.map { "in \($0)" }
            ?? "given: point --gl-transitions DIR (or $LAYERKIT_GL_TRANSITIONS) at a folder holding \(name).glsl"))
    }
    return edit
  }
}

extension Edit {
  /// Whether the edit has any sound: tracks, sound layers, or the clips' own.
  var hasSound: Bool {
    !(audioTracks ?? []).isEmpty || keepSourceAudio == true
      || clips.contains { $0.layers.contains(where: \.isSound) }
  }

  /// The edit without its sound.
  var withoutSound: Edit {
    var edit = self
    edit.audioTracks = nil
    edit.keepSourceAudio = false
    edit.ducking = nil
    edit.loudness = nil
    edit.audioNorm = nil
    for i in edit.clips.indices {
      edit.clips[i].layers.removeAll(where: \.isSound)
    }
    return edit
  }
}
