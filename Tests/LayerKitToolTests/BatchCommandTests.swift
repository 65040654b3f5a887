import Foundation
import LayerKit
import XCTest

/// `layerkit batch`: one video a CSV row, the row in each; resumable; split by `--shard`; and
/// the same videos as the render server's templates make of the same rows.
final class BatchCommandTests: XCTestCase {
  static let template = """
    // A card: the row's words over one colour, for as long as the row says.
    {
      width: 96, height: 54, fps: 10,
      clips: [{duration: "{{ SECONDS }}", layers: [
        {type: "fill-color", color: "#204060"},
        {type: "title", text: "Order {{ID}} for {{ NAME }}"},
      ]}],
    }
    """

  /// The MD5 of each decoded frame of `file`, by ffmpeg's framemd5.
  static func frames(_ file: String) throws -> [String] {
    let r = try ToolHarness.run(ToolHarness.which("ffmpeg"), ["-v", "error", "-i", file, "-f", "framemd5", "-"])
    XCTAssertEqual(r.status, 0, r.stderr)
    return r.lines.filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
  }

  /// A template's output arguments are held to the allowlist an edit file's are, row by row: a
  /// row whose cell makes a bare argument (one more output file to ffmpeg) is refused naming it,
  /// writes nothing there, and the other rows render.
  func testOutputArgumentsOfEveryRowAreHeldToTheAllowlist() throws {
    let h = try ToolHarness.make("batch-arguments")
    defer { h.cleanUp() }
    let template = h.path("card.json5")
    try """
    { width: 32, height: 18, fps: 10, customOutputArgs: ["-preset", "{{ PRESET }}"],
      clips: [{ duration: 0.3, layers: [{ type: "fill-color", color: "#204060" }] }] }
    """.write(toFile: template, atomically: true, encoding: .utf8)
    let stolen = h.path("stolen.mp4")
    try "ID,PRESET\n1,veryfast\n2,\(stolen)\n".write(toFile: h.path("rows.csv"), atomically: true, encoding: .utf8)
    let r = try h.run(["batch", template, h.path("rows.csv"), "-o", h.path("out/{{ID}}.mp4"), "--renderer", "cpu"])
    XCTAssertEqual(r.status, 1, r.stderr)
    XCTAssertTrue(r.stderr.contains("row 2: "), r.stderr)
    XCTAssertTrue(r.stderr.contains("customOutputArgs[1]: -preset /"), r.stderr)
    XCTAssertTrue(r.stderr.contains(": expected one of default, drawing, fast"), r.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: h.path("out/1.mp4")))
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("out/2.mp4")))
    XCTAssertFalse(FileManager.default.fileExists(atPath: stolen))
  }

  func testEachRowIsRenderedOnceResumedAndSplitAcrossShards() throws {
    let h = try ToolHarness.make("batch")
    defer { h.cleanUp() }
    let template = h.path("card.json5")
    try Self.template.write(toFile: template, atomically: true, encoding: .utf8)
    var csv = "ID,NAME,SECONDS\n"
    for i in 0..<20 { csv += "\(i + 1),\"Customer \(i + 1), Esq.\",0.4\n" }
    try csv.write(toFile: h.path("rows.csv"), atomically: true, encoding: .utf8)
    let args = [
      "batch", template, h.path("rows.csv"), "-o", h.path("out/{{ID}}.mp4"), "--jobs", "2", "--renderer", "cpu",
    ]
    let first = try h.run(args)
    XCTAssertEqual(first.status, 0, first.stderr)
    XCTAssertTrue(first.stderr.contains("20 of 20 rows rendered or kept, 0 failed"), first.stderr)
    var seen: [String: Int] = [:]
    for i in 1...20 {
      let frames = try Self.frames(h.path("out/\(i).mp4"))
      XCTAssertEqual(frames.count, 4, "row \(i)")
      // Only the words differ from row to row: every row's picture is its own.
      XCTAssertNil(seen[frames[0]], "row \(i) looks like row \(seen[frames[0]] ?? 0)")
      seen[frames[0]] = i
    }
    // Again: nothing to do but the video removed.
    try FileManager.default.removeItem(atPath: h.path("out/7.mp4"))
    let again = try h.run(args)
    XCTAssertEqual(again.status, 0, again.stderr)
    XCTAssertEqual(again.stderr.components(separatedBy: "exists, skipped").count - 1, 19, again.stderr)
    XCTAssertTrue(again.stderr.contains("row 7: wrote"), again.stderr)
    // Two shards make the whole batch between them, each row once.
    var made: [String] = []
    for shard in ["0/2", "1/2"] {
      let r = try h.run(
        [
          "batch", template, h.path("rows.csv"), "-o", h.path("split/{{ID}}.mp4"), "--shard", shard, "--renderer",
          "cpu",
        ])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(r.stderr.contains("10 of 10 rows"), r.stderr)
      made += r.stderr.split(separator: "\n").filter { $0.contains("wrote") }.map(String.init)
    }
    XCTAssertEqual(made.count, 20)
    XCTAssertEqual(try Self.frames(h.path("split/13.mp4")), try Self.frames(h.path("out/13.mp4")))
  }

  func testARowThatFailsIsNamedAndTheOthersAreRendered() throws {
    let h = try ToolHarness.make("batch-fail")
    defer { h.cleanUp() }
    let template = h.path("card.json5")
    try Self.template.write(toFile: template, atomically: true, encoding: .utf8)
    try "ID,NAME,SECONDS\n1,Ada,0.3\n2,Bob,soon\n3,Cy,0.3\n".write(
      toFile: h.path("rows.csv"), atomically: true, encoding: .utf8)
    let r = try h.run(["batch", template, h.path("rows.csv"), "-o", h.path("{{ID}}.mp4"), "--renderer", "cpu"])
    XCTAssertEqual(r.status, 1, r.stderr)
    XCTAssertTrue(r.stderr.contains("row 2: \(template): clips[0].duration: expected a number"), r.stderr)
    XCTAssertTrue(FileManager.default.fileExists(atPath: h.path("1.mp4")))
    XCTAssertFalse(FileManager.default.fileExists(atPath: h.path("2.mp4")))
    XCTAssertTrue(FileManager.default.fileExists(atPath: h.path("3.mp4")))
    // A column the template names and the file lacks, and an output every row would share.
    try "ID,NAME\n1,Ada\n".write(toFile: h.path("short.csv"), atomically: true, encoding: .utf8)
    let missing = try h.run(["batch", template, h.path("short.csv"), "-o", h.path("{{ID}}.mp4")])
    XCTAssertEqual(missing.status, 1)
    XCTAssertTrue(missing.stderr.contains("no column SECONDS (its columns: ID, NAME)"), missing.stderr)
    let shared = try h.run(["batch", template, h.path("rows.csv"), "-o", h.path("one.mp4")])
    XCTAssertEqual(shared.status, 64)
    XCTAssertTrue(shared.stderr.contains("name each video with a placeholder"), shared.stderr)
  }

  /// The render server's template of the same edit makes the same videos of the same rows.
  func testTheServersTemplateMakesTheBatchsVideos() throws {
    let h = try ToolHarness.make("batch-server")
    defer { h.cleanUp() }
    let template = h.path("card.json5")
    try Self.template.write(toFile: template, atomically: true, encoding: .utf8)
    try "ID,NAME,SECONDS\n1,Ada,0.4\n2,Bob,0.4\n".write(toFile: h.path("rows.csv"), atomically: true, encoding: .utf8)
    let r = try h.run(["batch", template, h.path("rows.csv"), "-o", h.path("{{ID}}.mp4"), "--renderer", "cpu"])
    XCTAssertEqual(r.status, 0, r.stderr)
    let server = try ServerHarness(media: h.folder.path, state: h.path("state"))
    // The template as JSON (the API's body), written as the file says.
    let edit: [String: Any] = [
      "width": 96, "height": 54, "fps": 10,
      "clips": [
        [
          "duration": "{{ SECONDS }}",
          "layers": [
            ["type": "fill-color", "color": "#204060"], ["type": "title", "text": "Order {{ID}} for {{ NAME }}"],
          ],
        ]
      ],
    ]
    let id = try XCTUnwrap(try server.call("POST", "/v1/templates", json: ["edit": edit]).json["id"] as? String)
    let rows: [[String: Any]] = [["ID": 1, "NAME": "Ada", "SECONDS": 0.4], ["ID": 2, "NAME": "Bob", "SECONDS": 0.4]]
    let queued = try server.call("POST", "/v1/templates/\(id)/renders", json: ["rows": rows])
    let ids = try XCTUnwrap(queued.json["renders"] as? [[String: Any]]).compactMap { $0["id"] as? String }
    for (k, render) in ids.enumerated() {
      XCTAssertEqual(try server.wait(for: render)["status"] as? String, "done")
      let file = h.path("api\(k + 1).mp4")
      try server.call("GET", "/v1/renders/\(render)/output").data.write(to: URL(fileURLWithPath: file))
      XCTAssertEqual(try Self.frames(file), try Self.frames(h.path("\(k + 1).mp4")), "row \(k + 1)")
    }
  }
}
