/// A setting an error's advice names ("raise the frame time limit", "or name the format"). The
/// library words each in its own terms (`libraryWords`); a front end that makes these settings
/// otherwise — the command line with flags — words them its own way through
/// `AdvisedError.message(_:)`, so a message is composed once, from typed parts, and never
/// rewritten as text afterwards.
public enum Setting: String, Sendable, CaseIterable {
  /// The output's format, where its name does not say it.
  case outputFormat
  /// Replacing the frame files a folder already holds.
  case replaceFrames
  /// Fitting an item's transitions into its length.
  case transitionFit
  /// The limit on one frame's drawing time, as named.
  case frameTimeLimit
  /// Raising that limit, or having none.
  case raiseFrameTimeLimit
  /// The pixel format of the output, as named before its value.
  case pixelFormat
  /// A render of a frame range, whose parts record where they belong.
  case partialRender
  /// Joining parts made elsewhere, unchecked.
  case uncheckedJoin
  /// The CPU backend.
  case cpuBackend
  /// Rendering at the size the pixel format stores, or padding to it.
  case sizeOrPad
  /// The folder of gl-transitions files that names not in the catalogue are looked up in.
  case glTransitionsFolder
  /// The sound tracks laid under the whole video.
  case soundTracks
  /// The frame range rendered.
  case frameRange
  /// The shard rendered (index of count).
  case shard
  /// Smart rendering, asked for as a must.
  case smartRequired
  /// A renderer that runs GLSL (the GPU) chosen, or none to be had.
  case gpuBackend

  /// The library's words for the setting.
  public var libraryWords: String {
    switch self {
    case .outputFormat: "name the format"
    case .replaceFrames: "allow replacing them"
    case .transitionFit: "shorten its transitions or lengthen the item"
    case .frameTimeLimit: "the frame time limit"
    case .raiseFrameTimeLimit: "raise the limit, or set none,"
    case .pixelFormat: "the pixel format"
    case .partialRender: "a LayerKit render of a frame range (a shard)"
    case .uncheckedJoin: "parts made elsewhere join unchecked, in the order given"
    case .cpuBackend: "the CPU backend (ReferenceRenderer)"
    case .sizeOrPad: "render at that size, or pad the frame to it with the background"
    case .glTransitionsFolder: "a gl-transitions folder"
    case .soundTracks: "sound tracks"
    case .frameRange: "frames"
    case .shard: "shard"
    case .smartRequired: "smart rendering (required)"
    case .gpuBackend: "render on the GPU"
    }
  }
}

/// An error whose message gives advice naming settings (`Setting`): its `description` words them
/// as the library does; `message(_:)` lets a front end word them its way.
public protocol AdvisedError: Error, CustomStringConvertible {
  /// The message, each setting it names worded by `words`.
  func message(_ words: (Setting) -> String) -> String
}

extension AdvisedError {
  public var description: String { message { $0.libraryWords } }
}
