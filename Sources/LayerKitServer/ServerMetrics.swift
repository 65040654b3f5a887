import CoreMetrics
import Foundation
import Prometheus

/// The server's metrics, kept through swift-metrics and written in Prometheus's text format by
/// swift-prometheus (`/metrics`): the queue's depth and the renders in each status (from the
/// store, so every server sharing it says the same), and this server's renders by outcome, the
/// seconds it spent rendering, the frames it made and the frames a second of its last render.
final class ServerMetrics: Sendable {
  let registry = PrometheusCollectorRegistry()
  private let queueDepth: CoreMetrics.Gauge
  private let statuses: [RenderStatus: CoreMetrics.Gauge]
  private let outcomes: [RenderStatus: CoreMetrics.Counter]
  private let seconds: CoreMetrics.FloatingPointCounter
  private let frames: CoreMetrics.Counter
  private let speed: CoreMetrics.Gauge

  init() {
    let factory = PrometheusMetricsFactory(registry: registry)
    queueDepth = CoreMetrics.Gauge(label: "layerkit_queue_depth", factory: factory)
    statuses = Dictionary(
      uniqueKeysWithValues: RenderStatus.allCases.map {
        ($0, CoreMetrics.Gauge(label: "layerkit_renders", dimensions: [("status", $0.rawValue)], factory: factory))
      })
    outcomes = Dictionary(
      uniqueKeysWithValues: [RenderStatus.done, .failed, .canceled].map {
        let outcome = [("outcome", $0.rawValue)]
        return ($0, CoreMetrics.Counter(label: "layerkit_renders_ended_total", dimensions: outcome, factory: factory))
      })
    seconds = CoreMetrics.FloatingPointCounter(label: "layerkit_render_seconds_total", factory: factory)
    frames = CoreMetrics.Counter(label: "layerkit_frames_total", factory: factory)
    speed = CoreMetrics.Gauge(label: "layerkit_frames_per_second", factory: factory)
  }

  /// A render of this server's ended: how, and what it took.
  func ended(_ outcome: RenderStatus, seconds: Double = 0, frames: Int = 0) {
    outcomes[outcome]?.increment()
    guard frames > 0 else { return }
    self.seconds.increment(by: seconds)
    self.frames.increment(by: frames)
    if seconds > 0 { speed.record(Double(frames) / seconds) }
  }

  /// The text for `/metrics`, the store's counts read now.
  func text(counts: [RenderStatus: Int]) -> String {
    queueDepth.record(counts[.queued] ?? 0)
    for (status, gauge) in statuses { gauge.record(counts[status] ?? 0) }
    return registry.emitToString()
  }
}
