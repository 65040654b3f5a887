import Foundation
import Hummingbird
import LayerKit

/// The HTTP API (described by `Web/openapi.json`, served at `/openapi.json`) and the page.
struct Routes: Sendable {
  let store: any RenderStore
  let worker: RenderWorker
  let configuration: ServerConfiguration
  /// The event streams open now, for `--limits streams=…`.
  let streams = Locked<[String: Int]>([:])

  func add(to router: Router<BasicRequestContext>) {
    router.add(middleware: RequestCheck(configuration: configuration))
    router.add(middleware: MethodCheck())
    router.add(middleware: TokenCheck(configuration: configuration))
    router.get("/") { _, _ in try Self.resource("index.html", type: "text/html; charset=utf-8") }
    router.get("/openapi.json") { _, _ in try Self.resource("openapi.json", type: "application/json") }
    router.get("/healthz") { _, _ in try JSON.response(["status": "ok"]) }
    router.get("/metrics") { _, _ in try await metrics() }
    router.post("/v1/renders") { request, context in try await submit(request, context: context) }
    router.get("/v1/renders") { request, _ in try await list(request) }
    router.get("/v1/renders/:id") { request, context in try JSON.response(view(try await record(request, context))) }
    router.delete("/v1/renders/:id") { request, context in try await cancel(try await record(request, context).id) }
    router.get("/v1/renders/:id/events") { request, context in try events(try await record(request, context)) }
    router.get("/v1/renders/:id/output") { request, context in try await output(request, context: context) }
    router.post("/v1/templates") { request, context in try await addTemplate(request, context: context) }
    router.get("/v1/templates/:id") { request, context in
      let t = try await template(request, context)
      return JSON.data(Data(#"{"id":\#(Self.quoted(t.id)),"edit":\#(t.edit)}"#.utf8))
    }
    router.delete("/v1/templates/:id") { request, context in
      try await store.deleteTemplate(try await template(request, context).id)
      return Response(status: .noContent)
    }
    router.post("/v1/templates/:id/renders") { request, context in try await batch(request, context: context) }
  }

  // MARK: Renders

  /// A render as the API shows it.
  struct View: Encodable {
    var id: String
    var status: RenderStatus
    var progress: Double
    var error: String?
    var path: String?
    var output: String?
    var template: String?
    var attempts: Int
  }

  func view(_ r: RenderRecord) -> View {
    View(
      id: r.id, status: r.status, progress: (r.progress * 1000).rounded() / 1000, error: r.error, path: r.errorPath,
      output: r.output == nil || r.expired ? nil : "/v1/renders/\(r.id)/output", template: r.template,
      attempts: r.attempts)
  }

  /// The render the path names, when it is the asking client's (another's is not there for it).
  func record(_ request: Request, _ context: BasicRequestContext) async throws -> RenderRecord {
    guard let r = try await store.render(try context.parameters.require("id")), r.client == client(request) else {
      throw APIError(.notFound, "no such render")
    }
    return r
  }

  /// The template the path names, when it is the asking client's.
  func template(_ request: Request, _ context: BasicRequestContext) async throws -> TemplateRecord {
    guard let t = try await store.template(try context.parameters.require("id")), t.client == client(request) else {
      throw APIError(.notFound, "no such template")
    }
    return t
  }

  /// The JSON object of a request's body: `application/json` only (a browser's form or
  /// `text/plain` post from another site is refused before its body is read).
  func body(_ request: Request, context: BasicRequestContext) async throws -> [String: Any] {
    let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
    guard type?.lowercased() == "application/json" else {
      throw APIError(.unsupportedMediaType, "the body must be JSON, sent as Content-Type: application/json")
    }
    var request = request
    let buffer: ByteBuffer
    do {
      buffer = try await request.collectBody(upTo: configuration.maxBody)
    } catch {
      throw APIError(.contentTooLarge, "the body is larger than \(configuration.maxBody) bytes")
    }
    guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: buffer)) as? [String: Any] else {
      throw APIError(.badRequest, "the body is not a JSON object")
    }
    return object
  }

