import Foundation
import LayerKitMedia

/// Which frames of a timeline could be copied from their sources' packets instead of decoded and
/// encoded again (smart rendering, issue 26; this is its plan, the splicing comes after it): a
/// frame that shows a clip's frame exactly as it was encoded — 1:1 at the output's size and rate,
/// no transition, title, Ken Burns, overlay or subtitle over it, no speed change or loop — and a
/// whole GOP of such frames (from one keyframe of the source to the next) is copied; every other
/// frame is encoded. Pure arithmetic over the timeline and the sources' keyframe times.
public struct SmartPlan: Sendable, Equatable {
  /// A run of the video's frames, copied from one clip's packets or encoded.
  public enum Segment: Sendable, Equatable {
    /// Frames `frames` are clip item `item`'s source frames `sourceFrames`, one GOP or more,
    /// starting on a keyframe.
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

  /// The plan for `timeline`, given each clip item's source keyframes as frame indices of the
  /// source (`keyframes[i]`, sorted; items without an entry are never copied).
  public static func make(_ timeline: Timeline, keyframes: [Int: [Int]]) -> SmartPlan {
    let count = timeline.frameCount
    var segments: [Segment] = []
    func encode(_ k: Int) {
      if case .encode(let r)? = segments.last, r.upperBound == k {
        segments[segments.count - 1] = .encode(frames: r.lowerBound..<k + 1)
      } else {
        segments.append(.encode(frames: k..<k + 1))
      }
    }
    var k = 0
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
      let length = next - j
      let whole = (0..<length).allSatisfy { n in
        k + n < count && timeline.unchangedSourceFrame(k + n).map { $0 == (i, j + n) } == true
      }
      guard whole else {
        encode(k)
        k += 1
        continue
      }
      if case .copy(i, let r, let s)? = segments.last, r.upperBound == k, s.upperBound == j {
        segments[segments.count - 1] = .copy(
          item: i, frames: r.lowerBound..<k + length, sourceFrames: s.lowerBound..<next)
      } else {
        segments.append(.copy(item: i, frames: k..<k + length, sourceFrames: j..<next))
      }
      k += length
    }
    return SmartPlan(segments: segments)
  }

  /// The frame indices of a clip's keyframes (video stream, in presentation order), as ffprobe
  /// reads its packets' flags: packet times × the clip's rate, rounded.
  /// - Throws: `VideoError` when ffprobe cannot read the clip.
  public static func keyframes(of clip: ClipInfo) throws(VideoError) -> [Int] {
    let probe = try FFmpeg.start(
      try FFmpeg.ffprobe(),
      [
        "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts_time,flags", "-of", "csv=p=0", clip.path,
      ], stdin: false, stdout: .pipe)
    let text = String(decoding: probe.readAll(), as: UTF8.self)
    let status = probe.wait()
    guard status == 0 else {
      throw .unreadableClip(path: clip.path, reason: FFmpeg.explain(probe.errorTail(lines: 4), path: clip.path))
    }
    var frames: [Int] = []
    for line in text.split(whereSeparator: \.isNewline) {
      let fields = line.split(separator: ",")
      guard fields.count >= 2, fields[1].hasPrefix("K"), let t = Double(fields[0]), t.isFinite else { continue }
      frames.append(Int((t * clip.frameRate).rounded()))
    }
    return frames.sorted()
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
    guard item.speed == 1, item.loopLength == nil, item.motion == nil, item.title == nil,
      info.width == width, info.height == height, pictureWidth == width, pictureHeight == height,
      abs(info.frameRate - rate.framesPerSecond) < 1e-6,
      !overlays.contains(where: { $0.shows(at: t) }), subtitles.map({ $0.cues(at: t).isEmpty }) ?? true
    else { return nil }
    // The source frame shown: exactly on one (the in-point on a frame of the source).
    let exact = item.clipTime(local) * info.frameRate
    let j = Int(exact.rounded())
    guard abs(exact - Double(j)) < 1e-6, j >= 0, j < info.frameCount else { return nil }
    return (i, j)
  }
}
