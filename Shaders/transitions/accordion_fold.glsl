// Core Image's CIAccordionFoldTransition: the old content folds up towards the top edge like an
// accordion of 2 × `numberOfFolds` panels, crossfading into the new content it uncovers. Below
// the folds, a strip `bottomHeight` high stays flat and rises with them. The panels recede in
// alternate creases (narrower, with perspective) and the receding creases darken by
// `foldShadowAmount`.
// Lengths are fractions of the output's width, as the pass has no extent (Core Image's default
// bottom height, 0 px, is 0). CPU twin: CPUEffects.AccordionFold.

uniform float bottomHeight; // = 0.0
uniform int numberOfFolds; // = 3
uniform float foldShadowAmount; // = 0.1

vec4 transition(vec2 uv) {
  // Width units: x spans [0, 1], y spans [0, h].
  float h = 1.0 / ratio;
  vec2 p = vec2(uv.x, uv.y * h);
  float b = clamp(bottomHeight, 0.0, h);
  // The folded part of the page, its panels' height and its height once folded.
  float span = h - b;
  float n = float(max(numberOfFolds, 1)) * 2.0;
  float panel = span / n;
  float folded = span * (1.0 - progress);
  float lean = 1.0 - progress;
  float depth = panel * sqrt(max(1.0 - lean * lean, 0.0));
  float yl = h - p.y;
  vec2 src;
  float coverage = 1.0;
  float shade = 1.0;
  if (yl < folded) {
    // Creases at every folded panel height: even ones at the front, odd ones recede by depth.
    float f = yl / (folded / n);
    float tri = abs(f - 2.0 * floor(f * 0.5 + 0.5));
    float z = tri * depth;
    float sx = 0.5 + (p.x - 0.5) * (1.0 + z * 1.5);
    src = vec2(sx, h - yl / lean);
    coverage = clamp(1.0 + min(sx, 1.0 - sx) / 0.002, 0.0, 1.0);
    shade = clamp(1.0 - foldShadowAmount * 3.0 * z / panel, 0.0, 1.0);
  } else {
    // The flat strip, risen by what the folds gave up; below it the page ends (softly).
    src = vec2(p.x, p.y - span * progress);
    coverage = clamp(1.0 + src.y / 0.002, 0.0, 1.0);
  }
  vec4 a = getFromColor(vec2(src.x, src.y * ratio));
  a = vec4(a.rgb * shade, a.a);
  vec4 b2 = getToColor(uv);
  float w = coverage * (1.0 - progress * progress);
  return b2 + (a - b2) * w;
}
