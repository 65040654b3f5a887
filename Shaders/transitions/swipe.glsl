// Core Image's CISwipeTransition: a soft-edged band sweeps across the frame along `angle`
// (radians; 0 moves left to right, uv y up), leaving the new content behind it; the band is
// tinted towards `color` with `opacity` (0, the default, is a plain soft wipe).
// Lengths are fractions of the output's width, as the pass has no extent: Core Image's 300 px
// band over a 640-px-wide image is 0.46875. CPU twin: CPUEffects.Swipe.

uniform vec3 color; // = vec3(1.0, 1.0, 1.0)
uniform float angle; // = 0.0
uniform float width; // = 0.46875
uniform float opacity; // = 0.0

// Smoothstep over [0, 1], spelled out so that the CPU twin does the same operations.
float ramp(float x) {
  float t = clamp(x, 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

vec4 transition(vec2 uv) {
  vec2 d = vec2(cos(angle), sin(angle));
  // Width units: x spans [0, 1], y spans [0, h].
  float h = 1.0 / ratio;
  // The frame's extent along d: its corners projected on d.
  float lo = min(d.x, 0.0) + min(d.y * h, 0.0);
  float hi = max(d.x, 0.0) + max(d.y * h, 0.0);
  float w = max(width, 0.0001);
  float s = uv.x * d.x + uv.y * h * d.y;
  // The band's leading edge travels from lo (nothing covered) to hi + w (everything behind it).
  float edge = lo + (hi - lo + w) * progress;
  float m = ramp((edge - s) / w);
  vec4 a = getFromColor(uv);
  vec4 b = getToColor(uv);
  vec4 base = a + (b - a) * m;
  // The tint peaks in the middle of the band; colour × alpha keeps it premultiplied.
  float k = clamp(opacity * (1.0 - abs(2.0 * m - 1.0)), 0.0, 1.0);
  vec3 tint = clamp(color, 0.0, 1.0) * base.a;
  return vec4(base.rgb + (tint - base.rgb) * k, base.a);
}
