// Core Image–style transitions, second half: ripple, pageCurl, pageCurlWithShadow, accordionFold
// and disintegrateWithMask, with Core Image's parameter names and defaults. Each is one GLSL file
// under Shaders/transitions and one CPU twin here with the same parameters in the same order and
// the same Float operations in the same order (GPU ≡ CPU is a parity test); what does not depend
// on the pixel is worked out when the kernel is made.
//
// The pass has no extent, so Core Image's pixel lengths are fractions of the output's width,
// taken over a 640-px-wide image (100 px → 0.15625), as in CPUEffects+CoreImageA.swift, and its
// pixel centres are uv (0.5, 0.5). Core Image's image inputs are sampler2D parameters
// (shadingImage, backsideImage, maskImage), each used only when its `use…Image` bool is true (the
// defaults keep the image-free behaviour: no shading, the lightened mirror, a procedural mask).
// An image is read with ImageTexels.sample, the files' `sampleImage`: bilinear, clamp-to-edge, at
// (uv.x, 1 − uv.y) in its own top-down texels. A `use…Image` that is true with no image given
// falls back to the image-free behaviour here; the GPU reads an unbound unit.
// At progress 0 and 1 the executor returns the surfaces outright (ReferenceRenderer.transition).

import Foundation
import LayerKitRender

/// GLSL's clamp(x, lo, hi): min(max(x, lo), hi).
@inline(__always) private func clamp(_ x: Float, _ lo: Float, _ hi: Float) -> Float { min(max(x, lo), hi) }

/// GLSL's floor.
@inline(__always) private func floor(_ x: Float) -> Float { x.rounded(.down) }

@inline(__always) private func rgbScaled(_ c: SIMD4<Float>, _ k: Float) -> SIMD4<Float> {
  SIMD4(c.x * k, c.y * k, c.z * k, c.w)
}

/// Black at alpha k over c (premultiplied source-over): the shadows' operation.
@inline(__always) private func shadowed(_ c: SIMD4<Float>, _ k: Float) -> SIMD4<Float> {
  c * (1 - k) + SIMD4(0, 0, 0, k)
}

extension CPUEffects {
  // MARK: - ripple

