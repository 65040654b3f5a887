import Foundation
import LayerKit

/// GIFs as stills: a GIF of one frame is a picture; an animated one is a clip where a clip may
/// go, and gives its first frame where a still is expected (`read`, `ImageFile.readStill`).
extension OtherStills {
  /// Whether the bytes start with a GIF signature (GIF87a or GIF89a).
  public static func isGIF(_ head: [UInt8]) -> Bool {
    head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8))
  }

  /// The format of the file at `path` when it is a still `read` decodes: `format(of:)` of its
  /// first bytes, or "GIF" for a GIF of one frame; nil for an animated GIF (a clip), for PNG and
  /// JPEG (read by `ImageFile`), for anything else and for a file that cannot be opened.
  public static func stillFormat(ofFile path: String) -> String? {
    guard FileIO.irregularKind(path) == nil, let head = FileIO.head(path, count: 1024) else { return nil }
    if let format = format(of: head) { return format }
    guard isGIF(head) else { return nil }
    return gifFrameCount(path, upTo: 2) == 1 ? "GIF" : nil
  }

  /// How many frames (image descriptors) the GIF at `path` holds, counting no further than
  /// `limit`; nil when it is not a GIF or holds none. A file cut short counts the frames that
  /// start before its end. The file is mapped, not read, so only the blocks walked are touched.
  public static func gifFrameCount(_ path: String, upTo limit: Int = .max) -> Int? {
    guard FileIO.irregularKind(path) == nil,
      let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
    else { return nil }
    return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Int? in
      guard isGIF(Array(bytes.prefix(6))), bytes.count >= 13 else { return nil }
      /// A colour table's length from a packed flags byte (bit 7: present; bits 0–2: size).
      func table(_ flags: UInt8) -> Int { flags & 0x80 == 0 ? 0 : 3 << (Int(flags & 7) + 1) }
      /// The offset after the data sub-blocks starting at `at` (each a length byte, then that
      /// many bytes, to a length of 0), or nil when the file ends first.
      func skipSubBlocks(_ at: Int) -> Int? {
        var at = at
        while at < bytes.count {
          let n = Int(bytes[at])
          at += 1 + n
          if n == 0 { return at }
        }
        return nil
      }
      var frames = 0
      var at = 13 + table(bytes[10])
      while at < bytes.count, frames < limit {
        switch bytes[at] {
        case 0x2C:  // an image descriptor: position, size, flags, a local colour table, LZW data
          guard at + 10 < bytes.count else { return frames == 0 ? nil : frames }
          frames += 1
          guard let next = skipSubBlocks(at + 10 + table(bytes[at + 9]) + 1) else { return frames }
          at = next
        case 0x21:  // an extension: its label, then sub-blocks
          guard let next = skipSubBlocks(at + 2) else { return frames == 0 ? nil : frames }
          at = next
        default:  // 0x3B, the trailer, or bytes that are no GIF block
          return frames == 0 ? nil : frames
        }
      }
      return frames == 0 ? nil : frames
    }
  }
}
