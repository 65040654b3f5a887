#version 300 es
// One direction of a separable Gaussian (FilterOperation.blur):
// out(p) = sum of weights[|i|] * in(p + i * axis) for i = -r ... r in that order, r = count - 1,
// with exact texel reads and transparent outside the input's bounds (a bounds check, never a
// clamp). Written to an RGBA8 surface, whose store rounds to nearest.

precision highp float;
precision highp int;
precision highp sampler2D;

// Texture unit 0: the input surface, whose texel (0, 0) is target pixel u_inputOrigin.
uniform sampler2D u_input;
uniform ivec2 u_inputOrigin;
// Target pixel of the output surface's texel (0, 0).
uniform ivec2 u_outputOrigin;
// (1, 0) for a horizontal pass, (0, 1) for a vertical one.
uniform ivec2 u_axis;
// The whole kernel, i = -r ... r at index i + r (weights[|i|] of the pass), zero-padded to a
// multiple of 4: k < 2r + 1 <= 2 * RenderList.maxBlurTaps - 1 (511), so 128 vec4s. Reading it a
// vec4 at a time keeps the summation order i = -r ... r; the padding adds 0 * texel, which
// changes no sum.
uniform vec4 u_kernel[128];
uniform int u_radius;

out vec4 fragColor;

// in(p) at the input texel `texel`: the stored bytes / 255 inside the input, 0 outside.
vec4 read(ivec2 texel, ivec2 size) {
  bool inside = texel.x >= 0 && texel.y >= 0 && texel.x < size.x && texel.y < size.y;
  // Fetch a texel that exists either way (out-of-range texelFetch is undefined), then select.
  vec4 c = texelFetch(u_input, clamp(texel, ivec2(0), size - 1), 0);
  return inside ? c : vec4(0.0);
}

void main() {
  ivec2 size = textureSize(u_input, 0);
  // The output pixel in the input's texel space.
  ivec2 centre = ivec2(gl_FragCoord.xy) + u_outputOrigin - u_inputOrigin;
  int groups = (2 * u_radius + 4) / 4;
  ivec2 first = centre - u_radius * u_axis;
  ivec2 last = first + (4 * groups - 1) * u_axis;
  vec4 sum = vec4(0.0);
  if (all(greaterThanEqual(first, ivec2(0))) && all(lessThan(last, size))) {
    // Every tap inside the input: no bounds checks (same values as the checked loop).
    for (int j = 0; j < groups; ++j) {
      vec4 w = u_kernel[j];
      ivec2 p = first + (4 * j) * u_axis;
      sum = sum + w.x * texelFetch(u_input, p, 0);
      sum = sum + w.y * texelFetch(u_input, p + u_axis, 0);
      sum = sum + w.z * texelFetch(u_input, p + 2 * u_axis, 0);
      sum = sum + w.w * texelFetch(u_input, p + 3 * u_axis, 0);
    }
  } else {
    for (int j = 0; j < groups; ++j) {
      vec4 w = u_kernel[j];
      ivec2 p = first + (4 * j) * u_axis;
      sum = sum + w.x * read(p, size);
      sum = sum + w.y * read(p + u_axis, size);
      sum = sum + w.z * read(p + 2 * u_axis, size);
      sum = sum + w.w * read(p + 3 * u_axis, size);
    }
  }
  fragColor = sum;
}
