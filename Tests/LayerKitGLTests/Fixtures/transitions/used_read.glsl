// Written for LayerKit's tests: half of every pixel is the from-image read at a coordinate that
// is not a number once progress is above 0 (the square root of a negative number), so the
// picture depends on that read: refused when the file is registered.
vec4 transition(vec2 uv) {
  return mix(getFromColor(uv * sqrt(-progress)), getToColor(uv), 0.5);
}
