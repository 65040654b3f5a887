// Name: circle_open
// Author: the LayerKit project (an example for `layerkit --shader` / `--transition FILE.glsl`)
// License: CC0 1.0 (made by the LayerKit project for its examples; see examples/README.md)
//
// A round hole opens from `center` and grows until it uncovers the whole frame, showing the
// to-image inside it; `smoothness` is the width of the soft edge, in units of the frame's height.
//
// The radius grows from 0 to the distance of the farthest corner plus the soft edge, so at
// progress 0 every pixel is the from-image and at progress 1 every pixel is the to-image, exactly:
// the mix weight is then exactly 1 or 0 (smoothstep clamps), never "almost".

uniform float smoothness; // = 0.1
uniform vec2 center; // = vec2(0.5, 0.5)

vec4 transition(vec2 uv) {
  // A zero (or negative) smoothness would make smoothstep's edges equal (undefined in GLSL).
  float soft = max(smoothness, 1e-5);
  // Distances in a space where one unit is the frame's height, so the circle stays round.
  vec2 aspect = vec2(ratio, 1.0);
  float dist = length((uv - center) * aspect);
  vec2 farCorner = vec2(max(center.x, 1.0 - center.x), max(center.y, 1.0 - center.y)) * aspect;
  float radius = progress * (length(farCorner) + soft);
  // 1 outside the circle (from-image), 0 inside (to-image), a smooth ramp of width `soft`
  // just inside the edge.
  float outside = smoothstep(-soft, 0.0, dist - radius);
  return mix(getToColor(uv), getFromColor(uv), outside);
}
