import ArgumentParser
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

/// One input's place in a `slideshow` or `concat`, as the command works it out from its flags.
struct Slot {
  /// Seconds the input lasts in the video, its transitions included.
  var duration: Double
  /// The part of a clip played (nil: from its start; to its end).
  var cutFrom: Double?
  var cutTo: Double?
  /// How fast a clip plays; nil: sped or slowed to fill `duration` (`--clip-duration`).
  var speed: Double?
  var loop = false
}

/// A clip input as its flags give it: the seconds of it played (its cut), from where, at what
/// speed, and the duration `--clip-duration` fits it to.
struct ClipInput {
  var length: Double
  var from: Double
  var speed: Double
  var fitted: Double?
}

/// The options `slideshow` and `concat` share: transitions, the seed, the clips' cuts and
/// speeds, overlays, sound, the video's output, titles, and `--print-edit`.
struct SequenceOptions: ParsableArguments {
  @Option(name: .customLong("transition"), help: "SPEC, once for all boundaries or once per boundary; or random.")
  var transitions: [String] = ["fade"]
  @Option(parsing: .unconditional, help: "Seed for --transition random: a whole number ≥ 0.") var seed: Seed = Seed(1)
  @OptionGroup var clips: ClipOptions
  @OptionGroup var overlays: OverlayOptions
  @OptionGroup var mix: MixOptions
  @OptionGroup var video: VideoOptions
  @OptionGroup var text: TextOptions
  @Flag(
    help: "Print the edit these flags make, as JSON (editly's edit spec, LayerKit's fields added), and render nothing.")
  var printEdit = false

  /// The checks both commands make: named inputs, one SPEC for all boundaries or one each, the
  /// seed, the transitions' length, the tracks' settings.
  func check(inputs: [String], transitionDuration: Double) throws {
    try checkNamed(inputs, "an input")
    try mix.check(music: video.run.audio)
    try seed.check()
    try checkRange(transitionDuration, "--transition-duration", 0.001...Limits.maxSeconds, unit: "seconds")
    let boundaries = inputs.count - 1
    guard transitions.count == 1 || transitions.count == boundaries else {
      throw ValidationError(
        "give one --transition for all \(boundaries) boundaries, or one per boundary, not \(transitions.count)")
    }
  }
}

/// What `slideshow` and `concat` share around their own arithmetic: the inputs opened, the edit
/// their flags make, then `--print-edit`'s JSON or the render.
extension VideoJob {
  /// Opens `inputs`, works out each one's slot (`slot` for a still — nil — or a clip not fitted
  /// to a duration), makes the edit and plays it.
  func sequence(
    _ inputs: [String], options: SequenceOptions, transitionDuration: Double,
    slot: (_ index: Int, _ clip: ClipInput?) -> Slot
  ) throws {
    let (transitions, clips) = (options.transitions, options.clips)
    let sources = try VideoRender.open(inputs, readingPackets: copiesPackets)
    let cuts = try clips.cuts(for: sources)
    if !options.video.run.quiet {
      for note in clips.cutsPastTheEnd(for: sources) { printError("layerkit: \(note)") }
    }
    let speeds = try clips.speeds(for: sources)
    let fitted = try clips.fittedDurations(for: sources)
    let slots = sources.enumerated().map { i, source in
      guard let length = cuts[i]?.length ?? source.duration else { return slot(i, nil) }
      let clip = ClipInput(length: length, from: cuts[i]?.inPoint ?? 0, speed: speeds[i], fitted: fitted[i])
      if let fit = clip.fitted {
        return Slot(duration: fit, cutFrom: clip.from, cutTo: clip.from + clip.length, speed: nil)
      }
      return slot(i, clip)
    }
    // Each SPEC read once, here; the edit carries the typed value.
    let parsed = try transitions.map { try TransitionSpec(parsing: $0) }
    let specs = (0..<(inputs.count - 1)).map { parsed.count == 1 ? parsed[0] : parsed[$0] }
    let edit = try sequenceEdit(
      sources: sources, slots: slots, specs: specs, transitionDuration: transitionDuration, seed: options.seed.value,
      text: options.text, overlays: options.overlays, mix: options.mix)
    try play(edit, sources: sources, printEdit: options.printEdit)
  }

