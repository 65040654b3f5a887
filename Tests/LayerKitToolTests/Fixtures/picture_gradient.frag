// A picture shader in the form of editly's gl layers (GLSL ES 1.00, as WebGL 1 compiles it),
// written for EditlyCommandTests: red rises left to right, green bottom to top, blue is the
// fractional part of the time.
precision mediump float;

uniform vec2 resolution;
uniform float time;

void main() {
  gl_FragColor = vec4(gl_FragCoord.x / resolution.x, gl_FragCoord.y / resolution.y, fract(time), 1.0);
}
