// The soak: one long render through the video pipeline — the example scenes (shape, gradient,
// replicator, transform and text layers, animations, every frame different) played one after
// another for --soak-frames frames into a Y4M stream that goes nowhere — sampling the process's
// resident memory and, on the GPU, the renderer's live GL objects as it goes. Both must be flat:
// what the pipeline, the layout caches or the GL backend keep per frame shows here long before it
// shows in a user's hour-long render.
import Foundation
import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitReference
import LayerKitScene
import LayerKitVideo

struct SoakError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// The GPU renderer's live-object count, readable from the progress thread (`liveObjects` takes
/// the context's own lock).
private final class ObjectCounter: @unchecked Sendable {
  let gpu: GLRenderer
  init(_ gpu: GLRenderer) { self.gpu = gpu }
  func read() -> GLObjectCount { gpu.liveObjects }
}

struct Soak {
  /// What one stretch of the render (a tenth of it) saw, read after every frame.
  struct Sample: Codable, Sendable {
    /// The stretch's last frame.
    var frame: Int
    /// Resident memory at the stretch's end and its peak within it, MB.
    var rssMB: Double
    var peakRSSMB: Double
    /// The GPU renderer's live GL objects at the stretch's end, and the most within it (nil on
    /// the CPU).
    var glObjects: GLObjectCount?
    var peakGLObjects: Int?
  }

  struct Result: Codable {
    var renderer: String
    var frames: Int
    var seconds: Double
    /// Resident memory after frame 100 (or the last, for shorter soaks), MB.
    var rssAtFrame100MB: Double
    var samples: [Sample]
  }

  let frames: Int
  let renderers: [String]
  /// The scenes played in turn, each for its own duration.
  let scenes: [URL]

  func run() throws -> [Result] {
    let loaded = try scenes.map { try SceneFile.load($0) }
    let settings = loaded[0].settings
    let fps = settings.fps
    for (url, scene) in zip(scenes, loaded)
    where scene.settings.width != settings.width || scene.settings.height != settings.height {
      throw SoakError("\(url.lastPathComponent) is not \(settings.width)×\(settings.height), as the first scene is")
    }
    let cycle = loaded.map(\.settings.duration).reduce(0, +)
    var results: [Result] = []
    for name in renderers {
      let renderer: Renderer
      let gpu: GLRenderer?
      if name == "gpu" {
        let g = try GLRenderer()
        g.keepsContextCurrent = true
        (renderer, gpu) = (g, g)
      } else {
        (renderer, gpu) = (ReferenceRenderer(), nil)
      }
      // Scene time: the scenes one after another, again and again.
      let source = SceneFrameSource(
        width: settings.width, height: settings.height, rate: try FrameRate(fps), frameCount: frames,
        renderer: renderer, time: { Double($0) / fps }
      ) { t in
        var local = t.truncatingRemainder(dividingBy: cycle)
        var index = 0
        while index < loaded.count - 1 && local >= loaded[index].settings.duration {
          local -= loaded[index].settings.duration
          index += 1
        }
        let scene = loaded[index]
        return try RenderList(
          layer: scene.presentation(at: local), width: settings.width, height: settings.height,
          background: scene.settings.background)
      }
      let target = try OutputTarget(path: "/dev/null", format: .y4m)
      let pipeline = try VideoPipeline(
        source: source, width: settings.width, height: settings.height, rate: try FrameRate(fps),
        frameCount: frames, target: target, options: EncodingOptions())
      let samples = Locked([Sample]())
      let at100 = Locked(0.0)
      let tenth = max(1, frames / 10)
      // The count is read under its own lock, from the pipeline's progress thread.
      let objects: @Sendable () -> GLObjectCount? = { [counter = gpu.map(ObjectCounter.init)] in counter?.read() }
      let start = Date()
      try pipeline.run { done, total in
        let rss = Soak.residentMB()
        let gl = objects()
        if done == min(100, total) { at100.withLock { $0 = rss } }
        samples.withLock { list in
          // A new stretch starts after every tenth of the frames.
          if list.isEmpty || list[list.count - 1].frame % tenth == 0 && list[list.count - 1].frame < total {
            list.append(Sample(frame: done, rssMB: rss, peakRSSMB: rss, glObjects: gl, peakGLObjects: gl?.total))
          }
          let i = list.count - 1
          list[i].frame = done
          list[i].rssMB = rss
          list[i].peakRSSMB = max(list[i].peakRSSMB, rss)
          list[i].glObjects = gl
          if let gl { list[i].peakGLObjects = max(list[i].peakGLObjects ?? 0, gl.total) }
        }
      }
      let seconds = Date().timeIntervalSince(start)
      results.append(
        Result(
          renderer: name, frames: frames, seconds: seconds, rssAtFrame100MB: at100.withLock { $0 },
          samples: samples.withLock { $0 }))
    }
    return results
  }

  /// This process's resident set, MB (/proc/self/statm).
  static func residentMB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return 0 }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
  }

  static func table(_ results: [Result]) -> String {
    var lines: [String] = []
    for r in results {
      lines.append(
        "soak, \(r.renderer): \(r.frames) frames in \(String(format: "%.1f", r.seconds)) s "
          + "(\(String(format: "%.1f", Double(r.frames) / r.seconds)) fps), read after every frame")
      lines.append(
        "  up to frame   RSS MB (peak)    GL objects (peak): textures, framebuffers, buffers, VAOs, programs, syncs")
      for s in r.samples {
        let gl =
          s.glObjects.map {
            "\($0.total) (\(s.peakGLObjects ?? 0)): \($0.textures), \($0.framebuffers), \($0.buffers), "
              + "\($0.vertexArrays), \($0.programs), \($0.syncs)"
          } ?? "-"
        lines.append(String(format: "  %11d   %6.1f (%6.1f)   ", s.frame, s.rssMB, s.peakRSSMB) + gl)
      }
      if let first = r.samples.first, let last = r.samples.last {
        let peaks = r.samples.compactMap(\.peakGLObjects)
        lines.append(
          "  RSS at frame \(min(100, r.frames)): \(String(format: "%.1f", r.rssAtFrame100MB)) MB, at frame \(last.frame): "
            + "\(String(format: "%.1f", last.rssMB)) MB; peak in the first tenth \(String(format: "%.1f", first.peakRSSMB)) MB, "
            + "in the last \(String(format: "%.1f", last.peakRSSMB)) MB"
            + (peaks.isEmpty ? "" : "; GL objects peak per tenth \(peaks.map(String.init).joined(separator: " "))"))
      }
    }
    return lines.joined(separator: "\n")
  }
}
