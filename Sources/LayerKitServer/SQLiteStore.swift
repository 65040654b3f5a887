import Foundation
import GRDB

/// The server's renders and templates in one SQLite file (`--state`/layerkit.sqlite), written
/// ahead (WAL) and synced at each commit: a server killed at any moment loses nothing it
/// answered for.
public final class SQLiteStore: RenderStore {
  private let pool: DatabasePool

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

  public func claim(owner: String, now: Double, lease: Double) async throws -> RenderRecord? {
    try await pool.write { db in
      try Row.fetchOne(
        db,
        sql: """
          UPDATE renders SET status = 'rendering', owner = ?, started = ?, heartbeat = ?, progress = 0,
            attempts = attempts + 1
          WHERE seq = (SELECT seq FROM renders WHERE status = 'queued'
            OR (status = 'rendering' AND heartbeat < ?) ORDER BY seq LIMIT 1) RETURNING *
          """, arguments: [owner, now, now, now - lease])
    }.map(Self.record)
  }

  public func heartbeat(owner: String, now: Double) async throws {
    try await pool.write { db in
      try db.execute(
        sql: "UPDATE renders SET heartbeat = ? WHERE owner = ? AND status = 'rendering'", arguments: [now, owner])
    }
  }

  @discardableResult public func progress(_ id: String, _ value: Double) async throws -> Bool {
    try await pool.write { db in
      try db.execute(
        sql: "UPDATE renders SET progress = max(progress, ?) WHERE id = ? AND status = 'rendering'",
        arguments: [value, id])
      return db.changesCount > 0
    }
  }

  public func finish(_ id: String, output: String?, error: String?, path: String?, now: Double) async throws {
    try await pool.write { db in
      try db.execute(
        sql: """
          UPDATE renders SET status = ?, progress = CASE WHEN ? IS NULL THEN 1 ELSE progress END, output = ?,
          error = ?, errorPath = ?, finished = ? WHERE id = ? AND status = 'rendering'
          """,
        arguments: [error == nil ? "done" : "failed", error, output, error, path, now, id])
    }
  }

  public func cancel(_ id: String, now: Double) async throws -> RenderStatus? {
    try await pool.write { db in
      guard let status = try String.fetchOne(db, sql: "SELECT status FROM renders WHERE id = ?", arguments: [id])
      else { return nil }
      try db.execute(
        sql: """
          UPDATE renders SET status = 'canceled', finished = ?
          WHERE id = ? AND status IN ('queued', 'rendering')
          """, arguments: [now, id])
      return RenderStatus(rawValue: status)
    }
  }

  public func requeue(owner: String?) async throws -> Int {
    try await pool.write { db in
      if let owner {
        try db.execute(
          sql: "UPDATE renders SET status = 'queued', progress = 0 WHERE status = 'rendering' AND owner = ?",
          arguments: [owner])
      } else {
        try db.execute(sql: "UPDATE renders SET status = 'queued', progress = 0 WHERE status = 'rendering'")
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

  public func insert(_ template: TemplateRecord) async throws {
    try await pool.write { db in
      try db.execute(
        sql: "INSERT INTO templates (id, edit, client, created) VALUES (?, ?, ?, ?)",
        arguments: [template.id, template.edit, template.client, template.created])
    }
  }

  public func template(_ id: String) async throws -> TemplateRecord? {
    try await pool.read { db in
      try Row.fetchOne(db, sql: "SELECT * FROM templates WHERE id = ?", arguments: [id]).map {
        TemplateRecord(id: $0["id"], edit: $0["edit"], client: $0["client"], created: $0["created"])
      }
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
    return r
  }
}
