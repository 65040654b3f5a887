import Foundation
import LayerKit
import LayerKitEdit
import LayerKitMedia
import LayerKitOutput
import LayerKitTimeline

/// editly's news title and subtitle, laid and moved by editly's numbers (docs/EDIT_FILES.md),
/// each frame a pure function of the layer's progress p (0 to 1 over its span). E is
/// easeOutExpo, 1 − 2^(−10x), on x clamped to [0, 1]; m is the frame's shorter side.
extension Edit {
  static func easeOutExpo(_ x: Double) -> Double {
    let t = min(max(x, 0), 1)
    return t >= 1 ? 1 : 1 - pow(2, -10 * t)
  }

  /// The news title: the text at 0.08 of the height from the top, 0.07 m from the left, on a
  /// band from the left edge reaching 0.07 m past it on each side (0.03 m above and below); the
  /// band slides in from the left over the first third, the text over the first quarter (from
  /// p = 0.02), the text fading in from p = 0.07. Font 0.05 m unless `fontSize` says; the
  /// letters spaced 0.1 of the width in thousandths of an em; `position` is not used (editly's
  /// neither).
  static func newsTitle(
    _ text: String, style given: TextStyle, fontSize: Double?, charSpacing: Double?, band: Color, at: String,
    start: Double, stop: Double?
  ) -> ClipLayer {
    ClipLayer(start: start, stop: stop) { local, span, w, h in
      let m = min(w, h)
      var style = given
      style.box = nil
      style.padding = 0
      style.width = 1
      style.maxLines = 1
      style.size = fontSize.map { $0 > 1 ? $0 / h : $0 } ?? (0.05 * m).rounded() / h
      let points = style.size * h
      let kerning = (charSpacing ?? 0.1 * w) / 1000 * points
      let root = LayerKit.Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
      guard
        let label = try style.box(
          AttributedText(runs: [AttributedText.Run(text, kerning: kerning)]), width: w, height: h, alignment: .left,
          note: { Timeline.noteOnce("\(at): \($0)") })
      else { return root }
      let p = span > 0 ? local / span : 1
      let (eB, eT) = (easeOutExpo(p * 3), easeOutExpo((p - 0.02) * 4))
      let (tw, th) = (label.bounds.width, label.bounds.height)
      let bandWidth = tw + 0.14 * m
      let strip = LayerKit.Layer(
        frame: Rect(x: (eB - 1) * bandWidth, y: 0.08 * h - 0.03 * m, width: bandWidth, height: th + 0.06 * m))
      strip.backgroundColor = band
      root.addSublayer(strip)
      label.frame.origin = Point(x: 0.07 * m + (eT - 1) * w, y: 0.08 * h)
      label.opacity = easeOutExpo((p - 0.07) * 4)
      root.addSublayer(label)
      return root
    }
  }

  /// The subtitle: left-aligned text 0.05 m high in a box the width less 0.05 m on each side,
  /// its last line 0.05 m above the bottom, on a full-width band at the bottom 0.05 m taller on
  /// each side than the text (black at 0.3 unless `backgroundColor` says); both fade in by E(p)
  /// as the text slides 0.05 m in from the left.
  static func editlySubtitle(
    _ text: String, style given: TextStyle, fontSize: Double?, band: Color, at: String, start: Double, stop: Double?
  ) -> ClipLayer {
    ClipLayer(start: start, stop: stop) { local, span, w, h in
      let m = min(w, h)
      let pad = 0.05 * m
      var style = given
      style.box = nil
      style.padding = 0
      style.width = (w - 2 * pad) / w
      style.maxLines = 100
      style.size = fontSize.map { $0 > 1 ? $0 / h : $0 } ?? pad / h
      let root = LayerKit.Layer(frame: Rect(x: 0, y: 0, width: w, height: h))
      guard
        let label = try style.box(
          AttributedText(text), width: w, height: h, alignment: .left, note: { Timeline.noteOnce("\(at): \($0)") })
      else { return root }
      let e = easeOutExpo(span > 0 ? local / span : 1)
      let th = label.bounds.height
      let strip = LayerKit.Layer(frame: Rect(x: 0, y: h - th - 2 * pad, width: w, height: th + 2 * pad))
      strip.backgroundColor = band
      strip.opacity = e
      root.addSublayer(strip)
      label.frame.origin = Point(x: e * pad, y: h - pad - th)
      label.opacity = e
      root.addSublayer(label)
      return root
    }
  }

  /// The sliding text: white text round(0.05 × width) pixels high, letters spaced 0.1 of the
  /// width in thousandths of an em, at `position` (the centre); revealed left to right by a
  /// mask whose edge — opaque to 1.2 s − 0.2 of the text's width, clear from 1.2 s — moves with
  /// s = easeInOutCubic(slide), the slide going 0 → 1 from p = 0.1 to 0.3; faded out from
  /// p = 0.8 to 0.9 (editly's keyframes, linear between them).
  static func slideInText(
    _ text: String, style given: TextStyle, fontSize: Double?, charSpacing: Double?, position: Position, at: String,
    start: Double, stop: Double?
  ) -> ClipLayer {
    ClipLayer(start: start, stop: stop) { local, span, w, h in
      var style = given
      style.box = nil
      style.padding = 0
      style.width = 1
      style.size = fontSize.map { $0 > 1 ? $0 / h : $0 } ?? (0.05 * w).rounded() / h
      let points = style.size * h
      let kerning = (charSpacing ?? 0.1 * w) / 1000 * points
      let root = try placedText(
        AttributedText(runs: [AttributedText.Run(text, kerning: kerning)]), style: style, position: position, width: w,
        height: h, at: at)
      guard let label = root.sublayers?.first else { return root }
      let p = span > 0 ? local / span : 1
      func between(_ a: Double, _ b: Double) -> Double { min(max((p - a) / (b - a), 0), 1) }
      let x = between(0.1, 0.3)
      let slide = x < 0.5 ? 4 * x * x * x : 1 - pow(-2 * x + 2, 3) / 2
      root.opacity = 1 - between(0.8, 0.9)
      let tw = label.bounds.width
      let mask = LayerKit.Layer(frame: label.bounds)
      let solid = LayerKit.Layer(
        frame: Rect(x: -tw, y: 0, width: tw * (1 + 1.2 * slide - 0.2), height: label.bounds.height))
      solid.backgroundColor = .white
      let ramp = GradientLayer()
      ramp.frame = Rect(x: (1.2 * slide - 0.2) * tw, y: 0, width: 0.2 * tw, height: label.bounds.height)
      ramp.colors = [.white, .clear]
      ramp.startPoint = Point(x: 0, y: 0.5)
      ramp.endPoint = Point(x: 1, y: 0.5)
      mask.addSublayer(solid)
      mask.addSublayer(ramp)
      label.mask = mask
      return root
    }
  }
}
