import Foundation
import LayerKit
import Logging
import PostgresNIO
import ServiceLifecycle

/// The renders and templates in PostgreSQL (`--queue-file`: a `postgres://…` address), which several servers on
/// several machines share: each takes the oldest queued render with `FOR UPDATE SKIP LOCKED`, so
/// a render is taken once, and says every few seconds that it still renders what it took; what a
/// server that fell silent (killed) was rendering is taken by another when its lease runs out.
public final class PostgresStore: RenderStore, Service {
  private let client: PostgresClient
  /// The tables, made once (the first call waits for them).
  private let schema = Locked<Task<Void, Error>?>(nil)

  /// `postgres://USER:PASSWORD@HOST:PORT/DATABASE`, read.
  public struct Address: Sendable, Equatable {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String

    public init?(_ text: String) {
      guard let url = URL(string: text), ["postgres", "postgresql"].contains(url.scheme?.lowercased() ?? ""),
        let host = url.host, !host.isEmpty, let user = url.user, !user.isEmpty
      else { return nil }
      let database = String(url.path.dropFirst())
      guard !database.isEmpty, !database.contains("/") else { return nil }
      (self.host, self.port, self.user, self.password, self.database) = (
        host, url.port ?? 5432, user, url.password?.removingPercentEncoding, database
      )
    }
  }

  public init(_ address: Address) {
    var configuration = PostgresClient.Configuration(
      host: address.host, port: address.port, username: address.user, password: address.password,
      database: address.database, tls: .disable)
    configuration.options.maximumConnections = 8
    client = PostgresClient(configuration: configuration)
  }

  /// The client's connections, for the server's life.
  public func run() async throws { await client.run() }