  /// ripple.glsl: Core Image's CIRippleTransition, a ring wave from `center` refracting both
  /// images, the new content inside it. With `useShadingImage` the ring is shaded by
  /// `shadingImage`, read as Core Image's lit sphere: ring position x (−1 inner edge … 1 outer
  /// edge) in direction `dir` from the centre reads it at uv 0.5 + 0.5 × x × dir, and the ring's
  /// colour (all four premultiplied channels) is multiplied by 1 + (shade − 1) × (1 − x²), so the
  /// shading fades out at both edges of the ring.
  struct Ripple: CPUTransitionKernel {
    let ratio: Float
    /// Width units: x spans [0, 1], y spans [0, h], so that the ring is round.
    let h: Float
    let cc: SIMD2<Float>
    let hw: Float
    let ring: Float
    let scale: Float
    let shading: ImageTexels?

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      self.ratio = ratio
      let center = parameters.vec2("center")
      h = 1 / ratio
      cc = SIMD2(center.x, center.y * h)
      let fx = max(cc.x, 1 - cc.x)
      let fy = max(cc.y, h - cc.y)
      let far = (fx * fx + fy * fy).squareRoot()
      hw = max(parameters.float("width") * 0.5, 0.0001)
      ring = progress * (far + 2 * hw) - hw
      scale = parameters.float("scale")
      shading = parameters.bool("useShadingImage") ? parameters.image("shadingImage") : nil
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let p = SIMD2(c.uv.x, c.uv.y * h)
      let v = p - cc
      let d = (v.x * v.x + v.y * v.y).squareRoot()
      let x = (d - ring) / hw
      if x >= 1 { return c.getFromColor(c.uv) }
      if x <= -1 { return c.getToColor(c.uv) }
      let k = 1 - x * x
      let push = scale * x * k * k
      let dir = d > 0 ? v / d : SIMD2<Float>(0, 0)
      let q = p - dir * push
      let quv = SIMD2(q.x, q.y * ratio)
      let s = (1 - x) * 0.5
      let m = s * s * (3 - 2 * s)
      let a = c.getFromColor(quv)
      let b = c.getToColor(quv)
      let color = a + (b - a) * m
      guard let shading else { return color }
      let n = dir * x
      let shade = shading.sample(SIMD2(0.5 + 0.5 * n.x, 0.5 + 0.5 * n.y))
      return color * (SIMD4<Float>(repeating: 1) + (shade - 1) * k)
    }
  }

  // MARK: - pageCurl, pageCurlWithShadow

  /// page_curl.glsl and page_curl_with_shadow.glsl, which differ only in the shadow (`shadow`
  /// holds shadowSize and shadowAmount for the second). The page's back is `backside` where given,
  /// read at the turned-over page point (so mirrored as the page turns), else back(from).
  struct Curl {
    let ratio: Float
    /// Width units: x spans [0, 1], y spans [0, h], so that the cylinder is round.
    let h: Float
    let r: Float
    let d: SIMD2<Float>
    let line: Float
    /// The shadow's reach and its strength before the falloff, min((1 − progress) × 4, 1) apart.
    let shadow: (reach: Float, amount: Float, fade: Float)?
    let backside: ImageTexels?

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float, shadow: Bool) {
      self.ratio = ratio
      h = 1 / ratio
      r = max(parameters.float("radius"), 0.0001)
      let angle = parameters.float("angle")
      d = SIMD2<Float>(cos(angle), sin(angle))
      let lo = min(d.x, 0) + min(d.y * h, 0)
      let hi = max(d.x, 0) + max(d.y * h, 0)
      line = hi - (hi - lo + r) * progress
      self.shadow =
        shadow
        ? (
          max(parameters.float("shadowSize") * r, 0.0001), clamp(parameters.float("shadowAmount"), 0, 1),
          min((1 - progress) * 4, 1)
        ) : nil
      backside = parameters.bool("useBacksideImage") ? parameters.image("backsideImage") : nil
    }

    /// The shaders' `cover`: how much of the page covers a point that maps to page point q — 1 on
    /// the page, falling to 0 over 0.002 outside it.
    @inline(__always) func cover(_ q: SIMD2<Float>) -> Float {
      let e = min(min(q.x, 1 - q.x), min(q.y, h - q.y))
      return clamp(1 + e / 0.002, 0, 1)
    }

    /// The shaders' `back`: the colour moved 60 % of the way to white (premultiplied: its alpha).
    @inline(__always) func back(_ c: SIMD4<Float>) -> SIMD4<Float> {
      SIMD4(c.x + (c.w - c.x) * 0.6, c.y + (c.w - c.y) * 0.6, c.z + (c.w - c.z) * 0.6, c.w)
    }

    /// The page's back at page point q.
    @inline(__always) func layer(_ c: TransitionContext, _ q: SIMD2<Float>) -> SIMD4<Float> {
      let quv = SIMD2(q.x, q.y * ratio)
      if let backside { return backside.sample(quv) }
      return back(c.getFromColor(quv))
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let p = SIMD2(c.uv.x, c.uv.y * h)
      let s = p.x * d.x + p.y * d.y
      var color = c.getToColor(c.uv)
      if let shadow {
        let u = clamp((s - line - r) / shadow.reach, 0, 1)
        let k = shadow.amount * (1 - u) * (1 - u) * shadow.fade
        color = shadowed(color, k)
      }
      if s <= line {
        color = c.getFromColor(c.uv)
        let s0 = line + 3.14159265 * r + (line - s)
        let q = p + d * (s0 - s)
        color = color + (layer(c, q) - color) * cover(q)
      } else {
        let t = min((s - line) / r, 1)
        let a = asin(t)
        let rim = clamp((line + r - s) / 0.002, 0, 1)
        let s1 = line + r * a
        let q1 = p + d * (s1 - s)
        var front = c.getFromColor(SIMD2(q1.x, q1.y * ratio))
        let shade = 0.7 + 0.3 * cos(a)
        front = rgbScaled(front, shade)
        color = color + (front - color) * (cover(q1) * rim)
        let s2 = line + r * (3.14159265 - a)
        let q2 = p + d * (s2 - s)
        color = color + (layer(c, q2) - color) * (cover(q2) * rim)
      }
      return color
    }
  }

  /// page_curl.glsl: Core Image's CIPageCurlTransition, the old content curling away around a
  /// cylinder of `radius` along `angle`, its back a lightened mirror of itself or, with
  /// `useBacksideImage`, `backsideImage` mirrored.
  struct PageCurl: CPUTransitionKernel {
    let curl: Curl

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      curl = Curl(parameters, progress: progress, ratio: ratio, shadow: false)
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> { curl.color(c) }
  }

  /// page_curl_with_shadow.glsl: Core Image's CIPageCurlWithShadowTransition, the page curl with
  /// the shadow the lifted page casts on the new content.
  struct PageCurlWithShadow: CPUTransitionKernel {
    let curl: Curl

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      curl = Curl(parameters, progress: progress, ratio: ratio, shadow: true)
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> { curl.color(c) }
  }

  // MARK: - accordionFold

  /// accordion_fold.glsl: Core Image's CIAccordionFoldTransition, the old content folding up
  /// towards the top edge in 2 × `numberOfFolds` panels and crossfading into the new.
  struct AccordionFold: CPUTransitionKernel {
    let progress: Float
    let ratio: Float
    let h: Float
    let span: Float
    let n: Float
    let panel: Float
    let folded: Float
    let lean: Float
    let depth: Float
    let foldShadow: Float
    /// 1 − progress².
    let fadeOut: Float

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      self.progress = progress
      self.ratio = ratio
      h = 1 / ratio
      let b = clamp(parameters.float("bottomHeight"), 0, h)
      span = h - b
      n = Float(max(parameters.int("numberOfFolds"), 1)) * 2
      panel = span / n
      folded = span * (1 - progress)
      lean = 1 - progress
      depth = panel * max(1 - lean * lean, 0).squareRoot()
      foldShadow = parameters.float("foldShadowAmount")
      fadeOut = 1 - progress * progress
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let p = SIMD2(c.uv.x, c.uv.y * h)
      let yl = h - p.y
      let src: SIMD2<Float>
      var coverage: Float = 1
      var shade: Float = 1
      if yl < folded {
        let f = yl / (folded / n)
        let tri = abs(f - 2 * floor(f * 0.5 + 0.5))
        let z = tri * depth
        let sx = 0.5 + (p.x - 0.5) * (1 + z * 1.5)
        src = SIMD2(sx, h - yl / lean)
        coverage = clamp(1 + min(sx, 1 - sx) / 0.002, 0, 1)
        shade = clamp(1 - foldShadow * 3 * z / panel, 0, 1)
      } else {
        src = SIMD2(p.x, p.y - span * progress)
        coverage = clamp(1 + src.y / 0.002, 0, 1)
      }
      var a = c.getFromColor(SIMD2(src.x, src.y * ratio))
      a = rgbScaled(a, shade)
      let b2 = c.getToColor(c.uv)
      let w = coverage * fadeOut
      return b2 + (a - b2) * w
    }
  }

  // MARK: - disintegrateWithMask

  /// disintegrate_with_mask.glsl: Core Image's CIDisintegrateWithMaskTransition over a
  /// procedural value-noise mask of `maskScale` cells across the width, or with `useMaskImage`
  /// the luminance of `maskImage` at uv, with a soft shadow.
  struct DisintegrateWithMask: CPUTransitionKernel {
    let progress: Float
    let ratio: Float
    let scale: Float
    let image: ImageTexels?
    let soft: Float
    let shadowOffset: SIMD2<Float>
    let density: Float

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      self.progress = progress
      self.ratio = ratio
      scale = parameters.float("maskScale")
      image = parameters.bool("useMaskImage") ? parameters.image("maskImage") : nil
      soft = 0.05 + max(parameters.float("shadowRadius"), 0) * max(scale, 0.0001)
      shadowOffset = parameters.vec2("shadowOffset")
      density = clamp(parameters.float("shadowDensity"), 0, 1)
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let p = SIMD2(c.uv.x, c.uv.y / ratio)
      let keep = Self.remains(image.map { Self.maskImageAt($0, c.uv) } ?? Self.mask(p, scale), 0.05, progress)
      let ps = p - shadowOffset
      let k =
        density
        * Self.remains(
          image.map { Self.maskImageAt($0, SIMD2(ps.x, ps.y * ratio)) } ?? Self.mask(ps, scale), soft, progress)
      var b = c.getToColor(c.uv)
      b = shadowed(b, k)
      let a = c.getFromColor(c.uv)
      return b + (a - b) * keep
    }

    /// The shader's `maskImageAt`: the mask image's luminance at uv (Rec. 709, of the
    /// unpremultiplied colour; 0 where it is transparent).
    private static func maskImageAt(_ image: ImageTexels, _ uv: SIMD2<Float>) -> Float {
      let c = image.sample(uv)
      let rgb = c.w > 0 ? SIMD3(c.x / c.w, c.y / c.w, c.z / c.w) : SIMD3<Float>(0, 0, 0)
      return 0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z
    }

    /// The shader's `wrap289`: x mod 289 for whole numbers x, exactly.
    @inline(__always) private static func wrap289(_ x: Float) -> Float {
      var r = x - 289 * floor(x / 289)
      if r >= 289 { r -= 289 }
      if r < 0 { r += 289 }
      return r
    }

    /// The shader's `lattice`: a value in [0, 1] for a lattice point, from whole-number steps.
    @inline(__always) private static func lattice(_ c: SIMD2<Float>) -> Float {
      var n = wrap289(c.x)
      n = wrap289((n * 34 + 1) * n)
      n = wrap289(n + wrap289(c.y))
      n = wrap289((n * 34 + 1) * n)
      return n / 288
    }

    /// The shader's `valueNoise`.
    @inline(__always) private static func valueNoise(_ p: SIMD2<Float>) -> Float {
      let i = SIMD2(floor(p.x), floor(p.y))
      let f = p - i
      let w = f * f * (3 - 2 * f)
      let a = lattice(i)
      let b = lattice(i + SIMD2(1, 0))
      let c = lattice(i + SIMD2(0, 1))
      let d = lattice(i + SIMD2(1, 1))
      let x0 = a + (b - a) * w.x
      let x1 = c + (d - c) * w.x
      return x0 + (x1 - x0) * w.y
    }

    /// The shader's `mask`: the procedural mask's brightness at p (width units).
    @inline(__always) private static func mask(_ p: SIMD2<Float>, _ scale: Float) -> Float {
      let g = max(scale, 0.0001)
      let v = valueNoise(p * g) * 0.65 + valueNoise(p * (g * 2) + SIMD2(17, 31)) * 0.35
      return clamp((v - 0.5) * 1.6 + 0.5, 0, 1)
    }

    /// The shader's `remains`: how much of the old content remains where the mask is m.
    @inline(__always) private static func remains(_ m: Float, _ soft: Float, _ progress: Float) -> Float {
      let edge = progress * 1.05 - 0.05
      let t = clamp((m - edge) / soft, 0, 1)
      return t * t * (3 - 2 * t)
    }
  }
}
