// A picture shader with one deliberate error, on line 7: `undefinedShade` is not declared.
precision mediump float;

uniform float time;

void main() {
  gl_FragColor = vec4(undefinedShade, time, 0.0, 1.0);
}
