import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// The backends a render may draw with.
public struct RenderBackends {
  /// The renderer chosen (`--renderer`; for auto, the GPU where an EGL display can be made).
  public var renderer: Renderer
  /// The backend that runs GLSL — gl-transitions files, editly's gl layers — when there is one.
  public var shaders: (any Renderer & TransitionShaderHost)?
  /// The CPU reference renderer, to take instead of `renderer` where it renders the video
  /// faster (auto: a software rasterizer and only crossfades and slides); nil: always `renderer`.
  public var fasterCPU: Renderer?
  /// Whether the CPU was chosen over a GPU (said when a GPU is needed).
  public var cpuChosen: Bool

  public init(
    renderer: Renderer, shaders: (any Renderer & TransitionShaderHost)? = nil, fasterCPU: Renderer? = nil,
    cpuChosen: Bool = false
  ) {
    self.renderer = renderer
    self.shaders = shaders
    self.fasterCPU = fasterCPU
    self.cpuChosen = cpuChosen
  }

  /// The renderer of a video with `transitions`: the CPU where `fasterCPU` is given and every
  /// transition has a shortcut in the catalogue (a crossfade or a slide, which the CPU runs a row
  /// at a time) on a software rasterizer (`layerkit-bench --suite`: fade and push, 720p and 1080p,
  /// Y4M and MP4, the CPU faster end to end; llvmpipe wins on everything else); on a hardware
  /// GPU, the GPU. A timeline whose layers a shader paints (editly's gl layers) needs the GPU.
  /// - Throws: `RenderRequestError.needsGPU` for shader-painted layers without one.
  public func renderer(for transitions: [TimelineTransition], paintsShaders: Bool) throws(RenderRequestError)
    -> Renderer
  {
    if paintsShaders {
      guard let shaders else { throw .needsGPU(cpuChosen: cpuChosen) }
      return shaders
    }
    guard transitions.allSatisfy(\.builtIn) else { return renderer }
    return renderer(forEffects: transitions.map(\.effect))
  }

  /// The renderer of work whose transitions run built-in `effects` (a scene file's, a
  /// presentation's): the CPU where `fasterCPU` is given and it is faster (`cpuIsFaster`).
  public func renderer(forEffects effects: some Collection<String>) -> Renderer {
    guard let cpu = fasterCPU, let gpu = shaders, Self.cpuIsFaster(than: gpu, effects: effects) else { return renderer }
    return cpu
  }

  /// Whether the CPU renders work whose transitions run `effects` (built-in names) faster than
  /// `gpu`: on a software rasterizer when there are transitions and every one has a shortcut; the
  /// GPU for filter transitions and for layer scenes without transitions.
  public static func cpuIsFaster(than gpu: any TransitionShaderHost, effects: some Collection<String>) -> Bool {
    guard gpu.isSoftwareRasterizer else { return false }
    return !effects.isEmpty && effects.allSatisfy { TransitionEffects.all[$0]?.shortcut != nil }
  }
}

/// Which frames of the video a render makes: all, a range, or one shard of several.
public enum FrameSelection: Sendable, Equatable {
  case all
  /// Frames `lower` (included) to `upper` (excluded; nil: the end).
  case range(Int, Int?)
  /// The `index`th of `count` nearly equal ranges.
  case shard(Int, of: Int)

  /// Whether the selection is a part of the video (its output records where it belongs).
  public var isPartial: Bool { self != .all }

  /// Whether the selection is a shard: a part whose join needs what the whole render's parts
  /// carry (the first part the whole sound), not a range that stands alone.
  public var isShard: Bool {
    if case .shard = self { return true }
    return false
  }

  /// The frames selected of a video of `count` frames.
  /// - Throws: `RenderRequestError.framesBeyond` for a range past the end, or a shard left
  ///   empty.
  public func frames(of count: Int, what: String = "the video") throws(RenderRequestError) -> Range<Int> {
    switch self {
    case .all: return 0..<count
    case .range(let lower, let upper):
      let end = upper ?? count
      guard lower < count, end <= count else { throw .framesBeyond(self, count: count, what: what) }
      return lower..<end
    case .shard(let index, let n):
      let start = count * index / n
      let end = count * (index + 1) / n
      guard start < end else { throw .framesBeyond(self, count: count, what: what) }
      return start..<end
    }
  }
}

