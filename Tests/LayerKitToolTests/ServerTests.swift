import Foundation
import LayerKit
import XCTest

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `layerkit-server` tested as a server: started, called over loopback, killed and started
/// again, its answers held to its OpenAPI document and its videos to ffmpeg.
final class ServerTests: XCTestCase {
  /// The repository's root (where `Tools/setup.sh --tests` puts what the tests use, in .build).
  static var root: URL {
    var root = URL(fileURLWithPath: #filePath)
    while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
      root.deleteLastPathComponent()
    }
    return root
  }

  /// A callback secret in a file of the harness's folder, as `--callback-secret` takes it.
  static func secretFile(_ h: ToolHarness) throws -> String {
    let file = h.path("callback.secret")
    try "a-callback-secret-of-some-length".write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  /// The value of `name` (with its labels, as Prometheus writes them) in `/metrics`' text.
  static func metric(_ text: String, _ name: String) -> Double? {
    text.split(separator: "\n").lazy.compactMap { line -> Double? in
      guard line.hasPrefix(name + " ") else { return nil }
      return Double(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces))
    }.first
  }

  /// A short edit of two colours and a fade: a few frames, rendered in a moment.
  static func edit(_ a: String = "#d03020", _ b: String = "#2040d0", seconds: Double = 0.6, size: Int = 160) -> [String:
    Any]
  {
    [
      "width": size, "height": size * 9 / 16, "fps": 10,
      "clips": [
        ["duration": seconds, "layers": [["type": "fill-color", "color": a]]],
        ["duration": seconds, "layers": [["type": "fill-color", "color": b]]],
      ],
      "defaults": ["transition": ["name": "fade", "duration": 0.2]],
    ]
  }

