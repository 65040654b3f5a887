import Foundation

/// The particles of an emitter at a time, worked out from nothing but the seed and the time:
/// cell c's particle i is born at `beginTime + i / rate` and draws its random values (lifetime,
/// place on the shape, direction, speed, scale, spin, colour) from a generator seeded by (seed,
/// c, i), in a fixed order. Only the particles that can be alive are visited, so a late frame
/// costs what an early one does.
extension EmitterLayer {
  /// The most particles one emitter shows at a time; past it, the newest are shown.
  public static let maxParticles = 50_000
  /// The most particles (alive or not, nested cells' parents included) worked out for one time:
  /// past it the rest are not visited, so no birth rate makes a frame take without bound.
  public static let maxVisits = 1_000_000

  /// A particle alive at the time asked for.
  struct Particle {
    var birth: Double
    var position: SIMD3<Double>
    var scale: Double
    var angle: Double
    var color: SIMD4<Double>
    var cell: EmitterCell
  }

  /// Where a parent particle is at an age, for the cells it emits.
  struct Parent {
    var birth: Double
    var lifetime: Double
    var position: (Double) -> SIMD3<Double>
  }

  /// What one frame may still spend on particles, shared by every emitter of its presentation
  /// tree (`Limits.maxParticlesPerFrame`, `Limits.maxParticleVisitsPerFrame`).
  final class FrameBudget {
    var shown = Limits.maxParticlesPerFrame
    var visits = Limits.maxParticleVisitsPerFrame
  }

  /// The particles at the layer's local `time`, as layers in drawing order, taken from the
  /// frame's `budget`; none, with `particleOverflow` set to how many it would show, when the
  /// frame's budget cannot hold them.
  /// - Parameter replicated: how many copies of the emitter the replicators around it draw:
  ///   its particles times that must fit, so a frame of 10 000 replicated emitters is refused at
  ///   the first, before any particle is made a layer.
  func particleLayers(at time: Double, budget frame: FrameBudget = FrameBudget(), replicated: Int = 1) -> [Layer] {
    guard let cells = emitterCells, time.isFinite, time >= 0 else { return [] }
    // The frame's budget spent by the emitters before: the frame is refused anyway.
    guard frame.shown > 0 else {
      particleOverflow = Limits.maxParticlesPerFrame + 1
      return []
    }
    var particles: [Particle] = []
    var budget = min(Self.maxVisits, frame.visits)
    defer { frame.visits -= min(Self.maxVisits, frame.visits) - budget }
    for (c, cell) in cells.enumerated() {
      emit(cell, key: UInt64(c + 1), parent: nil, time: time, depth: 0, budget: &budget, into: &particles)
    }
    switch renderMode {
    case .unordered, .oldestFirst, .additive: particles.sort { $0.birth < $1.birth }
    case .oldestLast: particles.sort { $0.birth > $1.birth }
    case .backToFront: particles.sort { ($0.position.z, $0.birth) < ($1.position.z, $1.birth) }
    }
    if particles.count > Self.maxParticles {
      let newest = particles.indices.sorted { particles[$0].birth > particles[$1].birth }.prefix(Self.maxParticles)
      let keep = Set(newest)
      particles = particles.indices.filter(keep.contains).map { particles[$0] }
    }
    let (needed, overflow) = particles.count.multipliedReportingOverflow(by: max(replicated, 1))
    guard !overflow, needed <= frame.shown else {
      particleOverflow = overflow ? Int.max : Limits.maxParticlesPerFrame - frame.shown + needed
      frame.shown = 0
      return []
    }
    frame.shown -= particles.count
    return particles.compactMap(layer(of:))
  }

