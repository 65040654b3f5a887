import Foundation
import LayerKit
import LayerKitMedia
import LayerKitSamples
import XCTest

/// The `layerkit` binary, run as a user runs it: exact output lines and exit codes.
final class CommandLineTests: XCTestCase {
  typealias Run = ToolHarness.Run

  var tmp: URL!

  override func setUpWithError() throws {
    tmp = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: tmp)
  }

  func binary() throws -> URL { try ToolHarness.binary() }

  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
    try ToolHarness.run(try binary().path, arguments, environment: environment)
  }

  func write(_ image: Image, _ name: String) throws -> String {
    let url = tmp.appendingPathComponent(name)
    try ImageFile.writePNG(image, to: url)
    return url.path
  }

  /// 10×10 grey; `changed` pixels (from the top-left, row by row) get +delta on red.
  func greyImage(changed: Int = 0, delta: Int = 0) throws -> Image {
    var px = [UInt8](repeating: 0, count: 400)
    for i in 0..<100 {
      px[i * 4] = 100 + (i < changed ? UInt8(delta) : 0)
      px[i * 4 + 1] = 100
      px[i * 4 + 2] = 100
      px[i * 4 + 3] = 255
    }
    return try Image(width: 10, height: 10, pixels: px)
  }

  // MARK: info

  func testInfoReportsTheGLStack() throws {
    let r = try run(["info"])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stdout.contains("OpenGL ES 3"), r.stdout)
    for key in ["platform", "GL_RENDERER", "GL_VERSION", "GL_MAX_TEXTURE_SIZE"] {
      XCTAssertTrue(r.stdout.contains(key), "missing \(key) in:\n\(r.stdout)")
    }
  }

  func testInfoWithoutADisplayFailsInOneLine() throws {
    // GBM needs a /dev/dri render node; on machines without one, forcing it must fail cleanly.
    guard !FileManager.default.fileExists(atPath: "/dev/dri") else {
      throw XCTSkip("this machine has /dev/dri, so GBM may work here")
    }
    let r = try run(["info"], environment: ["LAYERKIT_EGL_PLATFORM": "gbm"])
    XCTAssertEqual(r.status, 1)
    let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("layerkit") }
    XCTAssertEqual(lines.count, 1, r.stderr)
    XCTAssertTrue(r.stderr.contains("CPU"), r.stderr)
  }

  // MARK: compare

  func testCompareIdenticalImages() throws {
    let a = try write(greyImage(), "a.png")
    let r = try run(["compare", a, a])
    XCTAssertEqual(r.status, 0)
    XCTAssertEqual(
      r.lines,
      [
        "max channel delta: 0",
        "pixels beyond 2: 0.0000% (0 of 100)",
        "psnr: inf dB",
        "result: within tolerance",
      ])
  }

  func testCompareOutsideTolerance() throws {
    // 5 of 100 pixels off by 10 in one channel: MSE = 5·100 / 400 = 1.25,
    // PSNR = 10·log10(255² / 1.25) = 47.16 dB; 5 % of pixels beyond 2 → outside.
    let a = try write(greyImage(), "a.png")
    let b = try write(greyImage(changed: 5, delta: 10), "b.png")
    let diff = tmp.appendingPathComponent("diff.png").path
    let r = try run(["compare", a, b, "--diff", diff])
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(
      r.lines,
      [
        "max channel delta: 10",
        "pixels beyond 2: 5.0000% (5 of 100)",
        "psnr: 47.16 dB",
        "diff: \(diff)",
        "result: outside tolerance",
      ])
    let d = try ImageFile.read(URL(fileURLWithPath: diff))
    XCTAssertEqual(d.width, 10)
    XCTAssertEqual(d.height, 10)
  }

  func testCompareWithLooserTolerancePasses() throws {
    let a = try write(greyImage(), "a.png")
    let b = try write(greyImage(changed: 5, delta: 10), "b.png")
    let r = try run(["compare", a, b, "--max-delta", "10", "--min-psnr", "40"])
    XCTAssertEqual(r.status, 0, r.stdout)
    XCTAssertEqual(r.lines.last, "result: within tolerance")
  }

  func testCompareSizeMismatchAndUnreadableFiles() throws {
    let a = try write(greyImage(), "a.png")
    let b = try write(try Image(width: 4, height: 4, color: .red), "b.png")
    let r = try run(["compare", a, b])
    XCTAssertEqual(r.status, 1)
    XCTAssertEqual(r.lines.first, "images differ in size: 10×10 and 4×4")

    let missing = tmp.appendingPathComponent("missing.png").path
    let m = try run(["compare", a, missing])
    XCTAssertEqual(m.status, 2)
    XCTAssertTrue(m.stderr.contains("missing.png"), m.stderr)

    let junk = tmp.appendingPathComponent("junk.png")
    try Data("not an image".utf8).write(to: junk)
    let j = try run(["compare", junk.path, a])
    XCTAssertEqual(j.status, 2)
    XCTAssertTrue(j.stderr.contains("junk.png"), j.stderr)
  }

  // MARK: render

  func testRenderSampleOnBothBackends() throws {
    for backend in ["cpu", "gpu"] {
      let out = tmp.appendingPathComponent("sample-\(backend).png")
      let r = try run(["render", "--sample", "-o", out.path, "--renderer", backend, "--size", "160x90"])
      XCTAssertEqual(r.status, 0, r.stderr)
      XCTAssertTrue(r.stdout.hasPrefix("wrote \(out.path) (160×90, \(backend),"), r.stdout)
      let image = try ImageFile.read(out)
      XCTAssertEqual(image.width, 160)
      XCTAssertEqual(image.height, 90)
    }
    // The two renders agree under the parity tolerance.
    let c = try run([
      "compare", tmp.appendingPathComponent("sample-cpu.png").path,
      tmp.appendingPathComponent("sample-gpu.png").path,
    ])
    XCTAssertEqual(c.status, 0, c.stdout)
  }

  func testRenderToAnUnwritablePlaceLeavesNothing() throws {
    let out = tmp.appendingPathComponent("no-such-dir/out.png")
    let r = try run(["render", "--sample", "-o", out.path, "--renderer", "cpu", "--size", "32x18"])
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.contains("out.png"), r.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out.path))
  }

  func testRenderRejectsBadArguments() throws {
    let out = tmp.appendingPathComponent("x.png").path
    XCTAssertEqual(try run(["render", "-o", out]).status, 64)  // nothing to render
    XCTAssertEqual(try run(["render", "--sample", "-o", out, "--size", "0x10"]).status, 64)
    XCTAssertEqual(try run(["render", "--sample", "-o", out, "--renderer", "metal"]).status, 64)
    XCTAssertFalse(FileManager.default.fileExists(atPath: out))
  }

  // MARK: transition and list

  func testTransitionWritesNumberedFrames() throws {
    let a = try write(try Image(width: 16, height: 8, color: .red), "a.png")
    let b = try write(try Image(width: 32, height: 8, color: .blue), "b.png")  // another size: fitted
    let out = tmp.appendingPathComponent("frames")
    let r = try run([
      "transition", a, b, "--type", "push", "--subtype", "fromRight", "--duration", "0.5", "--fps", "4",
      "--renderer", "cpu", "-o", out.path,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(r.stdout, "")
    XCTAssertTrue(r.stderr.hasPrefix("wrote 3 frames (16×8, 4/1 fps, cpu) in "), r.stderr)
    XCTAssertTrue(r.stderr.hasSuffix(" to \(out.path)\n"), r.stderr)
    let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
    XCTAssertEqual(names, ["frame_00000.png", "frame_00001.png", "frame_00002.png"])
    XCTAssertEqual(
      try ImageFile.read(out.appendingPathComponent("frame_00000.png")).pixel(x: 8, y: 4), [255, 0, 0, 255])
    XCTAssertEqual(
      try ImageFile.read(out.appendingPathComponent("frame_00002.png")).pixel(x: 8, y: 4), [0, 0, 255, 255])
  }

  func testTransitionOnTheGPUMatchesTheCPU() throws {
    let a = try write(try SampleScene.testImage(width: 48, height: 32, hue: 0.1), "a.png")
    let b = try write(try SampleScene.testImage(width: 48, height: 32, hue: 0.6), "b.png")
    for backend in ["gpu", "cpu"] {
      let r = try run([
        "transition", a, b, "--type", "reveal", "--subtype", "fromTop", "--duration", "1", "--fps", "2",
        "--timing", "easeInEaseOut", "--renderer", backend, "-o", tmp.appendingPathComponent(backend).path,
      ])
      XCTAssertEqual(r.status, 0, r.stderr)
    }
    for frame in ["frame_00000.png", "frame_00001.png", "frame_00002.png"] {
      let c = try run([
        "compare", tmp.appendingPathComponent("cpu/\(frame)").path, tmp.appendingPathComponent("gpu/\(frame)").path,
      ])
      XCTAssertEqual(c.status, 0, "\(frame): \(c.stdout)")
    }
  }

  /// Our own test shader in the gl-transitions form: a soft wipe (Fixtures/soft_wipe.glsl).
  static let wipe = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Fixtures/soft_wipe.glsl")

  func testShaderTransitionFromAFileWithParameters() throws {
    let a = try write(try Image(width: 16, height: 8, color: .red), "a.png")
    let b = try write(try Image(width: 16, height: 8, color: .blue), "b.png")
    let shader = tmp.appendingPathComponent("wipe.glsl")
    try FileManager.default.copyItem(at: Self.wipe, to: shader)
    let out = tmp.appendingPathComponent("frames")
    let r = try run([
      "transition", a, b, "--shader", shader.path, "--param", "softness=0.2", "--param", "reverse=true",
      "--duration", "1", "--fps", "2", "-o", out.path,
    ])
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(r.stderr.hasPrefix("wrote 3 frames (16×8, 2/1 fps, gpu) in "), r.stderr)
    XCTAssertEqual(
      try ImageFile.read(out.appendingPathComponent("frame_00000.png")).pixel(x: 3, y: 3), [255, 0, 0, 255])
    XCTAssertEqual(
      try ImageFile.read(out.appendingPathComponent("frame_00002.png")).pixel(x: 3, y: 3), [0, 0, 255, 255])
    // reverse = true: the wipe starts on the right, so halfway the right edge is already new.
    let mid = try ImageFile.read(out.appendingPathComponent("frame_00001.png"))
    XCTAssertEqual(mid.pixel(x: 15, y: 3), [0, 0, 255, 255])
    XCTAssertEqual(mid.pixel(x: 0, y: 3), [255, 0, 0, 255])

    let list = try run(["list", "--shader", shader.path])
    XCTAssertEqual(list.status, 0, list.stderr)
    XCTAssertEqual(list.lines, ["\(shader.path): softness = 0.1, reverse = false"])

    let unknown = try run(["transition", a, b, "--shader", shader.path, "--param", "width=2", "-o", out.path])
    XCTAssertEqual(unknown.status, 1)
    XCTAssertTrue(unknown.stderr.contains("it has: softness, reverse"), unknown.stderr)
    let wrongType = try run(["transition", a, b, "--shader", shader.path, "--param", "reverse=2", "-o", out.path])
    XCTAssertEqual(wrongType.status, 1)
    XCTAssertTrue(wrongType.stderr.contains("not a bool"), wrongType.stderr)
    let cpu = try run(["transition", a, b, "--shader", shader.path, "--renderer", "cpu", "-o", out.path])
    XCTAssertEqual(cpu.status, 1)
    XCTAssertTrue(cpu.stderr.contains("GPU-only"), cpu.stderr)
  }

  func testTransitionRejectsBadArguments() throws {
    let a = try write(try Image(width: 4, height: 4, color: .red), "a.png")
    let out = tmp.appendingPathComponent("f").path
    XCTAssertEqual(
      try run(["transition", a, a, "--start-progress", "0.8", "--end-progress", "0.2", "-o", out]).status, 64)
    XCTAssertEqual(try run(["transition", a, a, "--type", "swirl", "-o", out]).status, 64)
    XCTAssertEqual(try run(["transition", a, a, "--duration", "0", "-o", out]).status, 64)
    let missing = try run([
      "transition", a, tmp.appendingPathComponent("none.png").path, "--renderer", "cpu", "-o", out,
    ])
    XCTAssertEqual(missing.status, 1)
    XCTAssertTrue(missing.stderr.contains("none.png"), missing.stderr)
  }

  func testListPrintsEveryBuiltInEffect() throws {
    let r = try run(["list"])
    XCTAssertEqual(r.status, 0)
    XCTAssertEqual(
      r.lines,
      [
        "accordionFold: bottomHeight = 0.0, numberOfFolds = 3, foldShadowAmount = 0.1",
        "barsSwipe: angle = 3.14, width = 0.046875, barOffset = 10.0",
        "copyMachine: color = vec3(0.6, 1.0, 0.8), angle = 0.0, width = 0.3125, opacity = 1.3",
        "cut",
        "disintegrateWithMask: maskScale = 8.0, shadowRadius = 0.0125, shadowDensity = 0.65, "
          + "shadowOffset = vec2(0.0, -0.015625), maskImage = (image), useMaskImage = false",
        "dissolve",
        "fade",
        "flash: center = vec2(0.5, 0.5), color = vec3(1.0, 0.8, 0.6), maxStriationRadius = 2.58, "
          + "striationStrength = 0.5, striationContrast = 1.375, fadeThreshold = 0.85",
        "mod: center = vec2(0.5, 0.5), angle = 2.0, radius = 0.234375, compression = 0.46875",
        "moveIn: direction = vec2(-1.0, 0.0)",
        "pageCurl: angle = 0.0, radius = 0.15625, backsideImage = (image), useBacksideImage = false",
        "pageCurlWithShadow: angle = 0.0, radius = 0.15625, shadowSize = 0.5, shadowAmount = 0.7, "
          + "backsideImage = (image), useBacksideImage = false",
        "push: direction = vec2(-1.0, 0.0)",
        "reveal: direction = vec2(-1.0, 0.0)",
        "ripple: center = vec2(0.5, 0.5), width = 0.15625, scale = 0.078125, shadingImage = (image), "
          + "useShadingImage = false",
        "swipe: color = vec3(1.0, 1.0, 1.0), angle = 0.0, width = 0.46875, opacity = 0.0",
      ])
  }
}
