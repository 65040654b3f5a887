// Core Image–style transitions, first half: swipe, barsSwipe, copyMachine, flash and mod (dissolve
// is the fade kernel, CPUEffects.swift), with Core Image's parameter names and defaults. Each is
// one GLSL file under Shaders/transitions and one CPU twin here with the same parameters in the
// same order and the same Float operations in the same order (GPU ≡ CPU is a parity test); what
// does not depend on the pixel is worked out when the kernel is made.
//
// The pass has no extent, so Core Image's pixel lengths are fractions of the output's width,
// taken over a 640-px-wide image (300 px → 0.46875), and its pixel centres are uv (0.5, 0.5).
// At progress 0 and 1 the executor returns the surfaces outright (ReferenceRenderer.transition).

import Foundation
import LayerKitRender

/// GLSL's clamp(x, lo, hi): min(max(x, lo), hi).
@inline(__always) private func clamp(_ x: Float, _ lo: Float, _ hi: Float) -> Float { min(max(x, lo), hi) }

private func clamp(_ x: SIMD3<Float>, _ lo: Float, _ hi: Float) -> SIMD3<Float> {
  SIMD3(clamp(x.x, lo, hi), clamp(x.y, lo, hi), clamp(x.z, lo, hi))
}

/// The shaders' `ramp`: smoothstep over [0, 1], spelled out.
@inline(__always) private func ramp(_ x: Float) -> Float {
  let t = clamp(x, 0, 1)
  return t * t * (3 - 2 * t)
}

@inline(__always) private func length(_ v: SIMD2<Float>) -> Float { (v.x * v.x + v.y * v.y).squareRoot() }

extension CPUEffects {
  /// The band geometry swipe and copyMachine share: the from→to weight of a pixel for a soft band
  /// of width `width` (width units) whose leading edge sweeps along `angle`.
  struct Band {
    let d: SIMD2<Float>
    let h: Float
    let w: Float
    let edge: Float

    init(angle: Float, width: Float, progress: Float, ratio: Float) {
      d = SIMD2<Float>(cos(angle), sin(angle))
      // Width units: x spans [0, 1], y spans [0, h].
      h = 1 / ratio
      let lo = min(d.x, 0) + min(d.y * h, 0)
      let hi = max(d.x, 0) + max(d.y * h, 0)
      w = max(width, 0.0001)
      edge = lo + (hi - lo + w) * progress
    }

    @inline(__always) func weight(_ uv: SIMD2<Float>) -> Float {
      let s = uv.x * d.x + uv.y * h * d.y
      return ramp((edge - s) / w)
    }
  }

