// A test transition with an extra texture, written for LayerKit: between the ends it shows the
// `pattern` image scaled by `amount`.
uniform sampler2D pattern;
uniform float amount; // = 1.0

vec4 transition(vec2 uv) {
  if (progress <= 0.0) return getFromColor(uv);
  if (progress >= 1.0) return getToColor(uv);
  return texture2D(pattern, uv) * amount;
}
