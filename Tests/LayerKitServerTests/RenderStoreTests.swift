import Foundation
import LayerKitServer
import XCTest

/// The store's promises, in process: a render is held by one attempt at a time and only that
/// attempt may say how far it is or end it; clients take turns; a render that keeps ending
/// with its server fails after its attempts; finished videos expire. SQLite here; the same
/// body runs against the tests' PostgreSQL where `Tools/setup.sh --tests` started it.
final class RenderStoreTests: XCTestCase {
  func record(_ id: String, client: String, at time: Double) -> RenderRecord {
    RenderRecord(id: id, edit: "{}", client: client, callback: nil, template: nil, created: time)
  }

  func sqlite() throws -> SQLiteStore {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
    return try SQLiteStore(path: folder.appendingPathComponent("layerkit.sqlite").path)
  }

  func testOnlyTheAttemptThatHoldsARenderMayWriteIt() async throws {
    try await fencing(try sqlite())
  }

  func testClientsTakeTurns() async throws {
    try await turns(try sqlite())
  }

  func testARenderStartedItsAttemptsTimesFails() async throws {
    try await attempts(try sqlite())
  }

  func testThePostgreSQLStoreKeepsTheSamePromises() async throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/postgres-url")
    // The database of the store's tests (Tools/setup.sh makes it beside the servers' own): a
    // claim here must not take a render of the server tests running at the same time.
    guard let text = try? String(contentsOf: url, encoding: .utf8),
      case let servers = text.trimmingCharacters(in: .whitespacesAndNewlines), servers.hasSuffix("/layerkit"),
      let address = PostgresStore.Address(servers + "_store")
    else { return XCTFail("no PostgreSQL for the tests: run bash Tools/setup.sh --tests") }
    let store = PostgresStore(address)
    let running = Task { try await store.run() }
    defer { running.cancel() }
    // Another test's tables may be there: this one's renders have ids of their own.
    try await fencing(store, prefix: UUID().uuidString)
  }

  /// Attempt 1 is overtaken when its server falls silent past the lease; from then on its
  /// progress and its end are refused, and attempt 2's are taken.
  func fencing(_ store: any RenderStore, prefix: String = "") async throws {
    let id = prefix + "r1"
    let v1 = try await store.insert([record(id, client: prefix + "a", at: 1)], limit: 10)
    XCTAssertTrue(v1)
    let first = try await claimed(store, owner: "one", id: id, lease: 30)
    XCTAssertEqual(first.attempts, 1)
    let one = Attempt(owner: "one", number: 1)
    let v2 = try await store.progress(id, 0.2, attempt: one)
    XCTAssertTrue(v2)
    let v3 = try await store.heartbeat(owner: "one").contains(Attempt.Number(id: id, attempt: 1))
    XCTAssertTrue(v3)
    // The lease judged by the database's clock: 0.2 s of silence is past a lease of 0.1 s.
    try await Task.sleep(for: .milliseconds(200))
    let second = try await claimed(store, owner: "two", id: id, lease: 0.1)
    XCTAssertEqual(second.attempts, 2)
    let two = Attempt(owner: "two", number: 2)
    let overtakenProgress = try await store.progress(id, 0.5, attempt: one)
    XCTAssertFalse(overtakenProgress)
    let v4 = try await store.heartbeat(owner: "one").contains(Attempt.Number(id: id, attempt: 1))
    XCTAssertFalse(v4)
    let overtakenEnd = try await store.finish(id, output: "\(id)-1.mp4", error: nil, path: nil, attempt: one)
    XCTAssertFalse(overtakenEnd)
    let v5 = try await store.progress(id, 0.5, attempt: two)
    XCTAssertTrue(v5)
    let v6 = try await store.finish(id, output: "\(id)-2.mp4", error: nil, path: nil, attempt: two)
    XCTAssertTrue(v6)
    let done = try await store.render(id)
    XCTAssertEqual(done?.status, .done)
    XCTAssertEqual(done?.output, "\(id)-2.mp4")
  }

  /// Claims until `id` is the one taken (other tests' renders may share a PostgreSQL queue).
  func claimed(_ store: any RenderStore, owner: String, id: String, lease: Double) async throws -> RenderRecord {
    for _ in 0..<50 {
      guard let r = try await store.claim(owner: owner, lease: lease, running: 100, attempts: 3) else { break }
      if r.id == id { return r }
    }
    throw XCTSkip("render \(id) was not claimed")
  }

  /// One client's many queued renders do not starve another's first: after the first client's
  /// oldest, the second client's one comes next, then the rest in order; and a client at its
  /// `running` bound waits while another's render is taken.
  func turns(_ store: any RenderStore) async throws {
    let many = (0..<5).map { record("a\($0)", client: "a", at: Double($0)) }
    let v7 = try await store.insert(many, limit: 10)
    XCTAssertTrue(v7)
    let v8 = try await store.insert([record("b0", client: "b", at: 10)], limit: 10)
    XCTAssertTrue(v8)
    var order: [String] = []
    while let r = try await store.claim(owner: "s", lease: 30, running: 100, attempts: 3) {
      order.append(r.id)
      _ = try await store.finish(r.id, output: nil, error: "x", path: nil, attempt: Attempt(owner: "s", number: 1))
      try await Task.sleep(for: .milliseconds(5))
    }
    XCTAssertEqual(order, ["a0", "b0", "a1", "a2", "a3", "a4"])
    let v9 = try await store.insert([record("a5", client: "a", at: 20), record("a6", client: "a", at: 21)], limit: 10)
    XCTAssertTrue(v9)
    let v10 = try await store.insert([record("b1", client: "b", at: 22)], limit: 10)
    XCTAssertTrue(v10)
    let first = try await store.claim(owner: "s", lease: 30, running: 1, attempts: 3)
    let second = try await store.claim(owner: "s", lease: 30, running: 1, attempts: 3)
    let third = try await store.claim(owner: "s", lease: 30, running: 1, attempts: 3)
    XCTAssertEqual(Set([first?.id, second?.id]), ["a5", "b1"], "one each: a at its bound of one running")
    XCTAssertNil(third, "a6 waits for a5")
  }

  /// Started `attempts` times, each start ended with its server (requeued after a kill): the
  /// render fails naming why instead of being taken again.
  func attempts(_ store: any RenderStore) async throws {
    let v11 = try await store.insert([record("r", client: "a", at: 1)], limit: 10)
    XCTAssertTrue(v11)
    for n in 1...2 {
      let r = try await store.claim(owner: "s", lease: 30, running: 10, attempts: 2)
      XCTAssertEqual(r?.attempts, n)
      let v12 = try await store.requeue(owner: nil)
      XCTAssertEqual(v12, 1, "the server killed; started again")
    }
    let v13 = try await store.claim(owner: "s", lease: 30, running: 10, attempts: 2)
    XCTAssertNil(v13)
    let failed = try await store.render("r")
    XCTAssertEqual(failed?.status, .failed)
    XCTAssertTrue(failed?.error?.contains("started 2 times") ?? false, "\(String(describing: failed?.error))")
    // A graceful stop gives its start back.
    let v14 = try await store.insert([record("g", client: "a", at: 2)], limit: 10)
    XCTAssertTrue(v14)
    _ = try await store.claim(owner: "s", lease: 30, running: 10, attempts: 2)
    let v15 = try await store.requeue(owner: "s")
    XCTAssertEqual(v15, 1)
    let v16 = try await store.render("g")?.attempts
    XCTAssertEqual(v16, 0)
  }
}
