import Foundation

/// What `layerkit-server` is started with.
public struct ServerConfiguration: Sendable {
  /// The folder every path of an edit names a file in.
  public var media: String
  /// The folder of the database and the finished videos (`outputs/`).
  public var state: String
  public var host = "127.0.0.1"
  public var port = 8080
  /// The bearer tokens API calls carry, one a client: each client sees and counts its own
  /// renders and templates alone. Without one the server listens on loopback only.
  public var tokens: [String] = []
  /// Renders run at once.
  public var renders = 1
  /// The hosts callbacks may be sent to.
  public var callbackHosts: [String] = []
  /// A folder of gl-transitions files that transition names are also looked up in.
  public var glTransitions: String?
  /// `cpu` (the reference renderer), `gpu` (EGL), or `auto`: the GPU where one can be made.
  public var renderer = "auto"
  /// The largest request body, in bytes.
  public var maxBody = 1 << 20
  /// Renders queued or rendering for one client at most.
  public var maxPending = 200

  /// The client whose token `given` is, nil for none (no tokens: everyone is `loopback`).
  public func client(token given: String?) -> String? {
    guard !tokens.isEmpty else { return "loopback" }
    guard let given else { return nil }
    // Every token compared, each in time that does not depend on where it differs.
    var found: String?
    for (i, token) in tokens.enumerated() where TokenCheck.same(given, token) { found = "client-\(i + 1)" }
    return found
  }
  /// Rows of one batch at most.
  public var maxRows = 1000
  /// Seconds a render is left to a server that has stopped saying it renders it (killed): then
  /// another server (or this one, started again) takes it.
  public var lease = 30.0
  /// `postgres://user:password@host:port/database`: renders queued in PostgreSQL, which several
  /// servers share; nil: in SQLite under `state`.
  public var queue: String?

  public init(media: String, state: String) {
    self.media = media
    self.state = state
  }

  /// The database file.
  public var database: String { (state as NSString).appendingPathComponent("layerkit.sqlite") }
  /// The folder finished videos are kept in, named by their render's id.
  public var outputs: String { (state as NSString).appendingPathComponent("outputs") }

  /// Why the server cannot start as configured, or nil.
  public func problem() -> String? {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: media, isDirectory: &isFolder), isFolder.boolValue else {
      return "--media \(media): not a folder"
    }
    if tokens.isEmpty, !Self.isLoopback(host) {
      return "--host \(host) is not loopback: give --token to listen beyond this machine"
    }
    for token in tokens where token.count < 16 { return "--token: at least 16 characters" }
    if Set(tokens).count < tokens.count { return "--token: each client's token is its own" }
    guard renders >= 1, renders <= 64 else { return "--renders \(renders): 1 to 64" }
    guard lease >= 1 else { return "--lease \(lease): at least a second" }
    if let queue, PostgresStore.Address(queue) == nil {
      return "--queue \(queue): expected postgres://USER:PASSWORD@HOST:PORT/DATABASE"
    }
    return nil
  }

  /// Whether `host` is this machine's loopback.
  public static func isLoopback(_ host: String) -> Bool {
    host == "127.0.0.1" || host == "::1" || host == "localhost" || host.hasPrefix("127.")
  }
}
