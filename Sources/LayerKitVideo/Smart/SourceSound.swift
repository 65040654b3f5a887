import Foundation
import LayerKitMedia

/// A clip's sound as smart rendering needs to know it to copy its packets: AAC-LC, each packet
/// 1024 samples, their times contiguous, in a time base of one sample.
struct SourceSound: Sendable, Equatable {
  var path: String
  var sampleRate: Int
  var channels: Int
  /// ffprobe's channel layout name (stereo, mono, 5.1, …).
  var layout: String
  var bitRate: Int?
  /// The first packet's presentation time in samples: −1024 where an edit list cuts the
  /// encoder's delay (ffmpeg's, Apple's), so that packet k holds samples p₀ + 1024 k … of the
  /// sound as it plays (sample 0 is the first heard).
  var firstTime: Int
  /// Each packet's size in bytes, in order: what the copied packets are checked against.
  var sizes: [Int]

  /// Samples an AAC frame holds.
  static let frameSamples = 1024

  /// Where packet `k` starts, in samples of the sound as it plays.
  func start(ofPacket k: Int) -> Int { firstTime + k * Self.frameSamples }

  /// The first audio stream of `path` and its packets, by ffprobe.
  /// - Returns: the sound, or why its packets cannot be copied.
  /// - Throws: `ProcessError` when ffprobe cannot run or read the file.
  static func probe(_ path: String) throws -> Result<SourceSound, Refusal> {
    let name = (path as NSString).lastPathComponent
    let probe = try FFmpeg.start(
      try FFmpeg.ffprobe(),
      [
        "-v", "error", "-select_streams", "a:0", "-show_entries",
        "stream=codec_name,profile,sample_rate,channels,channel_layout,time_base,bit_rate:packet=pts,duration,size",
        "-of", "json", path,
      ], stdin: false, stdout: .pipe)
    let data = probe.readAll()
    let status = probe.wait()
    guard status == 0 else {
      throw ProcessError.unreadableClip(path: path, reason: FFmpeg.explain(probe.errorTail(lines: 4), path: path))
    }
    guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let stream = (json["streams"] as? [[String: Any]])?.first
    else { return .failure(Refusal("\(name) has no sound stream ffprobe describes")) }
    func int(_ value: Any?) -> Int? {
      if let n = value as? Int { return n }
      return (value as? String).flatMap { Int($0) }
    }
    let codec = stream["codec_name"] as? String ?? "?"
    let profile = stream["profile"] as? String ?? "?"
    guard codec == "aac", profile == "LC" else {
      return .failure(Refusal("\(name)'s sound is \(codec) \(profile), not AAC-LC"))
    }
    guard let rate = int(stream["sample_rate"]), let channels = int(stream["channels"]), rate > 0, channels > 0,
      let layout = stream["channel_layout"] as? String, !layout.isEmpty
    else { return .failure(Refusal("\(name)'s sound has no sample rate or channel layout")) }
    guard stream["time_base"] as? String == "1/\(rate)" else {
      return .failure(Refusal("\(name)'s sound is timed in \(stream["time_base"] ?? "?"), not in samples"))
    }
    let packets = json["packets"] as? [[String: Any]] ?? []
    var sizes: [Int] = []
    sizes.reserveCapacity(packets.count)
    guard let first = packets.first.flatMap({ int($0["pts"]) }) else {
      return .failure(Refusal("\(name)'s sound packets have no times"))
    }
    for (k, packet) in packets.enumerated() {
      guard let pts = int(packet["pts"]), let size = int(packet["size"]), pts == first + k * frameSamples,
        k == packets.count - 1 || int(packet["duration"]) == frameSamples
      else {
        return .failure(Refusal("\(name)'s sound packets are not one after another, 1024 samples each"))
      }
      sizes.append(size)
    }
    // Only packets that decode cleanly are copied (as with the pictures: SourcePackets.decodeFault),
    // the answer remembered for the file (DecodeVerdicts).
    if let fault = try DecodeVerdicts.fault(path, stream: .sound) {
      return .failure(Refusal("\(name)'s sound does not decode cleanly (\(fault))"))
    }
    return .success(
      SourceSound(
        path: path, sampleRate: rate, channels: channels, layout: layout, bitRate: int(stream["bit_rate"]),
        firstTime: first, sizes: sizes))
  }

}

/// Why a smart render encodes its whole sound, in words for the summary line.
struct Refusal: Error, Sendable, Equatable {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
