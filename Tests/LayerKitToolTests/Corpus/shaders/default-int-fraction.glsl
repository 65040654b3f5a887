uniform int steps; // = 2.5
vec4 transition(vec2 uv) {
  return mix(getFromColor(uv), getToColor(uv), floor(progress * float(steps)) / float(steps));
}
