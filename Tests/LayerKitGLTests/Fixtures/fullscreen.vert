#version 300 es
// A minimal vertex shader to pair with the fragment fixtures.
precision highp float;

out vec2 v_uv;

void main() {
  vec2 c = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  v_uv = c;
  gl_Position = vec4(c * 2.0 - 1.0, 0.0, 1.0);
}
