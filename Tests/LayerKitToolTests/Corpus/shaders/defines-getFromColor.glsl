vec4 getFromColor(vec2 uv) {
  return vec4(1.0);
}
vec4 transition(vec2 uv) {
  return getFromColor(uv);
}
