import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitTesting
import LayerKitVideo
import XCTest

/// Video frames the GPU draws go to a Y'CbCr sink as planes converted before readback
/// (PlanarRenderer; by default only on a hardware GPU, where it pays), byte for byte what the
/// sink converts from the RGBA readback.
final class PlanarVideoTests: XCTestCase {
  func testDrawnFramesReadBackAsPlanesEqualTheConvertedReadback() throws {
    guard let gpu = makeRenderer() else { return }
    gpu.keepsContextCurrent = true
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lk-planar-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var rng = SeededRandom(seed: 21)
    func still(_ name: String) throws -> Still {
      var pixels = [UInt8](repeating: 255, count: 48 * 32 * 4)
      for i in pixels.indices where i % 4 != 3 { pixels[i] = UInt8(truncatingIfNeeded: rng.next()) }
      return Still(try Image(width: 48, height: 32, pixels: pixels), name: name)
    }
    // ripple has no shortcut: every transition frame is drawn; a translucent background under
    // a contained picture exercises the compositing.
    let timeline = try Timeline(
      items: [
        TimelineItem(source: .image(try still("a")), duration: 0.6),
        TimelineItem(source: .image(try still("b")), duration: 0.6),
      ],
      transitions: [TimelineTransition(effect: "ripple", duration: 0.4)], width: 48, height: 32,
      rate: FrameRate(numerator: 25, denominator: 1), background: Color(red: 0.2, green: 0.1, blue: 0.7, alpha: 0.5))
    func y4m(planar: Bool) throws -> [[UInt8]] {
      let out = folder.appendingPathComponent("\(planar).y4m").path
      let source = TimelineRenderer(timeline: timeline, renderer: gpu)
      var options = EncodingOptions()
      options.background = BackgroundColor(red: 30, green: 200, blue: 90)
      let pipeline = try VideoPipeline(
        source: source, width: 48, height: 32, rate: timeline.rate, frameCount: timeline.frameCount,
        target: try OutputTarget(path: out), options: options)
      source.planarReadback = planar
      try pipeline.run()
      return try Y4MReader(path: out).readAllFrames()
    }
    let planar = try y4m(planar: true)
    let converted = try y4m(planar: false)
    XCTAssertEqual(planar.count, timeline.frameCount)
    for k in planar.indices { XCTAssertEqual(planar[k], converted[k], "frame \(k)") }
  }
}
