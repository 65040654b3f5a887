// layerkit-bench --server: a queue of short edits through `layerkit-server` at --renders 1 and
// 2, against `layerkit edit` run for each edit one after another, in one run: renders a minute,
// and each render's time to the first byte of its video (from when the queue was sent).

import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct ServerBench {
  var renders: Int
  var renderer: String

  struct Row {
    var name: String
    var seconds: Double
    var firstBytes: [Double]
  }

  /// The edit each render makes: two 1.5 s colour fields with a title each and a fade, 640×360
  /// at 25 fps — a product card's length.
  static func edit(_ k: Int) -> [String: Any] {
    [
      "width": 640, "height": 360, "fps": 25,
      "clips": [
        [
          "duration": 1.5,
          "layers": [["type": "fill-color", "color": "#204060"], ["type": "title", "text": "Card \(k)"]],
        ],
        [
          "duration": 1.5,
          "layers": [["type": "fill-color", "color": "#602040"], ["type": "title", "text": "Order \(k)"]],
        ],
      ],
      "defaults": ["transition": ["name": "fade", "duration": 0.5]],
    ]
  }

  func run() throws {
    let folder = Bundle.main.executableURL!.deletingLastPathComponent()
    let (server, tool) = (folder.appendingPathComponent("layerkit-server"), folder.appendingPathComponent("layerkit"))
    for binary in [server, tool] where !FileManager.default.isExecutableFile(atPath: binary.path) {
      throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: binary.path])
    }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-server-bench-\(getpid())")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    var rows: [Row] = []
    // One after another: `layerkit edit` for each edit.
    var firstBytes: [Double] = []
    let start = Date()
    for k in 0..<renders {
      let file = work.appendingPathComponent("edit\(k).json")
      try JSONSerialization.data(withJSONObject: Self.edit(k)).write(to: file)
      let process = Process()
      process.executableURL = tool
      process.arguments = [
        "edit", file.path, "-o", work.appendingPathComponent("cli\(k).mp4").path, "--renderer", renderer, "--quiet",
      ]
      try process.run()
      process.waitUntilExit()
      guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
      firstBytes.append(Date().timeIntervalSince(start))
    }
    rows.append(
      Row(name: "layerkit edit, one after another", seconds: Date().timeIntervalSince(start), firstBytes: firstBytes))
    for parallel in [1, 2] {
      rows.append(try queue(server: server, parallel: parallel, in: work.appendingPathComponent("state\(parallel)")))
    }
    print("server: \(renders) edits (640×360, 25 fps, 2.5 s, a fade and titles), renderer \(renderer)")
    print("  what                                   seconds  renders/min  first byte p50  p95")
    for row in rows {
      let sorted = row.firstBytes.sorted()
      func percentile(_ p: Double) -> Double {
        sorted[min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1)]
      }
      print(
        "  " + row.name.padding(toLength: 38, withPad: " ", startingAt: 0)
          + String(
            format: " %7.2f  %11.1f  %14.2f  %5.2f", row.seconds, Double(renders) / row.seconds * 60, percentile(0.5),
            percentile(0.95)))
    }
  }

  /// The queue sent at once to a server running `parallel` renders, waited for to its end.
  private func queue(server binary: URL, parallel: Int, in state: URL) throws -> Row {
    let media = state.appendingPathComponent("media")
    try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = binary
    process.arguments = [
      "--media", media.path, "--state", state.path, "--port", "0", "--renders", "\(parallel)", "--renderer", renderer,
    ]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    defer {
      process.terminate()
      process.waitUntilExit()
    }
    var said = ""
    var port: Int?
    while port == nil {
      let chunk = errors.fileHandleForReading.availableData
      guard !chunk.isEmpty else { throw CocoaError(.executableLoad) }
      said += String(decoding: chunk, as: UTF8.self)
      if let range = said.range(of: "127.0.0.1:") { port = Int(said[range.upperBound...].prefix { $0.isNumber }) }
    }
    let base = "http://127.0.0.1:\(port!)"
    let start = Date()
    var ids: [String] = []
    for k in 0..<renders {
      let reply = try Self.call("POST", base + "/v1/renders", json: ["edit": Self.edit(k)])
      guard let id = reply["id"] as? String else { throw CocoaError(.coderReadCorrupt) }
      ids.append(id)
    }
    var firstBytes = [Double](repeating: 0, count: renders)
    var waiting = Set(ids.indices)
    while !waiting.isEmpty {
      for i in waiting.sorted() {
        let r = try Self.call("GET", base + "/v1/renders/\(ids[i])")
        if r["status"] as? String == "done" {
          // The first byte of the video, as a client fetching it gets it.
          _ = try Self.fetch(base + "/v1/renders/\(ids[i])/output", range: "bytes=0-0")
          firstBytes[i] = Date().timeIntervalSince(start)
          waiting.remove(i)
        } else if ["failed", "canceled"].contains(r["status"] as? String ?? "") {
          throw CocoaError(.coderInvalidValue)
        }
      }
      Thread.sleep(forTimeInterval: 0.02)
    }
    return Row(
      name: "layerkit-server --renders \(parallel)", seconds: firstBytes.max() ?? 0, firstBytes: firstBytes)
  }

  static func call(_ method: String, _ url: String, json: Any? = nil) throws -> [String: Any] {
    var request = URLRequest(url: URL(string: url)!)
    request.httpMethod = method
    if let json {
      request.httpBody = try JSONSerialization.data(withJSONObject: json)
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    let data = try send(request)
    return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
  }

  static func fetch(_ url: String, range: String) throws -> Data {
    var request = URLRequest(url: URL(string: url)!)
    request.setValue(range, forHTTPHeaderField: "Range")
    return try send(request)
  }

  static func send(_ request: URLRequest) throws -> Data {
    final class Box: @unchecked Sendable { var result: Result<Data, Error> = .failure(URLError(.timedOut)) }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    URLSession.shared.dataTask(with: request) { data, _, error in
      box.result = error.map { .failure($0) } ?? .success(data ?? Data())
      done.signal()
    }.resume()
    _ = done.wait(timeout: .now() + 120)
    return try box.result.get()
  }
}
