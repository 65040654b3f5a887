import ArgumentParser
import Foundation
import LayerKit
import LayerKitMedia
import LayerKitVideo

/// Pictures over the whole video (`slideshow`, `concat`): a logo or a watermark that stays put
/// while the items and transitions change under it.
struct OverlayOptions: ParsableArguments {
  @Option(
    help:
      "A picture (PNG, JPEG) or a clip (picture-in-picture: silent, from its start) over the whole video, above the transitions; repeatable."
  )
  var overlay: [String] = []
  @Option(
    help: ArgumentHelp(
      "Where each overlay sits: top-left, top, top-right (a picture's default), center-left, center, center-right, bottom-left, bottom or bottom-right (a clip's default); once for all or once per overlay.",
      valueName: "position"))
  var overlayPosition: [ImageOverlay.Position] = []
  @Option(
    parsing: .unconditionalSingleValue,
    help:
      "Each overlay's width, a fraction of the frame's (0.15 for a picture, 0.3 for a clip); once for all or per overlay."
  )
  var overlaySize: [Double] = []
  @Option(parsing: .unconditionalSingleValue, help: "Each overlay's opacity, 0…1 (1); once for all or per overlay.")
  var overlayOpacity: [Double] = []
  @Option(
    parsing: .unconditionalSingleValue,
    help: "The gap to the frame's edges, a fraction of its shorter side (0.03); once for all or per overlay.")
  var overlayMargin: [Double] = []
  @Option(
    parsing: .unconditionalSingleValue,
    help: "Seconds into the video each overlay comes on (0); once for all or per overlay.")
  var overlayFrom: [Double] = []
  @Option(
    parsing: .unconditionalSingleValue,
    help: "Seconds into the video each overlay goes off (the end); once for all or per overlay.")
  var overlayTo: [Double] = []

  func validate() throws {
    try checkNamed(overlay, "--overlay")
    for (name, count) in [
      ("--overlay-position", overlayPosition.count), ("--overlay-size", overlaySize.count),
      ("--overlay-opacity", overlayOpacity.count), ("--overlay-margin", overlayMargin.count),
      ("--overlay-from", overlayFrom.count), ("--overlay-to", overlayTo.count),
    ] where count > 0 {
      guard !overlay.isEmpty else { throw ValidationError("\(name) is for --overlay, and none is given") }
      guard count == 1 || count == overlay.count else {
        throw ValidationError("give one \(name) for all overlays, or one per overlay (\(overlay.count)), not \(count)")
      }
    }
    for v in overlaySize { try checkRange(v, "--overlay-size", 0.001...1) }
    for v in overlayOpacity { try checkRange(v, "--overlay-opacity", 0...1) }
    for v in overlayMargin { try checkRange(v, "--overlay-margin", 0...0.5) }
    for v in overlayFrom + overlayTo {
      try checkRange(v, "--overlay-from/--overlay-to", 0...Limits.maxSeconds, unit: "seconds")
    }
  }

  /// The overlays as the edit writes them (their pictures are read when it is played).
  func editOverlays() throws -> [Edit.Overlay] {
    func pick<T>(_ list: [T], _ i: Int) -> T? { list.isEmpty ? nil : list[list.count == 1 ? 0 : i] }
    return try overlay.enumerated().map { i, path in
      if let to = pick(overlayTo, i), to <= pick(overlayFrom, i) ?? 0 {
        throw ValidationError("--overlay-to must come after --overlay-from (overlay \(i + 1))")
      }
      var o = Edit.Overlay(path: path)
      o.position = pick(overlayPosition, i).map { .named($0.rawValue) }
      o.width = pick(overlaySize, i)
      o.margin = pick(overlayMargin, i)
      o.opacity = pick(overlayOpacity, i)
      o.start = pick(overlayFrom, i)
      o.stop = pick(overlayTo, i)
      return o
    }
  }
}

extension ImageOverlay.Position: ExpressibleByArgument {}
