// Core Animation's fade transition: the new content crossfades over the old.
// gl-transitions form; the CPU twin is CPUEffects.Fade.

vec4 transition(vec2 uv) {
  vec4 a = getFromColor(uv);
  vec4 b = getToColor(uv);
  return a + (b - a) * progress;
}
