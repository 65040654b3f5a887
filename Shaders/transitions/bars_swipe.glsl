// Core Image's CIBarsSwipeTransition: the old content is cut into bars running along `angle`
// (radians, uv y up) that slide away along it, uncovering the new; bars start in a cycle of
// three, each `barOffset` bar widths of travel behind the one before.
// Lengths are fractions of the output's width, as the pass has no extent: Core Image's 30 px
// bars over a 640-px-wide image are 0.046875. CPU twin: CPUEffects.BarsSwipe.

uniform float angle; // = 3.14
uniform float width; // = 0.046875
uniform float barOffset; // = 10.0

bool inside(vec2 p) {
  return p.x >= 0.0 && p.x <= 1.0 && p.y >= 0.0 && p.y <= 1.0;
}

vec4 transition(vec2 uv) {
  vec2 d = vec2(cos(angle), sin(angle));
  // Width units: x spans [0, 1], y spans [0, h].
  float h = 1.0 / ratio;
  // The frame's extent along d: far enough to slide a bar off.
  float len = abs(d.x) + abs(d.y * h);
  float w = max(width, 0.0001);
  // Position across the bars (along d turned a quarter anticlockwise), in bar widths.
  float across = (uv.y * h * d.x - uv.x * d.y) / w;
  float k = floor(across);
  // k mod 3, with k an integer: the +0.5 keeps the quotient away from integers, so no
  // rounding of the division can move floor.
  float q = k - 3.0 * floor((k + 0.5) / 3.0);
  float stagger = max(barOffset, 0.0) * w;
  float shift = clamp(progress * (len + stagger) - q * 0.5 * stagger, 0.0, len);
  vec2 src = uv - vec2(d.x, d.y * ratio) * shift;
  return inside(src) ? getFromColor(src) : getToColor(uv);
}
