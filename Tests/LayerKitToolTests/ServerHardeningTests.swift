import Foundation
import LayerKit
import XCTest

/// The render server held closed, tried as an attacker would over loopback with plain curl: no
/// file read or written outside its folders through the output's arguments or an edit's paths,
/// no call from another site or name, no render past its limits, none run twice.
final class ServerHardeningTests: XCTestCase {
  var h: ToolHarness!
  var media: String { h.path("media") }

  override func setUpWithError() throws {
    h = try ToolHarness.make("server-hardening")
    try FileManager.default.createDirectory(atPath: media, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws { h.cleanUp() }

  /// curl's answer: the status and the body.
  func curl(_ arguments: [String]) throws -> (status: Int, body: [String: Any]) {
    let out = h.path("curl.out")
    let r = try ToolHarness.run(
      ToolHarness.which("curl"), ["-s", "-o", out, "-w", "%{http_code}", "--max-time", "30"] + arguments)
    let body = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out)))) as? [String: Any]
    return (Int(r.stdout) ?? 0, body ?? [:])
  }

  /// POSTs `body` as JSON with curl (and `extra` arguments).
  func post(_ server: ServerHarness, _ path: String, _ body: Any, _ extra: [String] = []) throws
    -> (status: Int, body: [String: Any])
  {
    let data = try JSONSerialization.data(withJSONObject: body)
    let file = h.path("body.json")
    try data.write(to: URL(fileURLWithPath: file))
    let auth = server.token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []
    return try curl(
      [
        "-X", "POST", "http://127.0.0.1:\(server.port)\(path)", "-H", "Content-Type: application/json",
        "--data-binary", "@\(file)",
      ] + auth + extra)
  }

  func edit(_ extra: [String: Any] = [:]) -> [String: Any] { ServerTests.edit().merging(extra) { $1 } }

  /// The first reproductions: output arguments that write a file, attach one, draw one
  /// into the picture or reach another host are refused before anything runs, naming the
  /// argument; an encoder and its quality are taken.
  func testOutputArgumentsAreAnAllowlist() throws {
    let server = try ServerHarness(media: media, state: h.path("state"), token: "hardening-token-0001")
    let written = h.path("x.mp4")
    let cases: [([String], String, String)] = [
      (["-c:v", "libx264", written], "edit.customOutputArgs[2]", "a bare argument"),
      (["-attach", "/etc/passwd", "-metadata:s:t", "mimetype=text/plain"], "edit.customOutputArgs[0]", "-attach"),
      (["-filter", "drawtext=textfile=/etc/hostname"], "edit.customOutputArgs[0]", "-filter"),
      (["-progress", "http://127.0.0.1:9/"], "edit.customOutputArgs[0]", "-progress"),
      (["-c:v", "libx264", "-passlogfile", "/tmp/p"], "edit.customOutputArgs[2]", "-passlogfile"),
      (["-x264-params", "stats=/tmp/s.log"], "edit.customOutputArgs[1]", "stats"),
      (["-c:v", "file:/etc/passwd"], "edit.customOutputArgs[1]", "expected one of"),
      (["-map", "0"], "edit.customOutputArgs[0]", "LayerKit's to set"),
    ]
    for (arguments, path, words) in cases {
      var body = edit(["customOutputArgs": arguments])
      body["outPath"] = "x.mkv"
      let r = try post(server, "/v1/renders", ["edit": body])
      XCTAssertEqual(r.status, 400, "\(arguments): \(r.body)")
      XCTAssertEqual(r.body["path"] as? String, path, "\(arguments)")
      XCTAssertTrue((r.body["error"] as? String ?? "").contains(words), "\(arguments): \(r.body)")
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: written))
    // editly's own customOutputArgs example's arguments, and an encoder's quality, are taken.
    for arguments in [
      ["-compression_level", "5", "-qscale", "60", "-vcodec", "libwebp"],
      ["-c:v", "libx264", "-crf", "30", "-preset", "veryfast", "-movflags", "+faststart", "-pix_fmt", "yuv420p"],
    ] {
      let r = try post(server, "/v1/renders", ["edit": edit(["customOutputArgs": arguments])])
      XCTAssertEqual(r.status, 202, "\(arguments): \(r.body)")
    }
    let ok = try post(
      server, "/v1/renders",
      ["edit": edit(["customOutputArgs": ["-c:v", "libx264", "-crf", "30", "-tune", "animation"]])])
    let id = try XCTUnwrap(ok.body["id"] as? String)
    XCTAssertEqual(try server.wait(for: id)["status"] as? String, "done")
  }

  /// A font named by a path outside the media folder is refused the same way whether or not the
  /// file exists (nothing can be probed), and so are protocol prefixes and shader file names.
  func testAnEditsPathsNameFilesInTheMediaFolderAlone() throws {
    let server = try ServerHarness(media: media, state: h.path("state"), token: "hardening-token-0002")
    func title(_ font: String) -> [String: Any] {
      ["clips": [["duration": 1, "layers": [["type": "title", "text": "x", "fontFamily": font]]]]]
    }
    let there = try post(server, "/v1/renders", ["edit": title("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")])
    let missing = try post(server, "/v1/renders", ["edit": title("/usr/share/fonts/truetype/dejavu/Nothing-Here.ttf")])
    XCTAssertEqual(there.status, 400, "\(there.body)")
    XCTAssertEqual(missing.status, 400, "\(missing.body)")
    XCTAssertEqual(there.body["path"] as? String, "edit.clips[0].layers[0].fontFamily")
    XCTAssertEqual(there.body["error"] as? String, missing.body["error"] as? String, "the same answer either way")
    for path in ["cache:a.png", "subfile,,start,0,end,10,,:a.png", "concat:a.png|b.png", "crypto:a.png"] {
      let r = try post(
        server, "/v1/renders", ["edit": ["clips": [["duration": 1, "layers": [["type": "image", "path": path]]]]]])
      XCTAssertEqual(r.status, 400, "\(path): \(r.body)")
      XCTAssertEqual(r.body["path"] as? String, "edit.clips[0].layers[0].path", path)
    }
    var glsl = edit()
    glsl["defaults"] = ["transition": ["name": "foo.glsl:x", "duration": 0.2]]
    let shader = try post(server, "/v1/renders", ["edit": glsl])
    XCTAssertEqual(shader.status, 400, "\(shader.body)")
    XCTAssertEqual(shader.body["path"] as? String, "edit.defaults.transition.name")
  }

  /// An edit past the stated limits is refused with the field's JSON path and the limit: the
  /// issue's 7680×4320 at 1000 frames a second for 10 000 s, and each alone.
  func testWorkPastTheLimitsIsRefusedNamingTheLimit() throws {
    let server = try ServerHarness(media: media, state: h.path("state"))
    let huge: [String: Any] = [
      "width": 7680, "height": 4320, "fps": 1000,
      "clips": [["duration": 10_000, "layers": [["type": "fill-color", "color": "#102030"]]]],
    ]
    let r = try post(server, "/v1/renders", ["edit": huge])
    XCTAssertEqual(r.status, 400, "\(r.body)")
    XCTAssertEqual(r.body["path"] as? String, "edit.width")
    XCTAssertEqual(r.body["error"] as? String, "7680 pixels; at most 4096 a side (--limits)")
    let rate = try post(server, "/v1/renders", ["edit": edit(["fps": 1000])])
    XCTAssertEqual(rate.body["path"] as? String, "edit.fps", "\(rate.body)")
    XCTAssertEqual(rate.body["error"] as? String, "1000 frames a second; at most 60 (--limits)")
    var long = edit()
    long["clips"] = [["duration": 10_000, "layers": [["type": "fill-color", "color": "#102030"]]]]
    let length = try post(server, "/v1/renders", ["edit": long])
    XCTAssertEqual(length.body["path"] as? String, "edit.clips[0].duration", "\(length.body)")
    XCTAssertEqual(length.body["error"] as? String, "10000 s; a render lasts at most 600 s (--limits)")
    // Placeholders merged past the bound: a small body that would repeat a long value.
    let value = String(repeating: "x", count: 200_000)
    let text = Array(repeating: "{{ V }}", count: 50).joined()
    let merged = try post(
      server, "/v1/renders",
      [
        "edit": edit(["clips": [["duration": 1, "layers": [["type": "title", "text": text]]]]]), "merge": ["V": value],
      ])
    XCTAssertEqual(merged.status, 413, "\(merged.body)")
    XCTAssertEqual(merged.body["path"] as? String, "edit.clips[0].layers[0].text")
    XCTAssertEqual(
      merged.body["error"] as? String, "merged, the edit passes 1048576 bytes (--limits merged-bytes)")
    XCTAssertTrue(server.stderr.contains("limits pixels=8294400,side=4096,fps=60,duration=600"), server.stderr)
    // A template's rows: each merged edit under its bound, all of them together under theirs.
    let template = try XCTUnwrap(
      try server.call(
        "POST", "/v1/templates",
        json: [
          "edit": edit([
            "clips": [
              ["duration": 1, "layers": [["type": "title", "text": String(repeating: "{{ V }}", count: 1000)]]]
            ]
          ])
        ]
      ).json["id"] as? String)
    // 80 rows of 900 bytes (a 72 kB body) that merge to 900 kB each: past 64 MiB at row 74.
    let rows = Array(repeating: ["V": String(repeating: "y", count: 900)], count: 80)
    let batch = try server.call("POST", "/v1/templates/\(template)/renders", json: ["rows": rows])
    XCTAssertEqual(batch.status, 413, batch.text)
    XCTAssertEqual(batch.json["path"] as? String, "rows[74]")
    XCTAssertEqual(
      batch.json["error"] as? String,
      "merged, the rows' edits pass 67108864 bytes together (--limits batch-bytes)")
  }

  /// Without tokens: a call addressed to another name (DNS rebinding), one from another site's
  /// page, and a body that is not sent as JSON are all refused — the text/plain POST with
  /// a foreign Origin and Host is 403, and nothing is queued.
  func testAServerWithoutTokensAnswersItsOwnPagesAndLoopbackNamesAlone() throws {
    let server = try ServerHarness(media: media, state: h.path("state"))
    let data = String(decoding: try JSONSerialization.data(withJSONObject: ["edit": edit()]), as: UTF8.self)
    let url = "http://127.0.0.1:\(server.port)/v1/renders"
    let attack = try curl(
      [
        "-X", "POST", url, "-H", "Content-Type: text/plain", "-H", "Origin: http://evil.example", "-H",
        "Host: evil.example:\(server.port)", "--data-binary", data,
      ])
    XCTAssertEqual(attack.status, 403, "\(attack.body)")
    XCTAssertTrue((attack.body["error"] as? String ?? "").contains("loopback names only"), "\(attack.body)")
    let foreign = try curl(
      [
        "-X", "POST", url, "-H", "Content-Type: application/json", "-H", "Origin: http://evil.example",
        "--data-binary", data,
      ])
    XCTAssertEqual(foreign.status, 403, "\(foreign.body)")
    XCTAssertTrue((foreign.body["error"] as? String ?? "").contains("another origin"), "\(foreign.body)")
    let plain = try curl(["-X", "POST", url, "-H", "Content-Type: text/plain", "--data-binary", data])
    XCTAssertEqual(plain.status, 415, "\(plain.body)")
    XCTAssertEqual(try curl(["http://localhost:\(server.port)/v1/renders"]).status, 200)
    XCTAssertEqual(try curl(["-H", "Origin: http://127.0.0.1:\(server.port)", url]).status, 200, "its own page")
    XCTAssertEqual((try server.call("GET", "/v1/renders").json["renders"] as? [Any])?.count, 0, "nothing queued")
  }

  /// A render that kills its server each time is failed after `attempts` starts, naming why,
  /// and does not hold up the next one.
  func testARenderThatKeepsKillingItsServerFailsAfterItsAttempts() throws {
    let state = h.path("state")
    var server = try ServerHarness(media: media, state: state, arguments: ["--limits", "attempts=2"])
    let long = try XCTUnwrap(
      try server.call("POST", "/v1/renders", json: ["edit": ServerTests.edit(seconds: 60, size: 1280)]).json["id"]
        as? String)
    for _ in 0..<2 {
      _ = try server.wait(for: long) {
        ($0["status"] as? String) == "rendering" && ($0["progress"] as? Double ?? 0) > 0.02
      }
      server.stop(SIGKILL)
      server = try ServerHarness(media: media, state: state, arguments: ["--limits", "attempts=2"])
    }
    let next = try XCTUnwrap(try server.call("POST", "/v1/renders", json: ["edit": edit()]).json["id"] as? String)
    let failed = try server.wait(for: long)
    XCTAssertEqual(failed["status"] as? String, "failed", "\(failed)")
    XCTAssertEqual(failed["attempts"] as? Int, 2)
    XCTAssertTrue((failed["error"] as? String ?? "").contains("started 2 times"), "\(failed)")
    XCTAssertEqual(try server.wait(for: next)["status"] as? String, "done")
    // What the killed attempts left half-written is swept once the render has ended.
    Thread.sleep(forTimeInterval: 2.5)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state + "/outputs"), ["\(next)-1.mp4"])
  }

  /// A render past its output size or its wall time is stopped, fails naming the limit and
  /// leaves no video; a video is kept for `--keep` seconds, then it is 410 Gone.
  func testARenderPastItsSizeOrTimeIsStoppedAndVideosAreKeptTheirTime() throws {
    let state = h.path("state")
    let server = try ServerHarness(
      media: media, state: state, token: "hardening-token-0003",
      arguments: ["--limits", "output-bytes=2000,templates=1,streams-per-client=1", "--keep", "2"])
    let big = try XCTUnwrap(
      try server.call("POST", "/v1/renders", json: ["edit": ServerTests.edit(seconds: 6, size: 640)]).json["id"]
        as? String)
    let stopped = try server.wait(for: big)
    XCTAssertEqual(stopped["status"] as? String, "failed", "\(stopped)")
    XCTAssertEqual(stopped["error"] as? String, "the video passed 2000 bytes (--limits output-bytes)")
    let small = try XCTUnwrap(
      try server.call("POST", "/v1/renders", json: ["edit": ServerTests.edit(seconds: 0.3, size: 32)]).json["id"]
        as? String)
    XCTAssertEqual(try server.wait(for: small)["status"] as? String, "done")
    XCTAssertEqual(try server.call("GET", "/v1/renders/\(small)/output").status, 200)
    Thread.sleep(forTimeInterval: 3.5)
    let gone = try server.call("GET", "/v1/renders/\(small)/output")
    XCTAssertEqual(gone.status, 410, gone.text)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: state + "/outputs"), [])
    // Templates: one kept at most, until it is deleted.
    let first = try server.call("POST", "/v1/templates", json: ["edit": edit()])
    XCTAssertEqual(first.status, 201)
    XCTAssertEqual(try server.call("POST", "/v1/templates", json: ["edit": edit()]).status, 429)
    let id = try XCTUnwrap(first.json["id"] as? String)
    XCTAssertEqual(try server.call("DELETE", "/v1/templates/\(id)").status, 204)
    XCTAssertEqual(try server.call("GET", "/v1/templates/\(id)").status, 404)
    XCTAssertEqual(try server.call("POST", "/v1/templates", json: ["edit": edit()]).status, 201)
    // Event streams: one open for this client at most.
    let slow = try XCTUnwrap(
      try server.call("POST", "/v1/renders", json: ["edit": ServerTests.edit(seconds: 120, size: 640)]).json["id"]
        as? String)
    let stream = Process()
    stream.executableURL = URL(fileURLWithPath: ToolHarness.which("curl"))
    stream.arguments = [
      "-sN", "-H", "Authorization: Bearer hardening-token-0003",
      "http://127.0.0.1:\(server.port)/v1/renders/\(slow)/events",
    ]
    stream.standardOutput = FileHandle.nullDevice
    try stream.run()
    defer { stream.terminate() }
    Thread.sleep(forTimeInterval: 1)
    let second = try server.call("GET", "/v1/renders/\(slow)/events")
    XCTAssertEqual(second.status, 429, second.text)
    XCTAssertEqual(try server.call("DELETE", "/v1/renders/\(slow)").status, 200)
  }

  /// A render past its wall time is stopped and fails naming the limit.
  func testARenderPastItsWallTimeIsStopped() throws {
    let server = try ServerHarness(media: media, state: h.path("state"), arguments: ["--limits", "render-seconds=1"])
    let id = try XCTUnwrap(
      try server.call("POST", "/v1/renders", json: ["edit": ServerTests.edit(seconds: 120, size: 1280)]).json["id"]
        as? String)
    let ended = try server.wait(for: id)
    XCTAssertEqual(ended["status"] as? String, "failed", "\(ended)")
    XCTAssertEqual(ended["error"] as? String, "the render took more than 1 s (--limits render-seconds)")
  }

  /// deploy/server's systemd unit, its command line run as systemd runs it: the secrets read from
  /// its credential files (`%d`), none on the command line, the server listening with its one
  /// client and its queue in PostgreSQL (the tests' own database for it).
  func testTheSystemdUnitsCommandLineStartsAServerWithItsCredentials() throws {
    let unit = try String(
      contentsOf: ServerTests.root.appendingPathComponent("deploy/server/layerkit-server.service"), encoding: .utf8)
    for directive in [
      "ProtectSystem=strict", "PrivateTmp=yes", "NoNewPrivileges=yes", "MemoryMax=", "LoadCredential=tokens:",
    ] {
      XCTAssertTrue(unit.contains(directive), directive)
    }
    let start = try XCTUnwrap(unit.components(separatedBy: "\n").firstIndex { $0.hasPrefix("ExecStart=") })
    var line = ""
    for part in unit.components(separatedBy: "\n")[start...] {
      line += part.hasSuffix("\\") ? String(part.dropLast()) : part
      if !part.hasSuffix("\\") { break }
    }
    var arguments = line.dropFirst("ExecStart=".count).split(separator: " ").map(String.init).dropFirst().map { $0 }
    XCTAssertFalse(arguments.contains { $0.contains("postgres://") || $0 == "--token" }, "\(arguments)")
    let credentials = h.path("credentials")
    try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
    let url = try String(contentsOf: ServerTests.root.appendingPathComponent(".build/postgres-url"), encoding: .utf8)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    XCTAssertTrue(url.hasSuffix("/layerkit"), url)
    try (url + "_deploy").write(toFile: credentials + "/queue", atomically: true, encoding: .utf8)
    try "ops a-secret-for-the-unit-0001\n".write(toFile: credentials + "/tokens", atomically: true, encoding: .utf8)
    try "a-callback-secret-of-some-length".write(
      toFile: credentials + "/callback-secret", atomically: true, encoding: .utf8)
    arguments = arguments.map {
      $0.replacingOccurrences(of: "%d", with: credentials)
        .replacingOccurrences(of: "/srv/layerkit/media", with: media)
        .replacingOccurrences(of: "/srv/layerkit/state", with: h.path("state"))
    }
    // From --tokens on as the unit writes them; the folders, host and port the harness's (a port
    // the system chooses, on loopback: the test's machine).
    let server = try ServerHarness(
      media: media, state: h.path("state"), arguments: Array(arguments.drop { $0 != "--tokens" }))
    XCTAssertTrue(server.stderr.contains("(1 clients)"), server.stderr)
    XCTAssertEqual(try server.call("GET", "/v1/renders", token: "").status, 401)
    let mine = try server.call("GET", "/v1/renders", token: "a-secret-for-the-unit-0001")
    XCTAssertEqual(mine.status, 200, mine.text)
  }

  /// A shader that never ends, on the GPU (llvmpipe), past `--limits frame-seconds`: the render
  /// fails naming the limit, and since the frame cannot be unwound from inside the renderer the
  /// server ends itself (status 70) instead of keeping a core busy forever; started again, it
  /// does not render it again and takes the next.
  func testAFrameStuckInTheRendererFailsItsRenderAndEndsTheServer() throws {
    let transitions = h.path("transitions")
    try FileManager.default.createDirectory(atPath: transitions, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures/endless.glsl"
      )
      .path,
      toPath: transitions + "/endless.glsl")
    let state = h.path("state")
    let arguments = [
      "--renderer", "gpu", "--gl-transitions", transitions, "--limits", "frame-seconds=1",
    ]
    var server = try ServerHarness(media: media, state: state, arguments: arguments)
    var stuck = ServerTests.edit(size: 320)
    stuck["defaults"] = ["transition": ["name": "endless", "duration": 0.4]]
    let id = try XCTUnwrap(try server.call("POST", "/v1/renders", json: ["edit": stuck]).json["id"] as? String)
    let deadline = Date().addingTimeInterval(60)
    while server.process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
    XCTAssertFalse(server.process.isRunning, "the server ended itself")
    XCTAssertEqual(server.process.terminationStatus, 70, server.stderr)
    XCTAssertTrue(server.stderr.contains("the frame is stuck in the renderer"), server.stderr)
    server = try ServerHarness(media: media, state: state, arguments: arguments)
    let failed = try server.wait(for: id)
    XCTAssertEqual(failed["status"] as? String, "failed", "\(failed)")
    XCTAssertEqual(failed["attempts"] as? Int, 1, "\(failed)")
    XCTAssertTrue(
      (failed["error"] as? String ?? "").contains("took over 1 s (--limits frame-seconds)"), "\(failed)")
    let next = try XCTUnwrap(try server.call("POST", "/v1/renders", json: ["edit": edit()]).json["id"] as? String)
    XCTAssertEqual(try server.wait(for: next)["status"] as? String, "done")
  }
}
