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
      var file: EditFile
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
      let options: VideoOptions
      do {
        options = try VideoOptions.parse(["-o", out] + videoOptions)
      } catch {
        throw ValidationError(VideoOptions.message(for: error))
      }
      let job = try VideoJob(options: options, command: "edit")
      if let seed {
        try seed.check()
        file.edit.seed = seed.value
      }
      var settings = job.settings(editly: true)
      if !videoOptions.contains("--fit") { settings.fit = nil }
      let (target, encoding) = try job.output()
      let prepared = try VideoRender.prepare(
        file, output: target, settings: settings,
        glTransitions: glTransitions ?? ProcessInfo.processInfo.environment["LAYERKIT_GL_TRANSITIONS"])
      if !options.run.quiet { for note in prepared.notes { printError("layerkit edit: \(note)") } }
      try job.play(
        prepared.edit, sources: Array(prepared.sources.values), printEdit: printEdit, editly: true,
        encoding: file.encoding(encoding, into: target))
    }
  }
}
