// A vertex shader whose corners come in under another name: refused, a picture shader's
// vertex shader takes `position`.
attribute vec2 corner;

void main() {
  gl_Position = vec4(corner, 0.0, 1.0);
}
