import LayerKit
import XCTest

/// The builder's output for representative trees, op by op: a builder bug that both backends
/// would render identically (a group where none is needed, an opacity applied twice, a clip
/// dropped, a wrong draw order) is caught here, where no pixel comparison can see it. Pixel
/// bounds reach one pixel past each edge (the antialiasing ramp), clamped to the target; a
/// group's surface covers the union of its draws' bounds; a clipped draw's bounds are cut to
/// the clip.
final class RenderListGoldenTests: XCTestCase {
  func testSolidLayersDrawInOrderWithoutGroups() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 40, height: 20))
    root.backgroundColor = .white
    let a = Layer(frame: Rect(x: 4, y: 2, width: 10, height: 8))
    a.backgroundColor = .red
    a.cornerRadius = 2
    let b = Layer(frame: Rect(x: 20, y: 6, width: 8, height: 8))
    b.backgroundColor = .blue
    b.zPosition = -1  // drawn before a, its earlier sibling
    root.addSublayer(a)
    root.addSublayer(b)
    let list = try RenderList(layer: root, width: 40, height: 20)
    XCTAssertEqual(
      Golden.lines(list),
      [
        "draw [0, 0, 40×20] rect(0 0 40 20 r0) color(1 1 1 1)",
        "draw [19, 5, 10×10] rect(0 0 8 8 r0) color(0 0 1 1) at(20 6)",
        "draw [3, 1, 12×10] rect(0 0 10 8 r2) color(1 0 0 1) at(4 2)",
      ])
  }

  func testASingleDrawFoldsItsOpacityAndASubtreeGetsOneGroup() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 32, height: 32))
    let single = Layer(frame: Rect(x: 0, y: 0, width: 8, height: 8))
    single.backgroundColor = .red
    single.opacity = 0.5  // one draw: the opacity goes into it, no surface
    let parent = Layer(frame: Rect(x: 16, y: 16, width: 16, height: 16))
    parent.backgroundColor = .green
    parent.opacity = 0.5  // two draws: group opacity needs a surface over their bounds
    let child = Layer(frame: Rect(x: 4, y: 4, width: 8, height: 8))
    child.backgroundColor = .blue
    parent.addSublayer(child)
    root.addSublayer(single)
    root.addSublayer(parent)
    let list = try RenderList(layer: root, width: 32, height: 32)
    XCTAssertEqual(
      Golden.lines(list),
      [
        "draw [0, 0, 9×9] rect(0 0 8 8 r0) color(1 0 0 1) opacity 0.5",
        "push 0 [15, 15, 17×17]",
        "draw [15, 15, 17×17] rect(0 0 16 16 r0) color(0 1 0 1) at(16 16)",
        "draw [19, 19, 10×10] rect(0 0 8 8 r0) color(0 0 1 1) at(20 20)",
        "pop 0",
        "draw [15, 15, 17×17] rect(15 15 32 32 r0) surface 0 opacity 0.5",
      ])
  }

  func testMasksToBoundsClipsTheSublayersAndTheBorderDrawsLast() throws {
    let root = Layer(frame: Rect(x: 0, y: 0, width: 30, height: 30))
    let box = Layer(frame: Rect(x: 5, y: 5, width: 20, height: 20))
    box.masksToBounds = true
    box.cornerRadius = 4
    box.borderWidth = 2
    box.borderColor = .black
    let inner = Layer(frame: Rect(x: 10, y: 10, width: 20, height: 20))  // sticks out: clipped
    inner.backgroundColor = .red
    box.addSublayer(inner)
    root.addSublayer(box)
    let list = try RenderList(layer: root, width: 30, height: 30)
    XCTAssertEqual(
      Golden.lines(list),
      [
        "draw [14, 14, 12×12] rect(0 0 20 20 r0) color(1 0 0 1) at(15 15) clips 1",
        "draw [4, 4, 22×22] rect(0 0 20 20 r4) border 2 color(0 0 0 1) at(5 5)",
      ])
  }

  func testAShadowedBlurredLayerRendersThroughSurfacesInCoreAnimationsOrder() throws {
    // Content into a surface, its filter, the shadow (tinted and blurred alpha) underneath, then
    // the filtered content over it.
    let root = Layer(frame: Rect(x: 0, y: 0, width: 64, height: 64))
    let card = Layer(frame: Rect(x: 16, y: 16, width: 32, height: 32))
    card.backgroundColor = .red
    card.shadowOpacity = 1
    card.shadowRadius = 2
    card.shadowOffset = Size(width: 0, height: 4)
    card.filters = [.gaussianBlur(radius: 1)]
    root.addSublayer(card)
    let list = try RenderList(layer: root, width: 64, height: 64)
    XCTAssertEqual(
      Golden.lines(list),
      [
        "push 0 [12, 12, 40×40]",  // the content, with room for its blur (3σ)
        "draw [15, 15, 34×34] rect(0 0 32 32 r0) color(1 0 0 1) at(16 16)",
        "pop 0",
        "filter 0→1 [12, 12, 40×40] blur x taps 7 centre 0.39905027",  // σ = 1
        "filter 1→2 [12, 12, 40×40] blur y taps 7 centre 0.39905027",
        "filter 2→3 [6, 6, 52×52] tint(0 0 0 1)",  // the shadow's shape, black at opacity 1
        "filter 3→4 [6, 6, 52×52] blur x taps 13 centre 0.19967563",  // σ = shadowRadius = 2
        "filter 4→5 [6, 6, 52×52] blur y taps 13 centre 0.19967563",
        "push 6 [6, 10, 53×53]",
        "draw [6, 10, 53×53] rect(6 10 59 63 r0) surface 5",  // the shadow, 4 px down
        "draw [12, 12, 40×40] rect(12 12 52 52 r0) surface 2",  // the filtered content over it
        "pop 6",
        "draw [6, 10, 53×53] rect(6 10 59 63 r0) surface 6",
      ])
  }
}

