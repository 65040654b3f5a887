import Foundation
import LayerKit
import LayerKitMedia
import XCTest

/// Runs the built `layerkit` as a user runs it, and makes small inputs for it.
struct ToolHarness {
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var data: Data
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
  }

  let folder: URL

  /// A fresh temporary folder; remove it with `cleanUp()`.
  static func make(_ name: String) throws -> ToolHarness {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return ToolHarness(folder: folder)
  }

  func cleanUp() { try? FileManager.default.removeItem(at: folder) }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

  /// The built `layerkit` (or `name`) next to the test bundle (SwiftPM puts every product in one
  /// folder).
  static func binary(_ name: String = "layerkit") throws -> URL {
    var dir = Bundle(for: BundleMarker.self).bundleURL
    for _ in 0..<3 {
      let candidate = dir.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      dir = dir.deletingLastPathComponent()
    }
    XCTFail("\(name) binary not found next to \(Bundle(for: BundleMarker.self).bundleURL.path)")
    throw CocoaError(.fileNoSuchFile)
  }

  /// Starts `layerkit` without waiting (for signal tests).
  func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
    let process = Process()
    process.executableURL = try ToolHarness.binary()
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Runs `layerkit` to its end, its remembered answers (`LAYERKIT_CACHE_DIR`) kept in this
  /// harness's folder unless `environment` says otherwise.
  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
    try ToolHarness.run(
      try ToolHarness.binary().path, arguments,
      environment: ["LAYERKIT_CACHE_DIR": path(".cache")].merging(environment) { $1 })
  }

  /// The RMS level (dBFS, −200 for silence) of `file`'s sound from `from` to `to` seconds, by
  /// ffmpeg's `astats` (its Overall line), after `filter`.
  static func rms(_ file: String, _ from: Double, _ to: Double, filter: String? = nil) throws -> Double {
    let chain = ["atrim=start=\(from):end=\(to)", filter, "astats"].compactMap { $0 }.joined(separator: ",")
    let r = try run(which("ffmpeg"), ["-v", "info", "-i", file, "-af", chain, "-f", "null", "-"])
    let overall = try XCTUnwrap(r.stderr.range(of: "Overall"), r.stderr)
    let line = try XCTUnwrap(
      r.stderr[overall.upperBound...].split(separator: "\n").first { $0.contains("RMS level dB") })
    let value = line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)
    return value == "-inf" ? -200 : try XCTUnwrap(Double(value), String(line))
  }

  /// Runs any program and collects its output.
  static func run(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes at once, so a child that fills one while we wait on the other never blocks.
    final class Box: @unchecked Sendable { var data = Data() }
    let e = Box()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      e.data = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let o = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
      stderr: String(decoding: e.data, as: UTF8.self), data: o)
  }

  /// Writes a PNG and returns its path.
  func write(_ image: Image, _ name: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try ImageFile.writePNG(image, to: url)
    return url.path
  }

  /// A clip made by ffmpeg's test sources: moving pictures and, unless `audio` is false, a tone.
  func clip(
    _ name: String, width: Int, height: Int, fps: Int, seconds: Double, audio: Bool = true, frequency: Int = 440
  ) throws -> String {
    let out = path(name)
    var args = ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=s=\(width)x\(height):r=\(fps):d=\(seconds)"]
    if audio { args += ["-f", "lavfi", "-i", "sine=f=\(frequency):d=\(seconds):r=48000"] }
    args += ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "10"]
    if audio { args += ["-c:a", "aac", "-shortest"] }
    args.append(out)
    let r = try ToolHarness.run(ToolHarness.which("ffmpeg"), args)
    XCTAssertEqual(r.status, 0, r.stderr)
    return out
  }

  /// ffprobe's view of a file's streams: one dictionary per stream (codec_type, codec_name, …).
  func probe(_ file: String) throws -> [[String: String]] {
    let r = try ToolHarness.run(
      ToolHarness.which("ffprobe"),
      [
        "-v", "error", "-count_frames", "-show_entries",
        "stream=codec_type,codec_name,width,height,nb_read_frames,duration,pix_fmt,color_space,color_range,color_primaries,color_transfer,sample_rate,profile",
        "-of", "json", file,
      ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
    let streams = json?["streams"] as? [[String: Any]] ?? []
    return streams.map { $0.mapValues { "\($0)" } }
  }

  static func which(_ program: String) -> String {
    for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
      let p = "\(folder)/\(program)"
      if FileManager.default.isExecutableFile(atPath: p) { return p }
    }
    return "/usr/bin/\(program)"
  }

  /// Files in the folder whose names start with a dot (temporary outputs).
  func leftovers() -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(".") }
  }
}

private final class BundleMarker {}
