import Foundation
import LayerKit
import LayerKitReference
import LayerKitTesting
import XCTest

/// EmitterLayer and EmitterCell (CAEmitterLayer, CAEmitterCell): CA's defaults, the documented
/// kinematics (particles born at birthRate, living lifetime, moving at velocity along the
/// emission angle under acceleration, scaling at scaleSpeed, fading at alphaSpeed), the layer's
/// multipliers, particles as a pure function of seed and time, and both backends alike.
final class EmitterLayerTests: ParityTestCase {
  /// A white square picture, 4 × 4 pixels.
  func dot() throws -> Image { try Image(width: 4, height: 4, color: .white) }

  func emitter(_ cell: EmitterCell) -> EmitterLayer {
    let e = EmitterLayer()
    e.frame = Rect(x: 0, y: 0, width: 100, height: 100)
    e.emitterPosition = Point(x: 10, y: 20)
    e.emitterCells = [cell]
    return e
  }

  /// The particles of a presentation: its sublayers that are not the model's.
  func particles(_ e: EmitterLayer, at t: Double) -> [Layer] { e.presentation(at: t).sublayers ?? [] }

  func testDefaultsAreCoreAnimations() {
    let cell = EmitterCell()
    XCTAssertEqual(cell.birthRate, 0)
    XCTAssertEqual(cell.lifetime, 0)
    XCTAssertEqual(cell.scale, 1)
    XCTAssertEqual(cell.color, .white)
    XCTAssertTrue(cell.isEnabled)
    XCTAssertEqual(cell.contentsScale, 1)
    let layer = EmitterLayer()
    XCTAssertEqual([layer.birthRate, layer.lifetime, layer.velocity, layer.scale, layer.spin], [1, 1, 1, 1, 1])
    XCTAssertEqual(layer.emitterShape, .point)
    XCTAssertEqual(layer.emitterMode, .volume)
    XCTAssertEqual(layer.renderMode, .unordered)
    XCTAssertEqual(layer.seed, 0)
    XCTAssertTrue(particles(emitter(cell), at: 5).isEmpty, "a birth rate of 0 emits nothing")
  }

  /// One a second from t = 0, each moving at 10 points a second along +x (longitude 0) and
  /// falling at 2 points a second a second: at 2.5 s there are three, the first at
  /// p0 + (10 · 2.5, ½ · 2 · 2.5²).
  func testParticlesMoveAsTheirCellSays() throws {
    let cell = EmitterCell()
    cell.contents = try dot()
    cell.birthRate = 1
    cell.lifetime = 10
    cell.velocity = 10
    cell.yAcceleration = 2
    cell.scaleSpeed = 0.2
    cell.alphaSpeed = -0.2
    cell.spin = 1
    let e = emitter(cell)
    let p = particles(e, at: 2.5)
    XCTAssertEqual(p.count, 3)
    let oldest = p[0]
    XCTAssertEqual(oldest.position.x, 10 + 25, accuracy: 1e-9)
    XCTAssertEqual(oldest.position.y, 20 + 6.25, accuracy: 1e-9)
    XCTAssertEqual(oldest.opacity, 0.5, accuracy: 1e-6, "alpha 1 − 0.2 · 2.5 (a Float speed)")
    XCTAssertEqual(oldest.transform.m11, 1.5 * cos(2.5), accuracy: 1e-9, "scale 1 + 0.2 · 2.5, turned 2.5 rad")
    XCTAssertEqual(oldest.bounds.size, Size(width: 4, height: 4))
    XCTAssertEqual(p[2].position.x, 10 + 5, accuracy: 1e-9, "the newest, born at 2 s")
  }

  /// A particle lives `lifetime` seconds: with 2 a second and 1.5 s each, at 3 s those born at
  /// 2, 2.5 and 3 s are alive (the one born at 1.5 s has just gone). The layer's multipliers:
  /// birthRate 2 doubles them, lifetime 2 doubles how long they stay.
  func testLifetimeAndTheLayersMultipliers() throws {
    let cell = EmitterCell()
    cell.contents = try dot()
    cell.birthRate = 2
    cell.lifetime = 1.5
    let e = emitter(cell)
    XCTAssertEqual(particles(e, at: 3).count, 3)
    e.birthRate = 2
    XCTAssertEqual(particles(e, at: 3).count, 6)
    e.birthRate = 1
    e.lifetime = 2
    XCTAssertEqual(particles(e, at: 3).count, 6)
  }

