import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// A clip's video packets as smart rendering must know them before it copies any: where a copied
/// stretch may start, and how far each frame is decoded ahead of when it is shown.
///
/// A stretch starts only at a *clean* keyframe: an IDR picture (H.264 NAL type 5; HEVC's
/// IDR_W_RADL or IDR_N_LP), read from the packet's own bytes, with no picture decoded after it
/// that is shown before it and none decoded before it that is shown after it. Such a picture
/// opens a closed GOP: the packets from it to the next clean keyframe, in decode order, are
/// exactly the frames between them in presentation order, and need nothing outside them. The
/// keyframes of open GOPs (x264's `--open-gop` recovery points, HEVC's CRA with RASL pictures)
/// are not clean: their stretches are encoded.
public struct SourcePackets: Sendable, Equatable {
  public var path: String
  /// The clean keyframes, as frame indices in presentation order.
  public var keyframes: [Int]
  /// The frames a copied run may end on, in presentation order: frame m where the packets up
  /// to it in decode order are exactly frames 0…m (the end of a mini-GOP: nothing shown by then
  /// is decoded after it, so nothing copied references a frame left out). A run from a clean
  /// keyframe to such a frame is whole without the rest of its GOP.
  public var ends: [Int]
  /// For frame j (presentation order): its place in decode order less j. Copied frames are
  /// restamped from these (`SmartRender`), so the spliced stream's decode times stay monotonic
  /// and never pass a presentation time.
  public var reorder: [Int]
  /// Why no stretch of the clip can be copied (variable frame rate, packets that are not its
  /// frames), or nil.
  public var unusable: String?

  public var frameCount: Int { reorder.count }

  public init(path: String, keyframes: [Int], ends: [Int] = [], reorder: [Int], unusable: String? = nil) {
    self.path = path
    self.keyframes = keyframes
    self.ends = ends
    self.reorder = reorder
    self.unusable = unusable
  }

  /// One packet as ffprobe lists it: presentation and decode timestamps in the stream's time
  /// base, whether it is flagged a keyframe, and where its bytes lie in the file.
  public struct Packet: Sendable, Equatable {
    public var pts: Int64
    public var isKey: Bool
    public var position: Int64?
    public var size: Int

    public init(pts: Int64, isKey: Bool, position: Int64? = nil, size: Int = 0) {
      self.pts = pts
      self.isKey = isKey
      self.position = position
      self.size = size
    }
  }

  /// Works out the clean keyframes of `file`'s video packets (`SourceFile.probe`: ffprobe, no
  /// decoding), reading the first bytes of each keyframe from the file.
  /// - Parameter frameCount: the frames LayerKit decodes from the clip (`ClipInfo.frameCount`):
  ///   packets that are not exactly those frames make the clip unusable.
  public static func scan(_ file: SourceFile, frameCount: Int) -> SourcePackets {
    let stream = file.stream
    if file.untimedPackets {
      return SourcePackets(
        path: stream.path, keyframes: [], reorder: [], unusable: "a packet without a presentation time")
    }
    let bytes = FileHandle(forReadingAtPath: stream.path)
    defer { try? bytes?.close() }
    return make(file.packets, stream: stream, frameCount: frameCount) { packet in
      guard let bytes, let position = packet.position, packet.size > 0 else { return nil }
      do {
        try bytes.seek(toOffset: UInt64(position))
        return try bytes.read(upToCount: min(packet.size, 1 << 16)).map { [UInt8]($0) }
      } catch {
        return nil
      }
    }
  }

  /// The packets of `stream` (in decode order) worked out: each one's frame index from its
  /// presentation time, the clean keyframes (`firstBytes` gives a keyframe packet's leading
  /// bytes, in the MP4 form: NAL units behind 4-byte lengths), the reordering.
  public static func make(
    _ packets: [Packet], stream: SourceStream, frameCount: Int, firstBytes: (Packet) -> [UInt8]?
  ) -> SourcePackets {
    func unusable(_ why: String) -> SourcePackets {
      SourcePackets(path: stream.path, keyframes: [], reorder: [], unusable: why)
    }
    guard let first = packets.map(\.pts).min(), let (num, den) = stream.timeBaseParts,
      let (rn, rd) = stream.rateParts
    else { return unusable("its packets carry no time") }
    // Frame 0 must be at time 0: seeking (`-ss`) in an MP4 is by presentation time.
    guard abs(first) * Int64(num) * Int64(rn) * 4 < Int64(den) * Int64(rd) else {
      return unusable("its video starts at \(Double(first) * Double(num) / Double(den)) s, not at 0")
    }
    guard packets.count == frameCount else {
      return unusable(
        "it holds \(packets.count) packets for its \(frameCount) frames (an edit list, or dropped frames)")
    }
    // Frame index = (pts − first) × time base × rate, which must land on a whole frame.
    var order = [Int](repeating: -1, count: packets.count)
    var shown = [Int](repeating: 0, count: packets.count)
    for (d, p) in packets.enumerated() {
      let ticks = (p.pts - first) * Int64(num) * Int64(rn)
      let per = Int64(den) * Int64(rd)
      let (j, rest) = ticks.quotientAndRemainder(dividingBy: per)
      let index = Int(j) + (rest * 2 >= per ? 1 : 0)
      guard min(rest, per - rest) * 4 < per, index < packets.count else {
        return unusable("its frames are not evenly spaced (a variable frame rate)")
      }
      guard order[index] < 0 else { return unusable("two of its frames share a time (a variable frame rate)") }
      order[index] = d
      shown[d] = index
    }
    let reorder = order.enumerated().map { j, d in d - j }
    // Clean: no picture on one side of it in decode order is on the other in presentation order.
    var prefixMax = [Int](repeating: -1, count: packets.count + 1)
    var suffixMin = [Int](repeating: Int.max, count: packets.count + 1)
    for d in packets.indices { prefixMax[d + 1] = max(prefixMax[d], shown[d]) }
    for d in packets.indices.reversed() { suffixMin[d] = min(suffixMin[d + 1], shown[d]) }
    var keys: [Int] = []
    for (d, p) in packets.enumerated() where p.isKey {
      let j = shown[d]
      guard prefixMax[d] < j, suffixMin[d + 1] > j, let bytes = firstBytes(p),
        isInstantRefresh(bytes, codec: stream.codec)
      else { continue }
      keys.append(j)
    }
    // The first m + 1 packets in decode order show frames 0…m exactly when the largest is m.
    let ends = packets.indices.filter { prefixMax[$0 + 1] == $0 }
    return SourcePackets(path: stream.path, keyframes: keys.sorted(), ends: ends, reorder: reorder)
  }

  /// Whether a packet (NAL units behind 4-byte lengths) holds an IDR picture: its first slice's
  /// NAL type is H.264's 5, or HEVC's IDR_W_RADL (19) or IDR_N_LP (20).
  static func isInstantRefresh(_ bytes: [UInt8], codec: String) -> Bool {
    var at = 0
    while at + 5 <= bytes.count {
      let length = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
      guard length > 0 else { return false }
      let header = bytes[at + 4]
      switch codec {
      case "h264":
        let type = header & 0x1F
        if (1...5).contains(type) { return type == 5 }
      case "hevc":
        let type = (header >> 1) & 0x3F
        if type < 32 { return type == 19 || type == 20 }
      default:
        return false
      }
      at += 4 + length
    }
    return false
  }
}