/// A compact, exact text form of a RenderList's ops for the golden tests.
enum Golden {
  static func lines(_ list: RenderList) -> [String] {
    list.ops.map { op in
      switch op {
      case .draw(let d): draw(d)
      case .pushGroup(let id, let bounds): "push \(id.rawValue) \(bounds)"
      case .popGroup(let id): "pop \(id.rawValue)"
      case .copyBackdrop(let id, let bounds): "backdrop \(id.rawValue) \(bounds)"
      case .filter(let p): "filter \(p.input.rawValue)→\(p.output.rawValue) \(p.bounds) \(filter(p.operation))"
      case .transition(let p):
        "transition \(p.from.rawValue),\(p.to.rawValue)→\(p.output.rawValue) \(p.effect) \(p.progress)"
      }
    }
  }

  static func filter(_ op: FilterOperation) -> String {
    switch op {
    case .blur(let axis, let weights):
      "blur \(axis == .horizontal ? "x" : "y") taps \(2 * weights.count - 1) centre \(weights[0])"
    case .colorMatrix: "colorMatrix"
    case .tint(let c): "tint(\(n(c.x)) \(n(c.y)) \(n(c.z)) \(n(c.w)))"
    }
  }

  static func n(_ x: Float) -> String {
    x == x.rounded() ? String(Int(x)) : String(x)
  }

  static func draw(_ d: Draw) -> String {
    let b = d.shape.rect.bounds
    var s = "draw \(d.pixelBounds) rect(\(n(b.x)) \(n(b.y)) \(n(b.z)) \(n(b.w)) r\(n(d.shape.rect.cornerRadius)))"
    if d.shape.borderWidth > 0 { s += " border \(n(d.shape.borderWidth))" }
    if d.shape.path != nil { s += " path" }
    switch d.paint {
    case .color(let c): s += " color(\(n(c.x)) \(n(c.y)) \(n(c.z)) \(n(c.w)))"
    case .texture(.image(let i), _): s += " image \(i.index)"
    case .texture(.surface(let i), _): s += " surface \(i.rawValue)"
    case .texture(.crossfade(let f), _):
      s += " crossfade \(f.from.map { "\($0.index)" } ?? "-"),\(f.to.map { "\($0.index)" } ?? "-") \(n(f.weight))"
    case .gradient(let g): s += " gradient \(g.kind) \(g.colors.count) stops"
    }
    // The local plane's placement, when it is a plain translation other than none.
    let m = d.mapping.toTarget
    let translation = m.row0.x == 1 && m.row0.y == 0 && m.row1.x == 0 && m.row1.y == 1 && m.row2 == SIMD3(0, 0, 1)
    if translation {
      if m.row0.z != 0 || m.row1.z != 0 { s += " at(\(n(m.row0.z)) \(n(m.row1.z)))" }
    } else {
      s += " projected"
    }
    if d.opacity != 1 { s += " opacity \(n(d.opacity))" }
    if !d.clips.isEmpty { s += " clips \(d.clips.count)" }
    if d.mask != nil { s += " mask" }
    if d.blendMode != .normal { s += " blend \(d.blendMode)" }
    return s
  }
}
