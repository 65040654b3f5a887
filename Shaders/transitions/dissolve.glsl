// Core Image's CIDissolveTransition: a crossfade from the old content to the new.
// gl-transitions form; the CPU twin is CPUEffects.Fade (dissolve shares it).

vec4 transition(vec2 uv) {
  vec4 a = getFromColor(uv);
  vec4 b = getToColor(uv);
  return a + (b - a) * progress;
}
