vec4 transition(vec2 uv) {
  if (progress > 0.5) {
    return getToColor(uv);
  return getFromColor(uv);
}