  /// The particles of `cell` (and of the cells they emit) alive at `time`.
  private func emit(
    _ cell: EmitterCell, key: UInt64, parent: Parent?, time: Double, depth: Int, budget: inout Int,
    into particles: inout [Particle]
  ) {
    let rate = Double(cell.birthRate) * Double(birthRate)
    guard cell.isEnabled, depth < 4, rate.isFinite, rate > 0 else { return }
    let lifeScale = Double(lifetime)
    let maxLife = max(0, (Double(cell.lifetime) + abs(Double(cell.lifetimeRange))) * lifeScale)
    // A particle's own cells keep emitting only while it lives; their particles outlive it.
    let childLife =
      (cell.emitterCells ?? []).map { max(0, (Double($0.lifetime) + abs(Double($0.lifetimeRange))) * lifeScale) }
      .max() ?? 0
    let start = (parent?.birth ?? 0) + cell.beginTime
    // The cell's own time: its speed and offset from where it starts.
    let time = start + (time - start) * Double(cell.speed) + cell.timeOffset
    guard time.isFinite else { return }
    let end = min(time, parent.map { $0.birth + $0.lifetime } ?? .infinity)
    guard end >= start else { return }
    let last = ((end - start) * rate + 1e-9).rounded(.down)
    let first = max(0, ((time - maxLife - childLife - start) * rate - 1e-9).rounded(.up))
    // Particle numbers are counted back from the newest, so any birth rate at any time has its
    // newest particles (1e12 a second at t = 1000 s is particle 1e15). Past 2^53 the numbers
    // are no longer whole, but stay what seeds them: the same time gives the same particles.
    guard last >= first, last < 9e18 else { return }
    let count = Int(min(last - first, Double(Self.maxParticles * 4))) + 1
    for k in 0..<count {
      guard budget > 0 else { return }
      budget -= 1
      let number = last - Double(count - 1 - k)
      let i = UInt64(number)
      let birth = start + number / rate
      if let parent, birth >= parent.birth + parent.lifetime { break }
      var random = SeededRandom(seed: Self.mix(UInt64(seed), key, i))
      func u() -> Double { random.double(in: -1...1) }
      let life = max(0, (Double(cell.lifetime) + Double(cell.lifetimeRange) * u()) * lifeScale)
      let origin =
        parent.map { $0.position(birth - $0.birth) }
        ?? SIMD3(emitterPosition.x, emitterPosition.y, emitterZPosition) + shapeOffset(&random)
      let longitude = cell.emissionLongitude + cell.emissionRange * u()
      let latitude = cell.emissionLatitude + cell.emissionRange * u()
      let direction = SIMD3(cos(latitude) * cos(longitude), cos(latitude) * sin(longitude), sin(latitude))
      let speed = (cell.velocity + cell.velocityRange * u()) * Double(velocity)
      let acceleration = SIMD3(cell.xAcceleration, cell.yAcceleration, cell.zAcceleration)
      let scale0 = cell.scale + cell.scaleRange * u()
      let turn = (cell.spin + cell.spinRange * u()) * Double(spin)
      let ranges = SIMD4(
        Double(cell.redRange), Double(cell.greenRange), Double(cell.blueRange), Double(cell.alphaRange))
      let color0 =
        SIMD4(cell.color.red, cell.color.green, cell.color.blue, cell.color.alpha)
        + ranges * SIMD4(u(), u(), u(), u())
      let motion = direction * speed
      let place = { (age: Double) in origin + motion * age + 0.5 * acceleration * age * age }
      let age = time - birth
      if age < life, cell.contents != nil {
        let speeds = SIMD4(
          Double(cell.redSpeed), Double(cell.greenSpeed), Double(cell.blueSpeed), Double(cell.alphaSpeed))
        let color = (color0 + speeds * age).clamped(lowerBound: .zero, upperBound: .one)
        particles.append(
          Particle(
            birth: birth, position: place(age), scale: max(0, (scale0 + cell.scaleSpeed * age) * Double(scale)),
            angle: turn * age, color: color, cell: cell))
      }
      for (s, sub) in (cell.emitterCells ?? []).enumerated() {
        emit(
          sub, key: key &* 131 &+ UInt64(s + 1), parent: Parent(birth: birth, lifetime: life, position: place),
          time: time, depth: depth + 1, budget: &budget, into: &particles)
      }
    }
  }

