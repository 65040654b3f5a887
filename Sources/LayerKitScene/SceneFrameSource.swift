import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

/// The frames of anything that gives a RenderList for a time — a scene file's `LoadedScene`, or
/// any other "time → RenderList" provider — rendered by a `Renderer`, as a `VideoPipeline`
/// source: frame k is the list at `time(ofFrame: k)`.
///
/// ```swift
/// let scene = try SceneFile.load(url)
/// let source = try SceneFrameSource(scene: scene, renderer: GLRenderer())
/// let pipeline = try VideoPipeline(
///   source: source, width: source.width, height: source.height, rate: source.rate,
///   frameCount: source.frameCount, target: OutputTarget(path: "out.mp4"), options: EncodingOptions())
/// try pipeline.run()
/// ```
///
/// With an `OverlappingRenderer` (the GPU backend) frame k + 1 is built and drawn while frame k
/// is read back, inside the range the pipeline announces (`willRender`). Frames are asked for on
/// one thread, the pipeline's calling thread, which owns the renderer.
public final class SceneFrameSource: FrameSource {
  /// The frame size in pixels.
  public let width: Int
  public let height: Int
  /// The rate the video is written at.
  public let rate: FrameRate
  /// Frames in the whole video (a pipeline may render a range of them).
  public let frameCount: Int
  public let renderer: Renderer

  private let list: (Double) throws -> RenderList
  private let timeOfFrame: (Int) -> Double
  private let onStop: () -> Void
  /// Draws frame k + 1 while frame k is read back, on the GPU.
  private let lookahead: FrameLookahead

  /// A source over any provider of RenderLists by time.
  /// - Parameters:
  ///   - width: the lists' target width in pixels.
  ///   - height: the lists' target height in pixels.
  ///   - rate: the video's frame rate.
  ///   - frameCount: frames in the whole video.
  ///   - renderer: renders each list (a `GLRenderer`, a `ReferenceRenderer`).
  ///   - time: the time of frame k, passed to `list`; by default k / rate.
  ///   - stop: called once at the end of a render, to release what the provider holds (decoders).
  ///   - list: the RenderList at a time, `width` × `height`.
  public init(
    width: Int, height: Int, rate: FrameRate, frameCount: Int, renderer: Renderer,
    time: ((Int) -> Double)? = nil, stop: @escaping () -> Void = {},
    list: @escaping (Double) throws -> RenderList
  ) {
    self.width = width
    self.height = height
    self.rate = rate
    self.frameCount = frameCount
    self.renderer = renderer
    self.list = list
    let (n, d) = (Double(rate.numerator), Double(rate.denominator))
    timeOfFrame = time ?? { Double($0) * d / n }
    lookahead = FrameLookahead(renderer: renderer)
    onStop = stop
  }

  /// The frames of a loaded scene file over its background: its size and rate, or another rate
  /// and a scale.
  /// - Parameters:
  ///   - scene: the scene; the source plays it (rewinding it when asked for an earlier time).
  ///   - renderer: renders each frame.
  ///   - fps: frames per second instead of the file's (the scene's clock is in seconds, so its
  ///     motion keeps its pace); the frame count is `duration × fps`, rounded, at least 1.
  ///   - scale: pixels per point: the frames are the scene's size × `scale`, rounded.
  /// - Throws: `MediaError.invalidFrameRate` for a rate no video can carry; `RenderError.invalidScale`
  ///   for a scale that is not positive and finite.
  public convenience init(scene: LoadedScene, renderer: Renderer, fps: Double? = nil, scale: Double = 1) throws {
    guard scale.isFinite, scale > 0 else { throw RenderError.invalidScale(scale) }
    let settings = scene.settings
    let framesPerSecond = fps ?? settings.fps
    let rate = try FrameRate(framesPerSecond)
    let width = Int((Double(settings.width) * scale).rounded())
    let height = Int((Double(settings.height) * scale).rounded())
    let count = max(1, Int((settings.duration * framesPerSecond).rounded()))
    self.init(
      width: width, height: height, rate: rate, frameCount: count, renderer: renderer,
      time: { Double($0) / framesPerSecond }, stop: { scene.stopClips() }
    ) { t in
      try RenderList(
        layer: scene.presentation(at: t), width: width, height: height, scale: scale,
        background: settings.background)
    }
  }

  /// The time frame `index` shows.
  /// - Parameter index: the frame, from 0.
  public func time(ofFrame index: Int) -> Double { timeOfFrame(index) }

  /// The RenderList of frame `index`.
  /// - Parameter index: the frame, from 0.
  public func renderList(frame index: Int) throws -> RenderList { try list(timeOfFrame(index)) }

  public func frame(_ k: Int) throws -> Image {
    try lookahead.frame(k) { .list(try renderList(frame: $0)) }
  }

  /// Frame k; as planes read back when the sink writes Y'CbCr and the renderer converts them
  /// before readback (the GPU: `PlanarRenderer`).
  public func videoFrame(_ k: Int) throws -> VideoFrame {
    try lookahead.videoFrame(k) { .list(try renderList(frame: $0)) }
  }

  public func willWrite(planes layout: YUVFrameLayout, background: YUVConversion.Background) {
    lookahead.planes = (layout, background)
  }

  public func willRender(_ frames: Range<Int>) { lookahead.range = frames }

  public func interruptible(_ register: (@escaping () -> Void) -> Void) {}

  public func stop() {
    lookahead.drop()
    onStop()
  }
}