  func testEveryEndpointOverLoopback() throws {
    let h = try ToolHarness.make("server-endpoints")
    defer { h.cleanUp() }
    let media = h.path("media")
    try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
    let server = try ServerHarness(media: media, state: h.path("state"))
    XCTAssertTrue(server.stderr.contains("loopback only"), server.stderr)

    XCTAssertEqual(try server.call("GET", "/healthz").json["status"] as? String, "ok")
    let document = try server.call("GET", "/openapi.json")
    XCTAssertEqual(document.status, 200)
    let paths = try XCTUnwrap(document.json["paths"] as? [String: Any])
    for path in [
      "/v1/renders", "/v1/renders/{id}", "/v1/renders/{id}/events", "/v1/renders/{id}/output",
      "/v1/templates", "/v1/templates/{id}/renders", "/healthz", "/metrics",
    ] {
      XCTAssertNotNil(paths[path], path)
    }
    let page = try server.call("GET", "/")
    XCTAssertEqual(page.status, 200)
    XCTAssertTrue(page.text.contains("<video") || page.text.contains("createElement(\"video\")"), page.text)

    let submitted = try server.call("POST", "/v1/renders", json: ["edit": Self.edit()])
    XCTAssertEqual(submitted.status, 202, submitted.text)
    let id = try XCTUnwrap(submitted.json["id"] as? String)
    XCTAssertEqual(submitted.json["status"] as? String, "queued")
    XCTAssertEqual(submitted.headers["location"], "/v1/renders/\(id)")

    // Progress as events, to the end.
    let events = try server.call("GET", "/v1/renders/\(id)/events")
    XCTAssertEqual(events.status, 200)
    XCTAssertEqual(events.headers["content-type"], "text/event-stream")
    XCTAssertTrue(events.text.contains("event: end"), events.text)
    XCTAssertTrue(events.text.contains("\"status\":\"done\""), events.text)

    let done = try server.wait(for: id)
    XCTAssertEqual(done["status"] as? String, "done", "\(done)")
    XCTAssertEqual(done["progress"] as? Double, 1)
    XCTAssertEqual(done["attempts"] as? Int, 1)
    let output = try XCTUnwrap(done["output"] as? String)

    let video = try server.call("GET", output)
    XCTAssertEqual(video.status, 200)
    XCTAssertEqual(video.headers["content-type"], "video/mp4")
    XCTAssertEqual(video.headers["accept-ranges"], "bytes")
    let file = h.path("fetched.mp4")
    try video.data.write(to: URL(fileURLWithPath: file))
    let streams = try h.probe(file)
    // editly's length: 0.6 + 0.6 − 0.2 s at 10 fps.
    XCTAssertEqual(streams.first { $0["codec_type"] == "video" }?["nb_read_frames"], "10")
    let part = try server.call("GET", output, headers: ["Range": "bytes=100-199"])
    XCTAssertEqual(part.status, 206)
    XCTAssertEqual(part.data, video.data[100..<200])
    XCTAssertEqual(part.headers["content-range"], "bytes 100-199/\(video.data.count)")
    let tail = try server.call("GET", output, headers: ["Range": "bytes=-10"])
    XCTAssertEqual(tail.data, video.data.suffix(10))
    XCTAssertEqual(try server.call("GET", output, headers: ["Range": "bytes=\(video.data.count)-"]).status, 416)

    let list = try server.call("GET", "/v1/renders")
    XCTAssertEqual((list.json["renders"] as? [[String: Any]])?.first?["id"] as? String, id)
    XCTAssertEqual(try server.call("DELETE", "/v1/renders/\(id)").status, 409)
    XCTAssertEqual(try server.call("GET", "/v1/renders/no-such").status, 404)
    XCTAssertEqual(try server.call("GET", "/v1/renders/no-such").json["error"] as? String, "no such render")
    let metrics = try server.call("GET", "/metrics").text
    XCTAssertEqual(Self.metric(metrics, #"layerkit_renders{status="done"}"#), 1, metrics)
    XCTAssertEqual(Self.metric(metrics, "layerkit_queue_depth"), 0, metrics)
    XCTAssertEqual(Self.metric(metrics, "layerkit_frames_total"), 10, metrics)
    XCTAssertEqual(Self.metric(metrics, #"layerkit_renders_ended_total{outcome="done"}"#), 1, metrics)
    XCTAssertGreaterThan(Self.metric(metrics, "layerkit_render_seconds_total") ?? 0, 0, metrics)
    XCTAssertGreaterThan(Self.metric(metrics, "layerkit_frames_per_second") ?? 0, 0, metrics)

    // A render canceled while queued behind a long one, and the long one while it renders.
    let long = try server.call("POST", "/v1/renders", json: ["edit": Self.edit(seconds: 30, size: 640)])
    let queued = try server.call("POST", "/v1/renders", json: ["edit": Self.edit()])
    let longID = try XCTUnwrap(long.json["id"] as? String)
    let queuedID = try XCTUnwrap(queued.json["id"] as? String)
    XCTAssertEqual(try server.call("DELETE", "/v1/renders/\(queuedID)").json["status"] as? String, "canceled")
    _ = try server.wait(for: longID) { ($0["progress"] as? Double ?? 0) > 0 }
    XCTAssertEqual(try server.call("DELETE", "/v1/renders/\(longID)").status, 200)
    let canceled = try server.wait(for: longID)
    XCTAssertEqual(canceled["status"] as? String, "canceled")
    // Nothing left of it in the outputs, once its children are gone.
    Thread.sleep(forTimeInterval: 1)
    let outputs = try FileManager.default.contentsOfDirectory(atPath: h.path("state/outputs"))
    XCTAssertEqual(outputs, ["\(id)-1.mp4"])
    server.stop()
    XCTAssertEqual(server.process.terminationStatus, 0, server.stderr)
  }

  /// Nobody in where they do not belong: the token, the media folder, callbacks, limits.
  func testTheTokenTheMediaFolderAndTheLimitsHoldEveryoneToTheirPlace() throws {
    let h = try ToolHarness.make("server-guard")
    defer { h.cleanUp() }
    let media = h.path("media")
    try FileManager.default.createDirectory(atPath: media + "/pictures", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: media + "/out", withDestinationPath: "/etc")
    // Beyond loopback only with a token.
    let open = try ToolHarness.run(
      try ToolHarness.binary("layerkit-server").path, ["--media", media, "--host", "0.0.0.0", "--port", "0"])
    XCTAssertNotEqual(open.status, 0)
    XCTAssertTrue(open.stderr.contains("give --tokens FILE"), open.stderr)

    let token = "a-token-of-sixteen-or-more"
    let server = try ServerHarness(
      media: media, state: h.path("state"), token: token,
      arguments: ["--callback-host", "localhost:9", "--callback-secret", try Self.secretFile(h)])
    XCTAssertEqual(try server.call("GET", "/v1/renders", token: "").status, 401)
    XCTAssertEqual(
      try server.call("GET", "/v1/renders", token: "").json["error"] as? String,
      "a token is required (Authorization: Bearer …)")
    XCTAssertEqual(try server.call("GET", "/v1/renders", token: "wrong-token-wrong-token").status, 401)
    XCTAssertEqual(try server.call("GET", "/metrics", token: "").status, 401)
    XCTAssertEqual(try server.call("GET", "/v1/renders?access_token=\(token)", token: "").status, 200)
    XCTAssertEqual(try server.call("GET", "/healthz", token: "").status, 200)

    func refused(_ body: [String: Any], _ path: String, _ words: String, status: Int = 400) throws {
      let r = try server.call("POST", "/v1/renders", json: body)
      XCTAssertEqual(r.status, status, r.text)
      XCTAssertEqual(r.json["path"] as? String, path, r.text)
      XCTAssertTrue((r.json["error"] as? String ?? "").contains(words), r.text)
    }
    func picture(_ path: String) -> [String: Any] {
      ["clips": [["duration": 1, "layers": [["type": "image", "path": path]]]]]
    }
    try refused(["edit": picture("/etc/passwd")], "edit.clips[0].layers[0].path", "an absolute path")
    try refused(["edit": picture("../secret.png")], "edit.clips[0].layers[0].path", "leads out of the media folder")
    try refused(["edit": picture("pictures/../../x.png")], "edit.clips[0].layers[0].path", "(..)")
    try refused(["edit": picture("out/passwd")], "edit.clips[0].layers[0].path", "a link that leads out")
    try refused(["edit": picture("https://example.com/a.png")], "edit.clips[0].layers[0].path", "a URL")
    try refused(
      [
        "edit": [
          "clips": [["duration": 1, "layers": [["type": "title", "text": "x", "fontPath": "/usr/share/fonts/x.ttf"]]]]
        ]
      ],
      "edit.clips[0].layers[0].fontPath", "an absolute path")
    try refused(["edit": ["audioFilePath": "/tmp/a.mp3", "clips": []]], "edit.audioFilePath", "an absolute path")
    // The command line's words for an edit it cannot read.
    try refused(
      ["edit": ["clips": [["duration": 1, "layers": [["type": "fill-colour", "color": "red"]]]]]],
      "edit.clips[0].layers[0].type", "unknown layer type \"fill-colour\" (did you mean \"fill-color\"?)")
    try refused(["edit": Self.edit(), "callback": "http://example.com/done"], "callback", "--callback-host")
    try refused(
      ["edit": Self.edit(), "callback": "http://localhost:8080/done"], "callback", "localhost:8080 is not one")
    try refused(["edit": Self.edit(), "callback": "file:///etc/passwd"], "callback", "an http or https URL")
    try refused(["edit": Self.edit(), "colour": 1], "colour", "unknown key")
    try refused(["edit": "not an object"], "edit", "expected an edit")
    try refused(["edit": Self.edit(), "callback": NSNull()], "callback", "an http or https URL")
    try refused(["edit": Self.edit(), "merge": NSNull()], "merge", "expected an object of placeholder values")
    let big = try server.call(
      "POST", "/v1/renders", body: Data(count: 2 << 20), headers: ["Content-Type": "application/json"])
    XCTAssertEqual(big.status, 413, big.text)
    let garbage = try server.call(
      "POST", "/v1/renders", body: Data("{".utf8), headers: ["Content-Type": "application/json"])
    XCTAssertEqual(garbage.status, 400)
    XCTAssertEqual(garbage.json["error"] as? String, "the body is not a JSON object")
    // Nothing refused was queued.
    XCTAssertEqual((try server.call("GET", "/v1/renders").json["renders"] as? [Any])?.count, 0)
  }

  /// `kill -9` in the middle of a render loses nothing: started again, the server renders it
  /// again, to a whole video; the one finished before stays finished.
  func testAServerKilledMidRenderRendersItAgainWhenStartedAgain() throws {
    let h = try ToolHarness.make("server-kill")
    defer { h.cleanUp() }
    let media = h.path("media")
    try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
    let state = h.path("state")
    var server = try ServerHarness(media: media, state: state)
    let first = try XCTUnwrap(try server.call("POST", "/v1/renders", json: ["edit": Self.edit()]).json["id"] as? String)
    XCTAssertEqual(try server.wait(for: first)["status"] as? String, "done")
    let long = try XCTUnwrap(
      try server.call("POST", "/v1/renders", json: ["edit": Self.edit(seconds: 4, size: 640)]).json["id"] as? String)
    _ = try server.wait(for: long) { ($0["progress"] as? Double ?? 0) > 0.05 }
    server.stop(SIGKILL)
    // Nothing under the render's name: its video is whole or absent.
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: "\(state)/outputs").filter { !$0.hasPrefix(".") },
      ["\(first)-1.mp4"])
    Thread.sleep(forTimeInterval: 0.5)
    server = try ServerHarness(media: media, state: state)
    let again = try server.wait(for: long)
    XCTAssertEqual(again["status"] as? String, "done", "\(again)")
    XCTAssertEqual(again["attempts"] as? Int, 2)
    XCTAssertEqual(try server.call("GET", "/v1/renders/\(first)").json["attempts"] as? Int, 1)
    let decoded = try ToolHarness.run(
      ToolHarness.which("ffmpeg"),
      ["-v", "error", "-xerror", "-i", "\(state)/outputs/\(long)-2.mp4", "-f", "null", "-"])
    XCTAssertEqual(decoded.status, 0, decoded.stderr)
    XCTAssertEqual(try h.probe("\(state)/outputs/\(long)-2.mp4").first?["nb_read_frames"], "78")
  }

  /// A template's placeholders merged for each row, through the API: each video is its row's
  /// (its colour), and all twenty are rendered once.
  func testATemplateRendersOneVideoForEachRow() throws {
    let h = try ToolHarness.make("server-template")
    defer { h.cleanUp() }
    let media = h.path("media")
    try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
    let server = try ServerHarness(media: media, state: h.path("state"), arguments: ["--renders", "2"])
    let template: [String: Any] = [
      "width": 64, "height": 36, "fps": 10,
      "clips": [
        [
          "duration": "{{ SECONDS }}",
          "layers": [
            ["type": "fill-color", "color": "{{ COLOR }}"],
            ["type": "title", "text": "Order {{ ID }} for {{ NAME }}"],
          ],
        ]
      ],
    ]
    let missing = try server.call("POST", "/v1/templates", json: ["edit": template, "sample": ["COLOR": "#fff"]])
    XCTAssertEqual(missing.status, 400, missing.text)
    XCTAssertEqual(missing.json["error"] as? String, "placeholder {{ SECONDS }} has no value")
    XCTAssertEqual(missing.json["path"] as? String, "edit.clips[0].duration")
    let made = try server.call(
      "POST", "/v1/templates",
      json: ["edit": template, "sample": ["COLOR": "#fff", "SECONDS": 1, "ID": 1, "NAME": "x"]])
    XCTAssertEqual(made.status, 201, made.text)
    let templateID = try XCTUnwrap(made.json["id"] as? String)
    let colours = (0..<20).map { i in String(format: "#%02x%02x%02x", i * 12, 255 - i * 12, (i * 37) % 256) }
    let rows: [[String: Any]] = colours.enumerated().map { i, c in
      ["COLOR": c, "SECONDS": 0.5, "ID": i, "NAME": "Row \(i)"]
    }
    let batch = try server.call("POST", "/v1/templates/\(templateID)/renders", json: ["rows": rows])
    XCTAssertEqual(batch.status, 202, batch.text)
    let ids = try XCTUnwrap(batch.json["renders"] as? [[String: Any]]).compactMap { $0["id"] as? String }
    XCTAssertEqual(Set(ids).count, 20)
    for (i, id) in ids.enumerated() {
      let done = try server.wait(for: id)
      XCTAssertEqual(done["status"] as? String, "done", "\(done)")
      XCTAssertEqual(done["attempts"] as? Int, 1)
      XCTAssertEqual(done["template"] as? String, templateID)
      // The row's colour at the frame's corner (the title is in the middle).
      let file = h.path("row\(i).mp4")
      try server.call("GET", "/v1/renders/\(id)/output").data.write(to: URL(fileURLWithPath: file))
      let pixel = try ToolHarness.run(
        ToolHarness.which("ffmpeg"),
        [
          "-v", "error", "-i", file, "-frames:v", "1", "-vf", "crop=4:4:0:0,scale=1:1", "-f", "rawvideo", "-pix_fmt",
          "rgb24", "-",
        ])
      let rgb = [UInt8](pixel.data)
      let want = [1, 3, 5].map { UInt8(colours[i].dropFirst($0).prefix(2), radix: 16)! }
      XCTAssertEqual(rgb.count, 3)
      for k in 0..<3 { XCTAssertLessThanOrEqual(abs(Int(rgb[k]) - Int(want[k])), 6, "row \(i): \(rgb) for \(want)") }
    }
    let bad = try server.call("POST", "/v1/templates/\(templateID)/renders", json: ["rows": [["COLOR": "#000"]]])
    XCTAssertEqual(bad.status, 400)
    XCTAssertEqual(bad.json["path"] as? String, "rows[0].clips[0].duration")
  }

  /// Fifty renders asked for at once: all done, none lost, none rendered twice.
  func testFiftyRendersAtOnceAreAllDoneOnce() throws {
    let h = try ToolHarness.make("server-fifty")
    defer { h.cleanUp() }
    let media = h.path("media")
    try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
    let server = try ServerHarness(media: media, state: h.path("state"), arguments: ["--renders", "2"])
    let ids = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 50) { i in
      let edit = Self.edit(String(format: "#%02x0000", i * 5), "#000000", seconds: 0.3, size: 64)
      if let id = (try? server.call("POST", "/v1/renders", json: ["edit": edit]))?.json["id"] as? String {
        ids.withLock { $0.append(id) }
      }
    }
    XCTAssertEqual(Set(ids.current).count, 50)
    for id in ids.current {
      let done = try server.wait(for: id)
      XCTAssertEqual(done["status"] as? String, "done", "\(done)")
      XCTAssertEqual(done["attempts"] as? Int, 1, "\(done)")
    }
    let outputs = try FileManager.default.contentsOfDirectory(atPath: h.path("state/outputs"))
    XCTAssertEqual(Set(outputs), Set(ids.current.map { "\($0)-1.mp4" }))
    XCTAssertEqual(Self.metric(try server.call("GET", "/metrics").text, #"layerkit_renders{status="done"}"#), 50)
  }

  /// The page, driven in headless chromium as a person would use it (Player/drive.py): the
  /// token and an edit typed, Render pressed, the bar watched until it is full, and the video
  /// played in the page to its end.
  func testThePageRendersAnEditAndPlaysItToItsEndInChromium() throws {
    let h = try ToolHarness.make("server-page")
    defer { h.cleanUp() }
    XCTAssertTrue(
      FileManager.default.isExecutableFile(atPath: ToolHarness.which("chromium")),
      "chromium is not installed: run Tools/setup.sh")
    let media = h.path("media")
    try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
    let token = "the-page-token-1234"
    let server = try ServerHarness(media: media, state: h.path("state"), token: token)
    let edit = h.path("edit.json")
    try JSONSerialization.data(withJSONObject: Self.edit(seconds: 1, size: 320)).write(to: URL(fileURLWithPath: edit))
    let driver = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Player/drive.py")
    let r = try ToolHarness.run(
      ToolHarness.which("python3"), [driver.path, "http://127.0.0.1:\(server.port)/", edit, token, "120"])
    XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
    let seen = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], r.stdout)
    XCTAssertEqual((seen["statuses"] as? [String])?.last, "done", r.stdout)
    XCTAssertEqual((seen["progress"] as? [Double])?.last, 1, r.stdout)
    let played = try XCTUnwrap(seen["played"] as? [String: Any], r.stdout)
    XCTAssertEqual(played["ended"] as? Bool, true, r.stdout)
    // editly's length: 1 + 1 − 0.2 s.
    XCTAssertEqual(played["duration"] as? Double ?? 0, 1.8, accuracy: 0.05, r.stdout)
    XCTAssertEqual(played["currentTime"] as? Double ?? 0, 1.8, accuracy: 0.05, r.stdout)
  }

  /// schemathesis (from PyPI, put in .build/python by `Tools/setup.sh --tests`) generates calls
  /// from /openapi.json — its examples, then valid and invalid data, then sequences linked by
  /// the ids the POSTs answer with — against a running server: no server error, no status,
  /// header, content type or body outside the document, a 405 for a method a path lacks, and no
  /// call let through without the token. Not checked: that every edit of the right shape is
  /// taken (an edit is more than its shape — its files must be in --media) and that a render
  /// is gone after DELETE (DELETE cancels it; it stays, canceled, to say so).
  func testTheAPIKeepsToItsOpenAPIDocumentUnderSchemathesis() throws {
    let h = try ToolHarness.make("server-schemathesis")
    defer { h.cleanUp() }
    let st = Self.root.appendingPathComponent(".build/python/bin/st").path
    guard FileManager.default.isExecutableFile(atPath: st) else {
      return XCTFail("schemathesis is not installed: run bash Tools/setup.sh --tests")
    }
    let media = h.path("media")
    try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
    let token = "schemathesis-token-0123"
    let server = try ServerHarness(media: media, state: h.path("state"), token: token, arguments: ["--renders", "2"])
    // Run in the test's folder: schemathesis keeps its cache (.schemathesis/) where it runs.
    let r = try ToolHarness.run(
      "/bin/sh",
      [
        "-c", #"cd "$0" && exec "$@""#, h.folder.path, st, "run", "http://127.0.0.1:\(server.port)/openapi.json", "-H",
        "Authorization: Bearer \(token)", "--checks",
        "all",
        "--exclude-checks", "positive_data_acceptance,use_after_free", "--max-examples", "6", "--seed", "7",
        "--max-time", "75", "--request-timeout", "60", "--exclude-path", "/v1/renders/{id}/events",
        "--report", "junit", "--report-dir", h.path("report"),
      ], environment: ["NO_COLOR": "1", "SCHEMATHESIS_HOOKS": ""])
    XCTAssertEqual(r.status, 0, String((r.stdout + r.stderr).suffix(6000)))
    XCTAssertTrue(r.stdout.contains("Tested: 11"), String(r.stdout.suffix(3000)))
    XCTAssertFalse(server.stderr.contains("Fatal"), server.stderr)
  }

  /// Two servers on one PostgreSQL queue (started by `Tools/setup.sh --tests`): renders queued
  /// through either are taken once each, and the one a server was rendering when it was killed
  /// is taken by the other once its lease runs out, to a whole video.
  func testTwoServersShareOnePostgreSQLQueueAndTheLivingOneFinishesTheKilledOnesRender() throws {
    let h = try ToolHarness.make("server-postgres")
    defer { h.cleanUp() }
    guard let url = try? String(contentsOf: Self.root.appendingPathComponent(".build/postgres-url"), encoding: .utf8)
    else { return XCTFail("no PostgreSQL for the tests: run bash Tools/setup.sh --tests") }
    let queue = url.trimmingCharacters(in: .whitespacesAndNewlines)
    // A queue of this test's own: the tables of an earlier run dropped (the servers make them).
    let reset = try ToolHarness.run(
      ToolHarness.which("psql"), [queue, "-qc", "DROP TABLE IF EXISTS layerkit_renders, layerkit_templates"])
    XCTAssertEqual(reset.status, 0, reset.stderr)
    let (media, state) = (h.path("media"), h.path("state"))
    try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
    // The queue's address (its password in it) from the environment, never the command line.
    let (shared, environment) = (["--lease", "3"], ["LAYERKIT_QUEUE": queue])
    let a = try ServerHarness(media: media, state: state, arguments: shared, environment: environment)
    let long = try XCTUnwrap(
      try a.call("POST", "/v1/renders", json: ["edit": Self.edit(seconds: 4, size: 640)]).json["id"] as? String)
    _ = try a.wait(for: long) { ($0["progress"] as? Double ?? 0) > 0.05 }
    let b = try ServerHarness(media: media, state: state, arguments: shared, environment: environment)
    var short: [String] = []
    for k in 0..<10 {
      let server = k % 2 == 0 ? a : b
      let edit = Self.edit(String(format: "#%02x8040", k * 20), "#000000", seconds: 0.3, size: 64)
      short.append(try XCTUnwrap(try server.call("POST", "/v1/renders", json: ["edit": edit]).json["id"] as? String))
    }
    a.stop(SIGKILL)
    for id in short {
      let done = try b.wait(for: id)
      XCTAssertEqual(done["status"] as? String, "done", "\(done)")
      XCTAssertEqual(done["attempts"] as? Int, 1, "\(done)")
    }
    let taken = try b.wait(for: long, seconds: 180)
    XCTAssertEqual(taken["status"] as? String, "done", "\(taken)")
    XCTAssertEqual(taken["attempts"] as? Int, 2, "\(taken)")
    let video = "\(state)/outputs/\(long)-2.mp4"
    let decoded = try ToolHarness.run(
      ToolHarness.which("ffmpeg"), ["-v", "error", "-xerror", "-i", video, "-f", "null", "-"])
    XCTAssertEqual(decoded.status, 0, decoded.stderr)
    XCTAssertEqual(try h.probe(video).first?["nb_read_frames"], "78")
    let listed = try XCTUnwrap(try b.call("GET", "/v1/renders").json["renders"] as? [[String: Any]])
    XCTAssertEqual(listed.count, 11)
    XCTAssertEqual(Self.metric(try b.call("GET", "/metrics").text, #"layerkit_renders{status="done"}"#), 11)

    // A server that falls silent without dying (stopped, cut off) and comes back: the render it
    // held was taken by the other, and nothing the first says of it any more is kept — it stops
    // its attempt, and the video is the second attempt's alone.
    let c = try ServerHarness(media: media, state: state, arguments: shared, environment: environment)
    // Titles drawn every frame, so that the render is still going when the server is stopped
    // (colours alone render at hundreds of frames a second).
    var slow = Self.edit(seconds: 6, size: 640)
    slow["clips"] = (slow["clips"] as? [[String: Any]] ?? []).map { clip in
      var clip = clip
      clip["layers"] = (clip["layers"] as? [[String: Any]] ?? []) + [["type": "title", "text": "held"]]
      return clip
    }
    let held = try XCTUnwrap(try c.call("POST", "/v1/renders", json: ["edit": slow]).json["id"] as? String)
    let running = try c.wait(for: held) { ($0["progress"] as? Double ?? 0) > 0.05 }
    XCTAssertEqual(running["status"] as? String, "rendering", "stopped mid-render: \(running)")
    kill(c.process.processIdentifier, SIGSTOP)
    _ = try b.wait(for: held, seconds: 30) { ($0["attempts"] as? Int ?? 0) == 2 }
    kill(c.process.processIdentifier, SIGCONT)
    let overtaken = try b.wait(for: held, seconds: 180)
    XCTAssertEqual(overtaken["status"] as? String, "done", "\(overtaken)")
    XCTAssertEqual(overtaken["attempts"] as? Int, 2, "\(overtaken)")
    XCTAssertEqual(overtaken["output"] as? String, "/v1/renders/\(held)/output")
    Thread.sleep(forTimeInterval: 3)
    let left = try FileManager.default.contentsOfDirectory(atPath: "\(state)/outputs").filter { $0.contains(held) }
    XCTAssertEqual(left, ["\(held)-2.mp4"], "the overtaken attempt kept nothing")
    XCTAssertTrue(c.process.isRunning, "the first server lives on: " + c.stderr)
  }

  /// A render's callback is told once it is received, at the host and port `--callback-host`
  /// names, signed with the callback secret; a redirect is not followed (its 3xx counts as not
  /// received, and the call is made again after a second).
  func testACallbackIsSignedToldUntilReceivedAndNeverRedirected() throws {
    let h = try ToolHarness.make("server-callback")
    defer { h.cleanUp() }
    let media = h.path("media")
    try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
    let secretFile = try Self.secretFile(h)
    // A receiver on loopback that answers its first POST with a redirect to a second listener,
    // the next ones with 204, and writes down each body and whether its signature is right; the
    // second listener writes down anything that reaches it.
    let (told, stolen) = (h.path("told.jsonl"), h.path("stolen.txt"))
    let receiver = Process()
    receiver.executableURL = URL(fileURLWithPath: ToolHarness.which("python3"))
    receiver.arguments = [
      "-c",
      """
      import hashlib, hmac, http.server, json, sys, threading
      secret = open(sys.argv[3], "rb").read().strip()
      seen = []
      class Thief(http.server.BaseHTTPRequestHandler):
          def do_POST(self):
              open(sys.argv[2], "ab").write(b"stolen\\n")
              self.send_response(204); self.end_headers()
          def log_message(self, *a): pass
      thief = http.server.HTTPServer(("127.0.0.1", 0), Thief)
      threading.Thread(target=thief.serve_forever, daemon=True).start()
      class H(http.server.BaseHTTPRequestHandler):
          def do_POST(self):
              body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
              t, v1 = [p.split("=", 1)[1] for p in self.headers.get("LayerKit-Signature", "t=,v1=").split(",")]
              want = hmac.new(secret, t.encode() + b"." + body, hashlib.sha256).hexdigest()
              line = {"body": json.loads(body), "signed": hmac.compare_digest(want, v1)}
              open(sys.argv[1], "a").write(json.dumps(line) + "\\n")
              seen.append(1)
              if len(seen) == 1:
                  self.send_response(302)
                  self.send_header("Location", "http://127.0.0.1:%d/steal" % thief.server_address[1])
              else:
                  self.send_response(204)
              self.end_headers()
          def log_message(self, *a): pass
      s = http.server.HTTPServer(("127.0.0.1", 0), H)
      print(s.server_address[1], flush=True)
      s.serve_forever()
      """,
      told, stolen, secretFile,
    ]
    let out = Pipe()
    receiver.standardOutput = out
    try receiver.run()
    defer { receiver.terminate() }
    let port = try XCTUnwrap(
      Int(
        String(decoding: out.fileHandleForReading.availableData, as: UTF8.self).trimmingCharacters(
          in: .whitespacesAndNewlines)))
    let server = try ServerHarness(
      media: media, state: h.path("state"),
      arguments: ["--callback-host", "127.0.0.1:\(port)", "--callback-secret", secretFile])
    // The allowed host on another port is refused.
    let elsewhere = try server.call(
      "POST", "/v1/renders", json: ["edit": Self.edit(), "callback": "http://127.0.0.1:\(port + 1)/done"])
    XCTAssertEqual(elsewhere.status, 400, elsewhere.text)
    let id = try XCTUnwrap(
      try server.call("POST", "/v1/renders", json: ["edit": Self.edit(), "callback": "http://127.0.0.1:\(port)/done"])
        .json["id"] as? String)
    XCTAssertEqual(try server.wait(for: id)["status"] as? String, "done")
    let deadline = Date().addingTimeInterval(15)
    var lines: [String] = []
    while Date() < deadline {
      lines = ((try? String(contentsOfFile: told, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
      if lines.count >= 2 { break }
      Thread.sleep(forTimeInterval: 0.1)
    }
    Thread.sleep(forTimeInterval: 1.5)
    lines = ((try? String(contentsOfFile: told, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    XCTAssertEqual(lines.count, 2, "told twice: redirected, then received — and not again: \(lines)")
    for line in lines {
      let told = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      XCTAssertEqual(told["signed"] as? Bool, true, line)
      let body = try XCTUnwrap(told["body"] as? [String: Any])
      XCTAssertEqual(body["id"] as? String, id)
      XCTAssertEqual(body["status"] as? String, "done")
      XCTAssertEqual(body["output"] as? String, "/v1/renders/\(id)/output")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: stolen), "the redirect was not followed")
  }

  /// Several tokens, several clients: each sees, cancels and counts its own renders and
  /// templates alone (another's are not there for it), and its own queue is bounded.
  func testEachClientSeesItsOwnRendersAloneAndItsQueueIsBounded() throws {
    let h = try ToolHarness.make("server-clients")
    defer { h.cleanUp() }
    let media = h.path("media")
    try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
    let (a, b) = ("client-a-token-0000", "client-b-token-0000")
    var server = try ServerHarness(
      media: media, state: h.path("state"), token: a, clients: ["other": b], arguments: ["--limits", "queued=2"])
    let long = try XCTUnwrap(
      try server.call("POST", "/v1/renders", json: ["edit": Self.edit(seconds: 30, size: 640)]).json["id"] as? String)
    XCTAssertEqual(try server.call("POST", "/v1/renders", json: ["edit": Self.edit()]).status, 202)
    let third = try server.call("POST", "/v1/renders", json: ["edit": Self.edit()])
    XCTAssertEqual(third.status, 429, third.text)
    XCTAssertEqual(third.json["error"] as? String, "2 renders are already queued or rendering (--limits queued)")
    let theirs = try server.call("POST", "/v1/renders", json: ["edit": Self.edit()], token: b)
    XCTAssertEqual(theirs.status, 202, theirs.text)
    XCTAssertEqual((try server.call("GET", "/v1/renders").json["renders"] as? [Any])?.count, 2)
    XCTAssertEqual((try server.call("GET", "/v1/renders", token: b).json["renders"] as? [Any])?.count, 1)
    for (method, path) in [("GET", ""), ("GET", "/output"), ("GET", "/events"), ("DELETE", "")] {
      let r = try server.call(method, "/v1/renders/\(long)\(path)", token: b)
      XCTAssertEqual(r.status, 404, "\(method) \(path): \(r.text)")
    }
    let template = try XCTUnwrap(
      try server.call("POST", "/v1/templates", json: ["edit": Self.edit()]).json["id"] as? String)
    XCTAssertEqual(try server.call("GET", "/v1/templates/\(template)", token: b).status, 404)
    XCTAssertEqual(
      try server.call("POST", "/v1/templates/\(template)/renders", json: ["rows": [[:]]], token: b).status, 404)
    XCTAssertEqual(try server.call("GET", "/v1/templates/\(template)").status, 200)
    XCTAssertEqual(try server.call("DELETE", "/v1/renders/\(long)").status, 200)
    // A client is its name, not its place in the list: started again with the other client
    // alone, it sees its one render, not the first client's two.
    server.stop()
    server = try ServerHarness(media: media, state: h.path("state"), clients: ["other": b])
    XCTAssertEqual((try server.call("GET", "/v1/renders", token: b).json["renders"] as? [Any])?.count, 1)
    // A new secret for the first client's name keeps its renders (rotation).
    server.stop()
    let rotated = "client-a-rotated-0001"
    server = try ServerHarness(media: media, state: h.path("state"), clients: ["client": rotated, "other": b])
    XCTAssertEqual((try server.call("GET", "/v1/renders", token: rotated).json["renders"] as? [Any])?.count, 2)
    XCTAssertEqual(try server.call("GET", "/v1/renders", token: a).status, 401)
    XCTAssertEqual(try server.call("GET", "/v1/templates/\(template)", token: rotated).status, 200)
    XCTAssertFalse(server.stderr.contains(b) || server.stderr.contains(rotated), "no secret in the log")
    XCTAssertFalse(try server.call("GET", "/metrics", token: b).text.contains(b), "no secret in /metrics")
  }
}
