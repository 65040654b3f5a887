import Foundation
import LayerKit
import LayerKitReference
import XCTest

@testable import LayerKitOutput
@testable import LayerKitVideo

/// The frame time limit is the library's: `VideoRender.run` stops a frame that does not end with
/// `VideoError.frameTimeLimit`, whoever calls it (the command line, a batch, the server).
final class FrameTimeLimitTests: XCTestCase {
  /// Frames at once, but frame `stuck` waits until the render is stopped (or a minute passes).
  final class StuckSource: FrameSource, @unchecked Sendable {
    let stuck: Int
    let woken = Awaitable(false)
    let asked = Locked<[Int]>([])

    init(stuck: Int) { self.stuck = stuck }

    func frame(_ index: Int) throws -> Image {
      asked.withLock { $0.append(index) }
      if index == stuck {
        woken.wait(until: { $0 }, deadline: Date().addingTimeInterval(60)) { _ in }
      }
      return try Image(
        width: 16, height: 16, pixels: [UInt8](repeating: UInt8(index * 40 % 256), count: 16 * 16 * 4))
    }

    func interruptible(_ register: (@escaping () -> Void) -> Void) {
      register { [woken] in woken.withLock { $0 = true } }
    }

    func stop() {}
  }

  private func folder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-limit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  private func render(_ source: StuckSource, limit: Double, to out: String) throws -> VideoRender {
    var settings = RenderSettings()
    settings.frameTimeLimit = limit
    return try VideoRender(
      frames: source, width: 16, height: 16, fps: 10, frameCount: 5, renderer: ReferenceRenderer(),
      output: try OutputTarget(path: out), encoding: EncodingOptions(), settings: settings)
  }

  func testAFrameThatDoesNotEndStopsTheRenderWithTheTypedErrorAndNoOutput() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    for name in ["stuck.y4m", "stuck.mp4"] {
      let out = dir.appendingPathComponent(name).path
      let source = StuckSource(stuck: 2)
      let render = try render(source, limit: 0.5, to: out)
      XCTAssertEqual(render.frameTimeLimit, 0.5)
      let told = Locked<[VideoError]>([])
      render.frameTimeLimitReached = { error in told.withLock { $0.append(error) } }
      let start = Date()
      XCTAssertThrowsError(try render.run()) { error in
        XCTAssertEqual(error as? VideoError, .frameTimeLimit(frame: 2, seconds: 0.5), name)
      }
      XCTAssertLessThan(Date().timeIntervalSince(start), 20, name)
      XCTAssertEqual(told.withLock { $0 }, [.frameTimeLimit(frame: 2, seconds: 0.5)], name)
      XCTAssertFalse(source.asked.withLock { $0 }.contains(3), name)
      XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], name)
    }
  }

  /// The default is the command line's (60 s); 0 is no limit, and a frame merely slow under the
  /// limit is waited for.
  func testTheDefaultAndNoLimit() throws {
    XCTAssertEqual(RenderSettings().frameTimeLimit, 60)
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("slow.y4m").path
    let source = StuckSource(stuck: 1)
    let render = try render(source, limit: 0, to: out)
    DispatchQueue.global().asyncAfter(deadline: .now() + 1) { source.woken.withLock { $0 = true } }
    XCTAssertEqual(try render.run().frames, 5)
    XCTAssertTrue(FileManager.default.fileExists(atPath: out))
  }
}
