// Core Image's CIPageCurlTransition: the old content is a page that curls away around a
// cylinder of `radius`, its fold line sweeping across the frame along `angle` (radians; 0 lifts
// the right edge first and sweeps leftwards, uv y up), uncovering the new content. Where the page
// has turned over, its back shows a lightened mirror of the old content or, with
// `useBacksideImage`, Core Image's backside image, mirrored as the page turns. Core Image's
// shading image has no counterpart.
// Lengths are fractions of the output's width, as the pass has no extent: over a 640-px-wide
// image Core Image's radius of 100 px is 0.15625. CPU twin: CPUEffects.PageCurl.

uniform float angle; // = 0.0
uniform float radius; // = 0.15625
uniform sampler2D backsideImage;
uniform bool useBacksideImage; // = false

#define PAGE_CURL_SHADOW 0
#include "transitions/include/page_curl.glsl"

vec4 transition(vec2 uv) {
  return pageCurl(uv);
}
