float f(float x) {
  return x <= 0.0 ? 0.0 : f(x - 1.0);
}
vec4 transition(vec2 uv) {
  return getFromColor(uv) * f(progress);
}
