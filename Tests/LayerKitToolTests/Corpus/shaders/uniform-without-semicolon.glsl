uniform float amount // = 0.5
vec4 transition(vec2 uv) {
  return mix(getFromColor(uv), getToColor(uv), progress * amount);
}
