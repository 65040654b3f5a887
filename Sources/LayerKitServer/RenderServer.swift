import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// `layerkit-server`: the API and the page over HTTP, the worker rendering the queue, and a
/// graceful shutdown on SIGTERM or SIGINT (what is rendering goes back in the queue).
public struct RenderServer: Sendable {
  public let configuration: ServerConfiguration

  public init(configuration: ServerConfiguration) {
    self.configuration = configuration
  }

  /// Runs until the process is told to stop.
  /// - Parameter ready: called with the port once the server listens (the one given, or the
  ///   one the system chose for port 0).
  public func run(ready: @escaping @Sendable (Int) -> Void = { _ in }) async throws {
    try FileManager.default.createDirectory(atPath: configuration.state, withIntermediateDirectories: true)
    let owner = "\(ProcessInfo.processInfo.hostName):\(getpid())"
    let store: any RenderStore
    var services: [any Service] = []
    if let queue = configuration.queue, let address = PostgresStore.Address(queue) {
      // Shared with other servers: what a killed one was rendering is taken when its lease ends.
      let postgres = PostgresStore(address)
      services.append(postgres)
      store = postgres
    } else {
      // The only server on this store: whatever was rendering when it last stopped runs again.
      let sqlite = try SQLiteStore(path: configuration.database)
      _ = try await sqlite.requeue(owner: nil)
      store = sqlite
    }
    let worker = RenderWorker(store: store, configuration: configuration, owner: owner, metrics: ServerMetrics())
    let router = Router()
    Routes(store: store, worker: worker, configuration: configuration).add(to: router)
    var logger = Logger(label: "layerkit-server")
    logger.logLevel = .warning
    let app = Application(
      router: router,
      configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "layerkit"),
      services: services + [worker],
      onServerRunning: { channel in ready(channel.localAddress?.port ?? 0) },
      logger: logger)
    try await app.runService()
  }
}
