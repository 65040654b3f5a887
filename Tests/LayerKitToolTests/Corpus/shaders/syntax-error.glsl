vec4 transition(vec2 uv) {
  vec4 a = getFromColor(uv)
  return a;
}
