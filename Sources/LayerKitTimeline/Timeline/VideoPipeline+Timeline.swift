import Foundation
import LayerKit
import LayerKitMedia
import LayerKitOutput

extension VideoPipeline {
  /// A pipeline rendering `timeline`'s frames with `renderer`.
  /// - Parameters:
  ///   - keepFrames: indices of frames to keep a copy of (for a contact sheet).
  public convenience init(
    timeline: Timeline, renderer: Renderer, plan: OutputPlan, frames: Range<Int>? = nil, keepFrames: Set<Int> = []
  ) throws(VideoError) {
    try self.init(
      source: TimelineRenderer(timeline: timeline, renderer: renderer), width: timeline.width, height: timeline.height,
      rate: timeline.rate, frameCount: timeline.frameCount, plan: plan, frames: frames, keepFrames: keepFrames)
  }
}
