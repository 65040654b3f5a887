// RenderMath.sampleBilinear, the one GLSL copy: manual bilinear with clamp-to-edge over texelFetch
// (never the hardware filter), texel centres at (i + 0.5) / size, a + (b - a) * t. texelFetch of
// the RGBA8 texture gives the stored bytes / 255. Works on any surface: uv runs over its own
// bounds. Included (`#include`, docs/ARCHITECTURE.md) by layer/layer_quad.frag and
// transitions/transition_wrapper.frag, which give the precision; the `lk_` prefix keeps it apart
// from the names of the user's transition files hosted there.
// RenderMath.sampleNearest: the texel containing uv, clamp-to-edge (the `nearest` filter).
vec4 lk_sampleNearest(sampler2D tex, vec2 uv) {
  if (!(abs(uv.x) < 1e30 && abs(uv.y) < 1e30)) return vec4(0.0);
  ivec2 size = textureSize(tex, 0);
  vec2 t = uv * vec2(float(size.x), float(size.y));
  int x = int(min(max(floor(t.x), 0.0), float(size.x - 1)));
  int y = int(min(max(floor(t.y), 0.0), float(size.y - 1)));
  return texelFetch(tex, ivec2(x, y), 0);
}

vec4 lk_sampleBilinear(sampler2D tex, vec2 uv) {
  // Non-finite coordinates sample nothing.
  if (!(abs(uv.x) < 1e30 && abs(uv.y) < 1e30)) return vec4(0.0);
  ivec2 size = textureSize(tex, 0);
  vec2 t = uv * vec2(float(size.x), float(size.y)) - 0.5;
  float fx0 = floor(t.x);
  float fy0 = floor(t.y);
  vec2 f = vec2(t.x - fx0, t.y - fy0);
  // Clamp in float first: uv may be far outside [0, 1] (or huge) where contents overhang.
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
