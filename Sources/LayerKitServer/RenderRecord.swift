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
  /// How many times a server has started it (more than once after a server stopped mid-render).
  public var attempts: Int

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

/// What the server keeps: its renders (the queue among them) and its templates. Every call is
/// one transaction; `claim` takes a queued render for one server only — or one whose server has
/// stopped telling that it renders it (`heartbeat`) for longer than the lease.
public protocol RenderStore: Sendable {
  /// Queues `records` (all of one client), all or none: none when that would leave more than
  /// `limit` of the client's renders queued or rendering (checked in the same transaction).
  /// - Returns: whether they were queued.
  func insert(_ records: [RenderRecord], limit: Int) async throws -> Bool
  func render(_ id: String) async throws -> RenderRecord?
  /// The newest `limit` renders of `client`, newest first.
  func renders(limit: Int, client: String) async throws -> [RenderRecord]
  /// The oldest queued render (or one left by a server silent for `lease` seconds), now
  /// rendering for `owner`; nil when there is none.
  func claim(owner: String, now: Double, lease: Double) async throws -> RenderRecord?
  /// Says that `owner` still renders what it took.
  func heartbeat(owner: String, now: Double) async throws
  /// Sets a rendering render's progress (never lower than it was); false when it is no longer
  /// rendering (canceled).
  @discardableResult func progress(_ id: String, _ value: Double) async throws -> Bool
  /// Ends a rendering render: done with `output`, or failed with `error` (at `path`).
  func finish(_ id: String, output: String?, error: String?, path: String?, now: Double) async throws
  /// Cancels a queued or rendering render; its status before, nil when there is no such render.
  func cancel(_ id: String, now: Double) async throws -> RenderStatus?
  /// Puts the renders `owner` (nil: anyone) was rendering back in the queue: a server that
  /// starts again after it was killed, or one shutting down.
  func requeue(owner: String?) async throws -> Int
  /// How many renders are in each status.
  func counts() async throws -> [RenderStatus: Int]
  func insert(_ template: TemplateRecord) async throws
  func template(_ id: String) async throws -> TemplateRecord?
}
