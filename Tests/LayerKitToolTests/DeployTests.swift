import Foundation
import LayerKit
import LayerKitMedia
import XCTest

/// The cluster recipes in deploy/: the shard script run as Kubernetes and Slurm would run it, one
/// process per index, then the join script, must give the very bytes of an unsharded render; and
/// the manifests must keep calling those scripts.
final class DeployTests: XCTestCase {
  private struct ToolRun {
    var status: Int32
    /// Standard output and standard error, interleaved.
    var output: String
  }

  /// The slideshow every test renders: settings unlike the scripts' defaults, so that a setting
  /// the scripts failed to pass on would change the frames.
  private static let shards = 3
  private static let settings: [String: String] = [
    "TRANSITION": "push:fromRight",
    "TRANSITION_DURATION": "0.3",
    "HOLD": "0.5",
    "SIZE": "64x36",
    "FPS": "10",
    "RENDERER": "cpu",
  ]

  private var tmp: URL!
  private var inputs: URL!

  override func setUpWithError() throws {
    tmp = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-deploy-\(UUID().uuidString)")
    inputs = tmp.appendingPathComponent("work")
    try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
    // Two small stills, named in show order (the shard script takes INPUT_DIR's files by name).
    try ImageFile.writePNG(
      try Self.gradient(width: 64, height: 36, flip: false), to: inputs.appendingPathComponent("01-a.png"))
    try ImageFile.writePNG(
      try Self.gradient(width: 64, height: 36, flip: true), to: inputs.appendingPathComponent("02-b.png"))
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: tmp)
  }

  // MARK: Kubernetes (JOB_COMPLETION_INDEX)

  func testKubernetesShardsJoinToTheUnshardedRender() throws {
    let out = tmp.appendingPathComponent("k8s-out")
    let script = Self.repositoryRoot.appendingPathComponent("deploy/render-shard.sh").path
    for index in 0..<Self.shards {
      let r = try runTool(
        "/bin/sh", [script],
        environment: Self.settings.merging([
          "JOB_COMPLETION_INDEX": "\(index)",
          "SHARDS": "\(Self.shards)",
          "INPUT_DIR": inputs.path,
          "OUTPUT_DIR": out.path,
          "LAYERKIT": try layerkitExecutable().path,
        ]) { $1 })
      XCTAssertEqual(r.status, 0, "shard \(index): \(r.output)")
    }
    try assertParts(in: out)

    let joined = out.appendingPathComponent("video.y4m")
    let j = try runTool(
      "/bin/sh", [Self.repositoryRoot.appendingPathComponent("deploy/join.sh").path],
      environment: [
        "SHARDS": "\(Self.shards)",
        "OUTPUT_DIR": out.path,
        "OUTPUT": joined.path,
        "LAYERKIT": try layerkitExecutable().path,
      ])
    XCTAssertEqual(j.status, 0, j.output)
    try assertSameFrames(joined, try unshardedRender())
  }

  // MARK: Slurm (SLURM_ARRAY_TASK_ID)

  func testSlurmArrayTasksJoinToTheUnshardedRender() throws {
    // As Slurm runs the batch scripts: a copy somewhere else (here: the repository's file, run
    // from another folder), SLURM_SUBMIT_DIR naming the repository, the shard count from the
    // array's size, and inputs and parts in ./work and ./out of the working folder.
    let sbatch = Self.repositoryRoot.appendingPathComponent("deploy/slurm/render.sbatch").path
    for index in 0..<Self.shards {
      let r = try runTool(
        "/bin/bash", [sbatch],
        environment: Self.settings.merging([
          "SLURM_ARRAY_TASK_ID": "\(index)",
          "SLURM_ARRAY_TASK_COUNT": "\(Self.shards)",
          "SLURM_SUBMIT_DIR": Self.repositoryRoot.path,
          "LAYERKIT": try layerkitExecutable().path,
        ]) { $1 },
        directory: tmp)
      XCTAssertEqual(r.status, 0, "task \(index): \(r.output)")
    }
    let out = tmp.appendingPathComponent("out")
    try assertParts(in: out)

    let j = try runTool(
      "/bin/bash", [Self.repositoryRoot.appendingPathComponent("deploy/slurm/join.sbatch").path],
      environment: [
        "SHARDS": "\(Self.shards)",
        "OUTPUT": out.appendingPathComponent("video.y4m").path,
        "SLURM_SUBMIT_DIR": Self.repositoryRoot.path,
        "LAYERKIT": try layerkitExecutable().path,
      ],
      directory: tmp)
    XCTAssertEqual(j.status, 0, j.output)
    try assertSameFrames(out.appendingPathComponent("video.y4m"), try unshardedRender())
  }

  // MARK: The plan step

  /// A plan freezes the inputs and settings: shards run with nothing but their index and the
  /// folder (the shard count and settings come from the plan), join to the unsharded render, and
  /// a shard re-run after an input changed fails (exit 65, naming it) and leaves its part alone.
  func testPlannedShardsRenderTheFrozenInputsAndRefuseAChangedOne() throws {
    let out = tmp.appendingPathComponent("planned")
    let plan = try runTool(
      "/bin/sh", [Self.repositoryRoot.appendingPathComponent("deploy/plan.sh").path],
      environment: Self.settings.merging([
        "SHARDS": "\(Self.shards)", "INPUT_DIR": inputs.path, "OUTPUT_DIR": out.path,
      ]) { $1 })
    XCTAssertEqual(plan.status, 0, plan.output)
    let listed = try String(contentsOf: out.appendingPathComponent("inputs.sha256"), encoding: .utf8)
    XCTAssertEqual(listed.split(separator: "\n").count, 2, listed)
    let script = Self.repositoryRoot.appendingPathComponent("deploy/render-shard.sh").path
    for index in 0..<Self.shards {
      let r = try runTool(
        "/bin/sh", [script],
        environment: [
          "JOB_COMPLETION_INDEX": "\(index)", "OUTPUT_DIR": out.path, "LAYERKIT": try layerkitExecutable().path,
        ])
      XCTAssertEqual(r.status, 0, "shard \(index): \(r.output)")
    }
    let joined = out.appendingPathComponent("video.y4m")
    let j = try runTool(
      "/bin/sh", [Self.repositoryRoot.appendingPathComponent("deploy/join.sh").path],
      environment: ["OUTPUT_DIR": out.path, "OUTPUT": joined.path, "LAYERKIT": try layerkitExecutable().path])
    XCTAssertEqual(j.status, 0, j.output)
    try assertSameFrames(joined, try unshardedRender())

    let part = out.appendingPathComponent("part-1.mkv")
    let before = try Data(contentsOf: part)
    try ImageFile.writePNG(
      try Self.gradient(width: 64, height: 36, flip: false), to: inputs.appendingPathComponent("02-b.png"))
    let rerun = try runTool(
      "/bin/sh", [script],
      environment: ["JOB_COMPLETION_INDEX": "1", "OUTPUT_DIR": out.path, "LAYERKIT": try layerkitExecutable().path])
    XCTAssertEqual(rerun.status, 65, rerun.output)
    XCTAssertTrue(rerun.output.contains("02-b.png"), rerun.output)
    XCTAssertEqual(try Data(contentsOf: part), before)
  }

  func testShardScriptWithoutAnIndexRefuses() throws {
    let r = try runTool(
      "/bin/sh", [Self.repositoryRoot.appendingPathComponent("deploy/render-shard.sh").path],
      environment: ["INPUT_DIR": inputs.path, "OUTPUT_DIR": tmp.appendingPathComponent("none").path])
    XCTAssertEqual(r.status, 64, r.output)
    XCTAssertTrue(r.output.contains("JOB_COMPLETION_INDEX"), r.output)
    XCTAssertFalse(FileManager.default.fileExists(atPath: tmp.appendingPathComponent("none").path))
  }

  func testJoinScriptNamesAMissingPart() throws {
    let out = tmp.appendingPathComponent("partial-out")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    try Data().write(to: out.appendingPathComponent("part-0.mkv"))
    let r = try runTool(
      "/bin/sh", [Self.repositoryRoot.appendingPathComponent("deploy/join.sh").path],
      environment: ["SHARDS": "2", "OUTPUT_DIR": out.path, "LAYERKIT": "/nonexistent/layerkit"])
    XCTAssertEqual(r.status, 66, r.output)
    XCTAssertTrue(r.output.contains("part-1.mkv"), r.output)
  }

  // MARK: The recipes call the scripts

  func testKubernetesManifestsRunTheScripts() throws {
    let render = try Self.text("deploy/kubernetes/render-job.yaml")
    XCTAssertTrue(render.contains("completionMode: Indexed"))
    XCTAssertTrue(render.contains("JOB_COMPLETION_INDEX"))
    XCTAssertTrue(Self.lines(render, with: "command:").contains { $0.contains("render-shard.sh") }, render)
    // The pods get the scripts from a ConfigMap made from the repository's files.
    XCTAssertTrue(render.contains("--from-file=deploy/render-shard.sh"))
    XCTAssertTrue(render.contains("--from-file=deploy/join.sh"))
    let completions = try XCTUnwrap(Self.value(after: "completions:", in: render))
    XCTAssertEqual(Self.envValues("SHARDS", in: render), [completions], "completions and SHARDS differ")

    let join = try Self.text("deploy/kubernetes/join-job.yaml")
    XCTAssertTrue(Self.lines(join, with: "command:").contains { $0.contains("join.sh") }, join)
    XCTAssertEqual(Self.envValues("SHARDS", in: join), [completions], "the join expects another shard count")
  }

  func testSlurmScriptsRunTheScripts() throws {
    let render = try Self.text("deploy/slurm/render.sbatch")
    XCTAssertTrue(Self.lines(render, with: "exec ").contains { $0.contains("render-shard.sh") }, render)
    XCTAssertTrue(render.contains("SLURM_ARRAY_TASK_COUNT"))
    XCTAssertTrue(render.contains("--dependency=afterok:"))
    let array = try XCTUnwrap(Self.value(after: "#SBATCH --array=", in: render, comments: true))
    XCTAssertTrue(array.hasPrefix("0-"), "the array must count shards from 0: \(array)")
    let tasks = try XCTUnwrap(Int(array.dropFirst(2).prefix { $0.isNumber })).advanced(by: 1)

    let join = try Self.text("deploy/slurm/join.sbatch")
    XCTAssertTrue(Self.lines(join, with: "exec ").contains { $0.contains("join.sh") }, join)
    XCTAssertTrue(
      join.contains("export SHARDS=${SHARDS:-\(tasks)}"),
      "join.sbatch expects another shard count than --array=\(array)")

    // And the shard script reads both schedulers' index.
    let script = try Self.text("deploy/render-shard.sh")
    for name in ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID", "--shard \"$index/$shards\"", "${LAYERKIT:-layerkit}"] {
      XCTAssertTrue(script.contains(name), "render-shard.sh lacks \(name)")
    }
  }

  // MARK: Helpers

  /// The repository: three levels up from Tests/LayerKitToolTests/DeployTests.swift.
  private static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  private static func text(_ path: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
  }

  /// The lines holding `needle`, comment lines (starting with #) left out unless `comments`.
  private static func lines(_ text: String, with needle: String, comments: Bool = false) -> [Substring] {
    text.split(separator: "\n").filter {
      $0.contains(needle) && (comments || !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#"))
    }
  }

  /// The first word after `key` on the first line holding it.
  private static func value(after key: String, in text: String, comments: Bool = false) -> String? {
    guard let line = lines(text, with: key, comments: comments).first, let range = line.range(of: key) else {
      return nil
    }
    return line[range.upperBound...].split(separator: " ").first.map { String($0).trimmingCharacters(in: ["\""]) }
  }

  /// The values of every `- name: NAME` / `value: …` pair of a manifest.
  private static func envValues(_ name: String, in text: String) -> [String] {
    let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    var values: [String] = []
    for (i, line) in lines.enumerated() where line == "- name: \(name)" && i + 1 < lines.count {
      let next = lines[i + 1]
      guard next.hasPrefix("value:") else { continue }
      let value = next.dropFirst("value:".count).split(separator: "#").first ?? ""
      values.append(value.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""]))
    }
    return values
  }

  /// The same slideshow rendered whole, by the binary directly.
  private func unshardedRender() throws -> URL {
    let s = Self.settings
    let whole = tmp.appendingPathComponent("whole.y4m")
    let r = try runTool(
      try layerkitExecutable().path,
      [
        "slideshow", inputs.appendingPathComponent("01-a.png").path, inputs.appendingPathComponent("02-b.png").path,
        "--transition", s["TRANSITION"]!, "--transition-duration", s["TRANSITION_DURATION"]!,
        "--hold", s["HOLD"]!, "--size", s["SIZE"]!, "--fps", s["FPS"]!, "--renderer", s["RENDERER"]!,
        "--quiet", "-o", whole.path,
      ])
    XCTAssertEqual(r.status, 0, r.output)
    return whole
  }

  /// part-0.mkv … part-(shards-1).mkv, nothing half-written left beside them.
  private func assertParts(in folder: URL, file: StaticString = #filePath, line: UInt = #line) throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    XCTAssertEqual(names, (0..<Self.shards).map { "part-\($0).mkv" }, file: file, line: line)
  }

  /// The joined parts against the unsharded render: the same header and frames, byte for byte
  /// except the push's 3 frames (0.3 s at 10 fps), which the unsharded Y4M computes in its own
  /// planes (a slide between stills) and the parts draw in RGBA (lossless FFV1 holds RGBA):
  /// those within one level.
  private func assertSameFrames(_ a: URL, _ b: URL, file: StaticString = #filePath, line: UInt = #line) throws {
    let (x, y) = (try Y4MReader(path: a.path), try Y4MReader(path: b.path))
    XCTAssertEqual(x.headerLine, y.headerLine, file: file, line: line)
    let (fx, fy) = (try x.readAllFrames(), try y.readAllFrames())
    XCTAssertGreaterThan(fx.count, 0, file: file, line: line)
    XCTAssertEqual(
      fx.count, fy.count, "frames of \(a.lastPathComponent) and \(b.lastPathComponent)", file: file, line: line)
    var differing = 0
    for (k, (p, q)) in zip(fx, fy).enumerated() where p != q {
      differing += 1
      let worst = zip(p, q).map { abs(Int($0) - Int($1)) }.max() ?? 0
      // A level apart in BT.709 can be two once re-expressed in BT.601 (an SD Y4M's matrix).
      XCTAssertLessThanOrEqual(worst, 2, "frame \(k)", file: file, line: line)
    }
    XCTAssertLessThanOrEqual(differing, 3, "frames that differ", file: file, line: line)
  }

  /// A 64×36 opaque gradient, different across and down; `flip` mirrors it and swaps colours.
  private static func gradient(width: Int, height: Int, flip: Bool) throws -> Image {
    var px = [UInt8](repeating: 255, count: width * height * 4)
    for y in 0..<height {
      for x in 0..<width {
        let i = (y * width + x) * 4
        let u = UInt8((flip ? width - 1 - x : x) * 255 / (width - 1))
        let v = UInt8(y * 255 / (height - 1))
        px[i] = flip ? v : u
        px[i + 1] = flip ? 255 - u : v
        px[i + 2] = flip ? u : 128
      }
    }
    return try Image(width: width, height: height, pixels: px)
  }

  private func layerkitExecutable() throws -> URL { try ToolHarness.binary() }

  /// Runs `executable` with this process's environment less any scheduler or script settings it
  /// may have (a test run inside a Slurm job has SLURM_ARRAY_TASK_ID…), plus `environment`.
  private func runTool(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil
  ) throws -> ToolRun {
    var env = ProcessInfo.processInfo.environment.filter { key, _ in
      !key.hasPrefix("SLURM_") && key != "JOB_COMPLETION_INDEX" && key != "DEPLOY_DIR"
        && !["SHARDS", "INPUT_DIR", "OUTPUT_DIR", "OUTPUT", "EXTRA_ARGS", "LAYERKIT"].contains(key)
        && Self.settings[key] == nil
    }
    env.merge(environment) { $1 }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = env
    if let directory { process.currentDirectoryURL = directory }
    // One pipe for both streams: read to its end, so neither can fill up and stall the tool.
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolRun(status: process.terminationStatus, output: String(decoding: data, as: UTF8.self))
  }
}
