// `resolution` declared as a vec3 (Shadertoy's iResolution shape): refused at line 5, the
// renderer sets a vec2.
precision mediump float;

uniform vec3 resolution;

void main() {
  gl_FragColor = vec4(gl_FragCoord.xy / resolution.xy, 0.0, 1.0);
}
