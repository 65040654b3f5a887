import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// The MP4 parts of a smart render (`--shard` with `--smart`), joined by their packets: each part
/// starts on an IDR picture and is a run of closed GOPs, so the parts are cut whole, restamped and
/// spliced as a smart render splices its stretches (`Splice`), the first part's sound (the whole
/// video's) copied under them. The copied frames stay the sources' own, bit for bit: a sharded
/// smart render joins to the frames of a whole one.
extension PartsSource {
  /// Joins MP4 parts by their packets into the MP4 `target`, with the first part's sound, or
  /// `audio` (encoded once under the whole), or none.
  /// - Throws: `.incompatibleParts` when the parts cannot make one stream (another codec,
  ///   profile, size or rate; a part that does not start on an IDR picture) or the target is not
  ///   an MP4; what ffmpeg says when it fails.
  public func joinMP4(to target: OutputTarget, sound: Bool, audio: String?) throws -> Int {
    guard target.format == .mp4, case .file(let output) = target.kind else {
      throw VideoError.incompatibleParts("MP4 parts join into an .mp4 file (their packets are copied)")
    }
    let files = try paths.map { try SourceFile.probe($0) }
    let streams = files.map(\.stream)
    let rate = try self.rate ?? FrameRate(clipParts[0].info.frameRate)
    if let why = SmartPlan.declines(
      streams, format: .mp4, encoder: SmartPlan.encoder(for: streams[0].codec), pixelFormat: nil, width: width,
      height: height, rate: rate)
    {
      throw VideoError.incompatibleParts("the parts cannot be joined by their packets: \(why)")
    }
    var delay = 0
    for (i, file) in files.enumerated() {
      let packets = SourcePackets.scan(file, frameCount: clipParts[i].count)
      guard packets.unusable == nil, packets.keyframes.first == 0 else {
        throw VideoError.incompatibleParts(
          "\(paths[i]) does not start on an IDR picture (\(packets.unusable ?? "an open GOP")): it is not a smart part")
      }
      delay = max(delay, packets.reorder.max() ?? 0)
    }
    let folder = try Splice.makeFolder(beside: output)
    defer { Splice.removeFolder(folder) }
    func run(_ args: [String]) throws {
      let process = try FFmpeg.start(try FFmpeg.ffmpeg(), args, stdin: false, stdout: .discard)
      let status = process.wait()
      guard status == 0 else {
        throw ProcessError.programFailed(program: "ffmpeg", status: status, detail: process.errorTail())
      }
    }
    let pieces = clipParts.indices.map { "\(folder)/\($0).ts" }
    for piece in pieces { EmergencyStop.add(temporary: piece) }
    try Splice.cut(
      clipParts.enumerated().map { i, part in
        Splice.Cut(path: paths[i], from: 0, count: part.count, at: part.first, piece: pieces[i])
      }, codec: streams[0].codec, rate: rate, delay: delay, run: run)
    var soundTrack: Splice.Sound?
    if sound {
      if let audio {
        soundTrack = .encode(AudioMix.track(audio))
      } else if let audioPart = try wholeSound() {
        soundTrack = .copy(audioPart)
      }
    }
    _ = try Splice.mux(
      pieces, codec: streams[0].codec, sound: soundTrack, frames: frameCount, part: nil, target: output,
      displayPath: target.displayPath, run: run)
    return frameCount
  }
}