  /// Who asks: the client whose token the request carries (TokenCheck let it in), or loopback.
  func client(_ request: Request) -> String { configuration.client(token: TokenCheck.given(request)) ?? "" }

  func submit(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let body = try await body(request, context: context)
    for key in body.keys where !["edit", "merge", "callback"].contains(key) {
      throw APIError(.badRequest, "unknown key", path: key)
    }
    let values = try EditRequest.values(body["merge"], at: "merge")
    let edit = try EditRequest.edit(body["edit"], values: values, at: "edit", configuration: configuration)
    let callback = try EditRequest.callback(body["callback"], at: "callback", configuration: configuration)
    let who = client(request)
    let record = RenderRecord(
      id: UUID().uuidString.lowercased(), edit: edit, client: who, callback: callback, template: nil,
      created: Date().timeIntervalSince1970)
    guard try await store.insert([record], limit: configuration.limits.queued) else {
      throw APIError(
        .tooManyRequests, "\(configuration.limits.queued) renders are already queued or rendering (--limits queued)")
    }
    worker.wake()
    return try JSON.response(
      ["id": record.id, "status": "queued"], status: .accepted, headers: [.location: "/v1/renders/\(record.id)"])
  }

  func list(_ request: Request) async throws -> Response {
    let given = request.uri.queryParameters[values: "limit"]
    guard given.count <= 1, let limit = given.isEmpty ? 100 : Int(given[0]), (1...1000).contains(limit) else {
      throw APIError(.badRequest, "expected one whole number from 1 to 1000", path: "limit")
    }
    return try JSON.response(["renders": try await store.renders(limit: limit, client: client(request)).map(view)])
  }

  func cancel(_ id: String) async throws -> Response {
    guard let before = try await store.cancel(id) else {
      throw APIError(.notFound, "no such render")
    }
    if before == .rendering { worker.cancel(id) }
    guard !before.isFinal else { throw APIError(.conflict, "the render is \(before.rawValue) already") }
    return try JSON.response(view(try await store.render(id)!))
  }

