#version 300 es
// A tint filter (FilterOperation.tint): RenderMath.tint, colour (premultiplied) * in.alpha, the
// shape of a shadow. Reads outside the input's bounds are transparent.

precision highp float;
precision highp int;
precision highp sampler2D;

// Texture unit 0: the input surface, whose texel (0, 0) is target pixel u_inputOrigin.
uniform sampler2D u_input;
uniform ivec2 u_inputOrigin;
// Target pixel of the output surface's texel (0, 0).
uniform ivec2 u_outputOrigin;
uniform vec4 u_color;

out vec4 fragColor;

void main() {
  ivec2 size = textureSize(u_input, 0);
  ivec2 texel = ivec2(gl_FragCoord.xy) + u_outputOrigin - u_inputOrigin;
  bool inside = texel.x >= 0 && texel.y >= 0 && texel.x < size.x && texel.y < size.y;
  vec4 c = texelFetch(u_input, clamp(texel, ivec2(0), size - 1), 0);
  vec4 texelColor = inside ? c : vec4(0.0);
  fragColor = u_color * texelColor.w;
}
