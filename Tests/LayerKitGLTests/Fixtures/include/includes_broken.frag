#version 300 es
// Includes broken_prelude.glsl, which does not compile on its line 4; GLRendererTests asserts the
// error names that file and line, not this one.
precision highp float;

out vec4 fragColor;

#include "broken_prelude.glsl"

void main() {
  fragColor = vec4(preludeValue());
}
