import Foundation
import LayerKit

/// A whole video as data, in the shape of editly's edit spec: clips in sequence, each with its
/// layers and the transition at its end; audio tracks over the whole; defaults. `slideshow` and
/// `concat` build one from their flags (`--print-edit` prints it as JSON); playing it
/// (`Edit+Play.swift`) makes the timeline and the audio mix the pipeline renders.
///
/// Every field is optional where editly's is, and left out of the JSON when not set; what a
/// missing field means is decided when the edit is played, by editly's rules (a clip's duration
/// from its cut, else `defaults.duration`; a transition from `defaults.transition`). Fields
/// editly does not have are LayerKit's own and marked so: `overlays`, `subtitles`, `ducking`,
/// `loudness`, and on layers `speed`, `loop`, `panDirection`, `fontFamily`, `fontSize`, `box`,
/// `fade`; on audio tracks `loop`, `fadeIn`, `fadeOut`, `voice`.
public struct Edit: Codable, Sendable, Equatable {
  public var width: Int?
  public var height: Int?
  public var fps: Double?
  public var defaults: Defaults?
  public var clips: [Clip]
  public var audioTracks: [AudioTrack]?
  /// Whether the clips' own sound is heard (editly's default: false; LayerKit's commands: true).
  public var keepSourceAudio: Bool?
  /// The clips' sound as a gain against the tracks (1: as it is).
  public var clipsAudioVolume: Double?
  /// A gain over the whole mix, last.
  public var outputVolume: Double?
  /// LayerKit's: pictures over the whole video that transitions do not move.
  public var overlays: [Overlay]?
  /// LayerKit's: an SRT or WebVTT file burned in over every frame.
  public var subtitles: SubtitleTrack?
  /// LayerKit's: music lowered under the clips' sound and voice tracks.
  public var ducking: Ducking?
  /// LayerKit's: the mix brought to this integrated loudness, LUFS (EBU R128, two passes).
  public var loudness: Double?
  /// editly's: the mix's level evened out over time (ffmpeg's dynaudnorm).
  public var audioNorm: AudioNorm?
  /// LayerKit's: the seed of editly's random choices (a transition named `random`, a colour or
  /// gradient left unsaid); 1 unsaid. The same seed gives the same video.
  public var seed: UInt64?

  /// editly's `audioNorm`: `enable`, `gaussSize` (5, odd), `maxGain` (30).
  public struct AudioNorm: Codable, Sendable, Equatable {
    public var enable: Bool?
    public var gaussSize: Int?
    public var maxGain: Double?

    public init(enable: Bool? = true, gaussSize: Int? = nil, maxGain: Double? = nil) {
      self.enable = enable
      self.gaussSize = gaussSize
      self.maxGain = maxGain
    }
  }

  public init(clips: [Clip]) { self.clips = clips }

  /// What a clip, a layer or a transition takes when it does not say.
  public struct Defaults: Codable, Sendable, Equatable {
    /// Seconds of a clip that says neither its duration nor a cut (editly: 4).
    public var duration: Double?
    public var transition: Transition?
    public var layer: LayerDefaults?

    public init(duration: Double? = nil, transition: Transition? = nil, layer: LayerDefaults? = nil) {
      self.duration = duration
      self.transition = transition
      self.layer = layer
    }
  }

  public struct LayerDefaults: Codable, Sendable, Equatable {
    /// cover, contain, contain-blur or stretch (editly: contain-blur).
    public var resizeMode: String?
    public var fontPath: String?

    public init(resizeMode: String? = nil, fontPath: String? = nil) {
      self.resizeMode = resizeMode
      self.fontPath = fontPath
    }
  }

  /// One clip of the sequence: its layers, its length, and the transition at its end.
  public struct Clip: Codable, Sendable, Equatable {
    /// Seconds; nil: the cut's length (at its speed), else `defaults.duration`. A clip whose
    /// video layer has a cut and no `speed` is sped or slowed to last exactly this long.
    public var duration: Double?
    public var transition: TransitionSlot
    public var layers: [Layer]

    public init(duration: Double? = nil, transition: TransitionSlot = .inherited, layers: [Layer]) {
      self.duration = duration
      self.transition = transition
      self.layers = layers
    }

    enum CodingKeys: String, CodingKey { case duration, transition, layers }

    public init(from decoder: Decoder) throws {
      let c = try decoder.container(keyedBy: CodingKeys.self)
      duration = try c.decodeIfPresent(Double.self, forKey: .duration)
      layers = try c.decode([Layer].self, forKey: .layers)
      if !c.contains(.transition) {
        transition = .inherited
      } else if try c.decodeNil(forKey: .transition) {
        transition = .none
      } else {
        transition = .given(try c.decode(Transition.self, forKey: .transition))
      }
    }

