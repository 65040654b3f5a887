// LayerKit test fixture, in the gl-transitions form: default comments as authors write them, a
// note after the value's `;`, and bool defaults written 1 and 0 (WebGL hosts set bools from
// numbers) as well as true.
uniform float cut; // = 0.4 ; // if 0.0, the colour has no red
uniform float lift; // = 0.2; // a note after the value
uniform bool flip; // = 1
uniform bool still; // = 0
uniform bool plain; /* = true */

// With the defaults t is progress; between the ends a flat (cut, lift, 0.6, 1).
vec4 transition(vec2 uv) {
  float t = flip ? progress : 1.0 - progress;
  if (still) t = 0.0;
  if (t <= 0.0) return getFromColor(uv);
  if (t >= 1.0) return getToColor(uv);
  return vec4(cut, lift, plain ? 0.6 : 0.0, 1.0);
}
