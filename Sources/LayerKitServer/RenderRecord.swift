import Foundation

/// Where a render stands. A render is queued, then rendering, then done, failed or canceled; a
/// server that stops while rendering it (killed, or shut down) leaves it to be rendered again.
public enum RenderStatus: String, Codable, Sendable, CaseIterable {
  case queued, rendering, done, failed, canceled

  /// Whether nothing more happens to it.
  public var isFinal: Bool { self == .done || self == .failed || self == .canceled }
}

/// One render as the server keeps it: the edit it renders (placeholders merged), who asked, and
/// how far it is.
public struct RenderRecord: Codable, Sendable, Equatable {
  public var id: String
  public var status: RenderStatus
  /// 0…1.
  public var progress: Double
  /// Why it failed, in the command line's words.
  public var error: String?
  /// Where in the edit the fault is (`clips[0].layers[1].path`), when it is in the edit.
  public var errorPath: String?
  /// The finished video's file name in the server's outputs folder.
  public var output: String?
  /// The edit, in editly's form, as it is rendered.
  public var edit: String
  /// Who asked: the token's holder, or the address of a client on loopback.
  public var client: String
  /// A URL told when the render ends.
  public var callback: String?
  /// The template it was made from.
  public var template: String?
  /// Seconds since 1970 (the server's clock: when it was asked for, started and ended).
  public var created: Double
  public var started: Double?
  public var finished: Double?
  /// How many times a server has started it (more than once after a server stopped mid-render);
  /// the number of the attempt that holds it while it renders.
  public var attempts: Int
  /// Its video was kept for `--keep` seconds and is removed.
  public var expired = false

  public init(id: String, edit: String, client: String, callback: String?, template: String?, created: Double) {
    self.id = id
    self.status = .queued
    self.progress = 0
    self.edit = edit
    self.client = client
    self.callback = callback
    self.template = template
    self.created = created
    self.attempts = 0
  }
}

/// A stored edit with `{{ NAME }}` placeholders, rendered once for each row of values.
public struct TemplateRecord: Codable, Sendable, Equatable {
  public var id: String
  public var edit: String
  /// Whose it is.
  public var client: String
  public var created: Double
}

/// One start of a render by one server: only the attempt that holds the render (its server's
/// name and the attempt's number both match the store's) may say how far it is, end it, or have
/// its video kept; an attempt overtaken (its server fell silent and another took the render) is
/// refused all three.
public struct Attempt: Sendable, Hashable {
  public var owner: String
  public var number: Int

  public init(owner: String, number: Int) {
    self.owner = owner
    self.number = number
  }
}

/// What the server keeps: its renders (the queue among them) and its templates. Every call is
/// one transaction, and every time a lease is judged by is the database's own clock, so servers
/// whose clocks differ agree on whose a render is. `claim` takes a queued render for one server
/// only — or one whose server has stopped telling that it renders it (`heartbeat`) for longer
/// than the lease — taking turns between clients.
public protocol RenderStore: Sendable {
  /// Queues `records` (all of one client), all or none: none when that would leave more than
  /// `limit` of the client's renders queued or rendering (checked in the same transaction).
  /// - Returns: whether they were queued.
  func insert(_ records: [RenderRecord], limit: Int) async throws -> Bool
  func render(_ id: String) async throws -> RenderRecord?
  /// The newest `limit` renders of `client`, newest first.
  func renders(limit: Int, client: String) async throws -> [RenderRecord]
  /// Fails the renders already started `attempts` times (each of those starts ended with its
  /// server), then takes one for `owner`: queued, or left by a server silent for `lease`
  /// seconds, of a client with fewer than `running` renders rendering — the client whose last
  /// render started longest ago first (fair turns), then the oldest of its renders. Nil when
  /// there is none.
  func claim(owner: String, lease: Double, running: Int, attempts: Int) async throws -> RenderRecord?
  /// Says that `owner` still renders what it holds.
  /// - Returns: the attempts it holds (a render canceled or taken by another is not among them).
  func heartbeat(owner: String) async throws -> Set<Attempt.Number>
  /// Sets a render's progress (never lower than it was); false when `attempt` no longer holds it.
  @discardableResult func progress(_ id: String, _ value: Double, attempt: Attempt) async throws -> Bool
  /// Ends a render: done with `output`, or failed with `error` (at `path`); false when
  /// `attempt` no longer holds it (nothing is changed then).
  func finish(_ id: String, output: String?, error: String?, path: String?, attempt: Attempt) async throws -> Bool
  /// Cancels a queued or rendering render; its status before, nil when there is no such render.
  func cancel(_ id: String) async throws -> RenderStatus?
  /// Puts the renders `owner` (nil: anyone) was rendering back in the queue: a server that
  /// starts again after it was killed, or one shutting down.
  func requeue(owner: String?) async throws -> Int
  /// How many renders are in each status.
  func counts() async throws -> [RenderStatus: Int]
  /// Keeps `template` unless its client keeps `limit` already.
  /// - Returns: whether it was kept.
  func insert(_ template: TemplateRecord, limit: Int) async throws -> Bool
  func template(_ id: String) async throws -> TemplateRecord?
  /// Forgets a template (the renders made from it stay).
  func deleteTemplate(_ id: String) async throws
  /// Marks the videos of renders that ended more than `keep` seconds ago as expired.
  /// - Returns: their file names, to be removed.
  func expire(keep: Double) async throws -> [String]
}

extension Attempt {
  /// A render's id and the number of the attempt that holds it.
  public struct Number: Sendable, Hashable {
    public var id: String
    public var attempt: Int

    public init(id: String, attempt: Int) {
      self.id = id
      self.attempt = attempt
    }
  }
}

/// The words a render fails with when it was started `n` times and each start ended with its
/// server.
func attemptsExhausted(_ n: Int) -> String {
  "the render was started \(n) times and each time its server stopped (killed or out of memory); it is not tried again"
}
