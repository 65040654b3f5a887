import ArgumentParser
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

/// `layerkit slideshow IMG_OR_CLIP… --transition SPEC -o OUT`.
struct Slideshow: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Images and clips shown one after another, with a transition at every boundary.",
    discussion: """
      Each still is shown alone for --hold seconds and each clip plays for its own length (or \
      at most --hold + its transitions, when --hold is given); a transition overlaps the end of \
      one item with the start of the next. SPEC is fade, push:fromRight (type:subtype), a built-in \
      effect (see `layerkit list`), or a .glsl file in the gl-transitions form, each with optional \
      :NAME=VALUE parameters; one SPEC for every boundary, one per boundary, or random (--seed).

      Example:
        layerkit slideshow a.jpg b.jpg clip.mp4 --transition fade --transition push:fromRight \\
          --hold 2 --transition-duration 0.8 -o show.mp4
        layerkit slideshow a.jpg clip.mp4 --cut : --cut 1:4.5 -o show.mp4
      """)

  @Argument(help: "Images (PNG, JPEG) and clips (anything ffmpeg decodes).") var inputs: [String]
  @Option(parsing: .unconditional, help: "Seconds each still is shown alone (and the most a clip plays, when given).")
  var hold: Double?
  @Flag(help: "Loop a clip shorter than its slot (--hold plus its transitions) to fill it, its sound too.")
  var loop = false
  @Option(parsing: .unconditional, help: "Seconds of each transition.") var transitionDuration: Double = 0.8
  @OptionGroup var sequence: SequenceOptions

  func validate() throws {
    guard !inputs.isEmpty else { throw ValidationError("give at least one image or clip") }
    try sequence.check(inputs: inputs, transitionDuration: transitionDuration)
    if loop && !sequence.clips.clipDuration.isEmpty {
      throw ValidationError("--loop fills a clip's slot by repeating it, --clip-duration by its speed: give one")
    }
    if loop && hold == nil { throw ValidationError("--loop fills each clip's --hold: give --hold") }
    try checkRange(hold, "--hold", 0...Limits.maxSeconds, unit: "seconds")
  }

  func run() throws {
    try reportingErrors("slideshow") {
      let job = try VideoJob(options: sequence.video, command: "slideshow")
      try job.sequence(inputs, options: sequence, transitionDuration: transitionDuration) { i, clip in
        let around = (i > 0 ? transitionDuration : 0) + (i < inputs.count - 1 ? transitionDuration : 0)
        guard let clip else { return Slot(duration: (hold ?? 2) + around) }
        // Seconds of the video the clip (or its cut) plays at its speed.
        let length = clip.length / clip.speed
        // --loop: a clip shorter than its slot plays again and again to fill it.
        if loop, let hold, length < hold + around {
          return Slot(
            duration: hold + around, cutFrom: clip.from, cutTo: clip.from + clip.length, speed: clip.speed, loop: true)
        }
        let duration = hold.map { min(length, $0 + around) } ?? length
        return Slot(duration: duration, cutFrom: clip.from, cutTo: clip.from + duration * clip.speed, speed: clip.speed)
      }
    }
  }
}

/// `layerkit concat CLIP… --transition SPEC -o OUT`: ffmpeg-concat's job.
struct Concat: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Clips joined with transitions that overlap the end of one with the start of the next.",
    discussion: """
      The output is shorter than the sum of the clips by the overlaps, as with ffmpeg-concat and \
      xfade's offset. Audio is cross-faded over each transition. Stills are held for --hold seconds.

      Example:
        layerkit concat a.mp4 b.mov c.webm --transition fade --transition-duration 0.5 -o joined.mp4
        layerkit concat a.mp4 b.mp4 --cut 2: --cut 0:01..0:03.5 -o joined.mp4
      """)

  @Argument(help: "Clips (anything ffmpeg decodes) or images.") var inputs: [String]
  @Option(parsing: .unconditional, help: "Seconds of each transition.") var transitionDuration: Double = 0.5
  @Option(parsing: .unconditional, help: "Seconds a still is shown.") var hold: Double = 2
  @OptionGroup var sequence: SequenceOptions

  func validate() throws {
    guard inputs.count >= 1 else { throw ValidationError("give at least one clip") }
    try sequence.check(inputs: inputs, transitionDuration: transitionDuration)
    try checkRange(hold, "--hold", 0.001...Limits.maxSeconds, unit: "seconds")
  }

  func run() throws {
    try reportingErrors("concat") {
      let job = try VideoJob(options: sequence.video, command: "concat")
      try job.sequence(inputs, options: sequence, transitionDuration: transitionDuration) { _, clip in
        guard let clip else { return Slot(duration: hold) }
        return Slot(
          duration: clip.length / clip.speed, cutFrom: clip.from, cutTo: clip.from + clip.length, speed: clip.speed)
      }
    }
  }
}
