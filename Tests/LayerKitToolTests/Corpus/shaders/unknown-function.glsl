vec4 transition(vec2 uv) {
  return getFromColr(uv);
}
