// LayerKit test fixture, in the gl-transitions form: file-scope initializers in preprocessor
// conditionals, beside declarations the loader leaves as they are (arrays, a struct), a global
// of a struct type, a prototype, and a user function named round (a built-in in GLSL ES 3.00).
#define SCALE 2.0
#ifdef GL_ES
float a = progress * SCALE;
#elif defined(OTHER)
float a = 1.0;
#else
vec4 base = texture2D(from, vec2(0.5)), b = vec4(round(0.5)); // texture2D stays the built-in
#endif
float[2] pair = float[2](0.25, 0.65);
float c[2];
struct S { float v; };
S s = S(ratio);
float f(float x);
float round(float x) { return floor(x + 0.5); }

// The ends are the images; between them a flat colour of the globals: at progress 0.5 over a
// 23 × 17 pass (a · 0.25, pair[1] − pair[0] + c[0], f(s.v), round(0.6)) = (0.25, 0.4, 0.2, 1).
vec4 transition(vec2 uv) {
  if (progress <= 0.0) return getFromColor(uv);
  if (progress >= 1.0) return getToColor(uv);
  c[0] = 0.0;
  return vec4(a * 0.25, pair[1] - pair[0] + c[0], f(s.v), round(0.6));
}

float f(float x) { return x / ratio * 0.2; }
