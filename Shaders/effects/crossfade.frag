#version 300 es
// A contents crossfade (TextureSource.crossfade): texel (i, j) of the output is
// RenderMath.crossfade of the two images' texels (i, j), on their byte values: a + (b − a) × t,
// clamped to [0, 255], rounded half up. A missing side reads as transparent. The output is an
// image of the two images' size that the draw then samples like any image.

precision highp float;
precision highp int;
precision highp sampler2D;

// Texture unit 0: the image at weight 0; unit 1: the image at weight 1.
uniform sampler2D u_from;
uniform sampler2D u_to;
uniform bool u_hasFrom;
uniform bool u_hasTo;
uniform float u_weight;

out vec4 fragColor;

// The stored byte of a unorm8 texel: exact, as k / 255 × 255 rounds to k.
vec4 bytes(sampler2D s, ivec2 p) {
  return floor(texelFetch(s, p, 0) * 255.0 + 0.5);
}

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  vec4 a = u_hasFrom ? bytes(u_from, p) : vec4(0.0);
  vec4 b = u_hasTo ? bytes(u_to, p) : vec4(0.0);
  vec4 m = floor(min(max(a + (b - a) * u_weight, 0.0), 255.0) + 0.5);
  fragColor = m / 255.0;
}
