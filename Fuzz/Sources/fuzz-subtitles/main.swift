// libFuzzer target: any bytes as an SRT or WebVTT file (UTF-8 or not). Parsing ends in cues or a
// SubtitleFile.Error; every cue ends no earlier than it starts, at finite times (a zero-length
// cue is allowed: it is never shown).
import Foundation
import FuzzDriver
import LayerKitVideo

@_cdecl("fuzz_subtitles_main")
public func fuzzerMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  runFuzzer(argc, argv, fuzzSubtitles)
}

let fuzzSubtitles: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32 = { bytes, count in
  guard let bytes else { return 0 }
  let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  if let cues = try? SubtitleFile.parse(text, name: "fuzz.srt") {
    for cue in cues { precondition(cue.start.isFinite && cue.end.isFinite && cue.end >= cue.start) }
  }
  return 0
}
