import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// Which frames of a timeline could be copied from their sources' packets instead of decoded and
/// encoded again (smart rendering; `SmartRender` carries the plan out): a
/// frame that shows a clip's frame exactly as it was encoded — 1:1 at the output's size and rate,
/// no transition, title, Ken Burns, overlay or subtitle over it, no speed change or loop — and a
/// run of such frames from a clean keyframe of the source is copied: the whole GOP, or, where
/// the frames after it change, up to the last frame that can end a run (`SourcePackets.ends`);
/// every other frame is encoded. Pure arithmetic over the timeline and the sources' packets.
public struct SmartPlan: Sendable, Equatable {
  /// A run of the video's frames, copied from one clip's packets or encoded.
  public enum Segment: Sendable, Equatable {
    /// Frames `frames` are clip item `item`'s source frames `sourceFrames`, starting on a clean
    /// keyframe and ending on a frame a run may end on.
    case copy(item: Int, frames: Range<Int>, sourceFrames: Range<Int>)
    case encode(frames: Range<Int>)

    public var frames: Range<Int> {
      switch self {
      case .copy(_, let frames, _), .encode(let frames): frames
      }
    }
  }

  public var segments: [Segment]

  /// Frames copied, of all.
  public var copiedFrames: Int {
    segments.reduce(0) { n, s in if case .copy = s { n + s.frames.count } else { n } }
  }

  /// The plan for `timeline`, given each clip item's clean keyframes as frame indices of the
  /// source (`keyframes[i]`, sorted: `SourcePackets.keyframes`; items without an entry are
  /// never copied) and the frames a copied run may end on (`ends[i]`: `SourcePackets.ends`).
  /// A GOP shown unchanged is copied whole; one whose end changes (a transition begins, the cut
  /// ends) is copied up to the last frame a run may end on before the change, and only the rest
  /// is encoded.
  /// - Parameter frames: the frames rendered (a shard's); the whole video by default. Only
  ///   frames inside are copied.
  public static func make(
    _ timeline: Timeline, keyframes: [Int: [Int]], ends: [Int: [Int]] = [:], frames: Range<Int>? = nil
  ) -> SmartPlan {
    let range = frames ?? 0..<timeline.frameCount
    let count = range.upperBound
    var segments: [Segment] = []
    func encode(_ k: Int) {
      if case .encode(let r)? = segments.last, r.upperBound == k {
        segments[segments.count - 1] = .encode(frames: r.lowerBound..<k + 1)
      } else {
        segments.append(.encode(frames: k..<k + 1))
      }
    }
    var k = range.lowerBound
    while k < count {
      guard let (i, j) = timeline.unchangedSourceFrame(k), let keys = keyframes[i], keys.contains(j),
        case .clip(let info) = timeline.items[i].source
      else {
        encode(k)
        k += 1
        continue
      }
      // The GOP from keyframe j to the next (or the clip's end): copied when every one of its
      // frames is shown unchanged, in order, from frame k on.
      let next = keys.first(where: { $0 > j }) ?? info.frameCount
      // Frames shown unchanged, in order, from k on, within the GOP.
      var shown = 0
      while shown < next - j, k + shown < count,
        timeline.unchangedSourceFrame(k + shown).map({ $0 == (i, j + shown) }) == true
      {
        shown += 1
      }
      // The whole GOP, else up to the last frame a run may end on among those shown.
      let last = shown == next - j ? next - 1 : ends[i]?.last(where: { $0 >= j && $0 < j + shown })
      guard let last else {
        encode(k)
        k += 1
        continue
      }
      let length = last + 1 - j
      if case .copy(i, let r, let s)? = segments.last, r.upperBound == k, s.upperBound == j {
        segments[segments.count - 1] = .copy(
          item: i, frames: r.lowerBound..<k + length, sourceFrames: s.lowerBound..<j + length)
      } else {
        segments.append(.copy(item: i, frames: k..<k + length, sourceFrames: j..<j + length))
      }
      k += length
    }
    return SmartPlan(segments: segments)
  }
}

