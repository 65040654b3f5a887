// Core Image's CIDisintegrateWithMaskTransition: the old content disappears where the mask is
// darker than the progress, uncovering the new content, on which what remains of the old casts a
// soft shadow. The mask is procedural by default: value noise over a grid of `maskScale` cells
// across the width (two octaves), from an exact hash of the cell corners; with `useMaskImage` it
// is the luminance (Rec. 709, of the unpremultiplied colour) of `maskImage` at uv instead
// (maskScale then only widens the shadow's edge). `shadowRadius` blurs the shadow,
// `shadowDensity` is its darkness and `shadowOffset` shifts it (uv y up: (0, −) falls downwards).
// Lengths are fractions of the output's width, as the pass has no extent: over a 640-px-wide
// image Core Image's shadow radius of 8 px is 0.0125 and its offset of (0, −10) px is
// (0, −0.015625). CPU twin: CPUEffects.DisintegrateWithMask.

uniform float maskScale; // = 8.0
uniform float shadowRadius; // = 0.0125
uniform float shadowDensity; // = 0.65
uniform vec2 shadowOffset; // = vec2(0.0, -0.015625)
uniform sampler2D maskImage;
uniform bool useMaskImage; // = false

// The mask image's luminance at uv (Rec. 709, of the unpremultiplied colour; 0 where it is
// transparent).
float maskImageAt(vec2 uv) {
  vec4 c = lk_sampleImage(maskImage, uv);
  vec3 rgb = c.a > 0.0 ? vec3(c.r / c.a, c.g / c.a, c.b / c.a) : vec3(0.0);
  return 0.2126 * rgb.r + 0.7152 * rgb.g + 0.0722 * rgb.b;
}

// x mod 289 for whole numbers x, exactly: the quotient's rounding is corrected both ways.
float wrap289(float x) {
  float r = x - 289.0 * floor(x / 289.0);
  if (r >= 289.0) r -= 289.0;
  if (r < 0.0) r += 289.0;
  return r;
}

// A value in [0, 1] for the lattice point c (whole numbers): the polynomial (34n + 1) n permutes
// the residues mod 289, applied to x and then to the result plus y. Every step is a whole number
// below 2^24, so it is exact in float on every backend.
float lattice(vec2 c) {
  float n = wrap289(c.x);
  n = wrap289((n * 34.0 + 1.0) * n);
  n = wrap289(n + wrap289(c.y));
  n = wrap289((n * 34.0 + 1.0) * n);
  return n / 288.0;
}

// Value noise: the lattice values around p, blended with smoothstep weights.
float valueNoise(vec2 p) {
  vec2 i = floor(p);
  vec2 f = p - i;
  vec2 w = f * f * (3.0 - 2.0 * f);
  float a = lattice(i);
  float b = lattice(i + vec2(1.0, 0.0));
  float c = lattice(i + vec2(0.0, 1.0));
  float d = lattice(i + vec2(1.0, 1.0));
  float x0 = a + (b - a) * w.x;
  float x1 = c + (d - c) * w.x;
  return x0 + (x1 - x0) * w.y;
}

// The mask's brightness at p (width units), spread over [0, 1].
float mask(vec2 p) {
  float g = max(maskScale, 0.0001);
  float v = valueNoise(p * g) * 0.65 + valueNoise(p * (g * 2.0) + vec2(17.0, 31.0)) * 0.35;
  return clamp((v - 0.5) * 1.6 + 0.5, 0.0, 1.0);
}

// How much of the old content remains where the mask is m, for a soft edge `soft` wide; the
// threshold runs from −0.05 (all remains) to 1 (none does).
float remains(float m, float soft) {
  float edge = progress * 1.05 - 0.05;
  float t = clamp((m - edge) / soft, 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

vec4 transition(vec2 uv) {
  // Width units: x spans [0, 1], y spans [0, h], so that the cells are square.
  vec2 p = vec2(uv.x, uv.y / ratio);
  float keep = remains(useMaskImage ? maskImageAt(uv) : mask(p), 0.05);
  // The shadow: the mask where the caster is, with an edge widened by the blur radius (the mask
  // changes by about maskScale per width unit).
  float soft = 0.05 + max(shadowRadius, 0.0) * max(maskScale, 0.0001);
  vec2 ps = p - shadowOffset;
  float m = useMaskImage ? maskImageAt(vec2(ps.x, ps.y * ratio)) : mask(ps);
  float k = clamp(shadowDensity, 0.0, 1.0) * remains(m, soft);
  vec4 b = getToColor(uv);
  b = b * (1.0 - k) + vec4(0.0, 0.0, 0.0, k);
  vec4 a = getFromColor(uv);
  return b + (a - b) * keep;
}
