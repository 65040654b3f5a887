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
      let edit = file.edit
      let pictures = edit.clips.flatMap { clip in
        clip.layers.compactMap { layer -> String? in
          switch layer {
          case .video(let v): v.path
          case .image(let i): i.path
          case .title, .audio, .detachedAudio, .imageOverlay, .colors: nil
          }
        }
      }
      var seen = Set<String>()
      let sources = try job.open(pictures.filter { seen.insert($0).inserted })
      try job.play(edit, sources: sources, printEdit: printEdit)
    }
  }
}
