import Foundation

/// A particle system (CAEmitterLayer): its `emitterCells` give birth to particles at their
/// `birthRate`, from the emitter's shape, and each particle moves, grows, turns and changes colour
/// over its lifetime. The layer's own `birthRate`, `lifetime`, `velocity`, `scale` and `spin`
/// multiply every cell's.
///
/// Particles are a pure function of `seed` and the layer's time: each particle's random draws
/// come from a generator seeded by the seed, its cell and its index, never from a running state,
/// so frame 5 000 rendered alone, or on another shard, shows the particles a full render shows
/// there. Emission starts at the layer's time 0 (a cell's `beginTime` later). The particles are
/// made as plain layers of the presentation tree (`EmitterLayer+Particles`), drawn before the
/// layer's sublayers, so both backends draw them as any other layer.
open class EmitterLayer: Layer {
  /// Where particles come from: the shape's centre, in the layer's coordinates.
  open var emitterPosition: Point = .zero
  open var emitterZPosition: Double = 0
  /// The shape's size (a line's length is its width; a circle's diameter, its width).
  open var emitterSize: Size = .zero
  open var emitterDepth: Double = 0
  open var emitterShape: EmitterShape = .point
  open var emitterMode: EmitterMode = .volume
  open var renderMode: RenderMode = .unordered
  /// Kept for ported code: particles are flattened into the layer's plane, as sublayers are.
  open var preservesDepth = false
  /// The cells particles are made from (nil: none).
  open var emitterCells: [EmitterCell]?
  /// Multipliers of every cell's values (CA's defaults: 1).
  open var birthRate: Float = 1
  open var lifetime: Float = 1
  open var velocity: Float = 1
  open var scale: Float = 1
  open var spin: Float = 1
  /// The random numbers' seed: the same seed, the same particles.
  open var seed: UInt32 = 0
  /// Set on a presentation copy whose particles did not fit the frame's budget
  /// (`Limits.maxParticlesPerFrame`): the particles the frame would have shown by then. The
  /// builder refuses the frame, naming the layer.
  var particleOverflow: Int?

  /// CAEmitterLayerEmitterShape.
  public enum EmitterShape: String, CaseIterable, Sendable {
    case point, line, rectangle, cuboid, circle, sphere
  }

  /// CAEmitterLayerEmitterMode: particles come from the whole shape (volume), its edge
  /// (outline), its surface (for a cuboid or sphere; a rectangle's or circle's area), or its
  /// defining points (a line's ends, a rectangle's corners; a circle's and a point's centre).
  public enum EmitterMode: String, CaseIterable, Sendable {
    case points, outline, surface, volume
  }

  /// CAEmitterLayerRenderMode: the order particles are drawn in — by age (unordered and
  /// oldestFirst: the oldest first, under the newer; oldestLast: the newest first), back to
  /// front by depth — or added to what is behind (additive, drawn with the screen blend mode).
  public enum RenderMode: String, CaseIterable, Sendable {
    case unordered, oldestFirst, oldestLast, backToFront, additive
  }

  override func copyModelValues(from o: Layer) {
    super.copyModelValues(from: o)
    guard let e = o as? EmitterLayer else { return }
    (emitterPosition, emitterZPosition, emitterSize, emitterDepth) =
      (e.emitterPosition, e.emitterZPosition, e.emitterSize, e.emitterDepth)
    (emitterShape, emitterMode, renderMode, preservesDepth) = (
      e.emitterShape, e.emitterMode, e.renderMode, e.preservesDepth
    )
    emitterCells = e.emitterCells
    (birthRate, lifetime, velocity, scale, spin, seed) = (e.birthRate, e.lifetime, e.velocity, e.scale, e.spin, e.seed)
  }
}

/// One kind of particle (CAEmitterCell), with CA's defaults: how many a second, how long each
/// lives, how it leaves the emitter (velocity, emission angles), how it accelerates, grows, spins
/// and changes colour (each value ± its range, at random, and changing at its speed a second),
/// its picture, and cells its particles emit in turn. Open, as CAEmitterCell is to a subclass
/// that sets its values in `init()` (`class Confetti: EmitterCell`).
open class EmitterCell: @unchecked Sendable {
  open var name: String?
  open var isEnabled = true
  /// Particles a second.
  open var birthRate: Float = 0
  /// Seconds each particle lives, ± `lifetimeRange`.
  open var lifetime: Float = 0
  open var lifetimeRange: Float = 0
  /// The direction particles leave in: longitude is the angle in the x-y plane from the x axis
  /// (y down: positive angles turn towards +y), latitude the angle out of that plane;
  /// `emissionRange` the half-angle of the cone around it.
  open var emissionLatitude: Double = 0
  open var emissionLongitude: Double = 0
  open var emissionRange: Double = 0
  /// Points a second, ± `velocityRange`.
  open var velocity: Double = 0
  open var velocityRange: Double = 0
  /// Points a second a second.
  open var xAcceleration: Double = 0
  open var yAcceleration: Double = 0
  open var zAcceleration: Double = 0
  /// The picture's scale, ± `scaleRange`, changing by `scaleSpeed` a second.
  open var scale: Double = 1
  open var scaleRange: Double = 0
  open var scaleSpeed: Double = 0
  /// Radians a second, ± `spinRange`.
  open var spin: Double = 0
  open var spinRange: Double = 0
  /// Multiplies the picture's colours; each component ± its range, changing at its speed a
  /// second, within 0…1. Alpha is the particle's opacity.
  open var color: Color = .white
  open var redRange: Float = 0
  open var greenRange: Float = 0
  open var blueRange: Float = 0
  open var alphaRange: Float = 0
  open var redSpeed: Float = 0
  open var greenSpeed: Float = 0
  open var blueSpeed: Float = 0
  open var alphaSpeed: Float = 0
  /// The particle's picture; a cell without one draws nothing (its own cells still emit).
  open var contents: Image?
  /// Pixels a point of the picture (2 for a @2x image).
  open var contentsScale: Double = 1
  /// When the cell starts emitting, seconds of the layer's time (of its parent particle's life for
  /// a nested cell).
  open var beginTime: Double = 0
  /// The cell's own time runs this many times as fast as its layer's (CAMediaTiming's `speed`):
  /// particles are born, move and age at that pace; 0 holds them where they are.
  open var speed: Float = 1
  /// Seconds added to the cell's own time (CAMediaTiming's `timeOffset`): emission as it stood
  /// that much later.
  open var timeOffset: Double = 0
  /// CAMediaTiming's other properties, kept as Core Animation code sets them; a cell emits for as
  /// long as its layer draws, so they change nothing drawn.
  open var duration: Double = 0
  open var repeatCount: Float = 0
  open var repeatDuration: Double = 0
  open var autoreverses = false
  open var fillMode: FillMode = .removed
  /// Cells each particle of this cell emits from where it is.
  open var emitterCells: [EmitterCell]?

  /// Tinted pictures, by colour (8 bits a component): made once, shared by frames.
  let tinted = Locked([SIMD3<Int>: Image]())

  public init() {}

  /// CAEmitterCell's `init?(coder:)`, so a subclass's `required init?(coder:)` and
  /// `super.init(coder:)` compile; nothing is read from the coder (CA's defaults, as `init()`).
  public required init?(coder: NSCoder) {}
}
