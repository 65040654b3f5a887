import Foundation
import LayerKit
import LayerKitMedia
import LayerKitReference
import LayerKitVideo
import XCTest

/// The library's render entry, called as a program that links LayerKit calls it — no
/// command-line tool: an edit file in, a video out, the transitions typed from the file to the
/// renderer, and the output decided once.
final class VideoRenderTests: XCTestCase {
  var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("VideoRenderTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func write(_ name: String, _ text: String) throws -> String {
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// Two colour clips joined by a swipe whose angle the file gives, as editly's users write it.
  let spec = """
    {
      width: 64, height: 36, fps: 10,
      defaults: { transition: { name: 'swipe', duration: 0.4, params: { angle: 1.5 } } },
      clips: [
        { duration: 1, layers: [{ type: 'fill-color', color: '#ff0000' }] },
        { duration: 1, layers: [{ type: 'fill-color', color: '#0000ff' }] },
      ],
    }
    """

  func testAnEditFileRendersThroughTheLibraryAlone() throws {
    let file = try EditFile.read(path: try write("show.json5", spec))
    let out = folder.appendingPathComponent("show.y4m").path
    let render = try VideoRender(
      editFile: file, output: try OutputTarget(path: out), encoding: EncodingOptions(),
      backends: RenderBackends(renderer: ReferenceRenderer()))
    // The file's params reach the renderer as typed values, never as text read again.
    XCTAssertEqual(render.timeline?.transitions.first?.effect, "swipe")
    XCTAssertEqual(render.timeline?.transitions.first?.parameters["angle"], .float(1.5))
    let reported = Locked(0)
    let summary = try render.run { done, _ in reported.withLock { $0 = max($0, done) } }
    // editly's arithmetic: 1 s + 1 s − the 0.4 s transition, at 10 fps.
    XCTAssertEqual(summary.frames, 16)
    XCTAssertEqual(reported.current, 16, "progress reaches the last frame")
    let reader = try Y4MReader(path: out)
    let frames = try reader.readAllFrames()
    XCTAssertEqual(frames.count, 16)
    XCTAssertEqual([reader.header.width, reader.header.height], [64, 36])
    let first = try YUVConversion.image(fromPlanes: frames[0], layout: reader.header.layout).pixel(x: 32, y: 18)
    let last = try YUVConversion.image(fromPlanes: frames[15], layout: reader.header.layout).pixel(x: 32, y: 18)
    XCTAssertGreaterThan(first.x, 200, "red first: \(first)")
    XCTAssertLessThan(first.z, 60, "red first: \(first)")
    XCTAssertGreaterThan(last.z, 200, "blue last: \(last)")
    XCTAssertLessThan(last.x, 60, "blue last: \(last)")
  }

  /// The command line's SPEC text and an edit file's name and params make the same typed spec.
  func testSpecTextAndFileParamsAreTheSameValue() throws {
    let text = try TransitionSpec(parsing: "push:fromTop:direction=0,1")
    XCTAssertEqual(text.effect, "push")
    XCTAssertEqual(text.subtype, .fromTop)
    XCTAssertEqual(text.parameters, ["direction": .numbers([0, 1])])
    XCTAssertEqual(try TransitionSpec(parsing: "swipe:angle=1.5").parameters, ["angle": .number(1.5)])
    XCTAssertEqual(Edit.Transition.Param(text: "vec3(1, 0.5, 0)"), .numbers([1, 0.5, 0]))
    XCTAssertEqual(Edit.Transition.Param(text: "@wipe.png"), .image("wipe.png"))
    XCTAssertEqual(Edit.Transition.Param(text: "big"), .other("big"))
    var random = SeededRandom(seed: 1)
    let wrong = TransitionSpec(effect: "swipe", parameters: ["angle": .other("big")])
    XCTAssertThrowsError(
      try wrong.resolve(duration: 1, timing: MediaTimingFunction(name: .linear), shaders: nil, random: &random)
    ) { error in
      XCTAssertEqual(error as? TransitionError, .wrongType(name: "angle", text: "big", type: .float))
    }
    let file = TransitionSpec(effect: "mine.glsl")
    XCTAssertThrowsError(
      try file.resolve(duration: 1, timing: MediaTimingFunction(name: .linear), shaders: nil, random: &random),
      "a shader file needs a backend that runs GLSL")
  }

  func ffmpeg(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    process.arguments = ["-v", "error", "-y"] + arguments
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, arguments.joined(separator: " "))
  }

