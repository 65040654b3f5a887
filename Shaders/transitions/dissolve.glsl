// Core Image's CIDissolveTransition: a crossfade from the old content to the new.
// gl-transitions form; the CPU twin is TransitionEffects.dissolve.

vec4 transition(vec2 uv) {
  // The ends return the images outright: a + (b - a) * 1 need not round to b.
  if (progress <= 0.0) return getFromColor(uv);
  if (progress >= 1.0) return getToColor(uv);
  vec4 a = getFromColor(uv);
  vec4 b = getToColor(uv);
  return a + (b - a) * progress;
}
