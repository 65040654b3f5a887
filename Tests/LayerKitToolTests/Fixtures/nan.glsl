// A transition in the gl-transitions form whose colour is not a number in its second half: the
// square root of a negative number. LayerKit must refuse it with the progress where it happens,
// not write black frames.
vec4 transition(vec2 uv) {
  float k = progress > 0.5 ? sqrt(0.5 - progress) : 1.0;
  return mix(getFromColor(uv), getToColor(uv), progress) * k;
}
