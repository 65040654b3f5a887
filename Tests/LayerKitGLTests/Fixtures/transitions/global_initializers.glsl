// LayerKit test fixture, in the gl-transitions form as WebGL 1 and GLSL 1.20 hosts take it:
// file-scope variables whose initializers are not constant expressions (they read progress,
// ratio and a parameter), which GLSL ES 3.00 refuses. The loader keeps each declaration on its
// line and assigns the initializers, in order, before transition() runs.
uniform float amount; // = 0.8

float edge = min(progress, 0.2);
const float opaque = 1.0;
float first = 0.2, second = first + progress * 0.5, unset;
vec2 spread = vec2(progress * amount, // a comment inside the initializer
                   ratio * 0.17);
mediump float wide = spread.y;

// The ends follow the globals: with them unassigned (all 0) every progress shows the old image.
// Between the ends, a flat colour of globals: at progress 0.5 over a 23 × 17 pass with the
// defaults it is (ratio · 0.17, 0.5 · 0.8, 0.2 + 0.5 · 0.5, 1) = (0.23, 0.4, 0.45, 1).
vec4 transition(vec2 uv) {
  if (edge <= 0.0) return getFromColor(uv);
  if (spread.x >= amount) return getToColor(uv);
  unset = second - first;
  return vec4(wide, spread.x, first + unset, opaque);
}
