import Foundation
import LayerKit
import LayerKitMedia

/// Where a part of a sharded render belongs: the whole video's plan (an id of its inputs'
/// contents, its options and its frame count) and the frames the part holds. Every partial render
/// (`--shard`, `--frames`) records it in its output — an MKV part as the container tag
/// `LAYERKIT_PART`, a Y4M part in its first `FRAME` line (`XLAYERKIT_PART=`, which ffmpeg skips),
/// a PNG folder in `layerkit-part.txt` — and `layerkit join` checks, before anything is encoded,
/// that the parts it is given tile one video exactly once, in order (`PartRecord.checkTiling`).
public struct PartRecord: Sendable, Equatable, CustomStringConvertible {
  /// The plan id: 16 lowercase hex digits.
  public var plan: String
  /// The frames this part holds, numbered in the whole video.
  public var frames: Range<Int>
  /// The whole video's frame count.
  public var total: Int

  public init(plan: String, frames: Range<Int>, total: Int) {
    self.plan = plan
    self.frames = frames
    self.total = total
  }

  /// The name of the record's tag (MKV) and X parameter (Y4M, after the `X`).
  public static let tag = "LAYERKIT_PART"
  /// The record file of a PNG-frame folder.
  public static let fileName = "layerkit-part.txt"

  /// `PLAN:FIRST-END/TOTAL`, e.g. `3f2a…:40-80/120` (END excluded): no spaces, so it fits a Y4M
  /// parameter.
  public var description: String { "\(plan):\(frames.lowerBound)-\(frames.upperBound)/\(total)" }

  /// Reads `description`'s form back; nil for anything else.
  public init?(text: String) {
    let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard text.utf8.count <= 80 else { return nil }
    let colon = text.split(separator: ":", omittingEmptySubsequences: false)
    guard colon.count == 2, colon[0].count == 16, colon[0].allSatisfy(\.isHexDigit) else { return nil }
    let slash = colon[1].split(separator: "/", omittingEmptySubsequences: false)
    guard slash.count == 2, let total = Int(slash[1]), total > 0 else { return nil }
    let dash = slash[0].split(separator: "-", omittingEmptySubsequences: false)
    guard dash.count == 2, let first = Int(dash[0]), let end = Int(dash[1]), first >= 0, first < end, end <= total
    else { return nil }
    self.init(plan: String(colon[0]).lowercased(), frames: first..<end, total: total)
  }

  /// The plan id of a render: FNV-1a (64 bits) over `canonical` (the options that shape the
  /// frames and the sound, input files by content) and the frame count.
  public static func planID(canonical: [String], frameCount: Int) -> String {
    var hash = FNV1a()
    for item in canonical {
      hash.add(Array(item.utf8))
      hash.add([0])
    }
    hash.add(Array("frames=\(frameCount)".utf8))
    return String(format: "%016llx", hash.value)
  }

  /// What stands for a file in a plan: its size and a hash of its bytes (the first and last
  /// 16 MiB of a larger file), so that a changed input changes the plan, wherever the file lies
  /// and whatever its name.
  public static func contentIdentity(of path: String) -> String? {
    guard FileIO.irregularKind(path) == nil, let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let size = try? handle.seekToEnd() else { return nil }
    let window: UInt64 = 16 << 20
    var hash = FNV1a()
    do {
      try handle.seek(toOffset: 0)
      hash.add(try handle.read(upToCount: Int(min(size, 2 * window))) ?? Data())
      if size > 2 * window {
        try handle.seek(toOffset: size - window)
        hash.add(try handle.read(upToCount: Int(window)) ?? Data())
      }
    } catch {
      return nil
    }
    return "file:\(size):" + String(format: "%016llx", hash.value)
  }

  /// Checks that `parts` (path and record, in the order given) tile one video exactly once, in
  /// order, from one plan.
  /// - Throws: `VideoError.incompatibleParts` naming the part and what is wrong: another plan,
  ///   another total, a part out of order (with the order that would join), frames given twice,
  ///   frames missing (which, and between which parts).
  public static func checkTiling(_ parts: [(path: String, record: PartRecord)]) throws(VideoError) {
    guard let first = parts.first else { throw .incompatibleParts("no parts given") }
    for part in parts.dropFirst() where part.record.plan != first.record.plan || part.record.total != first.record.total
    {
      throw .incompatibleParts(
        "\(part.path) belongs to another render than \(first.path) (plan \(part.record.plan), \(part.record.total) frames; "
          + "\(first.path): plan \(first.record.plan), \(first.record.total) frames)")
    }
    let total = first.record.total
    // Given out of order, but a whole video in another order: say which order joins.
    let sorted = parts.sorted { $0.record.frames.lowerBound < $1.record.frames.lowerBound }
    let tilesWhenSorted =
      sorted.first?.record.frames.lowerBound == 0 && sorted.last?.record.frames.upperBound == total
      && zip(sorted, sorted.dropFirst()).allSatisfy { $0.record.frames.upperBound == $1.record.frames.lowerBound }
    var expected = 0
    var previous: String?
    for (index, part) in parts.enumerated() {
      let frames = part.record.frames
      if frames.lowerBound != expected, tilesWhenSorted {
        throw .incompatibleParts(
          "the parts are out of order (\(part.path) holds frames \(frames.lowerBound)..<\(frames.upperBound)); "
            + "give them as: \(sorted.map(\.path).joined(separator: " "))")
      }
      if frames.lowerBound < expected {
        let holder = parts[..<index].lastIndex { $0.record.frames.overlaps(frames) } ?? index - 1
        throw .incompatibleParts(
          "part \(index + 1) (\(part.path)) holds frames \(frames.lowerBound)..<\(frames.upperBound), which part "
            + "\(holder + 1) (\(parts[holder].path)) already holds (a part given twice, or parts of different shard counts)"
        )
      }
      if frames.lowerBound > expected {
        let place = previous.map { "between \($0) and \(part.path)" } ?? "before \(part.path)"
        throw .incompatibleParts(
          "frames \(expected)..<\(frames.lowerBound) of \(total) are missing \(place) (a part not given, or not rendered)"
        )
      }
      expected = frames.upperBound
      previous = part.path
    }
    if expected != total {
      throw .incompatibleParts(
        "frames \(expected)..<\(total) of \(total) are missing after \(previous ?? "") (the last part not given, or not rendered)"
      )
    }
  }
}

/// 64-bit FNV-1a: a small, stable hash for plan ids (not for security).
struct FNV1a {
  private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

  mutating func add(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { add($0) }
  }

  mutating func add(_ data: Data) {
    data.withUnsafeBytes { add($0) }
  }

  mutating func add(_ bytes: UnsafeRawBufferPointer) {
    var v = value
    for b in bytes {
      v ^= UInt64(b)
      v = v &* 0x0000_0100_0000_01b3
    }
    value = v
  }
}
