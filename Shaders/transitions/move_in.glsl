// Core Animation's moveIn transition: the new content slides in over the old from `direction`
// (uv units, y up: fromLeft is (-1, 0), fromTop is (0, 1)). CPU twin: CPUEffects.MoveIn.

uniform vec2 direction; // = vec2(-1.0, 0.0)

bool inside(vec2 p) {
  return p.x >= 0.0 && p.x <= 1.0 && p.y >= 0.0 && p.y <= 1.0;
}

vec4 transition(vec2 uv) {
  vec2 q = uv - direction * (1.0 - progress);
  return inside(q) ? getToColor(q) : getFromColor(uv);
}
