import ArgumentParser
import Foundation
import LayerKitServer

/// `layerkit-server --media DIR [--state DIR] [--host H] [--port P] [--token T] [--renders N]`
@main
struct ServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "layerkit-server",
    abstract: "Render edits sent over HTTP: queued, durable, watched in a browser.",
    discussion: """
      Edits in editly's form are POSTed to /v1/renders and rendered in turn; GET /v1/renders/ID \
      says how far each is and /v1/renders/ID/output serves the video. The queue and every \
      render's state are kept in SQLite under --state: a server killed and started again loses \
      nothing. Without --token the server listens on loopback only. The page at / submits edits \
      and plays the videos; /openapi.json describes the API.
      """)

  @Option(help: "The folder every path in an edit names a file in.") var media: String
  @Option(help: "The folder of the queue's database and the finished videos.") var state = "layerkit-state"
  @Option(help: "The address to listen on (loopback unless a token is given).") var host = "127.0.0.1"
  @Option(help: "The port to listen on (0: one the system chooses, printed when listening).") var port = 8080
  @Option(
    help:
      "A bearer token API calls carry (at least 16 characters); repeat it for several clients, each seeing its own renders alone."
  )
  var token: [String] = []
  @Option(name: .customLong("max-queued"), help: "Renders queued or rendering for one client at most.")
  var maxQueued = 200
  @Option(help: "Renders at once.") var renders = 1
  @Option(name: .customLong("callback-host"), help: "A host callbacks may be sent to (repeatable).")
  var callbackHosts: [String] = []
  @Option(name: .customLong("gl-transitions"), help: "A folder of gl-transitions files names are looked up in.")
  var glTransitions: String?
  @Option(help: "auto, cpu or gpu.") var renderer = "auto"
  @Option(
    help: "postgres://USER:PASSWORD@HOST:PORT/DATABASE: a queue several servers share (default: SQLite under --state).")
  var queue: String?
  @Option(help: "Seconds before a silent server's renders are taken by another (default 30).") var lease = 30.0

  func run() async throws {
    var settings = ServerConfiguration(media: media, state: state)
    (settings.host, settings.port, settings.tokens, settings.renders) = (host, port, token, renders)
    guard maxQueued >= 1 else { throw ValidationError("--max-queued \(maxQueued): at least 1") }
    settings.maxPending = maxQueued
    settings.callbackHosts = callbackHosts.map { $0.lowercased() }
    settings.glTransitions = glTransitions
    guard ["auto", "cpu", "gpu"].contains(renderer) else {
      throw ValidationError("--renderer \(renderer): auto, cpu or gpu")
    }
    settings.renderer = renderer
    (settings.queue, settings.lease) = (queue, lease)
    if let problem = settings.problem() { throw ValidationError(problem) }
    let shown = settings
    try await RenderServer(configuration: settings).run { port in
      let scope = shown.tokens.isEmpty ? " (loopback only: no --token)" : ""
      FileHandle.standardError.write(Data("layerkit-server: listening on http://\(shown.host):\(port)\(scope)\n".utf8))
    }
  }
}
