import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// A clip's layers after its picture, as editly draws them — each over the ones before, inside
/// the clip, so a transition carries them: pictures placed and sized, titles anywhere, editly's
/// subtitle, news title and sliding text, colours. Each becomes a `ClipLayer`, a pure function
/// of its time.
extension Edit {
  /// A drawn layer of a clip (not its picture, a sound, or a video: those are the item, the mix
  /// and overlays) as a clip layer.
  /// - Parameters:
  ///   - size: the frame size colours are made at (stretched to the frame when it differs).
  ///   - fit: how a picture fills its box when the layer does not say.
  func clipLayer(
    _ layer: Edit.Layer, at: String, sources: [String: MediaSource], size: (width: Int, height: Int), fit: Fit
  ) throws -> ClipLayer? {
    switch layer {
    case .image(let i):
      let image = try Self.still(i.path, sources: sources, at: at)
      let box = try Self.box(i.placement, at: at)
      let motion = try Self.motion(i.zoomDirection, amount: i.zoomAmount, pan: i.panDirection, at: at)
      let chosen = try i.resizeMode.map { try Self.fit($0, at: at + ".resizeMode") } ?? fit
      let (start, stop) = try Self.span(i.start, i.stop, at: at)
      return ClipLayer(start: start, stop: stop) { local, span, w, h in
        let shown = try image.fitting(box.size.width * w, box.size.height * h)
        return ClipLayer.picture(
          shown, in: box, gravity: chosen.gravity, bars: chosen == .containBlur, motion: motion, progress: local / span,
          width: w, height: h)
      }
    case .imageOverlay(let o):
      let image = try Self.still(o.path, sources: sources, at: at)
      for (value, name) in [(o.width, "width"), (o.height, "height")] {
        if let value, !(value.isFinite && value > 0 && value <= 10) {
          throw VideoError.invalidEdit(at: "\(at).\(name)", reason: "a fraction of the frame above 0")
        }
      }
      let position = o.position ?? .named("center")
      _ = try Self.anchor(position, margin: 0, width: 1, height: 1, at: at + ".position")
      let motion = try Self.motion(o.zoomDirection, amount: o.zoomAmount, pan: nil, at: at)
      let (start, stop) = try Self.span(o.start, o.stop, at: at)
      return ClipLayer(start: start, stop: stop) { local, span, w, h in
        // One side given: the other from the picture's aspect; neither: its own pixels.
        let aspect = Double(image.height) / Double(max(1, image.width))
        let bw = o.width.map { $0 * w } ?? o.height.map { $0 * h / aspect } ?? Double(image.width)
        let bh = o.height.map { $0 * h } ?? bw * aspect
        let a = try Self.anchor(position, margin: 0, width: w, height: h, at: at + ".position")
        let box = Rect(
          x: (a.x * w - a.originX * bw) / w, y: (a.y * h - a.originY * bh) / h, width: bw / w, height: bh / h)
        let shown = try image.fitting(bw, bh)
        return ClipLayer.picture(
          shown, in: box, gravity: .resize, motion: motion, progress: local / span, width: w, height: h)
      }
    case .title(let t):
      let style = try Self.style(t, at: at)
      let text = AttributedText(t.text)
      let position = t.position ?? .named("center")
      _ = try Self.anchor(position, margin: 0.05, width: 1, height: 1, at: at + ".position")
      let (start, stop) = try Self.span(t.start, t.stop, at: at)
      let motion = try Self.motion(t.zoomDirection, amount: t.zoomAmount, pan: nil, at: at)
      return ClipLayer(start: start, stop: stop) { local, span, w, h in
        let layer = try Self.placedText(text, style: style, position: position, width: w, height: h, at: at)
        layer.opacity = style.opacity(at: local, start: 0, length: span)
        // Ken Burns on a title: it grows (or shrinks) about its anchor — the frame's centre for
        // a centred title, the corner of a corner one — as editly's zooms about its origin.
        if let motion {
          let scale = motion.placement(at: local / span).scale
          let a = try Self.anchor(position, margin: 0.05, width: w, height: h, at: at + ".position")
          layer.anchorPoint = Point(x: a.x, y: a.y)
          layer.position = Point(x: a.x * w, y: a.y * h)
          layer.transform = Transform3D(scaleX: scale, y: scale)
        }
        return layer
      }
    case .text(let c):
      return try caption(c, at: at)
    case .colors(let c):
      let (start, stop) = try Self.span(c.start, c.stop, at: at)
      if c.kind == .rainbow { return Self.rainbow(start: start, stop: stop) }
      if c.kind == .linear || c.kind == .radial { return try Self.movingGradient(c, at: at, seed: seed ?? 1) }
      let image = try Self.picture(c, width: size.width, height: size.height, at: at, seed: seed ?? 1)
      return ClipLayer(start: start, stop: stop) { _, _, w, h in
        ClipLayer.picture(
          image, in: Rect(x: 0, y: 0, width: 1, height: 1), gravity: .resize, motion: nil, progress: 0,
          width: w, height: h)
      }
    case .video, .audio, .detachedAudio, .gl:
      return nil
    }
  }

