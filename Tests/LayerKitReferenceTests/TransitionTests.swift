import LayerKit
import LayerKitSamples
import LayerKitTesting
import XCTest

@testable import LayerKitReference

/// Core Animation's transition types on the CPU reference (the GPU is held to the same in the
/// GL parity tests).
final class TransitionTests: XCTestCase {
  let cpu = ReferenceRenderer(threadCount: 2)

  func picture(_ hue: Double) throws -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 30))
    l.contents = try SampleScene.testImage(width: 40, height: 30, hue: hue)
    return l
  }

  func frame(_ effect: String, _ direction: SIMD2<Float>?, _ p: Double) throws -> Image {
    let params: [String: TransitionValue] = direction.map { ["direction": .vec2($0)] } ?? [:]
    return try cpu.render(
      RenderList(
        transitionFrom: picture(0), to: picture(0.5), width: 40, height: 30, effect: effect, parameters: params,
        progress: p))
  }

  func testProgressZeroAndOneAreExactlyTheEndImages() throws {
    // gl-transitions' rule: progress 0 is the from-image, progress 1 the to-image, every byte.
    let from = try cpu.render(picture(0), width: 40, height: 30)
    let to = try cpu.render(picture(0.5), width: 40, height: 30)
    for type in TransitionType.allCases {
      let directions: [SIMD2<Float>?] =
        type == .fade ? [nil] : TransitionSubtype.allCases.map { TransitionEffects.direction($0) }
      for d in directions {
        XCTAssertIdentical(try frame(type.rawValue, d, 0), from, "\(type) \(String(describing: d)) at 0")
        XCTAssertIdentical(try frame(type.rawValue, d, 1), to, "\(type) \(String(describing: d)) at 1")
      }
    }
  }

  func solid(_ c: Color) -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: 20, height: 10))
    l.backgroundColor = c
    return l
  }

  func halfway(_ effect: String, _ subtype: TransitionSubtype) throws -> Image {
    try cpu.render(
      RenderList(
        transitionFrom: solid(.red), to: solid(.blue), width: 20, height: 10, effect: effect,
        parameters: ["direction": .vec2(TransitionEffects.direction(subtype))], progress: 0.5))
  }

  func testDirectionsMoveTheRightWay() throws {
    // fromLeft: the new (blue) content comes in from the left edge.
    for effect in ["moveIn", "push", "reveal"] {
      let left = try halfway(effect, .fromLeft)
      XCTAssertEqual(left.pixel(x: 1, y: 5), [0, 0, 255, 255], effect)
      XCTAssertEqual(left.pixel(x: 18, y: 5), [255, 0, 0, 255], effect)
      let right = try halfway(effect, .fromRight)
      XCTAssertEqual(right.pixel(x: 18, y: 5), [0, 0, 255, 255], effect)
      XCTAssertEqual(right.pixel(x: 1, y: 5), [255, 0, 0, 255], effect)
      // fromTop: y is down in the image, so the new content fills the top rows first.
      let top = try halfway(effect, .fromTop)
      XCTAssertEqual(top.pixel(x: 10, y: 1), [0, 0, 255, 255], effect)
      XCTAssertEqual(top.pixel(x: 10, y: 8), [255, 0, 0, 255], effect)
      let bottom = try halfway(effect, .fromBottom)
      XCTAssertEqual(bottom.pixel(x: 10, y: 8), [0, 0, 255, 255], effect)
    }
  }

  func testFadeIsACrossfade() throws {
    let image = try cpu.render(
      RenderList(transitionFrom: solid(.red), to: solid(.blue), width: 20, height: 10, effect: "fade", progress: 0.25))
    XCTAssertEqual(image.pixel(x: 3, y: 3), [191, 0, 64, 255])
  }

  func testUnknownEffectIsATypedError() {
    XCTAssertThrowsError(
      try RenderList(transitionFrom: solid(.red), to: solid(.blue), width: 4, height: 4, effect: "swirl", progress: 0)
    ) {
      guard case .malformedList = $0 as? RenderError else { return XCTFail("\($0)") }
    }
  }

  func testEveryCatalogueEffectHasACPUTwinAndNoOther() {
    XCTAssertEqual(Set(CPUEffects.all.keys), Set(TransitionEffects.all.keys))
  }

  func testAParameterOfTheWrongTypeIsATypedErrorOnTheCPUToo() {
    let pass = TransitionPass(
      from: 0, to: 1, output: 2, bounds: PixelRect(x: 0, y: 0, width: 4, height: 4), progress: 0.5, effect: "push",
      parameters: ["direction": .float(1)])
    let box = PixelRect(x: 0, y: 0, width: 4, height: 4)
    let list = RenderList(
      width: 4, height: 4,
      ops: [.pushGroup(0, bounds: box), .popGroup(0), .pushGroup(1, bounds: box), .popGroup(1), .transition(pass)])
    XCTAssertThrowsError(try cpu.render(list)) {
      guard
        case .transitionParameters(.wrongType(name: "direction", effect: "push", expected: .vec2, got: .float)) =
          $0 as? RenderError
      else { return XCTFail("\($0)") }
    }
  }
}

