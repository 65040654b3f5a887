// Written for LayerKit's tests, in the shape of gl-transitions' BookFlip, Fold and SimpleFlip:
// where the page has turned past a pixel, the from-image is read at a coordinate that is not a
// number (here the square root of a negative number on the right of the fold), and the result is
// thrown away — by mix with a step of 0 or 1, and by a branch. The picture never depends on such
// a read, so the file loads: only a colour that changes with it is refused.
vec4 transition(vec2 uv) {
  float fold = 1.0 - progress;
  // uv itself left of the fold; NaN right of it (0 times the root of a negative number).
  vec2 turned = uv + vec2(0.0, 0.0 * sqrt(fold - uv.x));
  vec4 page = getFromColor(turned);
  vec4 under = getToColor(uv);
  vec4 picked = mix(page, under, step(fold, uv.x));
  if (uv.x > fold) {
    vec4 discarded = getFromColor(vec2(sqrt(fold - uv.x - 1.0)));
    return discarded.a > 2.0 ? under : picked;
  }
  return picked;
}
