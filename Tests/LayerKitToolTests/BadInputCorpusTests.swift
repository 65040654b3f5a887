import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitSamples
import LayerKitScene
import LayerKitTesting
import LayerKitVideo
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// The bad-input corpus (Corpus/README.md): every case of Corpus/cases.json, each a bad file or
/// command line with the typed error — or exit status and message — it must give. Beyond its own
/// expectation every case is held to the house rules: no crash or hang, one line naming the file
/// or option, no Foundation or ffmpeg internals, nothing left under the output's name. Every
/// failing case is reported at once, by id.
final class BadInputCorpusTests: XCTestCase {
  /// One entry of cases.json.
  struct Case: Decodable {
    /// `category/name`; the category is the folder of its input.
    var id: String
    /// How the input is read: image, y4m, scene, scene-frame, scene-pixels, shader, shader-gl,
    /// subtitles, clip, output, or cli.
    var api: String
    /// The input (in-process APIs), with the placeholders of `args`.
    var input: String?
    /// `layerkit`'s arguments (cli).
    var args: [String]?
    /// The typed error, `Type.case` (`MediaError.truncated`, `SubtitleFile.Error.badTiming`).
    var error: String?
    /// A `SceneFileError`'s path in the document.
    var path: String?
    /// The exit status (cli).
    var status: Int32?
    /// Text the message must contain.
    var message: String?
    /// A `--format` for the output API.
    var format: String?
    /// The scene time (scene-frame, scene-pixels).
    var time: Double?
    /// scene-pixels: pixels the frame must hold on both backends, each `[x, y, r, g, b, a]`
    /// (premultiplied RGBA8, within 2 levels): a wrong picture that a command would write with
    /// exit 0, checked as a picture.
    var pixels: [[Int]]?
    /// A shader compile error's excerpt follows its first line.
    var multiline: Bool?
    /// An input made when the case runs: `{"file": "{tmp}/x", "kind": "fifo" | "directory" |
    /// "repeat", "text": …, "count": …, "prefix": …, "suffix": …}`.
    var generate: Generate?
    /// cli: the command's standard output — `closed` (`>&-`) or a path (`/dev/full`); /dev/null
    /// when not given.
    var stdout: String?
    /// server: headers sent with the body (`Content-Type: application/json` unless given).
    var headers: [String: String]?
    /// Why a case still fails: it runs, and its failure is reported but does not fail the test.
    var expectedFailure: String?
    /// Why the input is bad, for people.
    var note: String?

    struct Generate: Decodable {
      var file: String
      var kind: String
      var text: String?
      var count: Int?
      var prefix: String?
      var suffix: String?
    }

    var category: String { String(id.split(separator: "/").first ?? "") }
  }

  struct Manifest: Decodable { var cases: [Case] }

  static let corpus = Bundle.module.url(forResource: "Corpus", withExtension: nil)!
  /// Kill a case after this long and call it a hang.
  static let timeout: Double = 20

  func manifest() throws -> [Case] {
    let data = try Data(contentsOf: Self.corpus.appendingPathComponent("cases.json"))
    return try JSONDecoder().decode(Manifest.self, from: data).cases
  }

  // MARK: - The manifest

  func testTheManifestListsEveryFileOnceWithAnExpectation() throws {
    let cases = try manifest()
    XCTAssertGreaterThanOrEqual(cases.count, 220)
    var seen = Set<String>()
    for c in cases {
      XCTAssertTrue(seen.insert(c.id).inserted, "duplicate id \(c.id)")
      if c.api == "cli" {
        XCTAssertNotNil(c.status, "\(c.id): a cli case needs a status")
        XCTAssertNotNil(c.args, "\(c.id): a cli case needs args")
      } else if c.api == "server" {
        XCTAssertNotNil(c.status, "\(c.id): a server case needs a status")
        XCTAssertEqual(c.args?.count, 2, "\(c.id): a server case needs args [METHOD, PATH]")
        XCTAssertNotNil(c.input, "\(c.id): a server case needs a body")
      } else if c.api == "scene-pixels" {
        XCTAssertFalse(c.pixels?.isEmpty ?? true, "\(c.id): a scene-pixels case needs pixels")
        XCTAssertTrue(c.pixels?.allSatisfy { $0.count == 6 } ?? false, "\(c.id): a pixel is [x, y, r, g, b, a]")
        XCTAssertNotNil(c.input, "\(c.id): an in-process case needs an input")
      } else {
        XCTAssertNotNil(c.error, "\(c.id): an in-process case needs a typed error")
        XCTAssertNotNil(c.input, "\(c.id): an in-process case needs an input")
      }
    }
    // Every committed input is some case's (a file nothing reads is a finding nobody checks).
    let text = String(decoding: try Data(contentsOf: Self.corpus.appendingPathComponent("cases.json")), as: UTF8.self)
    let enumerator = FileManager.default.enumerator(at: Self.corpus, includingPropertiesForKeys: nil)!
    for case let url as URL in enumerator where !url.hasDirectoryPath {
      let relative = String(url.path.dropFirst(Self.corpus.path.count + 1))
      guard relative.contains("/"), !relative.hasPrefix("good/") else { continue }
      XCTAssertTrue(text.contains("{corpus}/\(relative)\""), "\(relative) is in no case")
    }
  }

