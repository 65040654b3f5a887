import Foundation
import LayerKit

/// HEIC and AVIF photos, through libheif's `heif-convert` program.
///
/// Debian's ffmpeg 5.1 cannot decode a HEIF file (it sees the tiles of a HEIC, not the picture),
/// so `heif-convert` from Debian's `libheif-examples` package turns the primary image into a PNG
/// in a private temporary folder, with the container's rotation (`irot`) and mirror (`imir`)
/// applied, and LayerKit's PNG reader reads that; the folder is removed afterwards, whether the
/// conversion worked or not.
extension OtherStills {
  /// The `ftyp` brands of a HEIF file whose pictures are HEVC-coded (HEIC).
  static let heicBrands: Set<String> = ["heic", "heix", "hevc", "heim", "heis"]
  /// The `ftyp` brands of a HEIF file whose pictures are AV1-coded (AVIF).
  static let avifBrands: Set<String> = ["avif", "avis"]
  /// The `ftyp` brands of HEIF (MIAF) files of any coding.
  static let heifBrands: Set<String> = ["mif1", "msf1"]

  /// The Debian package that holds `heif-convert`.
  public static let heifPackage = "libheif-examples"

  /// The reason `read` gives when `heif-convert` is not on PATH.
  static let heifConvertMissing =
    "HEIC and AVIF photos are decoded by heif-convert, which was not found on PATH; install Debian's "
    + "\(heifPackage) package (apt-get install \(heifPackage))"

  /// "HEIC", "AVIF" or "HEIF" for an ISO-BMFF file whose `ftyp` box (at the start, as the
  /// format requires) names a HEIF brand, as its major brand or a compatible one; nil otherwise
  /// (an MP4, a MOV, anything else).
  static func heifFormat(of head: [UInt8]) -> String? {
    guard head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
    let size = head[0..<4].reduce(0) { $0 << 8 | Int($1) }
    // Major brand at 8, minor version at 12, compatible brands from 16 to the box's end.
    var brands = [String(decoding: head[8..<12], as: UTF8.self)]
    var at = 16
    while at + 4 <= min(size, head.count) {
      brands.append(String(decoding: head[at..<at + 4], as: UTF8.self))
      at += 4
    }
    if heicBrands.contains(brands[0]) { return "HEIC" }
    if avifBrands.contains(brands[0]) { return "AVIF" }
    if brands.contains(where: heicBrands.contains) { return "HEIC" }
    if brands.contains(where: avifBrands.contains) { return "AVIF" }
    if brands.contains(where: heifBrands.contains) { return "HEIF" }
    return nil
  }

  /// The primary image of the HEIF file at `path` (`format` names it in messages).
  /// - Throws: `ProcessError.unreadableClip` naming the file: heif-convert missing (and its
  ///   package), its failure in its own words, or the PNG it wrote not readable.
  static func readHEIF(_ path: String, format: String) throws(ProcessError) -> Image {
    guard let program = FFmpeg.locate("heif-convert") else {
      throw .unreadableClip(path: path, reason: heifConvertMissing)
    }
    let files = FileManager.default
    let folder = files.temporaryDirectory.appendingPathComponent("layerkit-heif-\(UUID().uuidString)").path
    do {
      try files.createDirectory(
        atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    } catch {
      throw .unreadableClip(path: path, reason: "no temporary folder for heif-convert: \(error.localizedDescription)")
    }
    defer { try? files.removeItem(atPath: folder) }
    let png = folder + "/still.png"
    // A path starting with "-" would be read as an option.
    let input = path.hasPrefix("-") ? "./" + path : path
    let convert = try FFmpeg.start(program, ["--quiet", input, png], stdin: false, stdout: .discard)
    guard convert.wait() == 0 else {
      throw .unreadableClip(path: path, reason: heifFailure(convert.errorTail(lines: 4), format: format))
    }
    // A file of several top-level images gives still-1.png, still-2.png, …: the first one.
    let written = [png, folder + "/still-1.png"].first { files.fileExists(atPath: $0) }
    guard let written else {
      throw .unreadableClip(path: path, reason: "heif-convert wrote no picture for this \(format) file")
    }
    do {
      let data = try FileIO.readRegularFile(written, maxSize: ImageFile.maxFileSize)
      return try ImageFile.decode(data, name: "heif-convert's PNG")
    } catch {
      throw .unreadableClip(path: path, reason: "\(error)")
    }
  }

  /// heif-convert's error output as one line a person reads, never empty.
  static func heifFailure(_ stderr: String, format: String) -> String {
    let lines = stderr.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    let said = lines.filter { !$0.isEmpty }.suffix(2).joined(separator: "; ")
    let what = "a damaged or truncated \(format) file (heif-convert could not decode it)"
    return said.isEmpty ? what : "\(what): \(said.count > 200 ? String(said.prefix(200)) + "…" : said)"
  }
}