  /// Progress as Server-Sent Events: one `progress` event a change, the last one `end`. At most
  /// `--limits streams` open at once, `streams-per-client` of one client's (429 past them).
  func events(_ first: RenderRecord) throws -> Response {
    let (store, id, streams, who, limits) = (store, first.id, streams, first.client, configuration.limits)
    let opened = streams.withLock { open in
      guard open.values.reduce(0, +) < limits.streams, open[who, default: 0] < limits.streamsPerClient else {
        return false
      }
      open[who, default: 0] += 1
      return true
    }
    guard opened else {
      throw APIError(.tooManyRequests, "too many event streams open (--limits streams, streams-per-client)")
    }
    let body = ResponseBody { writer in
      defer { streams.withLock { $0[who, default: 1] -= 1 } }
      var last: RenderRecord?
      while true {
        guard let r = try await store.render(id) else { break }
        if r != last {
          let data = try JSONEncoder().encode(view(r))
          let kind = r.status.isFinal ? "end" : "progress"
          try await writer.write(
            ByteBuffer(string: "event: \(kind)\ndata: \(String(decoding: data, as: UTF8.self))\n\n"))
          last = r
        }
        if r.status.isFinal { break }
        try await Task.sleep(for: .milliseconds(200))
      }
      try await writer.finish(nil)
    }
    return Response(
      status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
  }

  /// The finished video, whole or the byte range asked for (a `<video>` element seeks in it).
  func output(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let r = try await record(request, context)
    guard r.status == .done, let name = r.output else {
      throw APIError(.conflict, "the render is \(r.status.rawValue); its video is there when it is done")
    }
    guard !r.expired else { throw APIError(.gone, "the render's video was kept its time (--keep) and removed") }
    let path = (configuration.outputs as NSString).appendingPathComponent(name)
    guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > 0 else {
      throw APIError(.gone, "the render's video is no longer kept")
    }
    var headers: HTTPFields = [.contentType: Self.mediaType(name), .acceptRanges: "bytes"]
    let fileIO = FileIO()
    guard let asked = request.headers[.range] else {
      headers[.contentLength] = String(size)
      return Response(status: .ok, headers: headers, body: try await fileIO.loadFile(path: path, context: context))
    }
    guard let range = Self.byteRange(asked, size: size) else {
      headers[.contentRange] = "bytes */\(size)"
      return Response(status: .rangeNotSatisfiable, headers: headers)
    }
    headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
    headers[.contentLength] = String(range.count)
    return Response(
      status: .partialContent, headers: headers,
      body: try await fileIO.loadFile(path: path, range: range, context: context))
  }

  /// `bytes=A-B`, `bytes=A-` or `bytes=-N` within a file of `size` bytes; nil when it is none
  /// of those or lies outside the file (several ranges are not served: the first is taken).
  static func byteRange(_ header: String, size: Int) -> ClosedRange<Int>? {
    guard header.hasPrefix("bytes="), let first = header.dropFirst(6).split(separator: ",").first else { return nil }
    let parts = first.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2 else { return nil }
    let (a, b) = (Int(parts[0]), Int(parts[1]))
    switch (a, b) {
    case (let a?, let b?) where a <= b && a < size: return a...min(b, size - 1)
    case (let a?, nil) where parts[1].isEmpty && a < size: return a...(size - 1)
    case (nil, let n?) where parts[0].isEmpty && n > 0: return max(0, size - n)...(size - 1)
    default: return nil
    }
  }

  static func mediaType(_ name: String) -> String {
    switch (name as NSString).pathExtension.lowercased() {
    case "mp4": "video/mp4"
    case "webm": "video/webm"
    case "mov": "video/quicktime"
    case "mkv": "video/x-matroska"
    case "gif": "image/gif"
    default: "application/octet-stream"
    }
  }

  // MARK: Templates

  func addTemplate(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let body = try await body(request, context: context)
    for key in body.keys where !["edit", "sample"].contains(key) {
      throw APIError(.badRequest, "unknown key", path: key)
    }
    guard let edit = body["edit"] as? [String: Any] else {
      throw APIError(.badRequest, "expected an edit in editly's form (an object)", path: "edit")
    }
    // Checked as a render would be, its placeholders filled with a sample row where given.
    if let sample = body["sample"] {
      _ = try EditRequest.edit(
        edit, values: try EditRequest.values(sample, at: "sample"), at: "edit", configuration: configuration)
    }
    let data = try JSONSerialization.data(withJSONObject: edit, options: [.sortedKeys])
    let template = TemplateRecord(
      id: UUID().uuidString.lowercased(), edit: String(decoding: data, as: UTF8.self), client: client(request),
      created: Date().timeIntervalSince1970)
    guard try await store.insert(template, limit: configuration.limits.templates) else {
      throw APIError(
        .tooManyRequests,
        "\(configuration.limits.templates) templates are kept already (--limits templates); DELETE one first")
    }
    return try JSON.response(
      ["id": template.id], status: .created, headers: [.location: "/v1/templates/\(template.id)"])
  }

  /// One render for each row of values, all queued or none.
  func batch(_ request: Request, context: BasicRequestContext) async throws -> Response {
    let template = try await template(request, context)
    let body = try await body(request, context: context)
    for key in body.keys where !["rows", "callback"].contains(key) {
      throw APIError(.badRequest, "unknown key", path: key)
    }
    guard let rows = body["rows"] as? [Any], !rows.isEmpty else {
      throw APIError(.badRequest, "expected an array of rows of placeholder values", path: "rows")
    }
    guard rows.count <= configuration.limits.rows else {
      throw APIError(.badRequest, "at most \(configuration.limits.rows) rows at once (--limits rows)", path: "rows")
    }
    let who = client(request)
    let callback = try EditRequest.callback(body["callback"], at: "callback", configuration: configuration)
    let edit = try JSONSerialization.jsonObject(with: Data(template.edit.utf8))
    let now = Date().timeIntervalSince1970
    var records: [RenderRecord] = []
    var bytes = 0
    for (i, row) in rows.enumerated() {
      let values = try EditRequest.values(row, at: "rows[\(i)]")
      let merged = try EditRequest.edit(edit, values: values, at: "rows[\(i)]", configuration: configuration)
      // Each row's edit is bounded; so are all of them together, held until they are queued.
      bytes += merged.utf8.count
      guard bytes <= configuration.limits.batchBytes else {
        throw APIError(
          .contentTooLarge,
          "merged, the rows' edits pass \(configuration.limits.batchBytes) bytes together (--limits batch-bytes)",
          path: "rows[\(i)]")
      }
      records.append(
        RenderRecord(
          id: UUID().uuidString.lowercased(), edit: merged, client: who, callback: callback, template: template.id,
          created: now))
    }
    guard try await store.insert(records, limit: configuration.limits.queued) else {
      throw APIError(
        .tooManyRequests, "at most \(configuration.limits.queued) renders queued or rendering (--limits queued)")
    }
    worker.wake()
    return try JSON.response(
      ["renders": records.map { ["id": $0.id, "status": "queued"] }], status: .accepted)
  }

  // MARK: Metrics

  /// Prometheus's text format (`ServerMetrics`).
  func metrics() async throws -> Response {
    let text = worker.metrics.text(counts: try await store.counts())
    return Response(
      status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  // MARK: Files

  static func resource(_ name: String, type: String) throws -> Response {
    guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Web"),
      let data = FileManager.default.contents(atPath: url.path)
    else { throw APIError(.internalServerError, "the server's \(name) is missing from its resources") }
    return Response(status: .ok, headers: [.contentType: type], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }

  static func quoted(_ s: String) -> String {
    String(decoding: (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8), as: UTF8.self)
  }
}

/// A method the API has no operation for at a path it has is `405 Method Not Allowed`, naming
/// the ones it has (`Allow`); a path it does not have is left to the router's `404`.
struct MethodCheck: RouterMiddleware {
  typealias Context = BasicRequestContext

  /// The API's paths (a segment `*` is any one segment) and their methods.
  static let table: [(segments: [String], methods: [HTTPRequest.Method])] = [
    ([], [.get]), (["openapi.json"], [.get]), (["healthz"], [.get]), (["metrics"], [.get]),
    (["v1", "renders"], [.get, .post]), (["v1", "renders", "*"], [.get, .delete]),
    (["v1", "renders", "*", "events"], [.get]), (["v1", "renders", "*", "output"], [.get]),
    (["v1", "templates"], [.post]), (["v1", "templates", "*"], [.get, .delete]),
    (["v1", "templates", "*", "renders"], [.post]),
  ]

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    let segments = request.uri.path.split(separator: "/").map(String.init)
    guard
      let route = Self.table.first(where: { route in
        route.segments.count == segments.count && zip(route.segments, segments).allSatisfy { $0 == "*" || $0 == $1 }
      })
    else { return try await next(request, context) }
    let allowed = route.methods + (route.methods.contains(.get) ? [.head] : [])
    guard allowed.contains(request.method) else {
      var response = try APIError(.methodNotAllowed, "\(request.method) is not a method of \(request.uri.path)")
        .response(from: request, context: context)
      response.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
      return response
    }
    return try await next(request, context)
  }
}

/// Every call but the page, the document and the health check carries the token: as
/// `Authorization: Bearer T`, or where a browser cannot set a header (a `<video>` element's
/// source, an EventSource) as `?access_token=T`.
struct TokenCheck: RouterMiddleware {
  typealias Context = BasicRequestContext
  let configuration: ServerConfiguration

  /// The token a request carries.
  static func given(_ request: Request) -> String? {
    request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
      ?? request.uri.queryParameters["access_token"].map(String.init)
  }

  func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
    -> Response
  {
    guard !configuration.clients.isEmpty else { return try await next(request, context) }
    let path = request.uri.path
    if path == "/" || path == "/openapi.json" || path == "/healthz" { return try await next(request, context) }
    let given = Self.given(request)
    guard configuration.client(token: given) != nil else {
      throw APIError(.unauthorized, given == nil ? "a token is required (Authorization: Bearer …)" : "wrong token")
    }
    return try await next(request, context)
  }

  /// Compared in time that does not depend on where they differ.
  static func same(_ a: String, _ b: String) -> Bool {
    let (x, y) = (Array(a.utf8), Array(b.utf8))
    guard x.count == y.count else { return false }
    return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
  }
}
