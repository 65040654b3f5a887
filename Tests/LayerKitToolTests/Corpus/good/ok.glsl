// A valid transition in the gl-transitions form, for the corpus's cases that need one shader
// that works (a wrong parameter type for it, it on the CPU, it beside --filter): a soft wipe
// from top to bottom whose edge is `smoothness` of the frame's height.
uniform float smoothness; // = 0.1

vec4 transition(vec2 uv) {
  float edge = progress * (1.0 + smoothness);
  float fromWeight = smoothstep(edge - smoothness, edge, 1.0 - uv.y);
  return mix(getToColor(uv), getFromColor(uv), fromWeight);
}
