uniform mat4 warp;
vec4 transition(vec2 uv) {
  return getFromColor(uv);
}
