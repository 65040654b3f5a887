import Foundation
import LayerKit
import XCTest

/// Every command in the `sh` blocks of the README and the reference pages its sections moved to
/// (`pages`), run as printed (issue 35): in a folder of small
/// stand-in media with the names the README uses, through the shell (so `*.jpg` and `> edit.json`
/// work as they do for a reader), `swift run -c release layerkit` standing for the built
/// `layerkit`, one after another (`edit edit.json` reads what `--print-edit` wrote; `join`
/// joins the parts the shards wrote). A command this test cannot run here is listed with what it
/// needs; a README command that is neither run nor listed fails the test.
final class ReadmeCommandsTests: XCTestCase {
  var h: ToolHarness!

  override func setUpWithError() throws { h = try ToolHarness.make("readme-commands") }
  override func tearDownWithError() throws { h.cleanUp() }

  /// Commands that need more than this test has, by how they start, with what they need.
  static let elsewhere: [(prefix: String, needs: String)] = [
    ("bash Tools/setup.sh", "a fresh machine and a release build: the README's two commands, run by CI itself"),
    ("swift build", "a build of its own (sanitizers; the benchmark's release build and minutes)"),
    ("swift test", "a build of its own (sanitizers)"),
    ("ASAN_OPTIONS", "the address-sanitizer build"),
    ("SHARDS=", "a Slurm cluster (deploy/slurm, DeployTests)"),
    ("deploy/slurm", "a Slurm cluster (deploy/slurm, DeployTests)"),
    ("kubectl", "a Kubernetes cluster (deploy/kubernetes, DeployTests)"),
  ]

  /// Commands run up to their fifth frame (`--frames 0..4` added), by a part of them.
  static let firstFramesOnly = ["--fps 60 --size 1920x1080", "render examples/scenes/slideshow.json -o slideshow.mp4"]

  /// The pages whose commands run, in order: the README's first page, then the reference pages
  /// its sections moved to (in the order they stood in it).
  static let pages = ["README.md", "docs/VIDEOS.md", "docs/REFERENCE.md", "docs/HOW_IT_WORKS.md"]