    public func encode(to encoder: Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      try c.encodeIfPresent(duration, forKey: .duration)
      switch transition {
      case .inherited: break
      case .none: try c.encodeNil(forKey: .transition)
      case .given(let t): try c.encode(t, forKey: .transition)
      }
      try c.encode(layers, forKey: .layers)
    }
  }

  /// A clip's transition as written: left out (the defaults' applies), `null` (a cut), or given.
  public enum TransitionSlot: Sendable, Equatable {
    case inherited, none
    case given(Transition)
  }

  /// What a clip shows: one picture (a video or an image), and titles over it.
  public enum Layer: Codable, Sendable, Equatable {
    case video(Video)
    case image(Image)
    case title(Title)
    /// editly's `audio`: a sound file under the clip, for the clip's length.
    case audio(AudioLayer)
    /// editly's `detached-audio`: a sound file from `start` seconds into the clip, to its end.
    case detachedAudio(AudioLayer)
    /// editly's `image-overlay`: a picture over the clip, from `start` to `stop` seconds into it.
    case imageOverlay(OverlayLayer)
    /// editly's `fill-color`, `pause`, `linear-gradient`, `radial-gradient` and
    /// `rainbow-colors`: colours over the whole frame.
    case colors(ColorLayer)
    /// editly's `subtitle`, `news-title` and `slide-in-text`.
    case text(Caption)
    /// editly's `gl`: a fragment shader's picture, on the GPU.
    case gl(ShaderLayer)

    enum CodingKeys: String, CodingKey { case type }

    /// Whether the layer is the clip's picture (a video, an image, or colours).
    public var isPicture: Bool {
      switch self {
      case .video, .image, .colors, .gl: true
      case .title, .audio, .detachedAudio, .imageOverlay, .text: false
      }
    }

    /// Whether the layer is a sound (`audio`, `detached-audio`).
    public var isSound: Bool {
      switch self {
      case .audio, .detachedAudio: true
      default: false
      }
    }

    /// The file a picture layer shows (a video's or an image's), nil for any other layer.
    public var picturePath: String? {
      switch self {
      case .video(let v): v.path
      case .image(let i): i.path
      case .title, .audio, .detachedAudio, .imageOverlay, .colors, .text, .gl: nil
      }
    }

    public init(from decoder: Decoder) throws {
      let type = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .type)
      switch type {
      case "video": self = .video(try Video(from: decoder))
      case "image": self = .image(try Image(from: decoder))
      case "title": self = .title(try Title(from: decoder))
      case "audio": self = .audio(try AudioLayer(from: decoder))
      case "detached-audio": self = .detachedAudio(try AudioLayer(from: decoder))
      case "image-overlay": self = .imageOverlay(try OverlayLayer(from: decoder))
      case "gl": self = .gl(try ShaderLayer(from: decoder))
      default:
        if let kind = ColorLayer.Kind(rawValue: type) {
          var layer = try ColorLayer(from: decoder)
          layer.kind = kind
          self = .colors(layer)
        } else if let kind = Caption.Kind(rawValue: type) {
          var layer = try Caption(from: decoder)
          layer.kind = kind
          self = .text(layer)
        } else {
          throw DecodingError.dataCorrupted(
            .init(
              codingPath: decoder.codingPath,
              debugDescription:
                "a layer of type '\(type)': video, image, title, subtitle, news-title, slide-in-text, audio, "
                + "detached-audio, image-overlay, fill-color, pause, linear-gradient, radial-gradient, "
                + "rainbow-colors or gl"))
        }
      }
    }

