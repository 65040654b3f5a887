import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// The parts of a sharded render, read back in order for `layerkit join`: folders of numbered
/// PNG frames, Y4M files, lossless FFV1/MKV files (RGBA as rendered, premultiplied), or the MP4
/// parts of a smart render (joined by their packets: `joinMP4`). The
/// parts must be of one kind, size and rate, and — checked from the `PartRecord` each carries —
/// tile one render's frames exactly once, in order.
public final class PartsSource: FrameSource {
  public enum Kind: Sendable { case pngFolders, y4m, mkv, mp4 }

  public let kind: Kind
  public let paths: [String]
  public let width: Int
  public let height: Int
  public let rate: FrameRate?
  public let frameCount: Int
  /// For MKV and MP4 parts: the first part with an audio stream (the whole timeline's sound).
  public let audioPart: String?
  /// For MKV and MP4 parts: every part with an audio stream, in order (a shard's first part
  /// alone; every part of ranges, each with its own frames' sound).
  public let soundParts: [String]
  /// Every part's record, in order (empty when unchecked).
  public private(set) var records: [PartRecord] = []
  /// For PNG folders: the path of every frame, by number.
  private var pngFrames: [String] = []
  /// For MKV and MP4 parts: (first frame, frames, info) per part.
  private(set) var clipParts: [(first: Int, count: Int, info: ClipInfo)] = []
  private var decoder: (part: Int, ClipDecoder)?

