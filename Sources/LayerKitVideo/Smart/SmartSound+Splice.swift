import Foundation
import LayerKitMedia
import LayerKitOutput

/// Carrying a `SmartSound` out: the copied packets taken from the clips as ADTS frames (ffmpeg,
/// `-c copy`), the encoded pieces mixed and encoded by one ffmpeg (one encoder a piece), and the
/// frames laid one after another, slot by slot, into one ADTS stream that the mux copies.
extension SmartSound {
  /// Writes the whole sound to `path` (ADTS), its pieces' files in `folder`.
  /// - Throws: `ProcessError.programFailed` when ffmpeg fails, or what it wrote is not what the
  ///   plan needs (a source's packets not those ffprobe listed, an encoded piece short of packets).
  func write(to path: String, folder: String, run: ([String]) throws -> Void) throws {
    // Each source's packets, once.
    var copied: [Int: (Data, [AdtsFrame])] = [:]
    for case .copy(let source, _, _) in pieces where copied[source] == nil {
      let file = "\(folder)/source-\(source).aac"
      EmergencyStop.add(temporary: file)
      try run([
        "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-i", sources[source].path, "-map", "0:a:0", "-c",
        "copy", "-f", "adts", file,
      ])
      let data = try Data(contentsOf: URL(fileURLWithPath: file))
      let frames = try Self.frames(data, of: file)
      guard frames.map(\.payload) == sources[source].sizes else {
        throw Self.failure(
          "\((sources[source].path as NSString).lastPathComponent): its sound's packets as copied (\(frames.count)) "
            + "are not those ffprobe listed (\(sources[source].sizes.count))")
      }
      copied[source] = (data, frames)
    }
    let (arguments, outputs) = encodeArguments(folder: folder)
    for file in outputs.values { EmergencyStop.add(temporary: file) }
    try run(arguments)
    EmergencyStop.add(temporary: path)
    guard FileManager.default.createFile(atPath: path, contents: nil),
      let out = FileHandle(forWritingAtPath: path)
    else { throw Self.failure("\(path): cannot be written") }
    defer { try? out.close() }
    var slot = 0
    for (n, piece) in pieces.enumerated() {
      guard piece.slots.lowerBound == slot else { throw Self.failure("the sound's pieces leave slot \(slot) empty") }
      switch piece {
      case .copy(let source, let packets, let slots):
        let (data, frames) = copied[source]!
        out.write(
          data.subdata(
            in: frames[packets.lowerBound].range.lowerBound..<frames[packets.upperBound - 1].range.upperBound))
        slot = slots.upperBound
      case .encode(let slots, _, let skip):
        let file = outputs[n]!
        let data = try Data(contentsOf: URL(fileURLWithPath: file))
        let frames = try Self.frames(data, of: file)
        let last = n == pieces.count - 1
        let keep = last ? frames.count - skip : slots.count
        guard keep >= 0, skip + keep <= frames.count else {
          throw Self.failure("an encoded stretch of the sound holds \(frames.count) packets, not \(skip + keep)")
        }
        if keep > 0 {
          out.write(data.subdata(in: frames[skip].range.lowerBound..<frames[skip + keep - 1].range.upperBound))
        }
        slot += keep
      }
    }
  }

  /// One ffmpeg run: every placed sound, mixed over silence the length of the video as the whole
  /// mix is, split, and each encoded piece's input cut from it and encoded to its own file.
  /// - Returns: the arguments, and each encoded piece's file by its index in `pieces`.
  func encodeArguments(folder: String) -> ([String], [Int: String]) {
    var args = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
    var graph: [String] = []
    var labels = ["[base]"]
    for (k, p) in placed.enumerated() {
      args += ["-i", sources[p.source].path]
      var chain = [
        "[\(k):a:0]atrim=start_sample=\(p.from):end_sample=\(p.from + p.length)", "asetpts=N/SR/TB",
        "aformat=sample_fmts=fltp",
      ]
      chain += p.levels
      if p.at > 0 { chain.append("adelay=delays=\(p.at)S:all=1") }
      graph.append(chain.joined(separator: ",") + "[p\(k)]")
      labels.append("[p\(k)]")
    }
    let encoded = pieces.enumerated().compactMap { n, piece -> (Int, Range<Int>)? in
      if case .encode(_, let input, _) = piece { (n, input) } else { nil }
    }
    graph.insert("anullsrc=r=\(sampleRate):cl=\(layout),atrim=end_sample=\(totalSamples)[base]", at: 0)
    graph.append(
      labels.joined() + "amix=inputs=\(labels.count):duration=first:dropout_transition=0:normalize=0,"
        + "asplit=\(encoded.count)" + encoded.map { "[s\($0.0)]" }.joined())
    var outputs: [Int: String] = [:]
    var maps: [String] = []
    for (n, input) in encoded {
      graph.append(
        "[s\(n)]atrim=start_sample=\(input.lowerBound):end_sample=\(input.upperBound),asetpts=N/SR/TB[e\(n)]")
      let file = "\(folder)/encoded-\(n).aac"
      outputs[n] = file
      maps += ["-map", "[e\(n)]", "-c:a", "aac", "-b:a", String(bitRate), "-f", "adts", file]
    }
    return (args + ["-filter_complex", graph.joined(separator: ";")] + maps, outputs)
  }

  /// One ADTS frame: its bytes in the stream and the size of the AAC packet it carries.
  struct AdtsFrame: Equatable {
    var range: Range<Int>
    var payload: Int
  }

  /// The frames of an ADTS stream, each checked: sync word, one raw data block, inside the data.
  static func frames(_ data: Data, of file: String) throws -> [AdtsFrame] {
    try data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
      var frames: [AdtsFrame] = []
      var at = 0
      while at < bytes.count {
        guard at + 7 <= bytes.count, bytes[at] == 0xFF, bytes[at + 1] & 0xF6 == 0xF0 else {
          throw failure("\(file): not an ADTS frame at byte \(at)")
        }
        let header = bytes[at + 1] & 0x01 == 1 ? 7 : 9
        let length = Int(bytes[at + 3] & 0x03) << 11 | Int(bytes[at + 4]) << 3 | Int(bytes[at + 5]) >> 5
        guard length > header, at + length <= bytes.count, bytes[at + 6] & 0x03 == 0 else {
          throw failure("\(file): a damaged ADTS frame at byte \(at)")
        }
        frames.append(AdtsFrame(range: at..<at + length, payload: length - header))
        at += length
      }
      return frames
    }
  }

  static func failure(_ detail: String) -> ProcessError {
    ProcessError.programFailed(program: "ffmpeg", status: 0, detail: "the smart render's sound: \(detail)")
  }
}
