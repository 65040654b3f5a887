import Dispatch
import Foundation
import LayerKit
import LayerKitOutput

/// Ends a render whose frames stop coming: when no frame has been written for `limit` seconds
/// (a user shader that loops for minutes, a filter beyond any budget), `stop` is called once,
/// from a timer's thread, with `VideoError.frameTimeLimit` naming the frame and the limit.
/// `VideoRender.run` keeps one for every render (`RenderSettings.frameTimeLimit`).
final class FrameWatchdog: @unchecked Sendable {
  private let timer: DispatchSourceTimer?
  private let state = Locked((frame: 0, since: DispatchTime.now().uptimeNanoseconds, fired: false))

  /// - Parameters:
  ///   - limit: seconds; 0 or less for none.
  ///   - first: the first frame rendered (a part's), which a message names until one is written.
  init(limit: Double, first: Int = 0, stop: @escaping @Sendable (VideoError) -> Void) {
    state.withLock { $0.frame = first }
    guard limit > 0 else {
      timer = nil
      return
    }
    let timer = DispatchSource.makeTimerSource(queue: .global())
    self.timer = timer
    let interval = min(1, limit / 4)
    timer.schedule(deadline: .now() + interval, repeating: interval)
    timer.setEventHandler { [weak self] in
      guard let self else { return }
      let (fire, frame) = self.state.withLock { state in
        // Read under the lock: a frame written between reading the clock and taking the lock
        // would set `since` after `now`, and the unsigned difference would overflow.
        let now = DispatchTime.now().uptimeNanoseconds
        let fire = !state.fired && now > state.since && Double(now - state.since) / 1e9 > limit
        if fire { state.fired = true }
        return (fire, state.frame)
      }
      guard fire else { return }
      stop(VideoError.frameTimeLimit(frame: frame, seconds: limit))
    }
    timer.resume()
  }

  /// `done` frames were written: the next one's time starts now.
  func progressed(_ done: Int, first: Int = 0) {
    state.withLock { state in
      state.frame = first + done
      state.since = DispatchTime.now().uptimeNanoseconds
    }
  }

  func stop() { timer?.cancel() }
}
