vec4 transition(vec2 uv) {
  return getFromColor(progress);
}
