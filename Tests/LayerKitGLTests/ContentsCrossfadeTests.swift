// The contents crossfade done by the backends (TextureSource.crossfade): an animation of
// `contents` presents two images and a weight, the builder draws them as one crossfade, and each
// backend mixes the texels itself. Both must give exactly the bytes of the mix made on the CPU
// (RenderMath.crossfade, what `Image.pixels` of the presented image returns), drawn as a plain
// image: the pixels from before the backends did the mixing.

import LayerKit
import LayerKitGL
import LayerKitReference
import LayerKitTesting
import XCTest

final class ContentsCrossfadeTests: XCTestCase {
  /// Bytes that take every value, so the mix meets every rounding case there is.
  private func noise(_ width: Int, _ height: Int, seed: UInt64) throws -> Image {
    var state = seed
    let bytes = (0..<width * height * 4).map { _ -> UInt8 in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 33)
    }
    return try Image(width: width, height: height, pixels: bytes)
  }

  private func layer(_ contents: Image?) -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: 64, height: 48))
    l.contents = contents
    return l
  }

  func testBothBackendsMixExactlyAsTheCPUBytes() throws {
    let gpu = try GLRenderer()
    let cpu = ReferenceRenderer(threadCount: 2)
    let a = try noise(64, 48, seed: 1)
    let b = try noise(64, 48, seed: 2)
    for (from, to) in [(a, b), (nil, b), (a, nil)] as [(Image?, Image?)] {
      for weight in [0.001, 0.25, 0.3, 0.5, 0.61803, 0.75, 0.999] as [Float] {
        let fade = try XCTUnwrap(Image(crossfading: from, to: to, weight: weight))
        let list = try RenderList(layer: layer(fade), width: 64, height: 48)
        guard case .draw(let d) = list.ops.last, case .texture(.crossfade(let f), _) = d.paint else {
          return XCTFail("a crossfade image is drawn as a crossfade: \(list.ops)")
        }
        XCTAssertEqual(f.weight, weight)
        XCTAssertEqual(list.images.count, [from, to].compactMap { $0 }.count, "each image once, no mixed bytes")
        // The same frame with the mix made on the CPU and drawn as an ordinary image.
        let baked = try Image(width: 64, height: 48, pixels: fade.pixels)
        let reference = try RenderList(layer: layer(baked), width: 64, height: 48)
        let expected = try cpu.render(reference)
        let label = "from \(from == nil ? "nil" : "a") to \(to == nil ? "nil" : "b") at \(weight)"
        XCTAssertIdentical(try cpu.render(list), expected, "CPU, \(label)")
        XCTAssertIdentical(try gpu.render(list), try gpu.render(reference), "GPU, \(label)")
      }
    }
  }

  func testAnAnimationOfContentsUploadsEachImageOnce() throws {
    let gpu = try GLRenderer()
    let l = layer(try noise(64, 48, seed: 3))
    let animation = BasicAnimation(keyPath: "contents")
    animation.fromValue = try noise(64, 48, seed: 4)
    animation.duration = 1
    try l.addChecked(animation, forKey: "fade")
    for frame in 1..<10 {
      _ = try gpu.render(l.presentation(at: Double(frame) / 10), width: 64, height: 48)
    }
    // The two images stay cached; no texture per frame (the cache keeps unused ones 3 renders).
    XCTAssertEqual(gpu.cachedImageCount, 2)
  }
}
