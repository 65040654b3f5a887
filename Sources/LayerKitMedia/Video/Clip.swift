import Foundation
import LayerKit

/// What ffprobe says about a clip: the first video stream's size (after the display rotation),
/// frame rate and length, and whether there is audio.
public struct ClipInfo: Sendable, Equatable {
  public var path: String
  /// Width and height of the frames as shown (a clip rotated by 90° has them swapped).
  public var width: Int
  public var height: Int
  /// Frames per second (the stream's average rate; clips are read as constant frame rate).
  public var frameRate: Double
  /// Seconds of video.
  public var duration: Double
  public var hasAudio: Bool

  /// Reads a clip's description with ffprobe.
  /// - Throws: `.programNotFound` without ffprobe, `.unreadableClip` when ffprobe cannot read it or
  ///   finds no video stream.
  public static func probe(_ path: String) throws(VideoError) -> ClipInfo {
    let probe = try FFmpeg.start(
      try FFmpeg.ffprobe(),
      [
        "-v", "error", "-print_format", "json", "-show_format", "-show_streams", path,
      ], stdin: false, stdout: .pipe)
    let data = probe.readAll()
    let status = probe.wait()
    guard status == 0 else {
      let detail = probe.errorTail(lines: 2)
      throw .unreadableClip(path: path, reason: detail.isEmpty ? "ffprobe exit status \(status)" : detail)
    }
    guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let streams = json["streams"] as? [[String: Any]]
    else { throw .unreadableClip(path: path, reason: "ffprobe gave no stream list") }
    guard let video = streams.first(where: { ($0["codec_type"] as? String) == "video" }),
      var width = video["width"] as? Int, var height = video["height"] as? Int, width > 0, height > 0
    else { throw .unreadableClip(path: path, reason: "no video stream") }
    let rate = [video["avg_frame_rate"], video["r_frame_rate"]].compactMap { ($0 as? String).flatMap(rational) }
      .first { $0.isFinite && $0 > 0 && $0 <= 1000 }
    guard let rate else { throw .unreadableClip(path: path, reason: "no frame rate") }
    let format = json["format"] as? [String: Any]
    let durations = [video["duration"], format?["duration"]].compactMap { ($0 as? String).flatMap(Double.init) }
    var duration = durations.first { $0.isFinite && $0 > 0 } ?? 0
    if duration == 0, let frames = (video["nb_frames"] as? String).flatMap(Int.init), frames > 0 {
      duration = Double(frames) / rate
    }
    guard duration > 0 else { throw .unreadableClip(path: path, reason: "unknown duration") }
    // A display matrix rotated by ±90° (phone videos): ffmpeg's autorotate turns the frames, so
    // the size we receive is swapped.
    var rotation = 0.0
    if let side = video["side_data_list"] as? [[String: Any]] {
      for entry in side {
        if let r = entry["rotation"] as? Double {
          rotation = r
        } else if let r = entry["rotation"] as? Int {
          rotation = Double(r)
        }
      }
    }
    if let tags = video["tags"] as? [String: Any], let r = (tags["rotate"] as? String).flatMap(Double.init) {
      rotation = r
    }
    if Int(abs(rotation).rounded()) % 180 == 90 { swap(&width, &height) }
    let hasAudio = streams.contains { ($0["codec_type"] as? String) == "audio" }
    return ClipInfo(path: path, width: width, height: height, frameRate: rate, duration: duration, hasAudio: hasAudio)
  }

  /// "30000/1001" → 29.97…
  static func rational(_ text: String) -> Double? {
    let parts = text.split(separator: "/")
    guard let n = Double(parts[0]) else { return nil }
    guard parts.count == 2 else { return n }
    guard let d = Double(parts[1]), d != 0 else { return nil }
    return n / d
  }

  /// The number of frames in the clip at its own rate.
  public var frameCount: Int { max(1, Int((duration * frameRate).rounded())) }
}

/// Streams a clip's frames, in order, from the ffmpeg program: decoded straight to RGBA through a
/// pipe (never to files), starting at the frame asked for first (ffmpeg seeks to the keyframe
/// before it and decodes from there, so a late in-point costs no more than an early one), and
/// ending at `lastFrame`. A thread of its own reads ahead into a small bounded queue, so decoding
/// runs while the frame before is rendered.
///
/// Frames are numbered at the clip's own rate (frame j is shown from j / frameRate); asking for
/// frames out of order restarts the decoder. Past the clip's end the last frame is held.
public final class ClipDecoder: @unchecked Sendable {
  public let info: ClipInfo
  private let lastFrame: Int
  private var process: ChildProcess?
  private var queue: BoundedQueue<Result<Image, VideoError>>?
  private let queueLock = NSLock()
  /// The index of the next frame the queue will deliver.
  private var nextIndex = 0
  private var current: (index: Int, image: Image)?
  private var ended = false

  /// Whether the clip's RGBA is stored premultiplied (LayerKit's own lossless parts) rather than
  /// with straight alpha, as every other clip is.
  private let storedPremultiplied: Bool

