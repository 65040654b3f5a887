// layerkit-bench --suite, the smart-rendering workloads: phone-like footage (1080p30 H.264 High
// with B-frames, a 1 s GOP and AAC sound; and HEVC) joined by 0.5 s fades to MP4, where LayerKit
// copies the GOPs between the fades from the clips and encodes only the rest, against FFmpeg's
// xfade + acrossfade chain encoding every frame with the same encoder, preset and CRF.

import Foundation

extension Suite {
  /// The smart rows: four 12 s H.264 clips, six 60 s ones, six 12 s HEVC ones.
  static let smartNames = [
    "smart: 4×12 s 1080p H.264, 0.5 s fades → mp4", "smart: 6×60 s 1080p H.264, 0.5 s fades → mp4",
    "smart: 6×12 s 1080p HEVC, 0.5 s fades → mp4",
  ]

  func smartWorkloads(ffmpeg: String, in dir: URL) throws -> [ClipRow] {
    let layerkit = Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("layerkit").path
    guard FileManager.default.isExecutableFile(atPath: layerkit) else { return [] }
    var rows: [ClipRow] = []
    let specs: [(name: String, count: Int, seconds: Int, codec: String)] = [
      (Self.smartNames[0], 4, 12, "libx264"), (Self.smartNames[1], 6, 60, "libx264"),
      (Self.smartNames[2], 6, 12, "libx265"),
    ]
    for spec in specs where selects(spec.name) {
      // Two clips, each used in turn (a b a b …), as a phone's would be.
      let pair = try ["testsrc2", "testsrc"].enumerated().map { i, source in
        let path = dir.appendingPathComponent("smart-\(spec.codec)-\(spec.seconds)-\(i).mp4").path
        let gop =
          spec.codec == "libx264"
          ? ["-profile:v", "high", "-bf", "3", "-g", "30", "-keyint_min", "30", "-sc_threshold", "0"]
          : ["-x265-params", "keyint=30:min-keyint=30:scenecut=0:open-gop=0:log-level=error"]
        try Self.shell(
          [
            ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", "\(source)=size=1920x1080:rate=30", "-f", "lavfi", "-i",
            "sine=frequency=\(440 + 220 * i):sample_rate=48000", "-t", "\(spec.seconds)", "-c:v", spec.codec, "-preset",
            "veryfast",
          ] + gop + [
            "-pix_fmt", "yuv420p", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
            "-color_range", "tv", "-c:a", "aac", "-shortest", path,
          ])
        return path
      }
      let clips = (0..<spec.count).map { pair[$0 % 2] }
      let out = dir.appendingPathComponent("smart.mp4").path
      let ours =
        ["concat"] + clips + [
          "--transition", "fade", "--transition-duration", "0.5", "--preset", "veryfast", "--crf", "18", "--overwrite",
          "-o", out,
        ]
      var graph: [String] = []
      var (video, audio) = ("0:v", "0:a")
      for i in 1..<clips.count {
        let last = i == clips.count - 1
        let offset = Double(i) * (Double(spec.seconds) - 0.5)
        graph.append("[\(video)][\(i):v]xfade=transition=fade:duration=0.5:offset=\(offset)[\(last ? "v" : "v\(i)")]")
        graph.append("[\(audio)][\(i):a]acrossfade=d=0.5[\(last ? "a" : "a\(i)")]")
        (video, audio) = ("v\(i)", "a\(i)")
      }
      var theirs = [ffmpeg, "-v", "error"] + clips.flatMap { ["-i", $0] }
      theirs += ["-filter_complex", graph.joined(separator: ";"), "-map", "[v]", "-map", "[a]"]
      theirs += ["-c:v", spec.codec, "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p"]
      if spec.codec == "libx265" { theirs += ["-x265-params", "log-level=error"] }
      theirs += ["-c:a", "aac", "-b:a", "192k", "-y", out]
      rows += try runBoth(spec.name, layerkit: [layerkit] + ours, ffmpeg: theirs, in: dir, again: true)
      try? FileManager.default.removeItem(atPath: out)
      for p in pair { try? FileManager.default.removeItem(atPath: p) }
    }
    return rows
  }
}
