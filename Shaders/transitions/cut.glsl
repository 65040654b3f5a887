// A cut halfway: the old content until progress passes 0.5, then the new (editly's `dummy`:
// the clips still overlap for the transition's length, and their sound crossfades).
// gl-transitions form; the CPU twin is CPUEffects.Cut.

vec4 transition(vec2 uv) {
  return progress > 0.5 ? getToColor(uv) : getFromColor(uv);
}
