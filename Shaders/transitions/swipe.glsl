// Core Image's CISwipeTransition: a soft-edged band sweeps across the frame along `angle`
// (radians; 0 moves left to right, uv y up), leaving the new content behind it; the band is
// tinted towards `color` with `opacity` (0, the default, is a plain soft wipe).
// Lengths are fractions of the output's width, as the pass has no extent: Core Image's 300 px
// band over a 640-px-wide image is 0.46875. CPU twin: CPUEffects.Swipe.

uniform vec3 color; // = vec3(1.0, 1.0, 1.0)
uniform float angle; // = 0.0
uniform float width; // = 0.46875
uniform float opacity; // = 0.0

#include "transitions/include/band_sweep.glsl"

vec4 transition(vec2 uv) {
  float m = bandMix(uv);
  vec4 a = getFromColor(uv);
  vec4 b = getToColor(uv);
  vec4 base = a + (b - a) * m;
  // The tint peaks in the middle of the band; colour × alpha keeps it premultiplied.
  float k = clamp(opacity * (1.0 - abs(2.0 * m - 1.0)), 0.0, 1.0);
  vec3 tint = clamp(color, 0.0, 1.0) * base.a;
  return vec4(base.rgb + (tint - base.rgb) * k, base.a);
}
