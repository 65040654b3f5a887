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
  /// The video stream's pixel format as ffmpeg names it (`yuv420p`, `yuva420p`, `bgra`, …); empty
  /// when unknown.
  public var pixelFormat: String = ""
  /// The stream's Y'CbCr matrix as tagged (`bt709`, `bt470bg`, `smpte170m`, …); nil when untagged.
  public var colorSpace: String?
  /// `tv` (limited) or `pc` (full); nil when untagged.
  public var colorRange: String?
  /// The width of the stored frames when their pixels are not square (a sample aspect ratio
  /// other than 1:1): `width` is then the width they are shown at, and the decoder scales each
  /// frame to it (non-square pixels would otherwise show squeezed). nil for square pixels.
  public var storedWidth: Int?
  /// The container's tags (ffprobe's `format.tags`), keys upper-cased.
  public var containerTags: [String: String] = [:]
  /// Frames a decoder may start at without decoding the GOP before them: clean keyframes (an
  /// IDR picture, nothing decoded after it shown before it), when known (a smart render's scan
  /// of the packets); empty otherwise.
  public var cleanKeyframes: Set<Int> = []

  public init(
    path: String, width: Int, height: Int, frameRate: Double, duration: Double, hasAudio: Bool,
    pixelFormat: String = "", colorSpace: String? = nil, colorRange: String? = nil
  ) {
    self.path = path
    self.width = width
    self.height = height
    self.frameRate = frameRate
    self.duration = duration
    self.hasAudio = hasAudio
    self.pixelFormat = pixelFormat
    self.colorSpace = colorSpace
    self.colorRange = colorRange
  }

  /// Whether every decoded frame is opaque: the pixel format has no alpha.
  public var isOpaque: Bool {
    let f = pixelFormat
    if f.isEmpty || f.hasPrefix("yuva") || f.hasPrefix("pal") { return false }
    return f.hasPrefix("yuv") || f.hasPrefix("nv") || f.hasPrefix("gray") || f.hasPrefix("rgb24")
      || f.hasPrefix("bgr24") || (f.hasPrefix("gbrp") && !f.hasPrefix("gbrap"))
  }

  /// The matrix its Y'CbCr is decoded with: the tagged one, or for an untagged stream BT.709 when
  /// it is HD (wider than 1024 or taller than 576 pixels) and BT.601 otherwise, as players guess
  /// (ffmpeg alone would take BT.601 for every untagged stream, tinting HD video).
  public var decodingMatrix: String {
    if let colorSpace, colorSpace != "unknown" { return colorSpace }
    return YCbCrMatrix.untagged(width: width, height: height).rawValue
  }

  /// Whether the decoded planes are already what LayerKit writes: 8-bit 4:2:0 Y'CbCr, BT.709,
  /// limited range, no alpha; such frames can go to a Y'CbCr output as decoded.
  public var isBT709Video: Bool {
    pixelFormat == "yuv420p" && decodingMatrix == "bt709" && (colorRange ?? "tv") != "pc"
  }

  /// Reads a clip's description with ffprobe.
  /// - Throws: `.programNotFound` without ffprobe, `.unreadableClip` when ffprobe cannot read it or
  ///   finds no video stream.
  public static func probe(_ path: String) throws(ProcessError) -> ClipInfo {
    // ffprobe would wait on a FIFO forever.
    if let kind = FileIO.irregularKind(path) {
      throw .unreadableClip(path: path, reason: "\(kind), not a regular file")
    }
    // A clip an edit uses several times is probed once, while the file stays as it was.
    let key = identity(path)
    if let key, let known = probed.withLock({ $0[key] }) { return known }
    let info = try read(path)
    if let key { probed.withLock { $0[key] = info } }
    return info
  }

  /// What this process has probed, by the file's path, size and modification time.
  private static let probed = Locked<[String: ClipInfo]>([:])

  private static func identity(_ path: String) -> String? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let size = attributes[.size] as? NSNumber, let date = attributes[.modificationDate] as? Date
    else { return nil }
    return "\(path)|\(size)|\(date.timeIntervalSince1970)"
  }

  private static func read(_ path: String) throws(ProcessError) -> ClipInfo {
    let probe = try FFmpeg.start(
      try FFmpeg.ffprobe(),
      [
        "-v", "error", "-print_format", "json", "-show_format", "-show_streams", "-i", path,
      ], stdin: false, stdout: .pipe)
    let data = probe.readAll()
    let status = probe.wait()
    guard status == 0 else {
      let detail = probe.errorTail(lines: 4)
      throw .unreadableClip(
        path: path, reason: detail.isEmpty ? "ffprobe exit status \(status)" : FFmpeg.explain(detail, path: path))
    }
    guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let streams = json["streams"] as? [[String: Any]]
    else { throw .unreadableClip(path: path, reason: "ffprobe gave no stream list") }
    let format = json["format"] as? [String: Any]
    // A picture in a format LayerKit does not decode itself (WebP, BMP, TIFF, GIF stills): ffmpeg
    // reads it as one frame of no duration.
    let formatName = format?["format_name"] as? String ?? ""
    if formatName == "image2" || formatName.hasSuffix("_pipe") {
      // ffmpeg's image2 demuxer goes by the name alone: a text file named .png is "an image" to it.
      if FileIO.looksLikeText(path) {
        throw .unreadableClip(path: path, reason: "a text file, not a picture or a clip")
      }
      let kind = formatName.hasSuffix("_pipe") ? String(formatName.dropLast(5)).uppercased() : nil
      throw .unreadableClip(
        path: path,
        reason: (kind.map { "a \($0) image" } ?? "an image in a format LayerKit does not read")
          + "; LayerKit reads PNG and JPEG stills (convert it, e.g. ffmpeg -i IN OUT.png)")
    }
    guard let video = streams.first(where: { ($0["codec_type"] as? String) == "video" }),
      var width = video["width"] as? Int, var height = video["height"] as? Int, width > 0, height > 0
    else { throw .unreadableClip(path: path, reason: "no video stream") }
    let rate = [video["avg_frame_rate"], video["r_frame_rate"]].compactMap { ($0 as? String).flatMap(rational) }
      .first { $0.isFinite && $0 > 0 && $0 <= 1000 }
    guard let rate else { throw .unreadableClip(path: path, reason: "no frame rate") }
    let durations = [video["duration"], format?["duration"]].compactMap { ($0 as? String).flatMap(Double.init) }
    var duration = durations.first { $0.isFinite && $0 > 0 } ?? 0
    // Non-square pixels (SAR 2:1 DV, 4:3 anamorphic): shown at the display width, even.
    var storedWidth: Int?
    if let sar = (video["sample_aspect_ratio"] as? String).flatMap({
      rational($0.replacingOccurrences(of: ":", with: "/"))
    }),
      sar.isFinite, sar > 0, abs(sar - 1) > 1e-6
    {
      let shown = max(2, Int((Double(width) * sar / 2).rounded()) * 2)
      if shown != width, shown <= 16_384 {
        storedWidth = width
        width = shown
      }
    }
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
    func tag(_ key: String) -> String? {
      guard let value = video[key] as? String, value != "unknown", !value.isEmpty else { return nil }
      return value
    }
    var info = ClipInfo(
      path: path, width: width, height: height, frameRate: rate, duration: duration, hasAudio: hasAudio,
      pixelFormat: tag("pix_fmt") ?? "", colorSpace: tag("color_space"), colorRange: tag("color_range"))
    info.storedWidth = storedWidth
    if let tags = format?["tags"] as? [String: Any] {
      for (key, value) in tags { if let value = value as? String { info.containerTags[key.uppercased()] = value } }
    }
    return info
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

/// Streams a clip's frames, in order, from the ffmpeg program: decoded straight to RGBA — or, for
/// a Y'CbCr output that takes them as they are, to planes of the output's layout — through a pipe
/// (never to files), starting at the frame asked for first (ffmpeg seeks to the keyframe before
/// it and decodes from there, so a late in-point costs no more than an early one), and ending at
/// `lastFrame`. A thread of its own reads ahead into a small bounded queue, so decoding runs
/// while the frame before is rendered.
///
/// Frames are numbered at the clip's own rate (frame j is shown from j / frameRate); asking for
/// frames out of order restarts the decoder. Past the clip's end the last frame is held.
public final class ClipDecoder: @unchecked Sendable {
  public let info: ClipInfo
  /// What the decoder delivers.
  public enum Output: Sendable, Equatable {
    /// Premultiplied RGBA at the clip's size.
    case rgba
    /// Y'CbCr planes of `layout`, BT.709 limited range: the clip's own planes when it is such
    /// video at that size (`ClipInfo.isBT709Video`), else converted or scaled by ffmpeg.
    case planes(YUVFrameLayout)
  }

  /// A decoded frame.
  public enum Frame: Sendable {
    case image(Image)
    case planes(YUVPlanes)
  }

  public let output: Output
  private let lastFrame: Int
  private var process: ChildProcess?
  /// The decoder thread's queue: set and cleared here, read by `interrupt()` from any thread.
  private let queue = Locked<BoundedQueue<Result<Frame, ProcessError>>?>(nil)
  /// The index of the next frame the queue will deliver.
  private var nextIndex = 0
  private var current: (index: Int, frame: Frame)?
  /// Seconds spent waiting for the decoder's next frame.
  public private(set) var waitSeconds = 0.0
  /// The current frame's planes as RGBA, made when first asked for.
  private var currentImage: Image?
  private var ended = false
  /// What ffmpeg said was wrong with the clip's data when it ended (cut off, damaged), if anything.
  private var damage: String?

  /// Whether the clip's RGBA is stored premultiplied (LayerKit's own lossless parts) rather than
  /// with straight alpha, as every other clip is.
  private let storedPremultiplied: Bool

  /// - Parameters:
  ///   - info: the clip, probed.
  ///   - lastFrame: the last frame index that will be asked for (decoding stops there).
  ///   - storedPremultiplied: true for LayerKit's FFV1 parts, whose bytes are read as stored.
  ///   - output: RGBA (the default), or planes of a layout.
  public init(_ info: ClipInfo, lastFrame: Int, storedPremultiplied: Bool = false, output: Output = .rgba) {
    self.info = info
    self.lastFrame = lastFrame
    self.storedPremultiplied = storedPremultiplied
    self.output = output
  }

  deinit { stop() }

  /// The frame shown at `time` seconds into the clip (clamped to the clip), as RGBA.
  public func frame(at time: Double) throws -> Image {
    try frame(index: index(at: time))
  }

  /// The frame shown at `time` seconds into the clip, as decoded.
  public func decoded(at time: Double) throws -> Frame {
    try decoded(index: index(at: time))
  }

  /// Starts decoding at `time` if nothing is decoding yet, without waiting for a frame: the
  /// program starts, and its first frames are decoded, while the frames before are rendered.
  public func start(at time: Double) {
    if process == nil && !ended && current == nil { restart(at: index(at: time)) }
  }

  private func index(at time: Double) -> Int {
    // A hair of slack so t = j / rate computed in floating point lands on frame j.
    max(0, Int((time * info.frameRate + 1e-6).rounded(.down)))
  }

  /// Frame `index` at the clip's rate as RGBA (planes converted: `YUVPlanes.image()`).
  public func frame(index: Int) throws -> Image {
    switch try decoded(index: index) {
    case .image(let image): return image
    case .planes(let planes):
      if let currentImage { return currentImage }
      let image = try planes.image()
      currentImage = image
      return image
    }
  }

  /// Frame `index` at the clip's rate, as decoded; the last frame when the clip ends before it.
  public func decoded(index: Int) throws -> Frame {
    if let current, current.index == index { return current.frame }
    let behind = current.map { index < $0.index } ?? false
    // Far ahead (a cut inside the clip): seeking is cheaper than decoding every frame between.
    let farAhead = !ended && index - nextIndex > Int(info.frameRate * 2) + 8
    if behind || farAhead || (process == nil && !ended) { restart(at: index) }
    while true {
      if let current, current.index >= index { return current.frame }
      if ended {
        guard let current else {
          throw ProcessError.unreadableClip(
            path: info.path, reason: "ffmpeg decoded no frame at or after frame \(index)")
        }
        // The clip ended before `index`: its last frame holds — unless ffmpeg said its data is
        // cut off or damaged and `index` is a frame the clip declares (then the held frame
        // would stand in for video that is missing).
        if index > current.index, index < info.frameCount, let damage {
          throw ProcessError.unreadableClip(
            path: info.path,
            reason: "\(damage): ffmpeg decoded frames up to \(current.index) of the \(info.frameCount) it declares")
        }
        return current.frame
      }
      let t0 = DispatchTime.now().uptimeNanoseconds
      let popped = queue.current?.pop()
      waitSeconds += Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
      guard let next = popped else {
        ended = true
        try finishProcess()
        continue
      }
      current = (nextIndex, try next.get())
      currentImage = nil
      nextIndex += 1
    }
  }

  /// Stops the decoder (if running) and its reader, and lets go of the frame it held. Call from
  /// the thread that reads frames.
  public func stop() {
    interrupt()
    // A decoder has nothing to finish, and ffmpeg blocked writing to a full pipe does not act on
    // SIGTERM until the write returns: it is killed at once.
    process?.terminate(grace: 0)
    process = nil
    current = nil
    currentImage = nil
    ended = false
    queue.withLock { $0 = nil }
  }

  /// Wakes a reader waiting for a frame, from any thread: the wait ends as at the clip's end.
  public func interrupt() {
    queue.current?.cancel()
  }

  private func finishProcess() throws {
    guard let process else { return }
    let status = process.wait()
    self.process = nil
    let errors = process.errorTail()
    let lower = errors.lowercased()
    if ["partial file", "invalid nal unit", "error while decoding", "invalid data found", "corrupt"].contains(
      where: lower.contains)
    {
      damage = FFmpeg.explain(errors, path: info.path)
    }
    // Any status is fine once we have frames: ffmpeg exits non-zero when its reader goes away.
    if status != 0 && current == nil {
      throw ProcessError.unreadableClip(path: info.path, reason: FFmpeg.explain(process.errorTail(), path: info.path))
    }
  }

  /// ffmpeg's output options: the pixel format, and a scale filter where the size or the matrix
  /// needs one.
  var outputArguments: [String] {
    switch output {
    case .rgba:
      // An untagged HD stream is BT.709 (`ClipInfo.decodingMatrix`), which ffmpeg's scaler
      // would take for BT.601.
      let untaggedHD = info.colorSpace == nil && info.decodingMatrix == "bt709" && info.pixelFormat.hasPrefix("yuv")
      // Non-square pixels are scaled to the width they are shown at.
      var filters: [String] = []
      if info.storedWidth != nil { filters.append("scale=\(info.width):\(info.height),setsar=1") }
      if untaggedHD { filters.append("scale=in_color_matrix=bt709") }
      return (filters.isEmpty ? [] : ["-vf", filters.joined(separator: ",")]) + ["-f", "rawvideo", "-pix_fmt", "rgba"]
    case .planes(let layout):
      var filters: [String] = []
      if layout.width != (info.storedWidth ?? info.width) || layout.height != info.height {
        // Shrinking: the mean over each output pixel's footprint; growing: bilinear.
        let shrinks = layout.width <= info.width && layout.height <= info.height
        filters.append("scale=\(layout.width):\(layout.height):flags=\(shrinks ? "area" : "bilinear")")
      }
      if !info.isBT709Video {
        filters.append(
          "scale=in_color_matrix=\(info.decodingMatrix == "bt709" ? "bt709" : "bt601"):out_color_matrix=bt709:out_range=tv"
        )
      }
      let format = layout.chroma == .yuv420 ? "yuv420p" : "yuv444p"
      return (filters.isEmpty ? [] : ["-vf", filters.joined(separator: ",")]) + ["-f", "rawvideo", "-pix_fmt", format]
    }
  }

  private func restart(at index: Int) {
    stop()
    nextIndex = index
    damage = nil
    let count = max(1, lastFrame - index + 1)
    // Seek half a frame before the wanted frame's time: ffmpeg's accurate seek then drops every
    // frame before it, whatever the rounding of either time.
    var args = ["-nostdin", "-hide_banner", "-loglevel", "error"]
    if info.cleanKeyframes.contains(index) && index > 0 {
      // A clean keyframe: seeking a quarter frame past it lands on it, and nothing before it
      // needs decoding or dropping.
      args += ["-noaccurate_seek", "-ss", FFmpeg.seconds((Double(index) + 0.25) / info.frameRate)]
    } else {
      let seek = (Double(index) - 0.5) / info.frameRate
      if seek > 0 { args += ["-ss", FFmpeg.seconds(seek)] }
    }
    // passthrough: every decoded frame once, as it comes (rawvideo would default to constant
    // rate, which duplicates the first frame after a seek).
    args += ["-i", info.path, "-map", "0:v:0", "-an", "-sn", "-fps_mode", "passthrough", "-frames:v", String(count)]
    args += outputArguments
    args.append("-")
    let q = BoundedQueue<Result<Frame, ProcessError>>(capacity: 3)
    queue.withLock { $0 = q }
    let width = info.width
    let height = info.height
    let path = info.path
    let premultiply = !storedPremultiplied
    let output = self.output
    do {
      let p = try FFmpeg.start(try FFmpeg.ffmpeg(), args, stdin: false, stdout: .pipe)
      process = p
      let thread = Thread {
        var got: Result<Bool, ProcessError> = .success(false)
        reading: while true {
          // Read straight into the frame's storage: no zero-fill of a buffer about to be overwritten.
          let read = { (buffer: UnsafeMutableRawBufferPointer) in
            got = Result { () throws(ProcessError) -> Bool in try p.readExactly(buffer) }
          }
          let frame: Frame
          switch output {
          case .rgba:
            var pixels = FrameMemory.bytes(count: width * height * 4) { read(UnsafeMutableRawBufferPointer($0)) }
            guard case .success(true) = got else { break reading }
            // ffmpeg's rgba is straight alpha; LayerKit's images are premultiplied.
            if premultiply { Premultiply.inPlace(&pixels) }
            guard let image = try? Image(width: width, height: height, pixels: pixels) else {
              q.push(.failure(.unreadableClip(path: path, reason: "a frame of \(width)×\(height) is too large")))
              break reading
            }
            frame = .image(image)
          case .planes(let layout):
            // Into recycled memory (FrameBuffer): a stream of frames reuses a few buffers.
            let planes = YUVPlanes(layout: layout, initialize: read)
            guard case .success(true) = got else { break reading }
            frame = .planes(planes)
          }
          if !q.push(.success(frame)) { break reading }
        }
        if case .failure(let error) = got { q.push(.failure(error)) }
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
