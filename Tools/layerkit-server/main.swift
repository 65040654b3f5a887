import ArgumentParser
import Foundation
import LayerKitServer

/// `layerkit-server --media DIR [--state DIR] [--host H] [--port P] [--tokens FILE] [--limits …]`
@main
struct ServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layerkit-server",
    abstract: "Render edits sent over HTTP: queued, durable, watched in a browser.",
    discussion: """
      Edits in editly's form are POSTed to /v1/renders and rendered in turn; GET /v1/renders/ID \
      says how far each is and /v1/renders/ID/output serves the video. The queue and every \
      render's state are kept in SQLite under --state: a server killed and started again loses \
      nothing. Clients and their secrets come from --tokens FILE or LAYERKIT_TOKENS (NAME SECRET \
      a line), never from the command line; without any the server answers loopback alone. The \
      page at / submits edits and plays the videos; /openapi.json describes the API.
      """)

  @Option(help: "The folder every path in an edit names a file in.") var media: String
  @Option(help: "The folder of the queue's database and the finished videos.") var state = "layerkit-state"
  @Option(help: "The address to listen on (loopback unless clients are given).") var host = "127.0.0.1"
  @Option(help: "The port to listen on (0: one the system chooses, printed when listening).") var port = 8080
  @Option(
    help: ArgumentHelp(
      "A file of clients, NAME SECRET a line (secrets of 16 characters or more); LAYERKIT_TOKENS holds the same text.",
      valueName: "file"))
  var tokens: String?
  @Option(
    help: ArgumentHelp(
      "NAME=VALUE,… over the defaults (pixels, side, fps, duration, work, output-bytes, frame-seconds, render-seconds, queued, running, attempts, streams, streams-per-client, templates, merged-bytes, batch-bytes, rows).",
      valueName: "limits"))
  var limits = ""
  @Option(help: "Seconds a finished video is kept; then it is removed (410 Gone).") var keep = 7 * 86400.0
  @Option(help: "Renders at once.") var renders = 1
  @Option(
    name: .customLong("callback-host"),
    help: ArgumentHelp("A HOST:PORT callbacks may be sent to (repeatable).", valueName: "host:port"))
  var callbackHosts: [String] = []
  @Option(
    name: .customLong("callback-secret"),
    help: ArgumentHelp(
      "A file holding the key callbacks are signed with (or LAYERKIT_CALLBACK_SECRET).", valueName: "file"))
  var callbackSecret: String?
  @Option(name: .customLong("gl-transitions"), help: "A folder of gl-transitions files names are looked up in.")
  var glTransitions: String?
  @Option(help: "auto, cpu or gpu.") var renderer = "auto"
  @Option(
    name: .customLong("queue-file"),
    help: ArgumentHelp(
      "A file holding postgres://USER:PASSWORD@HOST:PORT/DATABASE, a queue several servers share (or LAYERKIT_QUEUE; default: SQLite under --state).",
      valueName: "file"))
  var queueFile: String?
  @Option(help: "Seconds before a silent server's renders are taken by another (default 30).") var lease = 30.0

  func run() async throws {
    let environment = ProcessInfo.processInfo.environment
    var settings = ServerConfiguration(media: media, state: state)
    (settings.host, settings.port, settings.renders) = (host, port, renders)
    do {
      if let tokens {
        settings.clients = try ServerConfiguration.clients(from: try Self.secret(tokens, "--tokens"), source: tokens)
      } else if let text = environment["LAYERKIT_TOKENS"] {
        settings.clients = try ServerConfiguration.clients(from: text, source: "LAYERKIT_TOKENS")
      }
      try settings.limits.read(limits)
      guard keep > 0 else { throw ServerProblem("--keep \(keep): a number of seconds above 0") }
      settings.limits.keep = keep
    } catch { throw ValidationError("\(error)") }
    settings.callbackTargets = callbackHosts
    settings.callbackSecret =
      try callbackSecret.map { try Self.secret($0, "--callback-secret") }
      ?? environment["LAYERKIT_CALLBACK_SECRET"]
    settings.glTransitions = glTransitions
    guard ["auto", "cpu", "gpu"].contains(renderer) else {
      throw ValidationError("--renderer \(renderer): auto, cpu or gpu")
    }
    settings.renderer = renderer
    settings.queue = try queueFile.map { try Self.secret($0, "--queue-file") } ?? environment["LAYERKIT_QUEUE"]
    settings.lease = lease
    if let problem = settings.problem() { throw ValidationError(problem) }
    let shown = settings
    try await RenderServer(configuration: settings).run { port in
      let scope =
        shown.clients.isEmpty
        ? " (loopback only: no clients given)" : " (\(Set(shown.clients.map(\.name)).count) clients)"
      FileHandle.standardError.write(
        Data(
          "layerkit-server: listening on http://\(shown.host):\(port)\(scope)\nlayerkit-server: limits \(shown.limits.description)\n"
            .utf8))
    }
  }

  /// The text of the file at `path`, trimmed (a secret, a list of clients, a queue's address).
  static func secret(_ path: String, _ flag: String) throws -> String {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ValidationError("\(flag) \(path): cannot be read")
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
