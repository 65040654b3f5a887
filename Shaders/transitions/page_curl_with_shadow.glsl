// Core Image's CIPageCurlWithShadowTransition: the page curl of page_curl.glsl (the old content
// curls away around a cylinder of `radius` whose fold line sweeps along `angle`, radians, 0
// lifting the right edge first; the page's back shows a lightened mirror of the old content or,
// with `useBacksideImage`, backsideImage mirrored as the page turns),
// plus the shadow the lifted page casts on the new content: it is darkest under the cylinder
// and fades out over `shadowSize` × radius beyond it; `shadowAmount` is its darkness, and it
// fades as the page leaves in the last quarter.
// Lengths are fractions of the output's width, as the pass has no extent: over a 640-px-wide
// image Core Image's radius of 100 px is 0.15625. CPU twin: CPUEffects.PageCurlWithShadow.

uniform float angle; // = 0.0
uniform float radius; // = 0.15625
uniform float shadowSize; // = 0.5
uniform float shadowAmount; // = 0.7
uniform sampler2D backsideImage;
uniform bool useBacksideImage; // = false

#define PAGE_CURL_SHADOW 1
#include "transitions/include/page_curl.glsl"

vec4 transition(vec2 uv) {
  return pageCurl(uv);
}
