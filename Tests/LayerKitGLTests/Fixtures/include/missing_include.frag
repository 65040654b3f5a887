#version 300 es
// Includes a file that exists nowhere, on line 4; GLRendererTests asserts the error names line 4.
precision highp float;
#include "no_such_prelude.glsl"

out vec4 fragColor;

void main() {
  fragColor = vec4(1.0);
}
