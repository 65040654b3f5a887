import ArgumentParser
import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitVideo
import SwiftCSV

/// `layerkit batch TEMPLATE.json5 DATA.csv -o 'out/{{ID}}.mp4'`: one render of an edit file for
/// each row of a CSV file, the row's cells merged into the edit's `{{ NAME }}` placeholders
/// (the columns' names), a few at once; rows whose video exists are skipped, so a batch that
/// stopped goes on where it was, and `--shard I/N` takes every Nth row (a Slurm array).
struct BatchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "batch",
    abstract: "Render an edit file once for each row of a CSV file, merging the row into its {{ NAME }} placeholders.",
    discussion: """
      TEMPLATE is an edit file (as `layerkit edit` reads) whose strings may hold {{ NAME }} \
      placeholders; DATA's first row names the columns. In each row a placeholder is replaced by \
      its cell; a string that is one placeholder alone takes the cell as a number or true/false \
      where it is written as one (so "duration": "{{ SECONDS }}" reads 2.5). -o names each \
      video with placeholders too. A video that exists already is skipped (its row was rendered: \
      LayerKit writes a video whole or not at all). Rows that fail are named, the others go on; \
      the exit status is 1 when any failed.

      Example:
        layerkit batch card.json5 people.csv -o 'cards/{{ID}}.mp4' --jobs 2
        layerkit batch card.json5 people.csv -o 'cards/{{ID}}.mp4' --shard $SLURM_ARRAY_TASK_ID/8
      """)

  @Argument(help: "The edit file with {{ NAME }} placeholders (.json5 or .json).") var template: String
  @Argument(help: "The rows: a CSV file whose first row names the placeholders.") var data: String
  @Option(name: .shortAndLong, help: "Each video's path, with placeholders: 'out/{{ID}}.mp4'.") var output: String
  @Option(help: "Renders at once (default: 1).") var jobs = 1
  @Option(help: "I/N: render rows I, I + N, I + 2N, … (rows counted from 0), for N machines.") var shard: Shard?
  @Option(help: "auto, gpu or cpu.") var renderer: BackendChoice = .auto
  @Flag(help: "Say nothing but failures.") var quiet = false

  func run() throws {
    try reportingErrors("batch") {
      guard (1...64).contains(jobs) else { throw ValidationError("--jobs \(jobs): 1 to 64") }
      if let shard, shard.count < 1 || !(0..<shard.count).contains(shard.index) {
        throw ValidationError("--shard \(shard.index)/\(shard.count): I/N takes N ≥ 1 and an I from 0 to N − 1")
      }
      guard let text = FileManager.default.contents(atPath: template) else {
        throw ValidationError("\(template): cannot be read (missing, or not a file)")
      }
      let edit: Placeholders.Template
      do {
        edit = try Placeholders.Template(text, file: template)
      } catch {
        throw ParameterError("\(error)")
      }
      let names = edit.names
      let csv: CSV<Enumerated>
      do {
        csv = try CSV<Enumerated>(url: URL(fileURLWithPath: data), delimiter: .comma, loadColumns: false)
      } catch {
        throw ParameterError("\(data): not a CSV file this reads (\(error))")
      }
      let header = csv.header.map { $0.trimmingCharacters(in: .whitespaces) }
      let outputNames = Set(Placeholders.find(output).map(\.name))
      guard !outputNames.isEmpty else {
        throw ValidationError(
          "-o \(output): name each video with a placeholder ('out/{{ID}}.mp4'), or every row writes one file")
      }
      for name in names.union(outputNames).sorted() where !header.contains(name) {
        throw ParameterError("\(data): no column \(name) (its columns: \(header.joined(separator: ", ")))")
      }
      var rows: [(index: Int, values: [String: Placeholders.Value])] = []
      for (k, cells) in csv.rows.enumerated() where shard.map({ k % $0.count == $0.index }) ?? true {
        guard cells.count == header.count else {
          throw ParameterError("\(data): row \(k + 2) has \(cells.count) cells, the header \(header.count)")
        }
        rows.append((k, Dictionary(uniqueKeysWithValues: zip(header, cells.map(Placeholders.Value.init(cell:))))))
      }
      let folder = (template as NSString).deletingLastPathComponent
      let failures = Locked(0)
      let next = Locked(0)
      let (pattern, quiet, command) = (output, quiet, self)
      let rowsToRender = rows
      let work: @Sendable () -> Void = {
        while let k = next.withLock({ n -> Int? in
          guard n < rowsToRender.count else { return nil }
          n += 1
          return n - 1
        }) {
          let row = rowsToRender[k]
          let out = Self.path(pattern, row.values)
          if FileManager.default.fileExists(atPath: out) {
            if !quiet { printError("layerkit batch: row \(row.index + 1): \(out) exists, skipped") }
            continue
          }
          do {
            try command.render(edit, values: row.values, folder: folder.isEmpty ? "." : folder, to: out)
            if !quiet { printError("layerkit batch: row \(row.index + 1): wrote \(out)") }
          } catch {
            failures.withLock { $0 += 1 }
            printError("layerkit batch: row \(row.index + 1): \(Self.message(error))")
          }
        }
      }
      let done = DispatchGroup()
      for _ in 0..<min(jobs, max(rows.count, 1)) {
        done.enter()
        let thread = Thread {
          work()
          done.leave()
        }
        thread.stackSize = 8 << 20
        thread.start()
      }
      done.wait()
      let failed = failures.withLock { $0 }
      if !quiet || failed > 0 {
        printError("layerkit batch: \(rows.count - failed) of \(rows.count) rows rendered or kept, \(failed) failed")
      }
      if failed > 0 { throw ExitCode(1) }
    }
  }

  /// `pattern` with its placeholders replaced by the row's text.
  static func path(_ pattern: String, _ values: [String: Placeholders.Value]) -> String {
    var path = pattern
    for (name, range) in Placeholders.find(pattern).reversed() {
      // A cell never adds a folder to the path, nor leaves the one named.
      let text = values[name]!.text.replacingOccurrences(of: "/", with: "_")
      path.replaceSubrange(range, with: text == ".." ? "_" : text)
    }
    return path
  }

  static func message(_ error: Error) -> String {
    if let error = error as? EditFile.Error { return error.description }
    if let error = error as? Placeholders.Missing {
      return "\(error.path): placeholder {{ \(error.name) }} has no value"
    }
    return commandLineMessage(error)
  }

  /// Renders the template merged with one row into `out`, on this thread.
  private func render(
    _ edit: Placeholders.Template, values: [String: Placeholders.Value], folder: String, to out: String
  ) throws {
    let merged = try edit.merge(values)
    let file = try EditFile.parse(merged, file: template, folder: folder)
    let parent = (out as NSString).deletingLastPathComponent
    if !parent.isEmpty { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) }
    let backends = try VideoJob.makeBackends(renderer, command: "batch", quiet: true)
    let render = try VideoRender(
      editFile: file, output: try OutputTarget(path: out), encoding: EncodingOptions(), backends: backends,
      glTransitions: ProcessInfo.processInfo.environment["LAYERKIT_GL_TRANSITIONS"])
    try render.run()
  }
}
