// The page curl of transitions/page_curl.glsl and page_curl_with_shadow.glsl, written once. The
// including effect declares the uniforms (angle, radius, backsideImage, useBacksideImage; with
// the shadow shadowSize and shadowAmount too), defines PAGE_CURL_SHADOW as 1 for the shadow or 0,
// and returns pageCurl(uv) from its transition(). CPU twins: CPUEffects.PageCurl and
// CPUEffects.PageCurlWithShadow.

// How much of the page covers a point that maps to page point q (width units): 1 on the page,
// falling to 0 over 0.002 outside it, so that the page's edges are continuous, not stepped.
float cover(vec2 q, float h) {
  float e = min(min(q.x, 1.0 - q.x), min(q.y, h - q.y));
  return clamp(1.0 + e / 0.002, 0.0, 1.0);
}

// The page's back: the colour moved 60 % of the way to white (premultiplied: to its alpha).
vec4 back(vec4 c) {
  return vec4(c.rgb + (vec3(c.a) - c.rgb) * 0.6, c.a);
}

// What the page's back shows at the turned-over page point q (width units): backsideImage there
// (so mirrored as the page turns) with useBacksideImage, else back() of the old content there.
vec4 layer(vec2 q) {
  vec2 quv = vec2(q.x, q.y * ratio);
  if (useBacksideImage) return lk_sampleImage(backsideImage, quv);
  return back(getFromColor(quv));
}

vec4 pageCurl(vec2 uv) {
  // Width units: x spans [0, 1], y spans [0, h], so that the cylinder is round.
  float h = 1.0 / ratio;
  float r = max(radius, 0.0001);
  vec2 d = vec2(cos(angle), sin(angle));
  vec2 p = vec2(uv.x, uv.y * h);
  float s = p.x * d.x + p.y * d.y;
  // The frame's extent along d: its corners projected on d.
  float lo = min(d.x, 0.0) + min(d.y * h, 0.0);
  float hi = max(d.x, 0.0) + max(d.y * h, 0.0);
  // The fold line runs from hi (the page flat) to lo − r (the page wholly lifted off).
  float line = hi - (hi - lo + r) * progress;
  vec4 color = getToColor(uv);
#if PAGE_CURL_SHADOW
  // The shadow: black at alpha k over the new content (premultiplied source-over).
  float reach = max(shadowSize * r, 0.0001);
  float u = clamp((s - line - r) / reach, 0.0, 1.0);
  float k = clamp(shadowAmount, 0.0, 1.0) * (1.0 - u) * (1.0 - u) * min((1.0 - progress) * 4.0, 1.0);
  color = color * (1.0 - k) + vec4(0.0, 0.0, 0.0, k);
#endif
  if (s <= line) {
    // The page still flat, and over it the part that has turned over past the cylinder.
    color = getFromColor(uv);
    float s0 = line + 3.14159265 * r + (line - s);
    vec2 q = p + d * (s0 - s);
    color = color + (layer(q) - color) * cover(q, h);
  } else {
    // Over the cylinder: the page rising on its near side, its back on the far side. The
    // silhouette at s = line + r fades over 0.002 too.
    float t = min((s - line) / r, 1.0);
    float a = asin(t);
    float rim = clamp((line + r - s) / 0.002, 0.0, 1.0);
    float s1 = line + r * a;
    vec2 q1 = p + d * (s1 - s);
    vec4 front = getFromColor(vec2(q1.x, q1.y * ratio));
    // The rising page turns away from the light.
    float shade = 0.7 + 0.3 * cos(a);
    front = vec4(front.rgb * shade, front.a);
    color = color + (front - color) * (cover(q1, h) * rim);
    float s2 = line + r * (3.14159265 - a);
    vec2 q2 = p + d * (s2 - s);
    color = color + (layer(q2) - color) * (cover(q2, h) * rim);
  }
  return color;
}