/// Whether an MP4's unchanged stretches are copied from the clips' packets.
public enum SmartChoice: String, Sendable, CaseIterable {
  /// Where the clips allow it, said when they do not.
  case auto
  /// Required: refused, naming the reason, where the clips do not allow it.
  case on
  /// Never: every frame encoded.
  case off
}

/// What shapes a render besides the edit and the output: size, rate, fitting, the frames, smart
/// rendering. nil values follow the edit (its size and rate), then the sources.
public struct RenderSettings: Sendable {
  public var width: Int?
  public var height: Int?
  public var fps: Double?
  /// How pictures fill the frame where the edit does not say (nil: cover; for an edit file,
  /// editly's contain-blur).
  public var fit: Fit?
  /// Grow a size the pixel format cannot store to the next one it can, with background.
  public var pad = false
  /// What shows where no picture covers the frame.
  public var background: Color = .clear
  /// The timing of transitions whose edit names no easing.
  public var timing: MediaTimingFunction.Name = .linear
  public var frames: FrameSelection = .all
  public var smart: SmartChoice = .auto
  /// Frames kept for a contact sheet (evenly spread over those rendered); smart rendering
  /// copies none.
  public var contactSheetFrames = 0
  /// editly's rules for its edit files (transitions clamped to half of either clip, cuts fitted
  /// into clip durations, sound by editly's mix).
  public var editly = false
  /// Whether the last item is shown to its end (a frame past the last transition's).
  public var includesEnd = false
  /// What identifies the whole render, for the part record of a partial one (the command line's
  /// canonical words); parts of one video share it.
  public var planWords: [String] = []
  /// Seconds a frame may take — none written for that long — before the render is stopped with
  /// `VideoError.frameTimeLimit` (a user shader that does not end, work beyond any budget); 0
  /// for no limit.
  public var frameTimeLimit: Double = 60

  public init() {}
}

/// A render request that cannot be carried out, in the library's words.
public enum RenderRequestError: AdvisedError, Equatable {
  /// A frame range or shard past the video's `count` frames.
  case framesBeyond(FrameSelection, count: Int, what: String)
  /// Sound tracks for an output that carries no sound.
  case soundNotCarried(format: VideoFormat)
  /// Custom encoder arguments for an output ffmpeg does not write.
  case customArgumentsUnused(path: String)
  /// A picture a shader paints, with no backend that runs GLSL.
  case needsGPU(cpuChosen: Bool)
  /// Smart rendering required and not possible.
  case smartDeclined(String)

  /// Whether the request, not the material, is at fault (the command line's usage errors).
  public var isUsage: Bool {
    switch self {
    case .framesBeyond, .soundNotCarried, .customArgumentsUnused, .smartDeclined: true
    case .needsGPU: false
    }
  }

  public func message(_ words: (Setting) -> String) -> String {
    switch self {
    case .framesBeyond(.range(let lower, let upper), let count, let what):
      "\(words(.frameRange)) \(lower)..\(upper.map(String.init) ?? ""): \(what) has frames 0..\(count)"
    case .framesBeyond(.shard(let index, let n), let count, let what):
      "\(words(.shard)) \(index)/\(n): \(what) has only \(count) frames"
    case .framesBeyond(_, let count, let what): "\(what) has \(count) frames"
    case .soundNotCarried(let format):
      "\(words(.soundTracks)): \(format == .png ? "PNG frames carry" : "a .\(format.rawValue) carries") no sound; "
        + "use .mp4, .webm, .mov or .mkv"
    case .customArgumentsUnused(let path): "customOutputArgs: \(path) is not written by ffmpeg"
    case .needsGPU(let cpuChosen):
      "a gl layer is a GLSL shader's picture, drawn on the GPU; "
        + (cpuChosen ? words(.gpuBackend) : "no GPU backend here")
    case .smartDeclined(let reason): "\(words(.smartRequired)): \(reason)"
    }
  }
}
