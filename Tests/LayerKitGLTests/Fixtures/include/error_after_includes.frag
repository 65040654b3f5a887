#version 300 es
// Includes the shipped sampler (twice: inserted once) and prelude.glsl, then fails on its own
// line 16; GLRendererTests asserts the error names this file and line 16.
precision highp float;
precision highp sampler2D;

uniform sampler2D u_texture;
out vec4 fragColor;

#include "layer/include/sample_bilinear.glsl"
#include "prelude.glsl"
#include "layer/include/sample_bilinear.glsl" // a second time: nothing more

void main() {
  vec4 c = lk_sampleBilinear(u_texture, vec2(0.5)) * preludeValue();
  fragColor = c * undeclaredAfterIncludes;
}