/// The CPU's row kernels (fade, dissolve, moveIn, push, reveal, and every effect's exact ends)
/// against the general path (the effect's closure per pixel): byte for byte, at odd sizes, every
/// direction, and progress values in and beyond [0, 1].
final class TransitionFastPathTests: XCTestCase {
  func testRowKernelsMatchTheGeneralPathByteForByte() throws {
    let fast = ReferenceRenderer(threadCount: 2)
    let general = ReferenceRenderer(threadCount: 2)
    general.fastPaths = false
    for (w, h) in [(37, 23), (96, 64), (129, 1)] {
      func picture(_ hue: Double) throws -> Layer {
        let l = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
        l.contents = try SampleScene.testImage(width: max(1, w / 2 + 3), height: max(1, h / 2 + 1), hue: hue)
        return l
      }
      let a = try picture(0.1)
      let b = try picture(0.7)
      let directions: [SIMD2<Float>] = [[-1, 0], [1, 0], [0, 1], [0, -1], [0.37, -0.2]]
      for effect in TransitionEffects.all.keys.sorted() {
        let parameterSets: [[String: TransitionValue]] =
          ["moveIn", "push", "reveal"].contains(effect) ? directions.map { ["direction": .vec2($0)] } : [[:]]
        for parameters in parameterSets {
          for p in [-0.3, 0, 1e-7, 0.25, 0.5, 0.61803, 1, 1.2] {
            let list = try RenderList(
              transitionFrom: a, to: b, width: w, height: h, effect: effect, parameters: parameters, progress: p)
            XCTAssertIdentical(
              try fast.render(list), try general.render(list), "\(effect) \(parameters) \(w)×\(h) at \(p)"
            )
          }
        }
      }
    }
  }

  func testTheVectorCrossfadeMatchesTheGeneralPathWhereSamplesFallBetweenTexels() throws {
    // A size where a tenth of the columns and a third of the rows sample between texels (the
    // double flip of uv.y loses bits), so every branch of the 16-byte kernel runs.
    let fast = ReferenceRenderer(threadCount: 2)
    let general = ReferenceRenderer(threadCount: 2)
    general.fastPaths = false
    // Tall narrow targets reach the row fractions of 1080p and 4K (up to 1.2e-4 from a centre).
    for (w, h) in [(720, 97), (24, 1080), (16, 2160)] {
      func picture(_ hue: Double) throws -> Layer {
        let l = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
        l.contents = try SampleScene.testImage(width: w, height: h, hue: hue)
        return l
      }
      let a = try picture(0.1)
      let b = try picture(0.7)
      for effect in ["fade", "dissolve"] {
        for p in [0.5, 0.37] {
          let list = try RenderList(transitionFrom: a, to: b, width: w, height: h, effect: effect, progress: p)
          XCTAssertIdentical(try fast.render(list), try general.render(list), "\(effect) \(w)×\(h) at \(p)")
        }
      }
    }
  }
}