  /// A smart render decided in the entry: the plan holds the clips' pixel format and the
  /// stretches' encoding before anything renders, and the render copies what it planned to.
  func testASmartRenderIsDecidedInThePlan() throws {
    var paths: [String] = []
    for (i, frequency) in [440, 660].enumerated() {
      let path = folder.appendingPathComponent("clip\(i).mp4").path
      try ffmpeg([
        "-f", "lavfi", "-i", "testsrc2=s=64x36:r=25:d=3", "-f", "lavfi", "-i", "sine=f=\(frequency):d=3:r=48000",
        "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "25", "-colorspace", "bt709", "-color_primaries", "bt709",
        "-color_trc", "bt709", "-color_range", "tv", "-c:a", "aac", "-shortest", path,
      ])
      paths.append(path)
    }
    var edit = Edit(
      clips: paths.map { Edit.Clip(duration: 3, transition: .none, layers: [.video(Edit.Video(path: $0))]) })
    edit.clips[0].transition = .given(Edit.Transition(name: "fade", duration: 0.4))
    edit.keepSourceAudio = true
    var settings = RenderSettings()
    settings.smart = .on
    let out = folder.appendingPathComponent("smart.mp4").path
    let render = try VideoRender(
      edit: edit, output: try OutputTarget(path: out), encoding: EncodingOptions(), settings: settings,
      backends: RenderBackends(renderer: ReferenceRenderer()))
    XCTAssertEqual(render.plan.options.smartStretches?.codec, "h264")
    XCTAssertEqual(render.plan.pixelFormat, "yuv420p", "the clips' pixel format")
    XCTAssertNotNil(render.plan.options.audio, "the sound decided with the plan")
    XCTAssertNotNil(render.note, "what a smart render copies is said")
    let summary = try render.run()
    XCTAssertGreaterThan(summary.copiedFrames ?? 0, 0, "frames copied from the clips")
    XCTAssertEqual(summary.frames, render.frames.count)
  }

  /// Everything about the output is in the plan when the render is made — the sound and the
  /// part a shard records included — and the file written is what the plan says.
  func testThePlanHoldsTheWholeOutputDecision() throws {
    let tone = folder.appendingPathComponent("tone.wav").path
    let made = Process()
    made.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
    made.arguments = ["-v", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2", tone]
    try made.run()
    made.waitUntilExit()
    XCTAssertEqual(made.terminationStatus, 0)
    var file = try EditFile.read(path: try write("show.json5", spec))
    file.edit.audioTracks = [Edit.AudioTrack(path: tone)]
    let out = folder.appendingPathComponent("part.mp4").path
    var settings = RenderSettings()
    settings.frames = .shard(0, of: 2)
    settings.planWords = ["show.json5"]
    let render = try VideoRender(
      editFile: file, output: try OutputTarget(path: out), encoding: EncodingOptions(), settings: settings,
      backends: RenderBackends(renderer: ReferenceRenderer()))
    XCTAssertEqual(render.frames, 0..<8)
    XCTAssertEqual(render.plan.pixelFormat, "yuv420p")
    XCTAssertEqual(render.plan.options.part?.frames, 0..<8)
    XCTAssertNotNil(render.plan.options.audio, "the first part carries the whole video's sound")
    try render.run()
    let probe = Process()
    let pipe = Pipe()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
    probe.arguments = [
      "-v", "error", "-show_entries", "stream=codec_type,pix_fmt:format_tags", "-of", "default=nw=1", out,
    ]
    probe.standardOutput = pipe
    try probe.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    probe.waitUntilExit()
    XCTAssertTrue(text.contains("pix_fmt=\(render.plan.pixelFormat!)"), text)
    XCTAssertTrue(text.contains("codec_type=audio"), text)
    XCTAssertTrue(text.contains("\(render.plan.options.part!)"), text)
  }
}
