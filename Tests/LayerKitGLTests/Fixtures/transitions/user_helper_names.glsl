// LayerKit test fixture: a user's file with helpers named as a user might (the host's own are
// prefixed lk_, so none clashes) and no code for the ends: it draws (0.2, 0.4 + 0.4 × progress,
// 0.6, 1) everywhere, the old and new images at no progress (the host adds no exact ends to it).
vec4 sampleBilinear(vec2 uv) {
  return getFromColor(uv);
}

vec4 sampleImage(vec2 uv) {
  return getToColor(uv);
}

vec4 transition(vec2 uv) {
  vec4 images = sampleBilinear(uv) + sampleImage(uv);
  return vec4(0.2, 0.4 + 0.4 * progress, 0.6, 1.0) + images * 0.0;
}
