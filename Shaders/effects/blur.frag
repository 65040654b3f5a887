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
// weights[k] is u_weights[k / 4][k % 4], k < u_weightCount <= RenderList.maxBlurTaps (256).
uniform vec4 u_weights[64];
uniform int u_weightCount;

out vec4 fragColor;

// in(p) at the input texel `texel`: the stored bytes / 255 inside the input, 0 outside.
vec4 read(ivec2 texel, ivec2 size) {
  bool inside = texel.x >= 0 && texel.y >= 0 && texel.x < size.x && texel.y < size.y;
  // Fetch a texel that exists either way (out-of-range texelFetch is undefined), then select.
  vec4 c = texelFetch(u_input, clamp(texel, ivec2(0), size - 1), 0);
  return inside ? c : vec4(0.0);
}

float weight(int k) {
  return u_weights[k >> 2][k & 3];
}

void main() {
  ivec2 size = textureSize(u_input, 0);
  // The output pixel in the input's texel space.
  ivec2 centre = ivec2(gl_FragCoord.xy) + u_outputOrigin - u_inputOrigin;
  int r = u_weightCount - 1;
  vec4 sum = vec4(0.0);
  for (int i = -r; i <= r; ++i) {
    sum = sum + weight(abs(i)) * read(centre + i * u_axis, size);
  }
  fragColor = sum;
}
