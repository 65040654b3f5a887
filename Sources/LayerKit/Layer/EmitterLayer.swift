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
  public var emitterPosition: Point = .zero
  public var emitterZPosition: Double = 0
  /// The shape's size (a line's length is its width; a circle's diameter, its width).
  public var emitterSize: Size = .zero
  public var emitterDepth: Double = 0
  public var emitterShape: EmitterShape = .point
  public var emitterMode: EmitterMode = .volume
  public var renderMode: RenderMode = .unordered
  /// Kept for ported code: particles are flattened into the layer's plane, as sublayers are.
  public var preservesDepth = false
  /// The cells particles are made from (nil: none).
  public var emitterCells: [EmitterCell]?
  /// Multipliers of every cell's values (CA's defaults: 1).
  public var birthRate: Float = 1
  public var lifetime: Float = 1
  public var velocity: Float = 1
  public var scale: Float = 1
  public var spin: Float = 1
  /// The random numbers' seed: the same seed, the same particles.
  public var seed: UInt32 = 0
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
  public var name: String?
  public var isEnabled = true
  /// Particles a second.
  public var birthRate: Float = 0
  /// Seconds each particle lives, ± `lifetimeRange`.
  public var lifetime: Float = 0
  public var lifetimeRange: Float = 0
  /// The direction particles leave in: longitude is the angle in the x-y plane from the x axis
  /// (y down: positive angles turn towards +y), latitude the angle out of that plane;
  /// `emissionRange` the half-angle of the cone around it.
  public var emissionLatitude: Double = 0
  public var emissionLongitude: Double = 0
  public var emissionRange: Double = 0
  /// Points a second, ± `velocityRange`.
  public var velocity: Double = 0
  public var velocityRange: Double = 0
  /// Points a second a second.
  public var xAcceleration: Double = 0
  public var yAcceleration: Double = 0
  public var zAcceleration: Double = 0
  /// The picture's scale, ± `scaleRange`, changing by `scaleSpeed` a second.
  public var scale: Double = 1
  public var scaleRange: Double = 0
  public var scaleSpeed: Double = 0
  /// Radians a second, ± `spinRange`.
  public var spin: Double = 0
  public var spinRange: Double = 0
  /// Multiplies the picture's colours; each component ± its range, changing at its speed a
  /// second, within 0…1. Alpha is the particle's opacity.
  public var color: Color = .white
  public var redRange: Float = 0
  public var greenRange: Float = 0
  public var blueRange: Float = 0
  public var alphaRange: Float = 0
  public var redSpeed: Float = 0
  public var greenSpeed: Float = 0
  public var blueSpeed: Float = 0
  public var alphaSpeed: Float = 0
  /// The particle's picture; a cell without one draws nothing (its own cells still emit).
  public var contents: Image?
  /// Pixels a point of the picture (2 for a @2x image).
  public var contentsScale: Double = 1
  /// When the cell starts emitting, seconds of the layer's time (of its parent particle's life for
  /// a nested cell).
  public var beginTime: Double = 0
  /// Cells each particle of this cell emits from where it is.
  public var emitterCells: [EmitterCell]?

  /// Tinted pictures, by colour (8 bits a component): made once, shared by frames.
  let tinted = Locked([SIMD3<Int>: Image]())

  public init() {}

  /// CAEmitterCell's `init?(coder:)`, so a subclass's `required init?(coder:)` and
  /// `super.init(coder:)` compile; nothing is read from the coder (CA's defaults, as `init()`).
  public required init?(coder: NSCoder) {}
}
