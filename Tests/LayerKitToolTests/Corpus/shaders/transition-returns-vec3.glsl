vec3 transition(vec2 uv) {
  return getFromColor(uv).rgb;
}
