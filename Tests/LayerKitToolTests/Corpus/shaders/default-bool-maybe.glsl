uniform bool flip; // = maybe
vec4 transition(vec2 uv) {
  return flip ? getToColor(uv) : getFromColor(uv);
}