  /// A random place on the emitter's shape, relative to its centre, as `emitterMode` says.
  private func shapeOffset(_ random: inout SeededRandom) -> SIMD3<Double> {
    let half = SIMD3(emitterSize.width / 2, emitterSize.height / 2, emitterDepth / 2)
    func u() -> Double { random.double(in: -1...1) }
    func sign() -> Double { random.bool() ? 1 : -1 }
    switch (emitterShape, emitterMode) {
    case (.point, _): return .zero
    case (.line, .points): return SIMD3(half.x * sign(), 0, 0)
    case (.line, _): return SIMD3(half.x * u(), 0, 0)
    case (.rectangle, .points): return SIMD3(half.x * sign(), half.y * sign(), 0)
    case (.rectangle, .outline):
      // A point on the perimeter, the sides by their lengths.
      let along = random.double(in: 0...1) * 2 * (half.x + half.y)
      let s = sign()
      return along < 2 * half.x
        ? SIMD3(along - half.x, s * half.y, 0) : SIMD3(s * half.x, along - 2 * half.x - half.y, 0)
    case (.rectangle, _): return SIMD3(half.x * u(), half.y * u(), 0)
    case (.cuboid, .points): return SIMD3(half.x * sign(), half.y * sign(), half.z * sign())
    case (.cuboid, .volume): return SIMD3(half.x * u(), half.y * u(), half.z * u())
    case (.cuboid, _):
      // On a face: one coordinate at its bound.
      var p = SIMD3(half.x * u(), half.y * u(), half.z * u())
      let axis = random.int(3)
      p[axis] = half[axis] * sign()
      return p
    case (.circle, .points), (.sphere, .points): return .zero
    case (.circle, .outline):
      let a = random.double(in: 0...(2 * .pi))
      return SIMD3(half.x * cos(a), half.x * sin(a), 0)
    case (.circle, _):
      let a = random.double(in: 0...(2 * .pi))
      let r = half.x * random.double(in: 0...1).squareRoot()
      return SIMD3(r * cos(a), r * sin(a), 0)
    case (.sphere, _):
      let z = u()
      let a = random.double(in: 0...(2 * .pi))
      let ring = (1 - z * z).squareRoot()
      let r = emitterMode == .volume ? half.x * cbrt(random.double(in: 0...1)) : half.x
      return SIMD3(r * ring * cos(a), r * ring * sin(a), r * z)
    }
  }

  /// A particle as a layer: its cell's picture at its size and scale, turned, tinted by its
  /// colour, its alpha the layer's opacity; added onto what lies behind in the additive mode
  /// (Core Animation's "source-additive compositing").
  private func layer(of p: Particle) -> Layer? {
    guard let image = p.cell.contents, image.width > 0, image.height > 0, p.scale > 0, p.color.w > 0 else {
      return nil
    }
    let cellScale = p.cell.contentsScale > 0 ? p.cell.contentsScale : 1
    let layer = Layer()
    layer.bounds = Rect(x: 0, y: 0, width: Double(image.width) / cellScale, height: Double(image.height) / cellScale)
    layer.position = Point(x: p.position.x, y: p.position.y)
    layer.zPosition = p.position.z
    layer.transform = Transform3D(rotationAngle: p.angle, x: 0, y: 0, z: 1).concatenating(
      Transform3D(scaleX: p.scale, y: p.scale))
    layer.opacity = p.color.w
    layer.contents = Self.tinted(p.cell, image, SIMD3(p.color.x, p.color.y, p.color.z))
    if renderMode == .additive { layer.compositingFilter = .plusLighter }
    return layer
  }

  /// The cell's picture with its colours multiplied by `rgb` (8 bits a component, made once per
  /// colour and cell, a few thousand colours kept).
  static func tinted(_ cell: EmitterCell, _ image: Image, _ rgb: SIMD3<Double>) -> Image {
    let q = SIMD3<Int>((rgb * 255).rounded(.toNearestOrAwayFromZero))
    if q == SIMD3(repeating: 255) { return image }
    if let made = cell.tinted.withLock({ $0[q] }) { return made }
    let m = SIMD3<Double>(q) / 255
    var pixels = image.pixels
    for o in stride(from: 0, to: pixels.count, by: 4) {
      pixels[o] = UInt8((Double(pixels[o]) * m.x).rounded())
      pixels[o + 1] = UInt8((Double(pixels[o + 1]) * m.y).rounded())
      pixels[o + 2] = UInt8((Double(pixels[o + 2]) * m.z).rounded())
    }
    let made = (try? Image(width: image.width, height: image.height, pixels: pixels)) ?? image
    cell.tinted.withLock {
      if $0.count >= 4096 { $0.removeAll() }
      $0[q] = made
    }
    return made
  }

  /// One generator state from the seed, the cell's key and the particle's index.
  static func mix(_ a: UInt64, _ b: UInt64, _ c: UInt64) -> UInt64 {
    var g = SeededRandom(seed: a)
    var h = g.next() ^ b
    g = SeededRandom(seed: h)
    h = g.next() ^ c
    g = SeededRandom(seed: h)
    return g.next()
  }
}
