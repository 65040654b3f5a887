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

  /// The first sound stream of `file` (`SourceFile.probe`) and its packets.
  /// - Returns: the sound, or why its packets cannot be copied.
  /// - Throws: `ProcessError` when ffmpeg cannot run to check that it decodes.
  static func make(_ file: SourceFile) throws -> Result<SourceSound, Refusal> {
    let path = file.stream.path
    let name = (path as NSString).lastPathComponent
    guard let stream = file.sound else { return .failure(Refusal("\(name) has no sound stream ffprobe describes")) }
    guard stream.codec == "aac", stream.profile == "LC" else {
      return .failure(Refusal("\(name)'s sound is \(stream.codec) \(stream.profile), not AAC-LC"))
    }
    guard let rate = stream.sampleRate, let channels = stream.channels, rate > 0, channels > 0,
      let layout = stream.layout, !layout.isEmpty
    else { return .failure(Refusal("\(name)'s sound has no sample rate or channel layout")) }
    guard stream.timeBase == "1/\(rate)" else {
      return .failure(Refusal("\(name)'s sound is timed in \(stream.timeBase), not in samples"))
    }
    let packets = stream.packets
    var sizes: [Int] = []
    sizes.reserveCapacity(packets.count)
    guard let first = packets.first?.pts else {
      return .failure(Refusal("\(name)'s sound packets have no times"))
    }
    for (k, packet) in packets.enumerated() {
      guard let pts = packet.pts, let size = packet.size, pts == first + k * frameSamples,
        k == packets.count - 1 || packet.duration == frameSamples
      else {
        return .failure(Refusal("\(name)'s sound packets are not one after another, 1024 samples each"))
      }
      sizes.append(size)
    }
    // Only packets that decode cleanly are copied (as with the pictures: SmartDecision),
    // the answer remembered for the file (DecodeVerdicts).
    if let fault = try DecodeVerdicts.fault(path, stream: .sound) {
      return .failure(Refusal("\(name)'s sound does not decode cleanly (\(fault))"))
    }
    return .success(
      SourceSound(
        path: path, sampleRate: rate, channels: channels, layout: layout, bitRate: stream.bitRate,
        firstTime: first, sizes: sizes))
  }

}

/// Why a smart render encodes its whole sound, in words for the summary line.
struct Refusal: Error, Sendable, Equatable {
  var reason: String
  init(_ reason: String) { self.reason = reason }
}