  /// The pages' shell commands: backslash continuations joined, comment lines dropped.
  static func commands() throws -> [String] {
    var dir = URL(fileURLWithPath: #filePath)
    while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("README.md").path) {
      dir.deleteLastPathComponent()
      guard dir.path != "/" else { throw CocoaError(.fileNoSuchFile) }
    }
    let text = try pages.map { try String(contentsOf: dir.appendingPathComponent($0), encoding: .utf8) }
      .joined(separator: "\n")
    var commands: [String] = []
    var inBlock = false
    var pending = ""
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("```") {
        inBlock = line == "```sh"
        continue
      }
      guard inBlock, !line.isEmpty, !(pending.isEmpty && line.hasPrefix("#")) else { continue }
      if line.hasSuffix("\\") {
        pending += line.dropLast() + " "
      } else {
        commands.append(pending + line)
        pending = ""
      }
    }
    return commands
  }

  /// The stand-in media: pictures, clips (long enough for the README's cuts), sound, scenes,
  /// an edit file and a shader, under the README's names.
  private func makeMedia(repository: URL) throws {
    func ffmpeg(_ arguments: [String]) throws {
      let r = try ToolHarness.run(ToolHarness.which("ffmpeg"), ["-nostdin", "-v", "error", "-y"] + arguments)
      XCTAssertEqual(r.status, 0, "\(arguments): \(r.stderr)")
    }
    for (name, source) in [
      ("a.jpg", "testsrc2"), ("b.jpg", "smptebars"), ("photo.jpg", "rgbtestsrc"), ("b.png", "smptebars"),
      ("logo.png", "rgbtestsrc"),
    ] {
      try ffmpeg(["-f", "lavfi", "-i", "\(source)=s=64x36:d=1", "-frames:v", "1", h.path(name)])
    }
    let clips: [(String, Double, [String])] = [
      ("a.mp4", 2, []), ("b.mp4", 2, []), ("c.mp4", 2, []), ("b.mov", 2, []),
      ("c.webm", 2, ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus"]),
      ("intro.mp4", 7, []), ("outro.mp4", 3, []), ("b-roll.mp4", 13, []), ("talk.mp4", 13, []),
    ]
    for (name, seconds, codecs) in clips {
      try ffmpeg(
        ["-f", "lavfi", "-i", "testsrc2=s=64x36:r=25:d=\(seconds)", "-f", "lavfi", "-i", "sine=d=\(seconds):r=48000"]
          + (codecs.isEmpty ? ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac"] : codecs) + [h.path(name)])
    }
    try ffmpeg(["-f", "lavfi", "-i", "sine=f=330:d=20:r=48000", "-c:a", "aac", h.path("music.m4a")])
    try ffmpeg(["-f", "lavfi", "-i", "sine=f=880:d=1:r=48000", h.path("sting.wav")])
    try ffmpeg(["-f", "lavfi", "-i", "sine=f=1500:d=3:r=48000", h.path("narration.wav")])
    // Scenes for `present`: the example app screens under the README's names.
    let scenes = repository.appendingPathComponent("examples/scenes")
    for (name, scene) in [("a.json", "app-home.json"), ("b.json", "app-detail.json"), ("c.json", "app-home.json")] {
      // Their media paths, relative to examples/scenes, made absolute.
      let text = try String(contentsOf: scenes.appendingPathComponent(scene), encoding: .utf8)
        .replacingOccurrences(of: "\"../", with: "\"" + repository.appendingPathComponent("examples").path + "/")
      try Data(text.utf8).write(to: URL(fileURLWithPath: h.path(name)))
    }
    try Data(
      """
      { width: 64, height: 36, clips: [
        { duration: 0.6, layers: [{ type: 'image', path: 'a.jpg' }, { type: 'title', text: 'Show' }] },
        { layers: [{ type: 'video', path: 'a.mp4', cutTo: 0.6 }] },
      ] }
      """.utf8
    ).write(to: URL(fileURLWithPath: h.path("show.json5")))
    // The README's my_effect.glsl: the tests' soft wipe, which has a softness parameter.
    try FileManager.default.copyItem(at: CommandLineTests.wipe, to: URL(fileURLWithPath: h.path("my_effect.glsl")))
    try FileManager.default.createSymbolicLink(
      atPath: h.path("examples"), withDestinationPath: repository.appendingPathComponent("examples").path)
  }

  func testEveryReadmeCommandRunsAsPrinted() throws {
    let binary = try ToolHarness.binary()
    var repository = URL(fileURLWithPath: #filePath)
    while !FileManager.default.fileExists(atPath: repository.appendingPathComponent("Package.swift").path) {
      repository.deleteLastPathComponent()
    }
    try makeMedia(repository: repository)
    let bin = h.path("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: bin + "/layerkit", withDestinationPath: binary.path)
    let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    var elsewhere: [String] = []
    var runnable: [(command: String, line: String)] = []
    for command in try Self.commands() {
      if let skip = Self.elsewhere.first(where: { command.hasPrefix($0.prefix) }) {
        elsewhere.append("\(command.prefix(60))… needs \(skip.needs)")
        continue
      }
      var line = command.replacingOccurrences(of: "swift run -c release layerkit", with: "layerkit")
      XCTAssertTrue(line.hasPrefix("layerkit "), "a README command this test does not know: \(command)")
      // A whole video at 1080p and 60 fps, or a whole example scene, takes 10–25 s in a debug
      // build: those run as printed up to their first frames.
      if Self.firstFramesOnly.contains(where: { command.contains($0) }) {
        line = line.replacingOccurrences(of: " #", with: " --frames 0..4 #")
        if !line.contains("--frames") { line += " --frames 0..4" }
      }
      runnable.append((command, line))
    }
    // Two runs side by side, in the README's order each: the video commands (whose later ones
    // read what earlier ones wrote), and from the scene files on (which write other names).
    let split = runnable.firstIndex { $0.command.hasPrefix("layerkit render examples/scenes") } ?? runnable.count
    let results = Locked([(command: String, status: Int32, stderr: String, seconds: Double)]())
    let folder = h.folder.path
    let halves = [Array(runnable[..<split]), Array(runnable[split...])]
    DispatchQueue.concurrentPerform(iterations: 2) { half in
      for (command, line) in halves[half] {
        let start = Date()
        let r = try? ToolHarness.run("/bin/sh", ["-c", "cd '\(folder)' && \(line)"], environment: ["PATH": path])
        let line = (command, r?.status ?? -1, r?.stderr ?? "could not be started", Date().timeIntervalSince(start))
        results.withLock { $0.append(line) }
      }
    }
    for r in results.current {
      XCTAssertEqual(r.status, 0, "\(r.command)\n\(r.stderr.suffix(600))")
      print(String(format: "README command %.1f s: %@", r.seconds, String(r.command.prefix(90))))
    }
    let ran = results.current.count
    XCTAssertGreaterThanOrEqual(ran, 25, "commands run")
    print("README commands: \(ran) run as printed; elsewhere:\n  " + elsewhere.joined(separator: "\n  "))
  }
}
