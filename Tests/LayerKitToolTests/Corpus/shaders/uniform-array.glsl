uniform float weights[4];
vec4 transition(vec2 uv) {
  return getFromColor(uv) * weights[0];
}