  /// editly's subtitle, news title and sliding text, by editly's numbers (Edit+EditlyCaptions).
  private func caption(_ c: Caption, at: String) throws -> ClipLayer {
    let (start, stop) = try Self.span(c.start, c.stop, at: at)
    var style = TextStyle(box: nil, fade: 0)
    if let font = c.fontPath ?? c.fontFamily { style.font = font }
    if let color = c.kind == .slideInText ? (c.color ?? c.textColor) : c.textColor {
      style.color = try Self.color(color, at: at + (c.color != nil ? ".color" : ".textColor"))
    }
    if let size = c.fontSize {
      guard size.isFinite, size > 0, size <= 2000 else {
        throw VideoError.invalidEdit(at: at + ".fontSize", reason: "a fraction of the height, or pixels")
      }
    }
    if let kerning = c.charSpacing, !(kerning.isFinite && abs(kerning) <= 2000) {
      throw VideoError.invalidEdit(at: at + ".charSpacing", reason: "thousandths of the font's size")
    }
    let band = try c.backgroundColor.map { try Self.color($0, at: at + ".backgroundColor") }
    switch c.kind {
    case .newsTitle:
      return Self.newsTitle(
        c.text, style: style, fontSize: c.fontSize, charSpacing: c.charSpacing,
        band: band ?? Color(red: 0xd0 / 255, green: 0x2a / 255, blue: 0x42 / 255), at: at, start: start, stop: stop)
    case .subtitle:
      return Self.editlySubtitle(
        c.text, style: style, fontSize: c.fontSize, band: band ?? Color(red: 0, green: 0, blue: 0, alpha: 0.3), at: at,
        start: start, stop: stop)
    case .slideInText:
      let position = c.position ?? .named("center")
      _ = try Self.anchor(position, margin: 0.05, width: 1, height: 1, at: at + ".position")
      return Self.slideInText(
        c.text, style: style, fontSize: c.fontSize, charSpacing: c.charSpacing, position: position, at: at,
        start: start, stop: stop)
    }
  }

  /// A frame-sized layer with `text` in its style's box, laid at `position` (the box's side at
  /// the point's origin; lines aligned to that side).
  static func placedText(
    _ text: AttributedText, style: TextStyle, position: Position, width w: Double, height h: Double, at: String
  ) throws -> LayerKit.Layer {
    let root = LayerKit.Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
    let a = try anchor(position, margin: 0.05, width: w, height: h, at: at + ".position")
    let alignment: LayerKit.TextLayer.AlignmentMode = a.originX == 0 ? .left : a.originX == 1 ? .right : .center
    guard
      let box = try style.box(
        text, width: w, height: h, alignment: alignment, note: { Timeline.noteOnce("\(at): \($0)") })
    else { return root }
    box.frame.origin = Point(x: a.x * w - a.originX * box.bounds.width, y: a.y * h - a.originY * box.bounds.height)
    root.addSublayer(box)
    return root
  }

  /// A still's pixels: from the opened sources, or read now; an SVG drawn again at the size it
  /// is shown at (once per size), so it stays sharp.
  static func still(_ path: String, sources: [String: MediaSource], at: String) throws -> DrawnStill {
    switch sources[path] {
    case .image(let still): return DrawnStill(path: path, image: try still.load())
    case .clip:
      throw VideoError.invalidEdit(at: at + ".path", reason: "\(path) is a clip; a picture layer shows a still")
    case nil: return DrawnStill(path: path, image: try ImageFile.readStill(URL(fileURLWithPath: path)))
    }
  }

  /// A still as a clip layer shows it: its pixels, and for an SVG its pixels at each size drawn.
  final class DrawnStill: Sendable {
    let path: String
    let image: LayerKit.Image
    private let isSVG: Bool
    private let drawn = Locked([String: LayerKit.Image]())

    init(path: String, image: LayerKit.Image) {
      self.path = path
      self.image = image
      isSVG = FileIO.head(path, count: 1024).flatMap(OtherStills.format(of:)) == "SVG"
    }

    var width: Int { image.width }
    var height: Int { image.height }

    /// The picture for a box of `width`×`height` pixels.
    func fitting(_ width: Double, _ height: Double) throws -> LayerKit.Image {
      let (w, h) = (Int(width.rounded(.up)), Int(height.rounded(.up)))
      guard isSVG, w > 0, h > 0, w != image.width || h != image.height else { return image }
      let key = "\(w)x\(h)"
      if let made = drawn.withLock({ $0[key] }) { return made }
      let made = try ImageFile.readStill(URL(fileURLWithPath: path), fitting: (w, h))
      drawn.withLock { $0[key] = made }
      return made
    }
  }
}
