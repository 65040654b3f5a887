// The vertex shader of a picture shader (ShaderPainter, editly's `gl` layer) when the user gives
// none: GLSL ES 1.00 (no version directive), as WebGL 1 compiles it. The renderer feeds the
// attribute `position` the four corners of the whole frame in clip space, (-1, -1), (1, -1),
// (1, 1), (-1, 1), drawn as a triangle fan; each corner goes through as it is, so the fragment
// shader's gl_FragCoord covers every pixel of the picture once. A user's own vertex shader takes
// the same attribute.

attribute vec2 position;

void main() {
  gl_Position = vec4(position, 0.0, 1.0);
}