  /// - Parameters:
  ///   - info: the clip, probed.
  ///   - lastFrame: the last frame index that will be asked for (decoding stops there).
  ///   - storedPremultiplied: true for LayerKit's FFV1 parts, whose bytes are read as stored.
  public init(_ info: ClipInfo, lastFrame: Int, storedPremultiplied: Bool = false) {
    self.info = info
    self.lastFrame = lastFrame
    self.storedPremultiplied = storedPremultiplied
  }

  deinit { stop() }

  /// The frame shown at `time` seconds into the clip (clamped to the clip).
  public func frame(at time: Double) throws -> Image {
    // A hair of slack so t = j / rate computed in floating point lands on frame j.
    let index = max(0, Int((time * info.frameRate + 1e-6).rounded(.down)))
    return try frame(index: index)
  }

  /// Frame `index` at the clip's rate; the last frame when the clip ends before it.
  public func frame(index: Int) throws -> Image {
    if let current, current.index == index { return current.image }
    let behind = current.map { index < $0.index } ?? false
    // Far ahead (a cut inside the clip): seeking is cheaper than decoding every frame between.
    let farAhead = !ended && index - nextIndex > Int(info.frameRate * 2) + 8
    if behind || farAhead || (process == nil && !ended) { restart(at: index) }
    while true {
      if let current, current.index >= index { return current.image }
      if ended {
        guard let current else {
          throw VideoError.unreadableClip(path: info.path, reason: "ffmpeg decoded no frame at or after frame \(index)")
        }
        return current.image  // the clip ended before `index`: its last frame holds
      }
      guard let next = queue?.pop() else {
        ended = true
        try finishProcess()
        continue
      }
      current = (nextIndex, try next.get())
      nextIndex += 1
    }
  }

  /// Stops the decoder (if running) and its reader, and lets go of the frame it held. Call from
  /// the thread that reads frames.
  public func stop() {
    interrupt()
    process?.terminate(grace: 0.5)
    process = nil
    current = nil
    ended = false
    queueLock.lock()
    queue = nil
    queueLock.unlock()
  }

  /// Wakes a reader waiting for a frame, from any thread: the wait ends as at the clip's end.
  public func interrupt() {
    queueLock.lock()
    let q = queue
    queueLock.unlock()
    q?.cancel()
  }

  private func finishProcess() throws {
    guard let process else { return }
    let status = process.wait()
    self.process = nil
    // Any status is fine once we have frames: ffmpeg exits non-zero when its reader goes away.
    if status != 0 && current == nil {
      throw VideoError.programFailed(program: "ffmpeg", status: status, detail: process.errorTail())
    }
  }

  private func restart(at index: Int) {
    stop()
    nextIndex = index
    let count = max(1, lastFrame - index + 1)
    // Seek half a frame before the wanted frame's time: ffmpeg's accurate seek then drops every
    // frame before it, whatever the rounding of either time.
    let seek = (Double(index) - 0.5) / info.frameRate
    var args = ["-nostdin", "-hide_banner", "-loglevel", "error"]
    if seek > 0 { args += ["-ss", FFmpeg.seconds(seek)] }
    // passthrough: every decoded frame once, as it comes (rawvideo would default to constant
    // rate, which duplicates the first frame after a seek).
    args += ["-i", info.path, "-map", "0:v:0", "-an", "-sn", "-fps_mode", "passthrough", "-frames:v", String(count)]
    args += ["-f", "rawvideo", "-pix_fmt", "rgba", "-"]
    let q = BoundedQueue<Result<Image, VideoError>>(capacity: 3)
    queueLock.lock()
    queue = q
    queueLock.unlock()
    let width = info.width
    let height = info.height
    let path = info.path
    let premultiply = !storedPremultiplied
    do {
      let p = try FFmpeg.start(try FFmpeg.ffmpeg(), args, stdin: false, stdout: .pipe)
      process = p
      let thread = Thread {
        let size = width * height * 4
        while true {
          // Read straight into the frame's storage: no zero-fill of a buffer about to be overwritten.
          var got: Result<Bool, VideoError> = .success(false)
          var pixels = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            got = Result { () throws(VideoError) -> Bool in try p.readExactly(UnsafeMutableRawBufferPointer(buffer)) }
            count = buffer.count
          }
          if case .failure(let error) = got {
            q.push(.failure(error))
            break
          }
          if case .success(false) = got { break }
          // ffmpeg's rgba is straight alpha; LayerKit's images are premultiplied.
          if premultiply { Premultiply.inPlace(&pixels) }
          guard let image = try? Image(width: width, height: height, pixels: pixels) else {
            q.push(.failure(.unreadableClip(path: path, reason: "a frame of \(width)×\(height) is too large")))
            break
          }
          if !q.push(.success(image)) { break }
        }
        q.close()
      }
      thread.name = "decode \(path)"
      thread.start()
    } catch {
      q.push(.failure(error))
      q.close()
    }
  }
}
