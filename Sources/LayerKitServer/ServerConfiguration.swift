import Foundation

/// What `layerkit-server` is started with.
public struct ServerConfiguration: Sendable {
  /// The folder every path of an edit names a file in.
  public var media: String
  /// The folder of the database and the finished videos (`outputs/`).
  public var state: String
  public var host = "127.0.0.1"
  public var port = 8080
  /// The clients and the secrets their calls carry (`--tokens FILE`, or `LAYERKIT_TOKENS`): a
  /// client is its name, so renders stay a client's when its secret is replaced, and a name may
  /// have two secrets while a new one is rolled out. Without any the server answers loopback
  /// callers alone, all of them the client `loopback`.
  public var clients: [Client] = []
  /// Renders run at once.
  public var renders = 1
  /// Where callbacks may be sent: `host:port` pairs, both matched exactly.
  public var callbackTargets: [String] = []
  /// The key callbacks are signed with (HMAC-SHA256 of the body, `LayerKit-Signature`).
  public var callbackSecret: String?
  /// A folder of gl-transitions files that transition names are also looked up in.
  public var glTransitions: String?
  /// `cpu` (the reference renderer), `gpu` (EGL), or `auto`: the GPU where one can be made.
  public var renderer = "auto"
  /// The largest request body, in bytes.
  public var maxBody = 1 << 20
  /// What one render and one client may ask for (`--limits`).
  public var limits = ServerLimits()
  /// Seconds a render is left to a server that has stopped saying it renders it (killed): then
  /// another server (or this one, started again) takes it.
  public var lease = 30.0
  /// `postgres://user:password@host:port/database`: renders queued in PostgreSQL, which several
  /// servers share; nil: in SQLite under `state`.
  public var queue: String?

  /// A client: its name (what its renders are kept under) and one secret it calls with.
  public struct Client: Sendable, Equatable {
    public var name: String
    public var secret: String

    public init(name: String, secret: String) {
      self.name = name
      self.secret = secret
    }
  }

  public init(media: String, state: String) {
    self.media = media
    self.state = state
  }

  /// Reads clients from `text`: `NAME SECRET` a line, `#` comments and blank lines skipped.
  /// - Throws: the first line that is not one, by number (never its secret).
  public static func clients(from text: String, source: String) throws(ServerProblem) -> [Client] {
    var found: [Client] = []
    for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
      let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
      guard words.count == 2 else { throw ServerProblem("\(source) line \(n + 1): expected NAME SECRET") }
      guard words[0].count <= 64,
        words[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.-".contains($0)) })
      else { throw ServerProblem("\(source) line \(n + 1): a name is letters, digits, _ . - (64 at most)") }
      guard words[1].count >= 16, words[1].allSatisfy({ $0.isASCII && !$0.isWhitespace }) else {
        throw ServerProblem("\(source) line \(n + 1): a secret is 16 or more printable characters")
      }
      found.append(Client(name: words[0], secret: words[1]))
    }
    guard Set(found.map(\.secret)).count == found.count else {
      throw ServerProblem("\(source): each secret is one client's")
    }
    return found
  }

  /// The name of the client whose secret `given` is, nil for none (no clients: everyone is
  /// `loopback`).
  public func client(token given: String?) -> String? {
    guard !clients.isEmpty else { return "loopback" }
    guard let given else { return nil }
    // Every secret compared, each in time that does not depend on where it differs.
    var found: String?
    for client in clients where TokenCheck.same(given, client.secret) { found = client.name }
    return found
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
    if clients.isEmpty, !Self.isLoopback(host) {
      return "--host \(host) is not loopback: give --tokens FILE (or LAYERKIT_TOKENS) to listen beyond this machine"
    }
    guard renders >= 1, renders <= 64 else { return "--renders \(renders): 1 to 64" }
    guard lease >= 1 else { return "--lease \(lease): at least a second" }
    if let queue, PostgresStore.Address(queue) == nil {
      return "--queue: expected postgres://USER:PASSWORD@HOST:PORT/DATABASE"
    }
    for target in callbackTargets where Self.hostAndPort(target) == nil {
      return "--callback-host \(target): expected HOST:PORT"
    }
    if !callbackTargets.isEmpty, (callbackSecret ?? "").count < 16 {
      return
        "--callback-host: callbacks are signed; give --callback-secret FILE (or LAYERKIT_CALLBACK_SECRET), 16 characters or more"
    }
    return nil
  }

  /// `HOST:PORT` (a bracketed IPv6 host too), lowercased; nil when it is not that.
  static func hostAndPort(_ text: String) -> (host: String, port: Int)? {
    guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
      (1...65535).contains(port)
    else { return nil }
    var host = String(text[..<colon]).lowercased()
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    return host.isEmpty ? nil : (host, port)
  }

  /// Whether `host` is this machine's loopback.
  public static func isLoopback(_ host: String) -> Bool {
    let h = host.lowercased()
    if h == "localhost" || h == "::1" || h == "[::1]" { return true }
    let parts = h.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
  }
}
