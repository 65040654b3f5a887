// Core Animation's push transition: the new content pushes the old out, both moving away from
// `direction` (uv units, y up: fromLeft is (-1, 0)). CPU twin: CPUEffects.Push.

uniform vec2 direction; // = vec2(-1.0, 0.0)

bool inside(vec2 p) {
  return p.x >= 0.0 && p.x <= 1.0 && p.y >= 0.0 && p.y <= 1.0;
}

vec4 transition(vec2 uv) {
  vec2 q = uv - direction * (1.0 - progress);
  return inside(q) ? getToColor(q) : getFromColor(uv + direction * progress);
}
