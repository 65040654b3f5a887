import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

#if canImport(Glibc)
  import Glibc
#endif

/// Joining H.264 / HEVC stretches by their packets, without decoding them: what a smart render
/// and the join of its parts share. Each stretch starts on a clean IDR picture of an MP4 (a clip,
/// a smart render's encoded stretches, a part); it is cut out by ffmpeg, its parameter sets put
/// in band, its packets restamped into its place, as MPEG-TS; the pieces are joined by the concat
/// protocol and written as one MP4 with the sound.
enum Splice {
  /// The sound under a spliced video.
  enum Sound {
    /// The first audio stream of a file, copied.
    case copy(String)
    /// An AAC stream in ADTS frames whose first packet is the encoder's delay, copied; an edit
    /// list cuts the delay (`SmartSound`).
    case adts(String, sampleRate: Int)
    /// A mix, encoded once (AAC) under the whole video.
    case encode(AudioMix)
  }

  /// One stretch to cut.
  struct Cut {
    var path: String
    var from: Int
    var count: Int
    var at: Int
    var piece: String
  }

  /// Cuts each `Cut`: `count` frames of the MP4 at `path` from its frame `from` (a clean
  /// keyframe) into the MPEG-TS `piece`, restamped as frames `at`… of the video: presentation at
  /// the frame's index, decode at the packet's place in the whole stream's decode order less
  /// `delay` (the largest reordering of any piece), so decode times rise one frame a packet
  /// across every seam and never pass a presentation time; both `delay + 1` frames on, so none
  /// is negative. In MPEG-TS's 90 kHz ticks. One ffmpeg run cuts up to 16: it opens their files
  /// as inputs, each seeked to its keyframe, and writes each piece as an output of its own (a run
  /// costs tens of milliseconds of a core before it reads a byte).
  static func cut(_ cuts: [Cut], codec: String, rate: FrameRate, delay: Int, run: ([String]) throws -> Void) throws {
    let (num, den) = (rate.numerator, rate.denominator)
    let tick = "90000*\(den)/\(num)"
    let index = "round((PTS-STARTPTS)*\(num)/(90000*\(den)))"
    for group in stride(from: 0, to: cuts.count, by: 16).map({ cuts[$0..<min(cuts.count, $0 + 16)] }) {
      var args = ["-nostdin", "-hide_banner", "-loglevel", "error", "-y"]
      for cut in group {
        // Half a frame past the keyframe: the demuxer seeks back to it, and no further.
        if cut.from > 0 { args += ["-ss", FFmpeg.seconds((Double(cut.from) + 0.5) / rate.framesPerSecond)] }
        args += ["-i", cut.path]
      }
      for (k, cut) in group.enumerated() {
        let start = delay + 1 + cut.at
        let restamp = "setts=pts=round((\(start)+\(index))*\(tick)):dts=round((\(start)+N-\(delay))*\(tick))"
        args += ["-map", "\(k):v:0", "-frames:v", String(cut.count), "-c", "copy", "-bsf:v"]
        args.append((codec == "hevc" ? "hevc_mp4toannexb," : "h264_mp4toannexb,") + restamp)
        args += ["-f", "mpegts", "-muxdelay", "0", "-muxpreload", "0", cut.piece]
      }
      try run(args)
    }
  }

  /// The pieces joined (the concat protocol over MPEG-TS) with `sound`, written as an MP4 (`avc3`
  /// / `hev1`: parameter sets in band, where the pieces' differ; faststart; `part` recorded)
  /// beside `target`, its packets counted against `frames`, renamed over it. Returns its size.
  static func mux(
    _ pieces: [String], codec: String, sound: Sound?, frames: Int, part: PartRecord?, target: String,
    displayPath: String, run: ([String]) throws -> Void
  ) throws -> Int64? {
    let temporary = try TemporaryFile(beside: target)
    try temporary.closeDescriptor()
    var args = [
      "-nostdin", "-hide_banner", "-loglevel", "error", "-y", "-protocol_whitelist", "concat,file", "-i",
      "concat:" + pieces.map { "file:" + $0 }.joined(separator: "|"),
    ]
    switch sound {
    case .copy(let path)?: args += ["-i", path, "-map", "0:v:0", "-map", "1:a:0", "-c", "copy"]
    case .adts(let path, let sampleRate)?:
      // ADTS frames are stamped from 0: one packet earlier, so the first (the encoder's delay)
      // is before the start and the MP4's edit list cuts it, as ffmpeg's encoder's own.
      let back = String(format: "%.9f", 1024 / Double(sampleRate))
      args += ["-itsoffset", "-" + back, "-i", path, "-map", "0:v:0", "-map", "1:a:0", "-c", "copy"]
    case .encode(let mix)?:
      // The mix's graph counts its inputs from 1, after the video's place.
      for extra in mix.inputs { args += extra }
      args += ["-filter_complex", mix.filterGraph, "-map", "0:v:0", "-map", "[\(mix.outputLabel)]"]
      args += ["-c:v", "copy", "-c:a", "aac", "-b:a", "192k", "-shortest"]
    case nil: args += ["-map", "0:v:0", "-c", "copy"]
    }
    args += ["-tag:v", codec == "hevc" ? "hev1" : "avc3"]
    if let part {
      args += ["-metadata", "\(PartRecord.tag)=\(part)", "-movflags", "+faststart+use_metadata_tags"]
    } else {
      args += ["-movflags", "+faststart"]
    }
    do {
      try run(args + ["-f", "mp4", temporary.path])
      let counted = try FFmpeg.countFrames(temporary.path)
      guard counted == frames else {
        throw VideoError.unwritableOutput(
          path: displayPath, reason: "the spliced video holds \(counted) frames, not the \(frames) it should")
      }
      let size = (try? FileManager.default.attributesOfItem(atPath: temporary.path)[.size] as? NSNumber)?.int64Value
      try temporary.commit()
      return size
    } catch {
      temporary.discard()
      throw error
    }
  }

  /// A fresh folder for the pieces beside the target (same disk), named so a person who finds
  /// one after a crash knows whose it is.
  static func makeFolder(beside target: String) throws(VideoError) -> String {
    let dir = (target as NSString).deletingLastPathComponent
    let base = (target as NSString).lastPathComponent
    var template = Array((TemporaryFile.relativeSafe(dir) + ".\(base).smart-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw .unwritableOutput(path: target, reason: String(cString: strerror(errno)))
    }
    let folder = String(cString: made)
    EmergencyStop.add(temporary: folder)
    return folder
  }

  /// The folder and every piece in it removed (and let go by `EmergencyStop`).
  static func removeFolder(_ folder: String) {
    if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
      for name in names {
        unlink(folder + "/" + name)
        EmergencyStop.remove(temporary: folder + "/" + name)
      }
    }
    rmdir(folder)
    EmergencyStop.remove(temporary: folder)
  }
}
