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

      A key or layer type LayerKit does not render is refused by name and JSON path, never \
      dropped; a misspelt key is named with the nearest known one.

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
  @Argument(parsing: .allUnrecognized, help: "Video options, as `slideshow` takes them.") var videoOptions: [String] =
    []

  func run() throws {
    try reportingErrors("edit") {
      let file: EditFile
      do {
        file = try EditFile.read(path: spec)
      } catch let error as EditFile.Error {
        throw ParameterError(error.description)
      }
      guard let out = output ?? file.outPath else {
        throw ValidationError("give -o OUT: \(spec) has no outPath")
      }
      let options = try VideoOptions.parse(["-o", out] + videoOptions)
      let job = try VideoJob(options: options, command: "edit")
      var edit = file.edit
      if let dir = glTransitions ?? ProcessInfo.processInfo.environment["LAYERKIT_GL_TRANSITIONS"] {
        edit = try Self.resolvingTransitions(edit, in: dir)
      }
      // A GIF, Y4M or PNG frames carry no sound: the edit's is left out, said once (editly
      // writes a silent GIF the same way).
      if !(try OutputTarget(path: out, format: options.encoder.format)).format.carriesSound, edit.hasSound {
        edit = edit.withoutSound
        if !options.run.quiet { printError("layerkit edit: \(out) carries no sound; the edit's sound is left out") }
      }
      let sources = try job.open(edit.picturePaths)
      try job.play(edit, sources: sources, printEdit: printEdit, editly: true)
    }
  }

  /// The edit with every transition name that is neither a built-in effect nor a path replaced by
  /// the gl-transitions file of that name in `dir` (case-insensitive), where there is one.
  static func resolvingTransitions(_ edit: Edit, in dir: String) throws -> Edit {
    var isDir: ObjCBool = false
    guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
      throw ValidationError("--gl-transitions \(dir): not a folder")
    }
    var files: [String: String] = [:]
    for name in (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [] where name.hasSuffix(".glsl") {
      files[String(name.dropLast(5)).lowercased()] = (dir as NSString).appendingPathComponent(name)
    }
    let builtIn = Set(TransitionEffects.all.keys.map { $0.lowercased() }).union(["none", "random"])
    func resolved(_ t: Edit.Transition?) -> Edit.Transition? {
      guard var t, let name = t.name else { return t }
      let head = String(name.split(separator: ":", maxSplits: 1).first ?? "")
      guard !builtIn.contains(head.lowercased()), !head.hasSuffix(".glsl"), let file = files[head.lowercased()] else {
        return t
      }
      t.name = file + name.dropFirst(head.count)
      return t
    }
    var edit = edit
    let fallback = resolved(edit.defaults?.transition)
    edit.defaults?.transition = fallback
    for i in edit.clips.indices {
      if case .given(let t) = edit.clips[i].transition, let r = resolved(t) { edit.clips[i].transition = .given(r) }
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
