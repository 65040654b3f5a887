import ArgumentParser
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

/// `layerkit join PART… -o OUT`: the parts of a sharded render, joined.
struct Join: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Join the parts of a sharded render (--shard / --frames) into the final file.",
    discussion: """
      Parts are PNG frame folders (joined into a folder or encoded), Y4M files (joined into one \
      Y4M, frames as they are, or into an MP4 / WebM of the same pixel format), lossless .mkv \
      parts (encoded into any output), or .mp4 parts, smart or not (joined into an .mp4 by their \
      packets, nothing encoded; decoded into any other output). The first .mkv or .mp4 part of a \
      render holds the whole video's audio, which is laid under the joined video.

      Every part records the render it belongs to (a plan id made from the inputs' contents, the \
      options and the frame count) and the frames it holds; join checks, before encoding \
      anything, that the parts come from one render and tile it exactly once, in order, and \
      names a part missing, given twice, out of order or from another render.

      Example:
        layerkit slideshow a.jpg b.jpg c.jpg --shard 0/2 -o part-0.mkv
        layerkit slideshow a.jpg b.jpg c.jpg --shard 1/2 -o part-1.mkv
        layerkit join part-0.mkv part-1.mkv -o show.mp4
      """)

  @Argument(help: "The parts, in order.") var parts: [String]
  @Option(name: .shortAndLong, help: "The joined output (any output `slideshow` writes).") var output: String
  @Option(help: "Frames per second of PNG-folder parts (other parts carry their rate).") var fps: Double = 30
  @OptionGroup var encoder: EncodingArguments
  @Option(help: "A music track for the joined video (instead of the parts' audio).") var audio: String?
  @Flag(help: "No audio.") var noAudio = false
  @Flag(help: "No summary line.") var quiet = false
  @Flag(
    help:
      "Join parts without LayerKit's part records (made elsewhere), in the order given; by default every part must carry one and together they must tile one render exactly once, in order."
  )
  var unchecked = false

  func validate() throws {
    try checkNamed(parts, "a part")
    try checkNamed([audio], "--audio")
    try checkRange(fps, "--fps", Limits.framesPerSecond)
    if noAudio && audio != nil { throw ValidationError("use --audio or --no-audio, not both") }
  }

  func run() throws {
    try reportingErrors("join") {
      reserveLargeBuffersWithMmap()
      let source = try PartsSource(parts, checked: !unchecked)
      try OutputIdentity.refuse(output: output, inputs: parts + [audio].compactMap { $0 })
      let target = try OutputTarget(path: output, format: encoder.format)
      var encoding = encoder.encoding
      if !noAudio {
        if let audio {
          encoding.audio = .track(audio)
        } else if let part = try source.wholeSound() {
          encoding.audio = .track(part)
        }
      }
      if source.kind == .mp4 && target.format == .mp4 {
        let frames = try source.joinMP4(to: target, sound: !noAudio, audio: audio)
        if !quiet { printError("joined \(frames) frames from \(parts.count) parts into \(output), packets copied") }
        return
      }
      if source.kind == .y4m {
        let frames = try source.joinY4M(to: target, options: encoding)
        if !quiet { printError("joined \(frames) frames from \(parts.count) parts into \(output)") }
        return
      }
      let pipeline = try VideoPipeline(
        source: source, width: source.width, height: source.height, rate: try source.rate ?? FrameRate(fps),
        frameCount: source.frameCount, target: target, options: encoding)
      let signals = SignalWatcher { [weak pipeline] signal in pipeline?.cancel(signal: signal) }
      defer { signals.stop() }
      let summary = try pipeline.run()
      if !quiet {
        printError("joined \(summary.frames) frames from \(parts.count) parts into \(output)")
      }
    }
  }
}