  // MARK: - In process

  func testInProcessCases() throws {
    let cases = try manifest().filter { !["cli", "scene-pixels", "server"].contains($0.api) }
    let folder = try temporaryFolder("inprocess")
    defer { try? FileManager.default.removeItem(at: folder) }
    var outcomes = Outcomes()
    let gpu = Result { try GLRenderer() }
    for c in cases {
      let tmp = folder.appendingPathComponent(c.id.replacingOccurrences(of: "/", with: "-"))
      try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
      let places = ["{corpus}": Self.corpus.path, "{tmp}": tmp.path]
      var problems: [String] = []
      do {
        try Self.generate(c, places)
        let input = Self.substitute(c.input ?? "", places)
        if c.api == "shader-gl", case .failure(let error) = gpu {
          outcomes.skip(c, "no GPU backend: \(error)")
          continue
        }
        let result = runInProcess(c, input: input, gpu: try? gpu.get())
        problems = check(c, result, input: input)
      } catch {
        problems = ["the case could not be set up: \(error)"]
      }
      outcomes.record(c, problems)
    }
    outcomes.report(what: "in-process cases")
  }

  enum InProcessResult {
    case threw(Error)
    case returned
    case hung
  }

  func runInProcess(_ c: Case, input: String, gpu: GLRenderer?) -> InProcessResult {
    // GL work stays on this thread (its context is made current where it is used).
    if c.api == "shader-gl" {
      do {
        _ = try gpu!.registerTransition(name: "corpus", file: URL(fileURLWithPath: input))
      } catch {
        return .threw(error)
      }
      return .returned
    }
    let body: @Sendable () throws -> Void = {
      let url = URL(fileURLWithPath: input)
      switch c.api {
      case "image": _ = try ImageFile.read(url)
      case "y4m": _ = try Y4MReader(path: input).readAllFrames()
      case "scene": _ = try SceneFile.load(url)
      case "scene-frame":
        let scene = try SceneFile.load(url)
        _ = try ReferenceRenderer().render(try scene.renderList(at: c.time ?? 0))
      case "shader":
        let text = try String(contentsOf: url, encoding: .utf8)
        _ = try GLTransitionSource(text: text, file: input)
      case "subtitles": _ = try SubtitleFile.read(url)
      case "clip": _ = try MediaSource.open(input)
      case "output": _ = try OutputTarget(path: input, format: c.format.flatMap(VideoFormat.init(rawValue:)))
      default: throw CorpusError("unknown api \(c.api)")
      }
    }
    // On a thread of its own, so that a hang is reported (and left behind) instead of stopping
    // the run.
    final class Box: @unchecked Sendable { var result: InProcessResult = .hung }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      do {
        try body()
        box.result = .returned
      } catch {
        box.result = .threw(error)
      }
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    return done.wait(timeout: .now() + Self.timeout) == .timedOut ? .hung : box.result
  }

  func check(_ c: Case, _ result: InProcessResult, input: String) -> [String] {
    let error: Error
    switch result {
    case .hung: return ["hung: no answer after \(Int(Self.timeout)) s"]
    case .returned: return ["no error: the input was accepted"]
    case .threw(let e): error = e
    }
    var problems: [String] = []
    let name = Self.caseName(error)
    let text = "\(error)"
    if let expected = c.error, name != expected { problems.append("threw \(name) (\(text)), expected \(expected)") }
    if let path = c.path {
      if let sceneError = error as? SceneFileError {
        if sceneError.path != path { problems.append("at \"\(sceneError.path)\", expected \"\(path)\"") }
      } else {
        problems.append("expected a SceneFileError at \(path)")
      }
    }
    problems += Self.messageProblems([text], c)
    if let message = c.message, !text.contains(message) { problems.append("the message lacks \"\(message)\": \(text)") }
    // The message names the file; a value in a scene file, its place in the document (the
    // command line names the file before it).
    let file = (input as NSString).lastPathComponent
    if let sceneError = error as? SceneFileError, sceneError.path != "" || text.hasPrefix("the document") {
      let place = sceneError.path.isEmpty ? "the document" : sceneError.path
      if !text.hasPrefix(place + ": ") { problems.append("the message does not start with its place: \(text)") }
    } else if !["output", "scene-frame"].contains(c.api), !file.isEmpty, !text.contains(file) {
      problems.append("the message does not name \(file): \(text)")
    }
    return problems
  }