  /// The edit of `sources` in `slots`, joined by `specs` (random ones chosen here), with the
  /// titles, Ken Burns, subtitles, overlays and sound the flags give.
  func sequenceEdit(
    sources: [MediaSource], slots: [Slot], specs: [TransitionSpec], transitionDuration: Double, seed: UInt64,
    text: TextOptions, overlays: OverlayOptions, mix: MixOptions
  ) throws -> Edit {
    var random = SeededRandom(seed: seed)
    var clips: [Edit.Clip] = []
    for (i, source) in sources.enumerated() {
      let slot = slots[i]
      let layer: Edit.Layer
      switch source {
      case .image(let still):
        layer = .image(Edit.Image(path: still.path))
      case .clip(let info):
        var v = Edit.Video(path: info.path)
        if let from = slot.cutFrom, from > 0 { v.cutFrom = from }
        if let to = slot.cutTo, to < info.duration - 1e-6 { v.cutTo = to }
        if let speed = slot.speed, speed != 1 || slot.loop { v.speed = speed }
        if slot.loop { v.loop = true }
        layer = .video(v)
      }
      var clip = Edit.Clip(duration: slot.duration, transition: .none, layers: [layer])
      if i < specs.count {
        let spec = specs[i].effect == "random" ? TransitionSpec.random(&random) : specs[i]
        clip.transition = .given(
          Edit.Transition(
            name: ([spec.effect] + (spec.subtype.map { [$0.rawValue] } ?? [])).joined(separator: ":"),
            duration: transitionDuration, easing: options.timing.rawValue,
            params: spec.parameters.isEmpty ? nil : spec.parameters))
      }
      clips.append(clip)
    }
    var edit = Edit(clips: clips)
    edit.width = options.size?.width
    edit.height = options.size?.height
    edit.fps = options.fps
    edit.defaults = Edit.Defaults(layer: Edit.LayerDefaults(resizeMode: options.fit.rawValue))
    let stills = sources.map { if case .image = $0 { true } else { false } }
    try text.apply(to: &edit, stills: stills, seed: seed)
    let laid = try overlays.editOverlays()
    edit.overlays = laid.isEmpty ? nil : laid
    try mix.apply(to: &edit, music: options.run.audio, fadeOut: options.run.audioFade, clipAudio: !options.noAudio)
    return edit
  }

  /// Renders `edit` through the library's entry, or with `printEdit` plays it (every field
  /// checked, transitions resolved) and prints it as JSON instead.
  /// - Parameter editly: editly's rules where the video commands have their own (an edit file's
  ///   transitions clamped to half of either clip beside them).
  /// - Parameter encoding: the encoding, where it is not the flags' alone (an edit file's say).
  func play(
    _ edit: Edit, sources: [MediaSource], printEdit: Bool, editly: Bool = false, encoding: EncodingOptions? = nil
  ) throws {
    var byPath: [String: MediaSource] = [:]
    for source in sources { byPath[source.path] = source }
    // Overlays (pictures, or clips for picture-in-picture) opened as the inputs are.
    for source in try VideoRender.open(edit.mediaPaths.filter { byPath[$0] == nil }, readingPackets: copiesPackets) {
      byPath[source.path] = source
    }
    // A cut past its clip's end ends there: said once, not refused (editly's rule, and --cut's).
    if !options.run.quiet {
      for note in edit.cutsPastTheEnd(sources: byPath) { printError("layerkit: \(note)") }
    }
    do {
      if printEdit {
        _ = try VideoRender.play(edit, sources: byPath, settings: settings(editly: editly), backends: backends)
        try writeStandardOutput(try edit.json(outPath: options.output) + "\n")
        return
      }
      try render(edit, sources: byPath, editly: editly, encoding: encoding)
    } catch let error as SubtitleFile.Error {
      // The file's content is at fault, not the command line: exit 1, without the usage text.
      throw ParameterError(error.description)
    }
  }
}
