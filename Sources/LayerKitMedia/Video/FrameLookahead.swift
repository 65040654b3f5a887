import LayerKit

/// What a frame source has for a frame: an image at hand (a still held on), or a list to render.
public enum FrameWork {
  case image(Image)
  case list(RenderList)
}

/// The frame sources' draw-ahead: with an OverlappingRenderer (the GPU), frame k + 1 is drawn
/// while frame k is read back; with another renderer each frame is rendered when asked for.
/// Frames are asked for in order; one asked out of order drops the frame drawn ahead.
public final class FrameLookahead {
  public let renderer: Renderer
  /// The frames a render asks for (`FrameSource.willRender`): nothing is drawn ahead past them.
  public var range: Range<Int>?

  private enum Started {
    case done(Image)
    case pending(PendingFrame)
  }

  /// The next frame, started by the call before while that one was read back.
  private var ahead: (index: Int, started: Started)?
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
    guard let overlapping else {
      switch try work(k) {
      case .image(let image): return image
      case .list(let list): return try renderer.render(list)
      }
    }
    let current: Started
    if let ahead, ahead.index == k {
      current = ahead.started
    } else {
      drop()
      current = try start(work(k), overlapping)
    }
    ahead = nil
    if case .pending(let frame) = current, range?.contains(k + 1) ?? false, drawAhead(k + 1) {
      do {
        ahead = (k + 1, try start(work(k + 1), overlapping))
      } catch {
        _ = try? overlapping.finish(frame)  // no frame is left waiting in the renderer
        throw error
      }
    }
    switch current {
    case .done(let image): return image
    case .pending(let frame): return try overlapping.finish(frame)
    }
  }

  /// Drops the frame drawn ahead, if any (at the end of a render, or when asked out of order).
  public func drop() {
    if case .pending(let frame)? = ahead?.started { _ = try? overlapping?.finish(frame) }
    ahead = nil
  }

  private func start(_ work: FrameWork, _ overlapping: OverlappingRenderer) throws -> Started {
    switch work {
    case .image(let image): .done(image)
    case .list(let list): .pending(try overlapping.start(list))
    }
  }
}
