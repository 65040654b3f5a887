#version 300 es
// Compiles, but does not link with fullscreen.vert: v_uv is a vec2 there and a vec3 here.
precision highp float;

in vec3 v_uv;
out vec4 fragColor;

void main() {
  fragColor = vec4(v_uv, 1.0);
}
