// Core Image–style transitions, first half: dissolve, swipe, barsSwipe, copyMachine, flash and
// mod, with Core Image's parameter names and defaults. Each is one GLSL file under
// Shaders/transitions and one CPU twin here with the same parameters in the same order and the
// same Float operations in the same order (GPU ≡ CPU is a parity test).
//
// The pass has no extent, so Core Image's pixel lengths are fractions of the output's width,
// taken over a 640-px-wide image (300 px → 0.46875), and its pixel centres are uv (0.5, 0.5).
// At progress 0 and 1 the executor returns the surfaces outright (ReferenceRenderer.transition).

import Foundation
import LayerKitRender

/// GLSL's clamp(x, lo, hi): min(max(x, lo), hi).
private func clamp(_ x: Float, _ lo: Float, _ hi: Float) -> Float { min(max(x, lo), hi) }

private func clamp(_ x: SIMD3<Float>, _ lo: Float, _ hi: Float) -> SIMD3<Float> {
  SIMD3(clamp(x.x, lo, hi), clamp(x.y, lo, hi), clamp(x.z, lo, hi))
}

/// The shaders' `ramp`: smoothstep over [0, 1], spelled out.
private func ramp(_ x: Float) -> Float {
  let t = clamp(x, 0, 1)
  return t * t * (3 - 2 * t)
}

private func length(_ v: SIMD2<Float>) -> Float { (v.x * v.x + v.y * v.y).squareRoot() }

extension CPUEffects {
  /// dissolve.glsl: Core Image's CIDissolveTransition, a crossfade.
  static let dissolve: CPUEffect = { c in
    let a = c.getFromColor(c.uv)
    let b = c.getToColor(c.uv)
    return a + (b - a) * c.progress
  }


  /// The band geometry swipe and copyMachine share: the from→to weight m of the pixel at `uv` for
  /// a soft band of width `width` (width units) whose leading edge sweeps along `angle`.
  private static func bandWeight(_ c: TransitionContext, angle: Float, width: Float) -> Float {
    let d = SIMD2<Float>(cos(angle), sin(angle))
    // Width units: x spans [0, 1], y spans [0, h].
    let h = 1 / c.ratio
    let lo = min(d.x, 0) + min(d.y * h, 0)
    let hi = max(d.x, 0) + max(d.y * h, 0)
    let w = max(width, 0.0001)
    let s = c.uv.x * d.x + c.uv.y * h * d.y
    let edge = lo + (hi - lo + w) * c.progress
    return ramp((edge - s) / w)
  }

  /// swipe.glsl: Core Image's CISwipeTransition, a soft band tinted towards `color`.
  static let swipe: CPUEffect = { c in
    let m = bandWeight(c, angle: c.float("angle"), width: c.float("width"))
    let a = c.getFromColor(c.uv)
    let b = c.getToColor(c.uv)
    let base = a + (b - a) * m
    let k = clamp(c.float("opacity") * (1 - abs(2 * m - 1)), 0, 1)
    let tint = clamp(c.vec3("color"), 0, 1) * base.w
    let rgb = SIMD3(base.x, base.y, base.z)
    return SIMD4(rgb + (tint - rgb) * k, base.w)
  }


  /// bars_swipe.glsl: Core Image's CIBarsSwipeTransition, bars of the old content sliding away.
  static let barsSwipe: CPUEffect = { c in
    let angle = c.float("angle")
    let d = SIMD2<Float>(cos(angle), sin(angle))
    let h = 1 / c.ratio
    let len = abs(d.x) + abs(d.y * h)
    let w = max(c.float("width"), 0.0001)
    let across = (c.uv.y * h * d.x - c.uv.x * d.y) / w
    let k = across.rounded(.down)
    // k mod 3, as the shader spells it.
    let q = k - 3 * ((k + 0.5) / 3).rounded(.down)
    let stagger = max(c.float("barOffset"), 0) * w
    let shift = clamp(c.progress * (len + stagger) - q * 0.5 * stagger, 0, len)
    let src = c.uv - SIMD2(d.x, d.y * c.ratio) * shift
    return inside(src) ? c.getFromColor(src) : c.getToColor(c.uv)
  }


