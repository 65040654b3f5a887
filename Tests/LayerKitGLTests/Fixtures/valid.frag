#version 300 es
// A fragment shader that compiles and links with fullscreen.vert.
precision highp float;

in vec2 v_uv;
out vec4 fragColor;

void main() {
  fragColor = vec4(v_uv, 0.0, 1.0);
}
