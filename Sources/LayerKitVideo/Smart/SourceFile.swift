import Foundation
import LayerKit
import LayerKitMedia

/// A clip file as smart rendering reads it before copying from it, in one ffprobe run: its first
/// video stream (`SourceStream`), that stream's packets, and its first sound stream with its
/// packets. Each ffprobe run costs about a tenth of a second before it reads a byte, and a
/// render waits for these before it starts: one run a file, not one a question.
public struct SourceFile: Sendable {
  public var stream: SourceStream
  /// The video stream's packets in decode order.
  public var packets: [SourcePackets.Packet]
  /// Whether a video packet has no presentation time (and is left out of `packets`).
  public var untimedPackets = false
  /// The first sound stream, nil when the file has none.
  var sound: Sound?

  /// A sound stream as ffprobe describes it, and its packets in order.
  struct Sound: Sendable {
    var codec: String
    var profile: String
    var sampleRate: Int?
    var channels: Int?
    var layout: String?
    var timeBase: String
    var bitRate: Int?
    var packets: [Packet]

    struct Packet: Sendable {
      var pts: Int?
      var duration: Int?
      var size: Int?
    }
  }

  /// The video stream's fields ffprobe is asked for.
  static let videoKeys = [
    "codec_name", "profile", "pix_fmt", "width", "height", "r_frame_rate", "color_space", "color_range",
    "color_primaries", "color_transfer", "time_base", "level", "sample_aspect_ratio",
  ]

  /// Files read ahead (`readAhead`), by path, with the identity the file had then.
  private static let ahead = Locked<[String: (identity: String, file: SourceFile)]>([:])

  /// Starts reading the files at `paths`, each on a thread of its own (ffprobe runs, the threads
  /// wait), and keeps them for `probe`: `VideoRender.open` reads them beside the clips' own
  /// probes, so that a smart render's decision does not wait for a second round. What cannot be
  /// read is left for `probe` to say.
  /// - Returns: a group that is done when every file is read.
  static func readAhead(_ paths: [String]) -> DispatchGroup {
    let group = DispatchGroup()
    // Eight ffprobe runs at a time at most: an edit of a hundred clips does not start a hundred.
    let slots = DispatchSemaphore(value: 8)
    for path in paths {
      group.enter()
      Thread {
        slots.wait()
        defer {
          slots.signal()
          group.leave()
        }
        guard let identity = DecodeVerdicts.identity(path), let file = try? read(path) else { return }
        ahead.withLock {
          // Bounded: a read never asked for (a render that declined) is not kept for long.
          if $0.count >= 64 { $0.removeAll() }
          $0[path] = (identity, file)
        }
      }.start()
    }
    return group
  }

  /// The file at `path`: as read ahead if it has not changed since, else read now.
  /// - Throws: `ProcessError.unreadableClip` when ffprobe cannot read it or it has no video
  ///   stream; `.programNotFound` when ffprobe is missing.
  public static func probe(_ path: String) throws(ProcessError) -> SourceFile {
    if let kept = ahead.withLock({ $0.removeValue(forKey: path) }), kept.identity == DecodeVerdicts.identity(path) {
      return kept.file
    }
    return try read(path)
  }

  /// Reads the file at `path` with ffprobe.
  static func read(_ path: String) throws(ProcessError) -> SourceFile {
    let streamKeys = ["index", "codec_type"] + videoKeys + ["sample_rate", "channels", "channel_layout", "bit_rate"]
    let probe = try FFmpeg.start(
      try FFmpeg.ffprobe(),
      [
        "-v", "error", "-show_entries",
        "stream=" + streamKeys.joined(separator: ",")
          + ":stream_side_data=rotation:format=format_name:packet=stream_index,pts,duration,flags,pos,size",
        "-of", "json", "-i", path,
      ], stdin: false, stdout: .pipe)
    let data = probe.readAll()
    guard probe.wait() == 0 else {
      throw .unreadableClip(path: path, reason: FFmpeg.explain(probe.errorTail(lines: 4), path: path))
    }
    guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw .unreadableClip(path: path, reason: "ffprobe's description of it could not be read")
    }
    let streams = json["streams"] as? [[String: Any]] ?? []
    guard let video = streams.first(where: { $0["codec_type"] as? String == "video" }),
      let codec = video["codec_name"] as? String, let width = int(video["width"]), let height = int(video["height"])
    else { throw .unreadableClip(path: path, reason: "no video stream") }
    func text(_ key: String, _ fallback: String = "unknown") -> String {
      (video[key] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? fallback
    }
    var stream = SourceStream(
      path: path, codec: codec, profile: text("profile"), pixelFormat: text("pix_fmt"), width: width, height: height,
      frameRate: text("r_frame_rate", "0/0"), colorSpace: text("color_space"), colorRange: text("color_range"))
    stream.colorPrimaries = text("color_primaries")
    stream.colorTransfer = text("color_transfer")
    stream.timeBase = text("time_base", "0/0")
    stream.level = int(video["level"]) ?? 0
    stream.sampleAspect = text("sample_aspect_ratio", "1:1")
    let sideData = video["side_data_list"] as? [[String: Any]] ?? []
    stream.rotation = sideData.lazy.compactMap { double($0["rotation"]) }.first ?? 0
    stream.container = (json["format"] as? [String: Any])?["format_name"] as? String ?? ""

    let videoIndex = int(video["index"])
    let audio = streams.first(where: { $0["codec_type"] as? String == "audio" })
    let audioIndex = audio.flatMap { int($0["index"]) }
    var packets: [SourcePackets.Packet] = []
    var soundPackets: [Sound.Packet] = []
    var untimed = false
    for packet in json["packets"] as? [[String: Any]] ?? [] {
      let index = int(packet["stream_index"])
      if index == videoIndex {
        guard let pts = int(packet["pts"]) else {
          untimed = true
          continue
        }
        packets.append(
          SourcePackets.Packet(
            pts: Int64(pts), isKey: (packet["flags"] as? String)?.hasPrefix("K") == true,
            position: int(packet["pos"]).map(Int64.init), size: int(packet["size"]) ?? 0))
      } else if index == audioIndex, audioIndex != nil {
        soundPackets.append(
          Sound.Packet(pts: int(packet["pts"]), duration: int(packet["duration"]), size: int(packet["size"])))
      }
    }
    let sound = audio.map { a in
      Sound(
        codec: a["codec_name"] as? String ?? "?", profile: a["profile"] as? String ?? "?",
        sampleRate: int(a["sample_rate"]), channels: int(a["channels"]), layout: a["channel_layout"] as? String,
        timeBase: a["time_base"] as? String ?? "?", bitRate: int(a["bit_rate"]), packets: soundPackets)
    }
    return SourceFile(stream: stream, packets: packets, untimedPackets: untimed, sound: sound)
  }

  /// A JSON number, or a number written as text (ffprobe writes some fields either way).
  static func int(_ value: Any?) -> Int? {
    if let n = value as? Int { return n }
    if let n = value as? NSNumber { return n.intValue }
    return (value as? String).flatMap { Int($0) }
  }

  static func double(_ value: Any?) -> Double? {
    if let n = value as? Double { return n }
    if let n = value as? NSNumber { return n.doubleValue }
    return (value as? String).flatMap { Double($0) }
  }
}