extension Timeline {
  /// The clip item and its source frame that frame k shows exactly as decoded, or nil when frame
  /// k is anything else (a still, a transition, a title, a move, an overlay or a subtitle over
  /// it, another speed, a loop, another size or rate, a picture area smaller than the frame).
  public func unchangedSourceFrame(_ k: Int) -> (item: Int, frame: Int)? {
    guard case .item(let i, let local) = content(ofFrame: k), case .clip(let info) = items[i].source else {
      return nil
    }
    let item = items[i]
    let t = time(ofFrame: k)
    guard item.speed == 1, item.loopLength == nil, item.motion == nil, item.title == nil, item.layers.isEmpty,
      info.width == width, info.height == height, pictureWidth == width, pictureHeight == height,
      abs(info.frameRate - rate.framesPerSecond) < 1e-6,
      !overlays.contains(where: { $0.shows(at: t) }), subtitles.map({ $0.cues(at: t).isEmpty }) ?? true
    else { return nil }
    // The source frame shown: the one the clip's decoder gives for the time (`ClipDecoder`: the
    // last frame begun by then, with a hair of slack), so a transition or an in-point that is not
    // a whole number of frames still shows — and copies — whole source frames.
    let j = Int((item.clipTime(local) * info.frameRate + 1e-6).rounded(.down))
    guard j >= 0, j < info.frameCount else { return nil }
    return (i, j)
  }
}

extension SmartPlan {
  /// Shard `index` of `count` of this whole render of `total` frames: the nearly equal ranges
  /// of `FrameSelection.shard`, each boundary that falls inside a copied run moved to the
  /// nearer end of the run, so the parts together copy exactly what the whole render copies.
  /// nil when moving would leave a part empty (the nominal ranges are used then).
  public func shard(_ index: Int, of count: Int, total: Int) -> Range<Int>? {
    func boundary(_ i: Int) -> Int {
      let b = total * i / count
      for case .copy(_, let r, _) in segments where r.lowerBound < b && b < r.upperBound {
        return b - r.lowerBound <= r.upperBound - b ? r.lowerBound : r.upperBound
      }
      return b
    }
    let all = (0...count).map(boundary)
    guard zip(all, all.dropFirst()).allSatisfy({ $0 < $1 }) else { return nil }
    return all[index]..<all[index + 1]
  }

  /// The plan for `range` of the video alone: its copied runs wholly inside, its encoded
  /// stretches cut to it.
  public func restricted(to range: Range<Int>) -> SmartPlan {
    var kept: [Segment] = []
    for segment in segments {
      switch segment {
      case .copy(_, let frames, _):
        if frames.lowerBound >= range.lowerBound && frames.upperBound <= range.upperBound { kept.append(segment) }
      case .encode(let frames):
        let cut = frames.clamped(to: range)
        if !cut.isEmpty { kept.append(.encode(frames: cut)) }
      }
    }
    return SmartPlan(segments: kept)
  }

  /// The frames the plan covers.
  public var frames: Range<Int> {
    (segments.first?.frames.lowerBound ?? 0)..<(segments.last?.frames.upperBound ?? 0)
  }

  /// What a smart render copied, in the summary's words: "copied 41.2 s of 46.5 s (89 %) from
  /// the sources; encoded 5.3 s".
  public func summary(rate: FrameRate) -> String {
    let all = frames.count
    let fps = rate.framesPerSecond
    let share = all > 0 ? Int((100 * Double(copiedFrames) / Double(all)).rounded()) : 0
    func seconds(_ frames: Int) -> String { String(format: "%.1f s", Double(frames) / fps) }
    return "copied \(seconds(copiedFrames)) of \(seconds(all)) (\(share) %) from the sources; "
      + "encoded \(seconds(all - copiedFrames))"
  }
}
