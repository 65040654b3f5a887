import Foundation
import LayerKit
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A `layerkit-server` started as its users start it, on a port of loopback the system picks,
/// and called over HTTP.
final class ServerHarness: @unchecked Sendable {
  let process: Process
  let port: Int
  let token: String?
  private let errors: Pipe
  let said = Locked(Data())

  struct Reply {
    var status: Int
    var headers: [String: String]
    var data: Data
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:] }
    var text: String { String(decoding: data, as: UTF8.self) }
  }

  /// Starts the server on `media` and `state` with `arguments` besides (after the harness's own, so
  /// that a `--renderer` there wins), and waits until it
  /// listens (or fails the test). `token` is the secret of a client named `client` (more
  /// clients in `clients`, name to secret), handed over as its users do: in a file named by
  /// `--tokens`, never on the command line.
  init(
    media: String, state: String, token: String? = nil, clients: [String: String] = [:], arguments: [String] = [],
    environment: [String: String] = [:]
  ) throws {
    process = Process()
    process.executableURL = try ToolHarness.binary("layerkit-server")
    var args = ["--media", media, "--state", state, "--port", "0", "--renderer", "cpu"] + arguments
    var all = clients
    if let token { all["client"] = token }
    if !all.isEmpty {
      let file = state + ".tokens"
      try all.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined()
        .write(toFile: file, atomically: true, encoding: .utf8)
      args += ["--tokens", file]
    }
    process.arguments = args
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    self.token = token
    try process.run()
    let said = said
    let handle = errors.fileHandleForReading
    let listening = DispatchSemaphore(value: 0)
    let found = Locked<Int?>(nil)
    Thread {
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        let text = said.withLock {
          $0.append(chunk)
          return String(decoding: $0, as: UTF8.self)
        }
        if found.withLock({ $0 }) == nil, let range = text.range(of: "listening on http://127.0.0.1:") {
          let digits = text[range.upperBound...].prefix { $0.isNumber }
          found.withLock { $0 = Int(digits) }
          listening.signal()
        }
      }
      listening.signal()
    }.start()
    _ = listening.wait(timeout: .now() + 60)
    guard let port = found.withLock({ $0 }) else {
      process.terminate()
      throw NSError(
        domain: "ServerHarness", code: 1,
        userInfo: [
          NSLocalizedDescriptionKey:
            "the server did not listen: \(said.withLock { String(decoding: $0, as: UTF8.self) })"
        ])
    }
    self.port = port
  }

  /// What the server wrote to its standard error.
  var stderr: String { said.withLock { String(decoding: $0, as: UTF8.self) } }

  /// Kills the server with `signal` and waits for it.
  func stop(_ signal: Int32 = SIGTERM) {
    guard process.isRunning else { return }
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
  }

  deinit { stop(SIGKILL) }

  /// One HTTP call; the token sent unless `token` says otherwise ("" for none).
  func call(
    _ method: String, _ path: String, json: Any? = nil, body: Data? = nil, headers: [String: String] = [:],
    token: String? = nil
  ) throws -> Reply {
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: 60)
    request.httpMethod = method
    if let json {
      request.httpBody = try JSONSerialization.data(withJSONObject: json)
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    } else if let body {
      request.httpBody = body
    }
    let bearer = token ?? self.token
    if let bearer, !bearer.isEmpty { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
    for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
    let done = DispatchSemaphore(value: 0)
    let result = Locked<Result<Reply, Error>?>(nil)
    URLSession.shared.dataTask(with: request) { data, response, error in
      if let error {
        result.withLock { $0 = .failure(error) }
      } else if let http = response as? HTTPURLResponse {
        var headers: [String: String] = [:]
        for (k, v) in http.allHeaderFields { headers["\(k)".lowercased()] = "\(v)" }
        result.withLock { $0 = .success(Reply(status: http.statusCode, headers: headers, data: data ?? Data())) }
      }
      done.signal()
    }.resume()
    _ = done.wait(timeout: .now() + 90)
    guard let reply = result.withLock({ $0 }) else { throw URLError(.timedOut) }
    return try reply.get()
  }

  /// Waits until render `id` ends (or `until` holds for it), and returns it.
  func wait(for id: String, seconds: Double = 120, until: ([String: Any]) -> Bool = { _ in false }) throws
    -> [String: Any]
  {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      let r = try call("GET", "/v1/renders/\(id)")
      let status = r.json["status"] as? String ?? ""
      if ["done", "failed", "canceled"].contains(status) || until(r.json) { return r.json }
      Thread.sleep(forTimeInterval: 0.1)
    }
    XCTFail("render \(id) did not end in \(seconds) s")
    return [:]
  }
}
