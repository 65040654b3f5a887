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
  @Option(name: .customLong("transition"), help: "SPEC, once for all boundaries or once per boundary; or random.")
  var transitions: [String] = ["fade"]
  @Option(parsing: .unconditional, help: "Seconds each still is shown alone (and the most a clip plays, when given).")
  var hold: Double?
  @Flag(help: "Loop a clip shorter than its slot (--hold plus its transitions) to fill it, its sound too.")
  var loop = false
  @Option(parsing: .unconditional, help: "Seconds of each transition.") var transitionDuration: Double = 0.8
  @Option(parsing: .unconditional, help: "Seed for --transition random: a whole number ≥ 0.") var seed: Seed = Seed(1)
  @OptionGroup var clips: ClipOptions
  @OptionGroup var overlays: OverlayOptions
  @OptionGroup var mix: MixOptions
  @OptionGroup var video: VideoOptions
  @OptionGroup var text: TextOptions
  @Flag(
    help: "Print the edit these flags make, as JSON (editly's edit spec, LayerKit's fields added), and render nothing.")
  var printEdit = false

  func validate() throws {
    guard !inputs.isEmpty else { throw ValidationError("give at least one image or clip") }
    try checkNamed(inputs, "an input")
    try mix.check(music: video.run.audio)
    if loop && !clips.clipDuration.isEmpty {
      throw ValidationError("--loop fills a clip's slot by repeating it, --clip-duration by its speed: give one")
    }
    if loop && hold == nil { throw ValidationError("--loop fills each clip's --hold: give --hold") }
    try seed.check()
    try checkRange(hold, "--hold", 0...Limits.maxSeconds, unit: "seconds")
    try checkRange(transitionDuration, "--transition-duration", 0.001...Limits.maxSeconds, unit: "seconds")
    let boundaries = inputs.count - 1
    guard transitions.count == 1 || transitions.count == boundaries else {
      throw ValidationError(
        "give one --transition for all \(boundaries) boundaries, or one per boundary, not \(transitions.count)")
    }
  }

  func run() throws {
    try reportingErrors("slideshow") {
      let job = try VideoJob(options: video, command: "slideshow")
      let sources = try job.open(inputs)
      let cuts = try clips.cuts(for: sources)
      let speeds = try clips.speeds(for: sources)
      let fitted = try clips.fittedDurations(for: sources)
      let slots = sources.enumerated().map { i, source in
        let around = (i > 0 ? transitionDuration : 0) + (i < inputs.count - 1 ? transitionDuration : 0)
        guard let clipLength = cuts[i]?.length ?? source.duration else {
          return Slot(duration: (hold ?? 2) + around)
        }
        let from = cuts[i]?.inPoint ?? 0
        if let fit = fitted[i] { return Slot(duration: fit, cutFrom: from, cutTo: from + clipLength, speed: nil) }
        // Seconds of the video the clip (or its cut) plays at its speed.
        let length = clipLength / speeds[i]
        // --loop: a clip shorter than its slot plays again and again to fill it.
        if loop, let hold, length < hold + around {
          return Slot(duration: hold + around, cutFrom: from, cutTo: from + clipLength, speed: speeds[i], loop: true)
        }
        let duration = hold.map { min(length, $0 + around) } ?? length
        return Slot(duration: duration, cutFrom: from, cutTo: from + duration * speeds[i], speed: speeds[i])
      }
      let specs = (0..<(inputs.count - 1)).map { transitions.count == 1 ? transitions[0] : transitions[$0] }
      let edit = try job.sequenceEdit(
        sources: sources, slots: slots, specs: specs, transitionDuration: transitionDuration, seed: seed.value,
        text: text, overlays: overlays, mix: mix)
      try job.play(edit, sources: sources, printEdit: printEdit)
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
  @Option(name: .customLong("transition"), help: "SPEC, once for all boundaries or once per boundary; or random.")
  var transitions: [String] = ["fade"]
  @Option(parsing: .unconditional, help: "Seconds of each transition.") var transitionDuration: Double = 0.5
  @Option(parsing: .unconditional, help: "Seconds a still is shown.") var hold: Double = 2
  @Option(parsing: .unconditional, help: "Seed for --transition random: a whole number ≥ 0.") var seed: Seed = Seed(1)
  @OptionGroup var clips: ClipOptions
  @OptionGroup var overlays: OverlayOptions
  @OptionGroup var mix: MixOptions
  @OptionGroup var video: VideoOptions
  @OptionGroup var text: TextOptions
  @Flag(
    help: "Print the edit these flags make, as JSON (editly's edit spec, LayerKit's fields added), and render nothing.")
  var printEdit = false

  func validate() throws {
    guard inputs.count >= 1 else { throw ValidationError("give at least one clip") }
    try checkNamed(inputs, "an input")
    try mix.check(music: video.run.audio)
    try seed.check()
    try checkRange(transitionDuration, "--transition-duration", 0.001...Limits.maxSeconds, unit: "seconds")
    try checkRange(hold, "--hold", 0.001...Limits.maxSeconds, unit: "seconds")
    let boundaries = inputs.count - 1
    guard transitions.count == 1 || transitions.count == boundaries else {
      throw ValidationError(
        "give one --transition for all \(boundaries) boundaries, or one per boundary, not \(transitions.count)")
    }
  }

  func run() throws {
    try reportingErrors("concat") {
      let job = try VideoJob(options: video, command: "concat")
      let sources = try job.open(inputs)
      let cuts = try clips.cuts(for: sources)
      let speeds = try clips.speeds(for: sources)
      let fitted = try clips.fittedDurations(for: sources)
      let slots = sources.enumerated().map { i, source in
        guard let clipLength = cuts[i]?.length ?? source.duration else { return Slot(duration: hold) }
        let from = cuts[i]?.inPoint ?? 0
        if let fit = fitted[i] { return Slot(duration: fit, cutFrom: from, cutTo: from + clipLength, speed: nil) }
        return Slot(duration: clipLength / speeds[i], cutFrom: from, cutTo: from + clipLength, speed: speeds[i])
      }
      let specs = (0..<(inputs.count - 1)).map { transitions.count == 1 ? transitions[0] : transitions[$0] }
      let edit = try job.sequenceEdit(
        sources: sources, slots: slots, specs: specs, transitionDuration: transitionDuration, seed: seed.value,
        text: text, overlays: overlays, mix: mix)
      try job.play(edit, sources: sources, printEdit: printEdit)
    }
  }
}