  /// `Type.case` of an error: `MediaError.truncated`, `SubtitleFile.Error.badTiming`.
  static func caseName(_ error: Error) -> String {
    let type = String(reflecting: Swift.type(of: error)).split(separator: ".").dropFirst().joined(separator: ".")
    let label = Mirror(reflecting: error).children.first?.label ?? "\(error)"
    return "\(type).\(label)"
  }

  // MARK: - Pictures

  /// Scenes that were drawn wrong with exit 0: each frame, rendered on both backends, holds the
  /// pixels the case lists; a failure writes the two frames where a person can look at them.
  func testScenePixelCases() throws {
    let cases = try manifest().filter { $0.api == "scene-pixels" }
    XCTAssertFalse(cases.isEmpty)
    guard let gpu = makeRenderer() else { return }
    let cpu = ReferenceRenderer()
    var outcomes = Outcomes()
    for c in cases {
      var problems: [String] = []
      do {
        let url = URL(fileURLWithPath: Self.substitute(c.input!, ["{corpus}": Self.corpus.path]))
        let list = try SceneFile.load(url).renderList(at: c.time ?? 0)
        for (name, renderer) in [("cpu", cpu as Renderer), ("gpu", gpu as Renderer)] {
          let image = try renderer.render(list)
          var wrong: [String] = []
          for p in c.pixels! {
            let i = (p[1] * image.width + p[0]) * 4
            let got = (0..<4).map { Int(image.pixels[i + $0]) }
            if zip(got, p[2...]).contains(where: { abs($0 - $1) > 2 }) {
              wrong.append("(\(p[0]), \(p[1])) is \(got), expected \(Array(p[2...]))")
            }
          }
          if !wrong.isEmpty {
            let file = try writeArtifact(image, "\(c.id.replacingOccurrences(of: "/", with: "-"))-\(name).png")
            problems.append("\(name): \(wrong.joined(separator: "; ")) (frame: \(file))")
          }
        }
      } catch {
        problems.append("threw \(error)")
      }
      outcomes.record(c, problems)
    }
    outcomes.report(what: "scene-pixels cases")
  }

  /// Writes a frame of a failing case under the artifacts folder (`$LAYERKIT_ARTIFACTS`, else
  /// artifacts/parity) and returns its path.
  func writeArtifact(_ image: LayerKit.Image, _ name: String) throws -> String {
    let folder = ParityChecker.defaultArtifactsDirectory
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appendingPathComponent(name)
    try ImageFile.writePNG(image, to: url)
    return url.path
  }

  // MARK: - The render server