  private func ready() async throws {
    let task = schema.withLock { task in
      if let task { return task }
      let made = Task { [client] in
        try await client.withTransaction(logger: Self.logger) { connection in
          // One server makes the tables; the others wait for it here.
          try await connection.query("SELECT pg_advisory_xact_lock(7231)", logger: Self.logger)
          try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS layerkit_renders (
              seq BIGSERIAL PRIMARY KEY, id TEXT NOT NULL UNIQUE, status TEXT NOT NULL,
              progress DOUBLE PRECISION NOT NULL DEFAULT 0, error TEXT, error_path TEXT, output TEXT,
              edit TEXT NOT NULL, client TEXT NOT NULL, callback TEXT, template TEXT,
              created DOUBLE PRECISION NOT NULL, started DOUBLE PRECISION, finished DOUBLE PRECISION,
              attempts INTEGER NOT NULL DEFAULT 0, owner TEXT, heartbeat DOUBLE PRECISION)
            """, logger: Self.logger)
          try await connection.query(
            "CREATE INDEX IF NOT EXISTS layerkit_renders_status ON layerkit_renders (status, seq)", logger: Self.logger)
          // Videos removed after --keep; clients' turns and counts found by index.
          try await connection.query(
            "ALTER TABLE layerkit_renders ADD COLUMN IF NOT EXISTS expired BOOLEAN NOT NULL DEFAULT FALSE",
            logger: Self.logger)
          try await connection.query(
            "CREATE INDEX IF NOT EXISTS layerkit_renders_client ON layerkit_renders (client, status, started)",
            logger: Self.logger)
          try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS layerkit_templates (
              id TEXT PRIMARY KEY, edit TEXT NOT NULL, client TEXT NOT NULL, created DOUBLE PRECISION NOT NULL)
            """, logger: Self.logger)
        }
      }
      task = made
      return made
    }
    try await task.value
  }

  static let logger = Logger(label: "layerkit-server.postgres")
  static let columns =
    "id, status, progress, error, error_path, output, edit, client, callback, template, created, started, finished, attempts, expired"
  typealias Columns = (
    String, String, Double, String?, String?, String?, String, String, String?, String?, Double, Double?, Double?, Int,
    Bool
  )
  /// The database's clock, in seconds since 1970.
  static let now = "EXTRACT(EPOCH FROM clock_timestamp())::DOUBLE PRECISION"

  static func record(_ c: Columns) -> RenderRecord {
    var r = RenderRecord(id: c.0, edit: c.6, client: c.7, callback: c.8, template: c.9, created: c.10)
    r.status = RenderStatus(rawValue: c.1) ?? .failed
    (r.progress, r.error, r.errorPath, r.output, r.started, r.finished, r.attempts, r.expired) = (
      c.2, c.3, c.4, c.5, c.11, c.12, c.13, c.14
    )
    return r
  }

  private func records(_ query: PostgresQuery) async throws -> [RenderRecord] {
    try await ready()
    var found: [RenderRecord] = []
    for try await row in try await client.query(query, logger: Self.logger).decode(Columns.self) {
      found.append(Self.record(row))
    }
    return found
  }

  public func insert(_ records: [RenderRecord], limit: Int) async throws -> Bool {
    try await ready()
    guard let who = records.first?.client else { return true }
    return try await client.withTransaction(logger: Self.logger) { connection in
      // One client's inserts one after another, on every server: the count holds until commit.
      try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(who)))", logger: Self.logger)
      var pending = 0
      for try await (n, ) in try await connection.query(
        """
        SELECT count(*)::INTEGER FROM layerkit_renders WHERE client = \(who) AND status IN ('queued', 'rendering')
        """, logger: Self.logger
      ).decode((Int,).self) {
        pending = n
      }
      guard pending + records.count <= limit else { return false }
      for r in records {
        try await connection.query(
          """
          INSERT INTO layerkit_renders (id, status, edit, client, callback, template, created)
          VALUES (\(r.id), \(r.status.rawValue), \(r.edit), \(r.client), \(r.callback), \(r.template), \(r.created))
          """, logger: Self.logger)
      }
      return true
    }
  }

  public func render(_ id: String) async throws -> RenderRecord? {
    try await records("SELECT \(unescaped: Self.columns) FROM layerkit_renders WHERE id = \(id)").first
  }

  public func renders(limit: Int, client: String) async throws -> [RenderRecord] {
    try await records(
      "SELECT \(unescaped: Self.columns) FROM layerkit_renders WHERE client = \(client) ORDER BY seq DESC LIMIT \(limit)"
    )
  }

  public func claim(owner: String, lease: Double, running: Int, attempts: Int) async throws -> RenderRecord? {
    try await ready()
    try await client.query(
      """
      UPDATE layerkit_renders SET status = 'failed', error = \(attemptsExhausted(attempts)), finished = \(unescaped: Self.now),
        owner = NULL
      WHERE (status = 'queued' OR (status = 'rendering' AND heartbeat < \(unescaped: Self.now) - \(lease)))
        AND attempts >= \(attempts)
      """, logger: Self.logger)
    return try await records(
      """
      UPDATE layerkit_renders SET status = 'rendering', owner = \(owner), started = \(unescaped: Self.now),
        heartbeat = \(unescaped: Self.now), progress = 0, attempts = attempts + 1
      WHERE seq = (SELECT r.seq FROM layerkit_renders r
        WHERE (r.status = 'queued' OR (r.status = 'rendering' AND r.heartbeat < \(unescaped: Self.now) - \(lease)))
          AND (SELECT count(*) FROM layerkit_renders x WHERE x.client = r.client AND x.status = 'rendering'
            AND x.heartbeat >= \(unescaped: Self.now) - \(lease)) < \(running)
        ORDER BY (SELECT max(x.started) FROM layerkit_renders x WHERE x.client = r.client) NULLS FIRST, r.seq
        LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING \(unescaped: Self.columns)
      """
    ).first
  }

  public func heartbeat(owner: String) async throws -> Set<Attempt.Number> {
    try await ready()
    var held = Set<Attempt.Number>()
    for try await (id, attempt) in try await client.query(
      """
      UPDATE layerkit_renders SET heartbeat = \(unescaped: Self.now) WHERE owner = \(owner) AND status = 'rendering'
      RETURNING id, attempts
      """, logger: Self.logger
    ).decode((String, Int).self) {
      held.insert(Attempt.Number(id: id, attempt: attempt))
    }
    return held
  }

  @discardableResult public func progress(_ id: String, _ value: Double, attempt: Attempt) async throws -> Bool {
    try await !records(
      """
      UPDATE layerkit_renders SET progress = GREATEST(progress, \(value))
      WHERE id = \(id) AND status = 'rendering' AND owner = \(attempt.owner) AND attempts = \(attempt.number)
      RETURNING \(unescaped: Self.columns)
      """
    ).isEmpty
  }

  public func finish(_ id: String, output: String?, error: String?, path: String?, attempt: Attempt) async throws
    -> Bool
  {
    let status = error == nil ? "done" : "failed"
    return try await !records(
      """
      UPDATE layerkit_renders SET status = \(status),
        progress = CASE WHEN \(status) = 'done' THEN 1 ELSE progress END, output = \(output), error = \(error),
        error_path = \(path), finished = \(unescaped: Self.now)
      WHERE id = \(id) AND status = 'rendering' AND owner = \(attempt.owner) AND attempts = \(attempt.number)
      RETURNING \(unescaped: Self.columns)
      """
    ).isEmpty
  }

  public func cancel(_ id: String) async throws -> RenderStatus? {
    try await ready()
    return try await client.withTransaction(logger: Self.logger) { connection in
      var before: RenderStatus?
      for try await (status, ) in try await connection.query(
        "SELECT status FROM layerkit_renders WHERE id = \(id) FOR UPDATE", logger: Self.logger
      ).decode((String,).self) {
        before = RenderStatus(rawValue: status)
      }
      try await connection.query(
        """
        UPDATE layerkit_renders SET status = 'canceled', finished = \(unescaped: Self.now)
        WHERE id = \(id) AND status IN ('queued', 'rendering')
        """, logger: Self.logger)
      return before
    }
  }

  public func requeue(owner: String?) async throws -> Int {
    // A server shutting down: the start it gave up does not count against the render.
    let query: PostgresQuery =
      owner.map {
        """
        UPDATE layerkit_renders SET status = 'queued', progress = 0, owner = NULL, attempts = GREATEST(attempts - 1, 0)
        WHERE status = 'rendering' AND owner = \($0) RETURNING \(unescaped: Self.columns)
        """
      }
      ?? "UPDATE layerkit_renders SET status = 'queued', progress = 0, owner = NULL WHERE status = 'rendering' RETURNING \(unescaped: Self.columns)"
    return try await records(query).count
  }

  public func counts() async throws -> [RenderStatus: Int] {
    try await ready()
    var counts: [RenderStatus: Int] = [:]
    for try await (status, n) in try await client.query(
      "SELECT status, count(*)::INTEGER FROM layerkit_renders GROUP BY status", logger: Self.logger
    ).decode((String, Int).self) {
      if let status = RenderStatus(rawValue: status) { counts[status] = n }
    }
    return counts
  }

  public func insert(_ template: TemplateRecord, limit: Int) async throws -> Bool {
    try await ready()
    return try await client.withTransaction(logger: Self.logger) { connection in
      try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(template.client)))", logger: Self.logger)
      var kept = 0
      for try await (n, ) in try await connection.query(
        "SELECT count(*)::INTEGER FROM layerkit_templates WHERE client = \(template.client)", logger: Self.logger
      ).decode((Int,).self) {
        kept = n
      }
      guard kept < limit else { return false }
      try await connection.query(
        """
        INSERT INTO layerkit_templates (id, edit, client, created)
        VALUES (\(template.id), \(template.edit), \(template.client), \(template.created))
        """,
        logger: Self.logger)
      return true
    }
  }

  public func template(_ id: String) async throws -> TemplateRecord? {
    try await ready()
    for try await (id, edit, who, created) in try await client.query(
      "SELECT id, edit, client, created FROM layerkit_templates WHERE id = \(id)", logger: Self.logger
    ).decode((String, String, String, Double).self) {
      return TemplateRecord(id: id, edit: edit, client: who, created: created)
    }
    return nil
  }

  public func deleteTemplate(_ id: String) async throws {
    try await ready()
    try await client.query("DELETE FROM layerkit_templates WHERE id = \(id)", logger: Self.logger)
  }

  public func expire(keep: Double) async throws -> [String] {
    try await ready()
    var names: [String] = []
    for try await (name, ) in try await client.query(
      """
      UPDATE layerkit_renders SET expired = TRUE
      WHERE status = 'done' AND NOT expired AND output IS NOT NULL AND finished < \(unescaped: Self.now) - \(keep)
      RETURNING output
      """, logger: Self.logger
    ).decode((String,).self) {
      names.append(name)
    }
    return names
  }
}