    public func encode(to encoder: Encoder) throws {
      var c = encoder.container(keyedBy: CodingKeys.self)
      switch self {
      case .video(let v):
        try c.encode("video", forKey: .type)
        try v.encode(to: encoder)
      case .image(let i):
        try c.encode("image", forKey: .type)
        try i.encode(to: encoder)
      case .title(let t):
        try c.encode("title", forKey: .type)
        try t.encode(to: encoder)
      case .audio(let a):
        try c.encode("audio", forKey: .type)
        try a.encode(to: encoder)
      case .detachedAudio(let a):
        try c.encode("detached-audio", forKey: .type)
        try a.encode(to: encoder)
      case .imageOverlay(let o):
        try c.encode("image-overlay", forKey: .type)
        try o.encode(to: encoder)
      case .colors(let l):
        try c.encode(l.kind.rawValue, forKey: .type)
        try l.encode(to: encoder)
      case .text(let l):
        try c.encode(l.kind.rawValue, forKey: .type)
        try l.encode(to: encoder)
      case .gl(let l):
        try c.encode("gl", forKey: .type)
        try l.encode(to: encoder)
      }
    }
  }

  /// A clip's footage: from `cutFrom` to `cutTo` (seconds of the file), placed in its clip.
  public typealias Video = Placed<VideoKeys>

  /// A video layer's own keys.
  public struct VideoKeys: Codable, Sendable, Equatable {
    public var path: String
    public var cutFrom: Double?
    public var cutTo: Double?
    public var resizeMode: String?
    /// The clip's own sound, as a gain (1: as it is).
    public var mixVolume: Double?
    /// LayerKit's: how fast it plays, 0.25…4 (with `loop`, or without a clip duration).
    public var speed: Double?
    /// LayerKit's: the cut played over and over to fill the clip's duration.
    public var loop: Bool?
    /// Ken Burns: in, out, left, right (editly's), with `zoomAmount` (0.1).
    public var zoomDirection: String?
    public var zoomAmount: Double?
    /// LayerKit's: left, right, up or down, panning as it zooms.
    public var panDirection: String?
  }

  /// A still picture (PNG, JPEG, WebP, GIF, TIFF, BMP, SVG, HEIC, AVIF), placed in its clip.
  public typealias Image = Placed<ImageKeys>

  /// An image layer's own keys.
  public struct ImageKeys: Codable, Sendable, Equatable {
    public var path: String
    public var resizeMode: String?
    public var zoomDirection: String?
    public var zoomAmount: Double?
    public var panDirection: String?
  }

  /// editly's placement of a video or image layer: seconds into the clip it shows from and to,
  /// and a box in fractions of the frame (`width`, `height`: 1; `left`, `top`: 0), anchored at
  /// its `originX` (left, center, right) and `originY` (top, center, bottom).
  public struct Placement: Codable, Sendable, Equatable {
    public var start: Double?
    public var stop: Double?
    public var width: Double?
    public var height: Double?
    public var left: Double?
    public var top: Double?
    public var originX: String?
    public var originY: String?

    public init() {}

    /// Whether it fills the frame for the whole clip (no span, the whole frame as its box).
    public var fillsTheClip: Bool {
      start == nil && stop == nil && (width ?? 1) == 1 && (height ?? 1) == 1 && (left ?? 0) == 0 && (top ?? 0) == 0
    }
  }

  /// A layer with editly's placement keys beside its own, in one JSON object as editly writes
  /// them; each key read and written as a property of its own (`video.path`, `video.start`).
  @dynamicMemberLookup
  public struct Placed<Keys: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    public var keys: Keys
    public var placement = Placement()

    public init(_ keys: Keys) { self.keys = keys }

    public init(from decoder: Decoder) throws {
      keys = try Keys(from: decoder)
      placement = try Placement(from: decoder)
    }

    public func encode(to encoder: Encoder) throws {
      try keys.encode(to: encoder)
      try placement.encode(to: encoder)
    }

    public subscript<T>(dynamicMember key: WritableKeyPath<Keys, T>) -> T {
      get { keys[keyPath: key] }
      set { keys[keyPath: key] = newValue }
    }

    public subscript<T>(dynamicMember key: WritableKeyPath<Placement, T>) -> T {
      get { placement[keyPath: key] }
      set { placement[keyPath: key] = newValue }
    }
  }

  /// A title over the clip's picture, faded in and out over the clip.
  public struct Title: Codable, Sendable, Equatable {
    public var text: String
    /// top, center, bottom, lower-third, editly's nine names, or `{x, y, originX, originY}`.
    public var position: Position?
    /// A colour: a name or #RRGGBB[AA].
    public var textColor: String?
    /// A font file.
    public var fontPath: String?
    /// LayerKit's: a font family ("DejaVu Sans:bold"), when no `fontPath`.
    public var fontFamily: String?
    /// LayerKit's: the text's size, a fraction of the frame's height.
    public var fontSize: Double?
    /// LayerKit's: the box behind the text, a colour or "none".
    public var box: String?
    /// LayerKit's: seconds it fades in and out.
    public var fade: Double?
    /// Seconds into the clip it shows from and to.
    public var start: Double?
    public var stop: Double?
    /// editly's Ken Burns on a title: in or out, by `zoomAmount` (0.1) over its span.
    public var zoomDirection: String?
    public var zoomAmount: Double?

    public init(text: String) { self.text = text }
  }

  /// A sound laid under the video.
  public struct AudioTrack: Codable, Sendable, Equatable {
    public var path: String
    /// A gain (1: as it is).
    public var mixVolume: Double?
    /// The part of the file played (seconds of it).
    public var cutFrom: Double?
    public var cutTo: Double?
    /// Seconds into the video it starts.
    public var start: Double?
    /// LayerKit's: the cut played over and over to the end of the video.
    public var loop: Bool?
    /// LayerKit's: seconds of fade at its start and its end.
    public var fadeIn: Double?
    public var fadeOut: Double?
    /// LayerKit's: a voice-over: other tracks duck under it (with `ducking`), never it.
    public var voice: Bool?

    public init(path: String) { self.path = path }
  }

  /// Colours over the frame: editly's `fill-color` and `pause` (`color`), `linear-gradient`
  /// (two `colors`, top to bottom), `radial-gradient` (two `colors`, centre to corners) and
  /// `rainbow-colors` (a rainbow drifting across).
  public struct ColorLayer: Codable, Sendable, Equatable {
    public enum Kind: String, Sendable {
      case fill = "fill-color", pause, linear = "linear-gradient", radial = "radial-gradient"
      case rainbow = "rainbow-colors"
    }
    public var kind = Kind.fill
    public var color: String?
    public var colors: [String]?
    /// Seconds into the clip it shows from and to.
    public var start: Double?
    public var stop: Double?

    enum CodingKeys: String, CodingKey { case color, colors, start, stop }

    public init(_ kind: Kind) { self.kind = kind }
  }

  /// A sound file in a clip (editly's `audio` and `detached-audio` layers).
  public struct AudioLayer: Codable, Sendable, Equatable {
    public var path: String
    public var cutFrom: Double?
    public var cutTo: Double?
    public var mixVolume: Double?
    /// Seconds into the clip it starts (`detached-audio`; `audio` starts with the clip).
    public var start: Double?

    public init(path: String) { self.path = path }
  }

  /// A picture over one clip (editly's `image-overlay`): at `position` (a name or a point),
  /// `width` and `height` fractions of the frame's (one given: the other from the picture's
  /// aspect), shown from `start` to `stop` seconds into the clip (its whole length by default).
  public struct OverlayLayer: Codable, Sendable, Equatable {
    public var path: String
    public var position: Position?
    public var width: Double?
    public var height: Double?
    public var zoomDirection: String?
    public var zoomAmount: Double?
    public var start: Double?
    public var stop: Double?

    public init(path: String) { self.path = path }
  }

  /// LayerKit's: a picture or a clip over the whole video (a logo, a watermark, a
  /// picture-in-picture), above the transitions.
  public struct Overlay: Codable, Sendable, Equatable {
    /// A PNG or JPEG, or a clip (played from `cutFrom`, silent, holding its last frame).
    public var path: String
    public var cutFrom: Double?
    /// editly's nine: top-left, top, top-right, center-left, center, center-right, bottom-left,
    /// bottom, bottom-right; or a point `{x, y, originX, originY}`.
    public var position: Position?
    /// A fraction of the frame's width (0.15 for a picture, 0.3 for a clip; with `height` alone,
    /// from the picture's aspect).
    public var width: Double?
    /// A fraction of the frame's height (the picture's aspect by default).
    public var height: Double?
    /// With both `width` and `height`: how the picture fills that box (stretch by default).
    public var resizeMode: String?
    /// The gap to the edges, a fraction of the frame's shorter side.
    public var margin: Double?
    public var opacity: Double?
    /// Seconds of the video it shows from (included) and to (excluded).
    public var start: Double?
    public var stop: Double?

    public init(path: String) { self.path = path }
  }

  /// The edit as JSON: keys sorted, indented, slashes as they are.
  /// - Parameter outPath: the output, written as editly's `outPath` beside the edit's keys, so
  ///   that `layerkit edit` renders the printed file where the command that printed it would have.
  public func json(outPath: String? = nil) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(Printed(edit: self, outPath: outPath)), as: UTF8.self)
  }

  /// The edit's keys and `outPath` in one object.
  private struct Printed: Encodable {
    let edit: Edit
    let outPath: String?
    enum Key: String, CodingKey { case outPath }

    func encode(to encoder: Encoder) throws {
      try edit.encode(to: encoder)
      var container = encoder.container(keyedBy: Key.self)
      try container.encodeIfPresent(outPath, forKey: .outPath)
    }
  }
}