  /// Reads the parts' headers (and PNG folders' listings) and, when `checked`, their records.
  /// - Parameter checked: whether every part must carry a `PartRecord` and the records must tile
  ///   one render (`PartRecord.checkTiling`), each part holding as many frames as its record says;
  ///   false joins parts made elsewhere, in the order given.
  /// - Throws: `.incompatibleParts` for mixed kinds, sizes or rates, gaps or overlaps between PNG
  ///   frame numbers, a part without a record, records that do not tile (see `checkTiling`).
  public init(_ paths: [String], checked: Bool = true) throws {
    guard !paths.isEmpty else { throw VideoError.incompatibleParts("no parts given") }
    self.paths = paths
    var isDir: ObjCBool = false
    let folders = paths.map { FileManager.default.fileExists(atPath: $0, isDirectory: &isDir) && isDir.boolValue }
    let exts = Set(paths.map { ($0 as NSString).pathExtension.lowercased() })
    if folders.allSatisfy({ $0 }) {
      kind = .pngFolders
      var numbered: [Int: String] = [:]
      var held = [[Int: String]](repeating: [:], count: paths.count)
      for (i, folder) in paths.enumerated() {
        for name in try PNGFolderSink.frames(in: folder) {
          guard let n = Int(name.dropFirst("frame_".count).dropLast(".png".count)) else { continue }
          held[i][n] = (folder as NSString).appendingPathComponent(name)
        }
      }
      if checked {
        records = try paths.map { folder in
          let file = (folder as NSString).appendingPathComponent(PartRecord.fileName)
          guard let text = try? String(contentsOfFile: file, encoding: .utf8), let record = PartRecord(text: text)
          else {
            throw PartsSource.unrecorded(folder, "holds no \(PartRecord.fileName)")
          }
          return record
        }
        try PartRecord.checkTiling(zip(paths, records).map { ($0, $1) })
        for (i, record) in records.enumerated() where Set(held[i].keys) != Set(record.frames) {
          throw VideoError.incompatibleParts(
            "\(paths[i]) holds \(held[i].count) frames; its record says frames \(record.frames.lowerBound)..<\(record.frames.upperBound)"
          )
        }
      }
      guard held.contains(where: { !$0.isEmpty }) else {
        throw VideoError.incompatibleParts("the folders hold no frame_*.png files")
      }
      // Checked parts tile one render (above); unchecked ones must not share a frame number.
      for part in held {
        for (n, path) in part {
          guard numbered[n] == nil else { throw VideoError.incompatibleParts("frame \(n) is in two parts") }
          numbered[n] = path
        }
      }
      let count = numbered.count
      guard numbered.keys.min() == 0, numbered.keys.max() == count - 1 else {
        throw VideoError.incompatibleParts(
          "the frames are not numbered 0…\(count - 1) without gaps (first \(numbered.keys.min()!), last \(numbered.keys.max()!))"
        )
      }
      pngFrames = (0..<count).map { numbered[$0]! }
      let first = try ImageFile.read(URL(fileURLWithPath: pngFrames[0]))
      width = first.width
      height = first.height
      rate = nil
      frameCount = count
      audioPart = nil
      soundParts = []
    } else if exts == ["y4m"] && !folders.contains(true) {
      kind = .y4m
      var lines: [Data] = []
      var header: Y4MHeader?
      for p in paths {
        let reader = try Y4MReader(path: p)
        lines.append(reader.headerLine)
        header = reader.header
        if checked {
          _ = try reader.readFrame()
          let prefix = "X\(PartRecord.tag)="
          guard let text = reader.frameParameters.first(where: { $0.hasPrefix(prefix) }),
            let record = PartRecord(text: String(text.dropFirst(prefix.count)))
          else { throw PartsSource.unrecorded(p, "has no \(PartRecord.tag) in its first FRAME line") }
          records.append(record)
        }
      }
      if checked { try PartRecord.checkTiling(zip(paths, records).map { ($0, $1) }) }
      guard Set(lines).count == 1, let header else {
        let texts = Set(lines.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .newlines) })
        throw VideoError.incompatibleParts("the Y4M headers differ: \(texts.sorted().joined(separator: " / "))")
      }
      width = header.width
      height = header.height
      rate = header.frameRate
      frameCount = 0
      audioPart = nil
      soundParts = []
    } else if (exts == ["mkv"] || exts == ["mp4"]) && !folders.contains(true) {
      // Lossless MKV parts, or a smart render's MP4 parts: each a clip with its record as a tag.
      kind = exts == ["mkv"] ? .mkv : .mp4
      var first = 0
      var audio: String?
      for p in paths {
        let info = try ClipInfo.probe(p)
        if checked {
          guard let text = info.containerTags[PartRecord.tag], let record = PartRecord(text: text) else {
            throw PartsSource.unrecorded(p, "has no \(PartRecord.tag) tag")
          }
          records.append(record)
        }
        clipParts.append((first, 0, info))
      }
      if checked { try PartRecord.checkTiling(zip(paths, records).map { ($0, $1) }) }
      let sizes = Set(clipParts.map { "\($0.info.width)×\($0.info.height)" })
      guard sizes.count == 1 else {
        throw VideoError.incompatibleParts("the parts have different sizes: \(sizes.sorted())")
      }
      let rates = Set(clipParts.map { String(format: "%.4g", $0.info.frameRate) })
      guard rates.count == 1 else {
        throw VideoError.incompatibleParts(
          "the parts have different frame rates: \(rates.sorted().joined(separator: ", ")) fps")
      }
      // Counted (by decoding packets) only now that the set is known to be whole.
      for i in clipParts.indices {
        let count = try FFmpeg.countFrames(paths[i])
        if checked, count != records[i].frames.count {
          throw VideoError.incompatibleParts(
            "\(paths[i]) holds \(count) frames; its record says \(records[i].frames.count) "
              + "(frames \(records[i].frames.lowerBound)..<\(records[i].frames.upperBound)): a part cut short")
        }
        clipParts[i].first = first
        clipParts[i].count = count
        first += count
        if audio == nil && clipParts[i].info.hasAudio { audio = paths[i] }
      }
      width = clipParts[0].info.width
      height = clipParts[0].info.height
      rate = try FrameRate(clipParts[0].info.frameRate)
      frameCount = first
      audioPart = audio
      soundParts = zip(paths, clipParts).filter { $0.1.info.hasAudio }.map(\.0)
    } else {
      // Name the part that is of no kind, or the first two of different kinds.
      let kinds = zip(paths, folders).map { path, folder -> String? in
        folder
          ? "a PNG frame folder"
          : ["y4m": "a Y4M part", "mkv": "an MKV part", "mp4": "an MP4 part"][
            (path as NSString).pathExtension.lowercased()]
      }
      if let odd = kinds.firstIndex(where: { $0 == nil }) {
        throw VideoError.incompatibleParts(
          "\(paths[odd]) is not a part: give PNG frame folders, .y4m, .mkv or .mp4 files, all of one kind")
      }
      let other = kinds.firstIndex { $0 != kinds[0] } ?? 0
      throw VideoError.incompatibleParts(
        "\(paths[0]) is \(kinds[0]!) but \(paths[other]) is \(kinds[other]!): parts are all of one kind")
    }
  }

  /// The sound the joined video takes from its parts: the first part's, which a shard's first
  /// part carries for the whole video; nil when no part carries sound.
  /// - Throws: `.incompatibleParts` when several parts carry sound: parts rendered as frame
  ///   ranges each carry their own frames' sound, and one part's under the whole video would
  ///   leave the rest of it silent.
  public func wholeSound() throws(VideoError) -> String? {
    guard soundParts.count > 1 else { return audioPart }
    throw .incompatibleParts(
      "\(soundParts[1]) carries sound as \(soundParts[0]) does: parts rendered as frame ranges each carry their "
        + "own frames' sound, and a join lays one part's under the whole video; render shards (the first part "
        + "carries the whole video's sound), or give the joined video its own sound track or none")
  }

  private static func unrecorded(_ path: String, _ what: String) -> VideoError {
    .notAPart(path: path, what: what)
  }

  public func interruptible(_ register: (@escaping () -> Void) -> Void) {
    if let decoder { register { decoder.1.interrupt() } }
  }

  public func frame(_ index: Int) throws -> Image {
    switch kind {
    case .pngFolders:
      return try ImageFile.read(URL(fileURLWithPath: pngFrames[index]))
    case .mkv, .mp4:
      guard let part = clipParts.firstIndex(where: { index >= $0.first && index < $0.first + $0.count }) else {
        throw VideoError.incompatibleParts("no part holds frame \(index)")
      }
      if decoder?.part != part {
        decoder?.1.stop()
        // FFV1 parts hold the rendered bytes, premultiplied: read them as stored. MP4 parts (of
        // a smart render joined into another format) are decoded as any clip.
        decoder = (
          part,
          ClipDecoder(clipParts[part].info, lastFrame: clipParts[part].count - 1, storedPremultiplied: kind == .mkv)
        )
      }
      return try decoder!.1.frame(index: index - clipParts[part].first)
    case .y4m:
      throw VideoError.incompatibleParts("Y4M parts join into a .y4m file (frames copied as they are)")
    }
  }

  public func stop() {
    decoder?.1.stop()
    decoder = nil
  }

  /// Joins Y4M parts, frame bytes as they are: into one Y4M file (the header of the first part,
  /// then every part's frames), or through ffmpeg into an MP4 or WebM of the parts' own pixel
  /// format (the Y'CbCr planes go to the encoder unconverted).
  /// - Throws: `.incompatibleParts` for another output format, or an output pixel format other
  ///   than the parts'.
  public func joinY4M(to target: OutputTarget, options: EncodingOptions) throws -> Int {
    let first = try Y4MReader(path: paths[0])
    let write: ([UInt8]) throws -> Void
    let finish: () throws -> Void
    let abort: () -> Void
    switch target.format {
    case .y4m:
      let out = try ByteSink(target: target)
      try out.write([UInt8](first.headerLine))
      write = { frame in
        try out.write([UInt8](Y4MWriter.frameHeader))
        try out.write(frame)
      }
      (finish, abort) = (out.finish, out.abort)
    case .mp4, .webm:
      let chroma: ChromaSubsampling = first.header.chroma
      var options = options
      options.pixelFormat = options.pixelFormat ?? (chroma == .yuv420 ? "yuv420p" : "yuv444p")
      let out = try FFmpegSink(
        plan: OutputPlan(target: target, options: options), width: width, height: height,
        rate: first.header.frameRate)
      guard case .yuv(let wanted) = out.input, wanted == chroma else {
        out.abort()
        throw VideoError.partsNeedConversion(chroma: "\(chroma)", pixelFormat: options.pixelFormat ?? "")
      }
      // SD parts hold BT.601 (the matrix their size implies); the encoder is given BT.709.
      let back = YCbCrRematrix.toBT709(from: first.header.matrix)
      let layout = first.header.layout
      write = { frame in
        var frame = frame
        if let back { frame.withUnsafeMutableBytes { back.apply($0, layout: layout) } }
        try out.write([.bytes(frame)], index: 0)
      }
      (finish, abort) = (out.finish, out.abort)
    default:
      throw VideoError.incompatibleParts(
        "Y4M parts join into .y4m, .mp4 or .webm; render .mkv parts for \(target.format.rawValue)")
    }
    do {
      var frames = 0
      for (i, p) in paths.enumerated() {
        let reader = try Y4MReader(path: p)
        while let frame = try reader.readFrame() {
          try write(frame)
          frames += 1
        }
        if i < records.count, reader.framesRead != records[i].frames.count {
          throw VideoError.incompatibleParts(
            "\(p) holds \(reader.framesRead) frames; its record says \(records[i].frames.count): a part cut short")
        }
      }
      try finish()
      return frames
    } catch {
      abort()
      throw error
    }
  }
}
