uniform vec2 center; // = vec3(0.5, 0.5, 0.5)
vec4 transition(vec2 uv) {
  return distance(uv, center) < progress ? getToColor(uv) : getFromColor(uv);
}
