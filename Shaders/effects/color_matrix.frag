#version 300 es
// A colour-matrix filter (FilterOperation.colorMatrix): the GLSL twin of
// RenderMath.applyColorMatrix, premultiply(clamp(M * unpremultiply(in) + bias, 0, 1)), with the
// same order of operations. Reads outside the input's bounds are transparent.

precision highp float;
precision highp int;
precision highp sampler2D;

// Texture unit 0: the input surface, whose texel (0, 0) is target pixel u_inputOrigin.
uniform sampler2D u_input;
uniform ivec2 u_inputOrigin;
// Target pixel of the output surface's texel (0, 0).
uniform ivec2 u_outputOrigin;
// ColorMatrix rows r, g, b, a and bias.
uniform vec4 u_r;
uniform vec4 u_g;
uniform vec4 u_b;
uniform vec4 u_a;
uniform vec4 u_bias;

out vec4 fragColor;

// RenderMath.unpremultiply.
vec4 unpremultiply(vec4 c) {
  return c.w > 0.0 ? vec4(c.x / c.w, c.y / c.w, c.z / c.w, c.w) : vec4(0.0);
}

float row(vec4 r, vec4 u) {
  return ((r.x * u.x + r.y * u.y) + r.z * u.z) + r.w * u.w;
}

void main() {
  ivec2 size = textureSize(u_input, 0);
  ivec2 texel = ivec2(gl_FragCoord.xy) + u_outputOrigin - u_inputOrigin;
  bool inside = texel.x >= 0 && texel.y >= 0 && texel.x < size.x && texel.y < size.y;
  vec4 c = texelFetch(u_input, clamp(texel, ivec2(0), size - 1), 0);
  vec4 texelColor = inside ? c : vec4(0.0);

  vec4 u = unpremultiply(texelColor);
  vec4 v = vec4(row(u_r, u), row(u_g, u), row(u_b, u), row(u_a, u)) + u_bias;
  vec4 k = vec4(min(max(v.x, 0.0), 1.0), min(max(v.y, 0.0), 1.0), min(max(v.z, 0.0), 1.0), min(max(v.w, 0.0), 1.0));
  fragColor = vec4(k.x * k.w, k.y * k.w, k.z * k.w, k.w);
}
