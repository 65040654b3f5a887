// A soft horizontal wipe, written for LayerKit's tests in the gl-transitions form.
uniform float softness; // = 0.1
uniform bool reverse; /* = false */

vec4 transition(vec2 uv) {
  float x = reverse ? 1.0 - uv.x : uv.x;
  float edge = progress * (1.0 + softness);
  float w = smoothstep(edge - softness, edge, x);
  return mix(getToColor(uv), getFromColor(uv), w);
}
