/// A walk over a file's framing (PNG chunks, JPEG markers) without decoding anything, to tell a
/// file that stops early from one that is damaged.
///
/// Decoders see a cut file through their own input machinery: libjpeg feeds a fake EOI marker
/// into whatever it was parsing and then reports whatever that garbles into ("Bogus Huffman
/// table definition", "Bogus marker length"). Checking the framing first makes `.truncated`
/// mean one thing for both formats: the data ends before the image's last chunk / marker.
enum ContainerScan {
  enum Outcome: Equatable {
    /// The framing is whole up to IEND / EOI (trailing bytes after it are ignored).
    case complete
    /// The data ends before IEND / EOI.
    case truncated
    /// The framing is broken; the decoder will say how.
    case malformed
  }

  /// Walks PNG chunks from after the signature to IEND. Lengths and types are checked only as
  /// far as needed to step from chunk to chunk; CRCs and contents are libpng's job.
  static func png(_ bytes: UnsafeRawBufferPointer) -> Outcome {
    var offset = 8
    while true {
      guard offset + 8 <= bytes.count else { return .truncated }
      let length =
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
        | Int(bytes[offset + 3])
      guard length <= 0x7FFF_FFFF else { return .malformed }
      let isIEND =
        bytes[offset + 4] == 0x49 && bytes[offset + 5] == 0x45 && bytes[offset + 6] == 0x4E
        && bytes[offset + 7] == 0x44
      let next = offset + 12 + length
      guard next <= bytes.count else { return .truncated }
      if isIEND { return .complete }
      offset = next
    }
  }

  /// Walks JPEG markers from after SOI to EOI, stepping over segments by their length and over
  /// entropy-coded data (after SOS) to the next marker that is not a stuffed 0xFF00 or a restart.
  static func jpeg(_ bytes: UnsafeRawBufferPointer) -> Outcome {
    var offset = 2
    while true {
      guard offset < bytes.count else { return .truncated }
      guard bytes[offset] == 0xFF else { return .malformed }
      // Any number of 0xFF fill bytes may precede a marker code.
      while offset < bytes.count && bytes[offset] == 0xFF { offset += 1 }
      guard offset < bytes.count else { return .truncated }
      let marker = bytes[offset]
      offset += 1
      switch marker {
      case 0xD9:
        return .complete
      case 0x00, 0xD8:
        return .malformed
      case 0x01, 0xD0...0xD7:
        continue  // TEM, RSTn: no length
      default:
        guard offset + 2 <= bytes.count else { return .truncated }
        let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
        guard length >= 2 else { return .malformed }
        guard offset + length <= bytes.count else { return .truncated }
        offset += length
        if marker == 0xDA {
          // Entropy-coded data runs to the next real marker.
          while true {
            guard offset + 1 < bytes.count else { return .truncated }
            if bytes[offset] == 0xFF {
              let next = bytes[offset + 1]
              if next != 0x00 && !(0xD0...0xD7).contains(next) && next != 0xFF { break }
            }
            offset += 1
          }
        }
      }
    }
  }
}
