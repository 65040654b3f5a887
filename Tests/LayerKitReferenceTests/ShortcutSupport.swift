import Foundation
import LayerKitMedia
import LayerKitReference
import LayerKitVideo
import XCTest

/// Renders `timeline` on the CPU backend to a Y4M file in `folder`, with or without the
/// pipeline's shortcuts; its frames' planes and how many frames were drawn. The file is BT.709
/// whatever its size: the pipeline's own planes, as the shortcuts compute them.
func renderY4M(_ timeline: Timeline, shortcuts: Bool, in folder: URL) throws -> (frames: [[UInt8]], drawn: Int) {
  let out = folder.appendingPathComponent("out-\(UUID().uuidString).y4m").path
  let source = TimelineRenderer(timeline: timeline, renderer: ReferenceRenderer())
  source.shortcuts = shortcuts
  var options = EncodingOptions()
  options.y4mMatrix = .bt709
  let pipeline = try VideoPipeline(
    source: source, width: timeline.width, height: timeline.height, rate: timeline.rate,
    frameCount: timeline.frameCount, target: try OutputTarget(path: out), options: options)
  try pipeline.run()
  return (try Y4MReader(path: out).readAllFrames(), source.drawnFrames)
}

/// Renders `timeline` both ways and asserts that every sample of every frame the shortcuts give
/// is within `levels` of the long way's; returns both ways' frames and the shortcuts' draws.
@discardableResult
func assertShortcutsWithin(
  _ levels: Int, _ timeline: Timeline, in folder: URL, _ label: String, line: UInt = #line
) throws -> (fast: [[UInt8]], slow: [[UInt8]], drawn: Int) {
  let fast = try renderY4M(timeline, shortcuts: true, in: folder)
  let slow = try renderY4M(timeline, shortcuts: false, in: folder)
  XCTAssertEqual(fast.frames.count, slow.frames.count, label, line: line)
  for k in fast.frames.indices {
    let worst = zip(fast.frames[k], slow.frames[k]).map { abs(Int($0) - Int($1)) }.max() ?? 0
    XCTAssertLessThanOrEqual(worst, levels, "\(label) frame \(k)", line: line)
  }
  return (fast.frames, slow.frames, fast.drawn)
}
