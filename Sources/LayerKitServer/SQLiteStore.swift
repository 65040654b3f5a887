import Foundation
import GRDB

/// The server's renders and templates in one SQLite file (`--state`/layerkit.sqlite), written
/// ahead (WAL) and synced at each commit: a server killed at any moment loses nothing it
/// answered for.
public final class SQLiteStore: RenderStore {
  private let pool: DatabasePool
  /// The database's clock, in seconds since 1970.
  private static let now = "((julianday('now') - 2440587.5) * 86400.0)"

  /// Opens (or makes) the database at `path`.
  public init(path: String) throws {
    var configuration = Configuration()
    configuration.busyMode = .timeout(10)
    pool = try DatabasePool(path: path, configuration: configuration)
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1") { db in
      try db.execute(
        sql: """
          CREATE TABLE renders (
            seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, status TEXT NOT NULL,
            progress REAL NOT NULL DEFAULT 0, error TEXT, errorPath TEXT, output TEXT, edit TEXT NOT NULL,
            client TEXT NOT NULL, callback TEXT, template TEXT, created REAL NOT NULL, started REAL,
            finished REAL, attempts INTEGER NOT NULL DEFAULT 0, owner TEXT, heartbeat REAL);
          CREATE INDEX renders_status ON renders (status, seq);
          CREATE TABLE templates (id TEXT PRIMARY KEY, edit TEXT NOT NULL, client TEXT NOT NULL, created REAL NOT NULL);
          """)
    }
    migrator.registerMigration("v2") { db in
      // Videos removed after --keep; clients' turns and counts found by index.
      try db.execute(
        sql: """
          ALTER TABLE renders ADD COLUMN expired INTEGER NOT NULL DEFAULT 0;
          CREATE INDEX renders_client ON renders (client, status, started);
          CREATE INDEX templates_client ON templates (client);
          """)
    }
    try migrator.migrate(pool)
  }

  public func insert(_ records: [RenderRecord], limit: Int) async throws -> Bool {
    try await pool.write { db in
      guard let who = records.first?.client else { return true }
      let pending =
        try Int.fetchOne(
          db, sql: "SELECT count(*) FROM renders WHERE client = ? AND status IN ('queued', 'rendering')",
          arguments: [who]) ?? 0
      guard pending + records.count <= limit else { return false }
      for r in records {
        try db.execute(
          sql: """
            INSERT INTO renders (id, status, progress, edit, client, callback, template, created)
            VALUES (?, ?, 0, ?, ?, ?, ?, ?)
            """,
          arguments: [r.id, r.status.rawValue, r.edit, r.client, r.callback, r.template, r.created])
      }
      return true
    }
  }

  public func render(_ id: String) async throws -> RenderRecord? {
    try await pool.read { db in try Row.fetchOne(db, sql: "SELECT * FROM renders WHERE id = ?", arguments: [id]) }
      .map(Self.record)
  }

  public func renders(limit: Int, client: String) async throws -> [RenderRecord] {
    try await pool.read { db in
      try Row.fetchAll(
        db, sql: "SELECT * FROM renders WHERE client = ? ORDER BY seq DESC LIMIT ?", arguments: [client, limit])
    }.map(Self.record)
  }

  public func claim(owner: String, lease: Double, running: Int, attempts: Int) async throws -> RenderRecord? {
    let now = Self.now
    return try await pool.write { db in
      // Queued, or left by a server that fell silent for the lease.
      func takeable(_ r: String = "") -> String {
        "(\(r)status = 'queued' OR (\(r)status = 'rendering' AND \(r)heartbeat < \(now) - :lease))"
      }
      try db.execute(
        sql: """
          UPDATE renders SET status = 'failed', error = :message, finished = \(now), owner = NULL
          WHERE \(takeable()) AND attempts >= :attempts
          """,
        arguments: ["lease": lease, "attempts": attempts, "message": attemptsExhausted(attempts)])
      return try Row.fetchOne(
        db,
        sql: """
          UPDATE renders SET status = 'rendering', owner = :owner, started = \(now), heartbeat = \(now),
            progress = 0, attempts = attempts + 1
          WHERE seq = (SELECT r.seq FROM renders r WHERE \(takeable("r."))
            AND (SELECT count(*) FROM renders x WHERE x.client = r.client AND x.status = 'rendering'
              AND x.heartbeat >= \(now) - :lease) < :running
            ORDER BY (SELECT max(x.started) FROM renders x WHERE x.client = r.client) IS NOT NULL,
              (SELECT max(x.started) FROM renders x WHERE x.client = r.client), r.seq
            LIMIT 1)
          RETURNING *
          """, arguments: ["owner": owner, "lease": lease, "running": running])
    }.map(Self.record)
  }

  public func heartbeat(owner: String) async throws -> Set<Attempt.Number> {
    try await pool.write { db in
      try Row.fetchAll(
        db,
        sql:
          "UPDATE renders SET heartbeat = \(Self.now) WHERE owner = ? AND status = 'rendering' RETURNING id, attempts",
        arguments: [owner]
      ).reduce(into: Set<Attempt.Number>()) { $0.insert(Attempt.Number(id: $1["id"], attempt: $1["attempts"])) }
    }
  }

  /// The condition that `attempt` holds the render.
  private static let held = "id = :id AND status = 'rendering' AND owner = :owner AND attempts = :attempt"

  @discardableResult public func progress(_ id: String, _ value: Double, attempt: Attempt) async throws -> Bool {
    try await pool.write { db in
      try db.execute(
        sql: "UPDATE renders SET progress = max(progress, :value) WHERE \(Self.held)",
        arguments: ["value": value, "id": id, "owner": attempt.owner, "attempt": attempt.number])
      return db.changesCount > 0
    }
  }

  public func finish(_ id: String, output: String?, error: String?, path: String?, attempt: Attempt) async throws
    -> Bool
  {
    try await pool.write { db in
      try db.execute(
        sql: """
          UPDATE renders SET status = :status, progress = CASE WHEN :error IS NULL THEN 1 ELSE progress END,
          output = :output, error = :error, errorPath = :path, finished = \(Self.now) WHERE \(Self.held)
          """,
        arguments: [
          "status": error == nil ? "done" : "failed", "error": error, "output": output, "path": path, "id": id,
          "owner": attempt.owner, "attempt": attempt.number,
        ])
      return db.changesCount > 0
    }
  }

  public func cancel(_ id: String) async throws -> RenderStatus? {
    try await pool.write { db in
      guard let status = try String.fetchOne(db, sql: "SELECT status FROM renders WHERE id = ?", arguments: [id])
      else { return nil }
      try db.execute(
        sql: """
          UPDATE renders SET status = 'canceled', finished = \(Self.now)
          WHERE id = ? AND status IN ('queued', 'rendering')
          """, arguments: [id])
      return RenderStatus(rawValue: status)
    }
  }

  public func requeue(owner: String?) async throws -> Int {
    try await pool.write { db in
      if let owner {
        // A server shutting down: the start it gave up does not count against the render.
        try db.execute(
          sql: """
            UPDATE renders SET status = 'queued', progress = 0, owner = NULL, attempts = max(attempts - 1, 0)
            WHERE status = 'rendering' AND owner = ?
            """,
          arguments: [owner])
      } else {
        try db.execute(
          sql: "UPDATE renders SET status = 'queued', progress = 0, owner = NULL WHERE status = 'rendering'")
      }
      return db.changesCount
    }
  }

  public func counts() async throws -> [RenderStatus: Int] {
    try await pool.read { db in
      var counts: [RenderStatus: Int] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT status, count(*) AS n FROM renders GROUP BY status") {
        if let status = RenderStatus(rawValue: row["status"]) { counts[status] = row["n"] }
      }
      return counts
    }
  }

  public func insert(_ template: TemplateRecord, limit: Int) async throws -> Bool {
    try await pool.write { db in
      let kept =
        try Int.fetchOne(db, sql: "SELECT count(*) FROM templates WHERE client = ?", arguments: [template.client]) ?? 0
      guard kept < limit else { return false }
      try db.execute(
        sql: "INSERT INTO templates (id, edit, client, created) VALUES (?, ?, ?, ?)",
        arguments: [template.id, template.edit, template.client, template.created])
      return true
    }
  }

  public func template(_ id: String) async throws -> TemplateRecord? {
    try await pool.read { db in
      try Row.fetchOne(db, sql: "SELECT * FROM templates WHERE id = ?", arguments: [id]).map {
        TemplateRecord(id: $0["id"], edit: $0["edit"], client: $0["client"], created: $0["created"])
      }
    }
  }

  public func deleteTemplate(_ id: String) async throws {
    try await pool.write { db in try db.execute(sql: "DELETE FROM templates WHERE id = ?", arguments: [id]) }
  }

  public func expire(keep: Double) async throws -> [String] {
    try await pool.write { db in
      try String.fetchAll(
        db,
        sql: """
          UPDATE renders SET expired = 1
          WHERE status = 'done' AND expired = 0 AND output IS NOT NULL AND finished < \(Self.now) - ?
          RETURNING output
          """, arguments: [keep])
    }
  }

  static func record(_ row: Row) -> RenderRecord {
    var r = RenderRecord(
      id: row["id"], edit: row["edit"], client: row["client"], callback: row["callback"], template: row["template"],
      created: row["created"])
    r.status = RenderStatus(rawValue: row["status"]) ?? .failed
    r.progress = row["progress"]
    r.error = row["error"]
    r.errorPath = row["errorPath"]
    r.output = row["output"]
    r.started = row["started"]
    r.finished = row["finished"]
    r.attempts = row["attempts"]
    r.expired = (row["expired"] as Int?) == 1
    return r
  }
}
