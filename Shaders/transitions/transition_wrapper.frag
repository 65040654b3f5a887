#version 300 es
// The host of every transition in the gl-transitions form (TransitionPass in RenderList.swift).
// The GPU backend inserts the effect's text, adapted to GLSL ES 3.00 by GLTransitionSource, at
// the marker line below, after a `#line 1 1` so the driver reports the effect file's own lines
// (source string 1), and resumes this file's numbering after it with `#line N 0`. After the
// effect's text comes lk_init_globals (GLTransitionSource.initializerFunction): the initializers
// of the effect's file-scope variables, which GLSL ES 3.00 refuses there unless constant.
//
// The quad is effects/effect_quad.vert: the output surface, blending off; every pixel is written.

precision highp float;
precision highp int;
precision highp sampler2D;

uniform float progress;
// width / height of the pass's bounds.
uniform float ratio;
// Texture unit 0: the from-surface; unit 1: the to-surface. Both cover u_bounds, like the output.
uniform sampler2D from;
uniform sampler2D to;
// The pass's bounds in target pixels: (x, y, width, height).
uniform vec4 u_bounds;
// Target pixel of the output surface's texel (0, 0) (its bounds' origin).
uniform vec2 u_outputOrigin;

out vec4 fragColor;

// RenderMath.sampleBilinear, as in layer/layer_quad.frag: manual bilinear with clamp-to-edge over
// texelFetch (never the hardware filter), texel centres at (i + 0.5) / size, a + (b - a) * t.
vec4 sampleBilinear(sampler2D tex, vec2 uv) {
  // Non-finite coordinates sample nothing.
  if (!(abs(uv.x) < 1e30 && abs(uv.y) < 1e30)) return vec4(0.0);
  ivec2 size = textureSize(tex, 0);
  vec2 t = uv * vec2(float(size.x), float(size.y)) - 0.5;
  float fx0 = floor(t.x);
  float fy0 = floor(t.y);
  vec2 f = vec2(t.x - fx0, t.y - fy0);
  int x0 = int(min(max(fx0, 0.0), float(size.x - 1)));
  int x1 = int(min(max(fx0 + 1.0, 0.0), float(size.x - 1)));
  int y0 = int(min(max(fy0, 0.0), float(size.y - 1)));
  int y1 = int(min(max(fy0 + 1.0, 0.0), float(size.y - 1)));
  vec4 c00 = texelFetch(tex, ivec2(x0, y0), 0);
  vec4 c10 = texelFetch(tex, ivec2(x1, y0), 0);
  vec4 c01 = texelFetch(tex, ivec2(x0, y1), 0);
  vec4 c11 = texelFetch(tex, ivec2(x1, y1), 0);
  vec4 top = c00 + (c10 - c00) * f.x;
  vec4 bottom = c01 + (c11 - c01) * f.x;
  return top + (bottom - top) * f.y;
}

// gl-transitions' uv has y up; the surfaces are stored top-down, so row v = 1 − uv.y.
vec4 getFromColor(vec2 uv) {
  return sampleBilinear(from, vec2(uv.x, 1.0 - uv.y));
}

vec4 getToColor(vec2 uv) {
  return sampleBilinear(to, vec2(uv.x, 1.0 - uv.y));
}

// LAYERKIT_TRANSITION_SOURCE

void main() {
  // First, as a GLSL 1.20 host initializes globals before main(): transition() may read them.
  lk_init_globals();
  // The target pixel centre (i + 0.5, j + 0.5): GL row j of a surface is its texel row j.
  vec2 p = gl_FragCoord.xy + u_outputOrigin;
  vec2 uv = vec2((p.x - u_bounds.x) / u_bounds.z, 1.0 - (p.y - u_bounds.y) / u_bounds.w);
  fragColor = transition(uv);
}