  /// swipe.glsl: Core Image's CISwipeTransition, a soft band tinted towards `color`.
  struct Swipe: CPUTransitionKernel {
    let band: Band
    let opacity: Float
    let tint: SIMD3<Float>

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      band = Band(
        angle: parameters.float("angle"), width: parameters.float("width"), progress: progress, ratio: ratio)
      opacity = parameters.float("opacity")
      tint = clamp(parameters.vec3("color"), 0, 1)
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let m = band.weight(c.uv)
      let a = c.getFromColor(c.uv)
      let b = c.getToColor(c.uv)
      let base = a + (b - a) * m
      let k = clamp(opacity * (1 - abs(2 * m - 1)), 0, 1)
      let tint = self.tint * base.w
      let rgb = SIMD3(base.x, base.y, base.z)
      return SIMD4(rgb + (tint - rgb) * k, base.w)
    }
  }

  /// bars_swipe.glsl: Core Image's CIBarsSwipeTransition, bars of the old content sliding away.
  struct BarsSwipe: CPUTransitionKernel {
    let d: SIMD2<Float>
    let h: Float
    let len: Float
    let w: Float
    let stagger: Float
    /// progress × (len + stagger).
    let lead: Float
    /// The shift's direction in uv: (d.x, d.y × ratio).
    let step: SIMD2<Float>

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      let angle = parameters.float("angle")
      d = SIMD2<Float>(cos(angle), sin(angle))
      h = 1 / ratio
      len = abs(d.x) + abs(d.y * h)
      w = max(parameters.float("width"), 0.0001)
      stagger = max(parameters.float("barOffset"), 0) * w
      lead = progress * (len + stagger)
      step = SIMD2(d.x, d.y * ratio)
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let across = (c.uv.y * h * d.x - c.uv.x * d.y) / w
      let k = across.rounded(.down)
      // k mod 3, as the shader spells it.
      let q = k - 3 * ((k + 0.5) / 3).rounded(.down)
      let shift = clamp(lead - q * 0.5 * stagger, 0, len)
      let src = c.uv - step * shift
      return inside(src) ? c.getFromColor(src) : c.getToColor(c.uv)
    }
  }

  /// copy_machine.glsl: Core Image's CICopyMachineTransition, a bar of light sweeping across.
  struct CopyMachine: CPUTransitionKernel {
    let band: Band
    let opacity: Float
    let light: SIMD3<Float>

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      band = Band(
        angle: parameters.float("angle"), width: parameters.float("width"), progress: progress, ratio: ratio)
      opacity = max(parameters.float("opacity"), 0)
      light = clamp(parameters.vec3("color"), 0, 1)
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let m = band.weight(c.uv)
      let a = c.getFromColor(c.uv)
      let b = c.getToColor(c.uv)
      let base = a + (b - a) * m
      let light = opacity * (1 - abs(2 * m - 1))
      let lit = SIMD3(base.x, base.y, base.z) + self.light * (light * base.w)
      return SIMD4(pointwiseMin(lit, SIMD3(repeating: base.w)), base.w)
    }
  }

  /// flash.glsl: Core Image's CIFlashTransition, a star of light that fades into the new content.
  struct Flash: CPUTransitionKernel {
    let flashColor: SIMD4<Float>
    /// Past the threshold: the fade from the flash to the new content, by f.
    let fading: Bool
    let f: Float
    let center: SIMD2<Float>
    let aspect: SIMD2<Float>
    let contrast: Float
    let s: Float
    /// k × maxStriationRadius, and k³ (k = progress / threshold).
    let kReach: Float
    let k3: Float

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      flashColor = SIMD4(clamp(parameters.vec3("color"), 0, 1), 1)
      let threshold = clamp(parameters.float("fadeThreshold"), 0, 1)
      fading = progress >= threshold
      f = fading ? (progress - threshold) / (1 - threshold) : 0
      let k = fading ? 0 : progress / threshold
      center = parameters.vec2("center")
      aspect = SIMD2(1, 1 / ratio)
      contrast = parameters.float("striationContrast")
      s = clamp(parameters.float("striationStrength"), 0, 1)
      kReach = k * parameters.float("maxStriationRadius")
      k3 = k * k * k
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      if fading {
        return flashColor + (c.getToColor(c.uv) - flashColor) * f
      }
      let q = (c.uv - center) * aspect
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
      ray = clamp((ray - 0.5) * contrast + 0.5, 0, 1)
      let reach = max(kReach * (1 - s + s * ray), 0.0001)
      let glow = clamp(1 - r / reach, 0, 1)
      let weight = min(glow + k3, 1)
      let a = c.getFromColor(c.uv)
      return a + (flashColor - a) * weight
    }
  }

  /// mod.glsl: Core Image's CIModTransition, holes opening in a turned grid, each at its own time.
  struct Mod: CPUTransitionKernel {
    let center: SIMD2<Float>
    let aspect: SIMD2<Float>
    let ca: Float
    let sa: Float
    let cell: SIMD2<Float>
    /// progress × 1.6.
    let lead: Float

    init(_ parameters: ResolvedParameters, progress: Float, ratio: Float) {
      center = parameters.vec2("center")
      aspect = SIMD2(1, 1 / ratio)
      let angle = parameters.float("angle")
      ca = cos(angle)
      sa = sin(angle)
      let rad = max(parameters.float("radius"), 0.0001)
      cell = SIMD2(2 * rad, 2 * rad * rad / max(parameters.float("compression"), 0.0001))
      lead = progress * 1.6
    }

    @inline(__always) func color(_ c: TransitionContext) -> SIMD4<Float> {
      let v = (c.uv - center) * aspect
      let g = SIMD2(ca * v.x + sa * v.y, ca * v.y - sa * v.x)
      let t = g / cell
      let k = t.rounded(.down)
      let f = t - k - 0.5
      // (37 kx + 61 ky) mod 101, exactly, as the shader spells it.
      let n = k.x * 37 + k.y * 61
      let hash = n - 101 * ((n + 0.5) / 101).rounded(.down)
      let delay = hash / 101
      let open = clamp(lead - delay * 0.6, 0, 1)
      let m = ramp((open * 0.75 - length(f)) / 0.05 + 0.5)
      let a = c.getFromColor(c.uv)
      let b = c.getToColor(c.uv)
      return a + (b - a) * m
    }
  }
}