  /// Frame 5 000 alone shows what it shows after every frame before it, on a new layer with the
  /// same seed too; another seed, other particles.
  func testParticlesAreAPureFunctionOfSeedAndTime() throws {
    func make(seed: UInt32) throws -> EmitterLayer {
      let cell = EmitterCell()
      cell.contents = try dot()
      cell.birthRate = 50
      cell.lifetime = 2
      cell.lifetimeRange = 1
      cell.velocity = 30
      cell.velocityRange = 20
      cell.emissionRange = .pi
      cell.redRange = 0.5
      let e = emitter(cell)
      e.emitterShape = .circle
      e.emitterSize = Size(width: 40, height: 40)
      e.seed = seed
      return e
    }
    let t = 5_000.0 / 30
    let walked = try make(seed: 7)
    for k in stride(from: 0, to: 5_000, by: 250) { _ = particles(walked, at: Double(k) / 30) }
    let late = particles(walked, at: t).map(\.position)
    XCTAssertGreaterThan(late.count, 50)
    XCTAssertEqual(particles(try make(seed: 7), at: t).map(\.position), late)
    XCTAssertNotEqual(particles(try make(seed: 8), at: t).map(\.position), late)
  }

  /// The emitter's shapes: a line's particles lie along its width, a circle's outline at its
  /// radius from the centre.
  func testShapesAndModes() throws {
    let cell = EmitterCell()
    cell.contents = try dot()
    cell.birthRate = 100
    cell.lifetime = 1
    let e = emitter(cell)
    e.emitterShape = .line
    e.emitterSize = Size(width: 60, height: 0)
    let line = particles(e, at: 0.5)
    XCTAssertTrue(line.allSatisfy { abs($0.position.y - 20) < 1e-9 && abs($0.position.x - 10) <= 30 })
    XCTAssertGreaterThan(Set(line.map { Int($0.position.x) }).count, 20, "spread along the line")
    e.emitterShape = .circle
    e.emitterMode = .outline
    for p in particles(e, at: 0.5) {
      XCTAssertEqual(hypot(p.position.x - 10, p.position.y - 20), 30, accuracy: 1e-9)
    }
  }

  /// A cell's particles emit their own cells' particles from where they are.
  func testNestedCellsEmitFromTheirParticles() throws {
    let spark = EmitterCell()
    spark.contents = try dot()
    spark.birthRate = 4
    spark.lifetime = 0.5
    let rocket = EmitterCell()
    rocket.birthRate = 1
    rocket.lifetime = 1
    rocket.velocity = 100
    rocket.emitterCells = [spark]
    let e = emitter(rocket)
    // No contents: the rocket itself draws nothing; its sparks, born every 0.25 s of its life,
    // do — each where the rocket was then. At 0.6 s those born at 0.25 and 0.5 s live.
    let p = particles(e, at: 0.6)
    XCTAssertEqual(p.map { $0.position.x - 10 }, [25, 50])
  }

  /// No birth rate makes a frame take without bound: nested cells emitting at huge rates stop at
  /// `maxVisits` particles worked out, the newest `maxParticles` shown.
  func testHugeRatesAreBounded() throws {
    let spark = EmitterCell()
    spark.contents = try dot()
    spark.birthRate = 1_000_000
    spark.lifetime = 10
    let rocket = EmitterCell()
    rocket.birthRate = 1_000_000
    rocket.lifetime = 10
    rocket.emitterCells = [spark]
    let e = emitter(rocket)
    let shown = particles(e, at: 5)
    XCTAssertLessThanOrEqual(shown.count, EmitterLayer.maxParticles)
    XCTAssertGreaterThan(shown.count, 0)
  }

  /// A million a second from a layer rate of a million (1e12 a second) has its newest particles
  /// at any time: once nothing was drawn from t = 1000 s (particle numbers past 1e15).
  func testAnyBirthRateHasParticlesAtAnyTime() throws {
    let cell = EmitterCell()
    cell.contents = try dot()
    cell.birthRate = 1_000_000
    cell.lifetime = 1
    let e = emitter(cell)
    e.birthRate = 1_000_000
    for t in [1.0, 999.9, 1000.1, 50_000] {
      let shown = particles(e, at: t)
      XCTAssertEqual(shown.count, EmitterLayer.maxParticles, "at \(t) s")
    }
  }

  /// The frame's particle budget holds every emitter and every replicated copy together: a
  /// replicator of 10 000 emitters is refused at its first copy, naming the layer, before any
  /// particle is made a layer (it once took gigabytes).
  func testReplicatedEmittersAreRefusedPastTheFramesBudget() throws {
    let cell = EmitterCell()
    cell.contents = try dot()
    cell.birthRate = 1000
    cell.lifetime = 10
    let e = emitter(cell)
    e.name = "sparks"
    let replicator = ReplicatorLayer()
    replicator.frame = Rect(x: 0, y: 0, width: 100, height: 100)
    replicator.instanceCount = 10_000
    replicator.addSublayer(e)
    let root = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    root.addSublayer(replicator)
    XCTAssertThrowsError(try RenderList(layer: root.presentation(at: 1), width: 100, height: 100)) { error in
      guard case RenderError.outOfRange(let layer, let property, let value, let limit)? = error as? RenderError else {
        return XCTFail("expected outOfRange, got \(error)")
      }
      XCTAssertTrue(layer.contains("sparks"), layer)
      XCTAssertTrue(property.hasPrefix("particles in one frame"), property)
      // 1 001 particles by t = 1 s (one at t = 0), times the copies.
      XCTAssertEqual(value, 1001 * 10_000)
      XCTAssertEqual(limit, Double(Limits.maxParticlesPerFrame))
    }
    // Ten copies fit.
    replicator.instanceCount = 10
    XCTAssertNoThrow(try RenderList(layer: root.presentation(at: 1), width: 100, height: 100))
  }

