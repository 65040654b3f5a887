// Core Image's CICopyMachineTransition: a bar of light of `color` sweeps across along `angle`
// (radians; 0 moves left to right, uv y up), as in a copier, leaving the new content behind it.
// `opacity` scales the light, which is added and clamped (premultiplied: colour ≤ alpha).
// Lengths are fractions of the output's width, as the pass has no extent: Core Image's 200 px
// bar over a 640-px-wide image is 0.3125. CPU twin: CPUEffects.CopyMachine.

uniform vec3 color; // = vec3(0.6, 1.0, 0.8)
uniform float angle; // = 0.0
uniform float width; // = 0.3125
uniform float opacity; // = 1.3

#include "transitions/include/band_sweep.glsl"

vec4 transition(vec2 uv) {
  float m = bandMix(uv);
  vec4 a = getFromColor(uv);
  vec4 b = getToColor(uv);
  vec4 base = a + (b - a) * m;
  // The light peaks in the middle of the bar and lights only what is there (× alpha).
  float light = max(opacity, 0.0) * (1.0 - abs(2.0 * m - 1.0));
  vec3 lit = base.rgb + clamp(color, 0.0, 1.0) * (light * base.a);
  return vec4(min(lit, vec3(base.a)), base.a);
}
