// A picture shader written for PictureShaderTests: GLSL ES 1.00 (no version line), as WebGL 1
// compiles it. Red rises left to right, green bottom to top (gl_FragCoord's row 0 is the bottom
// row), blue is the fractional part of the time.
precision mediump float;

uniform vec2 resolution;
uniform float time;

void main() {
  gl_FragColor = vec4(gl_FragCoord.x / resolution.x, gl_FragCoord.y / resolution.y, fract(time), 1.0);
}