  /// Each server case sent with curl, as an attacker sends it, to one `layerkit-server` on
  /// loopback without tokens (a picture `dot.png` and a link leading out in its media folder):
  /// the status, the JSON path and the words; nothing queued, nothing written.
  func testServerCases() throws {
    let cases = try manifest().filter { $0.api == "server" }
    XCTAssertGreaterThanOrEqual(cases.count, 19)
    let folder = try temporaryFolder("server")
    defer { try? FileManager.default.removeItem(at: folder) }
    let media = folder.appendingPathComponent("media")
    try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: Self.corpus.appendingPathComponent("good/dot.png"), to: media.appendingPathComponent("dot.png"))
    try FileManager.default.createSymbolicLink(
      atPath: media.appendingPathComponent("out").path, withDestinationPath: "/etc")
    let secret = folder.appendingPathComponent("secret").path
    try "a-callback-secret-of-some-length".write(toFile: secret, atomically: true, encoding: .utf8)
    let server = try ServerHarness(
      media: media.path, state: folder.appendingPathComponent("state").path,
      arguments: ["--callback-host", "127.0.0.1:9", "--callback-secret", secret])
    var failures: [String] = []
    for c in cases {
      let body = folder.appendingPathComponent("body.json")
      try c.input!.replacingOccurrences(of: "{tmp}", with: folder.path).write(
        to: body, atomically: true, encoding: .utf8)
      var headers = c.headers ?? [:]
      if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
      let out = folder.appendingPathComponent("answer.json").path
      let r = try ToolHarness.run(
        ToolHarness.which("curl"),
        [
          "-s", "-o", out, "-w", "%{http_code}", "--max-time", "\(Int(Self.timeout))", "-X", c.args![0],
          "http://127.0.0.1:\(server.port)\(c.args![1])", "--data-binary", "@\(body.path)",
        ]
          + headers.sorted { $0.key < $1.key }.flatMap { ["-H", "\($0.key): \($0.value)"] })
      let answer =
        (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out)))) as? [String: Any]
      let error = answer?["error"] as? String ?? ""
      var wrong: [String] = []
      if Int32(r.stdout) != c.status { wrong.append("status \(r.stdout), expected \(c.status!)") }
      if let path = c.path, answer?["path"] as? String != path {
        wrong.append("path \(answer?["path"] ?? "none"), expected \(path)")
      }
      if let message = c.message, !error.contains(message) { wrong.append("message lacks \"\(message)\"") }
      if error.isEmpty || error.contains("\n") || error.contains("NSCocoaErrorDomain") {
        wrong.append("not one line of words: \"\(error)\"")
      }
      if !wrong.isEmpty { failures.append("\(c.id): \(wrong.joined(separator: "; ")) — \(error)") }
    }
    XCTAssertEqual(failures, [], failures.joined(separator: "\n"))
    XCTAssertEqual((try server.call("GET", "/v1/renders").json["renders"] as? [Any])?.count, 0, "nothing queued")
    XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("x.mp4").path))
  }

  // MARK: - The command line

  func testCommandLineCases() throws {
    let cases = try manifest().filter { $0.api == "cli" }
    let folder = try temporaryFolder("cli")
    defer { try? FileManager.default.removeItem(at: folder) }
    let shared = folder.appendingPathComponent("shared")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
    var places = ["{corpus}": Self.corpus.path]
    for (name, hue) in [("a", 0.1), ("b", 0.6)] {
      let url = shared.appendingPathComponent("\(name).png")
      try ImageFile.writePNG(try SampleScene.testImage(width: 32, height: 18, hue: hue), to: url)
      places["{\(name)}"] = url.path
    }
    if cases.contains(where: { $0.args!.contains { $0.contains("{clip}") } }) {
      let clip = shared.appendingPathComponent("clip.mp4").path
      let r = try ToolHarness.run(
        ToolHarness.which("ffmpeg"),
        [
          "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=32x18:r=10:d=0.5", "-f", "lavfi", "-i",
          "sine=d=0.5", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", clip,
        ])
      XCTAssertEqual(r.status, 0, r.stderr)
      places["{clip}"] = clip
    }
    let binary = try ToolHarness.binary().path
    // Cases that ask for the GPU need an EGL display (Mesa's llvmpipe will do).
    let gpu = Result { try GLRenderer() }
    final class Results: Sendable {
      let problems = Locked([String: [String]]())
      func set(_ id: String, _ p: [String]) { problems.withLock { $0[id] = p } }
    }
    let results = Results()
    let queue = DispatchQueue(label: "corpus", attributes: .concurrent)
    let slots = DispatchSemaphore(value: 2)
    let group = DispatchGroup()
    var outcomes = Outcomes()
    var skipped: Set<String> = []
    for c in cases {
      if case .failure(let error) = gpu, c.args!.contains("gpu") {
        outcomes.skip(c, "no GPU backend: \(error)")
        skipped.insert(c.id)
        continue
      }
      let tmp = folder.appendingPathComponent(c.id.replacingOccurrences(of: "/", with: "-"))
      try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
      var local = places
      local["{tmp}"] = tmp.path
      let caseplaces = local
      slots.wait()
      group.enter()
      queue.async {
        defer {
          slots.signal()
          group.leave()
        }
        do {
          try Self.generate(c, caseplaces)
          results.set(c.id, try Self.runCommand(c, binary: binary, places: caseplaces, tmp: tmp))
        } catch {
          results.set(c.id, ["the case could not be run: \(error)"])
        }
      }
    }
    group.wait()
    for c in cases where !skipped.contains(c.id) { outcomes.record(c, results.problems.current[c.id] ?? ["not run"]) }
    outcomes.report(what: "command-line cases")
  }

  /// Paths the options name as outputs.
  static let outputOptions: Set<String> = ["-o", "--output", "--contact-sheet", "--stats", "--diff"]

  static func runCommand(_ c: Case, binary: String, places: [String: String], tmp: URL) throws -> [String] {
    let args = c.args!.map { Self.substitute($0, places) }
    // Outputs: absent before (they must stay absent), or present (they must stay as they were).
    var outputs: [(path: String, before: Contents)] = []
    for (i, a) in args.enumerated() where Self.outputOptions.contains(a) && i + 1 < args.count {
      let path = args[i + 1]
      guard path != "-", !path.hasPrefix("/dev/"), !path.isEmpty else { continue }
      outputs.append((path, Contents(path)))
    }
    let run = try Self.run(binary, args, timeout: Self.timeout, stdout: c.stdout)
    var problems: [String] = []
    guard let status = run.status else { return ["hung: killed after \(Int(Self.timeout)) s"] }
    if run.signal != 0 { return ["crashed: signal \(run.signal); \(run.stderr.suffix(300))"] }
    if status != c.status { problems.append("exit status \(status), expected \(c.status!)") }
    if status == 0 { problems.append("the bad input was accepted") }
    // The error: the lines before ArgumentParser's usage text.
    var lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    if let usage = lines.firstIndex(where: { $0.hasPrefix("Usage:") || $0.hasPrefix("Help:") }) {
      lines = Array(lines[..<usage])
    }
    // ArgumentParser lists the choices of an enumerated option under its one-line error.
    if lines.first?.hasPrefix("Error: ") == true { lines.removeAll { $0.hasPrefix("  - ") } }
    if lines.isEmpty { problems.append("no message on standard error") }
    problems += Self.messageProblems(lines, c)
    if let message = c.message.map({ Self.substitute($0, places) }), !(lines.first ?? "").contains(message) {
      problems.append("the message lacks \"\(message)\": \(lines.first ?? "")")
    }
    if run.stderr.contains("wrote ") { problems.append("claims to have written: \(run.stderr)") }
    for (path, before) in outputs {
      let after = Contents(path)
      switch (before, after) {
      case (.absent, .absent), (.absent, .folder([])): break
      case (.absent, .file): problems.append("left a file at \(path)")
      case (.absent, .folder): problems.append("left files in \(path)")
      default: if after != before { problems.append("changed \(path), which existed before") }
      }
      let folder = (path as NSString).deletingLastPathComponent
      let base = (path as NSString).lastPathComponent
      let temporary = ((try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? [])
        .filter { $0.hasPrefix(".\(base)") }
      if !temporary.isEmpty { problems.append("left temporary files \(temporary)") }
    }
    let dots = ((try? FileManager.default.contentsOfDirectory(atPath: tmp.path)) ?? []).filter { $0.hasPrefix(".") }
    if !dots.isEmpty { problems.append("left temporary files \(dots) in the case's folder") }
    return problems
  }

  /// What is at a path: nothing, a file's bytes, or a folder's names.
  enum Contents: Equatable {
    case absent
    case file(Data)
    case folder([String])

    init(_ path: String) {
      var isFolder: ObjCBool = false
      if !FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
        self = .absent
      } else if isFolder.boolValue {
        self = .folder(((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted())
      } else {
        self = .file(FileManager.default.contents(atPath: path) ?? Data())
      }
    }
  }

  struct CommandRun {
    /// nil: killed after the timeout.
    var status: Int32?
    var signal: Int32
    var stderr: String
  }

  /// Runs a program, killing it after `timeout` seconds.
  /// - Parameter stdout: its standard output: nil for /dev/null, `closed` for none (`>&-`, through
  ///   the shell), or a file's path (`/dev/full`).
  static func run(_ program: String, _ arguments: [String], timeout: Double, stdout: String? = nil) throws
    -> CommandRun
  {
    let process = Process()
    if stdout == "closed" {
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = ["-c", "exec \"$0\" \"$@\" >&-", program] + arguments
    } else {
      process.executableURL = URL(fileURLWithPath: program)
      process.arguments = arguments
    }
    process.standardInput = FileHandle.nullDevice
    if let stdout, stdout != "closed" {
      guard let handle = FileHandle(forWritingAtPath: stdout) else { throw CorpusError("cannot open \(stdout)") }
      process.standardOutput = handle
    } else {
      process.standardOutput = FileHandle.nullDevice
    }
    let err = Pipe()
    process.standardError = err
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    final class Box: @unchecked Sendable { var data = Data() }
    let box = Box()
    let read = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      box.data = err.fileHandleForReading.readDataToEndOfFile()
      read.signal()
    }
    if exited.wait(timeout: .now() + timeout) == .timedOut {
      kill(process.processIdentifier, SIGKILL)
      exited.wait()
      read.wait()
      return CommandRun(status: nil, signal: SIGKILL, stderr: String(decoding: box.data, as: UTF8.self))
    }
    read.wait()
    let signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : 0
    return CommandRun(
      status: process.terminationStatus, signal: signal, stderr: String(decoding: box.data, as: UTF8.self))
  }

  // MARK: - Shared

  /// The rules every message keeps: one line (a shader compile error may add its excerpt), no
  /// crash report, no Foundation or ffmpeg internals.
  static func messageProblems(_ lines: [String], _ c: Case) -> [String] {
    var problems: [String] = []
    let all = lines.joined(separator: "\n")
    let lineCount = all.split(separator: "\n", omittingEmptySubsequences: true).count
    if lineCount > 1, c.multiline != true { problems.append("\(lineCount) lines, not one: \(all)") }
    if all.isEmpty { problems.append("an empty message") }
    for word in [
      "Fatal error", "NSCocoaErrorDomain", "NSPOSIXErrorDomain", "UserInfo=", "error 256", "Error Domain=",
      "The operation could not be completed", "Stack dump", "Segmentation fault",
    ] where all.contains(word) {
      problems.append("shows \"\(word)\": \(all)")
    }
    if all.range(of: #"@ 0x[0-9a-fA-F]+"#, options: .regularExpression) != nil {
      problems.append("shows ffmpeg's internals: \(all)")
    }
    if all.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }) {
      problems.append("holds control characters: \(all.debugDescription)")
    }
    return problems
  }

  static func substitute(_ text: String, _ places: [String: String]) -> String {
    places.reduce(text) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
  }

  /// Makes a case's generated input.
  static func generate(_ c: Case, _ places: [String: String]) throws {
    guard let g = c.generate else { return }
    let path = Self.substitute(g.file, places)
    switch g.kind {
    case "fifo":
      guard mkfifo(path, 0o644) == 0 else { throw CorpusError("mkfifo \(path) failed") }
    case "directory":
      try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    case "repeat":
      let body = String(repeating: g.text ?? " ", count: g.count ?? 0)
      // The prefix and suffix may name the case's files ({a}, {tmp}).
      let text = Self.substitute(g.prefix ?? "", places) + body + Self.substitute(g.suffix ?? "", places)
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    default:
      throw CorpusError("unknown generate kind \(g.kind)")
    }
  }

  func temporaryFolder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-corpus-\(name)-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  struct CorpusError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
  }

  /// What the cases gave: failures fail the test, all at once; expected failures are listed.
  struct Outcomes {
    var failures: [String] = []
    var known: [String] = []
    var fixed: [String] = []
    var skipped: [String] = []
    var counts: [String: Int] = [:]
    let start = Date()

    mutating func record(_ c: Case, _ problems: [String]) {
      counts[c.category, default: 0] += 1
      if let reason = c.expectedFailure {
        if problems.isEmpty {
          fixed.append("\(c.id): passes now; remove its expectedFailure (\(reason))")
        } else {
          known.append("\(c.id): \(reason) — \(problems.joined(separator: "; "))")
        }
      } else if !problems.isEmpty {
        failures.append("\(c.id): \(problems.joined(separator: "; "))")
      }
    }

    mutating func skip(_ c: Case, _ why: String) {
      counts[c.category, default: 0] += 1
      skipped.append("\(c.id): \(why)")
    }

    func report(what: String) {
      let total = counts.values.reduce(0, +)
      let byCategory = counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
      print(
        "corpus: \(total) \(what) (\(byCategory)) in \(String(format: "%.1f", Date().timeIntervalSince(start))) s; "
          + "\(failures.count) failing, \(known.count) expected failures, \(skipped.count) skipped")
      for line in known { print("corpus: expected failure: \(line)") }
      for line in fixed { print("corpus: \(line)") }
      for line in skipped { print("corpus: skipped: \(line)") }
      if !failures.isEmpty {
        XCTFail("\(failures.count) of \(total) \(what) failed:\n" + failures.joined(separator: "\n"))
      }
    }
  }
}
