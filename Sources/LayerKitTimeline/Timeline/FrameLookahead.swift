import LayerKit
import LayerKitMedia
import LayerKitOutput

/// What a frame source has for a frame: an image at hand (a still held on), or a list to render.
public enum FrameWork {
  case image(Image)
  case list(RenderList)
}

/// The frame sources' draw-ahead: with an OverlappingRenderer (the GPU), frame k + 1 is drawn
/// while frame k is read back; with another renderer each frame is rendered when asked for.
/// Frames are asked for in order; one asked out of order drops the frame drawn ahead.
///
/// With `planes` set (the sink writes Y'CbCr 4:2:0) and a PlanarRenderer where that pays (a
/// hardware GPU), frames are converted where they are drawn and read back as planes
/// (`PlanarRenderer.startPlanes`): 1.5 bytes a pixel instead of 4, byte for byte the planes the
/// sink would have converted.
public final class FrameLookahead {
  public let renderer: Renderer
  /// The frames a render asks for (`FrameSource.willRender`): nothing is drawn ahead past them.
  public var range: Range<Int>?
  /// The sink's Y'CbCr (`FrameSource.willWrite(planes:background:)`): a PlanarRenderer then reads
  /// 4:2:0 frames back as planes.
  public var planes: (layout: YUVFrameLayout, background: YUVConversion.Background)?
  /// Whether a PlanarRenderer reads frames back as planes: by default where it pays
  /// (`PlanarRenderer.planarReadbackPays`); tests set it to hold the two ways to each other.
  package var planarReadback: Bool?

  private enum Started {
    case done(Image)
    case pending(PendingFrame)
    case pendingPlanes(PendingFrame, YUVFrameLayout)

    var isPending: Bool {
      if case .done = self { return false }
      return true
    }
  }

  /// The renderer and layout when frames are read back as planes.
  private var planar: (PlanarRenderer, YUVFrameLayout, SIMD3<UInt8>)? {
    guard let planes, planes.layout.chroma == .yuv420, let renderer = renderer as? PlanarRenderer,
      planarReadback ?? renderer.planarReadbackPays
    else { return nil }
    let b = planes.background
    return (renderer, planes.layout, SIMD3(b.red, b.green, b.blue))
  }

  /// The next frame, started by the call before while that one was read back.
  private var ahead: (index: Int, started: Started)?
  /// The bytes of the largest frame drawn ahead: drawing ahead holds three more frames (the ring's
  /// two buffers and the frame drawn ahead), which fit `Limits.frameMemory` beside the pipeline's
  /// own (at least four, `VideoPipeline.queues`) up to an eighth of it — 7680×4320 is drawn
  /// ahead, 16384×4096 (256 MiB a frame) is not.
  static let largestDrawnAhead = Limits.frameMemory / 8
  /// Set at the first frame larger than `largestDrawnAhead`.
  private var tooLargeToDrawAhead = false
  private var overlapping: OverlappingRenderer? { renderer as? OverlappingRenderer }

  public init(renderer: Renderer) {
    self.renderer = renderer
  }

  /// Frame k from `work(k)`: an image at hand, or its list rendered; with an OverlappingRenderer,
  /// frame k + 1's work is started before frame k is waited for, when it is inside `range` and
  /// `drawAhead(k + 1)` says so.
  public func frame(
    _ k: Int, drawAhead: (Int) -> Bool = { _ in true }, _ work: (Int) throws -> FrameWork
  ) throws -> Image {
    try videoFrame(k, drawAhead: drawAhead, work).image()
  }

  /// Frame k as `frame(_:drawAhead:_:)` gives it, or as planes read back (`planes`).
  public func videoFrame(
    _ k: Int, drawAhead: (Int) -> Bool = { _ in true }, _ work: (Int) throws -> FrameWork
  ) throws -> VideoFrame {
    func rendered(_ work: FrameWork) throws -> VideoFrame {
      switch work {
      case .image(let image): return .image(image)
      case .list(let list): return .image(try renderer.render(list))
      }
    }
    guard let overlapping, !tooLargeToDrawAhead else { return try rendered(work(k)) }
    let current: Started
    if let ahead, ahead.index == k {
      current = ahead.started
    } else {
      drop()
      let frame = try work(k)
      // Frames too large to draw ahead: rendered one at a time, read back straight into the frame.
      if case .list(let list) = frame, list.width * list.height * 4 > Self.largestDrawnAhead {
        tooLargeToDrawAhead = true
        return try rendered(frame)
      }
      current = try start(frame, overlapping)
    }
    ahead = nil
    if current.isPending, range?.contains(k + 1) ?? false, drawAhead(k + 1) {
      do {
        ahead = (k + 1, try start(work(k + 1), overlapping))
      } catch {
        discard(current)  // no frame is left waiting in the renderer
        throw error
      }
    }
    return try finish(current, overlapping)
  }

  /// Drops the frame drawn ahead, if any (at the end of a render, or when asked out of order).
  public func drop() {
    if let started = ahead?.started { discard(started) }
    ahead = nil
  }

  private func start(_ work: FrameWork, _ overlapping: OverlappingRenderer) throws -> Started {
    switch work {
    case .image(let image): return .done(image)
    case .list(let list):
      if let (renderer, layout, background) = planar, list.width == layout.width, list.height == layout.height {
        return .pendingPlanes(try renderer.startPlanes(list, background: background), layout)
      }
      return .pending(try overlapping.start(list))
    }
  }

  private func finish(_ started: Started, _ overlapping: OverlappingRenderer) throws -> VideoFrame {
    switch started {
    case .done(let image): return .image(image)
    case .pending(let frame): return .image(try overlapping.finish(frame))
    case .pendingPlanes(let frame, let layout):
      guard let planar = overlapping as? PlanarRenderer else {
        throw RenderError.framesOutOfOrder("frame \(frame.serial) was started as planes by another renderer")
      }
      return .planes(try YUVPlanes(layout: layout) { try planar.finishPlanes(frame, into: $0) })
    }
  }

  /// Finishes a started frame nobody will use, so none is left waiting in the renderer.
  private func discard(_ started: Started) {
    guard let overlapping else { return }
    _ = try? finish(started, overlapping)
  }
}
