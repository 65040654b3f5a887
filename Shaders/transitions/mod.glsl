// Core Image's CIModTransition: the new content shows through holes that open in a grid
// turned by `angle` (radians) about `center`, each hole at its own time. Cells are 2·radius
// along the grid's first axis and 2·radius²/compression along the second, so more compression
// flattens the holes. `center` is in uv (y up); radius and compression are fractions of the
// output's width, as the pass has no extent: Core Image's 150 px and 300 px over a
// 640-px-wide image are 0.234375 and 0.46875. Each cell's delay is an integer hash, written the
// same in the CPU twin (no fract, no noise texture). CPU twin: CPUEffects.Mod.

uniform vec2 center; // = vec2(0.5, 0.5)
uniform float angle; // = 2.0
uniform float radius; // = 0.234375
uniform float compression; // = 0.46875

// Smoothstep over [0, 1], spelled out so that the CPU twin does the same operations.
float ramp(float x) {
  float t = clamp(x, 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

vec4 transition(vec2 uv) {
  // Width units about the centre, then into the grid's axes.
  vec2 p = (uv - center) * vec2(1.0, 1.0 / ratio);
  float ca = cos(angle);
  float sa = sin(angle);
  vec2 g = vec2(ca * p.x + sa * p.y, ca * p.y - sa * p.x);
  float rad = max(radius, 0.0001);
  vec2 cell = vec2(2.0 * rad, 2.0 * rad * rad / max(compression, 0.0001));
  vec2 t = g / cell;
  vec2 k = floor(t);
  vec2 f = t - k - 0.5;
  // (37 kx + 61 ky) mod 101, exactly: n is an integer, and the +0.5 keeps n / 101 away from
  // integers, so no rounding of the division can move floor.
  float n = k.x * 37.0 + k.y * 61.0;
  float hash = n - 101.0 * floor((n + 0.5) / 101.0);
  float delay = hash / 101.0;
  // Every cell is open by progress 1: 1.6 − 0.6 · delay ≥ 1.
  float open = clamp(progress * 1.6 - delay * 0.6, 0.0, 1.0);
  // A hole of radius 0.75 cells covers its cell (corners at 0.71); its edge is 0.05 cells soft.
  float m = ramp((open * 0.75 - length(f)) / 0.05 + 0.5);
  vec4 a = getFromColor(uv);
  vec4 b = getToColor(uv);
  return a + (b - a) * m;
}
