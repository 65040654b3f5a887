// The GPU's overlapped readback (OverlappingRenderer): a frame started and finished later gives
// the bytes `render` gives, frames finish in the order they started, and the video source draws
// the next frame while the last one is read back without changing a frame.

import LayerKit
import LayerKitGL
import LayerKitMedia
import LayerKitSamples
import LayerKitTesting
import LayerKitVideo
import XCTest

final class OverlappedReadbackTests: XCTestCase {
  private func picture(_ hue: Double, _ w: Int, _ h: Int) throws -> Layer {
    let l = Layer(frame: Rect(x: 0, y: 0, width: Double(w), height: Double(h)))
    l.contents = try SampleScene.testImage(width: w, height: h, hue: hue)
    return l
  }

  private func frame(_ p: Double, _ w: Int = 80, _ h: Int = 48) throws -> RenderList {
    try RenderList(
      transitionFrom: picture(0.1, w, h), to: picture(0.6, w, h), width: w, height: h, effect: "push",
      parameters: ["direction": .vec2([1, 0])], progress: p)
  }

  func testStartedFramesFinishWithTheBytesRenderGives() throws {
    let gpu = try GLRenderer()
    let reference = try GLRenderer()
    // Two in flight at a time, and a larger frame halfway (its buffer is remade larger), then a
    // smaller one in the larger buffer.
    let lists = try [frame(0.1), frame(0.3), frame(0.5, 160, 96), frame(0.7), frame(0.9, 30, 20)]
    var pending: [(Int, PendingFrame)] = []
    for (i, list) in lists.enumerated() {
      pending.append((i, try gpu.start(list)))
      if pending.count == gpu.framesInFlight {
        let (j, frame) = pending.removeFirst()
        let image = try gpu.finish(frame)
        XCTAssertEqual(image.width, lists[j].width)
        XCTAssertIdentical(image, try reference.render(lists[j]), "frame \(j)")
      }
    }
    for (j, frame) in pending {
      XCTAssertIdentical(try gpu.finish(frame), try reference.render(lists[j]), "frame \(j)")
    }
    // render() between overlapped frames is unaffected.
    XCTAssertIdentical(try gpu.render(lists[2]), try reference.render(lists[2]))
  }

  func testFramesFinishInOrderAndNoMoreThanTheRingHolds() throws {
    let gpu = try GLRenderer()
    let a = try gpu.start(frame(0.2))
    let b = try gpu.start(frame(0.4))
    XCTAssertThrowsError(try gpu.start(frame(0.6))) { error in
      guard case .framesOutOfOrder? = error as? RenderError else { return XCTFail("\(error)") }
    }
    XCTAssertThrowsError(try gpu.finish(b)) { error in
      guard case .framesOutOfOrder? = error as? RenderError else { return XCTFail("\(error)") }
    }
    _ = try gpu.finish(a)
    XCTAssertThrowsError(try gpu.finish(a)) { error in
      guard case .framesOutOfOrder? = error as? RenderError else { return XCTFail("\(error)") }
    }
    _ = try gpu.finish(b)
    // The ring is free again.
    _ = try gpu.finish(try gpu.start(frame(0.6)))
  }

  /// A renderer that only renders: the video source takes its plain path.
  private final class Plain: Renderer {
    let name = "plain"
    let inner: GLRenderer
    init(_ inner: GLRenderer) { self.inner = inner }
    func render(_ list: RenderList) throws -> Image { try inner.render(list) }
  }

  func testTheVideoSourceDrawsAheadWithoutChangingAFrame() throws {
    let a = Still(try SampleScene.testImage(width: 64, height: 40, hue: 0.2), name: "a.png")
    let b = Still(try SampleScene.testImage(width: 64, height: 40, hue: 0.7), name: "b.png")
    let c = Still(try SampleScene.testImage(width: 64, height: 40, hue: 0.9), name: "c.png")
    let timeline = try Timeline(
      items: [
        TimelineItem(source: .image(a), duration: 0.5), TimelineItem(source: .image(b), duration: 0.6),
        TimelineItem(source: .image(c), duration: 0.5),
      ],
      transitions: [
        TimelineTransition(effect: "fade", duration: 0.3),
        TimelineTransition(effect: "push", parameters: ["direction": .vec2([0, 1])], duration: 0.3),
      ],
      width: 64, height: 40, rate: try FrameRate(20))
    let overlapped = TimelineRenderer(timeline: timeline, renderer: try GLRenderer())
    let plain = TimelineRenderer(timeline: timeline, renderer: Plain(try GLRenderer()))
    // The whole video, then a shard that ends inside a transition (nothing is drawn past it).
    for range in [0..<timeline.frameCount, 5..<13] {
      overlapped.willRender(range)
      for k in range {
        XCTAssertIdentical(try overlapped.frame(k), try plain.frame(k), "frame \(k)")
      }
    }
    // Asked out of order (a still timeline allows it): the frame drawn ahead is dropped.
    overlapped.willRender(0..<timeline.frameCount)
    for k in [7, 8, 2, 3, 19] {
      XCTAssertIdentical(try overlapped.frame(k), try plain.frame(k), "frame \(k), out of order")
    }
    overlapped.stop()
    plain.stop()
  }
}

/// GLRenderer.keepsContextCurrent: the same frames, one thread only while it is set, any thread
/// again once it is cleared; two renderers on one thread take turns.
final class ContextCurrencyTests: XCTestCase {
  private func list(_ hue: Double) throws -> RenderList {
    let l = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 30))
    l.contents = try SampleScene.testImage(width: 40, height: 30, hue: hue)
    l.cornerRadius = 6
    return try RenderList(layer: l, width: 40, height: 30)
  }

  /// Renders `list` on a new thread, returning its error if any.
  private func renderOnAnotherThread(_ gpu: GLRenderer, _ list: RenderList) -> Error? {
    // The renderer goes to the other thread and back, never used by two at once.
    final class Box: @unchecked Sendable {
      let gpu: GLRenderer
      var error: Error?
      init(_ gpu: GLRenderer) { self.gpu = gpu }
    }
    let box = Box(gpu)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      do { _ = try box.gpu.render(list) } catch { box.error = error }
      done.signal()
    }
    thread.start()
    done.wait()
    return box.error
  }

  func testAContextKeptCurrentRendersTheSameFramesOnOneThread() throws {
    let sticky = try GLRenderer()
    let plain = try GLRenderer()
    sticky.keepsContextCurrent = true
    let other = try GLRenderer()
    other.keepsContextCurrent = true
    for hue in [0.1, 0.4, 0.8] {
      let l = try list(hue)
      // Two sticky renderers on this thread take turns with a plain one.
      XCTAssertIdentical(try sticky.render(l), try plain.render(l))
      XCTAssertIdentical(try other.render(l), try plain.render(l))
    }
    // Another thread cannot take a context kept current on this one (current here again after its
    // render: the plain renderer's made another context current, then released it): a clear error.
    _ = try sticky.render(list(0.5))
    let error = renderOnAnotherThread(sticky, try list(0.2))
    guard case .backend(let e as GLError)? = error as? RenderError, case .contextCreation(let why) = e else {
      return XCTFail("expected a context error, got \(String(describing: error))")
    }
    XCTAssertTrue(why.contains("current on another thread"), why)
    // Released here, it renders anywhere again.
    sticky.keepsContextCurrent = false
    XCTAssertNil(renderOnAnotherThread(sticky, try list(0.2)))
    XCTAssertIdentical(try sticky.render(list(0.3)), try plain.render(list(0.3)))
  }
}
