// Core Image's CIFlashTransition: a star of light of `color` bursts from `center`, its rays
// (striations) reaching `maxStriationRadius` widths at full flash, which it reaches at
// progress `fadeThreshold`; the flash then fades into the new content.
// `center` is in uv (y up); the radius is in fractions of the output's width, as the pass has
// no extent (Core Image's centre default is (150, 150) px; the middle of the frame here).
// The rays' directions use multiple-angle polynomials of the direction's cosine, not atan, so
// that the CPU twin computes the same values. CPU twin: CPUEffects.Flash.

uniform vec2 center; // = vec2(0.5, 0.5)
uniform vec3 color; // = vec3(1.0, 0.8, 0.6)
uniform float maxStriationRadius; // = 2.58
uniform float striationStrength; // = 0.5
uniform float striationContrast; // = 1.375
uniform float fadeThreshold; // = 0.85

vec4 transition(vec2 uv) {
  vec4 flashColor = vec4(clamp(color, 0.0, 1.0), 1.0);
  float threshold = clamp(fadeThreshold, 0.0, 1.0);
  if (progress >= threshold) {
    // threshold < progress < 1 here, so 1 - threshold > 0.
    float f = (progress - threshold) / (1.0 - threshold);
    return flashColor + (getToColor(uv) - flashColor) * f;
  }
  // 0 < progress < threshold here.
  float k = progress / threshold;
  vec2 q = (uv - center) * vec2(1.0, 1.0 / ratio);
  float r = length(q);
  float c = r > 0.000001 ? q.x / r : 1.0;
  // cos 12θ and cos 16θ from c = cos θ.
  float c2 = 2.0 * c * c - 1.0;
  float c4 = 2.0 * c2 * c2 - 1.0;
  float c8 = 2.0 * c4 * c4 - 1.0;
  float c16 = 2.0 * c8 * c8 - 1.0;
  float c3 = (4.0 * c * c - 3.0) * c;
  float c6 = 2.0 * c3 * c3 - 1.0;
  float c12 = 2.0 * c6 * c6 - 1.0;
  float ray = 0.5 + 0.25 * c16 + 0.25 * c12;
  ray = clamp((ray - 0.5) * striationContrast + 0.5, 0.0, 1.0);
  // Between the rays the light reaches (1 − strength) of the rays' reach.
  float s = clamp(striationStrength, 0.0, 1.0);
  float reach = max(k * maxStriationRadius * (1.0 - s + s * ray), 0.0001);
  float glow = clamp(1.0 - r / reach, 0.0, 1.0);
  // The whole frame is flash colour by the threshold (k = 1).
  float weight = min(glow + k * k * k, 1.0);
  vec4 a = getFromColor(uv);
  return a + (flashColor - a) * weight;
}
