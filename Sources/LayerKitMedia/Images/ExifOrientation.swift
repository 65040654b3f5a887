/// The EXIF Orientation tag of a JPEG, and turning decoded pixels upright by it.
///
/// Cameras store the sensor's pixels as read out and record in EXIF how to turn them for
/// display; every photo viewer and browser applies it, so a decoder that did not would hand
/// LayerKit sideways photos. The tag (0x0112) lives in IFD0 of the TIFF structure inside the
/// first APP1 segment that starts with `Exif\0\0`. Values, as TIFF 6.0 / EXIF 2.3 define them
/// (where the stored image's row 0 and column 0 are to be shown):
///
/// | value | stored row 0 is shown at | stored column 0 at | operation to show it |
/// |---|---|---|---|
/// | 1 | top | left | none |
/// | 2 | top | right | mirror left–right |
/// | 3 | bottom | right | rotate 180° |
/// | 4 | bottom | left | mirror top–bottom |
/// | 5 | left | top | transpose (mirror along the main diagonal) |
/// | 6 | right | top | rotate 90° clockwise |
/// | 7 | right | bottom | transverse (mirror along the other diagonal) |
/// | 8 | left | bottom | rotate 90° counter-clockwise |
///
/// Parsing never fails: anything missing, out of bounds or out of range reads as 1 (leave the
/// pixels as stored), the way viewers treat broken metadata.
enum ExifOrientation {
  /// The orientation (1…8) declared by the JPEG in `bytes`, or 1.
  static func find(in bytes: UnsafeRawBufferPointer) -> Int {
    // Walk the marker segments after SOI up to SOS (where entropy-coded data starts: no more
    // metadata segments before it that matter).
    var offset = 2
    while offset + 4 <= bytes.count {
      guard bytes[offset] == 0xFF else { return 1 }
      let marker = bytes[offset + 1]
      if marker == 0xFF {
        offset += 1  // fill byte
        continue
      }
      if marker == 0xDA || marker == 0xD9 { return 1 }
      if marker == 0x01 || (0xD0...0xD7).contains(marker) {
        offset += 2  // no length
        continue
      }
      let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
      guard length >= 2, offset + 2 + length <= bytes.count else { return 1 }
      let payload = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 2 + length)])
      if marker == 0xE1, payload.starts(with: exifHeader) {
        // The first EXIF segment decides, even when it is broken.
        return orientation(tiff: UnsafeRawBufferPointer(rebasing: payload[exifHeader.count...]))
      }
      offset += 2 + length
    }
    return 1
  }

  /// `Exif` and two zero bytes: the APP1 identifier (XMP uses APP1 too, with another one).
  static let exifHeader: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0, 0]

  /// IFD0's Orientation in a TIFF structure (offsets count from its first byte), or 1.
  static func orientation(tiff t: UnsafeRawBufferPointer) -> Int {
    guard t.count >= 8 else { return 1 }
    let bigEndian: Bool
    switch (t[0], t[1]) {
    case (0x49, 0x49): bigEndian = false  // "II", Intel
    case (0x4D, 0x4D): bigEndian = true  // "MM", Motorola
    default: return 1
    }
    // Callers check bounds before reading.
    func u16(_ i: Int) -> Int {
      bigEndian ? Int(t[i]) << 8 | Int(t[i + 1]) : Int(t[i + 1]) << 8 | Int(t[i])
    }
    func u32(_ i: Int) -> Int { bigEndian ? u16(i) << 16 | u16(i + 2) : u16(i + 2) << 16 | u16(i) }
    guard u16(2) == 42 else { return 1 }
    let ifd = u32(4)
    guard ifd >= 8, ifd <= t.count - 2 else { return 1 }
    let count = u16(ifd)
    // An IFD that claims more entries than the segment holds is broken as a whole.
    guard ifd + 2 + 12 * count <= t.count else { return 1 }
    for i in 0..<count {
      let entry = ifd + 2 + 12 * i
      guard u16(entry) == 0x0112 else { continue }
      // Type SHORT (3) as the standard says, count ≥ 1; the value sits in the first two bytes
      // of the 4-byte value field in either byte order. A few writers use LONG (4).
      let value: Int
      switch (u16(entry + 2), u32(entry + 4)) {
      case (3, 1...): value = u16(entry + 8)
      case (4, 1...): value = u32(entry + 8)
      default: return 1
      }
      return (1...8).contains(value) ? value : 1
    }
    return 1
  }

  /// The pixels of a `width × height` RGBA8 image shown as `orientation` says, and the shown
  /// size (width and height swap for 5…8).
  static func apply(
    _ orientation: Int, to pixels: [UInt8], width w: Int, height h: Int
  ) -> (pixels: [UInt8], width: Int, height: Int) {
    guard (2...8).contains(orientation) else { return (pixels, w, h) }
    let swaps = orientation >= 5
    let (ow, oh) = swaps ? (h, w) : (w, h)
    var out = [UInt8](repeating: 0, count: pixels.count)
    pixels.withUnsafeBytes { raw in
      out.withUnsafeMutableBytes { dst in
        // Whole pixels moved as 4-byte words.
        for y in 0..<oh {
          let row = y * ow
          for x in 0..<ow {
            // The stored pixel shown at (x, y).
            let (sx, sy): (Int, Int)
            switch orientation {
            case 2: (sx, sy) = (w - 1 - x, y)
            case 3: (sx, sy) = (w - 1 - x, h - 1 - y)
            case 4: (sx, sy) = (x, h - 1 - y)
            case 5: (sx, sy) = (y, x)
            case 6: (sx, sy) = (y, h - 1 - x)
            case 7: (sx, sy) = (w - 1 - y, h - 1 - x)
            default: (sx, sy) = (w - 1 - y, x)  // 8
            }
            let pixel = raw.loadUnaligned(fromByteOffset: (sy * w + sx) * 4, as: UInt32.self)
            dst.storeBytes(of: pixel, toByteOffset: (row + x) * 4, as: UInt32.self)
          }
        }
      }
    }
    return (out, ow, oh)
  }
}
