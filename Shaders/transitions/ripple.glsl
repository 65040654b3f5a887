// Core Image's CIRippleTransition: a ring wave spreads from `center` (uv, y up), refracting both
// images as it passes; the new content lies inside the ring, the old outside. With
// `useShadingImage`, Core Image's shading image (a lit sphere) shades the ring: ring position x
// (−1 inner edge … 1 outer edge) in direction dir from the centre reads it at uv
// 0.5 + 0.5 · x · dir, and the ring's colour (all four premultiplied channels) is multiplied by
// 1 + (shade − 1) · (1 − x²), fading out at both edges.
// Lengths are fractions of the output's width, as the pass has no extent: over a 640-px-wide
// image Core Image's ring width of 100 px is 0.15625 and its refraction scale of 50 px is
// 0.078125 (the largest push is scale × 0.286). CPU twin: CPUEffects.Ripple.

uniform vec2 center; // = vec2(0.5, 0.5)
uniform float width; // = 0.15625
uniform float scale; // = 0.078125
uniform sampler2D shadingImage;
uniform bool useShadingImage; // = false

vec4 transition(vec2 uv) {
  // Width units: x spans [0, 1], y spans [0, h], so that the ring is round.
  float h = 1.0 / ratio;
  vec2 p = vec2(uv.x, uv.y * h);
  vec2 c = vec2(center.x, center.y * h);
  vec2 v = p - c;
  float d = sqrt(v.x * v.x + v.y * v.y);
  // The corner farthest from the centre: the ring has left the frame once it is past it.
  float fx = max(c.x, 1.0 - c.x);
  float fy = max(c.y, h - c.y);
  float far = sqrt(fx * fx + fy * fy);
  float hw = max(width * 0.5, 0.0001);
  // The ring's middle runs from −hw (wholly before the centre) to far + hw (wholly past it).
  float ring = progress * (far + 2.0 * hw) - hw;
  // x: −1 at the ring's inner edge, 1 at its outer edge.
  float x = (d - ring) / hw;
  if (x >= 1.0) return getFromColor(uv);
  if (x <= -1.0) return getToColor(uv);
  // The wave's slope: a push along the radius that is 0, with zero slope, at both edges.
  float k = 1.0 - x * x;
  float push = scale * x * k * k;
  vec2 dir = d > 0.0 ? v / d : vec2(0.0, 0.0);
  vec2 q = p - dir * push;
  vec2 quv = vec2(q.x, q.y * ratio);
  float s = (1.0 - x) * 0.5;
  float m = s * s * (3.0 - 2.0 * s);
  vec4 a = getFromColor(quv);
  vec4 b = getToColor(quv);
  vec4 color = a + (b - a) * m;
  if (useShadingImage) {
    vec2 n = dir * x;
    vec4 shade = lk_sampleImage(shadingImage, vec2(0.5 + 0.5 * n.x, 0.5 + 0.5 * n.y));
    color = color * (vec4(1.0) + (shade - 1.0) * k);
  }
  return color;
}
