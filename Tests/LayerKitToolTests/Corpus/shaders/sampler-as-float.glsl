uniform sampler2D pattern;
vec4 transition(vec2 uv) {
  return getFromColor(uv) * pattern;
}
