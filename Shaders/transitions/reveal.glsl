// Core Animation's reveal transition: the old content slides out, moving away from `direction`
// (uv units, y up: fromLeft is (-1, 0)), uncovering the new. CPU twin: CPUEffects.Reveal.

uniform vec2 direction; // = vec2(-1.0, 0.0)

bool inside(vec2 p) {
  return p.x >= 0.0 && p.x <= 1.0 && p.y >= 0.0 && p.y <= 1.0;
}

vec4 transition(vec2 uv) {
  vec2 q = uv + direction * progress;
  return inside(q) ? getFromColor(q) : getToColor(uv);
}
