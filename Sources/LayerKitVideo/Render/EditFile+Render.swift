import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// An edit file made ready to render by editly's rules: what the file leaves unsaid takes
/// editly's defaults (the frame size and rate from the first video, contain-blur, images zooming
/// in, titles centred and growing), `fast` previews small and quick, and an output without sound
/// leaves the edit's sound out.
extension EditFile {
  /// The edit as editly renders it into `target`, with `settings` over the file's own size,
  /// rate and fit, and the notes a person should read (the file's, and sound left out).
  /// - Parameter sources: the opened pictures of `edit.picturePaths`, by path (the first
  ///   video gives the default size and rate).
  public func renderable(into target: OutputTarget, settings: RenderSettings, sources: [String: MediaSource])
    -> (edit: Edit, notes: [String])
  {
    var edit = self.edit
    var notes = self.notes
    // A GIF, Y4M or PNG frames carry no sound: the edit's is left out, said once (editly
    // writes a silent GIF the same way).
    if !target.format.carriesSound, edit.hasSound {
      edit = edit.withoutSound
      notes.append("\(target.displayPath) carries no sound; the edit's sound is left out")
    }
    if settings.width == nil || settings.fps == nil {
      Self.applyEditlySize(
        &edit, sources: edit.picturePaths.compactMap { sources[$0] }, gif: target.format == .gif, fast: fast,
        size: settings.width == nil, fps: settings.fps == nil)
    }
    // editly's defaults where the file says nothing: contain-blur (unless the settings fit),
    // images zooming in, titles centred and growing.
    if edit.defaults?.layer?.resizeMode == nil, settings.fit == nil {
      var defaults = edit.defaults ?? Edit.Defaults()
      var layer = defaults.layer ?? Edit.LayerDefaults()
      layer.resizeMode = Fit.containBlur.rawValue
      defaults.layer = layer
      edit.defaults = defaults
    }
    let width = settings.width ?? edit.width ?? 640
    let height = settings.height ?? edit.height ?? 640
    return (edit.withEditlyDefaults(width: width, height: height), notes)
  }

  /// `encoding` with the file's say: `customOutputArgs` after LayerKit's arguments, and for
  /// `fast`, x264's fastest preset into an MP4 unless one is given.
  public func encoding(_ encoding: EncodingOptions, into target: OutputTarget) -> EncodingOptions {
    var encoding = encoding
    if fast, encoding.preset == nil, target.format == .mp4 { encoding.preset = "ultrafast" }
    encoding.customArguments = customOutputArgs
    return encoding
  }

  /// editly's frame size and rate where the file gives none (and the settings neither): the
  /// width asked for (320 for a GIF) with the first video's aspect, else the first video's size,
  /// else square (640 a side); `fast` scales that to about 250 pixels a side. The rate: 15 for
  /// `fast`, 10 for a GIF, the first video's, else 25.
  static func applyEditlySize(_ edit: inout Edit, sources: [MediaSource], gif: Bool, fast: Bool, size: Bool, fps: Bool)
  {
    let firstVideo = edit.clips.lazy.flatMap(\.layers).compactMap { layer -> ClipInfo? in
      guard case .video(let v) = layer else { return nil }
      for case .clip(let info) in sources where info.path == v.path { return info }
      return nil
    }.first
    func even(_ x: Double) -> Int { gif ? Int(x.rounded()) : max(2, Int((x / 2).rounded()) * 2) }
    if size {
      var (w, h): (Int, Int)
      let desired = edit.width ?? (gif ? 320 : nil)
      if let v = firstVideo {
        (w, h) = desired.map { ($0, even(Double(v.height) / Double(v.width) * Double($0))) } ?? (v.width, v.height)
      } else {
        (w, h) = (desired ?? 640, desired ?? 640)
      }
      if let ew = edit.width, let eh = edit.height { (w, h) = (ew, eh) }
      if fast {
        let aspect = Double(w) / Double(h)
        (w, h) = (even(250 * aspect.squareRoot()), even(250 / aspect.squareRoot()))
      }
      (edit.width, edit.height) = (w, h)
    }
    if fps {
      if fast {
        edit.fps = 15
      } else if edit.fps == nil {
        edit.fps = gif ? 10 : firstVideo.map(\.frameRate) ?? 25
      }
    }
  }
}

extension VideoRender {
  /// Plans the render of an edit file into `output` by editly's rules (`EditFile.renderable`),
  /// its notes in `notes`.
  /// - Parameter glTransitions: a folder of gl-transitions files that transition names not in
  ///   the catalogue are looked up in.
  public convenience init(
    editFile file: EditFile, output target: OutputTarget, encoding: EncodingOptions,
    settings: RenderSettings = RenderSettings(), backends: RenderBackends, glTransitions: String? = nil
  ) throws {
    var settings = settings
    settings.editly = true
    let prepared = try Self.prepare(file, output: target, settings: settings, glTransitions: glTransitions)
    try self.init(
      edit: prepared.edit, output: target, encoding: file.encoding(encoding, into: target), settings: settings,
      backends: backends, sources: prepared.sources)
    notes = prepared.notes
  }

  /// An edit file's edit as editly renders it into `target` (`EditFile.renderable`), its
  /// transition names looked up in `glTransitions`, and its pictures opened.
  public static func prepare(
    _ file: EditFile, output target: OutputTarget, settings: RenderSettings, glTransitions: String?
  ) throws -> (edit: Edit, notes: [String], sources: [String: MediaSource]) {
    var file = file
    file.edit = try file.edit.resolvingTransitions(in: glTransitions)
    var sources: [String: MediaSource] = [:]
    for source in try open(file.edit.picturePaths) { sources[source.path] = source }
    let (edit, notes) = file.renderable(into: target, settings: settings, sources: sources)
    return (edit, notes, sources)
  }
}
