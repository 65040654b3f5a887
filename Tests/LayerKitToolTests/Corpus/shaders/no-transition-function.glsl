vec4 effect(vec2 uv) {
  return getFromColor(uv);
}
