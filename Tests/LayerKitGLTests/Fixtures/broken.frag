#version 300 es
// A fragment shader with one deliberate error, on line 9: `undeclaredColor` is not declared.
// GLRendererTests asserts that the compile error names this file, the fragment stage and line 9.
precision highp float;

out vec4 fragColor;

void main() {
  fragColor = undeclaredColor;
}