  /// copy_machine.glsl: Core Image's CICopyMachineTransition, a bar of light sweeping across.
  static let copyMachine: CPUEffect = { c in
    let m = bandWeight(c, angle: c.float("angle"), width: c.float("width"))
    let a = c.getFromColor(c.uv)
    let b = c.getToColor(c.uv)
    let base = a + (b - a) * m
    let light = max(c.float("opacity"), 0) * (1 - abs(2 * m - 1))
    let lit = SIMD3(base.x, base.y, base.z) + clamp(c.vec3("color"), 0, 1) * (light * base.w)
    return SIMD4(pointwiseMin(lit, SIMD3(repeating: base.w)), base.w)
  }


  /// flash.glsl: Core Image's CIFlashTransition, a star of light that fades into the new content.
  static let flash: CPUEffect = { c in
    let flashColor = SIMD4(clamp(c.vec3("color"), 0, 1), 1)
    let threshold = clamp(c.float("fadeThreshold"), 0, 1)
    if c.progress >= threshold {
      let f = (c.progress - threshold) / (1 - threshold)
      return flashColor + (c.getToColor(c.uv) - flashColor) * f
    }
    let k = c.progress / threshold
    let q = (c.uv - c.vec2("center")) * SIMD2(1, 1 / c.ratio)
    let r = length(q)
    let co = r > 0.000001 ? q.x / r : 1
    // cos 12θ and cos 16θ from co = cos θ, as the shader computes them.
    let c2 = 2 * co * co - 1
    let c4 = 2 * c2 * c2 - 1
    let c8 = 2 * c4 * c4 - 1
    let c16 = 2 * c8 * c8 - 1
    let c3 = (4 * co * co - 3) * co
    let c6 = 2 * c3 * c3 - 1
    let c12 = 2 * c6 * c6 - 1
    var ray = 0.5 + 0.25 * c16 + 0.25 * c12
    ray = clamp((ray - 0.5) * c.float("striationContrast") + 0.5, 0, 1)
    let s = clamp(c.float("striationStrength"), 0, 1)
    let reach = max(k * c.float("maxStriationRadius") * (1 - s + s * ray), 0.0001)
    let glow = clamp(1 - r / reach, 0, 1)
    let weight = min(glow + k * k * k, 1)
    let a = c.getFromColor(c.uv)
    return a + (flashColor - a) * weight
  }


  /// mod.glsl: Core Image's CIModTransition, holes opening in a turned grid, each at its own time.
  static let mod: CPUEffect = { c in
    let v = (c.uv - c.vec2("center")) * SIMD2(1, 1 / c.ratio)
    let angle = c.float("angle")
    let ca = cos(angle)
    let sa = sin(angle)
    let g = SIMD2(ca * v.x + sa * v.y, ca * v.y - sa * v.x)
    let rad = max(c.float("radius"), 0.0001)
    let cell = SIMD2(2 * rad, 2 * rad * rad / max(c.float("compression"), 0.0001))
    let t = g / cell
    let k = t.rounded(.down)
    let f = t - k - 0.5
    // (37 kx + 61 ky) mod 101, exactly, as the shader spells it.
    let n = k.x * 37 + k.y * 61
    let hash = n - 101 * ((n + 0.5) / 101).rounded(.down)
    let delay = hash / 101
    let open = clamp(c.progress * 1.6 - delay * 0.6, 0, 1)
    let m = ramp((open * 0.75 - length(f)) / 0.05 + 0.5)
    let a = c.getFromColor(c.uv)
    let b = c.getToColor(c.uv)
    return a + (b - a) * m
  }
}
