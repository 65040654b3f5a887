// A transition in the gl-transitions form that reads the from-image at a coordinate that is not a
// number in its second half (the square root of a negative number), so the read samples nothing;
// its colour stays finite. LayerKit must refuse it with the progress where it happens, not write
// black frames.
vec4 transition(vec2 uv) {
  vec2 p = progress > 0.5 ? uv * sqrt(0.5 - progress) : uv;
  return mix(getFromColor(p), getToColor(uv), progress);
}
