/// The documented bounds on the numbers LayerKit takes — from code, scene files and the command
/// line — checked before any work, each with one message naming the value's place and the bound
/// (docs/REFERENCE.md: Limits). Within them nothing traps, allocates without bound or runs for hours.
public enum Limits {
  /// The longest a hold, a transition, an animation's duration or a video lasts: 24 hours.
  public static let maxSeconds: Double = 86_400
  /// The highest frame rate.
  public static let maxFramesPerSecond: Double = 1_000
  /// The lowest frame rate: a frame every 1 000 s.
  public static let minFramesPerSecond: Double = 0.001
  /// The frame rates a video may have, from the command line and scene files alike.
  public static let framesPerSecond: ClosedRange<Double> = minFramesPerSecond...maxFramesPerSecond
  /// The most frames one video has.
  public static let maxFrames = 10_000_000

  /// The frames of a video `seconds` long at `fps` frames a second — round(seconds × fps), at
  /// least 1 — or the message saying why there is no such video: a duration beyond `maxSeconds`,
  /// a rate outside `framesPerSecond`, more than `maxFrames` frames. `name` names the duration.
  public static func frameCount(seconds: Double, fps: Double, name: String = "the duration") -> Result<Int, Problem> {
    if let problem = problem(seconds, name, in: 0...maxSeconds, unit: "seconds") { return .failure(Problem(problem)) }
    if let problem = problem(fps, "the frame rate", in: framesPerSecond) { return .failure(Problem(problem)) }
    let frames = (seconds * fps).rounded()
    guard frames <= Double(maxFrames) else {
      return .failure(
        Problem(
          "\(name) of \(format(seconds)) s at \(format(fps)) fps is \(Int(frames)) frames; a video has at most "
            + "\(maxFrames)"))
    }
    return .success(max(1, Int(frames)))
  }

  /// Why a number is out of bounds, in one line naming it and the bound.
  public struct Problem: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
  }
  /// The largest coordinate, size or offset, in points (positions, bounds, shadow offsets,
  /// path points): beyond it Float pixel arithmetic loses whole pixels.
  public static let maxCoordinate: Double = 1_000_000
  /// The largest blur radius (a Gaussian's standard deviation) and shadow radius, in points: a
  /// blur's cost grows with its radius, and at 250 points a 1080p frame's blur takes about a
  /// second on the CPU.
  public static let maxBlurRadius: Double = 250
  /// The most characters (Unicode scalars) one text layer lays out: a frame shows a few thousand
  /// at most, and shaping and breaking a few megabytes of text takes minutes.
  public static let maxTextLength = 20_000
  /// The most copies a replicator draws of its sublayers, counting replicators inside
  /// replicators (their `instanceCount`s multiplied): 10 000 one-pixel instances build and draw
  /// in about a second; a million took minutes and gigabytes.
  public static let maxReplicatedInstances = 10_000
  /// The most particles one frame shows, every emitter and every replicated instance of one
  /// together (one emitter alone shows at most `EmitterLayer.maxParticles`): a frame past it is
  /// refused by name, once the budget is spent, before more particles are worked out — a
  /// replicator of 10 000 emitters once took gigabytes before its first frame.
  public static let maxParticlesPerFrame = 200_000
  /// The most particles worked out (alive or not) for one frame, every emitter together.
  public static let maxParticleVisitsPerFrame = 4_000_000
  /// The most bytes of whole RGBA frames a video render keeps in flight at once, besides the
  /// renderer's own surfaces: frames drawn and waiting, being converted or compressed, converted
  /// and waiting, being written, and the frames a GPU draws ahead and reads back through its
  /// ring (three). Big frames mean fewer in flight: at 1080p (8 MiB a frame) the queues are as
  /// deep as the workers can use and the GPU draws ahead; at 16384×4096 (256 MiB) one frame is
  /// converted while the next is drawn and none is drawn ahead — a GPU transition at that size
  /// took 2.1 GB, and over 3 GB with the encoder's.
  public static let frameMemory = 1 << 30

  /// Whole frames of `frameBytes` that fit `frameMemory`, at least one.
  public static func framesInFlight(frameBytes: Int) -> Int { max(1, frameMemory / max(frameBytes, 1)) }

  /// A number that must lie in `range`: nil when it does, else the message for `name`.
  public static func problem(_ value: Double, _ name: String, in range: ClosedRange<Double>, unit: String = "")
    -> String?
  {
    if value.isFinite && range.contains(value) { return nil }
    let u = unit.isEmpty ? "" : " \(unit)"
    return
      "\(name) must be a number from \(format(range.lowerBound)) to \(format(range.upperBound))\(u), not \(format(value))"
  }

  /// A bound as people write it: 86400, 0.5, 1e+06.
  public static func format(_ v: Double) -> String {
    if !v.isFinite { return v.isNaN ? "nan" : (v > 0 ? "infinity" : "-infinity") }
    if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return "\(v)"
  }
}