  /// A tinted particle multiplies its picture's colours; the layer draws the same on both backends.
  func testAnEmitterRendersAlikeOnBothBackends() throws {
    let cell = EmitterCell()
    cell.contents = try Image(width: 8, height: 8, color: .white)
    cell.birthRate = 30
    cell.lifetime = 3
    cell.velocity = 20
    cell.velocityRange = 10
    cell.emissionRange = .pi
    cell.color = Color(red: 1, green: 0.5, blue: 0.25, alpha: 1)
    cell.spin = 2
    cell.alphaSpeed = -0.2
    let e = emitter(cell)
    e.emitterPosition = Point(x: 50, y: 50)
    let root = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    _ = root.addSublayer(e)
    let out = try ReferenceRenderer(threadCount: 1).render(
      try RenderList(layer: root.presentation(at: 0.05), width: 100, height: 100))
    let centre = (50 * 100 + 50) * 4
    // Two nearly opaque particles (alpha 0.99) one over the other, in 8 bits: within a level.
    for (got, tint) in zip(out.pixels[centre..<centre + 3].map(Int.init), [255, 128, 64]) {
      XCTAssertEqual(got, tint, accuracy: 1, "tinted by the cell's colour")
    }
    XCTAssertParity(checker, root.presentation(at: 2), width: 100, height: 100, name: "emitter")
  }

  /// The additive mode adds each particle onto what lies behind (Core Animation's
  /// "source-additive compositing"): two particles in one place on black give twice the
  /// colour, and each is one draw that blends in place, with no offscreen surface.
  func testAdditiveParticlesAddOntoWhatLiesBehind() throws {
    let cell = EmitterCell()
    cell.contents = try Image(width: 8, height: 8, color: .white)
    cell.birthRate = 1
    cell.lifetime = 10
    cell.color = Color(red: 0.4, green: 0.2, blue: 0.1, alpha: 1)
    let e = emitter(cell)
    e.renderMode = .additive
    e.emitterPosition = Point(x: 50, y: 50)
    let root = Layer(frame: Rect(x: 0, y: 0, width: 100, height: 100))
    root.backgroundColor = .black
    root.addSublayer(e)
    // Born at t = 0 and t = 1, standing still.
    let list = try RenderList(layer: root.presentation(at: 1.5), width: 100, height: 100)
    let added = list.ops.filter { op in
      if case .draw(let d) = op { return d.blendMode == .plusLighter }
      return false
    }
    XCTAssertEqual(added.count, 2)
    for op in list.ops {
      switch op {
      case .pushGroup, .copyBackdrop: XCTFail("an additive particle needs no surface: \(op)")
      default: break
      }
    }
    let out = try ReferenceRenderer(threadCount: 1).render(list)
    let centre = (50 * 100 + 50) * 4
    // The tinted picture is (102, 51, 26): 0.1 × 255 = 25.5 rounds up.
    XCTAssertEqual(Array(out.pixels[centre..<centre + 4]).map(Int.init), [204, 102, 52, 255])
    XCTAssertParity(checker, root.presentation(at: 1.5), width: 100, height: 100, name: "emitter-additive")
  }

  /// At their caps an additive and a source-over emitter show 50 000 particles each, the
  /// newest, and both backends draw them alike: every pixel within the parity contract, where
  /// blending in Float once drifted tens of levels under the overdraw.
  func testEmittersAtTheirCapsRenderAlikeOnBothBackends() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 64, height: 36))
    root.backgroundColor = Color(red: 0, green: 0, blue: 0.1)
    for mode in [EmitterLayer.RenderMode.additive, .oldestFirst] {
      let cell = EmitterCell()
      cell.contents = try Image(width: 2, height: 2, color: .white)
      cell.birthRate = 100_000
      cell.lifetime = 10
      cell.velocity = 12
      cell.velocityRange = 12
      cell.emissionRange = .pi
      cell.color = Color(red: 1, green: 0.5, blue: 0.2, alpha: 0.04)
      cell.alphaRange = 0.02
      let e = emitter(cell)
      e.renderMode = mode
      e.emitterPosition = Point(x: mode == .additive ? 20 : 44, y: 18)
      root.addSublayer(e)
    }
    let frame = root.presentation(at: 1)
    XCTAssertEqual(
      frame.sublayers?.map { $0.sublayers?.count ?? 0 }, [EmitterLayer.maxParticles, EmitterLayer.maxParticles])
    XCTAssertParity(checker, frame, width: 64, height: 36, name: "emitters-at-their-caps")
  }
}
