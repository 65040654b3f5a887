// An editly gl layer's fragment shader (WebGL 1) whose colour is not a number from the middle
// of the layer's time (the square root of a negative number): LayerKit must refuse it when it
// loads, naming the file and the time, not draw black frames.
precision mediump float;
uniform float time;
uniform vec2 resolution;
void main() {
  vec2 uv = gl_FragCoord.xy / resolution;
  gl_FragColor = vec4(uv, sqrt(0.45 - time), 1.0);
}
