import CPNG

/// How `ImageFile.encodePNG(_:compression:)` and `ImageFile.writePNG(_:to:compression:)` trade
/// file size for encoding time. Every choice stores the same pixels (8-bit RGBA, straight alpha,
/// non-interlaced, with an sRGB chunk) and decodes to the same image; only the compressed stream
/// and its size differ.
public struct PNGCompression: Sendable, Equatable, CustomStringConvertible {
  enum Mode: Equatable {
    /// libpng's simplified API with its defaults (zlib level 6, adaptive row filters): the
    /// output `ImageFile` has always written.
    case standard
    /// libpng's classic API (CPNG/shim.h) with this zlib level and `png_set_filter` mask.
    case tuned(level: Int32, filters: Int32)
  }

  let mode: Mode

  /// What `writePNG(_:to:)` has always written: zlib level 6, libpng's adaptive choice of row
  /// filter (it tries all five filters on every row and keeps the one whose output has the
  /// smallest sum of absolute values, a heuristic for "compresses best").
  public static let `default` = PNGCompression(mode: .standard)

  /// For frame sequences and other intermediate files: zlib level 1 and every row filtered with
  /// Sub (each byte minus the same channel of the pixel to its left). A fixed filter saves the
  /// five trial filterings per row that adaptive filtering costs, and level 1 does the least
  /// match searching. Sub turns gradients into small values and flat areas into zeros; measured
  /// on 1920×1080 frames (release build, one core): a photo-like frame (gradients with ±8 noise)
  /// took 131 ms and 5.1 MB against `.default`'s 826 ms and 4.3 MB; a UI-like frame (flat
  /// panels, text-like detail) 26 ms and 370 kB against 109 ms and 421 kB. Up and Average
  /// measured about the same on photos and worse on UI-like frames; zlib's run-length strategy
  /// (`Z_RLE`) was a little faster on photos but made UI-like frames 2.4× larger.
  public static let fast = PNGCompression(mode: .tuned(level: 1, filters: Int32(PNG_FILTER_SUB)))

  /// A zlib compression level, 0 (stored, no compression) to 9 (smallest, slowest), clamped to
  /// that range, with libpng's adaptive row filters (as `.default`; level 0 leaves rows
  /// unfiltered, since filtering only helps compression). `.level(6)` is `.default`'s level,
  /// written through the classic API: files of similar size, not the same bytes.
  public static func level(_ zlibLevel: Int) -> PNGCompression {
    let level = Int32(min(max(zlibLevel, 0), 9))
    // Level 0 stores the data: filtering would only cost time.
    let filters = level == 0 ? Int32(PNG_FILTER_NONE) : Int32(LK_PNG_ALL_FILTERS)
    return PNGCompression(mode: .tuned(level: level, filters: filters))
  }

  public var description: String {
    switch mode {
    case .standard: "default"
    case .tuned(let level, let filters):
      self == .fast
        ? "fast"
        : "level \(level)\(filters == Int32(LK_PNG_ALL_FILTERS) ? "" : " (filters 0x\(String(filters, radix: 16)))")"
    }
  }
}
